//! The page's settings (kept in local storage): the slug and solution modules the extractor is told
//! (the CLI's `--slug` and `--solution-module`), and the editor's line wrapping and font size.

use bench_explorer::model::Extraction;
use bench_explorer::shape::Shape;
use serde::{Deserialize, Serialize};

/// The name a pasted file gets: it says nothing about the problem's slug.
pub const SCRATCH_FILE: &str = "test_scratch.py";

pub const MIN_FONT_PX: u32 = 10;
pub const MAX_FONT_PX: u32 = 24;
pub const DEFAULT_FONT_PX: u32 = 13;

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct Settings {
    /// The problem's slug (empty: from the bench problem, or the file's name).
    pub slug: String,
    /// Extra module names whose imports count as the solution, separated by commas or spaces.
    pub solution_modules: String,
    /// The pytest version whose test ids to follow (`--pytest-version`; empty: 9.0).
    pub pytest_version: String,
    pub wrap: bool,
    pub font_px: u32,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            slug: String::new(),
            solution_modules: String::new(),
            pytest_version: String::new(),
            wrap: false,
            font_px: DEFAULT_FONT_PX,
        }
    }
}

fn identifier(s: &str) -> bool {
    let mut chars = s.chars();
    chars.next().is_some_and(|c| c == '_' || c.is_alphabetic())
        && chars.all(|c| c == '_' || c.is_alphanumeric())
}

impl Settings {
    /// Read stored settings; anything damaged or out of range falls back to the default.
    pub fn from_json(text: &str) -> Settings {
        let mut s: Settings = serde_json::from_str(text).unwrap_or_default();
        s.font_px = s.font_px.clamp(MIN_FONT_PX, MAX_FONT_PX);
        s.slug = s.slug.trim().chars().take(100).collect();
        s.solution_modules = s.solution_modules.chars().take(500).collect();
        if bench_explorer::PytestVersion::parse(&s.pytest_version).is_err() {
            s.pytest_version.clear();
        }
        s
    }

    /// The pytest version the extraction's ids follow.
    pub fn pytest_version(&self) -> bench_explorer::PytestVersion {
        bench_explorer::PytestVersion::parse(&self.pytest_version).unwrap_or_default()
    }

    pub fn to_json(&self) -> String {
        serde_json::to_string(self).expect("plain data serialises")
    }

    /// The slug to pass to the extractor, if one is set (a Python identifier).
    pub fn slug(&self) -> Option<String> {
        let s = self.slug.trim();
        identifier(s).then(|| s.to_string())
    }

    /// The solution modules: dotted Python names, separated by commas or whitespace.
    pub fn modules(&self) -> Vec<String> {
        let mut out: Vec<String> = self
            .solution_modules
            .split(|c: char| c == ',' || c.is_whitespace())
            .filter(|m| !m.is_empty() && m.split('.').all(identifier))
            .map(str::to_string)
            .collect();
        out.dedup();
        out
    }
}

/// Whether the extraction's slug means something: set by the user, the bench problem's, or from a
/// file the user named. A pasted file (`test_scratch.py`) has no real slug.
pub fn slug_is_real(settings: &Settings, problem: Option<&str>, file_name: &str) -> bool {
    settings.slug().is_some() || problem.is_some() || !file_name.eq_ignore_ascii_case(SCRATCH_FILE)
}

/// With no real slug, say nothing about the slug: the `slug-name-mismatch` finding and shape go.
pub fn without_guessed_slug(mut e: Extraction, real: bool) -> Extraction {
    if !real {
        e.findings.retain(|f| f.shape != Shape::SlugNameMismatch);
        for a in &mut e.assertions {
            a.shapes.retain(|s| *s != Shape::SlugNameMismatch);
        }
    }
    e
}

#[cfg(test)]
mod tests {
    use super::*;
    use bench_explorer::{extract, Options};

    const PASTED: &str = "from solution import add\n\ndef test_add():\n    assert add(2, 3) == 5\n";

    fn has_mismatch(e: &Extraction) -> bool {
        e.findings
            .iter()
            .any(|f| f.shape == Shape::SlugNameMismatch)
            || e.assertions
                .iter()
                .any(|a| a.shapes.contains(&Shape::SlugNameMismatch))
    }

    #[test]
    fn a_pasted_file_gets_no_slug_warning() {
        let e = extract(PASTED, &Options::new(SCRATCH_FILE));
        assert!(has_mismatch(&e), "the library guesses `scratch` and warns");
        let s = Settings::default();
        let real = slug_is_real(&s, None, SCRATCH_FILE);
        assert!(!real);
        let e = without_guessed_slug(e, real);
        assert!(!has_mismatch(&e));
        assert_eq!(e.assertions.len(), 1);
    }

    #[test]
    fn a_real_slug_keeps_the_warning() {
        let e = extract(PASTED, &Options::new("test_sum.py"));
        assert!(slug_is_real(&Settings::default(), None, "test_sum.py"));
        assert!(slug_is_real(
            &Settings::default(),
            Some("word_ladder"),
            SCRATCH_FILE
        ));
        let set = Settings {
            slug: "sum".into(),
            ..Settings::default()
        };
        assert!(slug_is_real(&set, None, SCRATCH_FILE));
        assert!(has_mismatch(&without_guessed_slug(e, true)));
    }

    #[test]
    fn settings_parse_forgivingly() {
        let s = Settings::from_json(
            r#"{"slug":" add ","solution_modules":"sol, pkg.impl  bad-name","font_px":99,"zz":1}"#,
        );
        assert_eq!(s.slug(), Some("add".to_string()));
        assert_eq!(s.modules(), vec!["sol".to_string(), "pkg.impl".to_string()]);
        assert_eq!(s.font_px, MAX_FONT_PX);
        assert_eq!(Settings::from_json("not json"), Settings::default());
        let not_ident = Settings {
            slug: "two words".into(),
            ..Settings::default()
        };
        assert_eq!(not_ident.slug(), None);
        let back = Settings::from_json(&s.to_json());
        assert_eq!(back, s);
    }

    #[test]
    fn the_slug_setting_reaches_the_extractor() {
        let set = Settings {
            slug: "add".into(),
            solution_modules: "mine".into(),
            ..Settings::default()
        };
        let src = "import mine\n\ndef test_a():\n    assert mine.add(1, 2) == 3\n";
        let opts = Options {
            slug: set.slug(),
            solution_modules: set.modules(),
            ..Options::new(SCRATCH_FILE)
        };
        let e = extract(src, &opts);
        assert_eq!(e.slug, "add");
        assert_eq!(e.assertions[0].expr.as_deref(), Some("mine.add(1, 2) == 3"));
        assert!(!has_mismatch(&e));
    }
}
