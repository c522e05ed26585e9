//! The file's syntax errors: what the depth guard skipped, the parser's errors, and starred
//! expressions CPython rejects at compile time.

use ruff_python_ast::{self as ast, Stmt};
use ruff_text_size::{TextRange, TextSize};

use crate::guard;
use crate::model::SyntaxError;
use crate::source::SourceMap;
use crate::walk::{self, Scope};

/// The statements the depth guard skipped, then the parser's errors.
pub(super) fn syntax_errors(
    map: &SourceMap,
    too_deep: &[guard::TooDeep],
    parse_errors: &[ruff_python_parser::ParseError],
) -> Vec<SyntaxError> {
    let mut syntax_errors: Vec<SyntaxError> = too_deep
        .iter()
        .map(|d| {
            let (line, column) = map.line_column(TextSize::new(d.start as u32));
            SyntaxError {
                line,
                column,
                message: format!(
                    "this statement nests more than {} levels deep; the extractor skipped it to protect the page",
                    guard::MAX_DEPTH
                ),
                start: d.start as u32,
                end: d.end as u32,
            }
        })
        .collect();
    for error in parse_errors {
        let (line, column) = map.line_column(error.location.start());
        syntax_errors.push(SyntaxError {
            line,
            column,
            message: error.error.to_string(),
            start: error.location.start().to_u32(),
            end: error.location.end().to_u32(),
        });
    }
    syntax_errors
}

pub(super) fn starred_error(map: &SourceMap, range: TextRange) -> SyntaxError {
    let (line, column) = map.line_column(range.start());
    SyntaxError {
        line,
        column,
        message: "a starred expression cannot be used here (CPython refuses to compile it)".into(),
        start: range.start().to_u32(),
        end: range.end().to_u32(),
    }
}

/// `x = *a`, `*a` as a statement, `assert *a`, `return *a`: a starred expression that is not an
/// element of a tuple, list or call, which CPython rejects at compile time.
pub(super) fn misplaced_starred(body: &[Stmt]) -> Vec<TextRange> {
    let mut out = Vec::new();
    walk::for_each_stmt(body, Scope::All, |stmt| {
        let value = match stmt {
            Stmt::Assign(a) => Some(a.value.as_ref()),
            Stmt::AnnAssign(a) => a.value.as_deref(),
            Stmt::AugAssign(a) => Some(a.value.as_ref()),
            Stmt::Expr(e) => Some(e.value.as_ref()),
            Stmt::Assert(a) => Some(a.test.as_ref()),
            Stmt::Return(r) => r.value.as_deref(),
            _ => None,
        };
        if let Some(ast::Expr::Starred(s)) = value {
            out.push(s.range);
        }
    });
    out
}
