//! `bench-explorer`, the command-line tool: a thin layer over the library that reads files and prints
//! reports. `cargo install --path crates/cli` installs it.
//!
//! Exit status (`extract`, `audit`): 0 when everything was kept and nothing was found; 1 when anything
//! was dropped, found or a syntax error reported; 2 for usage or I/O errors, with one line on stderr.
//! `--select` / `--ignore` (or `[tool.bench-explorer]` in `pyproject.toml`) choose which rules'
//! drops and findings count for status 1; what they leave out is still reported.
//! `check` and `report` (module `check`): 0 when no assertion is a measurement bug or a phantom pass,
//! 1 when one is, 2 for usage errors.

mod check;
mod conftests;
mod pytest_config;
mod python_source;
mod report;
mod rules;

use std::io::{Read, Write};
use std::path::{Path, PathBuf};

use bench_explorer::bench::{Audit, Meta, ProblemInput};
use bench_explorer::{extract, Extraction, Options, PytestVersion, Stage};
use clap::{Parser, Subcommand, ValueEnum};

#[derive(Parser)]
#[command(
    name = "bench-explorer",
    version,
    about = "See what a code-generation bench really measures."
)]
struct Cli {
    /// The pytest version whose test ids to follow: 9.0 (the default), 9.1 or 9.2 (which names a
    /// string over 100 characters by its argument name and index).
    #[arg(long = "pytest-version", global = true, value_name = "X.Y", default_value = "9.0", value_parser = PytestVersion::parse)]
    pytest_version: PytestVersion,
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Extract the assertions of pytest files as standalone expressions.
    Extract {
        /// Test files (`-` reads standard input).
        #[arg(required = true)]
        files: Vec<String>,
        /// Print the extraction contract's JSON (one object for one file, an array for several).
        #[arg(long)]
        json: bool,
        /// The problem's slug (default: the file name without `test_`, or its folder's name).
        #[arg(long)]
        slug: Option<String>,
        /// Treat imports of this module (and its submodules) as the solution; repeatable.
        #[arg(long = "solution-module", value_name = "NAME")]
        solution_modules: Vec<String>,
        /// Which extractor to run: the write-up's stages, or the faithful one.
        #[arg(long, value_enum, default_value_t = StageArg::Full)]
        stage: StageArg,
        #[command(flatten)]
        rules: RuleArgs,
    },
    /// Audit a whole bench: one table of problems, then totals grouped by shape.
    Audit {
        /// The bench folder (one sub-folder per problem).
        #[arg(default_value = "problems")]
        dir: PathBuf,
        #[arg(long)]
        json: bool,
        #[arg(long, value_enum, default_value_t = StageArg::Full)]
        stage: StageArg,
        #[command(flatten)]
        rules: RuleArgs,
    },
    /// Explain a rule: what it means, why the check cannot be kept, an example, and how to write
    /// the test so that it can be checked.
    Rule {
        /// A rule's code (`M001`) or name.
        #[arg(required_unless_present = "all")]
        rule: Option<String>,
        /// Every rule, family by family (the text of docs/rules.md).
        #[arg(long, conflicts_with = "rule")]
        all: bool,
        #[arg(long)]
        json: bool,
    },
    /// Run solutions both ways (the bench loop's view and real pytest) and give every assertion a
    /// verdict. This EXECUTES the solutions and the test files, as pytest does.
    Check {
        /// A bench folder (one sub-folder per problem), a problem folder or a test file.
        #[arg(default_value = "problems")]
        paths: Vec<PathBuf>,
        /// One solution file: looked up in each problem's folder first (`--solution stub.py`),
        /// else the path as given. Default: each problem's solution.py.
        #[arg(long, conflicts_with = "solutions")]
        solution: Option<PathBuf>,
        /// A folder of candidates: `DIR/<slug>/*.py` per problem (or `DIR/*.py` for one problem).
        #[arg(long)]
        solutions: Option<PathBuf>,
        #[arg(long, value_enum, default_value_t = StageArg::Full)]
        stage: StageArg,
        /// The Python that runs the checks (it needs pytest 9).
        #[arg(long, default_value = "python3")]
        python: PathBuf,
        /// Wall-clock limit per (problem, solution), in seconds.
        #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u64).range(1..))]
        timeout: u64,
        /// Memory limit per (problem, solution), in MiB (address space); 0 for none.
        #[arg(long, default_value_t = 2048)]
        memory: u64,
        /// Pairs run in parallel (default: the machine's cores).
        #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
        jobs: Option<u64>,
        /// Run only the K-th of N deterministic slices of the (problem, solution) pairs.
        #[arg(long, value_name = "K/N")]
        shard: Option<check::Shard>,
        /// Print the whole report as JSON.
        #[arg(long, group = "format")]
        json: bool,
        /// Write one JSON line per (problem, solution) as it finishes (merge with `report`).
        #[arg(long, value_name = "FILE", group = "format")]
        jsonl: Option<PathBuf>,
        /// Write JUnit XML for CI systems (the table still goes to standard output); with `--mutants`,
        /// a suite of mutants per solution: a survivor or a measurement difference is a failure.
        #[arg(long, value_name = "FILE", group = "format")]
        junit: Option<PathBuf>,
        /// Run the candidates without the sandbox (bubblewrap), with all your rights: only for
        /// code you trust, or where the sandbox cannot start (not Linux, no user namespaces).
        #[arg(long)]
        no_sandbox: bool,
        /// Also run mutants of each solution (comparison flips, constants ± 1, negated conditions,
        /// …) both ways: the mutation score per problem, the surviving mutants as diffs, and which
        /// tests and checks kill each one. `--mutants=N` keeps at most N per solution, spread over
        /// the file.
        #[arg(long, value_name = "N", num_args = 0..=1, require_equals = true)]
        mutants: Option<Option<usize>>,
        /// Wall-clock limit per mutant, in seconds (with `--mutants`; at most `--timeout`).
        #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u64).range(1..))]
        mutant_timeout: u64,
    },
    /// Merge the JSON lines of `check --jsonl` runs (shards) into one report.
    Report {
        #[arg(required = true)]
        files: Vec<PathBuf>,
        #[arg(long, group = "format")]
        json: bool,
        #[arg(long, value_name = "FILE", group = "format")]
        junit: Option<PathBuf>,
    },
}

fn format(json: bool, jsonl: Option<PathBuf>, junit: Option<PathBuf>) -> check::Format {
    match (json, jsonl, junit) {
        (true, _, _) => check::Format::Json,
        (_, Some(path), _) => check::Format::Jsonl(path),
        (_, _, Some(path)) => check::Format::Junit(path),
        _ => check::Format::Table,
    }
}

/// Which rules count for the exit status, and the per-rule counts.
#[derive(clap::Args)]
struct RuleArgs {
    /// Rules whose drops and findings fail the exit status: codes, code prefixes (`M`), names or
    /// ALL (the default; `[tool.bench-explorer] select` in pyproject.toml).
    #[arg(long, value_name = "RULES")]
    select: Vec<String>,
    /// Rules whose drops and findings do not fail the exit status (they are still reported).
    #[arg(long, value_name = "RULES")]
    ignore: Vec<String>,
    /// Print how many drops and findings each rule gave over all the files, most frequent first,
    /// instead of the report.
    #[arg(long, conflicts_with = "json")]
    statistics: bool,
}

#[derive(Clone, Copy, ValueEnum)]
enum StageArg {
    AsWritten,
    SixShapes,
    SevenShapes,
    Full,
}

impl From<StageArg> for Stage {
    fn from(s: StageArg) -> Stage {
        match s {
            StageArg::AsWritten => Stage::AsWritten,
            StageArg::SixShapes => Stage::SixShapes,
            StageArg::SevenShapes => Stage::SevenShapes,
            StageArg::Full => Stage::Full,
        }
    }
}

/// A one-line error for exit status 2.
struct Fatal(String);

fn main() {
    std::process::exit(run());
}

fn run() -> i32 {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            let code = if e.use_stderr() { 2 } else { 0 };
            let _ = e.print();
            return code;
        }
    };
    let version = cli.pytest_version;
    let result = match cli.command {
        Command::Extract {
            files,
            json,
            slug,
            solution_modules,
            stage,
            rules,
        } => run_extract(
            &files,
            json,
            slug,
            solution_modules,
            stage.into(),
            version,
            &rules,
        ),
        Command::Audit {
            dir,
            json,
            stage,
            rules,
        } => run_audit(&dir, json, stage.into(), version, &rules),
        Command::Rule { rule, all, json } => rules::run_rule(rule.as_deref(), all, json),
        Command::Check {
            paths,
            solution,
            solutions,
            stage,
            python,
            timeout,
            memory,
            jobs,
            shard,
            json,
            jsonl,
            junit,
            no_sandbox,
            mutants,
            mutant_timeout,
        } => check::run_check(check::CheckArgs {
            paths,
            solutions: match (solution, solutions) {
                (Some(file), _) => check::Solutions::File(file),
                (_, Some(dir)) => check::Solutions::Dir(dir),
                _ => check::Solutions::Reference,
            },
            stage: stage.into(),
            pytest_version: version,
            python,
            limits: check::Limits {
                timeout_secs: timeout,
                memory_mb: memory,
            },
            jobs: jobs
                .map(|j| j as usize)
                .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get())),
            shard,
            format: format(json, jsonl, junit),
            sandbox: !no_sandbox,
            mutants: mutants.map(|cap| check::MutantOptions {
                cap,
                timeout_secs: mutant_timeout.min(timeout),
            }),
        }),
        Command::Report { files, json, junit } => {
            check::run_report(&files, format(json, None, junit))
        }
    };
    match result {
        Ok(code) => code,
        Err(Fatal(message)) => {
            eprintln!("bench-explorer: {message}");
            2
        }
    }
}

/// Writing the report: a reader that stops early (`| head`) is not an error.
fn output(result: std::io::Result<()>) -> Result<(), Fatal> {
    match result {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => {
            Err(Fatal(format!("cannot write the report: {e}")))
        }
        _ => Ok(()),
    }
}

fn read_source(path: &str) -> Result<String, Fatal> {
    let bytes = if path == "-" {
        let mut buf = Vec::new();
        std::io::stdin()
            .read_to_end(&mut buf)
            .map_err(|e| Fatal(format!("cannot read standard input: {e}")))?;
        buf
    } else {
        std::fs::read(path).map_err(|e| Fatal(format!("cannot read {path}: {}", io_reason(&e))))?
    };
    let name = if path == "-" { "standard input" } else { path };
    python_source::decode(name, &bytes)
        .map_err(|e| Fatal(format!("{e} (Python would not read it)")))
}

fn io_reason(e: &std::io::Error) -> String {
    match e.kind() {
        std::io::ErrorKind::NotFound => "no such file".into(),
        std::io::ErrorKind::PermissionDenied => "permission denied".into(),
        _ if e.raw_os_error() == Some(21) => "it is a directory".into(),
        _ => e.to_string(),
    }
}

fn run_extract(
    files: &[String],
    json: bool,
    slug: Option<String>,
    solution_modules: Vec<String>,
    stage: Stage,
    pytest_version: PytestVersion,
    rule_args: &RuleArgs,
) -> Result<i32, Fatal> {
    let paths: Vec<&Path> = files.iter().map(Path::new).collect();
    let selection = rules::selection(&paths, &rule_args.select, &rule_args.ignore)?;
    let mut extractions = Vec::new();
    for file in files {
        let source = read_source(file)?;
        let name = if file == "-" {
            "<stdin>".to_string()
        } else {
            file.clone()
        };
        let options = Options {
            file: name,
            slug: slug.clone(),
            solution_modules: solution_modules.clone(),
            stage,
            conftests: conftests::for_file(file).map_err(Fatal)?,
            package_inits: conftests::package_inits(file).map_err(Fatal)?,
            pytest_config: pytest_config::find(file),
            pytest_version,
        };
        extractions.push(extract(&source, &options));
    }
    if rule_args.statistics {
        let counts = bench_explorer::rules::statistics(&extractions);
        output(rules::print_statistics(
            &mut anstream::stdout(),
            &counts,
            &selection,
        ))?;
    } else if json {
        let text = if extractions.len() == 1 {
            serde_json::to_string_pretty(&extractions[0])
        } else {
            serde_json::to_string_pretty(&extractions)
        };
        let text = text.map_err(|e| Fatal(e.to_string()))?;
        output(writeln!(std::io::stdout(), "{text}"))?;
    } else {
        let mut out = anstream::stdout();
        for e in &extractions {
            output(report::extraction(&mut out, e))?;
        }
    }
    Ok(if extractions.iter().all(|e| selection.passes(e)) {
        0
    } else {
        1
    })
}

/// One problem folder read from disk.
struct Problem {
    pub extraction: Extraction,
    pub meta: Option<Meta>,
    pub statement: Option<String>,
    pub original_statement: Option<String>,
}

fn read_bench(
    dir: &Path,
    stage: Stage,
    pytest_version: PytestVersion,
) -> Result<Vec<Problem>, Fatal> {
    let entries = std::fs::read_dir(dir)
        .map_err(|e| Fatal(format!("cannot read {}: {}", dir.display(), io_reason(&e))))?;
    let mut folders: Vec<PathBuf> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.is_dir())
        .collect();
    folders.sort();
    let mut problems = Vec::new();
    for folder in folders {
        let slug = folder
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or("")
            .to_string();
        let test = folder.join(format!("test_{slug}.py"));
        let test = if test.exists() {
            test
        } else {
            match std::fs::read_dir(&folder).ok().and_then(|rd| {
                rd.filter_map(|e| e.ok().map(|e| e.path())).find(|p| {
                    p.file_name()
                        .and_then(|n| n.to_str())
                        .is_some_and(|n| n.starts_with("test_") && n.ends_with(".py"))
                })
            }) {
                Some(p) => p,
                None => continue,
            }
        };
        let path = test.to_string_lossy().to_string();
        let source = read_source(&path)?;
        let options = Options {
            file: path.clone(),
            slug: Some(slug.clone()),
            solution_modules: Vec::new(),
            stage,
            conftests: conftests::for_file(&path).map_err(Fatal)?,
            package_inits: conftests::package_inits(&path).map_err(Fatal)?,
            pytest_config: pytest_config::find(&path),
            pytest_version,
        };
        let meta = match std::fs::read_to_string(folder.join("meta.toml")) {
            Ok(text) => Some(
                Meta::parse(&text)
                    .map_err(|e| Fatal(format!("{}/meta.toml: {e}", folder.display())))?,
            ),
            Err(_) => None,
        };
        let statement = std::fs::read_to_string(folder.join("problem.md")).ok();
        let original_statement = std::fs::read_to_string(folder.join("problem.original.md")).ok();
        problems.push(Problem {
            extraction: extract(&source, &options),
            meta,
            statement,
            original_statement,
        });
    }
    if problems.is_empty() {
        return Err(Fatal(format!(
            "no problem folders with a test_*.py file in {}",
            dir.display()
        )));
    }
    Ok(problems)
}

fn run_audit(
    dir: &Path,
    json: bool,
    stage: Stage,
    pytest_version: PytestVersion,
    rule_args: &RuleArgs,
) -> Result<i32, Fatal> {
    let problems = read_bench(dir, stage, pytest_version)?;
    let selection = rules::selection(&[dir], &rule_args.select, &rule_args.ignore)?;
    if rule_args.statistics {
        let counts = bench_explorer::rules::statistics(problems.iter().map(|p| &p.extraction));
        output(rules::print_statistics(
            &mut anstream::stdout(),
            &counts,
            &selection,
        ))?;
        return Ok(
            if problems.iter().all(|p| selection.passes(&p.extraction)) {
                0
            } else {
                1
            },
        );
    }
    let inputs: Vec<ProblemInput> = problems
        .iter()
        .map(|p| ProblemInput {
            extraction: &p.extraction,
            meta: p.meta.as_ref(),
            statement: p.statement.as_deref(),
            original_statement: p.original_statement.as_deref(),
        })
        .collect();
    let audit = Audit::new(stage, &inputs);
    if json {
        let text = serde_json::to_string_pretty(&audit).map_err(|e| Fatal(e.to_string()))?;
        output(writeln!(std::io::stdout(), "{text}"))?;
    } else {
        output(report::audit(&mut anstream::stdout(), &audit))?;
    }
    Ok(
        if audit.syntax_errors == 0 && problems.iter().all(|p| selection.passes(&p.extraction)) {
            0
        } else {
            1
        },
    )
}
