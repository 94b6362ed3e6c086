//! The import graph of `src/`, read as text: no module imports one of a layer above or beside it
//! (`LAYERS`: gui → lab, net → ai, edit, show → game, art → scenario → combat → rules, storage
//! → source, version), and no import circle between files beyond the ones named below, so CI fails
//! on a new one. It reads `crate::`, `super::` (and `super::super::`) and `self::` paths, groups
//! expanded, a `#[path]` file as the module that declares it; like `../shared/tools/circles` it
//! does not read the paths a module names its own children by (`child::x` after `mod child;`).

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

type Module = Vec<String>;

/// Each top-level module's layer: a module may import only modules of a lower layer.
const LAYERS: [(&str, u8); 20] = [
    ("source", 0),
    ("version", 0),
    ("storage", 1),
    ("rules", 1),
    ("combat", 2),
    ("scenario", 3),
    ("game", 4),
    // The board's art (terrain marks, the picture on the CPU): drawn from a scenario.
    ("art", 4),
    ("ai", 5),
    ("edit", 5),
    ("show", 5),
    ("lab", 6),
    ("net", 6),
    ("gui", 7),
    // The command line's parts, above everything they start.
    ("balance_cli", 8),
    ("combat_lab", 8),
    ("highlights_cli", 8),
    ("inspect_cli", 8),
    ("render_cli", 8),
    ("replay_cli", 8),
];

/// Import circles known today, each named by its files, with why it is still there. A circle not
/// listed here, or a listed one that grew, fails the test; one that shrank or went asks for the
/// list to be brought up to date.
/// (Empty since the save file's data moved out of the loader, `game/save_file.rs`: the format
/// migrations build today's game without importing the loader that calls them.)
const KNOWN_CIRCLES: [(&str, &[&str]); 0] = [];

fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

/// Every `.rs` file under `src/` by its module path (`a/b.rs` and `a/b/mod.rs` are `a::b`; lib.rs
/// and main.rs the root).
fn modules() -> BTreeMap<Module, PathBuf> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                walk(&path, out);
            } else if path.extension().is_some_and(|x| x == "rs") {
                out.push(path);
            }
        }
    }
    let mut files = Vec::new();
    walk(&src(), &mut files);
    let mut by_file: BTreeMap<PathBuf, Module> = files
        .into_iter()
        .map(|path| {
            let rel = path.strip_prefix(src()).unwrap().with_extension("");
            let mut m: Module = rel.iter().map(|p| p.to_string_lossy().into_owned()).collect();
            if m.last().is_some_and(|x| x == "mod") {
                m.pop();
            }
            if m == ["lib"] || m == ["main"] {
                m.clear();
            }
            (path, m)
        })
        .collect();
    // A file a module includes with `#[path = "file.rs"] mod name;` is that module's `name`.
    for (file, module) in by_file.clone() {
        let text = std::fs::read_to_string(&file).unwrap();
        for (target, name) in path_modules(&text) {
            by_file.insert(
                file.parent().unwrap().join(target),
                [module.clone(), vec![name]].concat(),
            );
        }
    }
    by_file.into_iter().map(|(path, m)| (m, path)).collect()
}

/// The `#[path = "…"] mod name;` items of a file: (the file named, the module name).
fn path_modules(text: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for (at, _) in text.match_indices("#[path = \"") {
        let rest = &text[at + "#[path = \"".len()..];
        let Some(end) = rest.find('"') else { continue };
        let after = rest[end..].split_once(']').map_or("", |(_, a)| a);
        // Other attributes may stand between it and the `mod` item.
        let item = after.trim_start().trim_start_matches(|c: char| c != 'm' && c != '\n');
        if let Some(name) = item.strip_prefix("mod ").and_then(|m| m.split(';').next()) {
            out.push((rest[..end].to_string(), name.trim().to_string()));
        }
    }
    out
}

/// The text without `//` comments.
fn code(text: &str) -> String {
    text.lines()
        .map(|l| l.split("//").next().unwrap_or(""))
        .collect::<Vec<_>>()
        .join("\n")
}

fn ident_at(s: &str) -> Option<(&str, &str)> {
    let end = s.find(|c: char| !(c.is_alphanumeric() || c == '_')).unwrap_or(s.len());
    (end > 0).then(|| (&s[..end], &s[end..]))
}

/// The paths a `crate::…`/`super::…`/`self::…` reference at the start of `rest` names, its
/// groups (`{a, b::{c, d}}`) expanded.
fn paths_from(prefix: Module, rest: &str, out: &mut Vec<Module>) {
    let mut path = prefix;
    let mut rest = rest;
    while let Some(after) = rest.strip_prefix("::") {
        let after = after.trim_start();
        if let Some(group) = after.strip_prefix('{') {
            let mut depth = 1;
            let mut item = String::new();
            for c in group.chars() {
                match c {
                    '{' => depth += 1,
                    '}' => depth -= 1,
                    _ => {}
                }
                if depth == 0 || (depth == 1 && c == ',') {
                    let item_path = item.trim().split(" as ").next().unwrap_or("").trim().to_string();
                    match item_path.as_str() {
                        "" | "self" | "*" => out.push(path.clone()),
                        text => match ident_at(text) {
                            Some((name, tail)) => {
                                paths_from([path.clone(), vec![name.to_string()]].concat(), tail, out)
                            }
                            None => out.push(path.clone()),
                        },
                    }
                    item.clear();
                    if depth == 0 {
                        return;
                    }
                } else {
                    item.push(c);
                }
            }
            return;
        }
        match ident_at(after) {
            Some(("super", tail)) => {
                path.pop();
                rest = tail;
            }
            Some((name, tail)) if name != "self" && name != "*" => {
                path.push(name.to_string());
                rest = tail;
            }
            _ => break,
        }
    }
    out.push(path);
}

/// The modules `module`'s text refers to, each resolved to the longest module path that exists.
fn imports(module: &Module, text: &str, known: &BTreeMap<Module, PathBuf>) -> BTreeSet<Module> {
    let text = code(text);
    // `super` is the parent module whether the file is `a/b.rs` or `a/b/mod.rs`.
    let parent: Module = module[..module.len().saturating_sub(1)].to_vec();
    let here = module.clone();
    let mut found = Vec::new();
    let bytes = text.as_bytes();
    for (at, _) in text.match_indices("::") {
        // The word just before `::`.
        let start = text[..at]
            .rfind(|c: char| !(c.is_alphanumeric() || c == '_'))
            .map_or(0, |i| i + 1);
        let word = &text[start..at];
        if start > 0 && (bytes[start - 1] == b':' || bytes[start - 1].is_ascii_alphanumeric()) {
            continue;
        }
        let base = match word {
            "crate" => Vec::new(),
            "super" => parent.clone(),
            "self" => here.clone(),
            _ => continue,
        };
        paths_from(base, &text[at..], &mut found);
    }
    found
        .into_iter()
        .filter_map(|mut p| {
            while !p.is_empty() && !known.contains_key(&p) {
                p.pop();
            }
            (!p.is_empty() && &p != module).then_some(p)
        })
        .collect()
}

fn graph() -> BTreeMap<Module, BTreeSet<Module>> {
    let known = modules();
    known
        .iter()
        .map(|(m, path)| {
            let text = std::fs::read_to_string(path).unwrap();
            (m.clone(), imports(m, &text, &known))
        })
        .collect()
}

fn name(m: &Module) -> String {
    m.join("::")
}

/// Strongly connected groups of two or more modules (Tarjan).
fn circles(graph: &BTreeMap<Module, BTreeSet<Module>>) -> Vec<BTreeSet<String>> {
    struct Walk<'a> {
        graph: &'a BTreeMap<Module, BTreeSet<Module>>,
        index: BTreeMap<&'a Module, usize>,
        low: BTreeMap<&'a Module, usize>,
        stack: Vec<&'a Module>,
        out: Vec<BTreeSet<String>>,
    }
    fn visit<'a>(w: &mut Walk<'a>, v: &'a Module) {
        let i = w.index.len();
        w.index.insert(v, i);
        w.low.insert(v, i);
        w.stack.push(v);
        for t in &w.graph[v] {
            if !w.index.contains_key(t) {
                visit(w, t);
                let lt = w.low[t];
                w.low.entry(v).and_modify(|l| *l = (*l).min(lt));
            } else if w.stack.contains(&t) {
                let it = w.index[t];
                w.low.entry(v).and_modify(|l| *l = (*l).min(it));
            }
        }
        if w.low[v] == w.index[v] {
            let mut group = BTreeSet::new();
            while let Some(x) = w.stack.pop() {
                group.insert(name(x));
                if x == v {
                    break;
                }
            }
            if group.len() > 1 {
                w.out.push(group);
            }
        }
    }
    let mut w = Walk {
        graph,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        out: Vec::new(),
    };
    for v in graph.keys() {
        if !w.index.contains_key(v) {
            visit(&mut w, v);
        }
    }
    w.out
}

#[test]
fn no_module_imports_a_layer_above_or_beside_it() {
    let layer: BTreeMap<&str, u8> = LAYERS.into_iter().collect();
    let graph = graph();
    let (mut checked, mut wrong) = (0, Vec::new());
    for (from, targets) in &graph {
        let Some(top) = from.first() else { continue };
        let Some(&mine) = layer.get(top.as_str()) else {
            panic!("src/{top}: a top-level module missing from LAYERS");
        };
        for to in targets.iter().filter(|t| t[0] != *top) {
            checked += 1;
            let theirs = layer.get(to[0].as_str()).copied().unwrap_or(u8::MAX);
            if theirs >= mine {
                wrong.push(format!("{} imports {} (layer {mine} → {theirs})", name(from), name(to)));
            }
        }
    }
    assert!(wrong.is_empty(), "imports upward or sideways:\n{}", wrong.join("\n"));
    println!(
        "{checked} imports between top-level modules checked, {} files",
        graph.len()
    );
    assert!(
        checked >= 300,
        "only {checked} imports between layers found: is the reader broken?"
    );
}

#[test]
fn no_import_circle_beyond_the_named_ones() {
    let found = circles(&graph());
    let known: Vec<(String, BTreeSet<String>)> = KNOWN_CIRCLES
        .iter()
        .map(|(why, files)| (why.to_string(), files.iter().map(|f| f.to_string()).collect()))
        .collect();
    let mut problems = Vec::new();
    for circle in &found {
        match known.iter().find(|(_, k)| !k.is_disjoint(circle)) {
            None => problems.push(format!("a new import circle: {circle:?}")),
            Some((why, k)) if k != circle => problems.push(format!(
                "the circle named \"{why}\" is now {circle:?}: grown by {:?}, shrunk by {:?} (update KNOWN_CIRCLES)",
                circle.difference(k).collect::<Vec<_>>(),
                k.difference(circle).collect::<Vec<_>>()
            )),
            Some(_) => {}
        }
    }
    for (why, k) in &known {
        if !found.iter().any(|c| !c.is_disjoint(k)) {
            problems.push(format!(
                "the circle named \"{why}\" is gone: remove it from KNOWN_CIRCLES"
            ));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    println!("{} import circles, all named", found.len());
}

#[test]
fn the_reader_follows_grouped_and_relative_paths() {
    let known: BTreeMap<Module, PathBuf> = ["a", "a::b", "a::c", "d", "d::e", "d::f"]
        .iter()
        .map(|m| (m.split("::").map(String::from).collect(), PathBuf::new()))
        .collect();
    let text = "use crate::a::{b::Thing, c as C};\nuse super::e; // crate::d is only a comment\nfn f() { self::x(); }";
    let here: Module = vec!["d".into(), "f".into()];
    let found: Vec<String> = imports(&here, text, &known).iter().map(name).collect();
    assert_eq!(found, ["a::b", "a::c", "d::e"]);
    let up: Vec<String> = imports(&here, "use super::super::a::c;", &known)
        .iter()
        .map(name)
        .collect();
    assert_eq!(up, ["a::c"], "super::super is the grandparent");
    let declared = path_modules("#[cfg(test)]\n#[path = \"attack_tests.rs\"]\nmod tests;");
    assert_eq!(declared, [("attack_tests.rs".to_string(), "tests".to_string())]);
    let looped: BTreeMap<Module, BTreeSet<Module>> = [
        (vec!["x".to_string()], BTreeSet::from([vec!["y".to_string()]])),
        (vec!["y".to_string()], BTreeSet::from([vec!["x".to_string()]])),
        (vec!["z".to_string()], BTreeSet::from([vec!["x".to_string()]])),
    ]
    .into_iter()
    .collect();
    assert_eq!(circles(&looped), [BTreeSet::from(["x".to_string(), "y".to_string()])]);
}
