//! Items: everything pytest runs before an assert, one item each — setup, parameters, fixtures, and
//! every top-level statement of the test, earlier asserts included — with the names it binds and
//! reads, whether it is inert (see `effects`), and how it is replayed inside an expression (or why
//! it cannot be).

mod nested_def;
mod raises;
mod reads;
mod statement;

pub(crate) use nested_def::{class_members, def_body, def_locals, ClassMember};
pub use nested_def::{nested_class, nested_def};
pub use raises::{pytest_raises_block, pytest_raises_text, raises_block, raises_rule, Raises};
pub use statement::statement;

use rustc_hash::FxHashSet as HashSet;

use ruff_python_ast::{self as ast, Expr};
use ruff_text_size::TextRange;

use super::qualnames;
use super::Ctx;
use crate::model::OriginRole;
use crate::names::{self, Facts, Ident};
use crate::rules::Reason;

/// What the check needs to make a nested `def` or `class` from its source (`flatten::compiled`):
/// the test's locals its body reads (the compile's parameters, the closure's cells) and the other
/// free names (globals of the test module).
#[derive(Debug, Clone)]
pub struct Compiled {
    /// The test function the `def` is nested in (its code's enclosing function).
    pub outer: String,
    pub test_names: Vec<String>,
    pub global_names: Vec<String>,
}

/// How an item is written inside a fold.
#[derive(Clone)]
pub enum Piece<'a> {
    /// `a = b = value` → `a := (b := value)`.
    Bind(&'a [Expr], &'a Expr),
    /// A single name bound to a value that is not a statement of the test (a parameter, a fixture).
    BindName(Ident, &'a Expr),
    /// A parameter taken by index from its parametrize list, replayed whole at import:
    /// `x := _bx_p0[1][0]` (the name, and the text after `:=`).
    BindIndexed(Ident, String),
    /// A parametrize list evaluated whole at import, bound to its temporary: its `pytest.param(a,
    /// b, id=…, marks=…)` entries are written `(a, b,)` (their `id`/`marks` run no user code).
    BindParams(Ident, &'a Expr),
    /// `a, *b = value` → `[(a := _a, b := _b) for _a, *_b in [value]]`.
    Unpack(&'a Expr, &'a Expr),
    /// An expression evaluated for its effect (a call statement).
    Eval(&'a Expr),
    /// A nested `def` (`nested_def`), with its `__qualname__`: `name := D1(D2(<the function>))`,
    /// the function a lambda given the `def`'s names.
    Def(&'a ast::StmtFunctionDef, String),
    /// A nested `class` (`nested_class`), with its `__qualname__`.
    Class(&'a ast::StmtClassDef, String),
    /// A nested `def` made from its source (`compiled`), compiled inside the test's name.
    Compiled(&'a ast::StmtFunctionDef, std::rc::Rc<Compiled>),
    /// A nested `class` made from its source (`compiled`).
    CompiledClass(&'a ast::StmtClassDef, std::rc::Rc<Compiled>),
    /// An earlier assert: pytest stops the test when it fails, so the fold does too (`… and …`).
    Check(&'a Expr),
    /// An earlier call statement of a test-file helper whose body asserts (`check(f)`): a check
    /// that every assert of the call passes, the helper spelled as a lambda true when they all do
    /// (`resolve::helper_check`, whole), bound for this piece's name only where the fold
    /// reads it so (`assertion::helper_calls`).
    HelperCheck(&'a Expr),
    /// `obj.attr = value` or `obj[key] = value` → `[None for obj.attr in [value]]`: the value is
    /// evaluated first and stored through the target exactly as the assignment would.
    Store(&'a Expr, &'a Expr),
    /// `x += v` → `x := __import__("operator").iadd(x, v)`, which is exactly `+=` (in place for a
    /// list); on `obj.attr` or `obj[key]` with plain parts, the same value stored back.
    Augmented(&'a Expr, ast::Operator, &'a Expr),
    /// `del obj[key]` → `__import__("operator").delitem(obj, key)`.
    DelItem(&'a Expr, &'a Expr),
    /// `del obj.attr` → `__import__("builtins").delattr(obj, "attr")`.
    DelAttr(&'a Expr, &'a str),
    /// `from solution import x as y` inside the test → `y := <module>.x`: the object the module
    /// holds at that statement (a snapshot, as the import takes it), bound to the test's local; from
    /// a submodule of the solution, `y := __import__("m.sub", fromlist=("x",)).x`, the statement's
    /// own steps. The module, then the names.
    ImportNames(String, Vec<(Ident, String)>),
    /// `del x, y` of locals → `x := None, y := None`: the reference goes where the test let it go
    /// (a finalizer, a weak reference's callback run then). A later read of the name is unbound
    /// in pytest, so an assertion that reads it is not kept (`replay::replay_set`).
    Unbind(Vec<Ident>),
    /// `if c: A` / `elif d: B` / `else: C`, each branch of plain statements →
    /// `((A…, None) if (c) else (B…, None) if (d) else (C…, None))`: Python's conditional expression
    /// evaluates `c` once (one truth test, as `if` does), then exactly one branch, whose pieces run
    /// in order as the statements would; `d` only when `c` is false. A missing `else` is `None`.
    Cond(Vec<Clause<'a>>),
    /// `for t in it: body` (target, iterable, the body's pieces in order), replayed as a
    /// comprehension over the same iterable, evaluated once and iterated once: each iteration binds
    /// the target through a temporary (`t := _bx_t`, so that it stays bound after the loop, as the
    /// statement leaves it) and replays the body. Without asserts in the body it is an effect
    /// (`[(t := _bx_t, …) and None for _bx_t in it]`); with them, a guard that stops at the first
    /// failing assert, as pytest does (`not any(… or (…, not (check))[-1] for _bx_t in it)`).
    Loop(&'a Expr, &'a Expr, Vec<Piece<'a>>),
    /// `with self.assertRaises(E) as err: body` in a unittest test, the body expression statements
    /// (see `raises_block`): a check, always, as unittest makes it.
    Raises(Raises<'a>),
}

/// One branch of a `Piece::Cond`: its condition (`None` for `else`) and its statements' pieces.
pub type Clause<'a> = (Option<&'a Expr>, Vec<Piece<'a>>);

/// Why an item cannot be replayed inside an expression.
#[derive(Clone)]
pub enum Blocker {
    /// Nothing to add to "… cannot be replayed in an expression" (`pass`, a bare annotation `x: int`).
    Silent,
    /// The reason: its rule and its words.
    Reason(Reason),
}

/// The `operator` function that performs an augmented assignment in place.
pub fn inplace_function(op: ast::Operator) -> &'static str {
    use ast::Operator::*;
    match op {
        Add => "iadd",
        Sub => "isub",
        Mult => "imul",
        MatMult => "imatmul",
        Div => "itruediv",
        Mod => "imod",
        Pow => "ipow",
        LShift => "ilshift",
        RShift => "irshift",
        BitOr => "ior",
        BitXor => "ixor",
        BitAnd => "iand",
        FloorDiv => "ifloordiv",
    }
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Kind {
    Param,
    Fixture,
    /// `x = value` (single name): may be inlined.
    Assign,
    /// An earlier assert of the test.
    Assert,
    /// Any other statement, and setup.
    Other,
}

pub struct Item<'a> {
    pub range: TextRange,
    pub kind: Kind,
    pub role: OriginRole,
    /// Locals the item binds (or unbinds).
    pub defs: Vec<Ident>,
    /// Of `defs`, those the item may leave as they were (bound in some branches of an `if` only).
    pub maybe_defs: Vec<Ident>,
    /// Locals the item reads.
    pub reads: Vec<Ident>,
    /// Provably runs no user code and cannot raise: may be left out when nothing reads what it binds.
    pub inert: bool,
    /// The value a plain binding gives its name (for inlining).
    pub value: Option<&'a Expr>,
    /// Every name read by the expressions this item evaluates (for name resolution).
    pub loads: Vec<names::Load>,
    pub fold: Result<Piece<'a>, Blocker>,
    /// Shown in messages; `None` for statements, described from their source when needed.
    pub label: Option<String>,
    /// For a compound statement, where it is: "the `for` loop on line 3 (`for …`)".
    pub place: Option<String>,
    /// Where pytest runs the item's code when it is not the test's own (module level, a file
    /// fixture): what it creates is named there (`qualnames::Home`).
    pub home: Option<qualnames::Home>,
}

impl Item<'_> {
    pub fn what(&self, ctx: &Ctx) -> String {
        match &self.label {
            Some(label) => label.clone(),
            None => format!(
                "`{}` on line {}",
                ctx.map.snippet(self.range),
                ctx.map.line(self.range.start())
            ),
        }
    }

    pub(super) fn blank(range: TextRange, kind: Kind, role: OriginRole) -> Self {
        Item {
            range,
            kind,
            role,
            defs: Vec::new(),
            maybe_defs: Vec::new(),
            reads: Vec::new(),
            inert: false,
            value: None,
            loads: Vec::new(),
            fold: Err(Blocker::Silent),
            label: None,
            place: None,
            home: None,
        }
    }
}

/// A parameter or fixture bound to a value evaluated outside the test body.
pub fn binding<'a>(
    name: &str,
    value: &'a Expr,
    reads: Vec<Ident>,
    range: TextRange,
    kind: Kind,
    role: OriginRole,
    inert: bool,
) -> Item<'a> {
    let facts = Facts::of(value);
    Item {
        defs: vec![Ident::from(name)],
        reads,
        inert,
        value: Some(value),
        loads: facts.loads,
        fold: Ok(Piece::BindName(Ident::from(name), value)),
        label: Some(format!("`{name}`")),
        ..Item::blank(range, kind, role)
    }
}

/// A name bound to something no expression can reproduce (the test class instance, a pytest
/// fixture). `inert`: creating it runs nothing that could change what an assertion reads.
pub fn unfoldable_binding<'a>(
    name: &str,
    range: TextRange,
    why: impl Into<Reason>,
    inert: bool,
) -> Item<'a> {
    Item {
        defs: vec![Ident::from(name)],
        inert,
        fold: Err(Blocker::Reason(why.into())),
        label: Some(format!("`{name}`")),
        ..Item::blank(range, Kind::Other, OriginRole::Blocker)
    }
}

/// Setup that runs before the test and cannot be replayed.
pub fn setup<'a>(range: TextRange, why: impl Into<Reason>) -> Item<'a> {
    let why = why.into();
    Item {
        label: Some(why.text.clone()),
        fold: Err(Blocker::Reason(
            why.map(|t| format!("{t}, and may change what the assertion reads")),
        )),
        ..Item::blank(range, Kind::Other, OriginRole::Blocker)
    }
}

/// Code before the test that may stop it from running at all (a file pytest may fail to import):
/// its reason as said, without [`setup`]'s words about what the assertion reads.
pub fn stop<'a>(range: TextRange, why: impl Into<Reason>) -> Item<'a> {
    let why = why.into();
    Item {
        label: Some(why.text.clone()),
        fold: Err(Blocker::Reason(why)),
        ..Item::blank(range, Kind::Other, OriginRole::Blocker)
    }
}

/// Which names are certainly bound at each point of a test body, for inertness: parameters and
/// fixtures, and what straight-line statements bound. A name bound only inside a block may be
/// unbound.
#[derive(Default)]
pub struct Bound {
    pub names: HashSet<Ident>,
}

impl Bound {
    pub fn after(&mut self, item: &Item) {
        let straight = matches!(
            item.kind,
            Kind::Param | Kind::Fixture | Kind::Assign | Kind::Assert
        ) || matches!(
            item.fold,
            Ok(Piece::Bind(..)
                | Piece::Unpack(..)
                | Piece::Eval(..)
                | Piece::Store(..)
                | Piece::Augmented(..))
        );
        for d in &item.defs {
            if straight && !item.maybe_defs.contains(d) {
                self.names.insert(d.clone());
            } else {
                self.names.remove(d);
            }
        }
    }
}

/// Whether a replayed piece writes a lambda or generator expression of the test's source, or
/// text that calls the renamer (a conftest fixture's value, a nested definition).
pub(in crate::flatten) fn piece_creates_named(
    piece: &Piece,
    builtin: &dyn Fn(&str) -> bool,
) -> bool {
    let creates_named = |e: &Expr| qualnames::observably_named(e, builtin);
    let piece_creates_named = |p: &Piece| piece_creates_named(p, builtin);
    match piece {
        Piece::Bind(targets, value) => targets.iter().any(creates_named) || creates_named(value),
        Piece::BindName(_, e)
        | Piece::BindParams(_, e)
        | Piece::Eval(e)
        | Piece::Check(e)
        | Piece::HelperCheck(e) => creates_named(e),
        Piece::BindIndexed(_, text) => text.contains(qualnames::NAME),
        Piece::Unpack(a, b)
        | Piece::Store(a, b)
        | Piece::Augmented(a, _, b)
        | Piece::DelItem(a, b) => creates_named(a) || creates_named(b),
        Piece::DelAttr(e, _) => creates_named(e),
        Piece::Def(d, _) => qualnames::def_creates_named(d),
        Piece::Class(c, _) => qualnames::class_creates_named(c),
        // Its code is compiled with its own names: only what the check evaluates for it.
        Piece::Compiled(d, ..) => {
            d.decorator_list
                .iter()
                .any(|x| creates_named(&x.expression))
                || d.parameters
                    .iter_non_variadic_params()
                    .any(|p| p.default.as_deref().is_some_and(creates_named))
        }
        Piece::CompiledClass(c, _) => {
            c.decorator_list
                .iter()
                .any(|x| creates_named(&x.expression))
                || c.arguments.as_deref().is_some_and(|a| {
                    a.args.iter().any(creates_named)
                        || a.keywords.iter().any(|k| creates_named(&k.value))
                })
        }
        Piece::ImportNames(..) | Piece::Unbind(_) => false,
        Piece::Cond(clauses) => clauses
            .iter()
            .any(|(c, body)| c.is_some_and(creates_named) || body.iter().any(piece_creates_named)),
        Piece::Loop(t, it, body) => {
            creates_named(t) || creates_named(it) || body.iter().any(piece_creates_named)
        }
        Piece::Raises(r) => creates_named(r.expr) || r.body.iter().any(|e| creates_named(e)),
    }
}
