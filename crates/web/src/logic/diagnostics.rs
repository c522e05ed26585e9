//! The extraction as editor diagnostics: syntax errors (errors), findings (warnings) and dropped
//! assertions (infos), each on its exact range in UTF-16 offsets.

use bench_explorer::model::{Extraction, Status};
use bench_explorer::sort::SharedSort as _;

use serde::{Deserialize, Serialize};

use super::offsets::OffsetMap;

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Severity {
    Error,
    Warning,
    Info,
}

impl Severity {
    /// CodeMirror's name for it.
    pub fn id(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Info => "info",
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Diagnostic {
    pub from: u32,
    pub to: u32,
    pub severity: Severity,
    pub message: String,
    /// Shown by the editor after the message: `syntax`, a shape id, or `dropped`.
    pub source: String,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Counts {
    pub errors: usize,
    pub warnings: usize,
    pub infos: usize,
}

impl Counts {
    pub fn total(&self) -> usize {
        self.errors + self.warnings + self.infos
    }
}

pub fn diagnostics(e: &Extraction, map: &OffsetMap) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    for s in &e.syntax_errors {
        let (mut from, mut to) = (map.utf16(s.start), map.utf16(s.end));
        if to <= from {
            // An empty range (an unexpected end, say): mark the rest of the line so it can be seen.
            let (_, line_end) = map.line_utf16(s.line);
            to = line_end.max(from);
            if to == from && from > 0 {
                from -= 1;
            }
        }
        out.push(Diagnostic {
            from,
            to,
            severity: Severity::Error,
            message: s.message.clone(),
            source: "syntax".into(),
        });
    }
    for f in &e.findings {
        let (from, to) = map.line_utf16(f.line);
        out.push(Diagnostic {
            from,
            to,
            severity: Severity::Warning,
            message: f.message.clone(),
            source: f.shape.id().into(),
        });
    }
    for a in &e.assertions {
        if a.status != Status::Dropped {
            continue;
        }
        let mut message = format!(
            "Dropped from {}: {}",
            a.test,
            a.reason.as_deref().unwrap_or("no reason given")
        );
        if let Some(names) = a.unresolved.as_ref().filter(|n| !n.is_empty()) {
            message.push_str(&format!(" (unresolved: {})", names.join(", ")));
        }
        out.push(Diagnostic {
            from: map.utf16(a.span.start),
            to: map.utf16(a.span.end),
            severity: Severity::Info,
            message,
            source: "dropped".into(),
        });
    }
    out.sort_shared_by_key(|d| (d.from, d.to, d.severity));
    out
}

pub fn counts(list: &[Diagnostic]) -> Counts {
    let mut c = Counts::default();
    for d in list {
        match d.severity {
            Severity::Error => c.errors += 1,
            Severity::Warning => c.warnings += 1,
            Severity::Info => c.infos += 1,
        }
    }
    c
}

#[cfg(test)]
mod tests {
    use super::*;
    use bench_explorer::{extract, Options};

    #[test]
    fn syntax_error_lands_on_its_line_after_non_ascii() {
        let src = "# café ☕ 🐍\ndef test_a():\n    assert f(1) == (1,\n";
        let e = extract(src, &Options::new("test_a.py"));
        assert!(!e.syntax_errors.is_empty());
        let map = OffsetMap::new(src);
        let d = diagnostics(&e, &map);
        let err = d.iter().find(|d| d.severity == Severity::Error).unwrap();
        let utf16_len = src.encode_utf16().count() as u32;
        assert!(err.from <= err.to && err.to <= utf16_len);
        // The error is after the comment line, whose 12 UTF-16 units are fewer than its 17 bytes.
        let first_line_utf16 = "# café ☕ 🐍\n".encode_utf16().count() as u32;
        assert!(err.from >= first_line_utf16);
    }

    #[test]
    fn dropped_assertions_are_infos_and_counted() {
        let src = "def test_a():\n    assert missing == 1\n";
        let e = extract(src, &Options::new("test_a.py"));
        let d = diagnostics(&e, &OffsetMap::new(src));
        let c = counts(&d);
        assert_eq!(c.infos, 1);
        assert!(d[0].message.contains("missing"));
        assert_eq!(d[0].from, src.find("assert").unwrap() as u32);
    }
}
