//! The rule catalogue: every reason a check is dropped and every finding has a rule, with a stable
//! code (`M101`), a kebab-case name (`module-code-calls-solution`) and a page in one form (what it
//! means, why an exact flattening cannot keep the check, an example, and how to write the test so
//! that it can be checked).
//!
//! A rule lives in the family (one file each) of the part of pytest it models; its page is the
//! variant's doc comment, which `rule CODE`, `docs/rules.md` and the page's teaching panel show, and
//! whose `python` example the test suite runs through the extractor (`tests/rules.rs`). The words of a
//! drop, which name the variable and line, are a [`Reason`]: its rule and its text.

#[macro_use]
mod declare;

mod collection;
mod config;
mod evaluator;
mod findings;
mod fixtures;
mod helpers;
mod module_code;
mod raises;
mod select;
mod statements;
mod unittest;

pub use collection::Collection;
pub use config::Config;
pub use evaluator::Evaluator;
pub use findings::Findings;
pub use fixtures::Fixtures;
pub use helpers::Helpers;
pub use module_code::ModuleCode;
pub use raises::Raises;
pub use select::{statistics, RuleCount, Selection};
pub use statements::Statements;
pub use unittest::Unittest;

use std::fmt;

/// One rule of the catalogue.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Rule {
    Collection(Collection),
    Config(Config),
    ModuleCode(ModuleCode),
    Fixtures(Fixtures),
    Statements(Statements),
    Helpers(Helpers),
    Unittest(Unittest),
    Raises(Raises),
    Evaluator(Evaluator),
    Findings(Findings),
}

/// A family of rules: what part of pytest (or of the evaluator) its rules are about.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Family {
    pub prefix: &'static str,
    pub title: &'static str,
    pub summary: &'static str,
}

macro_rules! each_family {
    ($m:ident) => {
        $m! { Collection, Config, ModuleCode, Fixtures, Statements, Helpers, Unittest, Raises, Evaluator, Findings }
    };
}

macro_rules! rule_dispatch {
    ($($fam:ident),*) => {
        impl Rule {
            /// The stable code, `M101`.
            pub fn code(self) -> &'static str {
                match self {
                    $(Rule::$fam(r) => r.code(),)*
                }
            }

            /// The stable kebab-case name.
            pub fn name(self) -> &'static str {
                match self {
                    $(Rule::$fam(r) => r.name(),)*
                }
            }

            /// The rule's page, Markdown: "What it means", "Why it cannot be kept", "Example",
            /// "How to write it so it can be checked".
            pub fn doc(self) -> &'static str {
                match self {
                    $(Rule::$fam(r) => r.doc(),)*
                }
            }

            /// The rule's one-line summary: the first sentence of "What it means".
            pub fn summary(self) -> &'static str {
                summary_of(self.doc())
            }

            /// The family the rule belongs to.
            pub fn family(self) -> Family {
                match self {
                    $(Rule::$fam(_) => $fam::FAMILY,)*
                }
            }

            /// Every rule of the catalogue, family by family, in code order.
            pub fn all() -> Vec<Rule> {
                let mut all = Vec::new();
                $(all.extend($fam::ALL.iter().map(|r| Rule::$fam(*r)));)*
                all
            }

            /// Every family, in the catalogue's order.
            pub fn families() -> Vec<Family> {
                vec![$($fam::FAMILY),*]
            }
        }
    };
}
each_family!(rule_dispatch);

/// A code taken out of the catalogue: never given to another rule, so that a code means one thing
/// in every extraction ever written (`docs/contract.md`: a code is never reused).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Retired {
    pub code: &'static str,
    pub name: &'static str,
    /// Why it is no rule any more, and where the invariant that replaced it lives.
    pub why: &'static str,
}

/// The retired codes. A rule that no input can reach is not a rule: it becomes an internal
/// invariant (a `debug_assert!` where it fired, with a fallback reason of a live rule in release
/// builds), and its code stays here, unused.
pub const RETIRED: &[Retired] = &[
    Retired {
        code: "C030",
        name: "param-not-indexable",
        why: "collection takes a case's values from a parametrize list replayed whole only in forms whose index the extractor writes (an element; a part of a tuple, list or `pytest.param` without `*`), so no value lacks an index: a debug assertion in `flatten::setup::indexed_param_item`",
    },
    Retired {
        code: "S009",
        name: "async-for-loop",
        why: "an `async for` outside an `async def` is a syntax error the extractor reports (CPython's \"'async for' outside async function\"), and an `async def` test is never run (C006), so no `async for` reaches a fold: a debug assertion in `flatten::flatten_case`",
    },
];

impl Rule {
    /// The rule with this code or name (case-insensitive code, exact name).
    pub fn find(key: &str) -> Option<Rule> {
        Rule::all()
            .into_iter()
            .find(|r| r.code().eq_ignore_ascii_case(key) || r.name() == key)
    }

    /// The rule's reference in the contract's JSON.
    pub fn reference(self) -> crate::model::RuleRef {
        crate::model::RuleRef {
            code: self.code().to_string(),
            name: self.name().to_string(),
        }
    }

    /// Give this rule's words: the reason of one drop.
    pub fn because(self, text: impl Into<String>) -> Reason {
        Reason {
            rule: self,
            text: text.into(),
        }
    }
}

fn summary_of(doc: &'static str) -> &'static str {
    let body = doc
        .split("## What it means")
        .nth(1)
        .unwrap_or(doc)
        .trim_start();
    let end = body.find("\n\n").unwrap_or(body.len());
    body[..end].trim()
}

impl fmt::Display for Rule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.code(), self.name())
    }
}

/// Why one check is dropped (or what one finding says): the rule that fired, and the words that
/// name the variable and the line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reason {
    pub rule: Rule,
    pub text: String,
}

impl Reason {
    /// The same rule, its words rewritten (a wrapper naming where the inner reason came from).
    pub fn map(self, f: impl FnOnce(String) -> String) -> Reason {
        Reason {
            rule: self.rule,
            text: f(self.text),
        }
    }

    pub fn as_str(&self) -> &str {
        &self.text
    }
}

impl fmt::Display for Reason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
    }
}

/// A rule's page as Markdown: its code and name as the title, then its doc.
pub fn page(rule: Rule) -> String {
    format!(
        "# {} `{}`\n\n{}",
        rule.code(),
        rule.name(),
        dedent(rule.doc())
    )
}

/// Every rule's page, family by family: `docs/rules.md` (a test keeps the file equal to this).
pub fn catalogue_markdown() -> String {
    let mut out = String::from(
        "<!-- Generated from src/rules/ by `bench-explorer rule --all`; `cargo test --test rules` keeps it current. -->\n\
         # Rules\n\n\
         Every check the extractor drops, and every finding, names the rule that fired: a stable code, a\n\
         name, and the page below (what it means, why an exact flattening cannot keep the check, an\n\
         example, and how to write the test so that it can be checked). `bench-explorer rule CODE` prints\n\
         one page; `bench-explorer extract --statistics` counts them over the files given.\n\n",
    );
    for family in Rule::families() {
        out.push_str(&format!(
            "- [{} — {}](#{})\n",
            family.prefix,
            family.title,
            anchor(family.title)
        ));
    }
    out.push('\n');
    let all = Rule::all();
    for family in Rule::families() {
        out.push_str(&format!("## {}\n\n{}\n\n", family.title, family.summary));
        out.push_str("| code | name | summary |\n| --- | --- | --- |\n");
        for rule in all.iter().filter(|r| r.family() == family) {
            out.push_str(&format!(
                "| {} | `{}` | {} |\n",
                rule.code(),
                rule.name(),
                rule.summary().replace('\n', " ")
            ));
        }
        out.push('\n');
        for rule in all.iter().filter(|r| r.family() == family) {
            out.push_str(&format!("### {} `{}`\n\n", rule.code(), rule.name()));
            out.push_str(&demote(&dedent(rule.doc())));
            out.push('\n');
        }
    }
    out.push_str(
        "## Retired codes\n\n\
         Codes of rules taken out of the catalogue because no input reaches them: each is an internal\n\
         invariant now, and its code is never given to another rule.\n\n\
         | code | name | why |\n| --- | --- | --- |\n",
    );
    for retired in RETIRED {
        out.push_str(&format!(
            "| {} | `{}` | {} |\n",
            retired.code, retired.name, retired.why
        ));
    }
    out
}

/// Every rule as JSON (`rule --all --json`, and `www/rules.json`, which the page fetches when it
/// shows a rule's page, so that its wasm carries no page text): code, name, family, summary, page.
pub fn catalogue_json() -> String {
    let list: Vec<serde_json::Value> = Rule::all()
        .into_iter()
        .map(|r| {
            serde_json::json!({
                "code": r.code(),
                "name": r.name(),
                "family": r.family().title,
                "summary": r.summary(),
                "page": dedent(r.doc()),
            })
        })
        .collect();
    serde_json::to_string_pretty(&list).expect("plain data serialises") + "\n"
}

fn anchor(title: &str) -> String {
    title
        .to_lowercase()
        .chars()
        .filter_map(|c| match c {
            'a'..='z' | '0'..='9' | '-' => Some(c),
            ' ' => Some('-'),
            _ => None,
        })
        .collect()
}

/// Doc comments keep the space after `///`: take it off every line.
pub fn dedent(doc: &str) -> String {
    let mut out = String::new();
    for line in doc.lines() {
        out.push_str(line.strip_prefix(' ').unwrap_or(line));
        out.push('\n');
    }
    out
}

/// A page's `##` headings become `####` inside the catalogue.
fn demote(page: &str) -> String {
    let mut out = String::new();
    let mut fenced = false;
    for line in page.lines() {
        if line.starts_with("```") {
            fenced = !fenced;
        }
        if !fenced && line.starts_with("## ") {
            out.push_str("##");
        }
        out.push_str(line);
        out.push('\n');
    }
    out
}

/// The example of a rule's page: the test file (the first `python` block), and the `conftest.py`
/// and `pytest.ini` it needs (blocks fenced `python conftest.py` and `ini`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Example {
    pub test: String,
    /// The stage the example is for (`as-written`, …); the full stage when absent.
    pub stage: Option<String>,
    pub conftest: Option<String>,
    pub ini: Option<String>,
}

/// The example a rule's page gives, when it has one.
pub fn example(rule: Rule) -> Option<Example> {
    let doc = dedent(rule.doc());
    let mut example = Example::default();
    let mut lines = doc.lines();
    let mut found = false;
    while let Some(line) = lines.next() {
        let Some(info) = line.strip_prefix("```") else {
            continue;
        };
        let mut block = String::new();
        for l in lines.by_ref() {
            if l.starts_with("```") {
                break;
            }
            block.push_str(l);
            block.push('\n');
        }
        match info.trim() {
            "python" | "python as-written" | "python six-shapes" | "python seven-shapes"
                if !found =>
            {
                example.test = block;
                example.stage = info.trim().strip_prefix("python ").map(str::to_string);
                found = true;
            }
            "python conftest.py" => example.conftest = Some(block),
            "ini" => example.ini = Some(block),
            _ => {}
        }
    }
    found.then_some(example)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_and_names_are_unique_and_well_formed() {
        let all = Rule::all();
        let mut codes: Vec<_> = all.iter().map(|r| r.code()).collect();
        codes.sort();
        codes.dedup();
        assert_eq!(codes.len(), all.len(), "a code is used twice");
        let mut names: Vec<_> = all.iter().map(|r| r.name()).collect();
        names.sort();
        names.dedup();
        assert_eq!(names.len(), all.len(), "a name is used twice");
        for rule in &all {
            assert!(rule.code().starts_with(rule.family().prefix), "{rule}");
            assert!(
                rule.name()
                    .chars()
                    .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-'),
                "{rule}: names are kebab-case"
            );
        }
    }

    #[test]
    fn retired_codes_stay_unused() {
        for retired in RETIRED {
            assert!(
                Rule::all()
                    .iter()
                    .all(|r| r.code() != retired.code && r.name() != retired.name),
                "{} ({}) is retired: a code is never reused",
                retired.code,
                retired.name
            );
            assert!(Rule::find(retired.code).is_none());
            assert!(Rule::families()
                .iter()
                .any(|f| retired.code.starts_with(f.prefix)));
        }
    }

    #[test]
    fn every_page_has_the_four_sections() {
        for rule in Rule::all() {
            let doc = rule.doc();
            for section in ["## What it means", "## Why", "## Example", "## How to"] {
                assert!(doc.contains(section), "{rule} has no `{section}` section");
            }
            assert!(!rule.summary().is_empty(), "{rule} has no summary");
        }
    }

    #[test]
    fn find_takes_a_code_or_a_name() {
        for rule in Rule::all() {
            assert_eq!(Rule::find(rule.code()), Some(rule));
            assert_eq!(Rule::find(&rule.code().to_lowercase()), Some(rule));
            assert_eq!(Rule::find(rule.name()), Some(rule));
        }
        assert_eq!(Rule::find("Z999"), None);
    }

    #[test]
    fn a_reason_keeps_its_rule_when_its_words_are_wrapped() {
        let rule = Rule::all()[0];
        let r = rule.because("inner").map(|t| format!("`x` (line 3): {t}"));
        assert_eq!(r.rule, rule);
        assert_eq!(r.to_string(), "`x` (line 3): inner");
    }
}
