//! What a module-level statement runs when the file is imported (calls, decorators, class
//! creation) and may change state with, which calls are harmless, and the classes whose instances
//! run none of the file's code.

use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};

use ruff_python_ast::visitor::Visitor;
use ruff_python_ast::{self as ast, Expr, Stmt};

use crate::names;
use crate::rules::{Fixtures, ModuleCode, Rule};
use crate::walk::{any_expr, Scope};

use super::changes::global_declared;
use super::walk::{dotted_name, for_import_time_exprs, is_main_guard, BoundNames};
use super::{Global, ModuleScope};

impl<'a> ModuleScope<'a> {
    /// What a module-level statement does at import that may change state the tests read: a call
    /// that is not pytest's or known harmless, a store through an attribute or item, an augmented
    /// assignment or `del`, and xunit setup functions, which pytest runs before each test.
    pub(super) fn import_effect(&self, stmt: &Stmt) -> Option<&'static str> {
        match stmt {
            Stmt::Import(_) | Stmt::ImportFrom(_) | Stmt::Pass(_) => return None,
            // `if __name__ == "__main__":` never runs when pytest imports the file.
            Stmt::If(i) if is_main_guard(&i.test) => return None,
            // What any branch does, or a call in a condition.
            Stmt::If(i) => {
                let branches = i
                    .body
                    .iter()
                    .chain(i.elif_else_clauses.iter().flat_map(|c| c.body.iter()));
                if let Some(why) = branches.filter_map(|s| self.import_effect(s)).next() {
                    return Some(why);
                }
                let mut calls = false;
                let tests = std::iter::once(i.test.as_ref())
                    .chain(i.elif_else_clauses.iter().filter_map(|c| c.test.as_ref()));
                for test in tests {
                    if self.reads_solution(test) {
                        return Some(OPERATES_ON_SOLUTION);
                    }
                    calls |= any_expr(test, Scope::All, |e| {
                        matches!(e, Expr::Call(_)) && !self.harmless_call(e)
                    });
                }
                return calls.then_some("calls code");
            }
            Stmt::FunctionDef(f) if is_xunit_module_setup(f.name.as_str()) => {
                return Some(XUNIT_SETUP);
            }
            // `test_helper.__test__ = False`: only pytest's collection reads it, on a function or
            // class of the file.
            Stmt::Assign(a)
                if matches!(a.targets.as_slice(), [Expr::Attribute(t)]
                    if t.attr.as_str() == "__test__"
                        && matches!(t.value.as_ref(), Expr::Name(n)
                            if matches!(self.globals.get(n.id.as_str()), Some(Global::Helper { .. }))))
                    && matches!(
                        a.value.as_ref(),
                        Expr::BooleanLiteral(_) | Expr::NoneLiteral(_) | Expr::NumberLiteral(_)
                    ) =>
            {
                return None;
            }
            Stmt::Assign(a)
                if a.targets
                    .iter()
                    .any(|t| !matches!(t, Expr::Name(_) | Expr::Tuple(_) | Expr::List(_))) =>
            {
                return Some("stores into an object");
            }
            Stmt::AugAssign(_) | Stmt::Delete(_) | Stmt::Global(_) => {
                return Some("rebinds or changes a value")
            }
            _ => {}
        }
        if let Stmt::Assign(a) = stmt {
            if self.is_solution_module_expr(&a.value) || self.solution_attr(&a.value).is_some() {
                return None;
            }
        }
        // `solution.__version__` alone: a read that may raise, for its effect.
        if let Stmt::Expr(e) = stmt {
            if self.reads_solution(&e.value) {
                return Some(OPERATES_ON_SOLUTION);
            }
        }
        // `LOW, HIGH = solution.BOUNDS` unpacks the candidate's object, which may not fit.
        if let Stmt::Assign(a) = stmt {
            if a.targets.iter().any(|t| !matches!(t, Expr::Name(_)))
                && self.reads_solution(&a.value)
            {
                return Some(OPERATES_ON_SOLUTION);
            }
        }
        let mut effect = None;
        for_import_time_exprs(stmt, &mut |e| {
            if effect.is_none() {
                if let Expr::Call(_) = e {
                    // pytest's own calls (`parametrize`, `param`) only hand values on: their
                    // arguments are judged as expressions.
                    if !self.harmless_call(e)
                        || (self.pytest_path(e).is_none() && self.reads_solution(e))
                    {
                        effect = Some("calls code");
                    }
                } else if self.operates_on_solution(e) {
                    effect = Some(OPERATES_ON_SOLUTION);
                }
            }
        });
        effect.or_else(|| self.definition_effect(stmt))
    }

    /// Whether an expression reads the solution (a name it binds, or the module itself).
    fn reads_solution(&self, expr: &Expr) -> bool {
        ruff_python_ast::helpers::any_over_expr(expr, |e: &Expr| {
            matches!(e, Expr::Name(n) if matches!(
                self.globals.get(n.id.as_str()),
                Some(Global::SolutionName { .. } | Global::SolutionModule)
            ))
        })
    }

    /// An operation on a value of the solution, which runs the candidate's methods or may raise
    /// (`solution.PRIMES[0]`, `solution.P + 1`, `f"{solution.NAME}"`, a display that hashes
    /// its keys); a plain read (`solution.X`) is not one.
    fn operates_on_solution(&self, expr: &Expr) -> bool {
        let operand = |e: &Expr| !matches!(e, Expr::Lambda(_)) && self.reads_solution(e);
        match expr {
            Expr::Subscript(s) => operand(&s.value) || operand(&s.slice),
            Expr::BinOp(b) => operand(&b.left) || operand(&b.right),
            Expr::UnaryOp(u) => operand(&u.operand),
            Expr::Compare(c) => operand(&c.left) || c.comparators.iter().any(operand),
            Expr::BoolOp(b) => b.values.iter().any(operand),
            Expr::If(i) => operand(&i.test),
            Expr::FString(_) | Expr::Set(_) | Expr::Starred(_) => operand(expr),
            Expr::Dict(d) => d.items.iter().any(|i| i.key.as_ref().is_some_and(operand)),
            // Iterating a value of the solution (`[(w,) for w in solution.WORDS]`) is taken as
            // a read, as `from solution import WORDS` is: a stated limit (docs/contract.md).
            _ => false,
        }
    }

    /// What a `def` or `class` statement runs besides its calls (which `harmless_call` judges):
    /// a decorator applied (`@formatter` calls `formatter`), and for a class its bases' hooks (a
    /// base's `__init_subclass__` or metaclass runs when the class is created, an enum's members
    /// are made by the class's own `__init__`), in the class body too.
    pub(super) fn definition_effect(&self, stmt: &Stmt) -> Option<&'static str> {
        match stmt {
            Stmt::FunctionDef(f) => f
                .decorator_list
                .iter()
                .any(|d| !self.harmless_decorator(&d.expression))
                .then_some(DECORATED),
            Stmt::ClassDef(c) => {
                if c.decorator_list
                    .iter()
                    .any(|d| !self.harmless_decorator(&d.expression))
                {
                    return Some(DECORATED);
                }
                if let Some(args) = c.arguments.as_deref() {
                    if args.keywords.iter().any(|k| {
                        !(k.arg.as_ref().is_some_and(|a| a.as_str() == "metaclass")
                            && self.stdlib_path(&k.value).as_deref() == Some("abc.ABCMeta"))
                    }) {
                        return Some("creates a class with a metaclass or class arguments, which may run code");
                    }
                    for base in args.args.iter() {
                        match self.base_kind(base) {
                            BaseKind::Quiet => {}
                            BaseKind::Enum
                                if !["__init__", "__new__", "_generate_next_value_"]
                                    .iter()
                                    .any(|m| class_defines(c, m)) => {}
                            // A class of tests: what it inherits runs before each of its
                            // tests, which is what its base most often brings (wave eight).
                            _ if is_test_class(c) => return Some(TEST_CLASS_BASE),
                            _ => return Some(
                                "creates a class whose base may run code when it is subclassed (`__init_subclass__`, a metaclass)",
                            ),
                        }
                    }
                }
                // `title = TITLE` in a class body: creating the class calls the value's
                // `__set_name__`, if it has one (a descriptor of the solution).
                let is_const =
                    |n: &str| matches!(self.globals.get(n), Some(Global::Constant { .. }));
                let set_name = c.body.iter().any(|s| {
                    let value = match s {
                        Stmt::Assign(a) => Some(a.value.as_ref()),
                        Stmt::AnnAssign(a) => a.value.as_deref(),
                        _ => None,
                    };
                    fn plain(scope: &ModuleScope, v: &Expr, is_const: &dyn Fn(&str) -> bool) -> bool {
                        names::is_literal_value(v, is_const)
                            || scope.pytest_path(v).is_some()
                            || (matches!(v, Expr::Call(_)) && scope.harmless_call(v))
                            // `dict.__init__`, `os.sep`: a builtin's or the standard library's.
                            || (matches!(v, Expr::Attribute(_)) && dotted_name(v).is_some_and(|d| {
                                let first = d.split('.').next().unwrap_or("");
                                !scope.globals.contains_key(first) || scope.stdlib_path(v).is_some()
                            }))
                            || matches!(v, Expr::Lambda(_))
                            || matches!(v, Expr::Name(n) if matches!(
                                scope.globals.get(n.id.as_str()),
                                Some(Global::Helper { .. })
                            ))
                            // A builtin the file does not rebind: no builtin's type has a
                            // `__set_name__`.
                            || matches!(v, Expr::Name(n) if !scope.globals.contains_key(n.id.as_str())
                                && !scope.star_import
                                && !scope.other_star_import
                                && ruff_python_stdlib::builtins::is_python_builtin(n.id.as_str(), 14, false))
                            || matches!(v, Expr::List(l) if l.elts.iter().all(|e| element(scope, e, is_const)))
                            || matches!(v, Expr::Tuple(t) if t.elts.iter().all(|e| element(scope, e, is_const)))
                            // A set's elements and a dict's keys are hashed: a solution's object
                            // there would run its `__hash__`.
                            || matches!(v, Expr::Set(t) if t.elts.iter().all(|e| plain(scope, e, is_const)))
                            || matches!(v, Expr::Dict(d) if d.items.iter().all(|item| {
                                item.key.as_ref().is_some_and(|k| plain(scope, k, is_const))
                                    && element(scope, &item.value, is_const)
                            }))
                    }
                    // An element of a list, tuple, set or dict: only the container gets `__set_name__`
                    // (their types have none), so a bare read of the solution's attribute there
                    // runs nothing at class creation (the read itself is an import read).
                    fn element(scope: &ModuleScope, e: &Expr, is_const: &dyn Fn(&str) -> bool) -> bool {
                        plain(scope, e, is_const)
                            || (matches!(e, Expr::Attribute(a) if matches!(a.value.as_ref(), Expr::Name(_)))
                                && scope.solution_attr(e).is_some())
                    }
                    value.is_some_and(|v| !plain(self, v, &is_const))
                });
                if set_name {
                    return Some("creates a class whose attributes' `__set_name__` may run code");
                }
                c.body.iter().find_map(|s| self.definition_effect(s))
            }
            _ => None,
        }
    }

    /// The standard-library dotted name an expression reads through the file's imports
    /// (`abc.ABCMeta` for `ABCMeta` after `from abc import ABCMeta`).
    fn stdlib_path(&self, expr: &Expr) -> Option<String> {
        let dotted = dotted_name(expr)?;
        let first = dotted.split('.').next().unwrap_or("");
        match self.globals.get(first) {
            Some(Global::Import { module, .. }) if crate::stdlib::is_stdlib(module) => {
                Some(format!("{module}{}", &dotted[first.len()..]))
            }
            _ => None,
        }
    }

    /// A decorator whose application runs none of the file's or the solution's code: pytest's
    /// (marks, `fixture`), a name bound to a mark, a call (judged as a call), builtins and the
    /// standard library's that only wrap or mark, and the file's functions that only set literal
    /// attributes of what they decorate.
    fn harmless_decorator(&self, expr: &Expr) -> bool {
        if matches!(expr, Expr::Call(_)) || self.pytest_path(expr).is_some() {
            return true;
        }
        if let Expr::Name(n) = expr {
            let name = n.id.as_str();
            if self.mark_aliases.contains(name) {
                return true;
            }
            if !self.globals.contains_key(name)
                && matches!(name, "staticmethod" | "classmethod" | "property")
            {
                return true;
            }
            // A function of the file that only sets attributes of what it decorates to literals
            // and returns it (nose's `nottest`: `f.__test__ = False`).
            if let Some(Global::Helper { def: Some(f), .. }) = self.globals.get(name) {
                if !self.globals.contains_key("setattr")
                    && super::literal_attribute_decorator(f).is_some()
                {
                    return true;
                }
            }
        }
        self.stdlib_path(expr).is_some_and(|p| {
            matches!(
                p.as_str(),
                "functools.cache"
                    | "functools.lru_cache"
                    | "functools.cached_property"
                    | "functools.total_ordering"
                    | "contextlib.contextmanager"
                    | "contextlib.asynccontextmanager"
                    | "dataclasses.dataclass"
                    | "typing.overload"
                    | "typing.final"
                    | "typing.runtime_checkable"
                    | "abc.abstractmethod"
                    | "enum.unique"
                    | "unittest.expectedFailure"
            )
        })
    }

    /// What subclassing `base` may run.
    fn base_kind(&self, base: &Expr) -> BaseKind {
        // `namedtuple("P", "x y")` makes a plain tuple class.
        if let Expr::Call(c) = base {
            if self.stdlib_path(&c.func).as_deref() == Some("collections.namedtuple")
                && self.harmless_call(base)
            {
                return BaseKind::Quiet;
            }
        }
        if let Expr::Name(n) = base {
            let name = n.id.as_str();
            if self.quiet_classes.contains(name) {
                return BaseKind::Quiet;
            }
            if !self.globals.contains_key(name) && crate::stdlib::is_builtin_base(name) {
                return BaseKind::Quiet;
            }
        }
        match self.stdlib_path(base).as_deref() {
            Some(
                "unittest.TestCase"
                | "unittest.IsolatedAsyncioTestCase"
                | "unittest.case.TestCase"
                | "typing.Generic"
                | "typing.Protocol"
                | "typing.NamedTuple"
                | "typing.TypedDict"
                | "abc.ABC"
                | "collections.UserDict"
                | "collections.UserList"
                | "collections.UserString"
                // The containers of `collections`: subclassing them runs no `__init_subclass__`
                // or metaclass of their own.
                | "collections.defaultdict"
                | "collections.OrderedDict"
                | "collections.Counter"
                | "collections.ChainMap"
                | "collections.deque",
            ) => BaseKind::Quiet,
            Some("enum.Enum" | "enum.IntEnum" | "enum.StrEnum" | "enum.Flag" | "enum.IntFlag") => {
                BaseKind::Enum
            }
            _ => BaseKind::Other,
        }
    }

    /// A call that cannot change what a test reads: pytest's own (`pytest.param`, marks), the
    /// loader, builtins that build values, and path arithmetic.
    pub(super) fn harmless_call(&self, call: &Expr) -> bool {
        let Expr::Call(c) = call else { return false };
        if self.pytest_path(call).is_some() {
            return true;
        }
        if let Expr::Name(n) = c.func.as_ref() {
            if self.loaders.contains(n.id.as_str()) {
                return true;
            }
            // `Marker()`: an instance of a class of the file whose construction runs none of its
            // code (`object.__new__` and `object.__init__`, which take no arguments).
            if self.inert_classes.contains(n.id.as_str()) && c.arguments.is_empty() {
                return true;
            }
            // `@not_collected("why")`: a factory of the file that only returns a decorator setting
            // literal attributes (see `harmless_decorator`), called with literals.
            if let Some(Global::Helper { def: Some(f), .. }) = self.globals.get(n.id.as_str()) {
                let is_const =
                    |n: &str| matches!(self.globals.get(n), Some(Global::Constant { .. }));
                // `test_x = nottest(test_x)`: the decorator applied by hand to a function of the file.
                if !self.globals.contains_key("setattr")
                    && super::literal_attribute_decorator(f).is_some()
                    && c.arguments.keywords.is_empty()
                    && matches!(c.arguments.args.as_ref(), [Expr::Name(arg)]
                        if matches!(self.globals.get(arg.id.as_str()), Some(Global::Helper { .. })))
                {
                    return true;
                }
                if !self.globals.contains_key("setattr")
                    && literal_decorator_factory(f)
                    && c.arguments
                        .args
                        .iter()
                        .chain(c.arguments.keywords.iter().map(|k| &k.value))
                        .all(|a| names::is_literal_value(a, &is_const))
                    && binds_exactly(f, &c.arguments)
                {
                    return true;
                }
            }
        }
        let Some(dotted) = dotted_name(&c.func).or_else(|| {
            // `Path(__file__).parent.joinpath(...)`: a method of a path built from a path.
            let mut root = c.func.as_ref();
            loop {
                match root {
                    Expr::Attribute(a) => root = &a.value,
                    Expr::Call(inner) => root = &inner.func,
                    _ => break,
                }
            }
            dotted_name(root).filter(|d| self.is_path_constructor(d))
        }) else {
            return false;
        };
        if BUILDERS.contains(&dotted.as_str()) && !self.globals.contains_key(&dotted) {
            // On literal values only: on a user object even `sorted` runs its `__lt__`.
            let is_const = |n: &str| matches!(self.globals.get(n), Some(Global::Constant { .. }));
            return c
                .arguments
                .args
                .iter()
                .chain(c.arguments.keywords.iter().map(|k| &k.value))
                .all(|a| names::is_literal_value(a, &is_const));
        }
        let first = dotted.split('.').next().unwrap_or("");
        match self.globals.get(first) {
            Some(Global::Import { module, .. }) => {
                let full = format!("{module}{}", &dotted[first.len()..]);
                // Reading the platform, building paths and patterns: nothing the solution sees.
                full.starts_with("os.path.")
                    || full.starts_with("pathlib.")
                    || full.starts_with("sys.platform.")
                    || full.starts_with("platform.")
                    || full == "os.getenv"
                    || full == "os.environ.get"
                    || full == "collections.namedtuple"
                    || full.starts_with("typing.")
                    || full == "re.compile"
                    || full == "re.escape"
                    // `enum.auto()` only makes a placeholder: the enum class's creation asks
                    // `_generate_next_value_` for the value (`definition_effect` judges that).
                    || (full == "enum.auto" && c.arguments.is_empty())
                    // unittest's skip decorators, on literal reasons and conditions: they only
                    // mark the function they decorate.
                    || (matches!(
                        full.as_str(),
                        "unittest.skip" | "unittest.skipIf" | "unittest.skipUnless"
                    ) && c
                        .arguments
                        .args
                        .iter()
                        .chain(c.arguments.keywords.iter().map(|k| &k.value))
                        .all(|a| {
                            names::is_literal_value(a, &|n| {
                                matches!(self.globals.get(n), Some(Global::Constant { .. }))
                            })
                        }))
                    // `unittest.mock`'s patchers only store their target and values when made
                    // (the target is imported when a patch starts, around the test it decorates):
                    // made from literals, lambdas and names, they run nothing at import. What
                    // they decorate is judged on its own (U001, U009).
                    || (matches!(
                        full.as_str(),
                        "unittest.mock.patch"
                            | "unittest.mock.patch.object"
                            | "unittest.mock.patch.dict"
                            | "unittest.mock.patch.multiple"
                    ) && c
                        .arguments
                        .args
                        .iter()
                        .chain(c.arguments.keywords.iter().map(|k| &k.value))
                        .all(|a| self.stored_as_is(a)))
            }
            _ => false,
        }
    }

    /// An argument a patcher stores without running code: a literal, a lambda, a name, or an
    /// attribute of a name.
    fn stored_as_is(&self, arg: &Expr) -> bool {
        let is_const = |n: &str| matches!(self.globals.get(n), Some(Global::Constant { .. }));
        match arg {
            Expr::Lambda(_) | Expr::Name(_) => true,
            Expr::Attribute(a) => matches!(a.value.as_ref(), Expr::Name(_)),
            other => names::is_literal_value(other, &is_const),
        }
    }

    fn is_path_constructor(&self, dotted: &str) -> bool {
        let first = dotted.split('.').next().unwrap_or("");
        matches!(self.globals.get(first), Some(Global::Import { module, .. })
            if format!("{module}{}", &dotted[first.len()..]).starts_with("pathlib."))
    }
}

/// What a decorator at module level does (`ModuleScope::definition_effect`).
const DECORATED: &str = "applies a decorator, which may run code";

/// What a class of tests (`class TestA(Base):` with `test…` methods) whose base may run code
/// does: pytest runs what it inherits (an xunit `setup_method`, an autouse fixture) before each
/// of its tests, and creating it may run the base's hooks at import.
const TEST_CLASS_BASE: &str = "derives a class of tests from a base whose inherited setup (an xunit `setup_method` or `setup_class`, unittest's `setUp`, an autouse fixture) pytest runs before each of its tests, and whose `__init_subclass__` or metaclass may run";

/// Whether pytest collects a class as a class of tests by default: named `Test…`, with a
/// `test…` method of its own.
fn is_test_class(c: &ast::StmtClassDef) -> bool {
    c.name.as_str().starts_with("Test")
        && c.body
            .iter()
            .any(|s| matches!(s, Stmt::FunctionDef(f) if f.name.as_str().starts_with("test")))
}

/// What an xunit setup function at module level is: it runs around the tests, not at import.
const XUNIT_SETUP: &str =
    "is xunit setup that pytest runs before each test (`setup_function`) or before the module's first (`setup_module`)";

/// The rule of a module-level statement's effect (`ModuleScope::import_effect`'s words).
pub(super) fn effect_rule(why: &str) -> Rule {
    match why {
        XUNIT_SETUP => Fixtures::XunitSetup.into(),
        OPERATES_ON_SOLUTION => ModuleCode::ImportOperatesOnSolution.into(),
        "stores into an object" => ModuleCode::ImportStoresIntoObject.into(),
        "rebinds or changes a value" => ModuleCode::ImportRebindsValue.into(),
        DECORATED => ModuleCode::ImportAppliesDecorator.into(),
        w if w.starts_with("creates a class") || w == TEST_CLASS_BASE => {
            ModuleCode::ClassCreationRunsCode.into()
        }
        _ => ModuleCode::ImportCallsCode.into(),
    }
}

/// When a module-level statement's effect happens: at import, but for xunit setup.
pub(super) fn at_import(why: &str) -> &'static str {
    if why == XUNIT_SETUP {
        ""
    } else {
        " when the test file is imported"
    }
}

/// xunit setup functions at module level, which pytest runs before the tests.
pub(super) fn is_xunit_module_setup(name: &str) -> bool {
    matches!(name, "setup_module" | "setUpModule" | "setup_function")
}

/// Names a `global` statement declares anywhere in the file (in any function or class body).
const OPERATES_ON_SOLUTION: &str =
    "operates on a value of the solution, which may run the candidate's code or raise";

/// What subclassing a base may run (`ModuleScope::base_kind`).
enum BaseKind {
    /// Nothing of the file's or the solution's.
    Quiet,
    /// An enum: its members are made by the class's own `__init__` / `__new__`, if it has one.
    Enum,
    Other,
}

/// Whether a class body binds `name` (a method or an attribute).
pub(super) fn class_defines(c: &ast::StmtClassDef, name: &str) -> bool {
    c.body.iter().any(|s| {
        let mut bound = BoundNames::default();
        bound.visit_stmt(s);
        bound.names.iter().any(|n| n == name)
    })
}

/// Module-level classes that making an instance of, with no arguments, runs no code of the file:
/// no decorator, no base but `object`, no keyword (a metaclass), a body of methods and plain
/// assignments that defines none of `__init__`, `__new__`, `__del__` (a finalizer runs when the
/// instance is dropped) or `__class__`; the only module-level binding of its name, which no
/// `global` statement rebinds.
pub(super) fn inert_classes(body: &[Stmt]) -> HashSet<String> {
    /// What a class of the file may define and stay inert to make: methods a test's own
    /// operations call (printing, comparing, hashing, containers, calling), and its docstring.
    const SAFE_DUNDERS: [&str; 24] = [
        "__doc__",
        "__module__",
        "__qualname__",
        "__slots__",
        "__str__",
        "__repr__",
        "__format__",
        "__eq__",
        "__ne__",
        "__lt__",
        "__le__",
        "__gt__",
        "__ge__",
        "__hash__",
        "__bool__",
        "__len__",
        "__iter__",
        "__next__",
        "__contains__",
        "__getitem__",
        "__call__",
        "__add__",
        "__mul__",
        "__sub__",
    ];
    const RUN_ON_CONSTRUCTION: [&str; 4] = ["__init__", "__new__", "__del__", "__class__"];
    let mut bindings: HashMap<String, usize> = HashMap::default();
    for stmt in body {
        let mut bound = BoundNames::default();
        bound.visit_stmt(stmt);
        for name in bound.names {
            *bindings.entry(name).or_default() += 1;
        }
    }
    let declared: HashSet<String> = global_declared(body).into_iter().map(|(n, _)| n).collect();
    let object_base = !bindings.contains_key("object");
    body.iter()
        .filter_map(|s| match s {
            Stmt::ClassDef(c) => Some(c),
            _ => None,
        })
        .filter(|c| {
            let plain_bases = c.arguments.as_deref().is_none_or(|a| {
                a.keywords.is_empty()
                    && match a.args.as_ref() {
                        [] => true,
                        [Expr::Name(n)] => n.id.as_str() == "object" && object_base,
                        _ => false,
                    }
            });
            let plain_body = c.body.iter().all(|s| {
                matches!(
                    s,
                    Stmt::FunctionDef(_) | Stmt::Assign(_) | Stmt::AnnAssign(_) | Stmt::Pass(_)
                ) || matches!(s, Stmt::Expr(e) if e.value.is_string_literal_expr())
            });
            let defines = |name: &str| {
                c.body.iter().any(|s| {
                    let mut bound = BoundNames::default();
                    bound.visit_stmt(s);
                    bound.names.iter().any(|n| n == name)
                })
            };
            // A dunder the interpreter calls by itself at some later point (`__set_name__` when
            // the instance lands in a class body, `__mro_entries__`, …) is another place its code
            // runs: only the operators and conversions a test calls for are allowed.
            let implicit_hooks = c.body.iter().any(|s| {
                let mut bound = BoundNames::default();
                bound.visit_stmt(s);
                bound.names.iter().any(|n| {
                    n.starts_with("__") && n.ends_with("__") && !SAFE_DUNDERS.contains(&n.as_str())
                })
            });
            c.decorator_list.is_empty()
                && c.type_params.is_none()
                && plain_bases
                && plain_body
                && !implicit_hooks
                && !RUN_ON_CONSTRUCTION.iter().any(|n| defines(n))
                && bindings.get(c.name.as_str()) == Some(&1)
                && !declared.contains(c.name.as_str())
        })
        .map(|c| c.name.to_string())
        .collect()
}

/// Builtins that build values: harmless on literal values.
const BUILDERS: &[&str] = &[
    "range",
    "list",
    "tuple",
    "dict",
    "set",
    "frozenset",
    "str",
    "int",
    "float",
    "bool",
    "bytes",
    "len",
    "zip",
    "enumerate",
    "object",
    "sorted",
    "min",
    "max",
    "sum",
    "abs",
    "round",
    "reversed",
    "repr",
    "chr",
    "ord",
];

/// A function of the file whose body only defines a decorator that sets literal attributes of what
/// it decorates ([`super::literal_attribute_decorator`]) and returns it: calling it runs nothing
/// else (its parameters have no defaults to evaluate at call time beyond what the `def` did).
fn literal_decorator_factory(f: &ast::StmtFunctionDef) -> bool {
    let body: &[Stmt] = match f.body.first() {
        Some(Stmt::Expr(e)) if e.value.is_string_literal_expr() => &f.body[1..],
        _ => &f.body,
    };
    let [Stmt::FunctionDef(inner), Stmt::Return(r)] = body else {
        return false;
    };
    inner.decorator_list.is_empty()
        && inner.returns.is_none()
        && inner
            .parameters
            .iter_non_variadic_params()
            .all(|p| p.default.is_none() && p.parameter.annotation.is_none())
        && matches!(r.value.as_deref(), Some(Expr::Name(n)) if n.id.as_str() == inner.name.as_str())
        && super::literal_attribute_decorator(inner).is_some()
}

/// Whether a call's arguments bind `f`'s parameters without a `TypeError`: no unpacking, no more
/// positional arguments than it takes, keywords it names once, every parameter without a default
/// given.
fn binds_exactly(f: &ast::StmtFunctionDef, args: &ast::Arguments) -> bool {
    let p = &f.parameters;
    if args.args.iter().any(|a| a.is_starred_expr())
        || args.keywords.iter().any(|k| k.arg.is_none())
    {
        return false;
    }
    let positional: Vec<&ast::ParameterWithDefault> = p.posonlyargs.iter().chain(&p.args).collect();
    if args.args.len() > positional.len() && p.vararg.is_none() {
        return false;
    }
    let mut given: Vec<&str> = positional
        .iter()
        .take(args.args.len())
        .map(|q| q.parameter.name.as_str())
        .collect();
    for k in &args.keywords {
        let name = k.arg.as_ref().map(|a| a.as_str()).unwrap_or_default();
        let named = p
            .args
            .iter()
            .chain(&p.kwonlyargs)
            .any(|q| q.parameter.name.as_str() == name);
        if given.contains(&name) || (!named && p.kwarg.is_none()) {
            return false;
        }
        given.push(name);
    }
    positional
        .into_iter()
        .chain(&p.kwonlyargs)
        .all(|q| q.default.is_some() || given.contains(&q.parameter.name.as_str()))
}
