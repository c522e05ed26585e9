//! pytest's logging options as its logging plugin reads them: the levels (`get_log_level_for_setting`)
//! and the formats `logging.Formatter` validates.

use crate::rules::{Config as Rules, Reason};

/// The level a `log_level`, `log_cli_level` or `log_file_level` names, as pytest's
/// `get_log_level_for_setting` reads it (a `logging` level name in any case, or an integer), or why
/// pytest refuses it.
pub(super) fn log_level(key: &str, value: &str) -> Result<i64, Reason> {
    // `str.upper()`: Unicode's case mapping (`ınfo` is `INFO`).
    let upper = value.to_uppercase();
    let named = match upper.as_str() {
        "CRITICAL" | "FATAL" => Some(50),
        "ERROR" => Some(40),
        "WARNING" | "WARN" => Some(30),
        "INFO" => Some(20),
        "DEBUG" => Some(10),
        "NOTSET" => Some(0),
        _ => None,
    };
    // `int()` of the text: a sign, decimal digits of any script (Unicode's `Nd`, as `int()` reads
    // `２０`) with single underscores between them.
    let ascii: String = value.chars().map(|c| decimal(c).unwrap_or(c)).collect();
    let digits = ascii.strip_prefix(['+', '-']).unwrap_or(&ascii);
    let number = (!digits.is_empty()
        && !digits.starts_with('_')
        && !digits.ends_with('_')
        && !digits.contains("__")
        && digits.chars().all(|c| c.is_ascii_digit() || c == '_'))
    .then(|| ascii.replace('_', "").parse::<i64>().ok())
    .flatten();
    named.or(number).ok_or_else(|| {
        Rules::ConfigRefused.because(format!(
            "sets `{key} = {value}`, which is not a logging level name: pytest stops with a usage error before it collects anything, so no test runs"
        ))
    })
}

/// The zeros of Unicode's decimal digits (category `Nd`, Unicode 14 as in Python 3.11): each
/// starts a run of ten, `0` to `9`.
const DECIMAL_ZEROS: [u32; 66] = [
    0x30, 0x660, 0x6F0, 0x7C0, 0x966, 0x9E6, 0xA66, 0xAE6, 0xB66, 0xBE6, 0xC66, 0xCE6, 0xD66,
    0xDE6, 0xE50, 0xED0, 0xF20, 0x1040, 0x1090, 0x17E0, 0x1810, 0x1946, 0x19D0, 0x1A80, 0x1A90,
    0x1B50, 0x1BB0, 0x1C40, 0x1C50, 0xA620, 0xA8D0, 0xA900, 0xA9D0, 0xA9F0, 0xAA50, 0xABF0, 0xFF10,
    0x104A0, 0x10D30, 0x11066, 0x110F0, 0x11136, 0x111D0, 0x112F0, 0x11450, 0x114D0, 0x11650,
    0x116C0, 0x11730, 0x118E0, 0x11950, 0x11C50, 0x11D50, 0x11DA0, 0x16A60, 0x16AC0, 0x16B50,
    0x1D7CE, 0x1D7D8, 0x1D7E2, 0x1D7EC, 0x1D7F6, 0x1E140, 0x1E2F0, 0x1E950, 0x1FBF0,
];

/// The ASCII digit a decimal digit of any script stands for (`int()` reads them all).
fn decimal(c: char) -> Option<char> {
    let code = c as u32;
    DECIMAL_ZEROS
        .iter()
        .find(|&&zero| (zero..zero + 10).contains(&code))
        .and_then(|zero| char::from_digit(code - zero, 10))
}

/// Whether `logging.Formatter` accepts a `%`-style format (`PercentStyle.validate`, Python 3.11):
/// some field `%(name)` with optional flags, width and precision, then a conversion.
pub(super) fn percent_format_valid(format: &str) -> bool {
    let chars: Vec<char> = format.chars().collect();
    (0..chars.len()).any(|start| {
        let mut i = start;
        let at = |i: usize| chars.get(i).copied();
        if at(i) != Some('%') || at(i + 1) != Some('(') {
            return false;
        }
        i += 2;
        let name = i;
        while at(i).is_some_and(|c| c.is_alphanumeric() || c == '_') {
            i += 1;
        }
        if i == name || at(i) != Some(')') {
            return false;
        }
        i += 1;
        while at(i).is_some_and(|c| "#0+ -".contains(c)) {
            i += 1;
        }
        let number = |i: &mut usize| {
            if at(*i) == Some('*') {
                *i += 1;
            } else {
                while at(*i).is_some_and(|c| c.is_numeric()) {
                    *i += 1;
                }
            }
        };
        number(&mut i);
        if at(i) == Some('.') && at(i + 1).is_some_and(|c| c == '*' || c.is_numeric()) {
            i += 1;
            number(&mut i);
        }
        at(i).is_some_and(|c| "diouxefgcrsa%".contains(c.to_ascii_lowercase()))
    })
}

/// The configured log levels, and what pytest's logging plugin makes of them.
#[derive(Default)]
pub(super) struct LogLevels {
    /// (written, level) of `log_level`, `log_cli_level`, `log_file_level`.
    test: Option<(String, i64)>,
    cli: Option<(String, i64)>,
    file: Option<(String, i64)>,
    /// `log_format`, `log_date_format`, `log_auto_indent`: the capture handlers' formatter.
    pub(super) format: Option<String>,
    pub(super) date_format: Option<String>,
    pub(super) auto_indent: Option<String>,
}

impl LogLevels {
    pub(super) fn set(&mut self, key: &str, written: &str, level: i64) {
        let slot = match key {
            "log_level" => &mut self.test,
            "log_cli_level" => &mut self.cli,
            _ => &mut self.file,
        };
        *slot = Some((written.to_string(), level));
    }

    /// pytest's `LoggingPlugin`: the live-log and log-file handlers' levels (each falling back to
    /// `log_level`) lower the root logger around the collection and around the test loop
    /// (`catching_logs`), and `log_level` around each test, where the capture handlers take it as
    /// their level. The evaluator reproduces one root level for both the solution's import and the
    /// check: where the collection's differs from the tests' (`log_level` below both other levels,
    /// each set), that is a drop.
    pub(super) fn logging(&self) -> Result<Option<crate::model::Logging>, Reason> {
        let test = self.test.as_ref().map(|(_, l)| *l);
        let cli = self.cli.as_ref().map(|(_, l)| *l).or(test);
        let file = self.file.as_ref().map(|(_, l)| *l).or(test);
        let collection = [cli, file].into_iter().flatten().min();
        let tests = [collection, test].into_iter().flatten().min();
        let formatted = crate::model::Logging {
            format: self.format.clone(),
            date_format: self.date_format.clone(),
            auto_indent: self.auto_indent.clone(),
            ..Default::default()
        };
        let Some(root_level) = tests else {
            return Ok((formatted != crate::model::Logging::default()).then_some(formatted));
        };
        if collection != tests {
            let written =
                |l: &Option<(String, i64)>| l.as_ref().map(|(w, _)| w.clone()).unwrap_or_default();
            return Err(Rules::LogLevelSet.because(format!(
                "sets `log_level = {}` below `log_cli_level = {}` and `log_file_level = {}`: pytest lowers the root logger further around each test than while it imports the test file and the solution, and the evaluator reproduces one level for both",
                written(&self.test),
                written(&self.cli),
                written(&self.file)
            )));
        }
        Ok(Some(crate::model::Logging {
            root_level: Some(root_level),
            capture_level: test.unwrap_or(0),
            ..formatted
        }))
    }
}
