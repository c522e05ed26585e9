//! Wrong checks marked in the editor: under the write-up's stages, each kept assertion that the
//! faithful extractor would write differently (or not keep) gets a squiggle on its `assert` and a
//! mark in the gutter, with the reason, so the quiet bug shows where the author looks.

use bench_explorer::model::Assertion;

use super::compare::StageFidelity;
use super::offsets::OffsetMap;

/// One wrong check, in the editor's coordinates (UTF-16 offsets). `message` is Markdown with code
/// spans only.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct WrongMark {
    pub from: u32,
    pub to: u32,
    pub message: String,
}

/// Longest expression quoted in a message (the rest is elided).
const QUOTE_CHARS: usize = 160;

fn quote(expr: &str) -> String {
    let one_line: String = expr.split_whitespace().collect::<Vec<_>>().join(" ");
    let mut s: String = one_line.chars().take(QUOTE_CHARS).collect();
    if one_line.chars().count() > QUOTE_CHARS {
        s.push('…');
    }
    // A backtick inside would end the code span early.
    format!("`{}`", s.replace('`', "'"))
}

/// Why this kept check is wrong, in a sentence.
pub fn reason(a: &Assertion, v: &StageFidelity) -> Option<String> {
    let here = a.expr.as_deref().map(quote).unwrap_or_default();
    Some(match v {
        StageFidelity::Differs { faithful } => {
            let theirs: Vec<String> = faithful.iter().take(3).map(|f| quote(f)).collect();
            let more = faithful.len().saturating_sub(3);
            format!(
                "this stage checks {here}, but the test checks {}{}: a correct solution can fail it",
                theirs.join(" and "),
                if more > 0 {
                    format!(" (and {more} more cases)")
                } else {
                    String::new()
                }
            )
        }
        StageFidelity::FaithfulDrops { reason } => format!(
            "this stage keeps {here}, but it cannot be checked on its own: {}",
            reason
        ),
        StageFidelity::NotATest => {
            format!("this stage keeps {here}, but it is not an assertion of any test pytest runs")
        }
        _ => return None,
    })
}

/// The marks for every wrong check (`verdicts` is parallel to `assertions`; empty under the
/// faithful stage, which gives no marks). One mark per `assert` statement: the cases of a
/// parametrized test share it, their distinct reasons joined.
pub fn wrong_marks(
    assertions: &[Assertion],
    verdicts: &[StageFidelity],
    map: &OffsetMap,
) -> Vec<WrongMark> {
    let mut out: Vec<WrongMark> = Vec::new();
    for (a, v) in assertions.iter().zip(verdicts) {
        if !v.is_wrong_check() {
            continue;
        }
        let Some(message) = reason(a, v) else {
            continue;
        };
        let (from, to) = (map.utf16(a.span.start), map.utf16(a.span.end));
        match out.iter_mut().find(|m| m.from == from && m.to == to) {
            Some(m) => {
                if !m.message.split('\n').any(|l| l == message) {
                    m.message.push('\n');
                    m.message.push_str(&message);
                }
            }
            None => out.push(WrongMark { from, to, message }),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::logic::compare::compare;
    use bench_explorer::{extract, Options, Stage};

    // As written, `result` is not replayed: `result == 5` checks a name the namespace lacks.
    const SRC: &str = "from solution import word_ladder

def test_é():
    result = word_ladder('hit', 'cog', ['hot'])
    assert result == 5

def test_direct():
    assert word_ladder('a', 'b', []) == 0
";

    #[test]
    fn as_written_marks_the_assert_that_lost_its_binding() {
        let opts = |stage| Options {
            stage,
            ..Options::new("test_word_ladder.py")
        };
        let early = extract(SRC, &opts(Stage::AsWritten));
        let full = extract(SRC, &opts(Stage::Full));
        let verdicts = compare(&early, &full);
        let map = OffsetMap::new(SRC);
        let marks = wrong_marks(&early.assertions, &verdicts, &map);
        assert_eq!(marks.len(), 1, "{marks:?}");
        let m = &marks[0];
        // UTF-16 offsets of `assert result == 5` (after the `é`, two bytes, one unit).
        let at = SRC.find("assert result").unwrap();
        assert_eq!(m.from as usize, SRC[..at].encode_utf16().count());
        assert_eq!(
            (m.to - m.from) as usize,
            "assert result == 5".encode_utf16().count()
        );
        assert!(m.message.contains("`result == 5`"), "{}", m.message);
        assert!(
            m.message
                .contains("`word_ladder('hit', 'cog', ['hot']) == 5`"),
            "{}",
            m.message
        );
        // The faithful stage marks nothing.
        assert!(wrong_marks(&full.assertions, &[], &map).is_empty());
    }

    #[test]
    fn cases_of_one_assert_share_one_mark() {
        let src = "import pytest\nfrom solution import f\n\n@pytest.mark.parametrize('x', [1, 2])\ndef test_p(x):\n    r = f(x)\n    assert r == x\n";
        let opts = |stage| Options {
            stage,
            ..Options::new("test_f.py")
        };
        let early = extract(src, &opts(Stage::AsWritten));
        let full = extract(src, &opts(Stage::Full));
        let verdicts = compare(&early, &full);
        let wrong = verdicts.iter().filter(|v| v.is_wrong_check()).count();
        assert!(wrong >= 1, "{verdicts:?}");
        let marks = wrong_marks(&early.assertions, &verdicts, &OffsetMap::new(src));
        assert_eq!(marks.len(), 1, "{marks:?}");
    }

    #[test]
    fn quotes_are_one_line_short_and_backtick_safe() {
        assert_eq!(quote("a ==\n    `b`"), "`a == 'b'`");
        let long = "x".repeat(500);
        let q = quote(&long);
        assert_eq!(q.chars().count(), QUOTE_CHARS + 3);
        assert!(q.ends_with("…`"));
    }
}
