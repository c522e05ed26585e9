//! Progress on standard error: a bar on a terminal (indicatif), one plain line per finished pair
//! when piped (CI logs).

use std::io::{IsTerminal, Write};

use indicatif::{ProgressBar, ProgressStyle};

use super::join::{PairResult, RunStatus};

pub struct Progress {
    bar: Option<ProgressBar>,
    done: usize,
    total: usize,
}

impl Progress {
    pub fn new(total: usize) -> Progress {
        let bar = std::io::stderr().is_terminal().then(|| {
            let bar = ProgressBar::new(total as u64);
            if let Ok(style) =
                ProgressStyle::with_template("{bar:30} {pos}/{len} {elapsed} {wide_msg}")
            {
                bar.set_style(style);
            }
            bar
        });
        Progress {
            bar,
            done: 0,
            total,
        }
    }

    pub fn finished(&mut self, pair: &PairResult) {
        self.done += 1;
        let what = match pair.status {
            RunStatus::Ok => format!("{:.2} s", pair.wall_ms / 1000.0),
            RunStatus::Timeout => "killed at the time limit".into(),
            RunStatus::Crashed => "crashed".into(),
        };
        let line = format!("{} · {} · {what}", pair.problem, pair.solution);
        match &self.bar {
            Some(bar) => {
                bar.set_message(line);
                bar.inc(1);
            }
            None => {
                let _ = writeln!(std::io::stderr(), "[{}/{}] {line}", self.done, self.total);
            }
        }
    }

    /// One mutant run (`--mutants`): counted; a line only when piped.
    pub fn mutant(&mut self, problem: &str, run: &super::mutants::MutantRun) {
        self.done += 1;
        match &self.bar {
            Some(bar) => bar.inc(1),
            None => {
                let _ = writeln!(
                    std::io::stderr(),
                    "[{}/{}] {problem} · mutant {} · {}",
                    self.done,
                    self.total,
                    run.id,
                    run.outcome.label()
                );
            }
        }
    }

    pub fn done(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}
