//! pytest's configuration file (`pytest.ini`, `tox.ini`, `setup.cfg`, `pyproject.toml`'s pytest
//! table) and whether it may change how every test of a file runs: an option that runs code around
//! every test, turns warnings into errors, selects or deselects tests, stops early, loads plugins or
//! renames what counts as a test makes every assertion unfaithful as an expression. Options that
//! only report, format, measure coverage or concern doctests are harmless. Finding and reading the
//! file is the caller's (the CLI's); this module only judges its options.

/// A configuration file's pytest options.
#[derive(Debug, PartialEq, Clone, Default)]
pub struct Config {
    /// The file's name (`pyproject.toml`), as named in reasons.
    pub name: String,
    /// `(key, values)`: an ini value split into lines, a TOML string or list as its strings.
    pub options: Vec<(String, Vec<String>)>,
}

/// The pytest options of an ini-format file's text, or `None` when it has no pytest section
/// (`pytest.ini` and `.pytest.ini` always count, as in pytest). `pyproject.toml` is TOML: its
/// caller reads `[tool.pytest.ini_options]` into [`Config::options`] itself.
pub fn parse_ini(name: &str, text: &str) -> Option<Vec<(String, Vec<String>)>> {
    match name {
        "setup.cfg" => ini_section(text, "tool:pytest"),
        "tox.ini" => ini_section(text, "pytest"),
        _ => Some(ini_section(text, "pytest").unwrap_or_default()),
    }
}

/// The keys of one `[section]` of an ini file; a value continues on indented lines.
fn ini_section(text: &str, section: &str) -> Option<Vec<(String, Vec<String>)>> {
    let mut found = false;
    let mut inside = false;
    let mut out: Vec<(String, Vec<String>)> = Vec::new();
    for line in text.lines() {
        let trimmed = line.trim();
        if trimmed.starts_with('[') && trimmed.ends_with(']') {
            inside = trimmed[1..trimmed.len() - 1].trim() == section;
            found |= inside;
            continue;
        }
        if !inside || trimmed.is_empty() || trimmed.starts_with('#') || trimmed.starts_with(';') {
            continue;
        }
        if line.starts_with([' ', '\t']) {
            if let Some((_, values)) = out.last_mut() {
                values.push(trimmed.to_string());
            }
            continue;
        }
        if let Some((key, value)) = trimmed.split_once(['=', ':']) {
            let value = value.trim();
            let values = if value.is_empty() {
                Vec::new()
            } else {
                vec![value.to_string()]
            };
            out.push((key.trim().to_string(), values));
        }
    }
    found.then_some(out)
}

/// Why the configuration may change how every test runs, or `None` when it only has harmless
/// options.
pub fn blocker(config: &Config) -> Option<String> {
    let name = &config.name;
    for (key, values) in &config.options {
        let joined = values.join(" ");
        let why = match key.as_str() {
            "filterwarnings" => values
                .iter()
                .any(|v| v.split(':').next().is_some_and(|a| a.trim() == "error"))
                .then(|| "turns warnings into errors (`filterwarnings = error`): a warning fails a test under pytest, and evaluating an expression does not".to_string()),
            "usefixtures" if !joined.trim().is_empty() => {
                Some(format!("runs fixtures before every test (`usefixtures = {}`)", joined.trim()))
            }
            "python_functions" | "python_classes" | "python_files"
                if !is_default(key, &joined) =>
            {
                Some(format!("changes which names are tests (`{key} = {}`)", joined.trim()))
            }
            "empty_parameter_set_mark" if joined.trim() != "skip" => Some(format!(
                "changes what an empty parametrize does (`{key} = {}`)",
                joined.trim()
            )),
            "addopts" => risky_addopt(&joined)
                .map(|opt| format!("passes `{opt}` to every run (`addopts`), which may select, stop, or change the tests")),
            _ => None,
        };
        if let Some(why) = why {
            return Some(format!("pytest's configuration (`{name}`) {why}"));
        }
    }
    None
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

/// The first `addopts` option that is not known to be harmless for test functions.
fn risky_addopt(addopts: &str) -> Option<String> {
    let words = split_words(addopts);
    let mut i = 0;
    while i < words.len() {
        let w = words[i].as_str();
        i += 1;
        // `-p no:name` disables a plugin; `-p name` loads one.
        if w == "-p" {
            let arg = words.get(i).map(String::as_str).unwrap_or("");
            i += 1;
            if arg.starts_with("no:") {
                continue;
            }
            return Some(format!("-p {arg}"));
        }
        if let Some(arg) = w.strip_prefix("-p") {
            if arg.starts_with("no:") {
                continue;
            }
            return Some(w.to_string());
        }
        let harmless = matches!(
            w,
            "-v" | "-vv"
                | "-vvv"
                | "-q"
                | "-qq"
                | "-l"
                | "-s"
                | "--showlocals"
                | "--verbose"
                | "--quiet"
                | "--doctest-modules"
                | "--doctest-continue-on-failure"
                | "--strict-config"
                | "--no-header"
                | "--no-summary"
                | "--cov"
                | "--no-cov"
                | "--no-cov-on-fail"
                | "--cov-append"
                | "--cov-branch"
        ) || w.starts_with("-r") && !w.starts_with("--")
            || [
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
                "-W ignore",
                "--code-highlight",
            ]
            .iter()
            .any(|p| w.starts_with(p));
        if harmless {
            // Options whose value is the next word.
            if matches!(
                w,
                "--doctest-glob"
                    | "--doctest-report"
                    | "--cov-report"
                    | "--durations"
                    | "--basetemp"
                    | "--junitxml"
                    | "--cov-config"
            ) {
                i += 1;
            }
            continue;
        }
        return Some(w.to_string());
    }
    None
}

/// Words as a shell would split them (quotes group, and are removed).
fn split_words(text: &str) -> Vec<String> {
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
    if any || !word.is_empty() {
        words.push(word);
    }
    words
}
