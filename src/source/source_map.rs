//! Where each field of a RON document starts, so errors found after parsing (a unit off the map,
//! a duplicate id) can name the line and column of the field they are about.
//!
//! Paths look like `units[3].cell`, `map.legend.f`, `map.edges[0].between[2][1]`.

use std::collections::HashMap;

/// A line and column, both 1-based.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Default)]
pub struct Pos {
    pub line: usize,
    pub col: usize,
}

/// Positions of every field, list item and map key of one RON text.
#[derive(Debug, Default)]
pub struct SourceMap {
    positions: HashMap<String, Pos>,
}

enum Frame {
    /// `( … )`: a struct (fields by name) or a tuple (items by index).
    Paren {
        field: Option<String>,
        index: usize,
    },
    List {
        index: usize,
    },
    Map {
        key: Option<String>,
    },
}

impl Frame {
    fn segment(&self) -> Option<String> {
        match self {
            Frame::Paren { field: Some(f), .. } => Some(format!(".{f}")),
            Frame::Paren { field: None, index } | Frame::List { index } => Some(format!("[{index}]")),
            Frame::Map { key: Some(k) } => Some(format!(".{k}")),
            Frame::Map { key: None } => None,
        }
    }
}

impl SourceMap {
    pub fn new(src: &str) -> Self {
        let mut map = SourceMap::default();
        let chars: Vec<char> = src.chars().collect();
        let mut stack: Vec<Frame> = Vec::new();
        let (mut i, mut line, mut col) = (0usize, 1usize, 1usize);
        // Advance one char, tracking line and column.
        let bump = |i: &mut usize, line: &mut usize, col: &mut usize| {
            if chars[*i] == '\n' {
                *line += 1;
                *col = 1;
            } else {
                *col += 1;
            }
            *i += 1;
        };
        let path_of = |stack: &[Frame]| -> String {
            let s: String = stack.iter().filter_map(Frame::segment).collect();
            s.trim_start_matches('.').to_string()
        };
        while i < chars.len() {
            let c = chars[i];
            let here = Pos { line, col };
            // Comments and whitespace.
            if c.is_whitespace() {
                bump(&mut i, &mut line, &mut col);
                continue;
            }
            if c == '/' && chars.get(i + 1) == Some(&'/') {
                while i < chars.len() && chars[i] != '\n' {
                    bump(&mut i, &mut line, &mut col);
                }
                continue;
            }
            if c == '/' && chars.get(i + 1) == Some(&'*') {
                let mut depth = 0;
                while i < chars.len() {
                    if chars[i] == '/' && chars.get(i + 1) == Some(&'*') {
                        depth += 1;
                        bump(&mut i, &mut line, &mut col);
                    } else if chars[i] == '*' && chars.get(i + 1) == Some(&'/') {
                        depth -= 1;
                        bump(&mut i, &mut line, &mut col);
                        if depth == 0 {
                            bump(&mut i, &mut line, &mut col);
                            break;
                        }
                    }
                    bump(&mut i, &mut line, &mut col);
                }
                continue;
            }
            if c == '#' {
                // `#![enable(...)]` attribute: skip to the end of the line.
                while i < chars.len() && chars[i] != '\n' {
                    bump(&mut i, &mut line, &mut col);
                }
                continue;
            }
            match c {
                '(' | '[' | '{' => {
                    map.record_value(&stack, here, &path_of);
                    stack.push(match c {
                        '(' => Frame::Paren { field: None, index: 0 },
                        '[' => Frame::List { index: 0 },
                        _ => Frame::Map { key: None },
                    });
                    bump(&mut i, &mut line, &mut col);
                }
                ')' | ']' | '}' => {
                    stack.pop();
                    bump(&mut i, &mut line, &mut col);
                }
                ',' => {
                    match stack.last_mut() {
                        Some(Frame::Paren { field, index }) => {
                            if field.is_none() {
                                *index += 1;
                            }
                            *field = None;
                        }
                        Some(Frame::List { index }) => *index += 1,
                        Some(Frame::Map { key }) => *key = None,
                        None => {}
                    }
                    bump(&mut i, &mut line, &mut col);
                }
                ':' => bump(&mut i, &mut line, &mut col),
                _ => {
                    // A token: string, char, number, identifier.
                    let start = i;
                    if c == '"' || c == '\'' {
                        bump(&mut i, &mut line, &mut col);
                        while i < chars.len() && chars[i] != c {
                            if chars[i] == '\\' {
                                bump(&mut i, &mut line, &mut col);
                            }
                            if i < chars.len() {
                                bump(&mut i, &mut line, &mut col);
                            }
                        }
                        if i < chars.len() {
                            bump(&mut i, &mut line, &mut col);
                        }
                    } else {
                        while i < chars.len() && !"()[]{},:\"' \t\r\n".contains(chars[i]) {
                            bump(&mut i, &mut line, &mut col);
                        }
                        if i == start {
                            bump(&mut i, &mut line, &mut col);
                        }
                    }
                    let token: String = chars[start..i].iter().collect();
                    let text = token.trim_matches(|q| q == '"' || q == '\'').to_string();
                    // Is it followed by ':' (a field name or a map key)?
                    let mut j = i;
                    while j < chars.len() && chars[j].is_whitespace() {
                        j += 1;
                    }
                    let is_key = chars.get(j) == Some(&':');
                    match stack.last_mut() {
                        Some(Frame::Paren { field, .. }) if is_key => {
                            *field = Some(text);
                            map.record(&stack, here, &path_of);
                        }
                        Some(Frame::Map { key }) if is_key => {
                            *key = Some(text);
                            map.record(&stack, here, &path_of);
                        }
                        _ => {
                            // A value (or the name of a struct about to open with '(').
                            if chars.get(j) != Some(&'(') {
                                map.record_value(&stack, here, &path_of);
                            }
                        }
                    }
                }
            }
        }
        map
    }

    fn record(&mut self, stack: &[Frame], pos: Pos, path_of: &impl Fn(&[Frame]) -> String) {
        self.positions.entry(path_of(stack)).or_insert(pos);
    }

    /// Records a value's start when it is a list or tuple item (fields are recorded at their name).
    fn record_value(&mut self, stack: &[Frame], pos: Pos, path_of: &impl Fn(&[Frame]) -> String) {
        if matches!(
            stack.last(),
            Some(Frame::List { .. }) | Some(Frame::Paren { field: None, .. })
        ) {
            self.record(stack, pos, path_of);
        }
    }

    /// Where `path` starts; when the exact path is unknown, where its closest recorded parent
    /// starts (a field left out is reported at the struct that lacks it).
    pub fn locate(&self, path: &str) -> Option<Pos> {
        let mut p = path.to_string();
        loop {
            if let Some(pos) = self.positions.get(&p) {
                return Some(*pos);
            }
            let cut = p.rfind(['.', '['])?;
            p.truncate(cut);
        }
    }
}
