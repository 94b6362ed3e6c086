//! Where a field of a RON document starts, so errors found after parsing (a unit off the map,
//! a duplicate id) can name the line and column of the field they are about, and which field a
//! parser error's position falls in.
//!
//! Paths look like `units[3].cell`, `map.legend.f`, `map.edges[0].between[2][1]`. One pass over
//! the text answers one question, in time linear in the text however deep it nests: the path is
//! kept as one string that grows and shrinks with the nesting, never rebuilt per level. Strings,
//! raw strings (`r#"…"#`), byte strings and comments are skipped whole, so brackets inside them
//! never look like nesting.

/// A line and column, both 1-based.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Default)]
pub struct Pos {
    pub line: usize,
    pub col: usize,
}

/// The line and column of byte `offset` in `text` (clamped to the text).
pub fn pos_of_offset(text: &str, offset: usize) -> Pos {
    let mut end = offset.min(text.len());
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    let before = &text[..end];
    let line = before.matches('\n').count() + 1;
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    Pos {
        line,
        col: before[line_start..].chars().count() + 1,
    }
}

/// Where `path` starts in `text`; when the exact path is not in the text, where its closest
/// parent starts (a field left out is reported at the struct that lacks it).
pub fn locate(text: &str, path: &str) -> Option<Pos> {
    // Candidate paths: the path itself and every parent, longest first.
    let mut wanted = vec![path.to_string()];
    let mut p = path.to_string();
    while let Some(cut) = p.rfind(['.', '[']) {
        p.truncate(cut);
        wanted.push(p.clone());
    }
    let mut found: Vec<Option<Pos>> = vec![None; wanted.len()];
    scan(text, |event| {
        if let Event::Record { path: at, pos } = event {
            for (i, w) in wanted.iter().enumerate() {
                if found[i].is_none() && at.len() == w.len() && at == w {
                    found[i] = Some(pos);
                    if i == 0 {
                        return Flow::Stop;
                    }
                }
            }
        }
        Flow::Go
    });
    found.into_iter().flatten().next()
}

/// The innermost field, list item or map key being written at `pos` (a parser error's
/// position), e.g. `attackers[0].attack`: the path just before the token or bracket at `pos`;
/// `None` at the top level.
pub fn field_at(text: &str, pos: Pos) -> Option<String> {
    let (field, _) = scan(text, |event| match event {
        Event::Reached(at) if at >= pos => Flow::Stop,
        _ => Flow::Go,
    });
    Some(field).filter(|f| !f.is_empty())
}

/// Whether `text` ends with brackets still open (outside strings and comments): a file cut short.
pub fn ends_open(text: &str) -> bool {
    scan(text, |_| Flow::Go).1 > 0
}

enum Event<'p> {
    /// A field name, map key or list/tuple item starts at `pos`; `path` is its path.
    Record { path: &'p str, pos: Pos },
    /// The scan has reached `pos` (a token or bracket starts there).
    Reached(Pos),
}

enum Flow {
    Go,
    Stop,
}

/// Nesting past this depth is still skipped correctly but not given paths (a parser refuses it
/// long before: `limits::MAX_NESTING`).
const MAX_PATH_DEPTH: usize = 256;

#[derive(Clone, Copy, PartialEq)]
enum Kind {
    /// `( … )`: a struct (fields by name) or a tuple (items by index).
    Paren,
    List,
    Map,
}

struct Frame {
    kind: Kind,
    /// Items seen so far (tuples and lists).
    index: usize,
    /// Whether the current child is named (a struct field, a map key).
    named: bool,
    /// The path's length before this frame's child segment.
    base: usize,
}

/// The path being written, as one string (`.units[3].cell`, with a leading dot) and the frames
/// that own its segments.
struct PathState {
    path: String,
    frames: Vec<Frame>,
    /// Frames beyond `MAX_PATH_DEPTH`, counted but not tracked.
    untracked: usize,
}

impl PathState {
    fn open(&mut self, kind: Kind) {
        if self.frames.len() >= MAX_PATH_DEPTH {
            self.untracked += 1;
            return;
        }
        let base = self.path.len();
        if kind != Kind::Map {
            self.path.push_str("[0]");
        }
        self.frames.push(Frame {
            kind,
            index: 0,
            named: false,
            base,
        });
    }

    fn close(&mut self) {
        if self.untracked > 0 {
            self.untracked -= 1;
        } else if let Some(f) = self.frames.pop() {
            self.path.truncate(f.base);
        }
    }

    fn comma(&mut self) {
        if self.untracked > 0 {
            return;
        }
        let Some(f) = self.frames.last_mut() else { return };
        match f.kind {
            Kind::Paren if f.named => f.named = false,
            Kind::Paren | Kind::List => f.index += 1,
            Kind::Map => f.named = false,
        }
        let (base, index, kind) = (f.base, f.index, f.kind);
        self.path.truncate(base);
        if kind != Kind::Map {
            self.path.push_str(&format!("[{index}]"));
        }
    }

    /// A field name or map key: the current child becomes `.name`.
    fn name(&mut self, name: &str) -> bool {
        if self.untracked > 0 {
            return false;
        }
        match self.frames.last_mut() {
            Some(f) if f.kind != Kind::List => {
                f.named = true;
                let base = f.base;
                self.path.truncate(base);
                self.path.push('.');
                self.path.push_str(name);
                true
            }
            _ => false,
        }
    }

    /// Whether a value starting now is an item of a list or tuple (so it has a path of its own).
    fn at_item(&self) -> bool {
        self.untracked == 0
            && matches!(
                self.frames.last(),
                Some(Frame { kind: Kind::List, .. })
                    | Some(Frame {
                        kind: Kind::Paren,
                        named: false,
                        ..
                    })
            )
    }

    fn depth(&self) -> usize {
        self.frames.len() + self.untracked
    }

    fn current(&self) -> &str {
        self.path.strip_prefix('.').unwrap_or(&self.path)
    }
}

/// A cursor over the text's bytes that keeps the line and column (in characters: UTF-8
/// continuation bytes do not count). Every character that matters to the structure is ASCII, so
/// bytes are enough, and nothing is copied.
struct Cursor<'t> {
    bytes: &'t [u8],
    i: usize,
    line: usize,
    col: usize,
}

impl Cursor<'_> {
    fn at(&self, k: usize) -> Option<u8> {
        self.bytes.get(self.i + k).copied()
    }

    fn pos(&self) -> Pos {
        Pos {
            line: self.line,
            col: self.col,
        }
    }

    fn bump(&mut self) {
        match self.bytes[self.i] {
            b'\n' => {
                self.line += 1;
                self.col = 1;
            }
            b if b & 0xC0 == 0x80 => {}
            _ => self.col += 1,
        }
        self.i += 1;
    }

    fn done(&self) -> bool {
        self.i >= self.bytes.len()
    }

    /// At `//` or `/*`.
    fn at_comment(&self) -> bool {
        self.at(0) == Some(b'/') && matches!(self.at(1), Some(b'/' | b'*'))
    }

    /// Skips a line comment, an attribute (`#![…]`) or a nested block comment.
    fn skip_comment(&mut self) {
        if self.at(1) == Some(b'*') {
            let mut depth = 0usize;
            while !self.done() {
                if self.at(0) == Some(b'/') && self.at(1) == Some(b'*') {
                    depth += 1;
                    self.bump();
                } else if self.at(0) == Some(b'*') && self.at(1) == Some(b'/') {
                    depth = depth.saturating_sub(1);
                    self.bump();
                    if depth == 0 {
                        self.bump();
                        return;
                    }
                }
                self.bump();
            }
        } else {
            while !self.done() && self.at(0) != Some(b'\n') {
                self.bump();
            }
        }
    }

    /// Skips one token: a raw string, a (byte) string or char, or a bare word or number.
    fn skip_token(&mut self) {
        let start = self.i;
        let c = self.bytes[self.i];
        if let Some(hashes) = raw_string_start(self.bytes, self.i) {
            // r#"…"#, br"…": up to a quote followed by as many hashes.
            while self.at(0) != Some(b'"') {
                self.bump();
            }
            self.bump();
            while !self.done() {
                if self.at(0) == Some(b'"') && (1..=hashes).all(|k| self.at(k) == Some(b'#')) {
                    for _ in 0..=hashes {
                        self.bump();
                    }
                    return;
                }
                self.bump();
            }
        } else if c == b'"' || c == b'\'' || (c == b'b' && matches!(self.at(1), Some(b'"' | b'\''))) {
            if c == b'b' {
                self.bump();
            }
            let quote = self.bytes[self.i];
            self.bump();
            while !self.done() && self.at(0) != Some(quote) {
                if self.at(0) == Some(b'\\') {
                    self.bump();
                }
                if !self.done() {
                    self.bump();
                }
            }
            if !self.done() {
                self.bump();
            }
        } else {
            while !self.done() && !b"()[]{},:\"' \t\r\n".contains(&self.bytes[self.i]) && !self.at_comment() {
                self.bump();
            }
            if self.i == start {
                self.bump();
            }
        }
    }
}

/// Walks `text` once, reporting every recorded path (first occurrence order) until `on` stops it;
/// returns the path being written where it stopped, and how many brackets were open there.
fn scan(text: &str, mut on: impl FnMut(Event) -> Flow) -> (String, usize) {
    let mut state = PathState {
        path: String::new(),
        frames: Vec::new(),
        untracked: 0,
    };
    let mut cur = Cursor {
        bytes: text.as_bytes(),
        i: 0,
        line: 1,
        col: 1,
    };
    macro_rules! emit {
        ($e:expr) => {
            if let Flow::Stop = on($e) {
                return (state.current().to_string(), state.depth());
            }
        };
    }
    while !cur.done() {
        let c = cur.bytes[cur.i];
        if c.is_ascii_whitespace() {
            cur.bump();
            continue;
        }
        if cur.at_comment() || (c == b'#' && cur.at(1) == Some(b'!')) {
            cur.skip_comment();
            continue;
        }
        let here = cur.pos();
        emit!(Event::Reached(here));
        match c {
            b'(' | b'[' | b'{' => {
                if state.at_item() {
                    emit!(Event::Record {
                        path: state.current(),
                        pos: here
                    });
                }
                state.open(match c {
                    b'(' => Kind::Paren,
                    b'[' => Kind::List,
                    _ => Kind::Map,
                });
                cur.bump();
            }
            b')' | b']' | b'}' => {
                state.close();
                cur.bump();
            }
            b',' => {
                state.comma();
                cur.bump();
            }
            b':' => cur.bump(),
            _ => {
                let start = cur.i;
                cur.skip_token();
                // Is it followed by ':' (a field name or a map key)?
                let mut j = cur.i;
                while j < cur.bytes.len() && cur.bytes[j].is_ascii_whitespace() {
                    j += 1;
                }
                let next = cur.bytes.get(j).copied();
                if next == Some(b':') {
                    let token = String::from_utf8_lossy(&cur.bytes[start..cur.i]);
                    let name = token.trim_matches(|q| q == '"' || q == '\'');
                    let name = name.strip_prefix("r#").unwrap_or(name);
                    if state.name(name) {
                        emit!(Event::Record {
                            path: state.current(),
                            pos: here
                        });
                    }
                } else if next != Some(b'(') && state.at_item() {
                    // A value (not the name of a struct about to open with '(').
                    emit!(Event::Record {
                        path: state.current(),
                        pos: here
                    });
                }
            }
        }
    }
    (state.current().to_string(), state.depth())
}

/// At `r"`, `r#"`, `br##"` …: the number of hashes; else `None`.
fn raw_string_start(bytes: &[u8], i: usize) -> Option<usize> {
    let mut k = i;
    if bytes.get(k) == Some(&b'b') {
        k += 1;
    }
    if bytes.get(k) != Some(&b'r') {
        return None;
    }
    k += 1;
    let hashes = bytes[k.min(bytes.len())..].iter().take_while(|c| **c == b'#').count();
    (bytes.get(k + hashes) == Some(&b'"')).then_some(hashes)
}

#[cfg(test)]
mod tests {
    use super::*;

    const DOC: &str = r#"Scenario(
    name: "x", // a comment with ( and [
    map: (
        legend: { 'f': "forest", "g": "grass" },
        edges: [ (feature: River, between: [("0101", "0102"), ("0102", "0103")]) ],
    ),
    units: [
        (id: "a", cell: "0101"),
        (id: "b", cell: "0102"),
    ],
)"#;

    #[test]
    fn finds_fields_items_and_keys() {
        assert_eq!(locate(DOC, "name"), Some(Pos { line: 2, col: 5 }));
        assert_eq!(locate(DOC, "units[1].cell"), Some(Pos { line: 9, col: 19 }));
        assert_eq!(locate(DOC, "units[1]"), Some(Pos { line: 9, col: 9 }));
        assert_eq!(locate(DOC, "map.legend.g"), Some(Pos { line: 4, col: 34 }));
        assert_eq!(
            locate(DOC, "map.edges[0].between[1][0]"),
            Some(Pos { line: 5, col: 64 })
        );
        // A field left out is found at its closest parent.
        assert_eq!(locate(DOC, "units[1].movement"), Some(Pos { line: 9, col: 9 }));
    }

    #[test]
    fn brackets_in_raw_strings_do_not_nest() {
        for text in [
            "Case(description: r#\"a \" ((((\"#, ruleset: \"x\")",
            "Case(d: br\"((\", e: b\"((\", f: '(', g: r##\"\"# ((\"##, ruleset: \"x\")",
        ] {
            let col = text.find("ruleset").unwrap() + 1;
            assert_eq!(locate(text, "ruleset"), Some(Pos { line: 1, col }), "{text}");
        }
    }

    #[test]
    fn a_comment_right_after_a_value_is_not_part_of_it() {
        let text = "Case(a: 5// (((\n, b: 1/* ( */, ruleset: \"x\")";
        let col = text.lines().nth(1).unwrap().find("ruleset").unwrap() + 1;
        assert_eq!(locate(text, "ruleset"), Some(Pos { line: 2, col }));
    }

    #[test]
    fn field_at_a_position() {
        assert_eq!(
            field_at(DOC, Pos { line: 9, col: 25 }).as_deref(),
            Some("units[1].cell")
        );
        // At the comma after the value: still that field.
        assert_eq!(
            field_at(DOC, Pos { line: 9, col: 31 }).as_deref(),
            Some("units[1].cell")
        );
        assert_eq!(field_at(DOC, Pos { line: 1, col: 1 }), None);
    }

    #[test]
    fn deep_nesting_is_linear() {
        let text = format!(
            "Case(d: \"{}\", x: {}1{}, ruleset: 1)",
            "(".repeat(10),
            "[".repeat(100_000),
            "]".repeat(100_000)
        );
        let col = text.find("ruleset").unwrap() + 1;
        assert_eq!(locate(&text, "ruleset"), Some(Pos { line: 1, col }));
    }

    #[test]
    fn offsets_to_positions() {
        assert_eq!(pos_of_offset("ab\ncé\nx", 6), Pos { line: 2, col: 3 });
        assert_eq!(pos_of_offset("ab", 99), Pos { line: 1, col: 3 });
    }
}
