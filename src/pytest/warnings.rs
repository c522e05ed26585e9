//! pytest's warning filters (`filterwarnings` lines, `-W`, `filterwarnings` marks), read as
//! pytest reads them (`parse_warning_filter`). pytest applies them in that order, each inserted at
//! the front; a warning fails a test exactly when the first filter it matches has the action
//! `error`, so only whether some filter can turn a warning into an error matters to the extractor
//! (`pytest::session`).

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
}
