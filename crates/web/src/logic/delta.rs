//! Replies that say "as before": an edit changes a few assertions of a large file, yet every reply
//! carried them all, and decoding 300 KB of JSON on the page's main thread was a large part of a
//! keystroke's latency on a 2,000-line file. The worker remembers its last results (`History`);
//! the page names the result it shows (`Request::base`); for each new assertion equal to one of that
//! result's, moved by the edit (`Edit::shift`), the reply says which one (`Delta::plan`) instead of
//! sending it, and the page rebuilds it from its own copy with the same `shift`.
//!
//! Exact by construction: an assertion is reused only if shifting the old one gives a value equal to
//! the new one (`==` on the whole `Assertion`), and the page shifts an equal copy (the one it decoded
//! from that result) with the same function. `shift` moves only spans that lie on lines the edit did
//! not touch, so a reused assertion's columns and text are those of unchanged lines.

use std::collections::VecDeque;

use bench_explorer::model::{Assertion, Origin, Span};
use bench_explorer::Stage;
use serde::{Deserialize, Serialize};

/// How many earlier results the worker keeps (the page may show one that is not the latest sent).
const KEEP: usize = 4;

/// What an edit did to the text, in byte offsets and lines: everything before `keep_before` (the
/// start of the first changed line) is unchanged; everything from `old_after` on (the start of the
/// line after the last changed one, in the old text) moved by `bytes` and `lines`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Edit {
    pub keep_before: u32,
    pub old_after: u32,
    pub bytes: i64,
    pub lines: i64,
}

impl Edit {
    /// The edit that turns `old` into `new` (one changed region: their common prefix and suffix
    /// are kept), widened to whole lines.
    pub fn between(old: &str, new: &str) -> Edit {
        let (o, n) = (old.as_bytes(), new.as_bytes());
        // The changed region is old[prefix..old_end] (new[prefix..new_end]).
        let (prefix, old_end, new_end) = bench_explorer::changed_region(old, new);
        // Whole lines: from the start of the line where the change begins, to the start of the
        // line after the one where it ends (in the old text). A change that ends right after a
        // line break touches the next line's start only if it inserted or removed text there,
        // which is covered: that line's offset moves, its text does not.
        let keep_before = o[..prefix]
            .iter()
            .rposition(|&b| b == b'\n')
            .map_or(0, |i| i + 1);
        let old_after = o[old_end..]
            .iter()
            .position(|&b| b == b'\n')
            .map_or(o.len() + 1, |i| old_end + i + 1);
        let count = |s: &[u8]| s.iter().filter(|&&b| b == b'\n').count() as i64;
        Edit {
            keep_before: keep_before as u32,
            old_after: old_after.min(u32::MAX as usize) as u32,
            bytes: new_end as i64 - old_end as i64,
            lines: count(&n[prefix..new_end]) - count(&o[prefix..old_end]),
        }
    }

    fn span(&self, s: &Span) -> Option<Span> {
        if s.end <= self.keep_before && s.start <= s.end {
            return Some(*s);
        }
        if s.start >= self.old_after {
            let at = |v: u32, d: i64| u32::try_from(v as i64 + d).ok();
            return Some(Span {
                start: at(s.start, self.bytes)?,
                end: at(s.end, self.bytes)?,
                line: at(s.line, self.lines)?,
                end_line: at(s.end_line, self.lines)?,
            });
        }
        None
    }

    /// Whether `old` (of the old text) moved to the new text is `new`: `shift(old) == Some(new)`,
    /// without building the moved copy (the worker compares every assertion at each keystroke).
    /// Both are destructured whole, so a field added to `Assertion` does not compile until it is
    /// compared here.
    pub fn moves_to(&self, old: &Assertion, new: &Assertion) -> bool {
        let Assertion {
            test,
            line,
            column,
            source,
            status,
            expr,
            reason,
            rule,
            unresolved,
            shapes,
            span,
            origins,
            warning_filters,
        } = old;
        let Some(moved) = self.span(span) else {
            return false;
        };
        let Some(moved_line) =
            u32::try_from(*line as i64 + (moved.line as i64 - span.line as i64)).ok()
        else {
            return false;
        };
        moved == new.span
            && moved_line == new.line
            && *column == new.column
            && *status == new.status
            && origins.len() == new.origins.len()
            && origins.iter().zip(&new.origins).all(|(o, n)| {
                let Origin { role, span } = o;
                *role == n.role && self.span(span) == Some(n.span)
            })
            && *test == new.test
            && *source == new.source
            && *expr == new.expr
            && *reason == new.reason
            && *rule == new.rule
            && *unresolved == new.unresolved
            && *shapes == new.shapes
            && *warning_filters == new.warning_filters
    }

    /// `a` (of the old text) moved to the new text, if none of its spans touches a changed line.
    pub fn shift(&self, a: &Assertion) -> Option<Assertion> {
        let span = self.span(&a.span)?;
        let mut origins = a.origins.clone();
        for o in &mut origins {
            o.span = self.span(&o.span)?;
        }
        let line = u32::try_from(a.line as i64 + (span.line as i64 - a.span.line as i64)).ok()?;
        Some(Assertion {
            line,
            span,
            origins,
            ..a.clone()
        })
    }
}

/// A reply's reuse of an earlier result: for each assertion, `Some(j)` for the base's assertion `j`
/// shifted by `edit`, `None` for the next one sent in full.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Delta {
    pub base: u64,
    pub edit: Edit,
    pub plan: Vec<Option<u32>>,
}

impl Delta {
    pub fn reused(&self) -> usize {
        self.plan.iter().filter(|p| p.is_some()).count()
    }

    /// The full list, from the base's assertions and those sent; `None` if they do not fit.
    pub fn rebuild(&self, base: &[Assertion], sent: Vec<Assertion>) -> Option<Vec<Assertion>> {
        let mut r = self.start_rebuild(sent);
        self.rebuild_some(&mut r, base, usize::MAX)?;
        r.finish()
    }

    /// [`Delta::rebuild`] a slice at a time ([`Delta::rebuild_some`], then [`Rebuild::finish`]):
    /// on the page, a 10 MB file's rebuild of 86,000 assertions was one long task.
    pub fn start_rebuild(&self, sent: Vec<Assertion>) -> Rebuild {
        Rebuild {
            sent: sent.into_iter(),
            out: Vec::with_capacity(self.plan.len()),
            total: self.plan.len(),
        }
    }

    /// At most `n` more assertions of the list: `Some(true)` once it is whole, `None` if they do
    /// not fit.
    pub fn rebuild_some(&self, r: &mut Rebuild, base: &[Assertion], n: usize) -> Option<bool> {
        let from = r.out.len();
        let to = from.saturating_add(n).min(self.plan.len());
        for p in &self.plan[from..to] {
            let next = match p {
                Some(j) => self.edit.shift(base.get(*j as usize)?)?,
                None => r.sent.next()?,
            };
            r.out.push(next);
        }
        Some(r.out.len() == self.plan.len())
    }
}

/// A rebuild in progress ([`Delta::start_rebuild`]).
pub struct Rebuild {
    sent: std::vec::IntoIter<Assertion>,
    out: Vec<Assertion>,
    total: usize,
}

impl Rebuild {
    /// The whole list, if it is whole and every assertion sent was used.
    pub fn finish(mut self) -> Option<Vec<Assertion>> {
        (self.out.len() == self.total && self.sent.next().is_none()).then_some(self.out)
    }
}

struct Entry {
    id: u64,
    stage: Stage,
    text: String,
    assertions: Vec<Assertion>,
}

/// A result [`History`] no longer keeps (freeing a large one takes a while: the worker does it
/// after its reply).
pub struct Forgotten(#[allow(dead_code)] Entry);

/// The worker's last results.
#[derive(Default)]
pub struct History {
    entries: VecDeque<Entry>,
}

impl History {
    /// Keep a result (its text and assertions) as a base for later replies. Returns what it no
    /// longer keeps, for the caller to free when it likes (the worker: after its reply).
    pub fn remember(
        &mut self,
        id: u64,
        stage: Stage,
        text: &str,
        assertions: Vec<Assertion>,
    ) -> Vec<Forgotten> {
        let mut gone = Vec::new();
        let mut i = 0;
        while i < self.entries.len() {
            if self.entries[i].id == id {
                gone.extend(self.entries.remove(i).map(Forgotten));
            } else {
                i += 1;
            }
        }
        if self.entries.len() == KEEP {
            gone.extend(self.entries.pop_front().map(Forgotten));
        }
        self.entries.push_back(Entry {
            id,
            stage,
            text: text.to_string(),
            assertions,
        });
        gone
    }

    /// How `new` (the extraction of `text` under `stage`) reuses the result `base`, if the worker
    /// still has it and anything is reused.
    pub fn delta(
        &self,
        base: Option<u64>,
        stage: Stage,
        text: &str,
        new: &[Assertion],
    ) -> Option<Delta> {
        let e = self
            .entries
            .iter()
            .find(|e| Some(e.id) == base && e.stage == stage)?;
        let edit = Edit::between(&e.text, text);
        let (m, n) = (e.assertions.len(), new.len());
        let plan: Vec<Option<u32>> = new
            .iter()
            .enumerate()
            .map(|(i, a)| {
                // Before the edit an assertion keeps its index; after it, its distance from the end.
                let candidates = [Some(i), (i + m).checked_sub(n)];
                candidates
                    .into_iter()
                    .flatten()
                    .filter(|&j| j < m)
                    .find(|&j| edit.moves_to(&e.assertions[j], a))
                    .map(|j| j as u32)
            })
            .collect();
        let delta = Delta {
            base: e.id,
            edit,
            plan,
        };
        (delta.reused() > 0).then_some(delta)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use bench_explorer::{extract, Options};

    fn assertions(text: &str) -> Vec<Assertion> {
        extract(text, &Options::new("test_d.py")).assertions
    }

    fn file(n: usize) -> String {
        let mut s = String::from("from solution import f, Cache\n\nK = 3\n\n");
        for i in 0..n {
            s.push_str(&format!(
                "def test_{i}():\n    c = Cache(2)\n    c.put({i}, 1)\n    assert c.get({i}) == 1\n    assert f({i}) == K\n\n"
            ));
        }
        s
    }

    /// Every edit of `text` at `at` (delete `del` bytes, insert `ins`): the rebuilt list is the
    /// new extraction, and something was reused when the edit is local.
    fn check(text: &str, at: usize, del: usize, ins: &str) -> usize {
        let new_text = format!("{}{}{}", &text[..at], ins, &text[at + del..]);
        let (old, new) = (assertions(text), assertions(&new_text));
        let mut h = History::default();
        h.remember(7, Stage::Full, text, old.clone());
        let Some(d) = h.delta(Some(7), Stage::Full, &new_text, &new) else {
            return 0;
        };
        let sent: Vec<Assertion> = new
            .iter()
            .zip(&d.plan)
            .filter(|(_, p)| p.is_none())
            .map(|(a, _)| a.clone())
            .collect();
        assert_eq!(
            d.rebuild(&old, sent.clone()).as_deref(),
            Some(&new[..]),
            "edit at {at} -{del} +{ins:?}"
        );
        // A slice at a time (the page's way for a large result), in slices of any size.
        for step in [1, 2, 5] {
            let mut r = d.start_rebuild(sent.clone());
            let mut slices = 0;
            while !d.rebuild_some(&mut r, &old, step).expect("fits") {
                slices += 1;
            }
            assert!(
                slices >= new.len().saturating_sub(1) / step,
                "{slices} slices"
            );
            assert_eq!(r.finish().as_deref(), Some(&new[..]), "in slices of {step}");
        }
        // One assertion sent too many, or too few: no list.
        let mut more = sent.clone();
        more.push(new[0].clone());
        assert_eq!(d.rebuild(&old, more), None);
        if !sent.is_empty() {
            assert_eq!(d.rebuild(&old, sent[1..].to_vec()), None);
        }
        // Unfinished, it is not a list.
        if new.len() > 1 {
            let mut r = d.start_rebuild(sent);
            d.rebuild_some(&mut r, &old, 1);
            assert!(r.finish().is_none());
        }
        d.reused()
    }

    #[test]
    fn rebuilt_lists_equal_the_new_extraction() {
        let text = file(12);
        let n = assertions(&text).len();
        // Typing in the middle of an assert: all but that test's two are reused (the second
        // replays the first).
        let at = text.find("assert c.get(6)").unwrap() + 14;
        assert_eq!(check(&text, at, 0, "7"), n - 2);
        assert_eq!(check(&text, at - 1, 1, ""), n - 2);
        // A syntax error anywhere: pytest imports nothing of the file, so every entry changes (each
        // is dropped, M003).
        assert_eq!(check(&text, at, 1, ""), 0);
        // A new line inside a test: the later ones move down a line and are reused.
        let at = text.find("    c.put(3, 1)\n").unwrap();
        let reused = check(&text, at, 0, "    c.put(99, 9)\n");
        assert!(reused >= n - 2, "{reused} of {n}");
        // A module-level constant every test reads: nothing can be reused... except what the
        // extraction leaves unchanged (the `c.get` asserts do not read K).
        let at = text.find("K = 3").unwrap() + 4;
        let reused = check(&text, at, 1, "4");
        assert!(reused > 0 && reused < n, "{reused} of {n}");
        // Every position and many sizes of deletion and insertion, on a small file.
        let small = file(3);
        for at in (0..small.len()).step_by(7) {
            for (del, ins) in [(0, "x"), (1, ""), (3, "\n"), (0, "\n\n    assert 1\n")] {
                if at + del <= small.len() && small.is_char_boundary(at + del) {
                    check(&small, at, del, ins);
                }
            }
        }
    }

    /// `moves_to` is `shift(old) == Some(new)`, on every pair of assertions of a file and its
    /// edits (equal, moved, changed in one field or another, or in their origins).
    #[test]
    fn moves_to_is_shift_then_compare() {
        let text = file(4);
        let old = assertions(&text);
        let mut edits = vec![text.clone()];
        for (from, to) in [
            ("assert c.get(2)", "assert c.get(22)"),
            ("    c.put(1, 1)\n", "    c.put(1, 1)\n    c.put(5, 5)\n"),
            ("K = 3", "K = 4"),
            ("def test_3", "def test_x"),
            ("f(0) == K", "f(0)  == K"),
        ] {
            edits.push(text.replacen(from, to, 1));
        }
        let (mut pairs, mut moved_pairs) = (0, 0);
        for new_text in &edits {
            let new = assertions(new_text);
            let edit = Edit::between(&text, new_text);
            for o in &old {
                for n in &new {
                    assert_eq!(
                        edit.moves_to(o, n),
                        edit.shift(o).as_ref() == Some(n),
                        "{o:?} -> {n:?} under {edit:?}"
                    );
                    pairs += 1;
                    moved_pairs += usize::from(edit.moves_to(o, n));
                }
                // And each field changed alone.
                if let Some(moved) = edit.shift(o) {
                    let mut variants = vec![moved.clone(); 11];
                    variants[0].test.push('x');
                    variants[1].line += 1;
                    variants[2].column += 1;
                    variants[3].source.push(' ');
                    variants[4].expr = Some("x".into());
                    variants[5].reason = Some("r".into());
                    variants[6].unresolved = Some(vec!["u".into()]);
                    variants[7].span.end += 1;
                    variants[8].origins.push(Origin {
                        role: bench_explorer::model::OriginRole::Folded,
                        span: moved.span,
                    });
                    variants[9].status = match moved.status {
                        bench_explorer::model::Status::Kept => {
                            bench_explorer::model::Status::Dropped
                        }
                        bench_explorer::model::Status::Dropped => {
                            bench_explorer::model::Status::Kept
                        }
                    };
                    variants[10].shapes.push(bench_explorer::Shape::ALL[0]);
                    assert!(edit.moves_to(o, &moved));
                    for v in &variants {
                        assert!(!edit.moves_to(o, v), "{v:?}");
                    }
                }
            }
        }
        assert!(pairs > 300 && moved_pairs > 30, "{pairs} {moved_pairs}");
    }

    #[test]
    fn the_base_must_be_the_one_named_and_of_the_same_stage() {
        let text = file(3);
        let a = assertions(&text);
        let mut h = History::default();
        h.remember(1, Stage::Full, &text, a.clone());
        assert!(h.delta(Some(1), Stage::Full, &text, &a).is_some());
        assert!(h.delta(Some(2), Stage::Full, &text, &a).is_none());
        assert!(h.delta(None, Stage::Full, &text, &a).is_none());
        assert!(h.delta(Some(1), Stage::AsWritten, &text, &a).is_none());
        for id in 2..=(KEEP as u64 + 1) {
            h.remember(id, Stage::Full, &text, a.clone());
        }
        assert!(
            h.delta(Some(1), Stage::Full, &text, &a).is_none(),
            "forgotten"
        );
        assert!(h
            .delta(Some(KEEP as u64 + 1), Stage::Full, &text, &a)
            .is_some());
    }

    #[test]
    fn edits_are_widened_to_whole_lines() {
        let e = Edit::between("ab\ncd\nef\n", "ab\ncXd\nef\n");
        assert_eq!(
            e,
            Edit {
                keep_before: 3,
                old_after: 6,
                bytes: 1,
                lines: 0
            }
        );
        let e = Edit::between("ab\ncd\nef\n", "ab\ncd\nnew\nef\n");
        assert_eq!((e.keep_before, e.bytes, e.lines), (6, 4, 1));
        // A span on a changed line is not moved; one after it is.
        let span = |start, end, line| Span {
            start,
            end,
            line,
            end_line: line,
        };
        let e = Edit::between("ab\ncd\nef\n", "ab\ncXd\nef\n");
        assert_eq!(e.span(&span(0, 2, 1)), Some(span(0, 2, 1)));
        assert_eq!(e.span(&span(3, 5, 2)), None);
        assert_eq!(e.span(&span(6, 8, 3)), Some(span(7, 9, 3)));
    }
}
