//! The marks of a test as collection reads them: the module's and classes' `pytestmark` and
//! decorators, what each mark says (skip, xfail, `usefixtures`, `parametrize`, a decorator that is
//! not a mark), and the marks of a `pytest.param` case.

use ruff_python_ast::{self as ast, Expr, Stmt};
use ruff_text_size::Ranged;

use crate::module::{Global, ModuleScope};
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

/// What the decorators of a test function or class that are not pytest marks do to `__test__`,
/// which pytest reads on the object they leave under the test's name (`getattr(obj, "__test__",
/// True)`; a class's `Class.collect`): a false value makes pytest collect nothing under it, and
/// decorators such as nose's `nottest` set it.
#[derive(Debug, PartialEq, Eq)]
pub(super) enum TestAttr {
    /// As far as the file shows, none sets it: pytest collects the test (whatever else the
    /// decorators do is for the marks to judge).
    Untouched,
    /// A decorator of the file visibly sets it to a false value on what it decorates, and returns
    /// that: pytest does not collect the test.
    False,
    /// A decorator may set it (code the file does not show, or a body the extractor does not
    /// follow): whether pytest collects the test, and so its ids, is not known. Why.
    Unknown(String),
}

/// One decorator's part in [`TestAttr`].
enum OneDecorator {
    Mark,
    Untouched,
    False,
    Unknown(String),
}

/// How deep the analysis follows the file's functions that a decorator calls.
const DECORATOR_DEPTH: usize = 4;

impl<'s, 'a> Collector<'s, 'a> {
    /// [`TestAttr`] for the decorators of a test (outermost first, as written), evaluated where
    /// the `def` or `class` statement runs (`class_body`: the class body around it, whose names
    /// come before the module's).
    pub(super) fn decorators_test_attr(
        &self,
        decorators: &'a [ast::Decorator],
        class_body: Option<&'a [Stmt]>,
    ) -> TestAttr {
        self.applied_test_attr(decorators.iter().map(|d| &d.expression), class_body)
    }

    /// [`TestAttr`] for callables applied to a test in turn, outermost first: its decorators, or
    /// the call of a rebinding after the `def` (`test_x = nottest(test_x)`).
    pub(super) fn applied_test_attr(
        &self,
        applied: impl Iterator<Item = &'a Expr>,
        class_body: Option<&'a [Stmt]>,
    ) -> TestAttr {
        // An outer decorator the file shows not to set `__test__` still replaces the object: whether
        // what it returns keeps the attribute an inner one set (a `functools.wraps` copy) is not known.
        let mut above: Option<&Expr> = None;
        let at = |e: &Expr| {
            format!(
                "`@{}` (line {})",
                self.map.snippet(e.range()),
                self.map.line(e.range().start())
            )
        };
        for d in applied {
            match self.decorator_test_attr(d, class_body) {
                OneDecorator::Mark => {}
                OneDecorator::Untouched => {
                    above.get_or_insert(d);
                }
                OneDecorator::False => {
                    return match above {
                        None => TestAttr::False,
                        Some(a) => TestAttr::Unknown(format!(
                            "{} sets `__test__` to a false value, so that pytest does not collect the test, and whether {} above it keeps that attribute is not known",
                            at(d),
                            at(a),
                        )),
                    };
                }
                OneDecorator::Unknown(why) => return TestAttr::Unknown(format!("{} {why}", at(d))),
            }
        }
        TestAttr::Untouched
    }

    fn decorator_test_attr(&self, d: &'a Expr, class_body: Option<&'a [Stmt]>) -> OneDecorator {
        const MAY_SET: &str = "may set `__test__` to a false value (as nose's `nottest` does), and pytest then does not collect the test";
        if self.scope.pytest_path(d).is_some() {
            return OneDecorator::Mark;
        }
        let (callee, called) = match d {
            Expr::Call(c) => (c.func.as_ref(), true),
            other => (other, false),
        };
        let Some(dotted) = crate::module::dotted_name(callee) else {
            return OneDecorator::Unknown(format!(
                "is an expression the extractor does not follow: it {MAY_SET}"
            ));
        };
        let root = dotted.split('.').next().unwrap_or_default();
        let plain = root == dotted;
        if self.scope.mark_aliases.contains(root) && class_body_binding(class_body, root).is_none()
        {
            return OneDecorator::Mark;
        }
        // `mark = pytest.mark` (bound once, at module level): what it makes is pytest's, which
        // sets no `__test__`.
        if class_body_binding(class_body, root).is_none() && self.bound_to_pytest(root) {
            return OneDecorator::Mark;
        }
        let def = match class_body_binding(class_body, root) {
            Some(Some(f)) if plain => Some(f),
            Some(_) => {
                return OneDecorator::Unknown(format!(
                "is bound in the class body in a way the extractor does not follow: it {MAY_SET}"
            ))
            }
            None => match self.scope.globals.get(root) {
                Some(Global::Import { module, .. }) if crate::stdlib::is_stdlib(module) => {
                    return OneDecorator::Untouched
                }
                Some(Global::Import { module, .. }) => {
                    return OneDecorator::Unknown(format!(
                        "comes from `{module}`, which the extractor does not see: it {MAY_SET}"
                    ))
                }
                Some(Global::SolutionModule | Global::SolutionName { .. }) => {
                    return OneDecorator::Unknown(format!(
                        "comes from the solution, which the extraction does not read: it {MAY_SET}"
                    ))
                }
                Some(Global::Helper { def: Some(f), .. }) if plain => Some(*f),
                Some(_) => None,
                None if plain
                    && !called
                    && matches!(root, "staticmethod" | "classmethod" | "property") =>
                {
                    return OneDecorator::Untouched
                }
                None => None,
            },
        };
        let Some(f) = def else {
            return OneDecorator::Unknown(format!(
                "is not a plain function of the file the extractor can read: it {MAY_SET}"
            ));
        };
        let verdict = if called {
            self.decorator_factory(f)
        } else {
            self.decorator_function(f, 0)
        };
        match verdict {
            Ok(true) => OneDecorator::False,
            Ok(false) => OneDecorator::Untouched,
            Err(why) => OneDecorator::Unknown(format!(
                "is `{}` (line {}), which {why}: it {MAY_SET}",
                f.name,
                self.map.line(f.range.start())
            )),
        }
    }

    /// Whether a module-level name is bound once, by an assignment of a pytest object
    /// (`mark = pytest.mark`).
    fn bound_to_pytest(&self, name: &str) -> bool {
        let body = self.eval.module;
        let bindings = body
            .iter()
            .filter(|s| {
                bound_names(std::slice::from_ref(*s))
                    .iter()
                    .any(|b| b == name)
            })
            .collect::<Vec<_>>();
        matches!(bindings.as_slice(), [Stmt::Assign(a)]
            if matches!(a.targets.as_slice(), [Expr::Name(n)] if n.id.as_str() == name)
                && self.scope.pytest_path(&a.value).is_some())
    }

    /// A function of the file applied as a decorator: `Ok(true)` when its body visibly sets
    /// `__test__` to a false value on its argument and returns it, `Ok(false)` when what runs as it
    /// decorates cannot set any attribute and it returns a function, `Err` (why) otherwise.
    fn decorator_function(
        &self,
        f: &'a ast::StmtFunctionDef,
        depth: usize,
    ) -> Result<bool, String> {
        let Some(param) = f
            .parameters
            .posonlyargs
            .iter()
            .chain(f.parameters.args.iter())
            .next()
            .map(|p| p.parameter.name.as_str())
        else {
            return Err("takes no positional argument".into());
        };
        if let Some(test) = crate::module::literal_attribute_decorator(f)
            .filter(|_| !self.scope.globals.contains_key("setattr"))
        {
            return Ok(test == Some(true));
        }
        self.decoration_effects(f, depth)?;
        // What it returns is what pytest finds under the test's name: the test itself or a
        // function it defines is collected; anything else may not be.
        let nested: Vec<&str> = f
            .body
            .iter()
            .filter_map(|s| match s {
                Stmt::FunctionDef(g) => Some(g.name.as_str()),
                _ => None,
            })
            .collect();
        let returns = top_returns(&f.body);
        let returns_function = !returns.is_empty()
            && ends_in_return(&f.body)
            && returns.iter().all(|r| {
                matches!(r.value.as_deref(), Some(Expr::Name(n))
                    if n.id.as_str() == param || nested.contains(&n.id.as_str()))
            });
        if returns_function {
            Ok(false)
        } else {
            Err("may return what pytest does not collect as a function".into())
        }
    }

    /// A decorator factory of the file (`@retry(3)`): the decorator it returns, a function it
    /// defines, judged as [`Self::decorator_function`] after what the factory itself runs.
    fn decorator_factory(&self, f: &'a ast::StmtFunctionDef) -> Result<bool, String> {
        self.decoration_effects(f, 0)?;
        let returns = top_returns(&f.body);
        let inner = match returns.as_slice() {
            [r] if ends_in_return(&f.body) => match r.value.as_deref() {
                Some(Expr::Name(n)) => f.body.iter().find_map(|s| match s {
                    Stmt::FunctionDef(g) if g.name.as_str() == n.id.as_str() => Some(g),
                    _ => None,
                }),
                _ => None,
            },
            _ => None,
        };
        let Some(inner) = inner else {
            return Err("returns a decorator the extractor does not follow".into());
        };
        self.decorator_function(inner, 1)
    }

    /// Why what runs when `f` is called (its body, not the functions it defines) may set an
    /// attribute of the decorated object: it names `__test__`, `__dict__`, `setattr`, `vars`, `exec`…,
    /// or calls code the file does not show (a function the file defines is followed).
    fn decoration_effects(&self, f: &'a ast::StmtFunctionDef, depth: usize) -> Result<(), String> {
        use crate::walk::visitor::{walk_expr, walk_stmt, Visitor};
        struct Scan<'c, 's, 'a> {
            c: &'c Collector<'s, 'a>,
            locals: Vec<String>,
            nested: Vec<&'a ast::StmtFunctionDef>,
            depth: usize,
            why: Option<String>,
        }
        impl<'a> Visitor<'a> for Scan<'_, '_, 'a> {
            fn visit_stmt(&mut self, stmt: &'a Stmt) {
                if self.why.is_some() {
                    return;
                }
                match stmt {
                    // A function it defines runs later, when called: only its decorators,
                    // defaults and annotations run now.
                    Stmt::FunctionDef(g) => {
                        for d in &g.decorator_list {
                            self.visit_expr(&d.expression);
                        }
                        for p in g.parameters.iter_non_variadic_params() {
                            if let Some(v) = p.default.as_deref() {
                                self.visit_expr(v);
                            }
                        }
                    }
                    Stmt::ClassDef(_)
                    | Stmt::Import(_)
                    | Stmt::ImportFrom(_)
                    | Stmt::Global(_)
                    | Stmt::Nonlocal(_) => {
                        self.why = Some("runs statements the extractor does not follow".into());
                    }
                    other => walk_stmt(self, other),
                }
            }
            fn visit_expr(&mut self, expr: &'a Expr) {
                if self.why.is_some() {
                    return;
                }
                match expr {
                    Expr::Attribute(a)
                        if matches!(a.attr.as_str(), "__test__" | "__dict__" | "__setattr__") =>
                    {
                        self.why = Some(format!("reads or sets `{}`", a.attr));
                        return;
                    }
                    Expr::StringLiteral(s) if s.value.to_str().contains("__test__") => {
                        self.why = Some("names `__test__`".into());
                        return;
                    }
                    Expr::Name(n)
                        if matches!(
                            n.id.as_str(),
                            "setattr"
                                | "vars"
                                | "exec"
                                | "eval"
                                | "globals"
                                | "locals"
                                | "__import__"
                                | "compile"
                        ) && !self.locals.iter().any(|l| l == n.id.as_str()) =>
                    {
                        self.why = Some(format!("calls `{}`", n.id));
                        return;
                    }
                    Expr::Lambda(_) => return,
                    Expr::Call(call) => {
                        if let Some(why) = self.call(&call.func) {
                            self.why = Some(why);
                            return;
                        }
                    }
                    _ => {}
                }
                walk_expr(self, expr);
            }
        }
        impl<'a> Scan<'_, '_, 'a> {
            /// Why a call made as the decorator runs may set an attribute.
            fn call(&self, func: &'a Expr) -> Option<String> {
                let dotted = crate::module::dotted_name(func)
                    .unwrap_or_else(|| self.c.map.snippet(func.range()).to_string());
                let root = dotted.split('.').next().unwrap_or_default();
                if let Some(g) = self.nested.iter().find(|g| g.name.as_str() == root) {
                    return if root == dotted {
                        self.c.decoration_effects(g, self.depth + 1).err()
                    } else {
                        Some(format!("calls `{dotted}`"))
                    };
                }
                if self.locals.iter().any(|l| l == root) {
                    return Some(format!("calls `{dotted}`, a value it does not show"));
                }
                match self.c.scope.globals.get(root) {
                    Some(Global::Import { module, .. }) if crate::stdlib::is_stdlib(module) => None,
                    Some(Global::Helper { def: Some(g), .. }) if root == dotted => {
                        if self.depth >= DECORATOR_DEPTH {
                            Some(format!(
                                "calls `{dotted}`, deeper than the extractor follows"
                            ))
                        } else {
                            self.c
                                .decoration_effects(g, self.depth + 1)
                                .err()
                                .map(|why| format!("calls `{dotted}`, which {why}"))
                        }
                    }
                    None if ruff_python_stdlib::builtins::is_python_builtin(root, 13, false) => {
                        None
                    }
                    _ => Some(format!(
                        "calls `{dotted}`, which the extractor does not follow"
                    )),
                }
            }
        }
        let mut locals: Vec<String> = f.parameters.iter().map(|p| p.name().to_string()).collect();
        let nested: Vec<&'a ast::StmtFunctionDef> = f
            .body
            .iter()
            .filter_map(|s| match s {
                Stmt::FunctionDef(g) => Some(g),
                _ => None,
            })
            .collect();
        locals.extend(bound_names(&f.body));
        let mut scan = Scan {
            c: self,
            locals,
            nested,
            depth,
            why: None,
        };
        for stmt in &f.body {
            scan.visit_stmt(stmt);
        }
        match scan.why {
            Some(why) => Err(why),
            None => Ok(()),
        }
    }
}

/// How the class body around a decorator binds its first name: `None` when it does not,
/// `Some(Some(def))` by a plain `def`, `Some(None)` otherwise.
fn class_body_binding<'a>(
    class_body: Option<&'a [Stmt]>,
    name: &str,
) -> Option<Option<&'a ast::StmtFunctionDef>> {
    let body = class_body?;
    let mut found = None;
    for s in body {
        match s {
            Stmt::FunctionDef(f) if f.name.as_str() == name => {
                found = Some(f.decorator_list.is_empty().then_some(f));
            }
            other
                if bound_names(std::slice::from_ref(other))
                    .iter()
                    .any(|b| b == name) =>
            {
                found = Some(None);
            }
            _ => {}
        }
    }
    found
}

/// Names a body binds (not inside the functions and classes it defines).
fn bound_names(body: &[Stmt]) -> Vec<String> {
    use ruff_python_ast::visitor::Visitor;
    let mut bound = crate::module::BoundNames::default();
    for s in body {
        bound.visit_stmt(s);
    }
    bound.names
}

/// The `return` statements of a function's own body (not of the functions it defines).
fn top_returns(body: &[Stmt]) -> Vec<&ast::StmtReturn> {
    use crate::walk::visitor::{walk_stmt, Visitor};
    struct Returns<'a>(Vec<&'a ast::StmtReturn>);
    impl<'a> Visitor<'a> for Returns<'a> {
        fn visit_stmt(&mut self, stmt: &'a Stmt) {
            match stmt {
                Stmt::FunctionDef(_) | Stmt::ClassDef(_) => {}
                Stmt::Return(r) => self.0.push(r),
                other => walk_stmt(self, other),
            }
        }
        fn visit_expr(&mut self, _: &'a Expr) {}
    }
    let mut returns = Returns(Vec::new());
    for s in body {
        returns.visit_stmt(s);
    }
    returns.0
}

/// Whether a body's last statement is a `return` (so it cannot fall off its end, returning `None`).
fn ends_in_return(body: &[Stmt]) -> bool {
    matches!(body.last(), Some(Stmt::Return(_)))
}
