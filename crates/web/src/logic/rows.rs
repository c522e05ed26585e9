//! The results list, rendered lazily: a stable identity per row (the test id and the assert's
//! ordinal in it, plus what the row shows, never its byte offsets), a window that counts rows (not
//! test groups), folded expressions shown collapsed, and "copy all kept" as a Python list.

use std::collections::{HashMap, HashSet};

use bench_explorer::model::{Assertion, Status};

use super::compare::StageFidelity;
use super::grouping::TestGroup;

/// One key per assertion, equal across edits that do not change the row's content: the test id,
/// the assert's ordinal among that test's assertions, and everything the row shows except
/// positions (line numbers and offsets are read live, so an edit above a row does not rebuild it).
pub fn row_keys(assertions: &[Assertion], verdicts: &[StageFidelity]) -> Vec<u64> {
    let mut ordinal: HashMap<&str, u64> = HashMap::new();
    assertions
        .iter()
        .enumerate()
        .map(|(i, a)| {
            let n = ordinal.entry(a.test.as_str()).or_insert(0);
            let k = *n;
            *n += 1;
            let mut h = Fnv::new();
            h.write(a.test.as_bytes());
            h.write(&k.to_le_bytes());
            h.write(a.source.as_bytes());
            h.write(&[a.status as u8]);
            h.write(a.expr.as_deref().unwrap_or("\u{1}").as_bytes());
            h.write(a.reason.as_deref().unwrap_or("\u{1}").as_bytes());
            for n in a.unresolved.iter().flatten() {
                h.write(n.as_bytes());
            }
            for s in &a.shapes {
                h.write(s.id().as_bytes());
            }
            match verdicts.get(i) {
                None => h.write(b""),
                Some(v) => {
                    h.write(v.id().as_bytes());
                    match v {
                        StageFidelity::Differs { faithful } => {
                            for f in faithful {
                                h.write(f.as_bytes());
                            }
                        }
                        StageFidelity::FaithfulDrops { reason } => h.write(reason.as_bytes()),
                        StageFidelity::NotMeasured { faithful_kept } => {
                            h.write(&(*faithful_kept as u64).to_le_bytes())
                        }
                        _ => {}
                    }
                }
            }
            h.0
        })
        .collect()
}

/// The groups and rows to render: the first `limit` rows in list order (whole groups until the
/// limit falls inside one, which is then cut). Returns (group index, its shown rows).
pub fn window(groups: &[TestGroup], limit: usize) -> Vec<(usize, Vec<usize>)> {
    let mut left = limit;
    let mut out = Vec::new();
    for (gi, g) in groups.iter().enumerate() {
        if left == 0 {
            break;
        }
        let n = g.rows.len().min(left);
        left -= n;
        out.push((gi, g.rows[..n].to_vec()));
    }
    out
}

/// Key → assertion index for the rows of [`window`]: what a row on screen needs to find its
/// assertion. Its cost follows the window, not the file.
pub fn window_index(groups: &[TestGroup], keys: &[u64], limit: usize) -> HashMap<u64, usize> {
    window(groups, limit)
        .into_iter()
        .flat_map(|(_, rows)| rows)
        .filter_map(|i| keys.get(i).map(|&k| (k, i)))
        .collect()
}

/// Expressions longer than this are shown collapsed until expanded.
pub const FOLD_AT: usize = 320;

/// A long expression, collapsed: its head, how much is hidden, and its tail. For a folded
/// expression `(lambda: [b1] and [b2] and … and check)()` the head keeps the first steps and the
/// tail the final check; for any other, the first and last characters.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Collapsed {
    pub head: String,
    pub hidden: String,
    pub tail: String,
}

pub fn collapse(expr: &str) -> Option<Collapsed> {
    if expr.chars().count() <= FOLD_AT {
        return None;
    }
    const PRE: &str = "(lambda: ";
    const POST: &str = ")()";
    const AND: &str = " and ";
    if let Some(inner) = expr.strip_prefix(PRE).and_then(|s| s.strip_suffix(POST)) {
        let items = split_top_level(inner);
        if items.len() >= 4 {
            let head_items = &items[..2];
            let last = items[items.len() - 1];
            let head = format!("{PRE}{}{AND}", head_items.join(AND));
            let tail = format!("{AND}{}{POST}", last);
            if head.len() + tail.len() < 4 * FOLD_AT {
                let hidden = items.len() - 3;
                return Some(Collapsed {
                    head,
                    hidden: format!(
                        "… {hidden} more {} …",
                        if hidden == 1 { "step" } else { "steps" }
                    ),
                    tail,
                });
            }
        }
    }
    let chars: Vec<(usize, char)> = expr.char_indices().collect();
    let head_end = chars[FOLD_AT / 2].0;
    let tail_start = chars[chars.len() - FOLD_AT / 2].0;
    Some(Collapsed {
        head: expr[..head_end].to_string(),
        hidden: format!("… {} more characters …", chars.len() - FOLD_AT),
        tail: expr[tail_start..].to_string(),
    })
}

/// Split at ` and ` outside brackets and string literals.
fn split_top_level(s: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut depth = 0i32;
    let mut quote: Option<char> = None;
    let mut escaped = false;
    let mut start = 0;
    for (i, c) in s.char_indices() {
        if let Some(q) = quote {
            if escaped {
                escaped = false;
            } else if c == '\\' {
                escaped = true;
            } else if c == q {
                quote = None;
            }
            continue;
        }
        match c {
            '\'' | '"' => quote = Some(c),
            '(' | '[' | '{' => depth += 1,
            ')' | ']' | '}' => depth -= 1,
            ' ' if depth == 0 && s[i..].starts_with(" and ") && i >= start => {
                out.push(s[start..i].trim());
                start = i + " and ".len();
            }
            _ => {}
        }
    }
    out.push(s[start..].trim());
    out
}

/// Every kept expression as a Python list literal, one per line, in list order.
pub fn python_list(assertions: &[Assertion]) -> String {
    let mut out = String::from("[\n");
    for a in assertions {
        if a.status == Status::Kept {
            if let Some(e) = &a.expr {
                out.push_str("    ");
                out.push_str(e);
                out.push_str(",\n");
            }
        }
    }
    out.push(']');
    out.push('\n');
    out
}

/// FNV-1a, 64-bit, with a separator after each write.
struct Fnv(u64);

impl Fnv {
    fn new() -> Fnv {
        Fnv(0xcbf2_9ce4_8422_2325)
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes.iter().chain(std::iter::once(&0xffu8)) {
            self.0 ^= b as u64;
            self.0 = self.0.wrapping_mul(0x0000_0100_0000_01b3);
        }
    }
}

/// Rows put on screen per task: laying out a row takes the browser about a millisecond (more for a
/// long folded expression), so a window of 100 new rows was itself a long task (issue 11).
pub const ROWS_PER_SLICE: usize = 10;

/// Progressive mounting of a window of rows (test group index, row keys), in order: the rows
/// already on screen (`mounted`) stay, and at most `fresh` new ones are added. Groups with no row
/// to show are left out. Returns the rows to show, and whether some were held back for the next
/// slice. An edit keeps every unchanged row and mounts the changed ones at once.
pub fn mount_slice(
    window: Vec<(usize, Vec<u64>)>,
    mounted: &HashSet<u64>,
    fresh: usize,
) -> (Vec<(usize, Vec<u64>)>, bool) {
    let mut left = fresh;
    let mut held = false;
    let out = window
        .into_iter()
        .filter_map(|(gi, keys)| {
            let keys: Vec<u64> = keys
                .into_iter()
                .filter(|k| {
                    if mounted.contains(k) {
                        true
                    } else if left > 0 {
                        left -= 1;
                        true
                    } else {
                        held = true;
                        false
                    }
                })
                .collect();
            (!keys.is_empty()).then_some((gi, keys))
        })
        .collect();
    (out, held)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mounting_adds_a_slice_of_new_rows_and_keeps_the_mounted_ones() {
        let window = vec![(0, vec![1, 2, 3]), (1, vec![4, 5]), (2, vec![6])];
        // Nothing on screen: the first two rows, the rest held back.
        let (out, held) = mount_slice(window.clone(), &HashSet::new(), 2);
        assert_eq!(out, vec![(0, vec![1, 2])]);
        assert!(held);
        // Next slice: those stay, two more come.
        let on: HashSet<u64> = [1, 2].into();
        let (out, held) = mount_slice(window.clone(), &on, 2);
        assert_eq!(out, vec![(0, vec![1, 2, 3]), (1, vec![4])]);
        assert!(held);
        // An edit changed row 5's key: the mounted rows stay and the new key mounts at once.
        let on: HashSet<u64> = [1, 2, 3, 4, 6].into();
        let (out, held) = mount_slice(window.clone(), &on, 2);
        assert_eq!(out, window);
        assert!(!held);
        // No budget: only what is on screen.
        let (out, held) = mount_slice(window, &[6].into(), 0);
        assert_eq!(out, vec![(2, vec![6])]);
        assert!(held);
    }
    use crate::logic::grouping::group_by_test;
    use bench_explorer::{extract, Options};

    #[test]
    fn keys_survive_edits_above_and_change_with_content() {
        let a = "def test_a():\n    assert f(1) == 1\n    assert f(1) == 1\n";
        let b = format!("# a comment\n\n{a}");
        let ea = extract(a, &Options::new("t.py"));
        let eb = extract(&b, &Options::new("t.py"));
        let ka = row_keys(&ea.assertions, &[]);
        let kb = row_keys(&eb.assertions, &[]);
        assert_eq!(ka, kb, "lines moved, rows did not change");
        // Two identical asserts in one test differ by ordinal.
        assert_ne!(ka[0], ka[1]);
        let c = a.replace("== 1\n    assert", "== 2\n    assert");
        let kc = row_keys(&extract(&c, &Options::new("t.py")).assertions, &[]);
        assert_ne!(kc[0], ka[0]);
        assert_eq!(kc[1], ka[1]);
    }

    #[test]
    fn window_index_maps_the_window_rows_keys_to_their_indices() {
        let e = extract(
            "def test_a():\n    assert 1\n    assert 2\n    assert 3\ndef test_b():\n    assert 4\n",
            &Options::new("t.py"),
        );
        let groups = group_by_test(&e.assertions);
        let keys = row_keys(&e.assertions, &[]);
        let all = window_index(&groups, &keys, 100);
        assert_eq!(all.len(), 4);
        for (i, k) in keys.iter().enumerate() {
            assert_eq!(all.get(k), Some(&i));
        }
        // Cut inside the first group: only its first two rows.
        let cut = window_index(&groups, &keys, 2);
        assert_eq!(cut.len(), 2);
        assert_eq!(cut.get(&keys[1]), Some(&1));
        assert_eq!(cut.get(&keys[3]), None);
    }

    #[test]
    fn window_counts_rows_not_groups() {
        let mut src = String::from("def test_big():\n");
        for i in 0..50 {
            src.push_str(&format!("    assert f({i}) == {i}\n"));
        }
        src.push_str("def test_small():\n    assert f(1) == 1\n");
        let e = extract(&src, &Options::new("t.py"));
        let groups = group_by_test(&e.assertions);
        let w = window(&groups, 10);
        assert_eq!(w.len(), 1);
        assert_eq!(w[0].1.len(), 10);
        let w = window(&groups, 51);
        assert_eq!(w.iter().map(|(_, r)| r.len()).sum::<usize>(), 51);
        assert_eq!(window(&groups, 0), vec![]);
    }

    #[test]
    fn folded_expressions_collapse_to_first_bindings_and_final_check() {
        let steps: Vec<String> = (0..60)
            .map(|i| format!("[c.put({i}, '{i} and )')]"))
            .collect();
        let expr = format!(
            "(lambda: [c := Cache(2)] and {} and c.get(59) == '59 and )')()",
            steps.join(" and ")
        );
        let c = collapse(&expr).unwrap();
        assert_eq!(
            c.head,
            "(lambda: [c := Cache(2)] and [c.put(0, '0 and )')] and "
        );
        assert_eq!(c.tail, " and c.get(59) == '59 and )')()");
        assert_eq!(c.hidden, "… 59 more steps …");
        assert_eq!(collapse("f(1) == 1"), None);
        let long = format!("f({}) == 1", "1 + ".repeat(200));
        let c = collapse(&long).unwrap();
        assert!(long.starts_with(&c.head) && long.ends_with(&c.tail));
    }

    #[test]
    fn python_list_of_kept() {
        let e = extract(
            "from solution import f, g\ndef test_a():\n    assert f(1) == 1\n    assert undefined == 2\n    assert g() is None\n",
            &Options::new("t.py"),
        );
        let list = python_list(&e.assertions);
        let kept: Vec<&str> = e.kept().filter_map(|a| a.expr.as_deref()).collect();
        assert_eq!(list, format!("[\n    {},\n]\n", kept.join(",\n    ")));
        assert!(e.dropped().count() > 0);
    }
}
