//! The book in `docs/` and the README hold together: every chapter the summary lists exists and
//! every chapter is listed, and every relative link and picture in the book and the README points
//! at a file that exists and, with an anchor, at a heading of that file (anchors made as mdBook
//! makes them). Links to the web are not followed (CI has no internet).

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The text outside fenced code blocks, line by line with their numbers (1-based), inline code
/// spans blanked so a link written as code is not taken for one.
fn prose_lines(text: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    let mut fenced = false;
    for (i, line) in text.lines().enumerate() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
            continue;
        }
        if fenced {
            continue;
        }
        let mut kept = String::with_capacity(line.len());
        let mut in_code = false;
        for c in line.chars() {
            if c == '`' {
                in_code = !in_code;
                kept.push(' ');
            } else {
                kept.push(if in_code { ' ' } else { c });
            }
        }
        out.push((i + 1, kept));
    }
    out
}

/// The targets of the Markdown links and pictures in a line: what stands between `](` and its `)`.
fn link_targets(line: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = line;
    while let Some(at) = rest.find("](") {
        let after = &rest[at + 2..];
        let Some(end) = after.find(')') else { break };
        out.push(after[..end].trim().to_string());
        rest = &after[end + 1..];
    }
    out
}

/// mdBook's id for a heading's text: alphanumerics, `_` and `-` kept (ASCII lowercased), white
/// space made `-`, everything else dropped.
fn normalize_id(text: &str) -> String {
    text.chars()
        .filter_map(|c| {
            if c.is_alphanumeric() || c == '_' || c == '-' {
                Some(c.to_ascii_lowercase())
            } else if c.is_whitespace() {
                Some('-')
            } else {
                None
            }
        })
        .collect()
}

/// A heading's text as rendered: a link's text kept without its target, code marks and emphasis
/// stars dropped.
fn rendered_heading(text: &str) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some(open) = rest.find('[') {
        out.push_str(&rest[..open]);
        let after = &rest[open + 1..];
        match after
            .find("](")
            .and_then(|mid| after[mid..].find(')').map(|end| (mid, mid + end)))
        {
            Some((mid, end)) => {
                out.push_str(&after[..mid]);
                rest = &after[end + 1..];
            }
            None => {
                out.push('[');
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out.chars().filter(|c| *c != '`' && *c != '*').collect()
}

/// The anchors of a Markdown file's headings, a repeated one numbered as mdBook numbers it.
fn anchors(text: &str) -> BTreeSet<String> {
    let mut seen: BTreeMap<String, usize> = BTreeMap::new();
    let mut out = BTreeSet::new();
    let mut fenced = false;
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
            continue;
        }
        let hashes = line.chars().take_while(|c| *c == '#').count();
        if fenced || hashes == 0 || hashes > 6 || !line[hashes..].starts_with(' ') {
            continue;
        }
        let id = normalize_id(&rendered_heading(line[hashes..].trim()));
        let n = seen.entry(id.clone()).or_insert(0);
        out.insert(if *n == 0 { id.clone() } else { format!("{id}-{n}") });
        *n += 1;
    }
    out
}

fn markdown_files() -> Vec<PathBuf> {
    let mut files = vec![root().join("README.md")];
    let mut docs: Vec<PathBuf> = std::fs::read_dir(root().join("docs"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "md"))
        .collect();
    docs.sort();
    files.extend(docs);
    files
}

/// Checks one link of `file` (line `line`); `None` when it is fine, else what is wrong.
fn broken(file: &Path, line: usize, target: &str) -> Option<String> {
    let at = format!("{}:{line}: `{target}`", file.strip_prefix(root()).unwrap().display());
    let (path, anchor) = match target.split_once('#') {
        Some((p, a)) => (p, Some(a)),
        None => (target, None),
    };
    let resolved = if path.is_empty() {
        file.to_path_buf()
    } else {
        file.parent().unwrap().join(path)
    };
    if !resolved.exists() {
        return Some(format!("{at}: no file {}", resolved.display()));
    }
    let anchor = anchor?;
    if resolved.extension().is_none_or(|x| x != "md") {
        return Some(format!("{at}: an anchor into a file that is not Markdown"));
    }
    if anchors(&read(&resolved)).contains(anchor) {
        None
    } else {
        Some(format!(
            "{at}: no heading with the anchor #{anchor} in {}",
            resolved.display()
        ))
    }
}

fn is_web(target: &str) -> bool {
    ["http://", "https://", "mailto:"].iter().any(|s| target.starts_with(s))
}

#[test]
fn every_relative_link_and_anchor_in_the_book_and_the_readme_resolves() {
    let mut checked = 0;
    let mut with_anchor = 0;
    let mut web = 0;
    let mut problems = Vec::new();
    for file in markdown_files() {
        for (line, text) in prose_lines(&read(&file)) {
            for target in link_targets(&text) {
                if is_web(&target) {
                    web += 1;
                    continue;
                }
                checked += 1;
                with_anchor += usize::from(target.contains('#'));
                problems.extend(broken(&file, line, &target));
            }
        }
    }
    assert!(
        problems.is_empty(),
        "{} broken link(s):\n{}",
        problems.len(),
        problems.join("\n")
    );
    println!("{checked} relative links checked ({with_anchor} with an anchor), {web} web links not followed");
    // The README's chapter table, the book's cross-references and its pictures.
    assert!(
        checked >= 60 && with_anchor >= 5,
        "{checked} links, {with_anchor} anchors"
    );
}

#[test]
fn the_summary_lists_every_chapter_and_every_chapter_it_lists_exists() {
    let docs = root().join("docs");
    let summary = read(&docs.join("SUMMARY.md"));
    let listed: BTreeSet<String> = prose_lines(&summary)
        .iter()
        .flat_map(|(_, line)| link_targets(line))
        .collect();
    for chapter in &listed {
        assert!(
            docs.join(chapter).is_file(),
            "SUMMARY.md lists {chapter}, which is not in docs/"
        );
    }
    let on_disk: BTreeSet<String> = markdown_files()
        .iter()
        .filter(|p| p.starts_with(&docs))
        .map(|p| p.file_name().unwrap().to_string_lossy().into_owned())
        .filter(|name| name != "SUMMARY.md")
        .collect();
    assert_eq!(listed, on_disk, "chapters in docs/ and the chapters SUMMARY.md lists");
    println!("{} chapters listed and present", listed.len());
    assert!(listed.len() >= 10);
}

#[test]
fn the_readme_stays_a_front_page() {
    let readme = read(&root().join("README.md"));
    let lines = readme.lines().count();
    assert!(lines <= 200, "README.md has {lines} lines: the detail belongs in docs/");
    // The two commands a newcomer needs.
    assert!(readme.contains("cargo run --release ") && readme.contains("cargo test "));
}

#[test]
fn anchors_are_made_as_mdbook_makes_them() {
    let text = "# Orders, the log, undo and replays\n## The map as a picture: `hexfront render`\n\
                ```\n# not a heading\n```\n## Notes\n## Notes\n### [Linked](x.md) *heading*\n";
    let found = anchors(text);
    let expected: BTreeSet<String> = [
        "orders-the-log-undo-and-replays",
        "the-map-as-a-picture-hexfront-render",
        "notes",
        "notes-1",
        "linked-heading",
    ]
    .into_iter()
    .map(String::from)
    .collect();
    assert_eq!(found, expected);
    assert_eq!(
        link_targets("see [a](b.md#c) and ![p](../x.png)"),
        ["b.md#c", "../x.png"]
    );
    assert!(link_targets(&prose_lines("`[code](nowhere.md)`")[0].1).is_empty());
}
