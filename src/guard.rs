//! A guard against input nested deeper than the parser and the extractor can recurse safely.
//!
//! In a browser tab a stack overflow kills the page, so before parsing, a linear scan estimates how
//! deep each simple statement would nest — brackets, f-string replacement fields, operators and
//! expression keywords (`not`, `lambda`, `if`, …) within one element, and indentation — and blanks
//! any statement over [`MAX_DEPTH`] to `pass`, keeping every byte offset and line number. The
//! blanked statement is reported like a syntax error (and, if it was an `assert`, as a dropped
//! assertion); the rest of the file is still extracted.
//!
//! The scan keeps its own explicit stack (no recursion), so nesting cannot overflow it either.

use std::borrow::Cow;

/// The deepest nesting let through. CPython itself refuses more than 200 nested brackets.
pub const MAX_DEPTH: usize = 400;

/// A statement the guard removed: its byte range, and whether it was an `assert`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TooDeep {
    pub start: usize,
    pub end: usize,
    pub is_assert: bool,
}

/// Returns the source to parse (borrowed when nothing was too deep) and what was blanked.
pub fn guard(source: &str) -> (Cow<'_, str>, Vec<TooDeep>) {
    let deep = deep_statements(source.as_bytes());
    if deep.is_empty() {
        return (Cow::Borrowed(source), deep);
    }
    let mut bytes = source.as_bytes().to_vec();
    for d in &deep {
        for b in &mut bytes[d.start..d.end] {
            if *b != b'\n' && *b != b'\r' {
                *b = b' ';
            }
        }
        if d.end - d.start >= 4 {
            bytes[d.start..d.start + 4].copy_from_slice(b"pass");
        }
    }
    // Ranges start and end at ASCII bytes (a statement's first character, a newline or `;`), and
    // only bytes inside them changed, so the text stays UTF-8; the fallback is never expected.
    let text = String::from_utf8(bytes)
        .unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned());
    (Cow::Owned(text), deep)
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum LevelKind {
    Bracket,
    /// An f-string replacement field `{…}`.
    Field,
    /// A replacement field's format spec (`{x:{width}}`): text, with nested fields.
    Spec,
}

#[derive(Clone, Copy)]
struct Level {
    kind: LevelKind,
    /// Operators and expression keywords in the current element (reset by `,` and `:`).
    ops: usize,
    /// Inside `lambda …` before its `:`: commas separate parameters, not elements.
    lambda_params: bool,
}

#[derive(Clone, Copy)]
enum Mode {
    Code,
    /// Inside an f-string's literal text.
    FString {
        quote: u8,
        triple: bool,
    },
}

struct Scanner<'s> {
    src: &'s [u8],
    i: usize,
    modes: Vec<Mode>,
    levels: Vec<Level>,
    indent: usize,
    at_line_start: bool,
    stmt_start: Option<usize>,
    stmt_is_assert: bool,
    stmt_depth: usize,
    out: Vec<TooDeep>,
}

fn deep_statements(src: &[u8]) -> Vec<TooDeep> {
    let mut s = Scanner {
        src,
        i: 0,
        modes: vec![Mode::Code],
        levels: vec![Level {
            kind: LevelKind::Bracket,
            ops: 0,
            lambda_params: false,
        }],
        indent: 0,
        at_line_start: true,
        stmt_start: None,
        stmt_is_assert: false,
        stmt_depth: 0,
        out: Vec::new(),
    };
    s.run();
    s.out
}

impl Scanner<'_> {
    fn at_depth_zero(&self) -> bool {
        self.levels.len() == 1 && self.modes.len() == 1
    }

    fn depth(&self) -> usize {
        self.indent + self.levels.len() + self.levels.iter().map(|l| l.ops).sum::<usize>()
    }

    fn end_statement(&mut self, end: usize) {
        if let Some(start) = self.stmt_start.take() {
            if self.stmt_depth > MAX_DEPTH {
                self.out.push(TooDeep {
                    start,
                    end,
                    is_assert: self.stmt_is_assert,
                });
            }
        }
        self.stmt_depth = 0;
        self.stmt_is_assert = false;
        self.levels.truncate(1);
        self.levels[0].ops = 0;
        self.levels[0].lambda_params = false;
    }

    fn begin_token(&mut self, at: usize) {
        if self.stmt_start.is_none() {
            self.stmt_start = Some(at);
            self.stmt_is_assert = self.src[at..].starts_with(b"assert")
                && self
                    .src
                    .get(at + 6)
                    .is_none_or(|c| !(c.is_ascii_alphanumeric() || *c == b'_'));
        }
    }

    fn bump_ops(&mut self) {
        self.levels.last_mut().unwrap().ops += 1;
        self.stmt_depth = self.stmt_depth.max(self.depth());
    }

    /// A line end: `\n`, `\r\n` or a lone `\r`. Returns its length, or 0.
    fn newline_len(&self, at: usize) -> usize {
        match self.src.get(at) {
            Some(b'\n') => 1,
            Some(b'\r') if self.src.get(at + 1) == Some(&b'\n') => 2,
            Some(b'\r') => 1,
            _ => 0,
        }
    }

    fn run(&mut self) {
        let n = self.src.len();
        while self.i < n {
            match *self.modes.last().unwrap() {
                Mode::FString { quote, triple } => self.fstring_step(quote, triple),
                Mode::Code => self.code_step(),
            }
        }
        self.end_statement(n);
    }

    fn fstring_step(&mut self, quote: u8, triple: bool) {
        let c = self.src[self.i];
        let in_spec = self
            .levels
            .last()
            .is_some_and(|l| l.kind == LevelKind::Spec);
        if c == quote
            && (!triple || self.src[self.i..].starts_with(&[quote, quote, quote]))
            && !in_spec
        {
            self.i += if triple { 3 } else { 1 };
            self.modes.pop();
            return;
        }
        match c {
            b'\\' => self.i += 2,
            b'{' if self.src.get(self.i + 1) == Some(&b'{') && !in_spec => self.i += 2,
            b'}' if self.src.get(self.i + 1) == Some(&b'}') && !in_spec => self.i += 2,
            b'{' => {
                self.i += 1;
                self.levels.push(Level {
                    kind: LevelKind::Field,
                    ops: 0,
                    lambda_params: false,
                });
                self.stmt_depth = self.stmt_depth.max(self.depth());
                self.modes.push(Mode::Code);
            }
            b'}' if in_spec => {
                // The end of a format spec ends its field too.
                self.i += 1;
                self.levels.pop();
                self.levels.pop();
                self.modes.pop();
            }
            _ if !triple && self.newline_len(self.i) > 0 => {
                // An unterminated single-quoted string: the parser reports it; stop here.
                self.modes.pop();
            }
            _ => self.i += 1,
        }
    }

    /// One step of the scan in code: layout (indentation, newlines, comments, continuations,
    /// blanks), or one token.
    fn code_step(&mut self) {
        if self.layout_step() {
            return;
        }
        let c = self.src[self.i];
        self.begin_token(self.i);
        match c {
            b'\'' | b'"' => self.string(self.i, false),
            b'(' | b'[' | b'{' => self.open_bracket(),
            b')' | b']' | b'}' => self.close_bracket(),
            b',' => {
                let level = self.levels.last_mut().unwrap();
                if !level.lambda_params {
                    level.ops = 0;
                }
                self.i += 1;
            }
            b';' => {
                if self.at_depth_zero() {
                    self.end_statement(self.i);
                }
                self.i += 1;
            }
            b':' => self.colon(),
            b'+' | b'-' | b'*' | b'/' | b'%' | b'@' | b'&' | b'|' | b'^' | b'~' | b'<' | b'>'
            | b'=' | b'!' | b'.' => {
                self.bump_ops();
                self.i += 1;
            }
            c if c.is_ascii_alphabetic() || c == b'_' || c >= 0x80 => self.word(),
            _ => self.i += 1,
        }
    }

    /// Indentation, a newline (which may end a statement), a comment, a line continuation or a
    /// blank: consumed, and `true`; anything else is a token, and `false`.
    fn layout_step(&mut self) -> bool {
        let src = self.src;
        let c = src[self.i];
        if self.at_line_start {
            if c == b' ' || c == b'\t' || c == b'\x0c' {
                self.indent += 1;
                self.i += 1;
                return true;
            }
            self.at_line_start = false;
        }
        let nl = self.newline_len(self.i);
        if nl > 0 {
            if self.at_depth_zero() {
                self.end_statement(self.i);
                self.indent = 0;
                self.at_line_start = true;
            }
            self.i += nl;
            return true;
        }
        match c {
            b'#' => {
                while self.i < src.len() && self.newline_len(self.i) == 0 {
                    self.i += 1;
                }
                true
            }
            b'\\' if self.newline_len(self.i + 1) > 0 => {
                self.i += 1 + self.newline_len(self.i + 1);
                true
            }
            b' ' | b'\t' | b'\x0c' => {
                self.i += 1;
                true
            }
            _ => false,
        }
    }

    fn open_bracket(&mut self) {
        self.bump_ops();
        self.levels.push(Level {
            kind: LevelKind::Bracket,
            ops: 0,
            lambda_params: false,
        });
        self.stmt_depth = self.stmt_depth.max(self.depth());
        self.i += 1;
    }

    fn close_bracket(&mut self) {
        let top = self.levels.last().map(|l| l.kind);
        if self.src[self.i] == b'}' && top == Some(LevelKind::Field) {
            // The end of an f-string replacement field: back to the f-string's text.
            self.levels.pop();
            self.modes.pop();
        } else if self.levels.len() > 1 && top == Some(LevelKind::Bracket) {
            self.levels.pop();
        }
        self.i += 1;
    }

    /// A `:` ends a lambda's parameters, starts a format spec in an f-string field, or ends a
    /// compound statement's header (`def f(): body`: the body is a statement of its own).
    fn colon(&mut self) {
        let src = self.src;
        let field = self
            .levels
            .last()
            .is_some_and(|l| l.kind == LevelKind::Field);
        let level = self.levels.last_mut().unwrap();
        let lambda_colon = level.lambda_params;
        if lambda_colon {
            level.lambda_params = false;
        } else if field && src.get(self.i + 1) != Some(&b'=') {
            // A format spec: text with nested fields, up to the field's `}`.
            self.levels.push(Level {
                kind: LevelKind::Spec,
                ops: 0,
                lambda_params: false,
            });
            self.modes.pop();
            self.i += 1;
            return;
        } else {
            level.ops = 0;
        }
        if !lambda_colon && self.at_depth_zero() && src.get(self.i + 1) != Some(&b'=') {
            self.end_statement(self.i + 1);
        }
        self.i += 1;
    }

    /// A name or keyword (or a string prefix, which starts a string).
    fn word(&mut self) {
        let src = self.src;
        let start = self.i;
        while self.i < src.len()
            && (src[self.i].is_ascii_alphanumeric() || src[self.i] == b'_' || src[self.i] >= 0x80)
        {
            self.i += 1;
        }
        let word = &src[start..self.i];
        if matches!(src.get(self.i), Some(b'\'' | b'"')) && is_string_prefix(word) {
            let f = word.iter().any(|b| matches!(b, b'f' | b'F' | b't' | b'T'));
            self.string(self.i, f);
            return;
        }
        match word {
            b"lambda" => {
                self.bump_ops();
                self.levels.last_mut().unwrap().lambda_params = true;
            }
            b"not" | b"if" | b"else" | b"and" | b"or" | b"await" | b"in" | b"is" | b"yield" => {
                self.bump_ops()
            }
            _ => {}
        }
    }

    /// A string literal whose quote is at `at`; f-strings enter their own mode.
    fn string(&mut self, at: usize, f: bool) {
        let src = self.src;
        let quote = src[at];
        let triple = src[at..].starts_with(&[quote, quote, quote]);
        self.i = at + if triple { 3 } else { 1 };
        if f {
            self.modes.push(Mode::FString { quote, triple });
            return;
        }
        while self.i < src.len() {
            let c = src[self.i];
            if c == b'\\' {
                self.i += 2;
                continue;
            }
            if !triple && self.newline_len(self.i) > 0 {
                return;
            }
            if c == quote && (!triple || src[self.i..].starts_with(&[quote, quote, quote])) {
                self.i += if triple { 3 } else { 1 };
                return;
            }
            self.i += 1;
        }
    }
}

fn is_string_prefix(word: &[u8]) -> bool {
    word.len() <= 2
        && word
            .iter()
            .all(|b| matches!(b.to_ascii_lowercase(), b'r' | b'b' | b'u' | b'f' | b't'))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn deep(src: &str) -> Vec<TooDeep> {
        guard(src).1
    }

    #[test]
    fn shallow_code_is_untouched() {
        let src = "def test_a():\n    assert f([1, 2, 3]) == (4 + 5) * 6\n";
        let (out, d) = guard(src);
        assert!(d.is_empty());
        assert!(matches!(out, Cow::Borrowed(_)));
    }

    #[test]
    fn deep_nesting_is_blanked_keeping_offsets() {
        let deep_expr = format!("{}1{}", "(".repeat(5000), ")".repeat(5000));
        let src = format!("x = 1\ny = {deep_expr}\nz = 2\n");
        let (out, d) = guard(&src);
        assert_eq!(d.len(), 1);
        assert!(!d[0].is_assert);
        assert_eq!(out.len(), src.len());
        assert!(out.starts_with("x = 1\npass "));
        assert!(out.ends_with("\nz = 2\n"));
    }

    #[test]
    fn long_flat_lists_are_not_deep() {
        let items: Vec<String> = (0..20_000).map(|i| format!("-{i}.5")).collect();
        assert!(deep(&format!("DATA = [{}]\n", items.join(", "))).is_empty());
        let dict: Vec<String> = (0..5_000).map(|i| format!("'k{i}': not x")).collect();
        assert!(deep(&format!("D = {{{}}}\n", dict.join(", "))).is_empty());
    }

    #[test]
    fn long_operator_chains_and_lambda_chains_are_deep() {
        assert_eq!(deep(&format!("x = {}1\n", "1 + ".repeat(2000))).len(), 1);
        assert_eq!(
            deep(&format!(
                "assert f({}1) == 1\n",
                "lambda a, b: ".repeat(2000)
            ))
            .len(),
            1
        );
    }

    #[test]
    fn brackets_in_strings_and_comments_do_not_count() {
        let src = format!(
            "s = '{}'  # {}\nt = \"\"\"{}\n\"\"\"\n",
            "(".repeat(5000),
            "[".repeat(5000),
            "{".repeat(5000)
        );
        assert!(deep(&src).is_empty());
        assert!(deep(&format!("s = f'{}'\n", "(".repeat(5000))).is_empty());
    }

    #[test]
    fn f_string_fields_are_code() {
        let src = format!(
            "assert f(f\"{{{}1{}}}\")\n",
            "[".repeat(3000),
            "]".repeat(3000)
        );
        let d = deep(&src);
        assert_eq!(d.len(), 1);
        assert!(d[0].is_assert);
        assert!(
            deep("x = f'{a:{width}.{prec}}' + f\"{{literal}}\" + f'{b!r:>10}'\ny = 1\n").is_empty()
        );
    }

    #[test]
    fn every_line_ending_and_continuation_counts() {
        for nl in ["\n", "\r\n", "\r"] {
            let src = format!("x = 1{nl}def test_a():{nl}    assert f(1) == 1{nl}");
            assert!(deep(&src).is_empty(), "{nl:?}");
            let cont = format!(
                "assert {}f(1){nl}y = 2{nl}",
                format!("not \\{nl}").repeat(2000)
            );
            let d = deep(&cont);
            assert_eq!(d.len(), 1, "{nl:?}");
            assert!(d[0].is_assert);
        }
    }

    #[test]
    fn a_lambda_at_statement_level_is_one_statement() {
        let src = format!("f = lambda: {}1{}\n", "(".repeat(900), ")".repeat(900));
        let (out, d) = guard(&src);
        assert_eq!(d.len(), 1);
        assert!(out.starts_with("pass "));
    }

    #[test]
    fn only_the_deep_statement_is_blanked() {
        let src = format!(
            "def test_a(): assert {}1{}; assert f(3) == 3\n",
            "(".repeat(900),
            ")".repeat(900)
        );
        let (out, d) = guard(&src);
        assert_eq!(d.len(), 1);
        assert!(d[0].is_assert);
        assert!(out.starts_with("def test_a(): pass "), "{}", &out[..30]);
        assert!(out.ends_with("; assert f(3) == 3\n"));
    }
}
