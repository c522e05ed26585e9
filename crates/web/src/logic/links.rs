//! Two-way links between the source and the results, as Compiler Explorer draws them: an assertion
//! lights up its own lines and the lines it was built from; a source line lights up the assertions
//! it feeds.

use bench_explorer::model::{Assertion, OriginRole, Span};
use bench_explorer::sort::SharedSort as _;

use super::offsets::OffsetMap;

/// How a highlighted range relates to the assertion.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum LinkKind {
    /// The `assert` statement itself.
    Assert,
    /// A line it was built from: inlined, folded, a parameter, a fixture, a constant.
    Origin,
    /// The line that made it impossible to flatten (dropped assertions).
    Blocker,
}

impl LinkKind {
    pub fn id(self) -> &'static str {
        match self {
            LinkKind::Assert => "assert",
            LinkKind::Origin => "origin",
            LinkKind::Blocker => "blocker",
        }
    }
}

/// A range in the editor's coordinates (UTF-16 offsets).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LinkRange {
    pub from: u32,
    pub to: u32,
    pub kind: LinkKind,
}

/// The editor ranges to light up for one assertion: the assertion first (it wins where ranges share
/// a line), then its origins in source order.
pub fn link_ranges(a: &Assertion, map: &OffsetMap) -> Vec<LinkRange> {
    let mut out = vec![LinkRange {
        from: map.utf16(a.span.start),
        to: map.utf16(a.span.end),
        kind: LinkKind::Assert,
    }];
    let mut origins: Vec<_> = a.origins.iter().collect();
    origins.sort_shared_by_key(|o| (o.span.start, o.span.end));
    for o in origins {
        let kind = if o.role == OriginRole::Blocker {
            LinkKind::Blocker
        } else {
            LinkKind::Origin
        };
        out.push(LinkRange {
            from: map.utf16(o.span.start),
            to: map.utf16(o.span.end),
            kind,
        });
    }
    out
}

fn covers(span: &Span, line: u32) -> bool {
    span.line <= line && line <= span.end_line.max(span.line)
}

/// Whether a 1-based source line feeds an assertion: it is part of the assert or of an origin.
pub fn line_feeds(a: &Assertion, line: u32) -> bool {
    covers(&a.span, line) || a.origins.iter().any(|o| covers(&o.span, line))
}

/// Indices of the assertions a source line feeds.
pub fn fed_by_line(assertions: &[Assertion], line: u32) -> Vec<usize> {
    assertions
        .iter()
        .enumerate()
        .filter(|(_, a)| line_feeds(a, line))
        .map(|(i, _)| i)
        .collect()
}

/// A short human name for an origin's role.
pub fn role_label(role: OriginRole) -> &'static str {
    match role {
        OriginRole::Inlined => "inlined",
        OriginRole::Folded => "folded",
        OriginRole::Parameter => "parameter",
        OriginRole::Fixture => "fixture",
        OriginRole::Constant => "constant",
        OriginRole::Blocker => "blocked by",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use bench_explorer::{extract, Options, Status};

    // `f` is the solution's, so `result = f(1)` is inlined into the first assertion, which is kept.
    const SRC: &str = "from solution import f
def test_a():
    result = f(1)
    assert result == 1

def test_b():
    assert f(2) == 2
";

    #[test]
    fn inlined_line_feeds_its_assertion() {
        let e = extract(SRC, &Options::new("test_a.py"));
        // Line 3 (`result = f(1)`) feeds the first assertion only; line 7 the second only.
        assert!(!e.assertions.is_empty());
        let first = &e.assertions[0];
        assert_eq!(first.span.line, 4);
        assert_eq!(first.status, Status::Kept, "{:?}", first.reason);
        assert_eq!(first.expr.as_deref(), Some("f(1) == 1"));
        assert_eq!(fed_by_line(&e.assertions, 3), vec![0]);
        assert_eq!(fed_by_line(&e.assertions, 4), vec![0]);
        assert_eq!(fed_by_line(&e.assertions, 7), vec![1]);
        assert!(fed_by_line(&e.assertions, 5).is_empty());
    }

    #[test]
    fn ranges_start_with_the_assert_and_use_utf16() {
        let src = "def test_é():\n    r = f('日本')\n    assert r == 1\n";
        let e = extract(src, &Options::new("test_u.py"));
        let map = OffsetMap::new(src);
        let a = &e.assertions[0];
        let ranges = link_ranges(a, &map);
        assert_eq!(ranges[0].kind, LinkKind::Assert);
        let assert_at = src.find("assert").unwrap();
        let expect = src[..assert_at].encode_utf16().count() as u32;
        assert_eq!(ranges[0].from, expect);
    }
}
