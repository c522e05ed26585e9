//! pytest's warning filters (`filterwarnings` lines, `-W`, `filterwarnings` marks), read as
//! pytest reads them (`parse_warning_filter`). pytest applies them in that order, each inserted at
//! the front; a warning fails a test exactly when the first filter it matches has the action
//! `error`, so only whether some filter can turn a warning into an error matters to the extractor
//! (`extract::session`).

use crate::rules::{Config, Reason};

/// One warning filter, as `warnings.filterwarnings` takes it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Filter {
    /// The filter as written.
    pub written: String,
    /// The action, completed as `warnings` completes a prefix (`err` is `error`).
    pub action: String,
    /// A regular expression the start of the message must match (case-insensitively).
    pub message: String,
    /// The category's dotted name (`DeprecationWarning`, `mypkg.MyWarning`); empty for `Warning`.
    pub category: String,
    /// A regular expression the module name must match.
    pub module: String,
    pub lineno: u32,
}

/// The warning classes of `builtins` (Python 3.11).
const BUILTIN_WARNINGS: [&str; 12] = [
    "Warning",
    "UserWarning",
    "DeprecationWarning",
    "PendingDeprecationWarning",
    "SyntaxWarning",
    "RuntimeWarning",
    "FutureWarning",
    "ImportWarning",
    "UnicodeWarning",
    "BytesWarning",
    "ResourceWarning",
    "EncodingWarning",
];

/// The actions `warnings` knows, in the order it completes a prefix (`warnings._getaction`);
/// `all` is an alias of `always` there, and `warnings.filterwarnings` accepts only these six.
const ACTIONS: [&str; 6] = ["default", "always", "ignore", "module", "once", "error"];

impl Filter {
    /// Parses `action:message:category:module:lineno` as pytest does (`parse_warning_filter`):
    /// every field stripped; `escape` (for `-W`) escapes the message and module as literal text.
    pub fn parse(arg: &str, escape: bool) -> Result<Filter, Reason> {
        let mut parts: Vec<&str> = arg.split(':').map(str::trim).collect();
        if parts.len() > 5 {
            return Err(Config::WarningFilterRefused.because(format!(
                "the warning filter `{arg}` has more than 5 fields: pytest refuses it"
            )));
        }
        parts.resize(5, "");
        let action = if parts[0].is_empty() {
            "default"
        } else if parts[0] == "all" {
            "always"
        } else {
            ACTIONS
                .iter()
                .find(|a| a.starts_with(parts[0]))
                .ok_or_else(|| {
                    Config::WarningFilterRefused
                        .because(format!("the warning filter `{arg}` has an unknown action"))
                })?
        };
        let category = parts[2];
        if !category
            .split('.')
            .all(|p| !p.is_empty() && p.chars().all(|c| c.is_alphanumeric() || c == '_'))
            && !category.is_empty()
        {
            return Err(Config::WarningFilterCategoryUnreadable.because(format!(
                "the warning filter `{arg}` names a category the extractor cannot spell"
            )));
        }
        // `_resolve_warning_category`: a name without a dot is an attribute of `builtins`, which
        // must be a `Warning` subclass; anything else is a usage error.
        if !category.is_empty() && !category.contains('.') && !BUILTIN_WARNINGS.contains(&category)
        {
            return Err(Config::WarningFilterRefused.because(format!(
                "the warning filter `{arg}` names `{category}`, which is no warning class of `builtins`: pytest stops with a usage error before it collects anything"
            )));
        }
        // pytest compiles the message and the module as regular expressions (`re.compile`).
        if !escape {
            for (field, text) in [("message", parts[1]), ("module", parts[3])] {
                match super::pyregex::compiles(text) {
                    super::pyregex::Compiles::Yes => {}
                    super::pyregex::Compiles::No(why) => {
                        return Err(Config::WarningFilterRefused.because(format!(
                            "the warning filter `{arg}` has a {field} `{text}` that is no regular expression ({why}): pytest stops with a usage error"
                        )))
                    }
                    super::pyregex::Compiles::Unsure(what) => {
                        return Err(Config::WarningFilterRefused.because(format!(
                            "the warning filter `{arg}` has a {field} `{text}` with {what}, which the extractor does not check: pytest may stop with a usage error if Python's `re` does not compile it"
                        )))
                    }
                }
            }
        }
        let lineno = if parts[4].is_empty() {
            0
        } else {
            parts[4].parse::<u32>().map_err(|_| {
                Config::WarningFilterRefused.because(format!(
                    "the warning filter `{arg}` has an invalid line number: pytest refuses it"
                ))
            })?
        };
        let (message, module) = if escape {
            let module = if parts[3].is_empty() {
                String::new()
            } else {
                format!("{}\\Z", re_escape(parts[3]))
            };
            (re_escape(parts[1]), module)
        } else {
            (parts[1].to_string(), parts[3].to_string())
        };
        Ok(Filter {
            written: arg.trim().to_string(),
            action: action.to_string(),
            message,
            category: category.to_string(),
            module,
            lineno,
        })
    }

    pub fn is_error(&self) -> bool {
        self.action == "error"
    }

    /// The filter as the contract carries it, for `warnings.filterwarnings`.
    pub fn to_contract(&self) -> crate::model::WarningFilter {
        crate::model::WarningFilter {
            action: self.action.clone(),
            message: self.message.clone(),
            category: self.category.clone(),
            module: self.module.clone(),
            lineno: self.lineno,
        }
    }
}

/// `re.escape` (Python 3.7+): a backslash before each of its special characters.
fn re_escape(text: &str) -> String {
    let mut out = String::new();
    for c in text.chars() {
        if "()[]{}?*+-|^$\\.&~# \t\n\r\u{b}\u{c}".contains(c) {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// pytest's own filters around every test and every collection (`catch_warnings_for_item`, pytest
/// 9.0), in the order it applies them: deprecation warnings shown (when the interpreter has no
/// `-W` or `PYTHONWARNINGS`), and its deprecated APIs errors.
fn baseline() -> [Filter; 3] {
    let own = |action: &str, category: &str| Filter {
        written: format!("{action}::{category}"),
        action: action.to_string(),
        message: String::new(),
        category: category.to_string(),
        module: String::new(),
        lineno: 0,
    };
    [
        own("always", "DeprecationWarning"),
        own("always", "PendingDeprecationWarning"),
        own("error", "pytest.PytestRemovedIn9Warning"),
    ]
}

/// The filters in effect while a test runs, first match first (as `warnings.filters` lists them):
/// `marks` (the test's `filterwarnings` marks in `iter_markers` order) and `config` (`filterwarnings`
/// lines, then `-W` options) are given in the order pytest applies them, each in front of the last.
pub fn in_effect(config: &[Filter], marks: &[Filter]) -> Vec<Filter> {
    marks
        .iter()
        .rev()
        .chain(config.iter().rev())
        .cloned()
        .chain(baseline().into_iter().rev())
        .collect()
}

/// Whether a filter turns some warning into an error.
pub fn any_error(filters: &[Filter]) -> bool {
    filters.iter().any(Filter::is_error)
}

/// Module names of frames that are pytest's under pytest and the evaluator's when a check is
/// evaluated: a warning whose `stacklevel` points past the test function is attributed to one of
/// them, and which one differs between the two. (Inlined helpers and fixtures change how many of
/// the test module's frames there are, so the test module's own name is added by the caller.)
const HOST_FRAMES: &[&str] = &[
    "_pytest.python",
    "_pytest.runner",
    "_pytest.fixtures",
    "_pytest.unittest",
    "_pytest.main",
    "_pytest.python_api",
    "_pytest.raises",
    "_pytest.recwarn",
    "pluggy._callers",
    "pluggy._hooks",
    "pluggy._manager",
    "unittest.case",
    "__main__",
    "sys",
    "runpy",
    "importlib",
    "importlib._bootstrap",
    "importlib._bootstrap_external",
    "runner",
    "zygote",
    "rw_eval",
    "drive",
    "measure",
    "_bench_explorer_runner",
    "pyodide",
    "_pyodide",
];

/// Why the checks of a test cannot be evaluated under these filters (first match first, see
/// [`in_effect`]) with pytest's verdicts, if so. Under pytest a warning fails a test when the first
/// filter it matches says `error`; the message and category are the same in an evaluated expression,
/// but the module and line a warning is attributed to are not where its `stacklevel` reaches past
/// the test's own code (pytest's frames, or an inlined helper's). So every filter that can decide
/// before the last `error` one must not single out a line, nor a module whose frames differ, nor
/// name a category of the solution (pytest imports it before the test module).
pub fn attribution_reason(filters: &[Filter], test_module: &str, solution: &str) -> Option<Reason> {
    // pytest's own error filter (its deprecated APIs) is in every run, the configuration's aside.
    let own = filters.len().saturating_sub(baseline().len());
    let last_error = filters[..own].iter().rposition(Filter::is_error)?;
    for f in &filters[..=last_error] {
        if f.lineno != 0 {
            return Some(Config::WarningFilterByLine.because(format!(
                "the warning filter `{}` singles out line {}: pytest attributes a warning to a line of the test's frames, which an evaluated expression does not keep, and a warning that fails the test under pytest may not fail the check",
                f.written, f.lineno
            )));
        }
        if !f.module.is_empty() {
            let frames = HOST_FRAMES.iter().copied().chain([test_module]);
            let clash = match Pattern::parse(&f.module) {
                Some(pattern) => frames.clone().find(|name| pattern.matches_start(name)),
                None => Some("a module the extractor cannot rule out"),
            };
            if let Some(name) = clash {
                return Some(Config::WarningFilterByModule.because(format!(
                    "the warning filter `{}` picks warnings by module, and its pattern may match `{name}`: a warning whose `stacklevel` reaches past the test is attributed to pytest's frames under pytest and to the evaluator's when a check runs, so the filter that decides may differ",
                    f.written
                )));
            }
        }
        let top = f.category.split('.').next().unwrap_or("");
        if f.category.contains('.') && top == solution.split('.').next().unwrap_or(solution) {
            return Some(Config::WarningFilterSolutionCategory.because(format!(
                "the warning filter `{}` names a category of the solution module, which pytest imports before the test module",
                f.written
            )));
        }
    }
    None
}

/// What the filters do to one warning pytest itself issues, whose category, message and module
/// are known: `Some(true)` it is an error, `Some(false)` it is not, `None` the extractor cannot
/// tell (a pattern it does not read, a category it does not know).
pub fn decides_error(
    filters: &[Filter],
    category: &str,
    message: &str,
    module: Option<&str>,
) -> Option<bool> {
    for f in filters {
        if !is_subclass(category, &f.category)? {
            continue;
        }
        if !f.message.is_empty() {
            let pattern = Pattern::parse_message(&f.message)?;
            if !pattern.matches_start(&message.to_lowercase()) {
                continue;
            }
        }
        if !f.module.is_empty() {
            let module = module?;
            if !Pattern::parse(&f.module)?.matches_start(module) {
                continue;
            }
        }
        if f.lineno != 0 {
            return None;
        }
        return Some(f.is_error());
    }
    Some(false)
}

/// Whether the warning category `class` (a builtin's or pytest's name) is `filter_category` (as a
/// filter names it: empty for `Warning`, a builtin's name, or a dotted path) or derives from it;
/// `None` when the extractor does not know the filter's category.
fn is_subclass(class: &str, filter_category: &str) -> Option<bool> {
    let named = match filter_category {
        "" => "Warning",
        c => match c.rsplit_once('.') {
            None => c,
            Some(("pytest" | "builtins" | "_pytest.warning_types", name)) => name,
            Some(_) => return None,
        },
    };
    let mut at = class;
    loop {
        if at == named {
            return Some(true);
        }
        // PytestDeprecationWarning's second base.
        if at == "PytestDeprecationWarning" && named == "DeprecationWarning" {
            return Some(true);
        }
        if at == "PytestExperimentalApiWarning" && named == "FutureWarning" {
            return Some(true);
        }
        at = match at {
            "Warning" => return Some(false),
            "PytestWarning" => "UserWarning",
            "PytestRemovedIn9Warning" | "PytestRemovedIn10Warning" => "PytestDeprecationWarning",
            c if c.starts_with("Pytest") => "PytestWarning",
            _ => "Warning",
        };
    }
}

/// A regular expression the extractor can read: letters, digits and `_`, `\.` (a dot), `.` (any
/// character), `.*`, and a final `\Z` or `$`; matched at the start as `re.match` does.
#[derive(Debug)]
struct Pattern {
    tokens: Vec<Token>,
}

#[derive(Debug, Clone, Copy, PartialEq)]
enum Token {
    Char(char),
    Any,
    AnyRun,
    End,
}

impl Pattern {
    fn parse(pattern: &str) -> Option<Pattern> {
        Self::parse_with(pattern, |c| c.is_alphanumeric() || c == '_')
    }

    /// A message pattern, matched case-insensitively: the extractor also reads spaces and a few
    /// punctuation marks that are literal in a regular expression.
    fn parse_message(pattern: &str) -> Option<Pattern> {
        let lower = pattern.to_lowercase();
        Self::parse_with(&lower, |c| {
            c.is_alphanumeric() || " _-,'\":;=/<>!@#%&`~".contains(c)
        })
    }

    fn parse_with(pattern: &str, literal: impl Fn(char) -> bool) -> Option<Pattern> {
        let mut tokens = Vec::new();
        let mut chars = pattern.chars().peekable();
        while let Some(c) = chars.next() {
            let token = match c {
                '\\' => match chars.next()? {
                    'Z' => Token::End,
                    e if !e.is_alphanumeric() => Token::Char(e),
                    _ => return None,
                },
                '$' => Token::End,
                '.' if chars.peek() == Some(&'*') => {
                    chars.next();
                    Token::AnyRun
                }
                '.' => Token::Any,
                c if literal(c) => Token::Char(c),
                _ => return None,
            };
            if tokens.last() == Some(&Token::End) {
                return None;
            }
            tokens.push(token);
        }
        Some(Pattern { tokens })
    }

    /// Whether the pattern matches at the start of `text` (`re.match`).
    fn matches_start(&self, text: &str) -> bool {
        fn go(tokens: &[Token], text: &[char]) -> bool {
            match tokens.split_first() {
                None => true,
                Some((Token::End, _)) => text.is_empty() || text == ['\n'],
                Some((Token::Char(c), rest)) => text.first() == Some(c) && go(rest, &text[1..]),
                Some((Token::Any, rest)) => {
                    text.first().is_some_and(|&c| c != '\n') && go(rest, &text[1..])
                }
                Some((Token::AnyRun, rest)) => (0..=text.len())
                    .take_while(|&i| i == 0 || text[i - 1] != '\n')
                    .any(|i| go(rest, &text[i..])),
            }
        }
        let text: Vec<char> = text.chars().collect();
        go(&self.tokens, &text)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_as_pytest_does() {
        let f = Filter::parse(" error ", false).unwrap();
        assert_eq!(f.action, "error");
        assert!(f.is_error());
        let f = Filter::parse("ignore:The x module.*:DeprecationWarning:", false).unwrap();
        assert_eq!(
            (f.action.as_str(), f.message.as_str(), f.category.as_str()),
            ("ignore", "The x module.*", "DeprecationWarning")
        );
        assert_eq!(Filter::parse("err", false).unwrap().action, "error");
        assert_eq!(Filter::parse("", false).unwrap().action, "default");
        assert_eq!(Filter::parse("all", false).unwrap().action, "always");
        assert_eq!(Filter::parse("al", false).unwrap().action, "always");
        assert!(Filter::parse("bogus", false).is_err());
        assert!(Filter::parse("a:b:c:d:e:f", false).is_err());
        assert!(Filter::parse("error:::m:-1", false).is_err());
        let f = Filter::parse("error:a.b (c):::3", true).unwrap();
        assert_eq!((f.message.as_str(), f.lineno), ("a\\.b\\ \\(c\\)", 3));
        let f = Filter::parse("error:::pkg.mod", true).unwrap();
        assert_eq!(f.module, "pkg\\.mod\\Z");
    }

    #[test]
    fn pytest_applies_marks_in_front_of_the_configuration() {
        let config = [
            Filter::parse("error", false).unwrap(),
            Filter::parse("ignore::UserWarning", false).unwrap(),
        ];
        let marks = [Filter::parse("default::RuntimeWarning", false).unwrap()];
        let written: Vec<String> = in_effect(&config, &marks)
            .into_iter()
            .map(|f| f.written)
            .collect();
        assert_eq!(
            written,
            [
                "default::RuntimeWarning",
                "ignore::UserWarning",
                "error",
                "error::pytest.PytestRemovedIn9Warning",
                "always::PendingDeprecationWarning",
                "always::DeprecationWarning"
            ]
        );
    }

    #[test]
    fn a_module_filter_before_an_error_blocks_where_it_may_match_a_host_frame() {
        let f = |s: &str| Filter::parse(s, false).unwrap();
        let check = |filters: &[&str]| {
            let filters: Vec<Filter> = filters.iter().map(|s| f(s)).collect();
            attribution_reason(&in_effect(&filters, &[]), "test_x", "solution").map(|r| r.text)
        };
        assert_eq!(
            check(&["error", "ignore::DeprecationWarning:distutils"]),
            None
        );
        assert_eq!(check(&["error", "ignore:::six.moves.*"]), None);
        assert!(check(&["error", "ignore:::_pytest"]).is_some());
        assert!(check(&["error", "ignore:::test_"]).is_some());
        assert!(check(&["error", "ignore:::.*"]).is_some());
        assert!(check(&["error", "ignore:::(a|b)"]).is_some());
        assert!(check(&["error", "ignore::::12"]).is_some());
        assert!(check(&["error", "ignore::solution.MyWarning"]).is_some());
        // After the last error filter nothing can decide an error any more.
        assert_eq!(check(&["ignore:::_pytest", "error"]), None);
        assert_eq!(
            check(&["ignore:::_pytest"]),
            None,
            "pytest's own error filter is in every run"
        );
    }

    #[test]
    fn decides_pytests_own_warnings() {
        let f = |s: &str| Filter::parse(s, false).unwrap();
        let filters = |c: &[&str]| in_effect(&c.iter().map(|s| f(s)).collect::<Vec<_>>(), &[]);
        let unknown = "Unknown pytest.mark.slow - is this a typo?";
        let d = |c: &[&str]| {
            decides_error(
                &filters(c),
                "PytestUnknownMarkWarning",
                unknown,
                Some("test_x"),
            )
        };
        assert_eq!(d(&["error"]), Some(true));
        assert_eq!(d(&[]), Some(false));
        assert_eq!(
            d(&["error", "ignore::pytest.PytestUnknownMarkWarning"]),
            Some(false)
        );
        assert_eq!(d(&["error", "ignore:unknown pytest.mark"]), Some(false));
        assert_eq!(
            d(&["error", "ignore:Unknown pytest\\.mark\\.fast"]),
            Some(true)
        );
        assert_eq!(d(&["error", "ignore::UserWarning"]), Some(false));
        assert_eq!(d(&["error", "ignore::DeprecationWarning"]), Some(true));
        assert_eq!(d(&["error", "ignore::somepkg.Warn"]), None);
        assert_eq!(d(&["error", "ignore:(x|y)"]), None);
        assert_eq!(d(&["error::DeprecationWarning"]), Some(false));
        let removed = decides_error(&filters(&[]), "PytestRemovedIn9Warning", "x", None);
        assert_eq!(removed, Some(true));
        let syntax = decides_error(
            &filters(&["error::DeprecationWarning"]),
            "SyntaxWarning",
            "x",
            None,
        );
        assert_eq!(syntax, Some(false));
    }
}
