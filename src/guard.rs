//! A guard against input nested deeper than the parser and the extractor can recurse safely.
//!
//! In a browser tab a stack overflow kills the page, so before parsing, a linear scan estimates how
//! deep each logical line would nest (brackets, operators and expression keywords between commas, plus
//! indentation) and blanks out any line over [`MAX_DEPTH`], keeping every byte offset and line number.
//! The blanked statement is reported like a syntax error; the rest of the file is still extracted.

use std::borrow::Cow;

/// The deepest nesting let through. CPython itself refuses more than 200 nested brackets.
pub const MAX_DEPTH: usize = 400;

/// A statement the guard removed: its byte range and its estimated depth.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TooDeep {
    pub start: usize,
    pub end: usize,
    pub depth: usize,
}

/// Returns the source to parse (borrowed when nothing was too deep) and what was blanked.
pub fn guard(source: &str) -> (Cow<'_, str>, Vec<TooDeep>) {
    let lines = deep_lines(source.as_bytes());
    if lines.is_empty() {
        return (Cow::Borrowed(source), lines);
    }
    let mut bytes = source.as_bytes().to_vec();
    for deep in &lines {
        for b in &mut bytes[deep.start..deep.end] {
            if *b != b'\n' && *b != b'\r' {
                *b = b' ';
            }
        }
        let pass = b"pass";
        if deep.end - deep.start >= pass.len() {
            bytes[deep.start..deep.start + pass.len()].copy_from_slice(pass);
        }
    }
    // Only ASCII bytes inside blanked ranges changed; a multi-byte character cut at a range edge
    // cannot occur because ranges start and end at ASCII positions (line starts and newlines).
    let text = String::from_utf8(bytes)
        .unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned());
    (Cow::Owned(text), lines)
}

fn deep_lines(src: &[u8]) -> Vec<TooDeep> {
    let mut out = Vec::new();
    let mut i = 0;
    let n = src.len();
    // Per bracket level: operator count of the current element.
    let mut stack: Vec<usize> = vec![0];
    let mut line_start: Option<usize> = None;
    let mut indent = 0usize;
    let mut at_line_start = true;
    let mut max_depth = 0usize;
    let end_line = |out: &mut Vec<TooDeep>, start: Option<usize>, end: usize, depth: usize| {
        if let Some(start) = start {
            if depth > MAX_DEPTH {
                out.push(TooDeep { start, end, depth });
            }
        }
    };
    while i < n {
        let c = src[i];
        if at_line_start {
            if c == b' ' || c == b'\t' {
                indent += 1;
                i += 1;
                continue;
            }
            at_line_start = false;
        }
        match c {
            b'\n' => {
                if stack.len() == 1 {
                    end_line(&mut out, line_start, i, max_depth);
                    line_start = None;
                    max_depth = 0;
                    stack[0] = 0;
                    indent = 0;
                    at_line_start = true;
                }
                i += 1;
                continue;
            }
            b'#' => {
                while i < n && src[i] != b'\n' {
                    i += 1;
                }
                continue;
            }
            b'\\' if i + 1 < n && src[i + 1] == b'\n' => {
                i += 2;
                continue;
            }
            _ => {}
        }
        if line_start.is_none() && !c.is_ascii_whitespace() {
            line_start = Some(i);
        }
        match c {
            b'\'' | b'"' => {
                i = skip_string(src, i);
                continue;
            }
            b'(' | b'[' | b'{' => {
                *stack.last_mut().unwrap() += 1;
                stack.push(0);
            }
            b')' | b']' | b'}' if stack.len() > 1 => {
                stack.pop();
            }
            b',' | b';' => *stack.last_mut().unwrap() = 0,
            b'+' | b'-' | b'*' | b'/' | b'%' | b'@' | b'&' | b'|' | b'^' | b'~' | b'<' | b'>'
            | b'=' | b'!' | b'.' | b':' => {
                *stack.last_mut().unwrap() += 1;
            }
            c if c.is_ascii_alphabetic() || c == b'_' => {
                let start = i;
                while i < n && (src[i].is_ascii_alphanumeric() || src[i] == b'_') {
                    i += 1;
                }
                if matches!(
                    &src[start..i],
                    b"not"
                        | b"lambda"
                        | b"if"
                        | b"else"
                        | b"and"
                        | b"or"
                        | b"await"
                        | b"in"
                        | b"is"
                        | b"yield"
                ) {
                    *stack.last_mut().unwrap() += 1;
                }
                // A string prefix (f"", rb'') is followed by its quote: handled next round.
                let depth = indent + stack.iter().sum::<usize>() + stack.len();
                max_depth = max_depth.max(depth);
                continue;
            }
            _ => {}
        }
        let depth = indent + stack.iter().sum::<usize>() + stack.len();
        max_depth = max_depth.max(depth);
        i += 1;
    }
    end_line(&mut out, line_start, n, max_depth);
    out
}

/// Skip a string literal starting at a quote; returns the index after it.
fn skip_string(src: &[u8], start: usize) -> usize {
    let q = src[start];
    let n = src.len();
    let triple = start + 2 < n && src[start + 1] == q && src[start + 2] == q;
    let mut i = start + if triple { 3 } else { 1 };
    while i < n {
        match src[i] {
            b'\\' => i += 2,
            b'\n' if !triple => return i,
            c if c == q => {
                if !triple {
                    return i + 1;
                }
                if i + 2 < n && src[i + 1] == q && src[i + 2] == q {
                    return i + 3;
                }
                i += 1;
            }
            _ => i += 1,
        }
    }
    n
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shallow_code_is_untouched() {
        let src = "def test_a():\n    assert f([1, 2, 3]) == (4 + 5) * 6\n";
        let (out, deep) = guard(src);
        assert!(deep.is_empty());
        assert!(matches!(out, Cow::Borrowed(_)));
    }

    #[test]
    fn deep_nesting_is_blanked_keeping_offsets() {
        let deep_expr = format!("{}1{}", "(".repeat(5000), ")".repeat(5000));
        let src = format!("x = 1\ny = {deep_expr}\nz = 2\n");
        let (out, deep) = guard(&src);
        assert_eq!(deep.len(), 1);
        assert_eq!(out.len(), src.len());
        assert!(out.starts_with("x = 1\npass "));
        assert!(out.ends_with("\nz = 2\n"));
        assert!(deep[0].depth > MAX_DEPTH);
    }

    #[test]
    fn long_flat_lists_are_not_deep() {
        let items: Vec<String> = (0..20_000).map(|i| format!("-{i}.5")).collect();
        let src = format!("DATA = [{}]\n", items.join(", "));
        assert!(guard(&src).1.is_empty());
    }

    #[test]
    fn long_operator_chains_are_deep() {
        let src = format!("x = {}1\n", "1 + ".repeat(2000));
        assert_eq!(guard(&src).1.len(), 1);
    }

    #[test]
    fn brackets_in_strings_and_comments_do_not_count() {
        let src = format!("s = '{}'  # {}\n", "(".repeat(5000), "[".repeat(5000));
        assert!(guard(&src).1.is_empty());
    }
}
