//! The marks a test carries, as pytest's `item.iter_markers()` yields them: the function's own
//! (in the order its decorators apply, bottom first), its classes' from the innermost out (each
//! class's base classes first, as `get_unpacked_marks(cls, consider_mro=True)` reads its MRO
//! backwards, then its `pytestmark` body assignment, then its decorators), then the module's
//! `pytestmark`. Used for `-m` selection, `--strict-markers` and `filterwarnings` marks.
//!
//! The marks of a `pytest.param(…, marks=…)` case are not read here: [`param_mark_names`] lists
//! every one the file uses, so a caller can tell whether they could change its answer.

use crate::walk::visitor::{self, Visitor};
use ruff_python_ast::{self as ast, Expr, Stmt};
use ruff_text_size::Ranged;

use crate::module::ModuleScope;
use crate::rules::{Collection, Reason};
use crate::source::SourceMap;

/// One mark: its name (`slow` for `pytest.mark.slow(…)`) and, for `filterwarnings`, its filter
/// strings.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MarkUse {
    pub name: String,
    pub filters: Vec<String>,
}

/// Builtin marks pytest 9 registers itself (`pytest --markers`).
pub const BUILTIN: [&str; 8] = [
    "filterwarnings",
    "skip",
    "skipif",
    "xfail",
    "parametrize",
    "usefixtures",
    "tryfirst",
    "trylast",
];

/// The marks of the test `id` (`TestB::test_a[1]`), whose function is `func`, in `iter_markers`
/// order, or why they cannot be known from the file. The classes are the id's (an inherited test
/// belongs to the class that collected it, not the one that defines it).
pub fn test_marks(
    body: &[Stmt],
    id: &str,
    func: &ast::StmtFunctionDef,
    scope: &ModuleScope,
    map: &SourceMap,
) -> Result<Vec<MarkUse>, String> {
    let mut out = Vec::new();
    for decorator in func.decorator_list.iter().rev() {
        let expr = &decorator.expression;
        if matches!(expr, Expr::Name(n) if matches!(n.id.as_str(), "staticmethod" | "classmethod"))
        {
            continue;
        }
        out.push(mark_use(expr, scope, map)?);
    }
    let classes = classes_of(body, id)?;
    for class in classes.iter().rev() {
        class_marks(body, class, scope, map, 0, &mut out)?;
    }
    out.extend(pytestmark_value(body, scope, map)?);
    Ok(out)
}

/// What the file's marks say about all its tests.
#[derive(Debug, Default)]
pub struct FileMarks {
    /// Every mark name the file spells (`pytest.mark.X` anywhere), with the line of its first use.
    pub used: Vec<(String, u32)>,
    /// Why the file's marks cannot all be read, if so.
    pub unreadable: Option<Reason>,
    /// Why pytest refuses the file for a mark (a marked fixture, a misspelt `parametrize`).
    pub refused: Option<Reason>,
}

/// The marks of the whole file.
pub fn file_marks(body: &[Stmt], scope: &ModuleScope, map: &SourceMap) -> FileMarks {
    let mut finder = MarkFinder::new(scope, map, false);
    finder.visit_body(body);
    let misspelt = finder
        .found
        .iter()
        .find(|(n, _)| matches!(n.as_str(), "parameterize" | "parametrise" | "parameterise"));
    let refused = finder.marked_fixture.clone().or_else(|| {
        misspelt.map(|(n, line)| {
            Collection::MarkMisspelled.because(format!("the mark `{n}` (line {line}) is a misspelling pytest refuses: it fails to collect the file"))
        })
    });
    FileMarks {
        used: finder.found,
        unreadable: finder.unreadable,
        refused,
    }
}

/// The marks used inside the `pytest.param(…, marks=…)` cases of a file.
#[derive(Debug, Default)]
pub struct ParamMarks {
    /// Every mark name.
    pub names: Vec<String>,
    /// The filter strings of their `filterwarnings` marks (`None` for one the file computes).
    pub filters: Vec<Option<String>>,
    /// Some `marks=` holds marks through a variable, so the names are not all known.
    pub unknown: bool,
}

/// Every mark used inside a `pytest.param(…, marks=…)` that may reach the test `func`: in its
/// decorators, its classes' decorators and bodies (not their methods), and the module's statements
/// other than functions and classes (where a parametrize list it names may live).
pub fn param_marks(
    body: &[Stmt],
    id: &str,
    func: &ast::StmtFunctionDef,
    scope: &ModuleScope,
    map: &SourceMap,
) -> ParamMarks {
    let mut finder = MarkFinder::new(scope, map, true);
    for decorator in &func.decorator_list {
        finder.visit_expr(&decorator.expression);
    }
    let mut classes = classes_of(body, id).unwrap_or_default();
    classes.extend(enclosing_classes(body, func).unwrap_or_default());
    for class in classes {
        for decorator in &class.decorator_list {
            finder.visit_expr(&decorator.expression);
        }
        plain_statements(&class.body).for_each(|s| finder.visit_stmt(s));
    }
    plain_statements(body).for_each(|s| finder.visit_stmt(s));
    ParamMarks {
        names: finder.found.into_iter().map(|(n, _)| n).collect(),
        filters: finder.filters,
        unknown: finder.unknown_param_marks,
    }
}

/// A body's statements other than function and class definitions.
fn plain_statements(body: &[Stmt]) -> impl Iterator<Item = &Stmt> {
    body.iter()
        .filter(|s| !matches!(s, Stmt::FunctionDef(_) | Stmt::ClassDef(_)))
}

fn mark_use(expr: &Expr, scope: &ModuleScope, map: &SourceMap) -> Result<MarkUse, String> {
    let line = map.line(expr.range().start());
    let unknown = || {
        format!(
            "`{}` (line {line}) is not a mark the extractor can name",
            map.snippet(expr.range())
        )
    };
    let path = scope.pytest_path(expr).ok_or_else(unknown)?;
    let name = path
        .strip_prefix("pytest.mark.")
        .and_then(|rest| rest.split('.').next())
        .ok_or_else(unknown)?
        .to_string();
    let mut filters = Vec::new();
    if name == "filterwarnings" {
        let Expr::Call(call) = expr else {
            return Err(unknown());
        };
        for arg in call.arguments.args.iter() {
            match arg {
                Expr::StringLiteral(s) => filters.push(s.value.to_str().to_string()),
                _ => {
                    return Err(format!(
                        "the `filterwarnings` mark on line {line} computes its filter"
                    ))
                }
            }
        }
    }
    Ok(MarkUse { name, filters })
}

/// The classes a test id names (`TestA::TestInner::test_x`), outermost first.
fn classes_of<'a>(body: &'a [Stmt], id: &str) -> Result<Vec<&'a ast::StmtClassDef>, String> {
    let path = id.split('[').next().unwrap_or(id);
    let names: Vec<&str> = path.split("::").collect();
    let mut classes = Vec::new();
    let mut scope_body = body;
    for name in &names[..names.len().saturating_sub(1)] {
        let class = scope_body
            .iter()
            .rev()
            .find_map(|s| match s {
                Stmt::ClassDef(c) if c.name.as_str() == *name => Some(c),
                _ => None,
            })
            .ok_or_else(|| format!("the class `{name}` is not found"))?;
        classes.push(class);
        scope_body = &class.body;
    }
    Ok(classes)
}

/// The classes around `func`, outermost first.
fn enclosing_classes<'a>(
    body: &'a [Stmt],
    func: &ast::StmtFunctionDef,
) -> Option<Vec<&'a ast::StmtClassDef>> {
    for stmt in body {
        match stmt {
            Stmt::FunctionDef(f) if std::ptr::eq(f, func) => return Some(Vec::new()),
            Stmt::ClassDef(c) => {
                if let Some(mut inner) = enclosing_classes(&c.body, func) {
                    inner.insert(0, c);
                    return Some(inner);
                }
            }
            _ => {}
        }
    }
    None
}

fn class_marks(
    body: &[Stmt],
    class: &ast::StmtClassDef,
    scope: &ModuleScope,
    map: &SourceMap,
    depth: u32,
    out: &mut Vec<MarkUse>,
) -> Result<(), String> {
    if depth > 32 {
        return Err(format!("the bases of `{}` nest too deep", class.name));
    }
    // `reversed(__mro__)`: the bases' marks first (single inheritance from classes of the file).
    // unittest's `TestCase` carries no pytest marks.
    let bases: Vec<&Expr> = class
        .arguments
        .as_ref()
        .map(|a| {
            a.args
                .iter()
                .filter(|b| !crate::unittest::is_unittest_base(body, b))
                .collect()
        })
        .unwrap_or_default();
    match bases.as_slice() {
        [] => {}
        [Expr::Name(n)] if n.id.as_str() == "object" => {}
        [Expr::Name(n)] => {
            let base = body.iter().find_map(|s| match s {
                Stmt::ClassDef(c) if c.name.as_str() == n.id.as_str() => Some(c),
                _ => None,
            });
            match base {
                Some(base) => class_marks(body, base, scope, map, depth + 1, out)?,
                None => {
                    return Err(format!(
                        "the class `{}` inherits from `{}`, whose marks the file does not show",
                        class.name, n.id
                    ))
                }
            }
        }
        [_] => {
            return Err(format!(
                "the class `{}` inherits from `{}`, whose marks the file does not show",
                class.name,
                map.snippet(bases[0].range())
            ))
        }
        _ => {
            return Err(format!(
                "the class `{}` has several bases, whose marks the extractor does not order",
                class.name
            ))
        }
    }
    out.extend(pytestmark_value(&class.body, scope, map)?);
    for decorator in class.decorator_list.iter().rev() {
        out.push(mark_use(&decorator.expression, scope, map)?);
    }
    Ok(())
}

/// The marks a body's `pytestmark = …` assigns (the last assignment wins).
fn pytestmark_value(
    body: &[Stmt],
    scope: &ModuleScope,
    map: &SourceMap,
) -> Result<Vec<MarkUse>, String> {
    let mut value: Option<&Expr> = None;
    for stmt in body {
        match stmt {
            Stmt::Assign(a)
                if a.targets
                    .iter()
                    .any(|t| matches!(t, Expr::Name(n) if n.id.as_str() == "pytestmark")) =>
            {
                if a.targets.len() != 1 {
                    return Err("`pytestmark` is assigned with other names".into());
                }
                value = Some(&a.value);
            }
            Stmt::AugAssign(a) if matches!(a.target.as_ref(), Expr::Name(n) if n.id.as_str() == "pytestmark") =>
            {
                return Err(format!(
                    "`pytestmark` is changed on line {}",
                    map.line(a.range.start())
                ));
            }
            _ => {}
        }
    }
    let Some(value) = value else {
        return Ok(Vec::new());
    };
    let items: Vec<&Expr> = match value {
        Expr::List(l) => l.elts.iter().collect(),
        Expr::Tuple(t) => t.elts.iter().collect(),
        other => vec![other],
    };
    items.into_iter().map(|e| mark_use(e, scope, map)).collect()
}

struct MarkFinder<'s, 'a> {
    scope: &'s ModuleScope<'a>,
    map: &'s SourceMap<'s>,
    found: Vec<(String, u32)>,
    /// The arguments of `filterwarnings` marks inside `pytest.param` marks (`None`: not a
    /// literal, or a mark the file computes).
    filters: Vec<Option<String>>,
    /// A `marks=` value names something that is not spelled as a mark (a variable).
    unknown_param_marks: bool,
    /// Why the file's marks cannot all be read: `pytest.mark` itself bound to a name, a mark
    /// applied by a call, `pytestmark` bound in a form `marks.rs` does not read.
    unreadable: Option<Reason>,
    in_param_marks: bool,
    /// Inside a decorator list or a `pytestmark` value, where a mark call is a mark, not an
    /// application of one.
    in_mark_position: bool,
    only_param_marks: bool,
    /// Depth of compound statements (`if`, `try`, …) outside classes.
    nested: u32,
    /// A fixture with a mark, which pytest 9 refuses.
    marked_fixture: Option<Reason>,
}

impl<'s, 'a> MarkFinder<'s, 'a> {
    fn new(scope: &'s ModuleScope<'a>, map: &'s SourceMap<'s>, only_param_marks: bool) -> Self {
        MarkFinder {
            scope,
            map,
            found: Vec::new(),
            filters: Vec::new(),
            unknown_param_marks: false,
            unreadable: None,
            in_param_marks: false,
            in_mark_position: false,
            only_param_marks,
            nested: 0,
            marked_fixture: None,
        }
    }

    fn record(&mut self, name: &str, expr: &Expr) {
        if (self.in_param_marks || !self.only_param_marks)
            && !self.found.iter().any(|(n, _)| n == name)
        {
            let line = self.map.line(expr.range().start());
            self.found.push((name.to_string(), line));
        }
    }

    fn unreadable(&mut self, expr_range: ruff_text_size::TextRange, why: &str) {
        self.unreadable.get_or_insert_with(|| {
            Collection::MarksNotReadable.because(format!(
                "`{}` (line {}) {why}",
                self.map.snippet(expr_range),
                self.map.line(expr_range.start())
            ))
        });
    }

    fn with_flag(&mut self, in_marks: bool, expr: &Expr) {
        let outer = (self.in_param_marks, self.in_mark_position);
        self.in_param_marks |= in_marks;
        self.in_mark_position |= !in_marks;
        self.visit_expr(expr);
        (self.in_param_marks, self.in_mark_position) = outer;
    }

    fn mark_call(&mut self, call: &ast::ExprCall, name: &str, expr: &Expr) {
        if self.in_param_marks && name == "filterwarnings" {
            self.filters
                .extend(call.arguments.args.iter().map(|a| match a {
                    Expr::StringLiteral(s) => Some(s.value.to_str().to_string()),
                    _ => None,
                }));
        }
        // `pytest.mark.slow(test_x)`: one positional argument and no keyword applies the mark
        // to that object, wherever the call is.
        let applies = call.arguments.keywords.is_empty()
            && matches!(
                call.arguments.args.as_ref(),
                [Expr::Name(_) | Expr::Attribute(_)]
            );
        if applies && !self.in_mark_position && !self.in_param_marks {
            self.unreadable(expr.range(), "applies a mark by a call");
        }
        self.record(name, expr);
        if !self.in_param_marks {
            // `parametrize`'s values may hold `pytest.param(…, marks=…)` cases.
            let outer = self.in_mark_position;
            self.in_mark_position = false;
            for arg in call.arguments.args.iter() {
                self.visit_expr(arg);
            }
            for kw in call.arguments.keywords.iter() {
                self.visit_expr(&kw.value);
            }
            self.in_mark_position = outer;
        }
    }

    fn param_call(&mut self, call: &ast::ExprCall) {
        self.visit_expr(&call.func);
        for arg in call.arguments.args.iter() {
            self.visit_expr(arg);
        }
        for kw in call.arguments.keywords.iter() {
            if kw.arg.as_deref() == Some("marks") {
                self.with_flag(true, &kw.value);
            } else {
                self.visit_expr(&kw.value);
            }
        }
    }
}

/// The mark name of a `pytest.mark.X…` path.
fn mark_name(path: &str) -> Option<&str> {
    path.strip_prefix("pytest.mark.")
        .and_then(|r| r.split('.').next())
}

impl<'b> Visitor<'b> for MarkFinder<'_, '_> {
    fn visit_stmt(&mut self, stmt: &'b Stmt) {
        match stmt {
            Stmt::FunctionDef(f) => {
                for d in &f.decorator_list {
                    self.with_flag(false, &d.expression);
                }
                let fixture = f.decorator_list.iter().any(|d| {
                    self.scope.pytest_path(&d.expression).as_deref() == Some("pytest.fixture")
                });
                if fixture {
                    if let Some(d) = f.decorator_list.iter().find(|d| {
                        self.scope
                            .pytest_path(&d.expression)
                            .is_some_and(|p| mark_name(&p).is_some())
                    }) {
                        self.marked_fixture
                            .get_or_insert(Collection::MarkOnFixture.because(format!(
                                "the fixture `{}` is marked `@{}` (line {}), which pytest 9 refuses: it fails to collect the file",
                                f.name,
                                self.map.snippet(d.expression.range()),
                                self.map.line(d.range.start())
                            )));
                    }
                }
                let outer = self.nested;
                self.nested = 1;
                self.visit_body(&f.body);
                self.nested = outer;
            }
            Stmt::ClassDef(c) => {
                for d in &c.decorator_list {
                    self.with_flag(false, &d.expression);
                }
                if let Some(args) = &c.arguments {
                    for a in args.args.iter() {
                        self.visit_expr(a);
                    }
                }
                // A class body is read like the module's (its `pytestmark` counts).
                self.visit_body(&c.body);
            }
            Stmt::Assign(a) if targets_pytestmark(&a.targets) => {
                if self.nested > 0 || a.targets.len() != 1 {
                    self.unreadable(
                        a.range,
                        "binds `pytestmark` where the extractor does not read it",
                    );
                }
                self.with_flag(false, &a.value);
            }
            Stmt::AnnAssign(a) if targets_pytestmark(std::slice::from_ref(&a.target)) => {
                self.unreadable(a.range, "binds `pytestmark` with an annotation");
            }
            Stmt::AugAssign(a) if targets_pytestmark(std::slice::from_ref(&a.target)) => {
                self.unreadable(a.range, "changes `pytestmark`");
            }
            Stmt::If(_)
            | Stmt::Try(_)
            | Stmt::With(_)
            | Stmt::For(_)
            | Stmt::While(_)
            | Stmt::Match(_) => {
                self.nested += 1;
                visitor::walk_stmt(self, stmt);
                self.nested -= 1;
            }
            _ => visitor::walk_stmt(self, stmt),
        }
    }

    fn visit_expr(&mut self, expr: &'b Expr) {
        match expr {
            Expr::Call(call) => {
                let path = self.scope.pytest_path(expr);
                match path.as_deref() {
                    Some("pytest.param") => return self.param_call(call),
                    Some(p) if mark_name(p).is_some() => {
                        let name = mark_name(p).unwrap_or_default().to_string();
                        return self.mark_call(call, &name, expr);
                    }
                    _ => {}
                }
            }
            Expr::Attribute(_) | Expr::Name(_) => match self.scope.pytest_path(expr).as_deref() {
                Some("pytest.mark") => {
                    return self.unreadable(expr.range(), "names `pytest.mark` itself");
                }
                Some(p) if mark_name(p).is_some() => {
                    let name = mark_name(p).unwrap_or_default().to_string();
                    if self.in_param_marks && name == "filterwarnings" {
                        self.filters.push(None);
                    }
                    return self.record(&name, expr);
                }
                _ if self.in_param_marks => {
                    // A variable holding marks: which ones is not read.
                    self.unknown_param_marks = true;
                    self.filters.push(None);
                    return;
                }
                _ => {}
            },
            _ => {}
        }
        visitor::walk_expr(self, expr);
    }
}

fn targets_pytestmark(targets: &[Expr]) -> bool {
    targets
        .iter()
        .any(|t| matches!(t, Expr::Name(n) if n.id.as_str() == "pytestmark"))
}
