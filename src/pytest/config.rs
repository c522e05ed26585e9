//! pytest's configuration file (`pytest.ini`, `tox.ini`, `setup.cfg`, `pyproject.toml`'s pytest
//! table) and whether it may change how every test of a file runs: an option that runs code around
//! every test, turns warnings into errors, selects or deselects tests, stops early, loads plugins or
//! renames what counts as a test makes every assertion unfaithful as an expression. Options that
//! only report, format, measure coverage or concern doctests are harmless. Three are followed
//! instead: warning filters (`filterwarnings`, `-W`) are applied around each expression
//! ([`super::warnings`]), `-m` deselects tests by their marks ([`super::markexpr`]), and
//! `--strict-markers` holds when every mark the file uses is registered. Finding and reading the
//! file is the caller's (the CLI's); this module only judges its options.

pub use super::config_files::{read, read_folder, Config, FILE_NAMES};
use super::log_config::{log_level, percent_format_valid, LogLevels};
use super::markexpr::MarkExpr;
use super::warnings::Filter;
use crate::rules::{Config as Rules, Reason};

/// The pytest options of an ini-format file's text, or `None` when it has no pytest section
/// (`pytest.ini` and `.pytest.ini` always count, as in pytest), or when pytest refuses the file
/// ([`read`] says why). `pyproject.toml` is TOML: see [`read`].
pub fn parse_ini(name: &str, text: &str) -> Option<Vec<(String, Vec<String>)>> {
    read(name, text)
        .filter(|c| c.refused.is_none())
        .map(|c| c.options)
}

/// What a configuration file does to every test of a file.
#[derive(Debug, Clone, Default)]
pub struct Judgement {
    /// The file's name (`pyproject.toml`), as named in reasons.
    pub config_name: String,
    /// Why every test must be dropped, when an option may change how each runs in a way the
    /// extractor does not reproduce. Its words only, until `session.rs` (which reads it as `&str`)
    /// takes a [`Reason`]: [`Judgement::blocker_reason`] keeps its rule.
    pub blocker: Option<String>,
    /// The blocker with its rule.
    pub blocker_reason: Option<Reason>,
    /// `filterwarnings` lines, then `-W` options of `addopts`, in the order pytest applies them.
    pub warning_filters: Vec<Filter>,
    /// `-m` of `addopts`, as written and parsed.
    pub mark_expr: Option<(String, MarkExpr)>,
    /// The marks pytest knows: its own and the `markers` lines'.
    pub registered_markers: Vec<String>,
    /// `--doctest-modules` in `addopts`: pytest also collects the test file's doctests as tests.
    pub doctest_modules: bool,
    /// `--strict-markers` (or `strict_markers`/`strict = true`): an unknown mark fails the file's
    /// collection. pytest 9.0 ignores `--strict-markers` in `addopts`; it is followed anyway, which
    /// can only drop more.
    pub strict_markers: bool,
    /// What pytest's logging plugin does to the root logger around every test, when a log level
    /// is configured (`log_level`, `log_cli_level`, `log_file_level`).
    pub logging: Option<crate::model::Logging>,
    /// Fixtures of a plugin `-p no:` disables (`cache` of `cacheprovider`, `record_property` and
    /// the like of `junitxml`), with the plugin: a test requesting one errors under pytest.
    pub unavailable_fixtures: Vec<(&'static str, &'static str)>,
}

/// Judges a configuration's options (see the module's documentation), for the pytest version
/// whose ids the extraction follows (its default).
pub fn judge(config: &Config) -> Judgement {
    judge_at(config, crate::PytestVersion::default())
}

/// Judges a configuration's options for pytest `version` (its `minversion` is compared with it).
pub fn judge_at(config: &Config, version: crate::PytestVersion) -> Judgement {
    let mut judgement = Judgement {
        config_name: config.name.clone(),
        ..Judgement::default()
    };
    if let Some(why) = &config.refused {
        judgement.blocker_reason = Some(Rules::ConfigRefused.because(format!(
            "pytest's configuration (`{}`) {why}: pytest stops before it collects anything, so no test runs",
            config.name
        )));
    }
    let mut registered: Vec<String> = crate::pytest::marks::BUILTIN
        .iter()
        .map(|s| s.to_string())
        .collect();
    let mut cmdline_filters = Vec::new();
    let mut strict_markers = false;
    // The ini key `strict_config`, or `--strict-config` in `addopts` (which overrides the key).
    let mut strict_config = false;
    let mut disables_plugins = false;
    let mut levels = LogLevels::default();
    for (key, values) in &config.options {
        let joined = values.join(" ");
        let why = match key.as_str() {
            "filterwarnings" => values
                .iter()
                .filter(|v| !v.trim().is_empty())
                .map(|v| Filter::parse(v, false))
                .collect::<Result<Vec<_>, _>>()
                .map(|filters| judgement.warning_filters.extend(filters))
                .err(),
            "markers" => {
                registered.extend(values.iter().map(|line| marker_name(line)));
                None
            }
            // pytest 9's ini switches; `strict` turns on `strict_markers` among others.
            "strict_markers" => {
                strict_markers |= is_true(&joined);
                None
            }
            // `strict` also makes parametrize ids strict, which may refuse a file's collection;
            // `strict_parametrization_ids` alone does that (`make_unique_parameterset_ids`
            // raises a collection error on duplicate ids instead of numbering them).
            "strict" | "strict_parametrization_ids" if is_true(&joined) => {
                Some(Rules::StrictMode.because(format!(
                    "makes pytest strict (`{key} = {}`), which may refuse the file or the run (duplicate parametrize ids are a collection error)",
                    joined.trim()
                )))
            }
            // Judged once every key is read (`strict_config_blocker`).
            "strict_config" => {
                strict_config |= is_true(&joined);
                None
            }
            "required_plugins" if !joined.trim().is_empty() => {
                Some(Rules::RequiredPlugins.because(format!(
                    "requires plugins (`required_plugins = {}`), without which pytest refuses to run",
                    joined.trim()
                )))
            }
            "addopts" => match read_addopts(&joined) {
                Ok(opts) => {
                    cmdline_filters.extend(opts.warning_filters);
                    strict_markers |= opts.strict_markers;
                    strict_config |= opts.strict_config;
                    disables_plugins |= opts.disables_plugins;
                    judgement.doctest_modules |= opts.doctest_modules;
                    for plugin in &opts.disabled {
                        judgement.unavailable_fixtures.extend(
                            PLUGIN_FIXTURES
                                .iter()
                                .filter(|(_, p)| p == plugin)
                                .map(|(f, p)| (*f, *p)),
                        );
                    }
                    if opts.mark_expr.is_some() {
                        judgement.mark_expr = opts.mark_expr;
                    }
                    None
                }
                Err(Addopt::Unsplittable) => Some(Rules::ConfigRefused.because(format!(
                    "has an unbalanced quote in `addopts = {}`: pytest cannot split it into options (`shlex.split`) and stops before it collects anything, so no test runs",
                    joined.trim()
                ))),
                Err(Addopt::Option(opt)) => Some(Rules::AddoptsChangesEveryTest.because(format!(
                    "passes `{opt}` to every run (`addopts`), which may select, stop, or change the tests"
                ))),
                Err(Addopt::Refused(why)) => Some(why),
                Err(Addopt::Changes(does)) => Some(Rules::AddoptsChangesEveryTest.because(does)),
            },
            "minversion" => minversion_refused(&joined, version),
            // `get_log_level_for_setting`: a name `logging` does not define is a usage error; a
            // level pytest sets on the root logger around every test (`catching_logs`), and for
            // the live-log and log-file handlers around the whole session.
            "log_level" | "log_cli_level" | "log_file_level" if !joined.trim().is_empty() => {
                match log_level(key, joined.trim()) {
                    Ok(level) => {
                        levels.set(key, joined.trim(), level);
                        None
                    }
                    Err(why) => Some(why),
                }
            }
            // `LoggingPlugin.__init__` builds a `logging.Formatter` for each of these formats
            // (`log_file_format` and `log_cli_format` fall back to `log_format`), which validates
            // it: a format without a field is an INTERNALERROR before anything is collected.
            "log_format" | "log_file_format" | "log_cli_format"
                if !joined.trim().is_empty() && !percent_format_valid(&joined) =>
            {
                Some(Rules::ConfigRefused.because(format!(
                    "sets `{key} = {}`, which `logging.Formatter` refuses (no `%(name)s` field): pytest stops with an internal error before it collects anything, so no test runs",
                    joined.trim()
                )))
            }
            // pytest's formatter for the capture handlers (`LoggingPlugin._create_formatter`).
            "log_format" => {
                levels.format = Some(joined.clone());
                None
            }
            "log_date_format" => {
                levels.date_format = Some(joined.clone());
                None
            }
            "log_auto_indent" => {
                levels.auto_indent = Some(joined.clone());
                None
            }
            _ => other_option(key, &joined),
        };
        if let Some(why) = why {
            judgement.blocker_reason.get_or_insert(
                why.map(|t| format!("pytest's configuration (`{}`) {t}", config.name)),
            );
        }
    }
    if strict_config {
        if let Some(why) = strict_config_blocker(config, disables_plugins) {
            judgement.blocker_reason.get_or_insert(
                why.map(|t| format!("pytest's configuration (`{}`) {t}", config.name)),
            );
        }
    }
    match levels.logging() {
        Ok(logging) => judgement.logging = logging,
        Err(why) => {
            judgement.blocker_reason.get_or_insert(
                why.map(|t| format!("pytest's configuration (`{}`) {t}", config.name)),
            );
        }
    }
    judgement.blocker = judgement.blocker_reason.as_ref().map(|r| r.text.clone());
    judgement.warning_filters.extend(cmdline_filters);
    judgement.registered_markers = registered;
    judgement.strict_markers = strict_markers;
    judgement
}

/// The ini keys pytest 9.0.2 registers itself (`parser.addini` in its default plugins, and the
/// alias `xfail_strict`), for every run: with no `-p no:` in `addopts`, none is unknown to it.
/// (`pytester_example_dir` is not here: the `pytester` plugin is not loaded by default.)
const PYTEST_INI_KEYS: &[&str] = &[
    "addopts",
    "cache_dir",
    "collect_imported_tests",
    "consider_namespace_packages",
    "console_output_style",
    "disable_test_id_escaping_and_forfeit_all_rights_to_community_support",
    "doctest_encoding",
    "doctest_optionflags",
    "empty_parameter_set_mark",
    "enable_assertion_pass_hook",
    "faulthandler_exit_on_timeout",
    "faulthandler_timeout",
    "filterwarnings",
    "junit_duration_report",
    "junit_family",
    "junit_log_passing_tests",
    "junit_logging",
    "junit_suite_name",
    "log_auto_indent",
    "log_cli",
    "log_cli_date_format",
    "log_cli_format",
    "log_cli_level",
    "log_date_format",
    "log_file",
    "log_file_date_format",
    "log_file_format",
    "log_file_level",
    "log_file_mode",
    "log_format",
    "log_level",
    "markers",
    "minversion",
    "norecursedirs",
    "python_classes",
    "python_files",
    "python_functions",
    "pythonpath",
    "required_plugins",
    "strict",
    "strict_config",
    "strict_markers",
    "strict_parametrization_ids",
    "strict_xfail",
    "testpaths",
    "tmp_path_retention_count",
    "tmp_path_retention_policy",
    "truncation_limit_chars",
    "truncation_limit_lines",
    "usefixtures",
    "verbosity_assertions",
    "verbosity_subtests",
    "verbosity_test_cases",
    "xfail_strict",
];

/// Why strict configuration (`--strict-config`, `strict_config = true`) may refuse the run, if it
/// may. In pytest 9.0.2 it does one thing (`Config._warn_or_fail_if_strict`, called only from
/// `_validate_config_options`): an ini key no plugin registered becomes a usage error instead of a
/// warning. When every key is one pytest itself registers and no default plugin is disabled (a
/// disabled plugin's keys are unknown), there is no such key: the option changes nothing. A key of
/// a third-party plugin is known only when that plugin is installed, which the extractor cannot see.
fn strict_config_blocker(config: &Config, disables_plugins: bool) -> Option<Reason> {
    if disables_plugins {
        return Some(Rules::StrictConfigMayRefuse.because(
            "makes the configuration strict (`--strict-config`) and disables a plugin with `-p no:`, whose options pytest would then refuse",
        ));
    }
    config
        .options
        .iter()
        .find(|(key, _)| !PYTEST_INI_KEYS.contains(&key.as_str()))
        .map(|(key, _)| {
            Rules::StrictConfigMayRefuse.because(format!("makes the configuration strict (`--strict-config`) and sets `{key}`, which pytest itself does not register: unless a plugin does, pytest refuses the run"))
        })
}

/// Why `minversion` makes pytest refuse the run, when it may: pytest compares it with its own
/// version (`packaging.version.Version`) and stops when it is newer. The extraction follows a
/// pytest `major.minor` (any patch level), so a `minversion` above `major.minor.0` may refuse.
fn minversion_refused(value: &str, version: crate::PytestVersion) -> Option<Reason> {
    let value = value.trim();
    if value.is_empty() {
        return None;
    }
    let parts: Option<Vec<u64>> = value.split('.').map(|p| p.parse::<u64>().ok()).collect();
    let (major, minor) = (u64::from(version.major), u64::from(version.minor));
    let surely = match parts {
        Some(parts) => {
            let mut theirs = parts;
            theirs.resize(theirs.len().max(2), 0);
            if theirs[..2] > [major, minor][..] {
                true
            } else if theirs[..2] == [major, minor] && theirs[2..].iter().any(|&p| p > 0) {
                // `9.0.3` against pytest 9.0.x: the patch level decides.
                false
            } else {
                return None;
            }
        }
        // A pre-release, a local version or text pytest cannot read: it may refuse.
        None => false,
    };
    let (is, refuses) = if surely {
        ("is", "refuses")
    } else {
        ("may be", "may refuse")
    };
    Some(Rules::ConfigRefused.because(format!(
        "sets `minversion = {value}`, which {is} newer than the pytest {major}.{minor} whose ids the checks follow: pytest {refuses} to run (`requires pytest-{value}`), and then no test runs"
    )))
}

/// Why an option other than `filterwarnings`, `markers` and `addopts` may change every test.
fn other_option(key: &str, joined: &str) -> Option<Reason> {
    match key {
        "usefixtures" if !joined.trim().is_empty() => Some(Rules::IniUsefixtures.because(format!(
            "runs fixtures before every test (`usefixtures = {}`)",
            joined.trim()
        ))),
        "python_functions" | "python_classes" | "python_files" if !is_default(key, joined) => {
            Some(Rules::IniChangesCollection.because(format!(
                "changes which names are tests (`{key} = {}`)",
                joined.trim()
            )))
        }
        "empty_parameter_set_mark" if joined.trim() != "skip" => {
            Some(Rules::IniChangesCollection.because(format!(
                "changes what an empty parametrize does (`{key} = {}`)",
                joined.trim()
            )))
        }
        _ => None,
    }
}

/// The names pytest collects as tests under the configuration's `python_functions` and
/// `python_classes`, when either is not pytest's default (`None` when both are): the extractor
/// collects by the default names, so a function only the configured names make a test is one whose
/// checks pytest runs and no entry stands for.
pub struct CollectedNames {
    functions: Vec<String>,
    classes: Vec<String>,
    /// The option as written, for messages (`python_functions = test_* check_*`).
    pub said: String,
}

impl CollectedNames {
    pub fn of(config: &Config) -> Option<CollectedNames> {
        let get = |key: &str, default: &str| -> Vec<String> {
            config
                .options
                .iter()
                .rev()
                .find(|(k, _)| k == key)
                .map(|(_, v)| v.join(" ").split_whitespace().map(str::to_string).collect())
                .unwrap_or_else(|| vec![default.to_string()])
        };
        let functions = get("python_functions", "test");
        let classes = get("python_classes", "Test");
        let said: Vec<String> = [
            ("python_functions", &functions),
            ("python_classes", &classes),
        ]
        .into_iter()
        .filter(|(key, words)| !is_default(key, &words.join(" ")))
        .map(|(key, words)| format!("{key} = {}", words.join(" ")))
        .collect();
        (!said.is_empty()).then(|| CollectedNames {
            functions,
            classes,
            said: said.join("`, `"),
        })
    }

    /// Whether pytest collects a function of this dotted owner (`check_x`, `CheckY.check_x`) as a
    /// test: a module-level function, or a method of a module-level class, whose names match.
    pub fn collects(&self, owner: &str) -> bool {
        match owner.split('.').collect::<Vec<_>>()[..] {
            [function] => matches_prefix_or_glob(&self.functions, function),
            [class, method] => {
                matches_prefix_or_glob(&self.classes, class)
                    && matches_prefix_or_glob(&self.functions, method)
            }
            _ => false,
        }
    }
}

/// pytest's `_matches_prefix_or_glob_option`: the name starts with one of the words, or matches
/// one that holds a glob character (`fnmatch`).
fn matches_prefix_or_glob(words: &[String], name: &str) -> bool {
    words.iter().any(|w| {
        name.starts_with(w.as_str())
            || (w.contains(['*', '?', '[']) && fnmatch(w.as_bytes(), name.as_bytes()))
    })
}

/// `fnmatch.fnmatch` on a POSIX system (case-sensitive): `*`, `?`, `[seq]`, `[!seq]`.
fn fnmatch(pattern: &[u8], name: &[u8]) -> bool {
    match pattern.split_first() {
        None => name.is_empty(),
        Some((b'*', rest)) => (0..=name.len()).any(|i| fnmatch(rest, &name[i..])),
        Some((b'?', rest)) => !name.is_empty() && fnmatch(rest, &name[1..]),
        Some((b'[', rest)) => {
            let negate = rest.first() == Some(&b'!');
            let body = if negate { &rest[1..] } else { rest };
            // `]` first in the set is a member; no closing `]` makes `[` a plain character.
            let close = body.iter().skip(1).position(|&b| b == b']').map(|i| i + 1);
            match (close, name.split_first()) {
                (None, Some((&c, tail))) => c == b'[' && fnmatch(rest, tail),
                (None, None) | (Some(_), None) => false,
                (Some(end), Some((&c, tail))) => {
                    let set = &body[..end];
                    let mut hit = false;
                    let mut i = 0;
                    while i < set.len() {
                        if i + 2 < set.len() && set[i + 1] == b'-' {
                            hit |= set[i] <= c && c <= set[i + 2];
                            i += 3;
                        } else {
                            hit |= set[i] == c;
                            i += 1;
                        }
                    }
                    hit != negate && fnmatch(&body[end + 1..], tail)
                }
            }
        }
        Some((&p, rest)) => name.first() == Some(&p) && fnmatch(rest, &name[1..]),
    }
}

/// pytest's boolean ini values: `true`, `yes`, `on`, `1`… (`strtobool`).
fn is_true(value: &str) -> bool {
    matches!(
        value.trim().to_ascii_lowercase().as_str(),
        "y" | "yes" | "t" | "true" | "on" | "1"
    )
}

/// The mark a `markers` line registers: `slow: marks slow tests` and `device(serial): …` register
/// `slow` and `device`.
fn marker_name(line: &str) -> String {
    let name = line.split(':').next().unwrap_or("");
    name.split('(').next().unwrap_or("").trim().to_string()
}

fn is_default(key: &str, value: &str) -> bool {
    let words: Vec<&str> = value.split_whitespace().collect();
    match key {
        "python_functions" => words == ["test"],
        "python_classes" => words == ["Test"],
        "python_files" => {
            let mut w = words.clone();
            w.sort_unstable();
            w == ["*_test.py", "test_*.py"] || w == ["test_*.py"]
        }
        _ => false,
    }
}

/// What `addopts` asks for that the extractor follows.
#[derive(Default)]
struct Addopts {
    warning_filters: Vec<Filter>,
    mark_expr: Option<(String, MarkExpr)>,
    strict_markers: bool,
    /// `--strict-config`: judged against the file's keys (`strict_config_blocker`).
    strict_config: bool,
    /// A `-p no:name`: that plugin's ini keys are unknown to pytest.
    disables_plugins: bool,
    /// `--doctest-modules`: the test file's doctests are tests too.
    doctest_modules: bool,
    /// The plugins `-p no:` disables, as written.
    disabled: Vec<String>,
    /// The options read, as written (for [`OPTION_OWNERS`]).
    written: Vec<String>,
}

/// pytest's `essential_plugins` (`_pytest/config/__init__.py`): `-p no:` of one is a usage error
/// ("plugin … cannot be disabled").
const ESSENTIAL_PLUGINS: [&str; 5] = ["mark", "main", "runner", "fixtures", "helpconfig"];

/// pytest's `default_plugins` that decide what is collected, how a collected test runs or what
/// its outcome is, or that provide a fixture the extractor lets a kept test request (read from
/// each module of `_pytest`), with what each does. Disabling one of them changes the tests; the
/// others only report (`terminal`, `pastebin`, `reports`, `faulthandler`, `setuponly`,
/// `setupplan`, `debugging`) or cache between runs (`cacheprovider`, `stepwise`).
const DECIDING_PLUGINS: [(&str, &str); 15] = [
    ("python", "collects test functions and classes: without it pytest collects no test of the file, and no test runs"),
    ("unittest", "collects `unittest.TestCase` classes: without it pytest does not collect their tests"),
    ("skipping", "applies `skip`, `skipif` and `xfail` marks: without it pytest runs those tests as plain tests"),
    ("logging", "captures log records around every test with its handlers, which the evaluator reproduces"),
    ("capture", "captures the standard streams around every test and provides `capsys` and `capfd`"),
    ("assertion", "rewrites every assert statement of the test file"),
    ("warnings", "catches warnings around every test and applies the warning filters"),
    ("unraisableexception", "fails a test whose objects raise in a finalizer"),
    ("threadexception", "fails a test whose threads raise"),
    ("subtests", "reports subtests, `unittest`'s `subTest` among them, and provides the `subtests` fixture"),
    ("monkeypatch", "provides the `monkeypatch` fixture"),
    ("recwarn", "provides the `recwarn` fixture"),
    ("tmpdir", "provides the `tmp_path` fixtures"),
    ("legacypath", "provides the `tmpdir` fixtures"),
    ("doctest", "collects doctests and provides the `doctest_namespace` fixture"),
];

/// The fixtures of the plugins that only report or cache (not in [`DECIDING_PLUGINS`]), each with
/// its plugin (their `@fixture` definitions in `_pytest/cacheprovider.py` and `junitxml.py`).
const PLUGIN_FIXTURES: [(&str, &str); 4] = [
    ("cache", "cacheprovider"),
    ("record_property", "junitxml"),
    ("record_xml_attribute", "junitxml"),
    ("record_testsuite_property", "junitxml"),
];

/// Which plugin defines each option the extractor reads as harmless (its `pytest_addoption`).
const OPTION_OWNERS: [(&str, &[&str]); 3] = [
    (
        "terminal",
        &[
            "-v",
            "-q",
            "-r",
            "-l",
            "--verbose",
            "--quiet",
            "--showlocals",
            "--no-header",
            "--no-summary",
            "--tb",
            "--color",
            "--code-highlight",
        ],
    ),
    ("junitxml", &["--junitxml", "--junit-xml"]),
    (
        "doctest",
        &[
            "--doctest-modules",
            "--doctest-glob",
            "--doctest-report",
            "--doctest-continue-on-failure",
        ],
    ),
];

/// Options that only report, format, measure coverage or concern doctests.
const HARMLESS: [&str; 19] = [
    "-v",
    "-vv",
    "-vvv",
    "-q",
    "-qq",
    "-l",
    "-s",
    "--showlocals",
    "--verbose",
    "--quiet",
    "--doctest-modules",
    "--doctest-continue-on-failure",
    "--no-header",
    "--no-summary",
    "--cov",
    "--no-cov",
    "--no-cov-on-fail",
    "--cov-append",
    "--cov-branch",
];

/// Harmless options written `--name=value` or `--namevalue`.
const HARMLESS_PREFIXES: [&str; 15] = [
    "--tb=",
    "--doctest-glob",
    "--doctest-report",
    "--cov=",
    "--cov-report",
    "--cov-config",
    "--cov-fail-under",
    "--import-mode=",
    "--color=",
    "--durations",
    "--junitxml",
    "--junit-xml",
    "--basetemp",
    "--capture=",
    "--code-highlight",
];

/// Harmless options whose value is the next word.
const TAKES_VALUE: [&str; 9] = [
    "--doctest-glob",
    "--doctest-report",
    "--cov-report",
    "--durations",
    "--basetemp",
    "--junitxml",
    "--cov-config",
    "-r",
    "--tb",
];

/// Why `addopts` is not followed.
enum Addopt {
    /// An option not known to be harmless for test functions, as written.
    Option(String),
    /// A quote without its closing quote: pytest's `shlex.split` raises, and pytest stops.
    Unsplittable,
    /// pytest refuses the option: why.
    Refused(Reason),
    /// The option changes the tests: what it does.
    Changes(String),
}

impl From<String> for Addopt {
    fn from(option: String) -> Self {
        Addopt::Option(option)
    }
}

/// Reads `addopts`, or names the first option that is not known to be harmless for test functions.
fn read_addopts(addopts: &str) -> Result<Addopts, Addopt> {
    let words = split_words(addopts).ok_or(Addopt::Unsplittable)?;
    let mut out = Addopts::default();
    let mut i = 0;
    while i < words.len() {
        let w = words[i].as_str();
        i += 1;
        // An option and its value, as one word (`-pno:x`, `-Werror`) or two (`-p no:x`).
        let mut value = |short: &str| -> Option<String> {
            if w == short {
                i += 1;
                Some(words.get(i - 1).cloned().unwrap_or_default())
            } else {
                w.strip_prefix(short).map(str::to_string)
            }
        };
        if let Some(arg) = value("-p") {
            // `-p no:name` disables a plugin; `-p name` loads one.
            if !arg.starts_with("no:") {
                return Err(format!("-p {arg}").into());
            }
            // `consider_pluginarg`: the name after `no:`, as written.
            let plugin = &arg[3..];
            if ESSENTIAL_PLUGINS.contains(&plugin) {
                return Err(Addopt::Refused(Rules::ConfigRefused.because(format!(
                    "passes `-p {arg}` (`addopts`), and pytest's `{plugin}` plugin cannot be disabled: pytest stops with a usage error before it collects anything, so no test runs"
                ))));
            }
            if let Some((_, does)) = DECIDING_PLUGINS.iter().find(|(p, _)| *p == plugin) {
                return Err(Addopt::Changes(format!(
                    "disables pytest's `{plugin}` plugin (`-p {arg}` in `addopts`), which {does}"
                )));
            }
            out.disabled.push(plugin.to_string());
            out.disables_plugins = true;
        } else if let Some(arg) = value("-W") {
            out.warning_filters
                .push(Filter::parse(&arg, true).map_err(|why| {
                    Addopt::Refused(why.map(|t| format!("passes `-W {arg}` (`addopts`): {t}")))
                })?);
        } else if let Some(arg) = value("-m") {
            let parsed = MarkExpr::parse(&arg).map_err(|_| Addopt::Option(format!("-m {arg}")))?;
            out.mark_expr = Some((arg, parsed));
        } else if w == "--strict-markers" {
            out.strict_markers = true;
        } else if w == "--strict-config" {
            out.strict_config = true;
        } else if w == "--doctest-modules" {
            out.doctest_modules = true;
        } else if HARMLESS.contains(&w) || TAKES_VALUE.contains(&w) {
            if TAKES_VALUE.contains(&w) {
                i += 1;
            }
        } else if !(HARMLESS_PREFIXES.iter().any(|p| w.starts_with(p))
            || w.starts_with("-r") && !w.starts_with("--"))
        {
            return Err(w.to_string().into());
        }
        out.written.push(w.to_string());
    }
    // An option of a disabled plugin is unknown to pytest's parser: "unrecognized arguments".
    for w in &out.written {
        let owner = OPTION_OWNERS.iter().find(|(_, opts)| {
            opts.iter().any(|o| {
                w == o
                    || w.starts_with(&format!("{o}="))
                    || (o.len() == 2 && !w.starts_with("--") && w.starts_with(o))
            })
        });
        if let Some((plugin, _)) = owner {
            if out.disabled.iter().any(|d| d == plugin) {
                return Err(Addopt::Refused(Rules::ConfigRefused.because(format!(
                    "passes `{w}` and `-p no:{plugin}` (`addopts`): `{w}` is an option of the `{plugin}` plugin it disables, so pytest stops with a usage error (unrecognized arguments) before it collects anything, and no test runs"
                ))));
            }
        }
    }
    Ok(out)
}

/// Whether pytest imports test files and conftests in its default mode, `prepend` (no
/// `--import-mode` other than `prepend` in `addopts`): a conftest inside a package is then imported
/// as a submodule of that package, after the package itself.
pub fn import_mode_is_prepend(config: Option<&Config>) -> bool {
    let Some(config) = config else {
        return true;
    };
    config
        .options
        .iter()
        .filter(|(key, _)| key == "addopts")
        .all(|(_, values)| {
            let words = split_words(&values.join(" ")).unwrap_or_default();
            words.iter().enumerate().all(|(i, w)| {
                let mode = match w.strip_prefix("--import-mode") {
                    Some("") => words.get(i + 1).map(String::as_str),
                    Some(rest) => rest.strip_prefix('='),
                    None => return true,
                };
                mode == Some("prepend")
            })
        })
}

/// Words as a shell would split them (quotes group, and are removed); `None` when a quote is not
/// closed (`shlex.split` raises "No closing quotation").
fn split_words(text: &str) -> Option<Vec<String>> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut quote: Option<char> = None;
    let mut any = false;
    for c in text.chars() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), c) => word.push(c),
            (None, '\'' | '"') => {
                quote = Some(c);
                any = true;
            }
            (None, c) if c.is_whitespace() => {
                if any || !word.is_empty() {
                    words.push(std::mem::take(&mut word));
                    any = false;
                }
            }
            (None, c) => word.push(c),
        }
    }
    if quote.is_some() {
        return None;
    }
    if any || !word.is_empty() {
        words.push(word);
    }
    Some(words)
}

#[cfg(test)]
mod tests {
    #[test]
    fn writes_the_options_back_as_an_ini_file_that_reads_the_same() {
        let text = "[pytest]\naddopts = -W error\nfilterwarnings =\n    error\n    ignore::DeprecationWarning\n";
        let config = super::Config {
            name: "pytest.ini".into(),
            options: super::parse_ini("pytest.ini", text).unwrap(),
            refused: None,
        };
        let again = super::parse_ini("pytest.ini", &config.to_ini()).unwrap();
        assert_eq!(again, config.options);
    }

    use super::*;

    #[test]
    fn names_collected_as_pytest_matches_them() {
        assert!(CollectedNames::of(&config(&[("python_functions", &["test"])])).is_none());
        let c = CollectedNames::of(&config(&[("python_functions", &["test_* check_*"])])).unwrap();
        assert_eq!(c.said, "python_functions = test_* check_*");
        assert!(c.collects("check_empty"));
        assert!(c.collects("TestA.check_b"));
        assert!(!c.collects("helper"));
        assert!(
            !c.collects("CheckA.check_b"),
            "the class must match python_classes"
        );
        assert!(!c.collects("outer.inner.check_c"));
        // A word without a glob character is a prefix; globs follow fnmatch.
        let c = CollectedNames::of(&config(&[
            ("python_functions", &["should"]),
            ("python_classes", &["*Suite [AB]?"]),
        ]))
        .unwrap();
        assert!(c.collects("should_add") && c.collects("shouldnt"));
        assert!(
            c.collects("MySuite.should_x")
                && c.collects("Ax.should_x")
                && c.collects("Bz.should_y")
        );
        assert!(!c.collects("Cx.should_x") && !c.collects("Suited.should_x"));
        assert!(fnmatch(b"[!a]x", b"bx") && !fnmatch(b"[!a]x", b"ax"));
        assert!(fnmatch(b"t[a-c]*", b"tb_1") && !fnmatch(b"t[a-c]*", b"td"));
    }

    fn config(options: &[(&str, &[&str])]) -> Config {
        Config {
            name: "pyproject.toml".into(),
            options: options
                .iter()
                .map(|(k, v)| (k.to_string(), v.iter().map(|s| s.to_string()).collect()))
                .collect(),
            refused: None,
        }
    }

    #[test]
    fn strict_config_with_only_pytest_keys_is_inert() {
        // toolz's table: every key is pytest's own.
        let j = judge(&config(&[
            ("minversion", &["6.0"]),
            ("testpaths", &["toolz"]),
            ("xfail_strict", &["true"]),
            ("addopts", &["--strict-config", "--strict-markers", "-ra"]),
            ("console_output_style", &["count"]),
        ]));
        assert_eq!(j.blocker, None);
        assert!(j.strict_markers);
        let j = judge(&config(&[
            ("strict_config", &["true"]),
            ("cache_dir", &[".c"]),
        ]));
        assert_eq!(j.blocker, None);
    }

    #[test]
    fn strict_config_with_a_key_pytest_does_not_register_blocks() {
        for options in [
            config(&[
                ("addopts", &["--strict-config"]),
                ("asyncio_mode", &["auto"]),
            ]),
            config(&[("asyncio_mode", &["auto"]), ("strict_config", &["true"])]),
            // `pytester` is not a default plugin.
            config(&[
                ("addopts", &["--strict-config"]),
                ("pytester_example_dir", &["x"]),
            ]),
        ] {
            let why = judge(&options).blocker.expect("blocked");
            assert!(why.contains("does not register"), "{why}");
        }
        // The same key without strictness is only a warning pytest prints.
        assert_eq!(judge(&config(&[("asyncio_mode", &["auto"])])).blocker, None);
        assert_eq!(
            judge(&config(&[
                ("strict_config", &["false"]),
                ("asyncio_mode", &["auto"])
            ]))
            .blocker,
            None
        );
    }

    #[test]
    fn strict_config_with_a_disabled_plugin_blocks() {
        let why = judge(&config(&[(
            "addopts",
            &["--strict-config", "-p", "no:cacheprovider"],
        )]))
        .blocker
        .expect("blocked");
        assert!(why.contains("-p no:"), "{why}");
    }

    #[test]
    fn minversion_and_log_levels() {
        let why = |options: &[(&str, &[&str])]| judge(&config(options)).blocker_reason;
        for ok in ["6.0", "9.0", "9", "8.4.2"] {
            assert_eq!(why(&[("minversion", &[ok])]), None, "{ok}");
        }
        let r = why(&[("minversion", &["42.0"])]).expect("refused");
        assert!(
            r.text.contains("is newer")
                && r.rule == crate::rules::Rule::Config(Rules::ConfigRefused)
        );
        // A patch level above .0 may be newer than the pytest 9.0.x that runs.
        assert!(why(&[("minversion", &["9.0.3"])])
            .unwrap()
            .text
            .contains("may be newer"));
        assert!(judge_at(
            &config(&[("minversion", &["9.1"])]),
            crate::PytestVersion::parse("9.2").unwrap()
        )
        .blocker
        .is_none());
        // A valid level is carried to the evaluator: the root logger's level around the tests,
        // and the capture handlers' (`log_level` alone).
        let logging = |options: &[(&str, &[&str])]| {
            let j = judge(&config(options));
            assert_eq!(j.blocker_reason, None, "{options:?}");
            j.logging
                .map(|l| (l.root_level.unwrap_or(-1), l.capture_level))
        };
        for (level, n) in [
            ("DEBUG", 10),
            ("info", 20),
            ("10", 10),
            ("warning", 30),
            ("Fatal", 50),
            ("+1_5", 15),
            ("-5", -5),
        ] {
            assert_eq!(logging(&[("log_level", &[level])]), Some((n, n)), "{level}");
        }
        for key in ["log_cli_level", "log_file_level"] {
            assert_eq!(logging(&[(key, &["INFO"])]), Some((20, 0)), "{key}");
        }
        // The live-log and file handlers fall back to `log_level`: the lowest level wins.
        assert_eq!(
            logging(&[("log_level", &["ERROR"]), ("log_cli_level", &["DEBUG"])]),
            Some((10, 40))
        );
        assert_eq!(logging(&[("log_level", &[""])]), None);
        // `log_level` below both others: collection and tests differ, which is not reproduced.
        let r = why(&[
            ("log_level", &["DEBUG"]),
            ("log_cli_level", &["INFO"]),
            ("log_file_level", &["ERROR"]),
        ])
        .expect("dropped");
        assert_eq!(r.rule, crate::rules::Rule::Config(Rules::LogLevelSet));
        assert!(r.text.contains("`log_level = DEBUG` below"), "{}", r.text);
        for bad in ["1__0", "_1", "1_", "+", "LOUD"] {
            let r = why(&[("log_level", &[bad])]).expect(bad);
            assert_eq!(
                r.rule,
                crate::rules::Rule::Config(Rules::ConfigRefused),
                "{bad}"
            );
        }
        let r = why(&[("log_level", &["LOUD"])]).expect("refused");
        assert_eq!(r.rule, crate::rules::Rule::Config(Rules::ConfigRefused));
        assert_eq!(why(&[("log_level", &[""])]), None);
    }

    #[test]
    fn an_unbalanced_quote_in_addopts_refuses_the_run() {
        let r = judge(&config(&[("addopts", &["-q \"-p no:cacheprovider"])]))
            .blocker_reason
            .expect("refused");
        assert!(r.text.contains("unbalanced quote"), "{}", r.text);
        assert!(
            r.text.contains("`addopts = -q \"-p no:cacheprovider`"),
            "{}",
            r.text
        );
    }

    #[test]
    fn strict_in_addopts_is_every_strictness() {
        // pytest 9's `--strict` is `strict = true`: parametrize ids too, which may refuse a file.
        let why = judge(&config(&[("addopts", &["--strict"])]))
            .blocker
            .expect("blocked");
        assert!(why.contains("--strict"), "{why}");
    }
}
