//! The page's shared state, provided as context: split read/write signals, plus the latest
//! extraction (`Analysis`) and the actions that change what is loaded.

use std::sync::Arc;

use bench_explorer::shape::Shape;
use bench_explorer::{Extraction, Stage};
use leptos::prelude::*;

use crate::logic::compare::{StageFidelity, Tally};
use crate::logic::diagnostics::{Counts, Diagnostic};
use crate::logic::grouping::TestGroup;
use crate::logic::offsets::OffsetMap;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Tab {
    Assertions,
    Problem,
    Audit,
    Shapes,
    /// ux: two stages side by side for the file.
    Compare,
    Run,
}

impl Tab {
    pub const ALL: [Tab; 6] = [
        Tab::Assertions,
        Tab::Problem,
        Tab::Audit,
        Tab::Shapes,
        Tab::Compare,
        Tab::Run,
    ];

    pub fn id(self) -> &'static str {
        match self {
            Tab::Assertions => "assertions",
            Tab::Problem => "problem",
            Tab::Audit => "audit",
            Tab::Shapes => "shapes",
            Tab::Compare => "compare",
            Tab::Run => "run",
        }
    }

    pub fn label(self) -> &'static str {
        match self {
            Tab::Assertions => "Assertions",
            Tab::Problem => "Problem",
            Tab::Audit => "Bench audit",
            Tab::Shapes => "Shapes",
            Tab::Compare => "Compare stages",
            Tab::Run => "Run",
        }
    }

    pub fn from_id(id: &str) -> Option<Tab> {
        Tab::ALL.into_iter().find(|t| t.id() == id)
    }
}

/// Where the editor's text came from (code from a permalink never runs by itself).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SourceOrigin {
    Bench,
    File,
    Permalink,
    Rescue,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Theme {
    Light,
    Dark,
}

/// One extraction of the editor's text, with everything the views derive from it.
pub struct Analysis {
    /// The generation of the request it answers: the worker's next reply may build on it
    /// (`logic::delta`).
    pub id: u64,
    pub extraction: Extraction,
    pub map: OffsetMap,
    pub groups: Vec<TestGroup>,
    pub diagnostics: Vec<Diagnostic>,
    pub counts: Counts,
    /// Per assertion, how it compares with the faithful extractor (empty under the faithful stage).
    pub verdicts: Vec<StageFidelity>,
    pub tally: Tally,
    /// Kept and dropped counts, and the shapes found (`logic::transfer::Totals`).
    pub totals: crate::logic::transfer::Totals,
    /// Per assertion, its stable row key (`logic::rows::row_keys`).
    pub keys: Vec<u64>,
    /// How many diagnostics there are (the editor gets at most `transfer::MAX_EDITOR_DIAGNOSTICS`).
    pub diagnostics_total: usize,
    /// Why the text was not parsed: it is not text (`logic::text_kind`).
    pub not_text: Option<String>,
    /// Time spent in `extract`, in milliseconds (the stage's extraction only).
    pub ms: f64,
    pub bytes: usize,
}

/// The page's shared state, provided as context: one `RwSignal` per value (as in `RunState` and
/// `PyStatus`).
#[derive(Clone, Copy)]
pub struct AppState {
    pub problem: RwSignal<Option<&'static str>>,
    pub file_name: RwSignal<String>,
    pub origin: RwSignal<SourceOrigin>,
    /// The bench problem's file has been edited.
    pub modified: RwSignal<bool>,
    pub stage: RwSignal<Stage>,
    pub tab: RwSignal<Tab>,
    pub shape_page: RwSignal<Shape>,
    /// A rule's page shown in the teaching tab instead of the shape's (`#rule/M001`).
    pub rule_page: RwSignal<Option<bench_explorer::Rule>>,
    pub analysis: RwSignal<Option<Arc<Analysis>>>,
    /// The assertion under the pointer or keyboard focus.
    pub hovered: RwSignal<Option<usize>>,
    /// The assertion picked by a click (stays highlighted).
    pub selected: RwSignal<Option<usize>>,
    /// The editor's cursor line (1-based).
    pub cursor_line: RwSignal<Option<u32>>,
    /// Live extraction paused (after the extractor crashed on this text).
    pub paused: RwSignal<bool>,
    pub theme: RwSignal<Theme>,
    /// A short message shown at the bottom of the page.
    pub toast: RwSignal<Option<String>>,
    pub intro_open: RwSignal<bool>,
    // ux: the settings panel (slug, solution modules, editor wrap and font size), kept in storage.
    pub settings: RwSignal<crate::logic::settings::Settings>,
    /// An extraction has been running in the worker for more than ~100 ms (shown as progress).
    pub extracting: RwSignal<bool>,
}

impl AppState {
    pub fn new(theme: Theme, intro_open: bool) -> AppState {
        let problem = RwSignal::new(None);
        let file_name = RwSignal::new(String::from("test_scratch.py"));
        let origin = RwSignal::new(SourceOrigin::Bench);
        let modified = RwSignal::new(false);
        let stage = RwSignal::new(Stage::Full);
        let tab = RwSignal::new(Tab::Assertions);
        let shape_page = RwSignal::new(Shape::VariableThenAssert);
        let rule_page = RwSignal::new(None);
        let analysis = RwSignal::new(None);
        let hovered = RwSignal::new(None);
        let selected = RwSignal::new(None);
        let cursor_line = RwSignal::new(None);
        let paused = RwSignal::new(false);
        let theme = RwSignal::new(theme);
        let toast = RwSignal::new(None);
        let intro_open = RwSignal::new(intro_open);
        let settings = RwSignal::new(crate::logic::settings::Settings::default());
        let extracting = RwSignal::new(false);
        AppState {
            problem,
            file_name,
            origin,
            modified,
            stage,
            tab,
            shape_page,
            rule_page,
            analysis,
            hovered,
            selected,
            cursor_line,
            paused,
            theme,
            toast,
            intro_open,
            settings,
            extracting,
        }
    }
}

pub fn use_app() -> AppState {
    expect_context::<AppState>()
}
