//! Whether Python's `re.compile` accepts a pattern (Python 3.11's `sre_parse`), as far as the
//! extractor reads it: pytest compiles a warning filter's message and module fields and stops with
//! a usage error when one does not compile (`parse_warning_filter`).

/// What `re.compile` does with a pattern.
#[derive(Debug, PartialEq, Eq)]
pub enum Compiles {
    Yes,
    /// It raises `re.error`: why.
    No(String),
    /// A construct whose validity the extractor does not decide (look-behind widths, conditional
    /// groups, back-references, inline flags after the start).
    Unsure(String),
}

/// Reads `pattern` as `sre_parse` does, for the errors it raises.
pub fn compiles(pattern: &str) -> Compiles {
    let chars: Vec<char> = pattern.chars().collect();
    let mut i = 0;
    // Open groups; whether the last item can take a repeat, and whether it already is one.
    let mut depth = 0usize;
    let mut repeatable = false;
    let mut repeated = false;
    let mut names: Vec<String> = Vec::new();
    let unsure = |what: &str| Compiles::Unsure(what.to_string());
    while i < chars.len() {
        let c = chars[i];
        i += 1;
        match c {
            '\\' => {
                let Some(&e) = chars.get(i) else {
                    return Compiles::No("bad escape (end of pattern)".into());
                };
                i += 1;
                if e.is_ascii_digit() {
                    return unsure("a back-reference or an octal escape");
                }
                if e.is_ascii_alphabetic() {
                    match e {
                        'a' | 'b' | 'B' | 'A' | 'Z' | 'd' | 'D' | 's' | 'S' | 'w' | 'W' | 'f'
                        | 'n' | 'r' | 't' | 'v' => {}
                        'x' | 'u' | 'U' | 'N' => return unsure("a character escape with a code"),
                        _ => return Compiles::No(format!("bad escape \\{e}")),
                    }
                }
                let anchor = matches!(e, 'b' | 'B' | 'A' | 'Z');
                repeatable = !anchor;
                repeated = false;
                if anchor {
                    // An anchor cannot be repeated either ("nothing to repeat").
                    repeatable = false;
                }
            }
            '[' => {
                // A set: an optional `^`, a `]` first is literal, up to the closing `]`.
                if chars.get(i) == Some(&'^') {
                    i += 1;
                }
                let start = i;
                let mut prev: Option<char> = None;
                loop {
                    let Some(&s) = chars.get(i) else {
                        return Compiles::No("unterminated character set".into());
                    };
                    i += 1;
                    if s == ']' && i - 1 > start {
                        break;
                    }
                    let item = if s == '\\' {
                        let Some(&e) = chars.get(i) else {
                            return Compiles::No("unterminated character set".into());
                        };
                        i += 1;
                        if e.is_ascii_alphanumeric()
                            && !matches!(
                                e,
                                'd' | 'D'
                                    | 's'
                                    | 'S'
                                    | 'w'
                                    | 'W'
                                    | 'a'
                                    | 'b'
                                    | 'f'
                                    | 'n'
                                    | 'r'
                                    | 't'
                                    | 'v'
                            )
                        {
                            return unsure("an escape inside a character set");
                        }
                        if matches!(e, 'd' | 'D' | 's' | 'S' | 'w' | 'W') {
                            None
                        } else {
                            Some(e)
                        }
                    } else if s == '[' && matches!(chars.get(i), Some(':' | '.' | '=')) {
                        return unsure("a possible POSIX class in a set");
                    } else {
                        Some(s)
                    };
                    // A range `a-z` (a `-` before the closing `]` is literal).
                    if let (Some(lo), Some('-')) = (item, chars.get(i)) {
                        if chars.get(i + 1).is_some_and(|&n| n != ']') {
                            let hi = chars[i + 1];
                            if hi == '\\' || hi == '[' {
                                return unsure("a range ending in an escape");
                            }
                            i += 2;
                            if hi < lo {
                                return Compiles::No(format!("bad character range {lo}-{hi}"));
                            }
                            prev = None;
                            continue;
                        }
                    }
                    // A class escape (`\d`) cannot start a range.
                    if item.is_none()
                        && chars.get(i) == Some(&'-')
                        && chars.get(i + 1).is_some_and(|&n| n != ']')
                    {
                        return Compiles::No("bad character range".into());
                    }
                    prev = item;
                }
                let _ = prev;
                repeatable = true;
                repeated = false;
            }
            '(' => {
                if chars.get(i) == Some(&'?') {
                    i += 1;
                    match chars.get(i) {
                        Some(':') | Some('=') | Some('!') => i += 1,
                        Some('P') if chars.get(i + 1) == Some(&'<') => {
                            i += 2;
                            let name_start = i;
                            while chars.get(i).is_some_and(|&n| n != '>') {
                                i += 1;
                            }
                            let name: String =
                                chars[name_start..i.min(chars.len())].iter().collect();
                            if chars.get(i).is_none() {
                                return Compiles::No("missing >, unterminated name".into());
                            }
                            i += 1;
                            let ok = name
                                .chars()
                                .next()
                                .is_some_and(|f| f.is_alphabetic() || f == '_')
                                && name.chars().all(|n| n.is_alphanumeric() || n == '_');
                            if !ok {
                                return Compiles::No(format!(
                                    "bad character in group name {name:?}"
                                ));
                            }
                            if names.contains(&name) {
                                return Compiles::No(format!(
                                    "redefinition of group name {name:?}"
                                ));
                            }
                            names.push(name);
                        }
                        Some('#') => {
                            // A comment, up to the next `)`.
                            while chars.get(i).is_some_and(|&n| n != ')') {
                                i += 1;
                            }
                            if chars.get(i).is_none() {
                                return Compiles::No("missing ), unterminated comment".into());
                            }
                            i += 1;
                            // A comment adds nothing: a repeat after it repeats what came before.
                            continue;
                        }
                        Some(_) => return unsure("a group extension"),
                        None => return Compiles::No("unexpected end of pattern".into()),
                    }
                }
                depth += 1;
                repeatable = false;
                repeated = false;
            }
            ')' => {
                if depth == 0 {
                    return Compiles::No("unbalanced parenthesis".into());
                }
                depth -= 1;
                repeatable = true;
                repeated = false;
            }
            '|' => {
                repeatable = false;
                repeated = false;
            }
            '^' | '$' => {
                repeatable = false;
                repeated = false;
            }
            '*' | '+' | '?' | '{' => {
                if c == '{' {
                    // `{m,n}` with digits is a repeat; anything else is a literal `{`.
                    let close = chars[i..].iter().position(|&n| n == '}');
                    let body: Option<String> = close.map(|p| chars[i..i + p].iter().collect());
                    let is_repeat = body.as_ref().is_some_and(|b| {
                        let (lo, hi) = b.split_once(',').unwrap_or((b, b));
                        lo.chars().all(|d| d.is_ascii_digit())
                            && hi.chars().all(|d| d.is_ascii_digit())
                            && (!lo.is_empty() || b.contains(','))
                    });
                    if !is_repeat {
                        repeatable = true;
                        repeated = false;
                        continue;
                    }
                    let b = body.unwrap_or_default();
                    let (lo, hi) = b.split_once(',').unwrap_or((&b, &b));
                    let too_large = |d: &str| d.len() > 9;
                    if too_large(lo) || too_large(hi) {
                        return unsure("a repeat count near Python's limit");
                    }
                    if let (Ok(lo), Ok(hi)) = (lo.parse::<u64>(), hi.parse::<u64>()) {
                        if hi < lo {
                            return Compiles::No("min repeat greater than max repeat".into());
                        }
                    }
                    i += close.unwrap_or(0) + 1;
                }
                if repeated {
                    return Compiles::No("multiple repeat".into());
                }
                if !repeatable {
                    return Compiles::No("nothing to repeat".into());
                }
                // A lazy `?` or possessive `+` right after belongs to this repeat.
                if matches!(chars.get(i), Some('?') | Some('+')) {
                    i += 1;
                }
                repeated = true;
            }
            _ => {
                repeatable = true;
                repeated = false;
            }
        }
    }
    if depth > 0 {
        return Compiles::No("missing ), unterminated subpattern".into());
    }
    Compiles::Yes
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_as_sre_parse() {
        for ok in [
            "",
            "bad regex",
            "The x module.*",
            r"a\.b\Z",
            "[a-z]+",
            "[]a]",
            "(?:x|y)*?",
            "(?P<n>x)",
            "a{2,3}",
            "a{,3}",
            "{x}",
            "a{",
            "[(]",
            "x(?#c)y",
            "x(?#c)*",
            "[\\d-]",
        ] {
            assert_eq!(compiles(ok), Compiles::Yes, "{ok}");
        }
        for bad in [
            "bad(regex",
            "re.compile(",
            "a)",
            "*a",
            "a**",
            "[abc",
            "[z-a]",
            r"\q",
            "a\\",
            "a{3,2}",
            "(?P<1>x)",
            "|*",
            "[\\d-z]",
            "(?P<a>x)(?P<a>y)",
        ] {
            assert!(matches!(compiles(bad), Compiles::No(_)), "{bad}");
        }
        assert!(matches!(compiles(r"(a)\1"), Compiles::Unsure(_)));
        assert!(matches!(compiles("(?<=ab)c"), Compiles::Unsure(_)));
    }
}
