//! What pytest sees when it evaluates a parametrize argument at import time, as far as the test file
//! alone shows it: literals, arithmetic on them (Python's own rules), the file's constants (its
//! class bodies first for a method's decorators), its functions, classes and enum members, and the
//! solution's functions and classes by name. Anything else is [`PyValue::Unknown`]: its id would
//! take running code to know.
//!
//! The values and the evaluator are here; one concept per submodule:
//! - `eval`: the evaluator's core (literals, sequences, comprehensions, f-strings, lambdas) and
//!   [`Evaluator::call`];
//! - `names`: what a name holds (class body, module constants and definitions, imports, the
//!   solution's names, builtins), and [`binds`];
//! - `enums`: attributes: `__name__`, `math` constants, members of the file's enum classes;
//! - `calls`: calls: `re.compile`, the file's functions, plain classes, builtins;
//! - `ops`: Python's operators and truth values;
//! - `repr`: [`py_str`] and [`py_repr`], [`float_repr`] and [`complex_repr`].

use ruff_python_ast::{Expr, Stmt};
use ruff_text_size::TextSize;

use crate::module::ModuleScope;

mod calls;
mod enums;
mod eval;
mod names;
mod ops;
mod repr;

pub(crate) use names::binds;
pub(crate) use repr::{complex_repr, float_repr, py_repr, py_str};

/// How deep names and calls are followed.
const MAX_DEPTH: usize = 48;
/// Strings, bytes and sequences longer than this are not built.
const MAX_LEN: usize = 100_000;

/// An evaluated value, as far as ids go.
#[derive(Clone, Debug, PartialEq)]
pub enum PyValue<'a> {
    None,
    Bool(bool),
    Int(i128),
    Float(f64),
    Complex(f64, f64),
    Str(String),
    Bytes(Vec<u8>),
    Tuple(Vec<PyValue<'a>>),
    List(Vec<PyValue<'a>>),
    /// A compiled regular expression, by its pattern.
    Pattern(String),
    Enum(EnumMember),
    /// A module, or a class or builtin whose `__name__` is this.
    Named(String),
    /// A function whose `__name__` is this; its body when the file shows a one-expression body.
    Func(String, Option<Callable<'a>>),
    /// A value with no id of its own (a dict, a set, an instance of a plain class).
    Opaque,
    /// What the file alone cannot tell; why.
    Unknown(String),
}

/// A function the evaluator can call: one positional parameter, one expression.
#[derive(Clone, Debug, PartialEq)]
pub enum Callable<'a> {
    Expr {
        param: String,
        body: &'a Expr,
    },
    /// `str` or `repr`.
    Builtin(&'static str),
}

#[derive(Clone, Debug, PartialEq)]
pub struct EnumMember {
    pub class: String,
    pub name: String,
    pub kind: EnumKind,
    pub value: Box<PyValue<'static>>,
}

/// How `str()`/pytest show an enum member (Python 3.11+).
#[derive(Clone, Debug, PartialEq)]
pub enum EnumKind {
    /// `Enum`, `Flag`, `(int, Enum)`: `Class.member`.
    Plain,
    /// `IntEnum`, `IntFlag`: the value.
    IntLike,
    /// `StrEnum`, `(str, Enum)`: pytest escapes the member's text.
    StrMixin,
}

impl PyValue<'_> {
    fn unknown(why: impl Into<String>) -> Self {
        PyValue::Unknown(why.into())
    }

    /// Drop borrowed function bodies (enum values are stored without them).
    fn detach(&self) -> PyValue<'static> {
        match self {
            PyValue::None => PyValue::None,
            PyValue::Bool(b) => PyValue::Bool(*b),
            PyValue::Int(i) => PyValue::Int(*i),
            PyValue::Float(f) => PyValue::Float(*f),
            PyValue::Complex(a, b) => PyValue::Complex(*a, *b),
            PyValue::Str(s) => PyValue::Str(s.clone()),
            PyValue::Bytes(b) => PyValue::Bytes(b.clone()),
            PyValue::Tuple(v) => PyValue::Tuple(v.iter().map(PyValue::detach).collect()),
            PyValue::List(v) => PyValue::List(v.iter().map(PyValue::detach).collect()),
            PyValue::Pattern(p) => PyValue::Pattern(p.clone()),
            PyValue::Enum(e) => PyValue::Enum(e.clone()),
            PyValue::Named(n) => PyValue::Named(n.clone()),
            PyValue::Func(n, _) => PyValue::Func(n.clone(), None),
            PyValue::Opaque => PyValue::Opaque,
            PyValue::Unknown(w) => PyValue::Unknown(w.clone()),
        }
    }
}

/// Where an expression is evaluated: the module, or a class body up to a statement.
#[derive(Clone, Copy)]
pub struct Place<'a> {
    pub class: Option<&'a [Stmt]>,
    /// Only class-body statements before this offset have run.
    pub before: TextSize,
}

impl Place<'_> {
    pub fn module() -> Self {
        Place {
            class: None,
            before: TextSize::new(u32::MAX),
        }
    }
}

pub struct Evaluator<'s, 'a> {
    pub scope: &'s ModuleScope<'a>,
    pub module: &'a [Stmt],
    /// `imported_module` by name: each answer scans the whole module, so it is computed once.
    pub imports: std::cell::RefCell<rustc_hash::FxHashMap<String, Option<String>>>,
}

type Env<'a> = Vec<(String, PyValue<'a>)>;
