//! What the page publishes on `window.__benchExplorer` for the benchmark (`benches/web.mjs`) and the
//! end-to-end tests (`tests/e2e/`): one typed struct per moment, each merged into the hook object as it
//! is (`js::publish`), under the camelCase names the JavaScript side reads.

use bench_explorer::verdict::RunSummary;
use serde::Serialize;

/// Before an extraction starts: read by boot.js if it crashes, to bring the text back after a reload.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ExtractionStarted<'a> {
    pub current_file: &'a str,
    pub current_stage: &'a str,
}

/// Once an extraction's results are on screen (the frame after it).
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ExtractionShown {
    pub ready: bool,
    pub extractions: f64,
    pub last_extraction_ms: f64,
    /// From the edit to the frame that shows its result.
    pub last_update_ms: f64,
    pub last_bytes: f64,
    pub last_kept: f64,
    pub last_dropped: f64,
    pub last_wrong_checks: f64,
    pub stage: &'static str,
    /// Whether the last result was computed on the page itself (a small text, www/boot.js) rather
    /// than in the extraction worker.
    pub last_inline: bool,
    /// How many of the last result's assertions the worker did not send, because the result on
    /// screen had them (`logic::delta`).
    pub last_reused: f64,
    /// How many test cases the worker's extraction took from its memo, and how many it flattened
    /// (`bench_explorer::Memo`); both 0 for an extraction on the page.
    pub last_cases_reused: f64,
    pub last_cases_flattened: f64,
    /// Set once, for the first result shown (`performance.now()`, from navigation start).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub first_extraction_shown_ms: Option<f64>,
}

/// The reply of `window.__benchExplorer.measure(text, stage)`: one extraction, timed, nothing shown.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Measurement {
    pub ms: f64,
    pub bytes: f64,
    pub assertions: f64,
    pub syntax_errors: f64,
}

/// Once a file run's results are on screen.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct FileRunShown {
    pub runs: f64,
    pub last_run_ms: f64,
    pub last_run_status: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub last_run_python_ms: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub last_run: Option<RunTotals>,
}

/// A file run's totals (`lastRun`).
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct RunTotals {
    pub checked: f64,
    pub passing: f64,
    pub measurement_bugs: f64,
    pub solution_bugs: f64,
    pub not_measured: f64,
    pub agree: f64,
    pub loop_passes: bool,
    pub pytest_passes: bool,
}

impl RunTotals {
    pub fn new(s: &RunSummary, agree: usize) -> RunTotals {
        RunTotals {
            checked: s.checked as f64,
            passing: s.passing as f64,
            measurement_bugs: s.measurement_bugs as f64,
            solution_bugs: s.solution_bugs as f64,
            not_measured: s.not_measured as f64,
            agree: agree as f64,
            loop_passes: s.loop_passes,
            pytest_passes: s.pytest_passes,
        }
    }
}

/// Once a whole-bench run has ended; `report` is its report as the page shows it.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct BenchRunShown<R: Serialize> {
    pub bench_running: bool,
    pub bench_runs: f64,
    pub last_bench_run_ms: f64,
    pub last_bench_run: R,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn keys(v: impl Serialize) -> Vec<String> {
        let serde_json::Value::Object(map) = serde_json::to_value(v).unwrap() else {
            panic!("an object");
        };
        map.keys().cloned().collect()
    }

    /// The names benches/web.mjs and tests/e2e read; renaming a field must fail here first.
    #[test]
    fn the_hook_keeps_its_names() {
        let shown = ExtractionShown {
            ready: true,
            extractions: 1.0,
            last_extraction_ms: 0.5,
            last_update_ms: 4.0,
            last_bytes: 10.0,
            last_kept: 1.0,
            last_dropped: 0.0,
            last_wrong_checks: 0.0,
            stage: "full",
            last_inline: true,
            last_reused: 0.0,
            last_cases_reused: 0.0,
            last_cases_flattened: 0.0,
            first_extraction_shown_ms: None,
        };
        assert_eq!(
            keys(&shown),
            [
                "extractions",
                "lastBytes",
                "lastCasesFlattened",
                "lastCasesReused",
                "lastDropped",
                "lastExtractionMs",
                "lastInline",
                "lastKept",
                "lastReused",
                "lastUpdateMs",
                "lastWrongChecks",
                "ready",
                "stage"
            ]
        );
        let started = ExtractionStarted {
            current_file: "test_a.py",
            current_stage: "full",
        };
        assert_eq!(keys(started), ["currentFile", "currentStage"]);
        let run = FileRunShown {
            runs: 1.0,
            last_run_ms: 2.0,
            last_run_status: "done",
            last_run_python_ms: Some(1.0),
            last_run: Some(RunTotals::new(&RunSummary::default(), 0)),
        };
        assert_eq!(
            keys(&run),
            [
                "lastRun",
                "lastRunMs",
                "lastRunPythonMs",
                "lastRunStatus",
                "runs"
            ]
        );
        assert_eq!(
            keys(RunTotals::new(&RunSummary::default(), 3)),
            [
                "agree",
                "checked",
                "loopPasses",
                "measurementBugs",
                "notMeasured",
                "passing",
                "pytestPasses",
                "solutionBugs"
            ]
        );
        let m = Measurement {
            ms: 1.0,
            bytes: 2.0,
            assertions: 3.0,
            syntax_errors: 0.0,
        };
        assert_eq!(keys(m), ["assertions", "bytes", "ms", "syntaxErrors"]);
        let bench = BenchRunShown {
            bench_running: false,
            bench_runs: 1.0,
            last_bench_run_ms: 5.0,
            last_bench_run: (),
        };
        assert_eq!(
            keys(bench),
            [
                "benchRunning",
                "benchRuns",
                "lastBenchRun",
                "lastBenchRunMs"
            ]
        );
    }
}
