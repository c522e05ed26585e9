//! The house rules of the library (issue 26), checked on its source so they cannot drift:
//!
//! - no library module is over [`MAX_LINES`] lines: a module that grows past it is split by concept;
//! - no import cycle between library modules: among the child modules of any one module, the
//!   references (`crate::…`, `super::…`, `self::…` paths, in `use` items or in code) form no cycle.
//!   A module and its own descendants may refer to each other (a `mod.rs` re-exports its children;
//!   a child uses its parent's shared types); siblings may not go both ways, directly or around.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

const MAX_LINES: usize = 1_000;

/// Every `.rs` file under `src/`, with its module path (`["flatten", "items", "raises"]`).
fn modules() -> Vec<(PathBuf, Vec<String>)> {
    fn walk(dir: &Path, prefix: &[String], out: &mut Vec<(PathBuf, Vec<String>)>) {
        let mut entries: Vec<_> = fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        entries.sort();
        for path in entries {
            let name = path.file_stem().unwrap().to_string_lossy().to_string();
            if path.is_dir() {
                let mut p = prefix.to_vec();
                p.push(name);
                walk(&path, &p, out);
            } else if path.extension().is_some_and(|e| e == "rs") {
                let mut p = prefix.to_vec();
                if !(name == "mod" || (prefix.is_empty() && name == "lib")) {
                    p.push(name);
                }
                out.push((path, p));
            }
        }
    }
    let mut out = Vec::new();
    walk(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("src"),
        &[],
        &mut out,
    );
    out
}

/// The code of a file without comments and string literals (their words are not references).
fn code_only(text: &str) -> String {
    let b = text.as_bytes();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while i < b.len() {
        if b[i..].starts_with(b"//") {
            while i < b.len() && b[i] != b'\n' {
                i += 1;
            }
        } else if b[i..].starts_with(b"/*") {
            let mut depth = 0;
            while i < b.len() {
                if b[i..].starts_with(b"/*") {
                    depth += 1;
                    i += 2;
                } else if b[i..].starts_with(b"*/") {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    i += 1;
                }
            }
        } else if b[i] == b'r'
            && (b.get(i + 1) == Some(&b'"') || b.get(i + 1) == Some(&b'#'))
            && (i == 0 || !(b[i - 1].is_ascii_alphanumeric() || b[i - 1] == b'_'))
        {
            // A raw string: r"…", r#"…"#.
            let mut j = i + 1;
            let mut hashes = 0;
            while b.get(j) == Some(&b'#') {
                hashes += 1;
                j += 1;
            }
            if b.get(j) != Some(&b'"') {
                out.push(b[i] as char);
                i += 1;
                continue;
            }
            j += 1;
            loop {
                if j >= b.len() {
                    break;
                }
                if b[j] == b'"'
                    && b[j + 1..]
                        .iter()
                        .take(hashes)
                        .filter(|&&c| c == b'#')
                        .count()
                        == hashes
                {
                    j += 1 + hashes;
                    break;
                }
                j += 1;
            }
            out.push_str("\"\"");
            i = j;
        } else if b[i] == b'"' {
            i += 1;
            while i < b.len() && b[i] != b'"' {
                if b[i] == b'\\' {
                    i += 1;
                }
                i += 1;
            }
            i += 1;
            out.push_str("\"\"");
        } else if b[i] == b'\'' {
            // A char literal ('a', '\n', '\u{…}'), not a lifetime ('a).
            let close = (i + 2..(i + 12).min(b.len())).find(|&j| b[j] == b'\'');
            match close {
                Some(j) if b[i + 1] == b'\\' || j == i + 2 || !b[i + 1].is_ascii_alphabetic() => {
                    out.push_str("' '");
                    i = j + 1;
                }
                _ => {
                    out.push('\'');
                    i += 1;
                }
            }
        } else {
            let c = text[i..].chars().next().unwrap();
            out.push(c);
            i += c.len_utf8();
        }
    }
    out
}

/// The paths a file names that start at `crate`, `super` or `self`, with `use a::{b, c::{d}}`
/// groups expanded; each with its line.
fn paths(code: &str) -> Vec<(Vec<String>, usize)> {
    let b = code.as_bytes();
    let ident = |i: usize| -> usize {
        let mut j = i;
        while j < b.len() && (b[j].is_ascii_alphanumeric() || b[j] == b'_') {
            j += 1;
        }
        j
    };
    // Parse a path (and any group after it) starting at `i`; push every full path.
    fn parse(code: &str, i: &mut usize, prefix: Vec<String>, out: &mut Vec<Vec<String>>) {
        let b = code.as_bytes();
        let mut path = prefix;
        loop {
            while *i < b.len() && b[*i].is_ascii_whitespace() {
                *i += 1;
            }
            if *i < b.len() && b[*i] == b'{' {
                *i += 1;
                loop {
                    while *i < b.len() && (b[*i].is_ascii_whitespace() || b[*i] == b',') {
                        *i += 1;
                    }
                    if *i >= b.len() || b[*i] == b'}' {
                        *i += 1;
                        return;
                    }
                    parse(code, i, path.clone(), out);
                }
            }
            let start = *i;
            while *i < b.len() && (b[*i].is_ascii_alphanumeric() || b[*i] == b'_') {
                *i += 1;
            }
            if *i > start {
                path.push(code[start..*i].to_string());
            } else if *i < b.len() && b[*i] == b'*' {
                *i += 1;
            }
            while *i < b.len() && b[*i] == b' ' {
                *i += 1;
            }
            if code[*i..].starts_with("::") {
                *i += 2;
                continue;
            }
            // `x as y`
            if code[*i..].starts_with("as ") {
                *i += 3;
                while *i < b.len() && b[*i].is_ascii_whitespace() {
                    *i += 1;
                }
                *i = {
                    let mut j = *i;
                    while j < b.len() && (b[j].is_ascii_alphanumeric() || b[j] == b'_') {
                        j += 1;
                    }
                    j
                };
            }
            out.push(path);
            return;
        }
    }
    let mut found = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let is_start =
            i == 0 || !(b[i - 1].is_ascii_alphanumeric() || b[i - 1] == b'_' || b[i - 1] == b':');
        let end = ident(i);
        if end > i && is_start {
            let word = &code[i..end];
            if matches!(word, "crate" | "super" | "self") && code[end..].starts_with("::") {
                let line = code[..i].matches('\n').count() + 1;
                let mut j = i;
                let mut all = Vec::new();
                parse(code, &mut j, Vec::new(), &mut all);
                for p in all {
                    found.push((p, line));
                }
                i = j.max(end);
                continue;
            }
            i = end;
            continue;
        }
        i += 1;
    }
    found
}

/// The module a path names, resolved from the module `at`, among the `known` modules: the longest
/// known prefix of the absolute path.
fn resolve(at: &[String], path: &[String], known: &BTreeSet<Vec<String>>) -> Option<Vec<String>> {
    let mut abs: Vec<String> = Vec::new();
    let mut rest = path;
    match path.first().map(String::as_str) {
        Some("crate") => rest = &path[1..],
        Some("self") | Some("super") => {
            abs = at.to_vec();
            while let Some(first) = rest.first() {
                match first.as_str() {
                    "self" => rest = &rest[1..],
                    "super" => {
                        abs.pop()?;
                        rest = &rest[1..];
                    }
                    _ => break,
                }
            }
        }
        _ => return None,
    }
    abs.extend(rest.iter().cloned());
    (0..=abs.len())
        .rev()
        .map(|n| abs[..n].to_vec())
        .find(|p| known.contains(p))
}

#[test]
fn no_library_module_is_over_the_limit() {
    let over: Vec<String> = modules()
        .into_iter()
        .filter_map(|(path, _)| {
            let n = fs::read_to_string(&path).unwrap().lines().count();
            (n > MAX_LINES).then(|| format!("{} ({n} lines)", path.display()))
        })
        .collect();
    assert!(
        over.is_empty(),
        "library modules over {MAX_LINES} lines (split them by concept): {over:#?}"
    );
}

#[test]
fn no_import_cycle_between_library_modules() {
    let files = modules();
    let known: BTreeSet<Vec<String>> = files.iter().map(|(_, m)| m.clone()).collect();
    // For each parent module, the references between its children: (from child, to child) → an example.
    let mut edges: BTreeMap<Vec<String>, BTreeMap<(String, String), String>> = BTreeMap::new();
    for (path, module) in &files {
        let code = code_only(&fs::read_to_string(path).unwrap());
        for (p, line) in paths(&code) {
            let Some(target) = resolve(module, &p, &known) else {
                continue;
            };
            let common = module
                .iter()
                .zip(&target)
                .take_while(|(a, b)| a == b)
                .count();
            if common == module.len() || common == target.len() {
                continue; // a module and its own ancestor or descendant
            }
            let parent = module[..common].to_vec();
            let example = format!(
                "{}:{line} names {}",
                path.strip_prefix(env!("CARGO_MANIFEST_DIR"))
                    .unwrap_or(path)
                    .display(),
                p.join("::")
            );
            edges
                .entry(parent)
                .or_default()
                .entry((module[common].clone(), target[common].clone()))
                .or_insert(example);
        }
    }
    let mut cycles = Vec::new();
    for (parent, e) in &edges {
        let nodes: BTreeSet<&String> = e.keys().flat_map(|(a, b)| [a, b]).collect();
        let next = |n: &String| -> Vec<&String> {
            e.keys().filter(|(a, _)| a == n).map(|(_, b)| b).collect()
        };
        // A cycle through each node: the shortest path back to it (breadth first).
        let mut seen_cycles = BTreeSet::new();
        for &start in &nodes {
            let mut back: BTreeMap<&String, &String> = BTreeMap::new();
            let mut queue = std::collections::VecDeque::from([start]);
            let mut found = None;
            while let Some(n) = queue.pop_front() {
                for m in next(n) {
                    if m == start {
                        found = Some(n);
                        break;
                    }
                    if !back.contains_key(m) {
                        back.insert(m, n);
                        queue.push_back(m);
                    }
                }
                if found.is_some() {
                    break;
                }
            }
            if let Some(mut last) = found {
                let mut ring = vec![last];
                while last != start {
                    last = back[last];
                    ring.push(last);
                }
                ring.reverse();
                let key: BTreeSet<&String> = ring.iter().copied().collect();
                if seen_cycles.insert(key) {
                    let steps: Vec<String> = ring
                        .iter()
                        .zip(ring.iter().cycle().skip(1))
                        .map(|(a, b)| format!("  {a} → {b}: {}", e[&((*a).clone(), (*b).clone())]))
                        .collect();
                    let within = if parent.is_empty() {
                        "the crate".to_string()
                    } else {
                        format!("crate::{}", parent.join("::"))
                    };
                    cycles.push(format!("in {within}:\n{}", steps.join("\n")));
                }
            }
        }
    }
    assert!(
        cycles.is_empty(),
        "import cycles between library modules ({}):\n{}",
        cycles.len(),
        cycles.join("\n")
    );
}

#[test]
fn the_reference_reader_reads_what_it_should() {
    // The checker's own parts, on a small text: groups, `super`, comments and strings ignored.
    let code = code_only(
        "use crate::{a::X, b::{c::Y, Z}};\n// crate::commented::Out\nlet s = \"crate::quoted\";\nsuper::d::f();\n",
    );
    let found: Vec<String> = paths(&code)
        .into_iter()
        .map(|(p, _)| p.join("::"))
        .collect();
    assert_eq!(
        found,
        [
            "crate::a::X",
            "crate::b::c::Y",
            "crate::b::Z",
            "super::d::f"
        ]
    );
    let known: BTreeSet<Vec<String>> = [vec![], vec!["a".into()], vec!["m".into(), "d".into()]]
        .into_iter()
        .collect();
    let at = vec!["m".to_string(), "e".to_string()];
    assert_eq!(
        resolve(&at, &["super".into(), "d".into(), "f".into()], &known),
        Some(vec!["m".to_string(), "d".to_string()])
    );
    assert_eq!(
        resolve(&at, &["crate".into(), "a".into(), "X".into()], &known),
        Some(vec!["a".to_string()])
    );
}
