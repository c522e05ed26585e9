//! Tests as pytest collects them, expanded into cases: module-level `test*` functions and `test*`
//! methods of `Test*` classes (nested classes too), one case per parametrize combination (marks and
//! parametrized fixtures, in pytest's order), with the node id pytest prints (`crate::pytest::ids`)
//! and what pytest's marks say about running it. A test whose ids cannot be known from the file is
//! not a case: it is listed apart, so nothing is emitted under an id pytest does not print.

use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};

use ruff_python_ast::visitor::Visitor;
use ruff_python_ast::{self as ast, Expr, Stmt};
use ruff_text_size::{Ranged, TextRange};

use crate::module::{Global, ModuleScope};
use crate::names;
use crate::pytest::fixture_body::{self, Outcome};
use crate::pytest::ids::{self, Id};
use crate::pytest::value::{self, Callable, Evaluator, Place, PyValue};
use crate::rules::{Collection, Reason};
use crate::source::SourceMap;

/// Parametrize combinations expanded per test at most.
const MAX_CASES: usize = 10_000;

/// Why a case is not run (or a setup step that stops its replay), as [`Case`] keeps it. Every site
/// makes a [`Reason`] with its rule; `Case::not_run` and `Case::setup` keep only its words until
/// their readers outside collection (flatten's `assertion.rs` and `items::setup`, `incremental.rs`,
/// `module.rs`'s barriers) take a `Reason`: then this becomes `Reason` and [`kept`] the identity.
pub type CaseReason = Reason;

/// A reason as [`Case`] keeps it (see [`CaseReason`]).
pub fn kept(reason: Reason) -> CaseReason {
    reason
}

/// A reason [`Case`] keeps, handed on (its words while [`CaseReason`] is text).
pub fn said(reason: &CaseReason) -> CaseReason {
    reason.clone()
}

/// One test case: one function (one parametrize combination of it).
#[derive(Clone)]
pub struct Case<'a> {
    /// The pytest node id without the file part.
    pub id: String,
    pub func: &'a ast::StmtFunctionDef,
    /// Whether the function is a method of a test class (its first parameter is the instance).
    pub is_method: bool,
    /// Whether it is a `test*` method of a `unittest.TestCase` (`unittest.rs`): its instance is a
    /// plain `unittest.TestCase()`, where that is exact.
    pub unittest: bool,
    /// For a unittest test: the `setUp` its class runs before it, replayed before the body.
    pub unittest_setup: Option<&'a ast::StmtFunctionDef>,
    /// Parameter values from parametrize (or a fixture's `params`), by argument name.
    pub params: Vec<(String, &'a Expr)>,
    /// For each of `params`, the source range of the case it came from.
    pub param_ranges: Vec<TextRange>,
    /// Why pytest will not run this case as a passing check (skip, xfail, not collected…), or why
    /// the extractor cannot replay it.
    pub not_run: Option<CaseReason>,
    /// Whether the function is parametrized (even when its cases could not be expanded).
    pub parametrized: bool,
    /// Fixtures requested by `usefixtures`, and setup methods, that run before the test.
    pub setup: Vec<(u32, CaseReason)>,
    /// Fixtures the enclosing test classes define (name, line): they override the module's.
    pub class_fixtures: Vec<(String, u32)>,
    /// The values of parametrized fixtures the test requests, for this case: Python source that
    /// reads only builtins (the fixture's body run for the case's param), with the range of the
    /// param it came from. Bound where the fixture runs, before the test's body.
    pub fixture_values: Vec<(String, String, TextRange)>,
}

/// A test pytest collects whose node ids the file alone does not tell: nothing is emitted for it.
pub struct Unlisted<'a> {
    pub func: &'a ast::StmtFunctionDef,
    /// `test_x` or `TestA::test_x`.
    pub name: String,
    pub why: String,
}

/// Every test case of the module, in source order, and the tests whose ids cannot be known.
pub fn collect<'a>(
    body: &'a [Stmt],
    scope: &ModuleScope<'a>,
    map: &SourceMap,
    long_str: &ids::LongStrIds,
) -> (Vec<Case<'a>>, Vec<Unlisted<'a>>) {
    let module_marks: Vec<Mark<'a>> = pytestmark(body)
        .into_iter()
        .map(|expr| Mark {
            expr,
            place: Place::module(),
            own: false,
        })
        .collect();
    let fixtures = Fixtures::of(body, scope, None, None);
    let mut c = Collector {
        scope,
        map,
        eval: Evaluator {
            scope,
            module: body,
            imports: Default::default(),
        },
        cases: Vec::new(),
        unlisted: Vec::new(),
        class_fixtures: Vec::new(),
        exclude: HashSet::default(),
        unittest_classes: crate::unittest::testcase_classes(body)
            .iter()
            .map(|c| c.range)
            .collect(),
        reorder: None,
        long_str: long_str.clone(),
    };
    // `__test__ = False` at module level: pytest collects nothing from the file.
    if assigns_false_test(body) {
        return (Vec::new(), Vec::new());
    }
    let generate = module_def(body, "pytest_generate_tests").map(|f| map.line(f.range.start()));
    c.collect_in(Within {
        body,
        prefix: "",
        marks: &module_marks,
        setup: &[],
        fixtures: &fixtures,
        generate,
    });
    if let Some(why) = &c.reorder {
        for case in &mut c.cases {
            if let Some((name, value)) = case
                .params
                .iter()
                .find(|(_, v)| !names::is_immutable_literal(v))
            {
                case.not_run.get_or_insert_with(|| {
                    kept(Collection::ParamObjectReordered.because(format!(
                        "`{name}` is the object `{}` (line {}) that pytest may hand another test first: {why}",
                        map.snippet(value.range()),
                        map.line(value.range().start())
                    )))
                });
            }
        }
    }
    c.cases.extend(crate::unittest::cases(body, map));
    if let Some(why) = file_blocker(body, &c.cases, map) {
        for case in &mut c.cases {
            case.not_run = Some(kept(why.clone()));
        }
    }
    (c.cases, c.unlisted)
}

/// Whether a body assigns `__test__` a value other than `True` (pytest then skips what it names).
fn assigns_false_test(body: &[Stmt]) -> bool {
    body.iter().any(|s| {
        matches!(s, Stmt::Assign(a)
        if matches!(a.targets.as_slice(), [Expr::Name(n)] if n.id.as_str() == "__test__")
            && !matches!(a.value.as_ref(), Expr::BooleanLiteral(b) if b.value))
    })
}

/// What makes pytest run no test of the file as written, or every test under code the extractor
/// does not see: a collected test that is a generator (pytest 9 refuses the whole file), or
/// `pytest_plugins` in the test file (plugins whose hooks may skip, fail or change any test).
fn file_blocker(body: &[Stmt], cases: &[Case], map: &SourceMap) -> Option<Reason> {
    for stmt in body {
        if let Stmt::Assign(a) = stmt {
            if a.targets
                .iter()
                .any(|t| matches!(t, Expr::Name(n) if n.id.as_str() == "pytest_plugins"))
            {
                return Some(Collection::PluginsInTestFile.because(format!(
                    "the test file loads plugins (`pytest_plugins`, line {}), whose hooks may skip, fail or change any test",
                    map.line(stmt.range().start())
                )));
            }
        }
    }
    cases.iter().find(|c| is_generator(c.func)).map(|c| {
        Collection::TestIsGenerator.because(format!(
            "the test `{}` (line {}) contains `yield`: pytest 9 refuses to collect the file (\"'yield' keyword is allowed in fixtures, but not in tests\")",
            c.func.name,
            map.line(c.func.range.start())
        ))
    })
}

/// Whether a function's own body (not a nested function, class or lambda) yields.
fn is_generator(f: &ast::StmtFunctionDef) -> bool {
    struct Finder(bool);
    impl<'a> Visitor<'a> for Finder {
        fn visit_stmt(&mut self, stmt: &'a Stmt) {
            if !matches!(stmt, Stmt::FunctionDef(_) | Stmt::ClassDef(_)) {
                ruff_python_ast::visitor::walk_stmt(self, stmt);
            }
        }
        fn visit_expr(&mut self, expr: &'a Expr) {
            match expr {
                Expr::Yield(_) | Expr::YieldFrom(_) => self.0 = true,
                Expr::Lambda(_) => {}
                _ => ruff_python_ast::visitor::walk_expr(self, expr),
            }
        }
    }
    let mut finder = Finder(false);
    ruff_python_ast::visitor::walk_body(&mut finder, &f.body);
    finder.0
}

/// A mark expression and where it is evaluated.
#[derive(Clone, Copy)]
struct Mark<'a> {
    expr: &'a Expr,
    place: Place<'a>,
    /// A decorator of the test function itself.
    own: bool,
}

fn pytestmark(body: &[Stmt]) -> Vec<&Expr> {
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

fn module_def<'a>(body: &'a [Stmt], name: &str) -> Option<&'a ast::StmtFunctionDef> {
    body.iter().rev().find_map(|s| match s {
        Stmt::FunctionDef(f) if f.name.as_str() == name => Some(f),
        _ => None,
    })
}

/// The base classes of `c` that are classes defined before it in the same body (nearest first).
fn bases_in<'a>(body: &'a [Stmt], c: &ast::StmtClassDef) -> Vec<&'a ast::StmtClassDef> {
    let Some(args) = &c.arguments else {
        return Vec::new();
    };
    args.args
        .iter()
        .filter_map(|b| match b {
            Expr::Name(n) => body.iter().rev().find_map(|s| match s {
                Stmt::ClassDef(d)
                    if d.name.as_str() == n.id.as_str() && d.range.end() <= c.range.start() =>
                {
                    Some(d)
                }
                _ => None,
            }),
            _ => None,
        })
        .collect()
}

/// Whether a base class of `c` defined in `body` has a constructor.
fn inherits_init(body: &[Stmt], c: &ast::StmtClassDef) -> bool {
    bases_in(body, c).iter().any(|b| binds_constructor(&b.body))
}

/// Whether a class body binds `__init__` or `__new__` (pytest's `hasinit`/`hasnew`: anything but
/// `object`'s own) anywhere, under an `if` or a `try` too, by `def` or by assignment.
fn binds_constructor(body: &[Stmt]) -> bool {
    struct Finder(bool);
    impl<'a> Visitor<'a> for Finder {
        fn visit_stmt(&mut self, stmt: &'a Stmt) {
            let is_ctor = |name: &str| matches!(name, "__init__" | "__new__");
            match stmt {
                Stmt::FunctionDef(f) => self.0 |= is_ctor(f.name.as_str()),
                Stmt::ClassDef(_) => {}
                Stmt::Assign(a) => {
                    for t in &a.targets {
                        if let Expr::Name(n) = t {
                            let objects_own = matches!(a.value.as_ref(), Expr::Attribute(v)
                                if v.attr.as_str() == n.id.as_str()
                                    && matches!(v.value.as_ref(), Expr::Name(o) if o.id.as_str() == "object"));
                            self.0 |= is_ctor(n.id.as_str()) && !objects_own;
                        }
                    }
                }
                Stmt::AnnAssign(a) => {
                    self.0 |= matches!(a.target.as_ref(), Expr::Name(n) if is_ctor(n.id.as_str()));
                }
                Stmt::Import(_) | Stmt::ImportFrom(_) => {
                    let names: Vec<&ast::Alias> = match stmt {
                        Stmt::Import(i) => i.names.iter().collect(),
                        Stmt::ImportFrom(i) => i.names.iter().collect(),
                        _ => Vec::new(),
                    };
                    self.0 |= names
                        .iter()
                        .any(|a| is_ctor(a.asname.as_ref().unwrap_or(&a.name).as_str()));
                }
                other => ruff_python_ast::visitor::walk_stmt(self, other),
            }
        }
        fn visit_expr(&mut self, _: &'a Expr) {}
    }
    let mut finder = Finder(false);
    finder.visit_body(body);
    finder.0
}

/// `__test__ = False` inherited from a base of `body`, unless the class sets its own.
fn inherits_not_a_test(body: &[Stmt], c: &ast::StmtClassDef) -> bool {
    let sets_test = c.body.iter().any(|s| {
        matches!(s, Stmt::Assign(a)
        if matches!(a.targets.as_slice(), [Expr::Name(n)] if n.id.as_str() == "__test__"))
    });
    !sets_test
        && bases_in(body, c).iter().any(|b| {
            b.body.iter().any(|s| {
                matches!(s, Stmt::Assign(a)
                if matches!(a.targets.as_slice(), [Expr::Name(n)] if n.id.as_str() == "__test__")
                    && !matches!(a.value.as_ref(), Expr::BooleanLiteral(v) if v.value))
            })
        })
}

/// A fixture the file defines, as far as parametrization goes.
#[derive(Clone)]
struct FixtureDef<'a> {
    func: &'a ast::StmtFunctionDef,
    /// The fixture's arguments (other fixtures), without `self`.
    argnames: Vec<String>,
    /// pytest's scope order: session 4 … function 0.
    scope: Result<u8, String>,
    autouse: bool,
    params: Option<&'a Expr>,
    ids: Option<&'a Expr>,
    /// Where `params` and `ids` are evaluated.
    place: Place<'a>,
    /// `return request.param`: the fixture's value is its param.
    returns_param: bool,
}

#[derive(Clone, Default)]
struct Fixtures<'a> {
    by_name: HashMap<String, FixtureDef<'a>>,
    /// Autouse fixture names, outermost first.
    autouse: Vec<String>,
}

impl<'a> Fixtures<'a> {
    /// The fixtures of a module or class body, over those of the enclosing scopes.
    fn of(
        body: &'a [Stmt],
        scope: &ModuleScope<'a>,
        class: Option<&'a [Stmt]>,
        outer: Option<&Fixtures<'a>>,
    ) -> Self {
        let mut out = outer.cloned().unwrap_or_default();
        for stmt in body {
            let Stmt::FunctionDef(f) = stmt else { continue };
            let Some(decorator) = f
                .decorator_list
                .iter()
                .find(|d| scope.pytest_path(&d.expression).as_deref() == Some("pytest.fixture"))
            else {
                continue;
            };
            let mut def = FixtureDef {
                func: f,
                argnames: f
                    .parameters
                    .iter_non_variadic_params()
                    .filter(|p| p.default.is_none())
                    .map(|p| p.parameter.name.to_string())
                    .skip(usize::from(class.is_some()))
                    .collect(),
                scope: Ok(0),
                autouse: false,
                params: None,
                ids: None,
                place: Place {
                    class,
                    before: f.range.start(),
                },
                returns_param: false,
            };
            let mut name = f.name.to_string();
            if let Expr::Call(call) = &decorator.expression {
                for kw in call.arguments.keywords.iter() {
                    let Some(arg) = kw.arg.as_ref() else { continue };
                    match arg.as_str() {
                        "autouse" => {
                            def.autouse = matches!(&kw.value, Expr::BooleanLiteral(b) if b.value)
                        }
                        "scope" => {
                            def.scope = match &kw.value {
                                Expr::StringLiteral(s) => {
                                    let s = s.value.to_str();
                                    scope_order(s)
                                        .ok_or_else(|| format!("an unknown fixture scope `{s}`"))
                                }
                                _ => Err(format!("the scope of fixture `{}` is computed", f.name)),
                            }
                        }
                        "params" => def.params = Some(&kw.value),
                        "ids" => def.ids = Some(&kw.value),
                        "name" => {
                            if let Expr::StringLiteral(s) = &kw.value {
                                name = s.value.to_str().to_string();
                            }
                        }
                        _ => {}
                    }
                }
                if let Some(Expr::StringLiteral(_)) = call.arguments.args.first() {
                    // `@pytest.fixture("module")` is an error in pytest 9; leave it to pytest.
                }
            }
            let request_only = def.argnames.len() == 1 && def.argnames[0] == "request";
            def.returns_param = request_only && returns_request_param(&f.body);
            if def.autouse && !out.autouse.contains(&name) {
                out.autouse.push(name.clone());
            }
            out.by_name.insert(name, def);
        }
        out
    }
}

/// pytest's scope order: session 4 … function 0.
fn scope_order(scope: &str) -> Option<u8> {
    match scope {
        "function" => Some(0),
        "class" => Some(1),
        "module" => Some(2),
        "package" => Some(3),
        "session" => Some(4),
        _ => None,
    }
}

/// The fixture's value is its param, the very object: `return request.param` (or `yield
/// request.param` as its last statement), after an optional docstring and plain assignments of
/// `request.param` (or of a name already holding it) to names (`param = request.param`).
fn returns_request_param(body: &[Stmt]) -> bool {
    let body = match body.first() {
        Some(Stmt::Expr(e)) if matches!(e.value.as_ref(), Expr::StringLiteral(_)) => &body[1..],
        _ => body,
    };
    let Some((last, steps)) = body.split_last() else {
        return false;
    };
    let mut aliases: Vec<&str> = Vec::new();
    for step in steps {
        let Some((target, value)) = plain_assignment(step) else {
            return false;
        };
        if target == "request" || !is_param(value, &aliases) {
            return false;
        }
        aliases.push(target);
    }
    match last {
        Stmt::Return(r) => r.value.as_deref().is_some_and(|v| is_param(v, &aliases)),
        Stmt::Expr(e) => {
            matches!(e.value.as_ref(), Expr::Yield(y) if y.value.as_deref().is_some_and(|v| is_param(v, &aliases)))
        }
        _ => false,
    }
}

/// `name = value` with one name target.
fn plain_assignment(stmt: &Stmt) -> Option<(&str, &Expr)> {
    match stmt {
        Stmt::Assign(a) => match a.targets.as_slice() {
            [Expr::Name(n)] => Some((n.id.as_str(), &a.value)),
            _ => None,
        },
        _ => None,
    }
}

/// `request.param`, or a name that holds it.
fn is_param(e: &Expr, aliases: &[&str]) -> bool {
    match e {
        Expr::Attribute(a) => {
            a.attr.as_str() == "param"
                && matches!(a.value.as_ref(), Expr::Name(n) if n.id.as_str() == "request")
        }
        Expr::Name(n) => aliases.contains(&n.id.as_str()),
        _ => false,
    }
}

/// A body being collected (the module's or a test class's) and what it inherits from the scopes
/// around it.
struct Within<'r, 'a> {
    body: &'a [Stmt],
    /// `""` for the module, `TestA::` (nested: `TestA::TestB::`) for a class body.
    prefix: &'r str,
    marks: &'r [Mark<'a>],
    setup: &'r [(u32, CaseReason)],
    fixtures: &'r Fixtures<'a>,
    /// The line of the `pytest_generate_tests` hook in scope, if any.
    generate: Option<u32>,
}

/// `test_b = test_a`: pytest collects the function again under the new name (when that is the
/// name's last binding in the body).
fn test_aliases(body: &[Stmt]) -> Vec<(&str, &str)> {
    let mut aliases = Vec::new();
    for (i, stmt) in body.iter().enumerate() {
        let Stmt::Assign(a) = stmt else { continue };
        let ([Expr::Name(target)], Expr::Name(value)) = (a.targets.as_slice(), a.value.as_ref())
        else {
            continue;
        };
        let name = target.id.as_str();
        let rebound_later = body[i + 1..].iter().any(|s| match s {
            Stmt::Assign(b) => b
                .targets
                .iter()
                .any(|t| matches!(t, Expr::Name(n) if n.id.as_str() == name)),
            Stmt::FunctionDef(g) => g.name.as_str() == name,
            _ => false,
        });
        let defined_before = body[..i]
            .iter()
            .any(|s| matches!(s, Stmt::FunctionDef(g) if g.name.as_str() == value.id.as_str()));
        if name.starts_with("test") && !rebound_later && defined_before {
            aliases.push((name, value.id.as_str()));
        }
    }
    aliases
}

/// `test_x = pytest.mark.skip(...)(test_x)` (or any rebinding of a test's name after its
/// definition): pytest collects whatever the name holds then.
fn rebound_tests<'b>(
    body: &'b [Stmt],
    last_def: &HashMap<&str, usize>,
) -> HashMap<&'b str, TextRange> {
    let mut rebound = HashMap::default();
    for (i, stmt) in body.iter().enumerate() {
        let Stmt::Assign(a) = stmt else { continue };
        for t in &a.targets {
            if let Expr::Name(n) = t {
                if last_def.get(n.id.as_str()).is_some_and(|&j| j < i) {
                    rebound.insert(n.id.as_str(), stmt.range());
                }
            }
        }
    }
    rebound
}

/// Names a `del` statement of the body removes, with the index of the definition it removes (the
/// last one before it, when that binding is the name's last).
fn deleted_names(body: &[Stmt]) -> HashSet<(&str, usize)> {
    let mut out = HashSet::default();
    for (i, stmt) in body.iter().enumerate() {
        // `test_helper.__test__ = False` after the `def`: pytest reads `__test__` when it collects
        // the module, after the whole of it ran, and collects nothing under that name. (The last
        // such store decides.)
        let disabled: Vec<&str> = match stmt {
            Stmt::Delete(d) => d
                .targets
                .iter()
                .filter_map(|t| match t {
                    Expr::Name(n) => Some(n.id.as_str()),
                    _ => None,
                })
                .collect(),
            Stmt::Assign(a) => match (a.targets.as_slice(), falsy_literal(&a.value)) {
                ([Expr::Attribute(t)], Some(true))
                    if t.attr.as_str() == "__test__"
                        && !body[i + 1..].iter().any(|s| {
                            stores_test_attr(s, t.value.as_name_expr().map(|n| n.id.as_str()))
                        }) =>
                {
                    t.value
                        .as_name_expr()
                        .map(|n| vec![n.id.as_str()])
                        .unwrap_or_default()
                }
                _ => Vec::new(),
            },
            _ => Vec::new(),
        };
        for name in disabled {
            let def = body[..i].iter().rposition(|s| match s {
                Stmt::FunctionDef(f) => f.name.as_str() == name,
                Stmt::ClassDef(c) => c.name.as_str() == name,
                _ => false,
            });
            let redefined = body[i + 1..].iter().any(|s| match s {
                Stmt::FunctionDef(f) => f.name.as_str() == name,
                Stmt::ClassDef(c) => c.name.as_str() == name,
                Stmt::Assign(a) => a
                    .targets
                    .iter()
                    .any(|t| matches!(t, Expr::Name(m) if m.id.as_str() == name)),
                _ => false,
            });
            if let (Some(j), false) = (def, redefined) {
                out.insert((name, j));
            }
        }
    }
    out
}

/// Whether an expression is a literal Python takes as false (`Some(true)`) or true (`Some(false)`).
fn falsy_literal(e: &Expr) -> Option<bool> {
    match e {
        Expr::BooleanLiteral(b) => Some(!b.value),
        Expr::NoneLiteral(_) => Some(true),
        Expr::NumberLiteral(n) => match &n.value {
            ast::Number::Int(i) => Some(i.as_u64() == Some(0)),
            _ => None,
        },
        Expr::StringLiteral(s) => Some(s.value.is_empty()),
        _ => None,
    }
}

/// Whether a statement stores `name.__test__` (any `__test__` store when the name is unknown).
fn stores_test_attr(stmt: &Stmt, name: Option<&str>) -> bool {
    matches!(stmt, Stmt::Assign(a) if a.targets.iter().any(|t| matches!(t,
        Expr::Attribute(at) if at.attr.as_str() == "__test__"
            && name.is_none_or(|n| matches!(at.value.as_ref(), Expr::Name(m) if m.id.as_str() == n)))))
}

/// A class's marks: its body's `pytestmark`, then its decorators bottom-up (evaluated where the
/// class statement runs), then the enclosing scopes' marks.
fn class_marks<'a>(
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

struct Collector<'s, 'a> {
    scope: &'s ModuleScope<'a>,
    map: &'s SourceMap<'s>,
    eval: Evaluator<'s, 'a>,
    cases: Vec<Case<'a>>,
    unlisted: Vec<Unlisted<'a>>,
    /// Fixtures of the classes around the body being collected (name, line).
    class_fixtures: Vec<(String, u32)>,
    /// Methods a subclass overrides, skipped while its base's body is collected under it.
    exclude: HashSet<String>,
    /// The module's `unittest.TestCase` classes: pytest's unittest plugin collects them
    /// (`unittest::cases`), not its Python class collector.
    unittest_classes: HashSet<TextRange>,
    /// Why pytest may run the file's tests in another order than the file's (a parametrization
    /// wider than function, or one the extractor cannot see): then which test first gets a
    /// parameter object several share is pytest's choice.
    reorder: Option<String>,
    /// How pytest names a long string in an id it generates (its version's rule).
    long_str: ids::LongStrIds,
}

impl<'s, 'a> Collector<'s, 'a> {
    /// Collect the tests of a module or class body, recursing into test classes.
    fn collect_in(&mut self, within: Within<'_, 'a>) {
        let body = within.body;
        // pytest collects a name once: a later definition replaces an earlier one.
        let mut last_def: HashMap<&str, usize> = HashMap::default();
        for (i, stmt) in body.iter().enumerate() {
            if let Stmt::FunctionDef(f) = stmt {
                last_def.insert(f.name.as_str(), i);
            }
        }
        let first_case = self.cases.len();
        let rebound = rebound_tests(body, &last_def);
        let deleted = deleted_names(body);
        for (i, stmt) in body.iter().enumerate() {
            match stmt {
                // `del test_x` after its definition: pytest finds nothing under the name.
                Stmt::FunctionDef(f) if deleted.contains(&(f.name.as_str(), i)) => {}
                Stmt::ClassDef(c) if deleted.contains(&(c.name.as_str(), i)) => {}
                Stmt::FunctionDef(f)
                    if f.name.starts_with("test") && !self.exclude.contains(f.name.as_str()) =>
                {
                    let shadowed = last_def.get(f.name.as_str()).copied().filter(|&j| j != i);
                    self.collect_function(&within, f, shadowed, rebound.get(f.name.as_str()));
                }
                Stmt::ClassDef(c)
                    if c.name.starts_with("Test") && !self.unittest_classes.contains(&c.range) =>
                {
                    self.collect_class(&within, c)
                }
                _ => {}
            }
        }
        for (alias, original) in test_aliases(body) {
            let from = format!("{}{original}", within.prefix);
            let copies: Vec<Case<'a>> = self.cases[first_case..]
                .iter()
                .filter(|c| {
                    c.func.name.as_str() == original
                        && (c.id == from || c.id.starts_with(&format!("{from}[")))
                })
                .map(|c| {
                    let mut c = c.clone();
                    c.id = format!("{}{alias}{}", within.prefix, &c.id[from.len()..]);
                    c
                })
                .collect();
            self.cases.extend(copies);
        }
    }

    /// The cases of one `test*` function of the body (or why its ids are unknown).
    fn collect_function(
        &mut self,
        within: &Within<'_, 'a>,
        f: &'a ast::StmtFunctionDef,
        shadowed: Option<usize>,
        rebound: Option<&TextRange>,
    ) {
        let map = self.map;
        let in_class = !within.prefix.is_empty();
        let place = Place {
            class: in_class.then_some(within.body),
            before: f.range.start(),
        };
        // pytest's order: the function's marks bottom-up, then its classes', then the module's.
        let mut marks: Vec<Mark<'a>> = f
            .decorator_list
            .iter()
            .rev()
            .map(|d| Mark {
                expr: &d.expression,
                place,
                own: true,
            })
            .collect();
        marks.extend(within.marks.iter().copied());
        let name = format!("{}{}", within.prefix, f.name);
        let mut cases =
            match self.expand(f, &marks, &name, in_class, within.fixtures, within.generate) {
                Ok(cases) => cases,
                Err(why) => {
                    if shadowed.is_none() {
                        self.unlisted.push(Unlisted { func: f, name, why });
                    }
                    return;
                }
            };
        for case in &mut cases {
            case.setup.extend(within.setup.iter().cloned());
            case.class_fixtures
                .extend(self.class_fixtures.iter().cloned());
            if let Some(r) = rebound {
                case.not_run.get_or_insert_with(|| {
                    kept(Collection::TestNameRebound.because(format!(
                        "`{}` on line {} rebinds the test's name; pytest collects what that makes of it (a mark, a wrapper)",
                        map.snippet(*r),
                        map.line(r.start())
                    )))
                });
            }
            if let Some(j) = shadowed {
                let line = map.line(within.body[j].range().start());
                case.not_run = Some(kept(Collection::TestRedefined.because(format!(
                    "a later definition of `{}` (line {line}) replaces this one; pytest never runs it",
                    f.name
                ))));
            }
            if f.is_async {
                case.not_run.get_or_insert_with(|| {
                    kept(
                        Collection::AsyncTest
                            .because("an `async def` test needs a plugin to run under pytest"),
                    )
                });
            }
        }
        self.cases.extend(cases);
    }

    /// The tests of a `Test*` class of the body: its own methods, then those it inherits from
    /// bases defined in the body, under the class's marks and setup.
    fn collect_class(&mut self, within: &Within<'_, 'a>, c: &'a ast::StmtClassDef) {
        if self.unlist_decorated_class(within, c) {
            return;
        }
        let in_class = !within.prefix.is_empty();
        let marks = class_marks(c, in_class.then_some(within.body), within.marks);
        let Some(setup) = self.class_setup(within.body, c, within.setup) else {
            return;
        };
        let class_prefix = format!("{}{}::", within.prefix, c.name);
        let inner = Fixtures::of(&c.body, self.scope, Some(&c.body), Some(within.fixtures));
        let generate = self.class_generate(c).or(within.generate);
        let outer_count = self.class_fixtures.len();
        self.push_class_fixtures(c);
        let inner_within = |body: &'a [Stmt]| Within {
            body,
            prefix: &class_prefix,
            marks: &marks,
            setup: &setup,
            fixtures: &inner,
            generate,
        };
        self.collect_in(inner_within(&c.body));
        // Test methods inherited from a base class of this body, unless overridden.
        let own: HashSet<String> = c
            .body
            .iter()
            .filter_map(|m| match m {
                Stmt::FunctionDef(m) => Some(m.name.to_string()),
                _ => None,
            })
            .collect();
        for base in bases_in(within.body, c) {
            let saved = std::mem::replace(&mut self.exclude, own.clone());
            self.collect_in(inner_within(&base.body));
            self.exclude = saved;
        }
        self.class_fixtures.truncate(outer_count);
    }

    /// A decorator that is not a pytest mark may remake the class (`@dataclass` gives it a
    /// constructor, and pytest then does not collect it): whether and how pytest collects its
    /// tests is not in the file. Lists its tests apart and says so.
    fn unlist_decorated_class(
        &mut self,
        within: &Within<'_, 'a>,
        c: &'a ast::StmtClassDef,
    ) -> bool {
        let map = self.map;
        let Some(d) = c
            .decorator_list
            .iter()
            .find(|d| self.scope.pytest_path(&d.expression).is_none())
        else {
            return false;
        };
        let why = format!(
            "its class `{}` is decorated with `@{}` (line {}), which may give it a constructor (pytest then does not collect it) or change its tests",
            c.name,
            map.snippet(d.expression.range()),
            map.line(d.range().start())
        );
        for s in &c.body {
            if let Stmt::FunctionDef(f) = s {
                if f.name.starts_with("test") {
                    self.unlisted.push(Unlisted {
                        func: f,
                        name: format!("{}{}::{}", within.prefix, c.name, f.name),
                        why: why.clone(),
                    });
                }
            }
        }
        true
    }

    /// The line of the class's own `pytest_generate_tests` hook, if it has one.
    fn class_generate(&self, c: &ast::StmtClassDef) -> Option<u32> {
        c.body.iter().find_map(|s| match s {
            Stmt::FunctionDef(g) if g.name.as_str() == "pytest_generate_tests" => {
                Some(self.map.line(g.range.start()))
            }
            _ => None,
        })
    }

    /// Record the fixtures the class defines (they override the module's for its tests).
    fn push_class_fixtures(&mut self, c: &ast::StmtClassDef) {
        for m in &c.body {
            if let Stmt::FunctionDef(m) = m {
                if m.decorator_list.iter().any(|d| {
                    self.scope.pytest_path(&d.expression).as_deref() == Some("pytest.fixture")
                }) {
                    self.class_fixtures
                        .push((m.name.to_string(), self.map.line(m.range.start())));
                }
            }
        }
    }

    /// What runs before each test of class `c` (its bases, autouse fixtures and setup methods,
    /// after the enclosing scopes'), or `None` when pytest does not collect the class: it has a
    /// constructor (its asserts are helper assertions), or `__test__` says it is not a test.
    fn class_setup(
        &self,
        body: &'a [Stmt],
        c: &'a ast::StmtClassDef,
        outer_setup: &[(u32, CaseReason)],
    ) -> Option<Vec<(u32, CaseReason)>> {
        let mut setup: Vec<(u32, CaseReason)> = outer_setup.to_vec();
        // Bases may define setup methods and autouse fixtures the file does not show.
        setup.extend(self.base_setup(c));
        let (own_init, own_not_a_test) = self.body_setup(c, &mut setup);
        // A constructor inherited from a base class of this body: pytest does not collect it either.
        let has_init = own_init || inherits_init(body, c);
        let not_a_test = own_not_a_test || inherits_not_a_test(body, c);
        (!has_init && !not_a_test).then_some(setup)
    }

    /// A base other than `object`, whose setup and fixtures the file does not show.
    fn base_setup(&self, c: &ast::StmtClassDef) -> Option<(u32, CaseReason)> {
        let args = c.arguments.as_ref()?;
        let base = args
            .args
            .iter()
            .chain(args.keywords.iter().map(|k| &k.value))
            .find(|b| !matches!(b, Expr::Name(n) if n.id.as_str() == "object"))?;
        let line = self.map.line(c.range.start());
        Some((
            line,
            kept(Collection::TestClassHasBase.because(format!(
                "`{}` (line {line}) derives from `{}`, whose setup and fixtures may run before each test",
                c.name,
                self.map.snippet(base.range())
            ))),
        ))
    }

    /// The class body's autouse fixtures and setup methods (pushed onto `setup`), and whether it
    /// has a constructor and whether it sets `__test__` to something other than `True`.
    fn body_setup(
        &self,
        c: &ast::StmtClassDef,
        setup: &mut Vec<(u32, CaseReason)>,
    ) -> (bool, bool) {
        let map = self.map;
        let mut has_init = false;
        let mut not_a_test = false;
        for s in &c.body {
            if let Stmt::Assign(a) = s {
                if matches!(a.targets.as_slice(), [Expr::Name(n)] if n.id.as_str() == "__test__")
                    && !matches!(a.value.as_ref(), Expr::BooleanLiteral(b) if b.value)
                {
                    not_a_test = true;
                }
            }
            let Stmt::FunctionDef(m) = s else { continue };
            if self.is_autouse_fixture(m) {
                let line = map.line(m.range.start());
                setup.push((
                    line,
                    kept(Collection::ClassSetupNotReplayed.because(format!(
                        "the autouse fixture `{}.{}` (line {line}) runs before each test",
                        c.name, m.name
                    ))),
                ));
            }
            match m.name.as_str() {
                "setup_method" | "setup" | "setup_class" | "setUp" => setup.push((
                    map.line(m.range.start()),
                    kept(Collection::ClassSetupNotReplayed.because(format!(
                        "`{}.{}` (line {}) runs {}",
                        c.name,
                        m.name,
                        map.line(m.range.start()),
                        if m.name.as_str() == "setup_class" {
                            "once, before the class's first test, and may change state its tests share"
                        } else {
                            "before each test"
                        }
                    ))),
                )),
                _ => {}
            }
        }
        has_init |= binds_constructor(&c.body);
        (has_init, not_a_test)
    }

    /// `@pytest.fixture(autouse=True)` on a method or function.
    fn is_autouse_fixture(&self, f: &ast::StmtFunctionDef) -> bool {
        f.decorator_list.iter().any(|d| {
            matches!(&d.expression, Expr::Call(call)
            if self.scope.pytest_path(&d.expression).as_deref() == Some("pytest.fixture")
                && call.arguments.keywords.iter().any(|k| {
                    k.arg.as_ref().is_some_and(|a| a.as_str() == "autouse")
                        && !matches!(&k.value, Expr::BooleanLiteral(b) if !b.value)
                }))
        })
    }

    /// The cases of one test function, or why its ids cannot be known.
    fn expand(
        &mut self,
        f: &'a ast::StmtFunctionDef,
        marks: &[Mark<'a>],
        base: &str,
        in_class: bool,
        fixtures: &Fixtures<'a>,
        generate: Option<u32>,
    ) -> Result<Vec<Case<'a>>, String> {
        let mut read = MarksRead::default();
        for mark in marks {
            self.read_mark(mark, fixtures, &mut read)?;
        }
        let argnames = test_argnames(f, in_class);
        let order = self.parametrizations(
            read.parametrizes,
            &read.usefixtures,
            &argnames,
            fixtures,
            generate,
        );
        let order = order.inspect_err(|why| {
            self.reorder.get_or_insert_with(|| {
                format!(
                    "pytest may reorder the file's tests around `{}`: {why}",
                    f.name
                )
            });
        })?;
        if let Some(p) = order.iter().find(|p| p.scope > 0) {
            self.reorder.get_or_insert_with(|| {
                format!(
                    "pytest reorders the file's tests around the parametrization on line {} (wider than function scope)",
                    p.line
                )
            });
        }
        let first = Case {
            id: base.to_string(),
            func: f,
            is_method: in_class,
            unittest: false,
            unittest_setup: None,
            params: Vec::new(),
            param_ranges: Vec::new(),
            not_run: read.not_run.map(kept),
            parametrized: !order.is_empty(),
            setup: read.setup,
            class_fixtures: Vec::new(),
            fixture_values: Vec::new(),
        };
        combine(first, base, &order)
    }

    /// What one mark (or other decorator) of a test says: pushed onto `read`.
    fn read_mark(
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

    /// Every parametrization of a test in pytest's order: parametrized fixtures first (pytest's
    /// fixtures plugin generates them before the marks), in the order of the fixture closure
    /// sorted by scope, widest first; then the marks.
    fn parametrizations(
        &self,
        mut parametrizes: Vec<Parametrize<'a>>,
        usefixtures: &[String],
        argnames: &[String],
        fixtures: &Fixtures<'a>,
        generate: Option<u32>,
    ) -> Result<Vec<Parametrize<'a>>, String> {
        let direct: Vec<&str> = parametrizes
            .iter()
            .flat_map(|p| p.names.iter().zip(&p.indirect))
            .filter(|(_, indirect)| !**indirect)
            .map(|(n, _)| n.as_str())
            .collect();
        let mut closure: Vec<String> = Vec::new();
        for name in fixtures.autouse.iter().chain(usefixtures).chain(argnames) {
            close_over(name, fixtures, &direct, &mut closure, 0);
        }
        self.closure_is_known(&closure, fixtures, generate)?;
        let marked: Vec<&str> = parametrizes
            .iter()
            .flat_map(|p| p.names.iter().map(String::as_str))
            .collect();
        // A fixture that may run code (not a value handed on): one whose value is replayed must
        // come before any of them, in pytest's order and in the fold's (the test's arguments).
        let runs_code = |n: &str| {
            !direct.contains(&n)
                && !fixtures
                    .by_name
                    .get(n)
                    .is_some_and(|d| d.params.is_some() && d.returns_param)
        };
        let sorted = by_scope(&closure, fixtures)?;
        let first: Vec<&str> = sorted
            .iter()
            .enumerate()
            .filter(|(k, name)| {
                !sorted[..*k].iter().any(|n| runs_code(n))
                    && !argnames
                        .iter()
                        .take_while(|a| a != *name)
                        .any(|a| runs_code(a))
            })
            .map(|(_, name)| name.as_str())
            .collect();
        let mut order = Vec::new();
        for name in &sorted {
            if marked.contains(&name.as_str()) {
                continue;
            }
            let is_first = first.contains(&name.as_str());
            if let Some(p) = self.fixture_parametrize(name, fixtures, argnames, is_first)? {
                order.push(p);
            }
        }
        for p in &mut parametrizes {
            self.route_indirect(p, fixtures, &first);
        }
        order.extend(parametrizes);
        parametrized_once(&order)?;
        Ok(order)
    }

    /// Whether the file tells every parametrization of the closure: a fixture from a conftest.py
    /// with `params=`, or a `pytest_generate_tests` hook, multiplies the test into cases whose ids
    /// the file alone does not tell.
    fn closure_is_known(
        &self,
        closure: &[String],
        fixtures: &Fixtures<'a>,
        generate: Option<u32>,
    ) -> Result<(), String> {
        if let Some((name, why)) = closure.iter().find_map(|n| {
            (!fixtures.by_name.contains_key(n))
                .then(|| self.scope.param_fixtures.get(n).map(|w| (n, w)))
                .flatten()
        }) {
            return Err(format!("the fixture `{name}` {why} parametrizes it"));
        }
        if let Some(line) = generate {
            if !closure.is_empty() {
                return Err(format!(
                    "`pytest_generate_tests` (line {line}) may parametrize it, which the extractor does not run"
                ));
            }
        }
        Ok(())
    }

    /// The parametrization a fixture's `params=` makes, if it has them.
    fn fixture_parametrize(
        &self,
        name: &str,
        fixtures: &Fixtures<'a>,
        argnames: &[String],
        first: bool,
    ) -> Result<Option<Parametrize<'a>>, String> {
        let Some(def) = fixtures.by_name.get(name) else {
            return Ok(None);
        };
        let Some(params) = def.params else {
            return Ok(None);
        };
        let line = self.map.line(def.func.range.start());
        let mut p = self.parameter_sets(
            vec![name.to_string()],
            params,
            def.ids,
            def.place,
            line,
            Some(def.func.name.as_str()),
        )?;
        p.indirect = vec![true];
        p.scope = def.scope.clone().unwrap_or(4);
        let requested = argnames.iter().any(|a| a == name);
        if def.returns_param && requested {
            p.pass_through = vec![true];
        } else if requested && first && def.argnames == ["request"] {
            for set in &mut p.sets {
                self.replay_fixture(def, line, set, 0);
            }
        }
        Ok(Some(p))
    }

    /// The fixture's body run for the case's param (`pytest::fixture_body`): its value as Python
    /// source, or why pytest skips the case or the extractor cannot tell its value.
    /// Whether the case has a value or a reason from it (else the fixture's body is not one this
    /// replays, or the param is computed). `i`: which name of the case goes through the fixture.
    fn replay_fixture(
        &self,
        def: &FixtureDef<'a>,
        line: u32,
        set: &mut ParamSet<'a>,
        i: usize,
    ) -> bool {
        let Some(expr) = set.exprs.as_ref().and_then(|e| e.get(i).copied()) else {
            return false;
        };
        let param = self.eval.eval(expr, def.place);
        if matches!(param, PyValue::Unknown(_)) {
            return false;
        }
        let outcome = fixture_body::run(
            &def.func.body,
            &param,
            self.scope,
            &self.eval,
            def.place,
            self.map,
        );
        let name = &def.func.name;
        match outcome {
            Some(Outcome::Value(text)) => set.replay.push((i, text)),
            // The fixture body's own reason keeps its rule (`pytest::fixture_body` names it; a
            // bare text is unsorted until it does).
            Some(Outcome::Skip(why)) => {
                set.not_run.get_or_insert(
                    why.map(|why| format!("fixture `{name}` (line {line}) skips this case: {why}")),
                );
            }
            Some(Outcome::Undecided(why)) => {
                set.not_run.get_or_insert(
                    why.map(|why| format!("fixture `{name}` (line {line}) with this param: {why}")),
                );
            }
            None => return false,
        }
        true
    }

    /// `indirect` names of a parametrize mark: handed on when their fixture returns its param,
    /// replayed with each value when the fixture's body is one `pytest::fixture_body` runs and no
    /// fixture that may run code comes before it (`first`), else the cases cannot be replayed.
    fn route_indirect(&self, p: &mut Parametrize<'a>, fixtures: &Fixtures<'a>, first: &[&str]) {
        let map = self.map;
        for (i, name) in p.names.iter().enumerate() {
            if !p.indirect[i] {
                continue;
            }
            match fixtures.by_name.get(name) {
                Some(def) if def.returns_param => p.pass_through[i] = true,
                Some(def) => {
                    let line = map.line(def.func.range.start());
                    let why = Collection::FixtureParamNotReplayed.because(format!(
                        "parametrize on line {}: `indirect` sends `{name}` through the fixture `{name}` (line {line}), which the extractor does not replay with each value",
                        p.line,
                    ));
                    let replayable = def.argnames == ["request"] && first.contains(&name.as_str());
                    for set in &mut p.sets {
                        if !(replayable && self.replay_fixture(def, line, set, i)) {
                            set.not_run.get_or_insert(why.clone());
                        }
                    }
                }
                None => {
                    let why = Collection::IndirectFixtureNotInFile.because(format!(
                        "parametrize on line {}: `indirect` sends `{name}` through a fixture not defined in this file",
                        p.line
                    ));
                    p.not_run.get_or_insert(why);
                }
            }
        }
    }

    fn parse_parametrize(
        &self,
        call: &'a ast::ExprCall,
        place: Place<'a>,
        fixtures: &Fixtures<'a>,
    ) -> Result<Parametrize<'a>, String> {
        let line = self.map.line(call.range().start());
        let arg = |pos: usize, kw: &str| -> Option<&'a Expr> {
            call.arguments.args.get(pos).or_else(|| keyword(call, kw))
        };
        let fail = |why: &str| format!("parametrize on line {line}: {why}");
        if call
            .arguments
            .args
            .iter()
            .any(|a| matches!(a, Expr::Starred(_)))
            || call.arguments.keywords.iter().any(|k| k.arg.is_none())
        {
            return Err(fail("its arguments are unpacked with `*`"));
        }
        let names: Vec<String> = match arg(0, "argnames").map(|e| self.eval.eval(e, place)) {
            Some(PyValue::Str(s)) => s
                .split(',')
                .map(|n| n.trim().to_string())
                .filter(|n| !n.is_empty())
                .collect(),
            Some(PyValue::Tuple(v) | PyValue::List(v)) => {
                let mut names = Vec::new();
                for n in v {
                    match n {
                        PyValue::Str(s) => names.push(s),
                        _ => return Err(fail("argument names are not strings")),
                    }
                }
                names
            }
            Some(PyValue::Unknown(why)) => {
                return Err(fail(&format!("the argument names are computed ({why})")))
            }
            _ => return Err(fail("argument names are not strings")),
        };
        // A single name in a string: each value is one argument, not unpacked.
        let force_tuple = matches!(
            arg(0, "argnames").map(|e| self.eval.eval(e, place)),
            Some(PyValue::Str(_))
        ) && names.len() == 1;
        let Some(values) = arg(1, "argvalues") else {
            return Err(fail("it has no values"));
        };
        let mut p = self.parameter_sets_with(
            names,
            values,
            keyword(call, "ids"),
            place,
            line,
            None,
            force_tuple,
        )?;
        let (indirect, all_indirect) = self
            .indirect_names(call, place, &p.names)
            .ok_or_else(|| fail("`indirect` is computed"))?;
        p.scope = self.mark_scope(call, place, &p.names, all_indirect, fixtures);
        p.pass_through = vec![false; p.names.len()];
        p.indirect = indirect;
        Ok(p)
    }

    /// Which names of a parametrize mark go through their fixtures (`indirect=`), and whether pytest
    /// counts all of them as fixtures (a list must name as many as there are names); `None` when
    /// `indirect` is computed.
    fn indirect_names(
        &self,
        call: &'a ast::ExprCall,
        place: Place<'a>,
        names: &[String],
    ) -> Option<(Vec<bool>, bool)> {
        match keyword(call, "indirect").map(|e| self.eval.eval(e, place)) {
            None | Some(PyValue::Bool(false)) => Some((vec![false; names.len()], false)),
            Some(PyValue::Bool(true)) => Some((vec![true; names.len()], true)),
            Some(PyValue::Tuple(v) | PyValue::List(v)) => {
                let all = v.len() == names.len();
                let listed: Vec<String> = v
                    .into_iter()
                    .filter_map(|n| match n {
                        PyValue::Str(s) => Some(s),
                        _ => None,
                    })
                    .collect();
                Some((names.iter().map(|n| listed.contains(n)).collect(), all))
            }
            Some(_) => None,
        }
    }

    /// The scope of a parametrize mark (`_find_parametrized_scope`): its `scope=`, else the
    /// narrowest scope of its fixtures when every name is indirect, else function (0). A scope the
    /// extractor cannot tell counts as the widest, session (4).
    fn mark_scope(
        &self,
        call: &'a ast::ExprCall,
        place: Place<'a>,
        names: &[String],
        all_indirect: bool,
        fixtures: &Fixtures<'a>,
    ) -> u8 {
        if let Some(scope) = keyword(call, "scope") {
            return match self.eval.eval(scope, place) {
                PyValue::None => 0,
                PyValue::Str(s) => scope_order(&s).unwrap_or(4),
                _ => 4,
            };
        }
        if !all_indirect {
            return 0;
        }
        names
            .iter()
            .map(|n| match fixtures.by_name.get(n) {
                Some(def) => def.scope.clone().unwrap_or(4),
                None => 4,
            })
            .min()
            .unwrap_or(0)
    }

    fn parameter_sets(
        &self,
        names: Vec<String>,
        values: &'a Expr,
        ids: Option<&'a Expr>,
        place: Place<'a>,
        line: u32,
        fixture: Option<&str>,
    ) -> Result<Parametrize<'a>, String> {
        // A fixture's params are each one value.
        self.parameter_sets_with(names, values, ids, place, line, fixture, true)
    }

    /// pytest's parameter sets and their ids (`ParameterSet._for_parametrize`, `IdMaker`).
    #[allow(clippy::too_many_arguments)]
    fn parameter_sets_with(
        &self,
        names: Vec<String>,
        values: &'a Expr,
        ids_expr: Option<&'a Expr>,
        place: Place<'a>,
        line: u32,
        fixture: Option<&str>,
        force_tuple: bool,
    ) -> Result<Parametrize<'a>, String> {
        let what = match fixture {
            Some(name) => format!("fixture `{name}` (line {line})"),
            None => format!("parametrize on line {line}"),
        };
        let how = SetsOf {
            what,
            names: &names,
            force_tuple,
        };
        let elements = self.elements(values, place, &how)?;
        let ids = self.ids_of(ids_expr, place, &how)?;
        if let Ids::List(list) = &ids {
            if !list.is_empty() && list.len() != elements.len() {
                return Err(
                    how.fail("`ids` and the cases differ in number: pytest fails to collect it")
                );
            }
        }
        let mut sets: Vec<ParamSet<'a>> = Vec::new();
        if elements.is_empty() {
            // pytest's empty parameter set: one case, `NOTSET`, skipped.
            sets.push(ParamSet {
                exprs: None,
                range: values.range(),
                id: Id::Shown("NOTSET".into()),
                not_run: Some(Collection::ParametrizeEmpty.because(format!(
                    "{}: it has no cases, so pytest skips the test (`NOTSET`)",
                    how.what
                ))),

                replay: Vec::new(),
            });
            return Ok(Parametrize::new(names, sets, line));
        }
        for (index, element) in elements.into_iter().enumerate() {
            sets.push(self.param_set(index, element, values, &ids, &how)?);
        }
        unique_ids(&mut sets, &how)?;
        Ok(Parametrize::new(names, sets, line))
    }

    /// The cases: source expressions where the file spells them out, values always.
    fn elements(
        &self,
        values: &'a Expr,
        place: Place<'a>,
        how: &SetsOf,
    ) -> Result<Vec<Element<'a>>, String> {
        let Some((elts, at)) = self.literal_elements(values, place, 0) else {
            return match self.eval.eval(values, place) {
                PyValue::List(v) | PyValue::Tuple(v) => {
                    Ok(v.into_iter().map(|v| (None, v, place)).collect())
                }
                PyValue::Str(s) => Ok(s
                    .chars()
                    .map(|c| (None, PyValue::Str(c.to_string()), place))
                    .collect()),
                PyValue::Unknown(why) => Err(how.fail(&format!("its cases are computed ({why})"))),
                _ => Err(how.fail("its cases are not a sequence the extractor can read")),
            };
        };
        if !elts.iter().any(|e| matches!(e, Expr::Starred(_))) {
            return Ok(elts
                .iter()
                .map(|e| (Some(e), self.eval.eval(e, at), at))
                .collect());
        }
        // Unpacked cases: their values may still be known.
        match self.eval.eval(values, place) {
            PyValue::List(v) | PyValue::Tuple(v) => {
                Ok(v.into_iter().map(|v| (None, v, place)).collect())
            }
            PyValue::Unknown(why) => Err(how.fail(&format!("its cases are computed ({why})"))),
            _ => Err(how.fail("its cases are not a sequence")),
        }
    }

    /// `ids=`: a list of ids, or a callable applied to each value.
    fn ids_of(
        &self,
        ids_expr: Option<&'a Expr>,
        place: Place<'a>,
        how: &SetsOf,
    ) -> Result<Ids<'a>, String> {
        Ok(match ids_expr.map(|e| self.eval.eval(e, place)) {
            None | Some(PyValue::None) => Ids::None,
            Some(PyValue::List(v) | PyValue::Tuple(v)) => Ids::List(v),
            Some(PyValue::Func(_, Some(f))) => Ids::Callable(f),
            Some(PyValue::Named(b))
                if (b == "str" || b == "repr") && !self.scope.globals.contains_key(&b) =>
            {
                Ids::Callable(Callable::Builtin(if b == "str" { "str" } else { "repr" }))
            }
            Some(PyValue::Unknown(why)) => {
                return Err(how.fail(&format!("its `ids` are computed ({why})")))
            }
            Some(_) => {
                return Err(how.fail("its `ids` callable is not one the extractor can evaluate"))
            }
        })
    }

    /// One parameter set: its values (and their source, when the file spells them out and a test
    /// function's scope reads them the same), its id and its marks.
    fn param_set(
        &self,
        index: usize,
        (expr, value, at): Element<'a>,
        values: &'a Expr,
        ids: &Ids<'a>,
        how: &SetsOf,
    ) -> Result<ParamSet<'a>, String> {
        let range = expr.map_or(values.range(), Ranged::range);
        // `pytest.param(*values, id=..., marks=...)`.
        let param_call = expr.and_then(|e| match e {
            Expr::Call(c) if self.scope.pytest_path(e).as_deref() == Some("pytest.param") => {
                Some(c)
            }
            _ => None,
        });
        let (explicit, not_run, (exprs, vals)) = match param_call {
            Some(c) => self.pytest_param(c, at, how)?,
            None => (None, None, self.unpack_case(expr, value, at, how)?),
        };
        if vals.len() != how.names.len() {
            return Err(how.fail(
                "a case does not have one value per argument name: pytest fails to collect it",
            ));
        }
        // Values read from a class body, or reading names bound there, are not what a test
        // function's scope sees: keep them only when they are self-contained literals.
        let exprs = exprs.and_then(|list| {
            list.into_iter()
                .map(|e| self.class_free(e, at, 0))
                .collect::<Option<Vec<_>>>()
        });
        let id = match explicit {
            Some(id) => id,
            None => self.case_id(index, &vals, ids, how)?,
        };
        Ok(ParamSet {
            exprs,
            range,
            id,
            not_run,
            replay: Vec::new(),
        })
    }

    /// `pytest.param(values…, id=…, marks=…)`: its explicit id, why its marks keep it from
    /// running, and its values.
    fn pytest_param(
        &self,
        c: &'a ast::ExprCall,
        at: Place<'a>,
        how: &SetsOf,
    ) -> Result<(Option<Id>, Option<Reason>, CaseValues<'a>), String> {
        let mut explicit = None;
        let mut not_run = None;
        for kw in c.arguments.keywords.iter() {
            match kw.arg.as_ref().map(|a| a.as_str()) {
                Some("id") => {
                    if let Some(id) = self.param_id(&kw.value, at, how)? {
                        explicit = Some(id);
                    }
                }
                Some("marks") => not_run = case_marks(&kw.value, self.scope, self.map),
                _ => return Err(how.fail("a `pytest.param` has an argument pytest refuses")),
            }
        }
        if c.arguments
            .args
            .iter()
            .any(|a| matches!(a, Expr::Starred(_)))
        {
            return Err(how.fail("a `pytest.param` unpacks values with `*`"));
        }
        let args: Vec<&'a Expr> = c.arguments.args.iter().collect();
        let vals = args.iter().map(|a| self.eval.eval(a, at)).collect();
        Ok((explicit, not_run, (Some(args), vals)))
    }

    /// The `id=` of a `pytest.param`: `None` when it is `None` (the id is then computed).
    fn param_id(&self, value: &'a Expr, at: Place<'a>, how: &SetsOf) -> Result<Option<Id>, String> {
        if self.scope.pytest_path(value).as_deref() == Some("pytest.HIDDEN_PARAM") {
            return Ok(Some(Id::Hidden));
        }
        match self.eval.eval(value, at) {
            PyValue::Str(s) => Ok(Some(Id::Shown(ids::ascii_escaped_str(&s)))),
            PyValue::None => Ok(None),
            PyValue::Unknown(why) => {
                Err(how.fail(&format!("a `pytest.param` id is computed ({why})")))
            }
            _ => Err(how.fail("a `pytest.param` id is not a string: pytest refuses it")),
        }
    }

    /// A case that is not a `pytest.param`: one value, or (several names) a sequence unpacked
    /// into them.
    fn unpack_case(
        &self,
        expr: Option<&'a Expr>,
        value: PyValue<'a>,
        at: Place<'a>,
        how: &SetsOf,
    ) -> Result<CaseValues<'a>, String> {
        if how.force_tuple {
            return Ok((expr.map(|e| vec![e]), vec![value]));
        }
        // Several names: each case is unpacked into them.
        let source = expr.and_then(|e| self.literal_elements(e, at, 0));
        match (source, value) {
            (Some((elts, inner)), _) if !elts.iter().any(|e| matches!(e, Expr::Starred(_))) => {
                let vals = elts.iter().map(|e| self.eval.eval(e, inner)).collect();
                Ok((Some(elts.iter().collect()), vals))
            }
            (_, PyValue::Tuple(v) | PyValue::List(v)) => Ok((None, v)),
            (_, PyValue::Unknown(why)) => Err(how.fail(&format!("a case is computed ({why})"))),
            _ => Err(how.fail("a case is not a sequence the extractor can unpack")),
        }
    }

    /// The id pytest gives a case that has no `pytest.param` id: from `ids=`, else from its values.
    fn case_id(
        &self,
        index: usize,
        vals: &[PyValue<'a>],
        ids: &Ids<'a>,
        how: &SetsOf,
    ) -> Result<Id, String> {
        let unknown = |why: String| how.fail(&format!("the id of a case cannot be known: {why}"));
        match ids {
            Ids::List(list) if list.get(index).is_some_and(|v| *v != PyValue::None) => {
                Ok(Id::Shown(ids::explicit_id(&list[index]).map_err(
                    |why| how.fail(&format!("an `ids` entry: {why}")),
                )?))
            }
            Ids::Callable(f) => {
                let mut parts = Vec::new();
                for (v, name) in vals.iter().zip(how.names) {
                    let from_fn = match self.eval.call(f, v.clone()) {
                        PyValue::None => None,
                        PyValue::Unknown(why) => {
                            return Err(how.fail(&format!(
                                "its `ids` callable cannot be evaluated here ({why})"
                            )))
                        }
                        r => ids::idval_from_value(&r).map_err(|why| how.fail(&why))?,
                    };
                    parts.push(match from_fn {
                        Some(s) => s,
                        None => ids::idval(v, name, index, &self.long_str).map_err(unknown)?,
                    });
                }
                Ok(Id::Shown(parts.join("-")))
            }
            _ => {
                let mut parts = Vec::new();
                for (v, name) in vals.iter().zip(how.names) {
                    parts.push(ids::idval(v, name, index, &self.long_str).map_err(unknown)?);
                }
                Ok(Id::Shown(parts.join("-")))
            }
        }
    }

    /// The elements of a list or tuple the file spells out, following names to literal constants
    /// (a class body's first, for a method's decorators), with where they are evaluated.
    fn literal_elements(
        &self,
        expr: &'a Expr,
        place: Place<'a>,
        depth: usize,
    ) -> Option<(&'a [Expr], Place<'a>)> {
        if depth > 16 {
            return None;
        }
        match expr {
            Expr::List(l) => Some((&l.elts, place)),
            Expr::Tuple(t) => Some((&t.elts, place)),
            Expr::Name(n) => {
                let (source, at) = self.name_source(n.id.as_str(), place)?;
                self.literal_elements(source, at, depth + 1)
            }
            _ => None,
        }
    }

    /// The literal a name is bound to: a class-body assignment before `place`, else a module constant.
    fn name_source(&self, name: &str, place: Place<'a>) -> Option<(&'a Expr, Place<'a>)> {
        if let Some(body) = place.class {
            let mut found = None;
            for stmt in body.iter().take_while(|s| s.range().start() < place.before) {
                if value::binds(stmt, name) {
                    found = Some(stmt);
                }
            }
            if let Some(stmt) = found {
                return match stmt {
                    Stmt::Assign(a) if matches!(a.targets.as_slice(), [Expr::Name(t)] if t.id.as_str() == name) => {
                        Some((
                            &a.value,
                            Place {
                                class: Some(body),
                                before: stmt.range().start(),
                            },
                        ))
                    }
                    _ => None,
                };
            }
        }
        match self.scope.globals.get(name) {
            Some(Global::Constant { source, .. }) => Some((source, Place::module())),
            _ => None,
        }
    }

    /// The expression to hand to flatten for a value evaluated at `place`: itself when it reads no
    /// class-body name, the class constant's literal when it is one, else `None`.
    fn class_free(&self, expr: &'a Expr, place: Place<'a>, depth: usize) -> Option<&'a Expr> {
        let Some(body) = place.class else {
            return Some(expr);
        };
        if depth > 16 {
            return None;
        }
        let mut reads = Vec::new();
        load_names(expr, &mut reads);
        let class_bound = |n: &str| {
            body.iter()
                .take_while(|s| s.range().start() < place.before)
                .any(|s| value::binds(s, n))
        };
        if !reads.iter().any(|n| class_bound(n)) {
            return Some(expr);
        }
        if let Expr::Name(n) = expr {
            let (source, at) = self.name_source(n.id.as_str(), place)?;
            return self.class_free(source, at, depth + 1);
        }
        None
    }
}

/// What the marks of a test say, read in pytest's order.
#[derive(Default)]
struct MarksRead<'a> {
    not_run: Option<Reason>,
    setup: Vec<(u32, CaseReason)>,
    parametrizes: Vec<Parametrize<'a>>,
    usefixtures: Vec<String>,
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
        // `filterwarnings` marks, like `-m`, are read per test by `pytest::session`.
        _ => None,
    }
}

/// The test function's arguments pytest fills (no defaults), without `self`.
fn test_argnames(f: &ast::StmtFunctionDef, in_class: bool) -> Vec<String> {
    f.parameters
        .iter_non_variadic_params()
        .filter(|p| p.default.is_none())
        .map(|p| p.parameter.name.to_string())
        .skip(usize::from(in_class))
        .collect()
}

/// The closure's names sorted by fixture scope, widest first (stable).
fn by_scope<'c>(closure: &'c [String], fixtures: &Fixtures) -> Result<Vec<&'c String>, String> {
    let mut sorted: Vec<(u8, &String)> = Vec::new();
    for name in closure {
        let scope = match fixtures.by_name.get(name) {
            Some(def) => def.scope.clone()?,
            None => 0,
        };
        sorted.push((scope, name));
    }
    sorted.sort_by_key(|(scope, _)| std::cmp::Reverse(*scope));
    Ok(sorted.into_iter().map(|(_, n)| n).collect())
}

/// pytest refuses a test that parametrizes one name twice.
fn parametrized_once(order: &[Parametrize]) -> Result<(), String> {
    let mut seen: Vec<&str> = Vec::new();
    for p in order {
        for n in &p.names {
            if seen.contains(&n.as_str()) {
                return Err(format!(
                    "`{n}` is parametrized twice: pytest fails to collect it"
                ));
            }
            seen.push(n);
        }
    }
    Ok(())
}

/// The cases of every combination of the parametrizations (the first varying slowest), with
/// pytest's ids: `base[id1-id2-…]`.
fn combine<'a>(
    first: Case<'a>,
    base: &str,
    order: &[Parametrize<'a>],
) -> Result<Vec<Case<'a>>, String> {
    let mut cases = vec![(first, Vec::new())];
    for p in order {
        if cases.len().saturating_mul(p.sets.len()) > MAX_CASES {
            return Err(format!(
                "its parametrizations make more than {MAX_CASES} cases, which the extractor does not expand"
            ));
        }
        cases = cases
            .iter()
            .flat_map(|(case, idlist)| {
                p.sets
                    .iter()
                    .map(move |set| extend_case(case, idlist, p, set))
            })
            .collect();
    }
    Ok(cases
        .into_iter()
        .map(|(mut case, idlist)| {
            case.id = if idlist.is_empty() {
                base.to_string()
            } else {
                format!("{base}[{}]", idlist.join("-"))
            };
            case
        })
        .collect())
}

/// One case with one more parameter set (its values and its id part).
fn extend_case<'a>(
    case: &Case<'a>,
    idlist: &[String],
    p: &Parametrize<'a>,
    set: &ParamSet<'a>,
) -> (Case<'a>, Vec<String>) {
    let mut params = case.params.clone();
    let mut ranges = case.param_ranges.clone();
    let mut fixture_values = case.fixture_values.clone();
    let mut set_not_run = set.not_run.clone().or_else(|| p.not_run.clone());
    for (i, name) in p.names.iter().enumerate() {
        if p.indirect[i] && !p.pass_through[i] {
            if let Some((_, text)) = set.replay.iter().find(|(j, _)| *j == i) {
                fixture_values.push((name.clone(), text.clone(), set.range));
            }
            continue;
        }
        match set.exprs.as_ref().map(|e| e[i]) {
            Some(expr) => {
                params.push((name.clone(), expr));
                // One range per parameter: the case (of its own decorator) it came from.
                ranges.push(set.range);
            }
            None => {
                set_not_run.get_or_insert_with(|| {
                    Collection::ParamValueComputed.because(format!(
                        "parametrize on line {}: the value of `{name}` is computed, so the extractor cannot replay it",
                        p.line
                    ))
                });
            }
        }
    }
    let mut idlist = idlist.to_vec();
    if let Id::Shown(id) = &set.id {
        idlist.push(id.clone());
    }
    let next = Case {
        id: String::new(),
        func: case.func,
        is_method: case.is_method,
        unittest: case.unittest,
        unittest_setup: case.unittest_setup,
        params,
        param_ranges: ranges,
        not_run: case.not_run.clone().or(set_not_run.map(kept)),
        parametrized: true,
        setup: case.setup.clone(),
        class_fixtures: case.class_fixtures.clone(),
        fixture_values,
    };
    (next, idlist)
}

/// Names a value expression reads (comprehension and lambda variables included: conservative).
fn load_names<'e>(expr: &'e Expr, out: &mut Vec<&'e str>) {
    use ruff_python_ast::visitor::{self as v, Visitor};
    struct Finder<'e, 'o>(&'o mut Vec<&'e str>);
    impl<'e> Visitor<'e> for Finder<'e, '_> {
        fn visit_expr(&mut self, expr: &'e Expr) {
            if let Expr::Name(n) = expr {
                self.0.push(n.id.as_str());
            }
            v::walk_expr(self, expr);
        }
    }
    Finder(out).visit_expr(expr);
}

/// The fixture closure of a test (`getfixtureclosure`): names in request order, depth first.
fn close_over(
    name: &str,
    fixtures: &Fixtures,
    direct: &[&str],
    closure: &mut Vec<String>,
    depth: usize,
) {
    if closure.iter().any(|n| n == name) || depth > 64 {
        return;
    }
    closure.push(name.to_string());
    if direct.contains(&name) {
        return;
    }
    if let Some(def) = fixtures.by_name.get(name) {
        for dep in &def.argnames {
            if dep != name {
                close_over(dep, fixtures, direct, closure, depth + 1);
            }
        }
    }
}

fn keyword<'a>(call: &'a ast::ExprCall, kw: &str) -> Option<&'a Expr> {
    call.arguments
        .keywords
        .iter()
        .find(|k| k.arg.as_ref().is_some_and(|a| a.as_str() == kw))
        .map(|k| &k.value)
}

/// A case as written (when it is), its value, and where it is evaluated.
type Element<'a> = (Option<&'a Expr>, PyValue<'a>, Place<'a>);

/// One parametrization (a mark, or a parametrized fixture), expanded.
struct Parametrize<'a> {
    names: Vec<String>,
    sets: Vec<ParamSet<'a>>,
    line: u32,
    /// Per name: its value goes through a fixture.
    indirect: Vec<bool>,
    /// Per name: a fixture whose value is its param; the value is handed to flatten as is.
    pass_through: Vec<bool>,
    /// Why no case of it can be replayed.
    not_run: Option<Reason>,
    /// Its scope (pytest's order: session 4 … function 0): pytest reorders the tests of the file
    /// around a parametrization wider than function.
    scope: u8,
}

struct ParamSet<'a> {
    /// The source expression of each value, when the file spells them out.
    exprs: Option<Vec<&'a Expr>>,
    range: TextRange,
    id: Id,
    not_run: Option<Reason>,
    /// Values that go through fixtures (by the index of their name): the fixture's value for
    /// them, as Python source that reads only builtins.
    replay: Vec<(usize, String)>,
}

/// A parametrization being read: what its messages start with, its argument names, and whether
/// each case is one value (a single name given as a string, or a fixture's params).
struct SetsOf<'n> {
    what: String,
    names: &'n [String],
    force_tuple: bool,
}

impl SetsOf<'_> {
    fn fail(&self, why: &str) -> String {
        format!("{}: {why}", self.what)
    }
}

/// `ids=`: none, a list of ids, or a callable applied to each value.
enum Ids<'a> {
    None,
    List(Vec<PyValue<'a>>),
    Callable(Callable<'a>),
}

/// A case's values: their source expressions when the file spells them out, and their values.
type CaseValues<'a> = (Option<Vec<&'a Expr>>, Vec<PyValue<'a>>);

/// pytest fails to collect several hidden ids; duplicate ids get a suffix (`a0`, `a1`).
fn unique_ids(sets: &mut [ParamSet], how: &SetsOf) -> Result<(), String> {
    let mut all: Vec<Id> = sets.iter().map(|s| s.id.clone()).collect();
    if all.iter().filter(|i| **i == Id::Hidden).count() > 1 {
        return Err(how.fail("several cases hide their ids: pytest fails to collect it"));
    }
    ids::make_unique(&mut all);
    for (set, id) in sets.iter_mut().zip(all) {
        set.id = id;
    }
    Ok(())
}

impl<'a> Parametrize<'a> {
    /// A parametrization of direct arguments (not through fixtures).
    fn new(names: Vec<String>, sets: Vec<ParamSet<'a>>, line: u32) -> Self {
        let n = names.len();
        Parametrize {
            names,
            sets,
            line,
            indirect: vec![false; n],
            pass_through: vec![false; n],
            not_run: None,
            scope: 0,
        }
    }
}

fn case_marks(expr: &Expr, scope: &ModuleScope, map: &SourceMap) -> Option<Reason> {
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

/// The module's classes pytest would collect by name (`Test…`) but refuses because they have a
/// constructor: pytest warns `PytestCollectionWarning` for each while it collects the file. A
/// `unittest.TestCase` is collected by pytest's unittest plugin, which does not look.
pub fn constructor_test_classes(body: &[Stmt]) -> Vec<&ast::StmtClassDef> {
    let testcases = crate::unittest::testcase_classes(body);
    body.iter()
        .filter_map(|s| match s {
            Stmt::ClassDef(c) => Some(c),
            _ => None,
        })
        .filter(|c| c.name.as_str().starts_with("Test"))
        .filter(|c| !testcases.iter().any(|t| std::ptr::eq(*t, *c)))
        .filter(|c| {
            let not_a_test = c.body.iter().any(|s| {
                matches!(s, Stmt::Assign(a)
                    if matches!(a.targets.as_slice(), [Expr::Name(n)] if n.id.as_str() == "__test__")
                    && !matches!(a.value.as_ref(), Expr::BooleanLiteral(b) if b.value))
            });
            !not_a_test && !inherits_not_a_test(body, c)
        })
        .filter(|c| binds_constructor(&c.body) || inherits_init(body, c))
        .collect()
}
