//! The marks of a test as collection reads them: the module's and classes' `pytestmark` and
//! decorators, what each mark says (skip, xfail, `usefixtures`, `parametrize`, a decorator that is
//! not a mark), and the marks of a `pytest.param` case.

use ruff_python_ast::{self as ast, Expr, Stmt};
use ruff_text_size::Ranged;

use crate::module::ModuleScope;
use crate::pytest::value::{Place, PyValue};
use crate::rules::{Collection, Reason};
use crate::source::SourceMap;

use super::fixtures::Fixtures;
use super::{kept, CaseReason, Collector, Parametrize};

/// A mark expression and where it is evaluated.
#[derive(Clone, Copy)]
pub(super) struct Mark<'a> {
    pub(super) expr: &'a Expr,
    pub(super) place: Place<'a>,
    /// A decorator of the test function itself.
    pub(super) own: bool,
}

pub(super) fn pytestmark(body: &[Stmt]) -> Vec<&Expr> {
    let mut marks = Vec::new();
    for stmt in body {
        if let Stmt::Assign(a) = stmt {
            if matches!(a.targets.as_slice(), [Expr::Name(n)] if n.id.as_str() == "pytestmark") {
                match a.value.as_ref() {
                    Expr::List(l) => marks.extend(l.elts.iter()),
                    Expr::Tuple(t) => marks.extend(t.elts.iter()),
                    other => marks.push(other),
                }
            }
        }
    }
    marks
}

/// A class's marks: its body's `pytestmark`, then its decorators bottom-up (evaluated where the
/// class statement runs), then the enclosing scopes' marks.
pub(super) fn class_marks<'a>(
    c: &'a ast::StmtClassDef,
    class_body: Option<&'a [Stmt]>,
    outer_marks: &[Mark<'a>],
) -> Vec<Mark<'a>> {
    let mut marks: Vec<Mark<'a>> = Vec::new();
    for s in &c.body {
        let Stmt::Assign(a) = s else { continue };
        if !matches!(a.targets.as_slice(), [Expr::Name(n)] if n.id.as_str() == "pytestmark") {
            continue;
        }
        let place = Place {
            class: Some(&c.body),
            before: s.range().start(),
        };
        let exprs: Vec<&'a Expr> = match a.value.as_ref() {
            Expr::List(l) => l.elts.iter().collect(),
            Expr::Tuple(t) => t.elts.iter().collect(),
            other => vec![other],
        };
        marks.extend(exprs.into_iter().map(|expr| Mark {
            expr,
            place,
            own: false,
        }));
    }
    let place = Place {
        class: class_body,
        before: c.range.start(),
    };
    marks.extend(c.decorator_list.iter().rev().map(|d| Mark {
        expr: &d.expression,
        place,
        own: false,
    }));
    marks.extend(outer_marks.iter().copied());
    marks
}

impl<'s, 'a> Collector<'s, 'a> {
    /// What one mark (or other decorator) of a test says: pushed onto `read`.
    pub(super) fn read_mark(
        &self,
        mark: &Mark<'a>,
        fixtures: &Fixtures<'a>,
        read: &mut MarksRead<'a>,
    ) -> Result<(), String> {
        let map = self.map;
        let line = map.line(mark.expr.range().start());
        let Some(path) = self.scope.pytest_path(mark.expr) else {
            // A decorator that is not a pytest mark may change how the test runs (mock.patch,
            // hypothesis, retries): the extractor cannot reproduce it.
            let harmless = matches!(mark.expr, Expr::Name(n) if matches!(n.id.as_str(), "staticmethod" | "classmethod"));
            if mark.own && !harmless {
                read.not_run
                    .get_or_insert(Collection::TestDecorated.because(format!(
                    "the test is decorated with `@{}` (line {line}), which may change how it runs",
                    map.snippet(mark.expr.range())
                )));
            }
            return Ok(());
        };
        // Name the decorator as written when it is an alias (`@skip_me`).
        let written = map.snippet(mark.expr.range());
        let via = if written.starts_with("pytest.") || written.starts_with("mark.") {
            String::new()
        } else {
            format!(" through `@{written}`")
        };
        match path.as_str() {
            "pytest.mark.usefixtures" => self.read_usefixtures(mark, line, read)?,
            "pytest.mark.parametrize" => {
                let Expr::Call(call) = mark.expr else {
                    return Err(format!(
                        "`parametrize` on line {line} has no arguments: pytest fails to collect it"
                    ));
                };
                read.parametrizes
                    .push(self.parse_parametrize(call, mark.place, fixtures)?);
            }
            other => {
                if let Some(why) = mark_not_run(other, &via, line) {
                    read.not_run.get_or_insert(why);
                }
            }
        }
        Ok(())
    }

    /// `usefixtures(...)`: a setup step, and the fixtures it names.
    fn read_usefixtures(
        &self,
        mark: &Mark<'a>,
        line: u32,
        read: &mut MarksRead<'a>,
    ) -> Result<(), String> {
        read.setup.push((
            line,
            kept(Collection::UsefixturesNotReplayed.because(format!(
                "`usefixtures` (line {line}) runs fixtures before the test"
            ))),
        ));
        if let Expr::Call(call) = mark.expr {
            for arg in call.arguments.args.iter() {
                match self.eval.eval(arg, mark.place) {
                    PyValue::Str(s) => read.usefixtures.push(s),
                    _ => {
                        return Err(format!(
                            "`usefixtures` on line {line} names fixtures the file computes"
                        ))
                    }
                }
            }
        }
        Ok(())
    }
}

/// What the marks of a test say, read in pytest's order.
#[derive(Default)]
pub(super) struct MarksRead<'a> {
    pub(super) not_run: Option<Reason>,
    pub(super) setup: Vec<(u32, CaseReason)>,
    pub(super) parametrizes: Vec<Parametrize<'a>>,
    pub(super) usefixtures: Vec<String>,
}

/// Why a mark (`skip`, `skipif`, `xfail`) keeps pytest from passing
/// the test as written.
fn mark_not_run(path: &str, via: &str, line: u32) -> Option<Reason> {
    match path {
        "pytest.mark.skip" => Some(Collection::SkipMark.because(format!(
            "marked `skip`{via} (line {line}): pytest does not run it"
        ))),
        "pytest.mark.skipif" => Some(Collection::SkipMark.because(format!(
            "marked `skipif`{via} (line {line}): pytest may not run it"
        ))),
        "pytest.mark.xfail" => Some(Collection::XfailMark.because(format!(
            "marked `xfail`{via} (line {line}): pytest expects it to fail"
        ))),
        // `filterwarnings` marks, like `-m`, are read per test by `extract::session`.
        _ => None,
    }
}

pub(super) fn case_marks(expr: &Expr, scope: &ModuleScope, map: &SourceMap) -> Option<Reason> {
    let marks: Vec<&Expr> = match expr {
        Expr::List(l) => l.elts.iter().collect(),
        Expr::Tuple(t) => t.elts.iter().collect(),
        other => vec![other],
    };
    for mark in marks {
        let line = map.line(mark.range().start());
        match scope.pytest_path(mark).as_deref() {
            Some("pytest.mark.skip") => {
                return Some(
                    Collection::SkipMark
                        .because(format!("this case is marked `skip` (line {line})")),
                )
            }
            Some("pytest.mark.skipif") => {
                return Some(Collection::SkipMark.because(format!(
                    "this case is marked `skipif` (line {line}): pytest may not run it"
                )))
            }
            Some("pytest.mark.xfail") => {
                return Some(Collection::XfailMark.because(format!(
                    "this case is marked `xfail` (line {line}): pytest expects it to fail"
                )))
            }
            _ => {}
        }
    }
    None
}
