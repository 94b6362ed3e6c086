//! Load errors that name the file, line, column and field, so a designer can fix them at once.

use super::source_map::{Pos, SourceMap};
use std::fmt;
use std::path::PathBuf;

/// One thing wrong with a scenario, ruleset, case or save file.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub struct LoadError {
    /// The file, or a name such as `<embedded default scenario>`.
    pub file: PathBuf,
    /// Where in the file, when known.
    pub pos: Option<Pos>,
    /// The field path, e.g. `units[3].cell`; empty for syntax errors.
    pub field: String,
    pub message: String,
}

impl fmt::Display for LoadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.file.display())?;
        if let Some(p) = self.pos {
            write!(f, ":{}:{}", p.line, p.col)?;
        }
        if !self.field.is_empty() {
            write!(f, ": field `{}`", self.field)?;
        }
        write!(f, ": {}", self.message)
    }
}

/// Reads a file's text; failing that, an error naming the file and why.
pub fn read_file(path: &std::path::Path) -> Result<String, LoadError> {
    std::fs::read_to_string(path).map_err(|e| LoadError {
        file: path.to_path_buf(),
        pos: None,
        field: String::new(),
        message: format!("cannot read the file: {e}"),
    })
}

/// The text of one file being loaded, with what is needed to point into it.
pub struct Source<'a> {
    pub file: PathBuf,
    pub text: &'a str,
    /// Where the document being validated sits in the text (`scenario.` inside a saved game).
    prefix: String,
    map: std::cell::OnceCell<SourceMap>,
}

impl<'a> Source<'a> {
    pub fn new(file: impl Into<PathBuf>, text: &'a str) -> Self {
        Self {
            file: file.into(),
            text,
            prefix: String::new(),
            map: std::cell::OnceCell::new(),
        }
    }

    /// The same text, for validating the document in its field `field` (a saved game's
    /// scenario): errors name and locate `field.…`.
    pub fn nested(&self, field: &str) -> Source<'a> {
        Source {
            file: self.file.clone(),
            text: self.text,
            prefix: format!("{}{field}.", self.prefix),
            map: std::cell::OnceCell::new(),
        }
    }

    /// An error about `field`, located at that field in the text.
    pub fn error(&self, field: impl Into<String>, message: impl Into<String>) -> LoadError {
        let field = format!("{}{}", self.prefix, field.into());
        let field = field.trim_end_matches('.').to_string();
        let pos = self.map.get_or_init(|| SourceMap::new(self.text)).locate(&field);
        LoadError {
            file: self.file.clone(),
            pos,
            field,
            message: message.into(),
        }
    }

    /// Parses the text as RON into `T` (unknown fields refused, `Some` implicit), turning a syntax
    /// or type error into a `LoadError` at the parser's position.
    pub fn parse<T: serde::de::DeserializeOwned>(&self) -> Result<T, LoadError> {
        ron_options().from_str(self.text).map_err(|e| {
            let field = match &e.code {
                ron::Error::NoSuchStructField { found, .. } => found.clone(),
                ron::Error::MissingStructField { field, .. } | ron::Error::DuplicateStructField { field, .. } => {
                    field.to_string()
                }
                _ => String::new(),
            };
            LoadError {
                file: self.file.clone(),
                pos: Some(Pos {
                    line: e.span.start.line,
                    col: e.span.start.col,
                }),
                field,
                message: e.code.to_string(),
            }
        })
    }
}

/// RON options shared by every loader and saver: `implicit_some` so designers write `2` for
/// `Some(2)`, and unwrapped variant newtypes so `combat: Rommel(grid: ...)` needs one pair of
/// parentheses.
pub fn ron_options() -> ron::Options {
    ron::Options::default().with_default_extension(
        ron::extensions::Extensions::IMPLICIT_SOME | ron::extensions::Extensions::UNWRAP_VARIANT_NEWTYPES,
    )
}

/// Writes `value` as pretty RON in the same dialect the loaders read.
pub fn to_ron<T: serde::Serialize>(value: &T) -> Result<String, ron::Error> {
    let pretty = ron::ser::PrettyConfig::new()
        .depth_limit(4)
        .struct_names(false)
        .extensions(ron::extensions::Extensions::IMPLICIT_SOME);
    ron_options().to_string_pretty(value, pretty)
}

/// Names as a sorted, quoted list for messages: `` `clear`, `forest` ``.
pub fn list<'a>(names: impl Iterator<Item = &'a String>) -> String {
    let mut v: Vec<&str> = names.map(String::as_str).collect();
    v.sort();
    v.iter().map(|n| format!("`{n}`")).collect::<Vec<_>>().join(", ")
}
