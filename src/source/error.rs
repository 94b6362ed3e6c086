//! Load errors that name the file, line, column and field, so a designer can fix them at once.

use super::limits::{MAX_FILE_BYTES, MAX_NESTING};
use super::source_map::{self, Pos};
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

/// Reads a file's text; failing that, an error naming the file and why: missing, unreadable, over
/// `MAX_FILE_BYTES` (refused before it is read), or not UTF-8 (with the line, column and byte
/// offset of the first bad byte).
pub fn read_file(path: &std::path::Path) -> Result<String, LoadError> {
    use std::io::Read;
    let error = |pos: Option<Pos>, message: String| LoadError {
        file: path.to_path_buf(),
        pos,
        field: String::new(),
        message,
    };
    let too_big = |size: u64| {
        format!(
            "the file is {size} bytes; files over {} MiB ({MAX_FILE_BYTES} bytes) are refused",
            MAX_FILE_BYTES / 1048576
        )
    };
    let file = std::fs::File::open(path).map_err(|e| error(None, format!("cannot read the file: {e}")))?;
    if let Ok(meta) = file.metadata()
        && meta.len() > MAX_FILE_BYTES
    {
        return Err(error(None, too_big(meta.len())));
    }
    // Read at most one byte past the limit: a file that grows while read, or a device, stops there.
    let mut bytes = Vec::new();
    file.take(MAX_FILE_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| error(None, format!("cannot read the file: {e}")))?;
    if bytes.len() as u64 > MAX_FILE_BYTES {
        return Err(error(None, too_big(bytes.len() as u64)));
    }
    String::from_utf8(bytes).map_err(|e| {
        let offset = e.utf8_error().valid_up_to();
        let bytes = e.as_bytes();
        let valid = std::str::from_utf8(&bytes[..offset]).unwrap_or_default();
        error(
            Some(source_map::pos_of_offset(valid, offset)),
            format!(
                "the file is not UTF-8 text: byte 0x{:02X} at byte offset {offset} (save it as UTF-8)",
                bytes[offset]
            ),
        )
    })
}

/// The text of one file being loaded, with what is needed to point into it.
pub struct Source<'a> {
    pub file: PathBuf,
    pub text: &'a str,
    /// Where the document being validated sits in the text (`scenario.` inside a saved game).
    prefix: String,
}

impl<'a> Source<'a> {
    /// A file's text; a UTF-8 byte-order mark at its start is skipped (some editors write one).
    pub fn new(file: impl Into<PathBuf>, text: &'a str) -> Self {
        Self {
            file: file.into(),
            text: text.strip_prefix('\u{feff}').unwrap_or(text),
            prefix: String::new(),
        }
    }

    /// The same text, for validating the document in its field `field` (a saved game's
    /// scenario): errors name and locate `field.…`.
    pub fn nested(&self, field: &str) -> Source<'a> {
        Source {
            file: self.file.clone(),
            text: self.text,
            prefix: format!("{}{field}.", self.prefix),
        }
    }

    /// An error about `field`, located at that field in the text.
    pub fn error(&self, field: impl Into<String>, message: impl Into<String>) -> LoadError {
        let field = format!("{}{}", self.prefix, field.into());
        let field = field.trim_end_matches('.').to_string();
        let pos = source_map::locate(self.text, &field);
        LoadError {
            file: self.file.clone(),
            pos,
            field,
            message: shortened(message.into()),
        }
    }

    /// Parses the text as RON into `T` (unknown fields refused, `Some` implicit), turning a syntax
    /// or type error into a `LoadError` at the parser's position, naming the field it is in.
    pub fn parse<T: serde::de::DeserializeOwned>(&self) -> Result<T, LoadError> {
        ron_options().from_str(self.text).map_err(|e| {
            let pos = Pos {
                line: e.span.start.line,
                col: e.span.start.col,
            };
            let field = match &e.code {
                ron::Error::NoSuchStructField { found, .. } => found.clone(),
                ron::Error::MissingStructField { field, .. } | ron::Error::DuplicateStructField { field, .. } => {
                    field.to_string()
                }
                _ => source_map::field_at(self.text, pos).unwrap_or_default(),
            };
            let message = match &e.code {
                ron::Error::IntegerOutOfBounds => "the number is out of range for this field".to_string(),
                ron::Error::ExceededRecursionLimit => {
                    format!("brackets are nested more than {MAX_NESTING} deep")
                }
                code => code.to_string(),
            };
            let message = if source_map::ends_open(self.text) {
                format!("{message} (the file ends before its brackets close: it looks cut short)")
            } else {
                message
            };
            LoadError {
                file: self.file.clone(),
                pos: Some(pos),
                field,
                message,
            }
        })
    }
}

/// A message at most `MAX_MESSAGE_CHARS` long: one that quotes a value from the file (an unknown
/// terrain id 10 MB long) is cut, so an error never floods a terminal or a panel.
fn shortened(message: String) -> String {
    const MAX_MESSAGE_CHARS: usize = 1_000;
    match message.char_indices().nth(MAX_MESSAGE_CHARS) {
        Some((cut, _)) => format!(
            "{}… (cut: the message quoted {} characters)",
            &message[..cut],
            message.chars().count()
        ),
        None => message,
    }
}

/// RON options shared by every loader and saver: `implicit_some` so designers write `2` for
/// `Some(2)`, and unwrapped variant newtypes so `combat: Rommel(grid: ...)` needs one pair of
/// parentheses; nesting past `MAX_NESTING` refused.
pub fn ron_options() -> ron::Options {
    ron::Options::default()
        .with_default_extension(
            ron::extensions::Extensions::IMPLICIT_SOME | ron::extensions::Extensions::UNWRAP_VARIANT_NEWTYPES,
        )
        .with_recursion_limit(MAX_NESTING)
}

/// Writes `value` as pretty RON in the same dialect the loaders read. Lines end in `\n` on every
/// OS (ron's default is `\r\n` on Windows): the saves' scenario hash is taken over this text, so
/// a game saved on one system loads on another.
pub fn to_ron<T: serde::Serialize>(value: &T) -> Result<String, ron::Error> {
    let pretty = ron::ser::PrettyConfig::new()
        .new_line("\n")
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
