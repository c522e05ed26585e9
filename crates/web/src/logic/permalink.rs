//! The page state a permalink carries, and the URL fragment it lives in.
//!
//! The fragment is `#s=` followed by the state's JSON compressed with lz-string (written on the JS
//! side, `compressToEncodedURIComponent`; read by `lzstring`, which stops at the size bound while it
//! decompresses). Nothing in it is ever executed: the source is only put in the editor. Decoding is
//! forgiving (unknown fields ignored, unknown values fall back to defaults) but bounded, because a
//! fragment is untrusted input.

use serde::{Deserialize, Serialize};

/// The current permalink format.
pub const VERSION: u32 = 1;

/// The most source text a permalink may carry once decompressed (URLs this long are already
/// impractical; the bound protects the page from a crafted fragment).
pub const MAX_SOURCE_BYTES: usize = 4 * 1024 * 1024;

/// The most JSON a permalink may decompress to: the source and room for the rest of the state.
pub const MAX_JSON_BYTES: usize = MAX_SOURCE_BYTES + 64 * 1024;

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct PermalinkState {
    #[serde(rename = "v")]
    pub version: u32,
    /// The bench problem the file is (or started as), by slug.
    #[serde(rename = "p", skip_serializing_if = "Option::is_none")]
    pub problem: Option<String>,
    /// The file's name (gives the slug when it is not a bench problem).
    #[serde(rename = "f", skip_serializing_if = "String::is_empty")]
    pub file: String,
    /// The source, when it is not the bench problem's file unchanged.
    #[serde(rename = "c", skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
    /// The extractor stage id (`as-written`, `six-shapes`, `seven-shapes`, `full`).
    #[serde(rename = "s", skip_serializing_if = "String::is_empty")]
    pub stage: String,
    /// The open tab (`assertions`, `problem`, `audit`, `shapes`, `run`).
    #[serde(rename = "t", skip_serializing_if = "String::is_empty")]
    pub tab: String,
    /// The teaching page shown in the shapes tab.
    #[serde(rename = "h", skip_serializing_if = "Option::is_none")]
    pub shape: Option<String>,
    /// The assertion picked in the results (index into the extraction's assertions).
    #[serde(rename = "a", skip_serializing_if = "Option::is_none")]
    pub selected: Option<usize>,
    /// The Run tab's solution: `reference` (the default, left out), `stub` or `custom`.
    #[serde(rename = "r", skip_serializing_if = "String::is_empty")]
    pub run_solution: String,
    /// The Run tab's own code (with `"r": "custom"`). Like `c`, only ever put in an editor: it
    /// runs when the user presses Run, never by itself.
    #[serde(rename = "u", skip_serializing_if = "Option::is_none")]
    pub solution_code: Option<String>,
}

impl PermalinkState {
    pub fn to_json(&self) -> String {
        let mut s = self.clone();
        s.version = VERSION;
        serde_json::to_string(&s).expect("plain data serialises")
    }

    /// The state a fragment's data (after `#s=`) carries. Decompression stops as soon as the text
    /// passes [`MAX_JSON_BYTES`] (counted in UTF-16 units, never more than the UTF-8 bytes), so a
    /// crafted fragment costs no more than that bound.
    pub fn from_fragment_data(data: &str) -> Result<PermalinkState, String> {
        let json = super::lzstring::decompress(data, MAX_JSON_BYTES).map_err(|e| match e {
            super::lzstring::LzError::Damaged => {
                "the permalink could not be decompressed".to_string()
            }
            super::lzstring::LzError::TooLarge => "the permalink is too large".to_string(),
        })?;
        PermalinkState::from_json(&json)
    }

    pub fn from_json(text: &str) -> Result<PermalinkState, String> {
        if text.len() > MAX_JSON_BYTES {
            return Err("the permalink is too large".into());
        }
        let mut s: PermalinkState =
            serde_json::from_str(text).map_err(|e| format!("the permalink is damaged ({e})"))?;
        if s.version > VERSION {
            return Err(format!(
                "the permalink is from a newer version of the page (format {})",
                s.version
            ));
        }
        if s.source
            .as_ref()
            .is_some_and(|c| c.len() > MAX_SOURCE_BYTES)
        {
            return Err("the permalink's file is too large".into());
        }
        if s.solution_code
            .as_ref()
            .is_some_and(|c| c.len() > MAX_SOURCE_BYTES)
        {
            return Err("the permalink's solution is too large".into());
        }
        if !matches!(
            s.run_solution.as_str(),
            "" | "reference" | "stub" | "custom"
        ) {
            s.run_solution.clear();
        }
        // Names are shown and used as file names: keep them short and on one line.
        s.file = s
            .file
            .chars()
            .filter(|c| !c.is_control())
            .take(200)
            .collect();
        s.problem = s.problem.filter(|p| p.len() <= 100);
        s.shape = s.shape.filter(|p| p.len() <= 100);
        Ok(s)
    }
}

/// What a URL fragment asks for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Route {
    /// No fragment, or one the page does not know.
    Home,
    /// `#s=<lz-string data>`: a permalink (the data still compressed).
    Permalink(String),
    /// `#shape/<id>`: a teaching page.
    Shape(String),
    /// `#audit`, `#problem`, `#run`, `#assertions`, `#shapes`: a tab.
    Tab(String),
}

pub const TABS: [&str; 5] = ["assertions", "problem", "audit", "shapes", "run"];

pub fn parse_fragment(hash: &str) -> Route {
    let h = hash.strip_prefix('#').unwrap_or(hash);
    if let Some(data) = h.strip_prefix("s=") {
        return if data.is_empty() {
            Route::Home
        } else {
            Route::Permalink(data.to_string())
        };
    }
    if let Some(id) = h.strip_prefix("shape/") {
        return Route::Shape(id.to_string());
    }
    if TABS.contains(&h) {
        return Route::Tab(h.to_string());
    }
    Route::Home
}

/// The fragment for a permalink's compressed data.
pub fn fragment(compressed: &str) -> String {
    format!("#s={compressed}")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> PermalinkState {
        PermalinkState {
            version: VERSION,
            problem: Some("word_ladder".into()),
            file: "test_word_ladder.py".into(),
            source: Some("def test_é():\n    assert 1 == 1  # 🐍\n".into()),
            stage: "six-shapes".into(),
            tab: "audit".into(),
            shape: Some("variable-then-assert".into()),
            selected: Some(3),
            run_solution: "custom".into(),
            solution_code: Some("def word_ladder(a, b, w):\n    return 0\n".into()),
        }
    }

    #[test]
    fn round_trips() {
        let s = sample();
        assert_eq!(PermalinkState::from_json(&s.to_json()).unwrap(), s);
    }

    #[test]
    fn minimal_state_is_short_and_defaults_fill_in() {
        let s = PermalinkState {
            problem: Some("lru_cache".into()),
            ..Default::default()
        };
        let json = s.to_json();
        assert_eq!(json, r#"{"v":1,"p":"lru_cache"}"#);
        let back = PermalinkState::from_json(r#"{"p":"lru_cache","zzz":[1,2]}"#).unwrap();
        assert_eq!(back.problem.as_deref(), Some("lru_cache"));
        assert_eq!(back.stage, "");
    }

    #[test]
    fn rejects_damage_and_newer_versions() {
        assert!(PermalinkState::from_json("not json").is_err());
        assert!(PermalinkState::from_json(r#"{"v":99}"#).is_err());
        assert!(PermalinkState::from_json(r#"{"a":-1}"#).is_err());
    }

    #[test]
    fn unknown_run_solutions_fall_back_to_the_default() {
        let s = PermalinkState::from_json(r#"{"r":"rm -rf","u":"x = 1"}"#).unwrap();
        assert_eq!(s.run_solution, "");
        assert_eq!(s.solution_code.as_deref(), Some("x = 1"));
    }

    #[test]
    fn sanitises_the_file_name() {
        let s = PermalinkState::from_json(r#"{"f":"a\nb\u0000c.py"}"#).unwrap();
        assert_eq!(s.file, "abc.py");
    }

    #[test]
    fn fragments() {
        assert_eq!(parse_fragment(""), Route::Home);
        assert_eq!(parse_fragment("#"), Route::Home);
        assert_eq!(parse_fragment("#s=abc"), Route::Permalink("abc".into()));
        assert_eq!(parse_fragment("#s="), Route::Home);
        assert_eq!(
            parse_fragment("#shape/stdlib-reference"),
            Route::Shape("stdlib-reference".into())
        );
        assert_eq!(parse_fragment("#audit"), Route::Tab("audit".into()));
        assert_eq!(parse_fragment("#<script>"), Route::Home);
        assert_eq!(fragment("xyz"), "#s=xyz");
    }
}
