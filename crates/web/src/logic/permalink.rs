//! The page state a permalink carries, and the URL fragment it lives in.
//!
//! The fragment is `#s=` followed by the state's JSON compressed with lz-string (written on the JS
//! side, `compressToEncodedURIComponent`; read by `lzstring`, which stops at the size bound while it
//! decompresses). Nothing in it is ever executed: the source is only put in the editor. Decoding is
//! forgiving (unknown fields ignored, unknown values fall back to defaults) but bounded, because a
//! fragment is untrusted input.

use serde::Serialize;
use serde_json::Value;

/// The current permalink format.
pub const VERSION: u32 = 1;

/// The most source text a permalink may carry once decompressed (URLs this long are already
/// impractical; the bound protects the page from a crafted fragment).
pub const MAX_SOURCE_BYTES: usize = 4 * 1024 * 1024;

/// The most JSON a permalink may decompress to: the source and room for the rest of the state.
pub const MAX_JSON_BYTES: usize = MAX_SOURCE_BYTES + 64 * 1024;

/// Written by serde (`to_json`); read through `serde_json::Value` (`from_json`), which the page has
/// anyway: a derived reader of these fields cost the first load 9 KB of wasm.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
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
    /// The open tab (`assertions`, `problem`, `audit`, `shapes`, `compare`, `run`).
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
    /// The Run tab's mode: `mutants` or `bench` (the file run, the default, left out).
    #[serde(rename = "m", skip_serializing_if = "String::is_empty")]
    pub run_mode: String,
    /// The mutant picked in the Mutants view, by id (`m007`).
    #[serde(rename = "k", skip_serializing_if = "Option::is_none")]
    pub mutant: Option<String>,
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
        let v: Value =
            serde_json::from_str(text).map_err(|e| format!("the permalink is damaged ({e})"))?;
        let mut s = PermalinkState::from_value(&v)
            .map_err(|k| format!("the permalink is damaged (field `{k}`)"))?;
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
        if !RUN_MODES.contains(&s.run_mode.as_str()) {
            s.run_mode.clear();
        }
        s.mutant = s.mutant.filter(|m| mutant_id(m));
        Ok(s)
    }
}

impl PermalinkState {
    /// The fields of a permalink's JSON object: a missing field (or `null`) is the default,
    /// unknown fields are ignored, a field of the wrong type is an error naming it.
    fn from_value(v: &Value) -> Result<PermalinkState, &'static str> {
        let o = v.as_object().ok_or("the state")?;
        let text = |k: &'static str| match o.get(k) {
            None | Some(Value::Null) => Ok(None),
            Some(Value::String(s)) => Ok(Some(s.clone())),
            Some(_) => Err(k),
        };
        let number = |k: &'static str| match o.get(k) {
            None | Some(Value::Null) => Ok(None),
            Some(n) => n.as_u64().map(Some).ok_or(k),
        };
        Ok(PermalinkState {
            version: number("v")?.map_or(Ok(0), |n| u32::try_from(n).map_err(|_| "v"))?,
            problem: text("p")?,
            file: text("f")?.unwrap_or_default(),
            source: text("c")?,
            stage: text("s")?.unwrap_or_default(),
            tab: text("t")?.unwrap_or_default(),
            shape: text("h")?,
            selected: number("a")?
                .map(|n| usize::try_from(n).map_err(|_| "a"))
                .transpose()?,
            run_solution: text("r")?.unwrap_or_default(),
            solution_code: text("u")?,
            run_mode: text("m")?.unwrap_or_default(),
            mutant: text("k")?,
        })
    }
}

/// What a URL fragment asks for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Route {
    /// No fragment, or one the page does not know.
    Home,
    /// `#s=<lz-string data>`: a permalink (the data still compressed).
    Permalink(String),
    /// `#shape/<id>` or `#rule/<code>`: a teaching page (a shape's or a rule's).
    Shape(String),
    /// `#audit`, `#problem`, `#run`, `#assertions`, `#shapes`: a tab.
    Tab(String),
    /// `#view?p=…&s=…&t=…&h=…`: the view the page is in (problem, stage, tab, teaching page),
    /// without the file's text, which stays in the browser's storage. The address bar follows it.
    View(ViewState),
}

/// What the address bar carries while the user works: never the code (that needs a permalink).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ViewState {
    /// The bench problem (`None`: the user's own file).
    pub problem: Option<String>,
    /// The stage id; empty for the faithful stage.
    pub stage: String,
    /// The tab id; empty for the assertions tab.
    pub tab: String,
    /// The teaching page (only with the shapes tab).
    pub shape: Option<String>,
    /// The Run tab's mode (only with the run tab): `mutants` or `bench`; empty for a file run.
    pub run_mode: String,
    /// The mutant picked in the Mutants view (only with its mode).
    pub mutant: Option<String>,
}

/// The Run tab's modes a link may name (the file run is the default).
pub const RUN_MODES: [&str; 3] = ["", "mutants", "bench"];

/// A mutant's id as the generator writes it: `m` and three or more digits.
pub fn mutant_id(v: &str) -> bool {
    v.len() >= 4 && v.len() <= 8 && v.starts_with('m') && v[1..].bytes().all(|b| b.is_ascii_digit())
}

/// Ids in a view fragment: short, and only characters that need no escaping.
fn plain_id(v: &str) -> bool {
    !v.is_empty()
        && v.len() <= 100
        && v.bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
}

impl ViewState {
    /// The fragment for this view: `#view`, then `?` and the fields that are not defaults.
    pub fn fragment(&self) -> String {
        let mut parts = Vec::new();
        if let Some(p) = self.problem.as_deref().filter(|p| plain_id(p)) {
            parts.push(format!("p={p}"));
        }
        if plain_id(&self.stage) && self.stage != "full" {
            parts.push(format!("s={}", self.stage));
        }
        if plain_id(&self.tab) && self.tab != "assertions" {
            parts.push(format!("t={}", self.tab));
        }
        if self.tab == "shapes" {
            if let Some(h) = self.shape.as_deref().filter(|h| plain_id(h)) {
                parts.push(format!("h={h}"));
            }
        }
        if self.tab == "run"
            && !self.run_mode.is_empty()
            && RUN_MODES.contains(&self.run_mode.as_str())
        {
            parts.push(format!("m={}", self.run_mode));
            if self.run_mode == "mutants" {
                if let Some(k) = self.mutant.as_deref().filter(|k| mutant_id(k)) {
                    parts.push(format!("k={k}"));
                }
            }
        }
        if parts.is_empty() {
            "#view".to_string()
        } else {
            format!("#view?{}", parts.join("&"))
        }
    }

    /// Read `p=…&s=…&t=…&h=…&m=…&k=…` (after `#view?`); unknown keys and values that are not plain ids
    /// are ignored.
    pub fn parse(query: &str) -> ViewState {
        let mut v = ViewState::default();
        for pair in query.split('&').take(16) {
            let Some((k, val)) = pair.split_once('=') else {
                continue;
            };
            if !plain_id(val) {
                continue;
            }
            match k {
                "p" => v.problem = Some(val.to_string()),
                "s" => v.stage = val.to_string(),
                "t" => v.tab = val.to_string(),
                "h" => v.shape = Some(val.to_string()),
                "m" if RUN_MODES.contains(&val) => v.run_mode = val.to_string(),
                "k" if mutant_id(val) => v.mutant = Some(val.to_string()),
                _ => {}
            }
        }
        v
    }
}

pub const TABS: [&str; 6] = ["assertions", "problem", "audit", "shapes", "compare", "run"];

pub fn parse_fragment(hash: &str) -> Route {
    let h = hash.strip_prefix('#').unwrap_or(hash);
    if let Some(data) = h.strip_prefix("s=") {
        return if data.is_empty() {
            Route::Home
        } else {
            Route::Permalink(data.to_string())
        };
    }
    if let Some(id) = h.strip_prefix("shape/").or_else(|| h.strip_prefix("rule/")) {
        return Route::Shape(id.to_string());
    }
    if TABS.contains(&h) {
        return Route::Tab(h.to_string());
    }
    if h == "view" {
        return Route::View(ViewState::default());
    }
    if let Some(q) = h.strip_prefix("view?") {
        return Route::View(ViewState::parse(q));
    }
    Route::Home
}

/// The longest URL the page hands out as a permalink. Chromium refuses URLs over 2 MiB, and links
/// this long are already impractical to share.
pub const MAX_URL_CHARS: usize = 2 * 1024 * 1024 - 1;

/// Why a permalink is not made.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LinkRefusal {
    /// The file (or the Run tab's solution) is larger than a link may carry once opened.
    FileTooLarge { bytes: usize },
    /// The link would be longer than browsers accept.
    UrlTooLong { chars: usize },
    /// The compressed data does not give the state back (the page would not open it as made).
    NoRoundTrip(String),
}

impl LinkRefusal {
    pub fn message(&self) -> String {
        match self {
            LinkRefusal::FileTooLarge { bytes } => format!(
                "No permalink: this file is {}, more than a link can carry ({} at most)",
                human_bytes(*bytes),
                human_bytes(MAX_SOURCE_BYTES)
            ),
            LinkRefusal::UrlTooLong { chars } => format!(
                "No permalink: the link would be {chars} characters long, more than browsers open ({MAX_URL_CHARS} at most)"
            ),
            LinkRefusal::NoRoundTrip(e) => {
                format!("No permalink: the page could not read the link back ({e})")
            }
        }
    }
}

pub fn human_bytes(n: usize) -> String {
    if n >= 1024 * 1024 {
        format!("{:.1} MB", n as f64 / 1048576.0)
    } else if n >= 1024 {
        format!("{:.1} KB", n as f64 / 1024.0)
    } else {
        format!("{n} bytes")
    }
}

/// Before compressing: a state whose source is over the bound is refused at once.
pub fn precheck_link(state: &PermalinkState) -> Result<(), LinkRefusal> {
    let biggest = state
        .source
        .as_ref()
        .map_or(0, String::len)
        .max(state.solution_code.as_ref().map_or(0, String::len));
    let json = state.to_json().len();
    if biggest > MAX_SOURCE_BYTES || json > MAX_JSON_BYTES {
        return Err(LinkRefusal::FileTooLarge {
            bytes: biggest.max(json),
        });
    }
    Ok(())
}

/// After compressing: a link is handed out only if it is short enough for a browser and the page's
/// own reader gives back exactly this state from it.
pub fn check_link(
    state: &PermalinkState,
    compressed: &str,
    url_chars: usize,
) -> Result<(), LinkRefusal> {
    precheck_link(state)?;
    if url_chars > MAX_URL_CHARS {
        return Err(LinkRefusal::UrlTooLong { chars: url_chars });
    }
    let back = PermalinkState::from_fragment_data(compressed).map_err(LinkRefusal::NoRoundTrip)?;
    let mut want = state.clone();
    want.version = VERSION;
    if back != PermalinkState::from_json(&want.to_json()).map_err(LinkRefusal::NoRoundTrip)? {
        return Err(LinkRefusal::NoRoundTrip(
            "the state read back differs".into(),
        ));
    }
    Ok(())
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
            run_mode: "mutants".into(),
            mutant: Some("m012".into()),
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
        assert!(PermalinkState::from_json(r#"{"p":3}"#).is_err());
        assert!(PermalinkState::from_json(r#"[1]"#).is_err());
        assert!(PermalinkState::from_json(r#"{"v":4294967296}"#).is_err());
        assert_eq!(
            PermalinkState::from_json(r#"{"p":null,"a":2}"#).unwrap(),
            PermalinkState {
                selected: Some(2),
                ..Default::default()
            }
        );
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
        assert_eq!(parse_fragment("#rule/N006"), Route::Shape("N006".into()));
        assert_eq!(parse_fragment("#audit"), Route::Tab("audit".into()));
        assert_eq!(parse_fragment("#<script>"), Route::Home);
        assert_eq!(fragment("xyz"), "#s=xyz");
    }

    #[test]
    fn view_fragments_round_trip_and_leave_out_defaults() {
        let v = ViewState {
            problem: Some("word_ladder".into()),
            stage: "as-written".into(),
            tab: "shapes".into(),
            shape: Some("stdlib-reference".into()),
            ..Default::default()
        };
        let f = v.fragment();
        assert_eq!(
            f,
            "#view?p=word_ladder&s=as-written&t=shapes&h=stdlib-reference"
        );
        assert_eq!(parse_fragment(&f), Route::View(v));
        let plain = ViewState {
            problem: Some("lru_cache".into()),
            stage: "full".into(),
            tab: "assertions".into(),
            shape: Some("ignored-off-the-shapes-tab".into()),
            run_mode: "mutants".into(),
            mutant: Some("m001".into()),
        };
        assert_eq!(plain.fragment(), "#view?p=lru_cache");
        assert_eq!(ViewState::default().fragment(), "#view");
        assert_eq!(parse_fragment("#view"), Route::View(ViewState::default()));
    }

    #[test]
    fn the_run_tabs_mode_and_mutant_travel_in_both_kinds_of_link() {
        let v = ViewState {
            problem: Some("merge_intervals".into()),
            tab: "run".into(),
            run_mode: "mutants".into(),
            mutant: Some("m006".into()),
            ..Default::default()
        };
        let f = v.fragment();
        assert_eq!(f, "#view?p=merge_intervals&t=run&m=mutants&k=m006");
        assert_eq!(parse_fragment(&f), Route::View(v.clone()));
        // A mutant only with the Mutants view; a mode only with the Run tab.
        let bench = ViewState {
            run_mode: "bench".into(),
            ..v.clone()
        };
        assert_eq!(bench.fragment(), "#view?p=merge_intervals&t=run&m=bench");
        let audit = ViewState {
            tab: "audit".into(),
            ..v
        };
        assert_eq!(audit.fragment(), "#view?p=merge_intervals&t=audit");
        // What is not a mode or a mutant's id is ignored.
        let Route::View(w) = parse_fragment("#view?t=run&m=rm-rf&k=m00x") else {
            panic!("a view route");
        };
        assert_eq!((w.run_mode.as_str(), w.mutant), ("", None));
        let s = PermalinkState::from_json(r#"{"t":"run","m":"other","k":"<b>"}"#).unwrap();
        assert_eq!((s.run_mode.as_str(), s.mutant), ("", None));
        let s = PermalinkState::from_json(r#"{"t":"run","m":"mutants","k":"m123"}"#).unwrap();
        assert_eq!(
            (s.run_mode.as_str(), s.mutant.as_deref()),
            ("mutants", Some("m123"))
        );
    }

    #[test]
    fn view_fragments_ignore_what_is_not_a_plain_id() {
        let Route::View(v) = parse_fragment("#view?p=<script>&s=six-shapes&zz=1&t=") else {
            panic!("a view route");
        };
        assert_eq!(v.problem, None);
        assert_eq!(v.stage, "six-shapes");
        assert_eq!(v.tab, "");
    }

    fn with_source(n: usize) -> PermalinkState {
        PermalinkState {
            file: "test_big.py".into(),
            source: Some("x".repeat(n)),
            ..Default::default()
        }
    }

    #[test]
    fn a_file_over_the_bound_gets_no_link() {
        let s = with_source(MAX_SOURCE_BYTES + 1);
        let err = precheck_link(&s).unwrap_err();
        assert!(matches!(err, LinkRefusal::FileTooLarge { .. }), "{err:?}");
        assert!(err.message().contains("4.0 MB"), "{}", err.message());
        assert!(precheck_link(&with_source(1000)).is_ok());
    }

    #[test]
    fn a_link_the_reader_cannot_open_is_refused() {
        let s = with_source(10);
        // Not lz-string data the page's reader accepts for this state.
        assert!(matches!(
            check_link(&s, "garbage!!", 100),
            Err(LinkRefusal::NoRoundTrip(_))
        ));
        assert!(matches!(
            check_link(&s, "", MAX_URL_CHARS + 1),
            Err(LinkRefusal::UrlTooLong { .. })
        ));
    }

    #[test]
    fn a_link_the_reader_opens_is_accepted() {
        // lz-string 1.5.0 wrote this for `{"v":1,"code":"…"}`, which reads back as the bare state
        // (the unknown field is ignored).
        let data = "N4IgbiBcCMA0IGMD2ATAplE6BmACALmgM74D6AlwBQCUkAOgHa7O4BOuAvLtpXQK4AGAQCYA7IFPTQDTm-IWOqMWuAIZEiaVvjacu0RiAC+QA";
        check_link(&PermalinkState::default(), data, 200).unwrap();
        // The same data does not stand for a state with a file.
        assert!(check_link(&with_source(3), data, 200).is_err());
    }
}
