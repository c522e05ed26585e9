//! `bench-explorer check` and `report`: run a bench's solutions both ways (the bench loop's view
//! and real pytest) with real CPython, and give every assertion the library's verdict.
//!
//! - [`plan`]: problems, solutions, the (problem, solution) pairs and `--shard`;
//! - [`exec`]: the Python side, the page's `www/py/runner.py` behind a fork server;
//! - [`sandbox`]: bubblewrap around each fork server (unless `--no-sandbox`);
//! - [`join`]: both views into rows with verdicts; [`report`]: the totals;
//! - [`mutants`]: `--mutants`, each mutant of a solution run both ways, its kill matrix and scores;
//! - [`render`]: the table and JUnit; [`progress`]: a bar on a terminal, lines when piped.

mod exec;
mod join;
mod mutants;
mod plan;
mod progress;
mod render;
mod report;
mod sandbox;

use std::io::{BufRead, Write};
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;

use bench_explorer::model::Status;
use bench_explorer::mutants::Mutant;
use bench_explorer::Stage;

use crate::Fatal;
pub use exec::Limits;
use exec::{Answer, KeptExpr, Request, Scripts, Zygote};
use join::{PairResult, RunStatus};
use mutants::MutantRun;
pub use plan::{Shard, Solutions};
use report::Report;
use sandbox::Sandbox;

/// Where the report goes.
pub enum Format {
    Table,
    Json,
    Jsonl(PathBuf),
    Junit(PathBuf),
}

pub struct CheckArgs {
    pub paths: Vec<PathBuf>,
    pub solutions: Solutions,
    pub stage: Stage,
    /// `--pytest-version`: whose ids the extraction follows.
    pub pytest_version: bench_explorer::PytestVersion,
    pub python: PathBuf,
    pub limits: Limits,
    pub jobs: usize,
    pub shard: Option<Shard>,
    pub format: Format,
    /// Run every candidate under bubblewrap (false only with `--no-sandbox`).
    pub sandbox: bool,
    /// `--mutants[=N]`.
    pub mutants: Option<MutantOptions>,
}

fn stage_id(stage: Stage) -> String {
    serde_json::to_value(stage)
        .ok()
        .and_then(|v| v.as_str().map(str::to_string))
        .unwrap_or_default()
}

/// `--mutants[=N]`: run mutants of each solution too.
#[derive(Clone, Copy)]
pub struct MutantOptions {
    /// At most this many mutants per solution, spread over the file.
    pub cap: Option<usize>,
    /// The wall-clock limit of each mutant's run, in seconds (a mutant that loops forever is
    /// common: a negated `while`).
    pub timeout_secs: u64,
}

fn request<'a>(problem: &'a plan::Problem, solution: &'a str, limits: Limits) -> Request<'a> {
    Request {
        solution,
        assertions: problem
            .extraction
            .assertions
            .iter()
            .enumerate()
            .filter(|(_, a)| a.status == Status::Kept)
            .filter_map(|(id, a)| {
                Some(KeptExpr {
                    id,
                    expr: a.expr.as_deref()?,
                    warning_filters: &a.warning_filters,
                })
            })
            .collect(),
        bindings: &problem.extraction.bindings,
        warning_filters: &problem.extraction.warning_filters,
        logging: problem.extraction.logging.as_ref(),
        pytest_ini: problem.pytest_ini.as_deref(),
        conftests: &problem.conftests,
        test_source: &problem.test_source,
        test_filename: problem
            .test_path
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or("test_solution.py"),
        timeout: limits.timeout_secs,
        memory_mb: limits.memory_mb,
    }
}

/// Run one solution text both ways in this thread's fork server (started on first use).
fn answer(
    zygote: &mut Option<Zygote>,
    request: &Request,
    args: &CheckArgs,
    scripts: &Scripts,
    sandbox: Option<&Sandbox>,
) -> Result<Answer, Fatal> {
    if zygote.is_none() {
        *zygote = Some(Zygote::start(&args.python, scripts, sandbox)?);
    }
    Ok(match zygote.as_mut().map(|z| z.run(request)) {
        Some(Ok(answer)) => answer,
        _ => {
            // The server itself died (it never runs solution code; something killed it): report
            // the pair and start a fresh server for the next one.
            *zygote = None;
            Answer {
                status: "crashed".into(),
                detail: Some("the Python runner process ended".into()),
                reply: None,
                wall_ms: 0.0,
            }
        }
    })
}

fn run_pair(
    zygote: &mut Option<Zygote>,
    pair: &plan::Pair,
    solution: &str,
    args: &CheckArgs,
    scripts: &Scripts,
    sandbox: Option<&Sandbox>,
) -> Result<PairResult, Fatal> {
    let problem = &pair.problem;
    let answer = answer(
        zygote,
        &request(problem, solution, args.limits),
        args,
        scripts,
        sandbox,
    )?;
    let (pytest, collection_errors, rows) = join::join(&problem.extraction, &answer);
    let status = match answer.status.as_str() {
        "ok" => RunStatus::Ok,
        "timeout" => RunStatus::Timeout,
        _ => RunStatus::Crashed,
    };
    Ok(PairResult {
        problem: problem.slug.clone(),
        solution: pair.label.clone(),
        test_file: problem.test_path.to_string_lossy().into_owned(),
        stage: stage_id(args.stage),
        sandbox: if sandbox.is_some() {
            sandbox::Mode::Bwrap
        } else {
            sandbox::Mode::None
        },
        status,
        detail: answer.detail,
        wall_ms: answer.wall_ms,
        verdicts: join::count(&rows),
        pytest,
        collection_errors,
        rows,
        mutants: None,
    })
}

/// One unit of work: a pair's solution, or one mutant of it.
#[derive(Clone, Copy)]
enum Job {
    Pair(usize),
    Mutant(usize, usize),
}

enum Done {
    Pair(usize, PairResult),
    Mutant(usize, usize, MutantRun),
}

/// What the jobs index: the pairs, each one's solution text and its mutants.
struct Work<'a> {
    pairs: &'a [plan::Pair],
    sources: &'a [String],
    mutants: &'a [Vec<Mutant>],
}

fn run_job(
    zygote: &mut Option<Zygote>,
    job: Job,
    work: &Work,
    args: &CheckArgs,
    scripts: &Scripts,
    sandbox: Option<&Sandbox>,
) -> Result<Done, Fatal> {
    let Work {
        pairs,
        sources,
        mutants,
    } = work;
    match job {
        Job::Pair(i) => run_pair(zygote, &pairs[i], &sources[i], args, scripts, sandbox)
            .map(|p| Done::Pair(i, p)),
        Job::Mutant(i, j) => {
            let mutant = &mutants[i][j];
            let limits = Limits {
                timeout_secs: args
                    .mutants
                    .map_or(args.limits.timeout_secs, |m| m.timeout_secs),
                ..args.limits
            };
            let problem = &pairs[i].problem;
            let answer = answer(
                zygote,
                &request(problem, &mutant.source, limits),
                args,
                scripts,
                sandbox,
            )?;
            Ok(Done::Mutant(
                i,
                j,
                mutants::judge(&problem.extraction, mutant, &answer),
            ))
        }
    }
}

/// A pair's results as they come in: done when its own run and every mutant's are.
struct Slot {
    pair: Option<PairResult>,
    mutants: Vec<Option<MutantRun>>,
    left: usize,
}

pub fn run_check(args: CheckArgs) -> Result<i32, Fatal> {
    let problems = plan::problems(&args.paths, args.stage, args.pytest_version)?;
    let pairs = plan::pairs(&problems, &args.solutions, args.shard)?;
    let sources = pairs
        .iter()
        .map(|pair| {
            std::fs::read_to_string(&pair.solution_path)
                .map_err(|e| Fatal(format!("cannot read {}: {e}", pair.solution_path.display())))
        })
        .collect::<Result<Vec<String>, Fatal>>()?;
    let mutants: Vec<Vec<Mutant>> = sources
        .iter()
        .map(|source| match args.mutants {
            Some(m) => bench_explorer::mutants::mutants(source, m.cap),
            None => Vec::new(),
        })
        .collect();
    let mut jobs = Vec::new();
    for (i, ms) in mutants.iter().enumerate() {
        jobs.push(Job::Pair(i));
        jobs.extend((0..ms.len()).map(|j| Job::Mutant(i, j)));
    }
    let mut slots: Vec<Slot> = mutants
        .iter()
        .map(|ms| Slot {
            pair: None,
            mutants: vec![None; ms.len()],
            left: ms.len() + 1,
        })
        .collect();
    let scripts = Scripts::write()?;
    // Never silently unsandboxed: no bwrap (or one that cannot start) is a usage error.
    let sandbox = if args.sandbox {
        Some(Sandbox::prepare(
            &args.python,
            scripts.dir(),
            args.limits.memory_mb,
        )?)
    } else {
        None
    };
    let sandbox = sandbox.as_ref();
    // Start one server up front: a Python without pytest is a usage error, said once.
    let first = Zygote::start(&args.python, &scripts, sandbox)?;
    let mut jsonl = match &args.format {
        Format::Jsonl(path) => Some(std::io::BufWriter::new(
            std::fs::File::create(path)
                .map_err(|e| Fatal(format!("cannot write {}: {e}", path.display())))?,
        )),
        _ => None,
    };
    let threads = args.jobs.clamp(1, jobs.len());
    let next = AtomicUsize::new(0);
    let (tx, rx) = mpsc::channel::<Result<Done, Fatal>>();
    let mut bar = progress::Progress::new(jobs.len());
    let mut results = Vec::with_capacity(pairs.len());
    let mut first_error = None;
    let work = Work {
        pairs: &pairs,
        sources: &sources,
        mutants: &mutants,
    };
    std::thread::scope(|scope| {
        let mut first = Some(first);
        for _ in 0..threads {
            let tx = tx.clone();
            let (jobs, work, args, scripts, next) = (&jobs, &work, &args, &scripts, &next);
            let mut zygote = first.take();
            scope.spawn(move || loop {
                let i = next.fetch_add(1, Ordering::SeqCst);
                let Some(job) = jobs.get(i) else { break };
                let done = run_job(&mut zygote, *job, work, args, scripts, sandbox);
                if tx.send(done).is_err() {
                    break;
                }
            });
        }
        drop(tx);
        for result in rx {
            let i = match result {
                Ok(Done::Pair(i, pair)) => {
                    bar.finished(&pair);
                    slots[i].pair = Some(pair);
                    i
                }
                Ok(Done::Mutant(i, j, run)) => {
                    bar.mutant(&pairs[i].problem.slug, &run);
                    slots[i].mutants[j] = Some(run);
                    i
                }
                Err(e) => {
                    first_error.get_or_insert(e);
                    next.store(usize::MAX / 2, Ordering::SeqCst);
                    continue;
                }
            };
            slots[i].left -= 1;
            if slots[i].left > 0 {
                continue;
            }
            let Some(mut pair) = slots[i].pair.take() else {
                continue;
            };
            if args.mutants.is_some() {
                pair.mutants = Some(slots[i].mutants.drain(..).flatten().collect());
            }
            if let Some(out) = jsonl.as_mut() {
                let line = serde_json::to_string(&pair).unwrap_or_default();
                if let Err(e) = writeln!(out, "{line}").and_then(|_| out.flush()) {
                    first_error.get_or_insert(Fatal(format!("cannot write the JSON lines: {e}")));
                }
            }
            results.push(pair);
        }
    });
    bar.done();
    if let Some(e) = first_error {
        return Err(e);
    }
    let report = Report::new(results);
    let code = report.exit_code();
    emit(&report, &args.format)?;
    Ok(code)
}

/// `report FILE.jsonl...`: merge the lines of sharded runs into one report.
pub fn run_report(files: &[PathBuf], format: Format) -> Result<i32, Fatal> {
    let mut pairs = Vec::new();
    for file in files {
        let f = std::fs::File::open(file)
            .map_err(|e| Fatal(format!("cannot read {}: {e}", file.display())))?;
        for (n, line) in std::io::BufReader::new(f).lines().enumerate() {
            let line = line.map_err(|e| Fatal(format!("cannot read {}: {e}", file.display())))?;
            if line.trim().is_empty() {
                continue;
            }
            let pair: PairResult = serde_json::from_str(&line).map_err(|e| {
                Fatal(format!(
                    "{}:{}: not a line of `check --jsonl`: {e}",
                    file.display(),
                    n + 1
                ))
            })?;
            pairs.push(pair);
        }
    }
    let report = Report::new(pairs);
    let code = report.exit_code();
    emit(&report, &format)?;
    Ok(code)
}

fn emit(report: &Report, format: &Format) -> Result<(), Fatal> {
    match format {
        Format::Json => {
            let text = serde_json::to_string_pretty(report).map_err(|e| Fatal(e.to_string()))?;
            crate::output(writeln!(std::io::stdout(), "{text}"))
        }
        Format::Junit(path) => {
            let mut out = Vec::new();
            render::junit(&mut out, report).map_err(|e| Fatal(e.to_string()))?;
            std::fs::write(path, out)
                .map_err(|e| Fatal(format!("cannot write {}: {e}", path.display())))?;
            crate::output(render::table(&mut anstream::stdout(), report))
        }
        Format::Table | Format::Jsonl(_) => {
            crate::output(render::table(&mut anstream::stdout(), report))
        }
    }
}
