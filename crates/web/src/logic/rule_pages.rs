//! The rules' pages as the page reads them from `rules.json` (the library's
//! `rules::catalogue_json`, copied next to the wasm by Trunk): fetched the first time a rule's page
//! is shown, so the page's wasm carries the rules' codes and names but none of their text.

use serde::Deserialize;

/// One rule's page text.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
pub struct RuleText {
    pub code: String,
    pub name: String,
    pub family: String,
    pub summary: String,
    /// Markdown: "What it means", "Why it cannot be kept", "Example", "How to write it…".
    pub page: String,
}

/// The catalogue's text, or why it cannot be read.
pub fn parse(json: &str) -> Result<Vec<RuleText>, String> {
    serde_json::from_str(json)
        .map_err(|e| format!("rules.json does not read as the catalogue: {e}"))
}

/// The page of the rule `code`, without its first `## What it means` paragraph's heading noise:
/// the page as written.
pub fn find<'a>(all: &'a [RuleText], code: &str) -> Option<&'a RuleText> {
    all.iter().find(|r| r.code == code)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The file the page fetches is the catalogue the library declares, rule for rule.
    #[test]
    fn the_shipped_rules_json_reads_and_matches_the_library() {
        let text = include_str!("../../../../www/rules.json");
        let all = parse(text).unwrap();
        let library = bench_explorer::Rule::all();
        assert_eq!(all.len(), library.len());
        for (shipped, rule) in all.iter().zip(library.iter()) {
            assert_eq!(
                (shipped.code.as_str(), shipped.name.as_str()),
                (rule.code(), rule.name())
            );
            assert!(
                shipped.page.contains("## What it means"),
                "{}",
                shipped.code
            );
        }
        assert!(find(&all, library[0].code()).is_some());
        assert!(parse("{").is_err());
    }
}
