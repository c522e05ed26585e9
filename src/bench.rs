//! The bench: problem metadata, the convention check (the hidden-spec-rule shape made checkable), and
//! the audit that groups a whole bench's extraction by shape. Pure: callers read the files.

use crate::sort::SharedSort as _;
use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::model::{Extraction, Stage, Status};
use crate::shape::Shape;

/// A problem's `meta.toml`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Meta {
    pub title: String,
    pub difficulty: String,
    pub tags: Vec<String>,
    pub shapes: Vec<String>,
    pub note: String,
    pub functions: Vec<String>,
    #[serde(default)]
    pub conventions: Vec<String>,
}

impl Meta {
    /// Parses `meta.toml` text (the `toml` feature, on by default).
    #[cfg(feature = "toml")]
    pub fn parse(text: &str) -> Result<Meta, String> {
        toml::from_str(text).map_err(|e| e.to_string())
    }
}

/// Lower-case and collapse whitespace, so a convention matches however the statement wraps it.
fn normalise(text: &str) -> String {
    text.split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .to_lowercase()
}

/// The conventions a statement does not state (each must appear in it, case- and
/// whitespace-insensitively). A non-empty result is the hidden-spec-rule shape.
pub fn missing_conventions(meta: &Meta, statement: &str) -> Vec<String> {
    let text = normalise(statement);
    meta.conventions
        .iter()
        .filter(|c| !text.contains(&normalise(c)))
        .cloned()
        .collect()
}

/// One problem as the audit sees it.
#[derive(Clone, Debug, Serialize)]
pub struct ProblemAudit {
    pub slug: String,
    pub title: Option<String>,
    pub assertions: usize,
    pub kept: usize,
    pub dropped: usize,
    pub shapes: Vec<Shape>,
    pub findings: usize,
    pub syntax_errors: usize,
    /// Conventions the statement leaves unstated (hidden-spec-rule).
    pub hidden_conventions: Vec<String>,
    /// Conventions the problem's original statement (`problem.original.md`) left unstated: the
    /// shape as the bench first had it, kept for teaching.
    pub original_hidden_conventions: Vec<String>,
    /// Shapes the metadata lists that the extractor does not see, and the reverse.
    pub shapes_not_seen: Vec<String>,
    pub shapes_not_listed: Vec<Shape>,
}

/// Totals for one shape across the bench.
#[derive(Clone, Debug, Default, Serialize)]
pub struct ShapeTotals {
    pub problems: usize,
    pub assertions: usize,
    pub kept: usize,
    pub dropped: usize,
    pub findings: usize,
}

#[derive(Clone, Debug, Serialize)]
pub struct Audit {
    pub stage: Stage,
    pub problems: Vec<ProblemAudit>,
    pub assertions: usize,
    pub kept: usize,
    pub dropped: usize,
    pub findings: usize,
    pub syntax_errors: usize,
    /// Dropped assertions grouped by the rule that fired (`CODE name`).
    pub dropped_by_rule: BTreeMap<String, usize>,
    pub by_shape: BTreeMap<Shape, ShapeTotals>,
}

/// The input for one problem: its extraction, and optionally its metadata and statement.
pub struct ProblemInput<'a> {
    pub extraction: &'a Extraction,
    pub meta: Option<&'a Meta>,
    pub statement: Option<&'a str>,
    /// The statement as first written, when the bench keeps it (`problem.original.md`).
    pub original_statement: Option<&'a str>,
}

impl ProblemAudit {
    /// One problem's row: its counts, its shapes (the hidden-spec-rule shape when its statement
    /// misses a convention its tests rely on), and how they compare with its `meta.toml`.
    fn of(p: &ProblemInput) -> ProblemAudit {
        let e = p.extraction;
        let hidden = match (p.meta, p.statement) {
            (Some(meta), Some(statement)) => missing_conventions(meta, statement),
            _ => Vec::new(),
        };
        let original_hidden = match (p.meta, p.original_statement) {
            (Some(meta), Some(statement)) => missing_conventions(meta, statement),
            _ => Vec::new(),
        };
        let mut shapes = e.shapes();
        if !hidden.is_empty() || !original_hidden.is_empty() {
            shapes.push(Shape::HiddenSpecRule);
            shapes.sort_shared();
        }
        let (not_seen, not_listed) = match p.meta {
            Some(meta) => (
                meta.shapes
                    .iter()
                    .filter(|s| !shapes.iter().any(|x| x.id() == s.as_str()))
                    .cloned()
                    .collect(),
                shapes
                    .iter()
                    .filter(|s| !meta.shapes.iter().any(|m| m == s.id()))
                    .copied()
                    .collect(),
            ),
            None => (Vec::new(), Vec::new()),
        };
        ProblemAudit {
            slug: e.slug.clone(),
            title: p.meta.map(|m| m.title.clone()),
            assertions: e.assertions.len(),
            kept: e.kept().count(),
            dropped: e.dropped().count(),
            shapes,
            findings: e.findings.len(),
            syntax_errors: e.syntax_errors.len(),
            hidden_conventions: hidden,
            original_hidden_conventions: original_hidden,
            shapes_not_seen: not_seen,
            shapes_not_listed: not_listed,
        }
    }
}

impl Audit {
    pub fn new(stage: Stage, problems: &[ProblemInput]) -> Audit {
        let mut audit = Audit {
            stage,
            problems: Vec::new(),
            assertions: 0,
            kept: 0,
            dropped: 0,
            findings: 0,
            syntax_errors: 0,
            dropped_by_rule: BTreeMap::new(),
            by_shape: Shape::ALL
                .iter()
                .map(|s| (*s, ShapeTotals::default()))
                .collect(),
        };
        for p in problems {
            let problem = ProblemAudit::of(p);
            audit.add(p.extraction, &problem.shapes);
            audit.problems.push(problem);
        }
        audit
    }

    /// Count one problem's extraction into the totals, by reason and by shape.
    fn add(&mut self, e: &Extraction, shapes: &[Shape]) {
        self.assertions += e.assertions.len();
        self.kept += e.kept().count();
        self.dropped += e.dropped().count();
        self.findings += e.findings.len();
        self.syntax_errors += e.syntax_errors.len();
        for a in e.dropped() {
            let rule = a
                .rule
                .as_ref()
                .map(|r| format!("{} {}", r.code, r.name))
                .unwrap_or_else(|| "(no rule)".to_string());
            *self.dropped_by_rule.entry(rule).or_default() += 1;
        }
        for shape in shapes {
            self.by_shape.entry(*shape).or_default().problems += 1;
        }
        for a in &e.assertions {
            for shape in &a.shapes {
                let t = self.by_shape.entry(*shape).or_default();
                t.assertions += 1;
                match a.status {
                    Status::Kept => t.kept += 1,
                    Status::Dropped => t.dropped += 1,
                }
            }
        }
        for f in &e.findings {
            self.by_shape.entry(f.shape).or_default().findings += 1;
        }
    }

    /// Whether an author's CI gate should fail (as for `extract`).
    pub fn is_clean(&self) -> bool {
        self.dropped == 0 && self.findings == 0 && self.syntax_errors == 0
    }
}
