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
    Run,
}

impl Tab {
    pub const ALL: [Tab; 5] = [
        Tab::Assertions,
        Tab::Problem,
        Tab::Audit,
        Tab::Shapes,
        Tab::Run,
    ];

    pub fn id(self) -> &'static str {
        match self {
            Tab::Assertions => "assertions",
            Tab::Problem => "problem",
            Tab::Audit => "audit",
            Tab::Shapes => "shapes",
            Tab::Run => "run",
        }
    }

    pub fn label(self) -> &'static str {
        match self {
            Tab::Assertions => "Assertions",
            Tab::Problem => "Problem",
            Tab::Audit => "Bench audit",
            Tab::Shapes => "Shapes",
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
    pub extraction: Extraction,
    pub map: OffsetMap,
    pub groups: Vec<TestGroup>,
    pub diagnostics: Vec<Diagnostic>,
    pub counts: Counts,
    /// Per assertion, how it compares with the faithful extractor (empty under the faithful stage).
    pub verdicts: Vec<StageFidelity>,
    pub tally: Tally,
    /// Time spent in `extract`, in milliseconds (the stage's extraction only).
    pub ms: f64,
    pub bytes: usize,
}

#[derive(Clone, Copy)]
pub struct AppState {
    pub problem: ReadSignal<Option<&'static str>>,
    pub set_problem: WriteSignal<Option<&'static str>>,
    pub file_name: ReadSignal<String>,
    pub set_file_name: WriteSignal<String>,
    pub origin: ReadSignal<SourceOrigin>,
    pub set_origin: WriteSignal<SourceOrigin>,
    /// The bench problem's file has been edited.
    pub modified: ReadSignal<bool>,
    pub set_modified: WriteSignal<bool>,
    pub stage: ReadSignal<Stage>,
    pub set_stage: WriteSignal<Stage>,
    pub tab: ReadSignal<Tab>,
    pub set_tab: WriteSignal<Tab>,
    pub shape_page: ReadSignal<Shape>,
    pub set_shape_page: WriteSignal<Shape>,
    pub analysis: ReadSignal<Option<Arc<Analysis>>>,
    pub set_analysis: WriteSignal<Option<Arc<Analysis>>>,
    /// The assertion under the pointer or keyboard focus.
    pub hovered: ReadSignal<Option<usize>>,
    pub set_hovered: WriteSignal<Option<usize>>,
    /// The assertion picked by a click (stays highlighted).
    pub selected: ReadSignal<Option<usize>>,
    pub set_selected: WriteSignal<Option<usize>>,
    /// The editor's cursor line (1-based).
    pub cursor_line: ReadSignal<Option<u32>>,
    pub set_cursor_line: WriteSignal<Option<u32>>,
    /// Live extraction paused (after the extractor crashed on this text).
    pub paused: ReadSignal<bool>,
    pub set_paused: WriteSignal<bool>,
    pub theme: ReadSignal<Theme>,
    pub set_theme: WriteSignal<Theme>,
    /// A short message shown at the bottom of the page.
    pub toast: ReadSignal<Option<String>>,
    pub set_toast: WriteSignal<Option<String>>,
    pub intro_open: ReadSignal<bool>,
    pub set_intro_open: WriteSignal<bool>,
}

impl AppState {
    pub fn new(theme: Theme, intro_open: bool) -> AppState {
        let (problem, set_problem) = signal(None);
        let (file_name, set_file_name) = signal(String::from("test_scratch.py"));
        let (origin, set_origin) = signal(SourceOrigin::Bench);
        let (modified, set_modified) = signal(false);
        let (stage, set_stage) = signal(Stage::Full);
        let (tab, set_tab) = signal(Tab::Assertions);
        let (shape_page, set_shape_page) = signal(Shape::VariableThenAssert);
        let (analysis, set_analysis) = signal(None);
        let (hovered, set_hovered) = signal(None);
        let (selected, set_selected) = signal(None);
        let (cursor_line, set_cursor_line) = signal(None);
        let (paused, set_paused) = signal(false);
        let (theme, set_theme) = signal(theme);
        let (toast, set_toast) = signal(None);
        let (intro_open, set_intro_open) = signal(intro_open);
        AppState {
            problem,
            set_problem,
            file_name,
            set_file_name,
            origin,
            set_origin,
            modified,
            set_modified,
            stage,
            set_stage,
            tab,
            set_tab,
            shape_page,
            set_shape_page,
            analysis,
            set_analysis,
            hovered,
            set_hovered,
            selected,
            set_selected,
            cursor_line,
            set_cursor_line,
            paused,
            set_paused,
            theme,
            set_theme,
            toast,
            set_toast,
            intro_open,
            set_intro_open,
        }
    }
}

pub fn use_app() -> AppState {
    expect_context::<AppState>()
}
