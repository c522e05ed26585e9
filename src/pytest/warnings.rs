//! pytest's warning filters, and how a kept expression runs under them.
//!
//! pytest runs every test inside `warnings.catch_warnings(record=True)` and applies, in this order:
//! its own defaults, the configuration file's `filterwarnings` lines, the `-W` options, then the
//! test's `filterwarnings` marks, closest node first (`_pytest/warnings.py`,
//! `catch_warnings_for_item`). `warnings.filterwarnings` inserts at the front, so the filter applied
//! last wins. A warning fails the test exactly when the first filter it matches has the action
//! `error`; every other action only changes what is printed or recorded. So when no filter of a test
//! has the action `error`, the filters cannot change its verdict and the expression needs nothing;
//! otherwise the expression runs inside the same context with the same filters, applied the same way:
//!
//! ```python
//! type("catch_warnings", (contextlib.ContextDecorator, warnings.catch_warnings), {})(record=True)(
//!     lambda: (warnings.filterwarnings("error"), <expr>)[-1]
//! )()
//! ```
//!
//! `ContextDecorator` makes the context manager a decorator, so the `with` that restores the filters
//! — also when the expression raises — is inside an expression. pytest's own default filters
//! (`always` for deprecation warnings, `error` for its removal warnings) are left out: the first never
//! makes an error, the second is raised by pytest alone.

use crate::pytest::value::{py_repr, PyValue};

/// One warning filter, as `warnings.filterwarnings` takes it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Filter {
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

/// The actions `warnings` knows, in the order it completes a prefix (`warnings._getaction`).
const ACTIONS: [&str; 7] = [
    "default", "always", "all", "ignore", "module", "once", "error",
];

impl Filter {
    /// Parses `action:message:category:module:lineno` as pytest does (`parse_warning_filter`):
    /// every field stripped; `escape` (for `-W`) escapes the message and module as literal text.
    pub fn parse(arg: &str, escape: bool) -> Result<Filter, String> {
        let mut parts: Vec<&str> = arg.split(':').map(str::trim).collect();
        if parts.len() > 5 {
            return Err(format!(
                "the warning filter `{arg}` has more than 5 fields: pytest refuses it"
            ));
        }
        parts.resize(5, "");
        let action = if parts[0].is_empty() {
            "default"
        } else {
            ACTIONS
                .iter()
                .find(|a| a.starts_with(parts[0]))
                .ok_or_else(|| format!("the warning filter `{arg}` has an unknown action"))?
        };
        let category = parts[2];
        if !category
            .split('.')
            .all(|p| !p.is_empty() && p.chars().all(|c| c.is_alphanumeric() || c == '_'))
            && !category.is_empty()
        {
            return Err(format!(
                "the warning filter `{arg}` names a category the extractor cannot spell"
            ));
        }
        let lineno = if parts[4].is_empty() {
            0
        } else {
            parts[4].parse::<u32>().map_err(|_| {
                format!("the warning filter `{arg}` has an invalid line number: pytest refuses it")
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

    /// The call that applies this filter: `__import__("warnings").filterwarnings(...)`.
    fn apply_call(&self) -> String {
        let mut args = vec![py_string(&self.action)];
        let defaults = [
            self.message.is_empty(),
            self.category.is_empty(),
            self.module.is_empty(),
            self.lineno == 0,
        ];
        // Positional arguments up to the last one that is not the default.
        let needed = defaults.iter().rposition(|d| !d).map_or(0, |i| i + 1);
        let fields = [
            py_string(&self.message),
            category_expr(&self.category),
            py_string(&self.module),
            self.lineno.to_string(),
        ];
        args.extend(fields.into_iter().take(needed));
        format!(
            "__import__(\"warnings\").filterwarnings({})",
            args.join(", ")
        )
    }
}

/// `expr` run under `filters` (applied in order) as pytest runs a test, or `expr` unchanged when no
/// filter turns a warning into an error.
pub fn under_filters(expr: &str, filters: &[Filter]) -> String {
    if !filters.iter().any(Filter::is_error) {
        return expr.to_string();
    }
    let mut steps: Vec<String> = filters.iter().map(Filter::apply_call).collect();
    steps.push(expr.to_string());
    format!(
        "type(\"catch_warnings\", (__import__(\"contextlib\").ContextDecorator, __import__(\"warnings\").catch_warnings), {{}})(record=True)(lambda: ({})[-1])()",
        steps.join(", ")
    )
}

/// How pytest finds a category (`_resolve_warning_category`): `Warning` when empty, a builtin when
/// undotted, else an attribute of an imported module.
fn category_expr(category: &str) -> String {
    match category.rsplit_once('.') {
        _ if category.is_empty() => "__import__(\"builtins\").Warning".to_string(),
        None => format!("__import__(\"builtins\").{category}"),
        Some((module, name)) => {
            format!(
                "__import__({}, fromlist=({},)).{name}",
                py_string(module),
                py_string(name)
            )
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

/// A Python string literal for any text (non-ASCII as `\u` escapes).
fn py_string(text: &str) -> String {
    if let Some(repr) = py_repr(&PyValue::Str(text.to_string())) {
        return repr;
    }
    let mut out = String::from('"');
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if c.is_ascii() && !c.is_ascii_control() => out.push(c),
            c if (c as u32) <= 0xffff => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push_str(&format!("\\U{:08x}", c as u32)),
        }
    }
    out.push('"');
    out
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
        assert!(Filter::parse("bogus", false).is_err());
        assert!(Filter::parse("a:b:c:d:e:f", false).is_err());
        assert!(Filter::parse("error:::m:-1", false).is_err());
        let f = Filter::parse("error:a.b (c):::3", true).unwrap();
        assert_eq!((f.message.as_str(), f.lineno), ("a\\.b\\ \\(c\\)", 3));
        let f = Filter::parse("error:::pkg.mod", true).unwrap();
        assert_eq!(f.module, "pkg\\.mod\\Z");
    }

    #[test]
    fn wraps_only_when_a_filter_errors() {
        let ignore = Filter::parse("ignore::DeprecationWarning", false).unwrap();
        assert_eq!(
            under_filters("f(1) == 2", std::slice::from_ref(&ignore)),
            "f(1) == 2"
        );
        let error = Filter::parse("error", false).unwrap();
        let wrapped = under_filters("f(1) == 2", &[error, ignore]);
        assert_eq!(
            wrapped,
            "type(\"catch_warnings\", (__import__(\"contextlib\").ContextDecorator, __import__(\"warnings\").catch_warnings), {})(record=True)(lambda: (__import__(\"warnings\").filterwarnings('error'), __import__(\"warnings\").filterwarnings('ignore', '', __import__(\"builtins\").DeprecationWarning), f(1) == 2)[-1])()"
        );
    }

    #[test]
    fn spells_categories_and_text() {
        assert_eq!(
            category_expr("pkg.sub.MyWarning"),
            "__import__('pkg.sub', fromlist=('MyWarning',)).MyWarning"
        );
        assert_eq!(py_string("é\"x"), "\"\\u00e9\\\"x\"");
        assert!(Filter::parse("error::a b", false).is_err());
    }
}
