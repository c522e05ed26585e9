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

pub(super) fn async_outside_error(
    map: &SourceMap,
    (range, what): (TextRange, &str),
) -> SyntaxError {
    let (line, column) = map.line_column(range.start());
    SyntaxError {
        line,
        column,
        message: format!("'{what}' outside async function (CPython refuses to compile it)"),
        start: range.start().to_u32(),
        end: range.end().to_u32(),
    }
}

/// `async for` and `async with` statements outside an `async def` (at module level, in a class
/// body, in a plain `def`), which CPython rejects at compile time ("'async for' outside async
/// function") and ruff's parser accepts: pytest cannot import such a file.
pub(super) fn async_outside_async_function(body: &[Stmt]) -> Vec<(TextRange, &'static str)> {
    fn visit(body: &[Stmt], in_async: bool, out: &mut Vec<(TextRange, &'static str)>) {
        for stmt in body {
            match stmt {
                Stmt::FunctionDef(f) => visit(&f.body, f.is_async, out),
                Stmt::ClassDef(c) => visit(&c.body, false, out),
                Stmt::For(f) => {
                    if f.is_async && !in_async {
                        out.push((f.range, "async for"));
                    }
                    visit(&f.body, in_async, out);
                    visit(&f.orelse, in_async, out);
                }
                Stmt::With(w) => {
                    if w.is_async && !in_async {
                        out.push((w.range, "async with"));
                    }
                    visit(&w.body, in_async, out);
                }
                Stmt::While(w) => {
                    visit(&w.body, in_async, out);
                    visit(&w.orelse, in_async, out);
                }
                Stmt::If(i) => {
                    visit(&i.body, in_async, out);
                    for clause in &i.elif_else_clauses {
                        visit(&clause.body, in_async, out);
                    }
                }
                Stmt::Try(t) => {
                    visit(&t.body, in_async, out);
                    for handler in &t.handlers {
                        let ast::ExceptHandler::ExceptHandler(h) = handler;
                        visit(&h.body, in_async, out);
                    }
                    visit(&t.orelse, in_async, out);
                    visit(&t.finalbody, in_async, out);
                }
                Stmt::Match(m) => {
                    for case in &m.cases {
                        visit(&case.body, in_async, out);
                    }
                }
                _ => {}
            }
        }
    }
    let mut out = Vec::new();
    visit(body, false, &mut out);
    out
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

#[cfg(test)]
mod tests {
    use super::*;

    /// The lines of the `async for`/`async with` CPython refuses in `source`, with what they are.
    fn refused(source: &str) -> Vec<(usize, &'static str)> {
        let parsed = ruff_python_parser::parse_module(source).expect("parses");
        async_outside_async_function(&parsed.syntax().body)
            .into_iter()
            .map(|(range, what)| {
                let line = source[..range.start().to_usize()].matches('\n').count() + 1;
                (line, what)
            })
            .collect()
    }

    #[test]
    fn async_statements_outside_an_async_def_are_refused_as_cpython_refuses_them() {
        let source = "\
async for x in xs:
    pass
class C:
    async with m:
        pass
def f():
    if x:
        async for y in ys:
            pass
async def g():
    async for z in zs:
        async with m:
            pass
    def inner():
        async with m:
            pass
    class D:
        async for w in ws:
            pass
    while x:
        try:
            async for v in vs:
                pass
        except E:
            pass
";
        assert_eq!(
            refused(source),
            vec![
                (1, "async for"),
                (4, "async with"),
                (8, "async for"),
                (15, "async with"),
                (18, "async for"),
            ]
        );
    }
}
