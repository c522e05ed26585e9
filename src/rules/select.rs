//! Which rules fail an author's CI gate (`--select` / `--ignore`, `[tool.bench-explorer]`), and the
//! counts per rule over many files (`--statistics`).

use crate::sort::SharedSort as _;
use std::collections::BTreeMap;

use super::Rule;
use crate::model::{Extraction, RuleRef};

/// Selectors as ruff reads them: a code (`M003`), a code prefix (`M`, `M0`), a rule's name, or
/// `ALL`. A rule fails the exit status when a selector of `select` matches it and none of `ignore`
/// does, the more specific selector winning when both match.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Selection {
    pub select: Vec<String>,
    pub ignore: Vec<String>,
}

impl Default for Selection {
    fn default() -> Self {
        Selection {
            select: vec!["ALL".to_string()],
            ignore: Vec::new(),
        }
    }
}

/// How specific a selector is for `code` / `name`: `None` when it does not match.
fn specificity(selector: &str, code: &str, name: &str) -> Option<usize> {
    if selector.eq_ignore_ascii_case("ALL") {
        Some(0)
    } else if selector == name {
        Some(code.len())
    } else if code
        .get(..selector.len())
        .is_some_and(|p| p.eq_ignore_ascii_case(selector))
    {
        Some(selector.len())
    } else {
        None
    }
}

impl Selection {
    /// Check every selector: each must be `ALL`, a rule's name, or a prefix of some rule's code.
    pub fn validate(&self) -> Result<(), String> {
        let all = Rule::all();
        for s in self.select.iter().chain(&self.ignore) {
            let known = s.eq_ignore_ascii_case("ALL")
                || all
                    .iter()
                    .any(|r| specificity(s, r.code(), r.name()).is_some());
            if !known {
                return Err(format!(
                    "`{s}` selects no rule (a code such as M001, a code prefix such as M, a rule's name, or ALL; `bench-explorer rule --all` lists them)"
                ));
            }
        }
        Ok(())
    }

    /// Whether a drop or finding of this rule fails the exit status. A drop or finding without a
    /// rule (an extraction from before the catalogue) always does.
    pub fn fails(&self, rule: Option<&RuleRef>) -> bool {
        let Some(rule) = rule else { return true };
        let best = |list: &[String]| {
            list.iter()
                .filter_map(|s| specificity(s, &rule.code, &rule.name))
                .max()
        };
        match (best(&self.select), best(&self.ignore)) {
            (None, _) => false,
            (Some(_), None) => true,
            (Some(s), Some(i)) => s > i,
        }
    }

    /// Whether an extraction passes an author's CI gate: no syntax error, and every dropped entry
    /// and finding is of a rule this selection does not fail on.
    pub fn passes(&self, e: &Extraction) -> bool {
        e.syntax_errors.is_empty()
            && e.dropped().all(|a| !self.fails(a.rule.as_ref()))
            && e.findings.iter().all(|f| !self.fails(f.rule.as_ref()))
    }
}

/// One line of `--statistics`: a rule, how many dropped checks and findings named it, and how many
/// checks those findings stand for that are no entry.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct RuleCount {
    pub code: String,
    pub name: String,
    pub dropped: usize,
    pub findings: usize,
    pub unseen: u32,
}

impl RuleCount {
    pub fn total(&self) -> usize {
        self.dropped + self.findings
    }
}

/// Counts per rule over the extractions, most frequent first (then by code).
pub fn statistics<'e>(extractions: impl IntoIterator<Item = &'e Extraction>) -> Vec<RuleCount> {
    let mut by: BTreeMap<RuleRef, RuleCount> = BTreeMap::new();
    let unnamed = RuleRef {
        code: "-".to_string(),
        name: "(no rule)".to_string(),
    };
    let entry = |by: &mut BTreeMap<RuleRef, RuleCount>, r: &RuleRef| {
        by.entry(r.clone()).or_insert_with(|| RuleCount {
            code: r.code.clone(),
            name: r.name.clone(),
            dropped: 0,
            findings: 0,
            unseen: 0,
        });
    };
    for e in extractions {
        for a in e.dropped() {
            let r = a.rule.as_ref().unwrap_or(&unnamed);
            entry(&mut by, r);
            by.get_mut(r).unwrap().dropped += 1;
        }
        for f in &e.findings {
            let r = f.rule.as_ref().unwrap_or(&unnamed);
            entry(&mut by, r);
            let c = by.get_mut(r).unwrap();
            c.findings += 1;
            c.unseen += f.unseen;
        }
    }
    let mut out: Vec<RuleCount> = by.into_values().collect();
    out.sort_shared_by(|a, b| b.total().cmp(&a.total()).then_with(|| a.code.cmp(&b.code)));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn r(code: &str, name: &str) -> RuleRef {
        RuleRef {
            code: code.into(),
            name: name.into(),
        }
    }

    fn sel(select: &[&str], ignore: &[&str]) -> Selection {
        Selection {
            select: select.iter().map(|s| s.to_string()).collect(),
            ignore: ignore.iter().map(|s| s.to_string()).collect(),
        }
    }

    #[test]
    fn everything_fails_by_default() {
        assert!(Selection::default().fails(Some(&r("N006", "slug-name-mismatch"))));
        assert!(Selection::default().fails(None));
    }

    #[test]
    fn ignore_by_code_prefix_or_name() {
        let slug = r("N006", "slug-name-mismatch");
        assert!(!sel(&["ALL"], &["N006"]).fails(Some(&slug)));
        assert!(!sel(&["ALL"], &["N"]).fails(Some(&slug)));
        assert!(!sel(&["ALL"], &["slug-name-mismatch"]).fails(Some(&slug)));
        assert!(sel(&["ALL"], &["N007"]).fails(Some(&slug)));
    }

    #[test]
    fn the_more_specific_selector_wins() {
        let slug = r("N006", "slug-name-mismatch");
        assert!(sel(&["N006"], &["N"]).fails(Some(&slug)));
        assert!(!sel(&["N"], &["N006"]).fails(Some(&slug)));
        assert!(!sel(&["E"], &[]).fails(Some(&slug)), "not selected");
    }

    #[test]
    fn unknown_selectors_are_refused() {
        assert!(sel(&["ALL"], &["N"]).validate().is_ok());
        assert!(sel(&["ALL"], &["slug-name-mismatch"]).validate().is_ok());
        let err = sel(&["Q"], &[]).validate().unwrap_err();
        assert!(err.contains("`Q` selects no rule"), "{err}");
    }
}
