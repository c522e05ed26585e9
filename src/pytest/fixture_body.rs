//! A parametrized fixture's body run for one of its params, as far as the file alone decides it:
//! `if`s whose conditions compare `request.param` (or the file's constants) with literals are
//! taken or skipped exactly as Python would, `pytest.importorskip("m")` is the module `m`, an
//! attribute of it is read, `pytest.skip(...)` skips the case. The fixture's value comes out as a
//! self-contained Python expression (it reads only builtins), evaluated where the fixture runs:
//! `pytest.importorskip(name)` imports `name` and returns `sys.modules[name]`, which is what
//! `importlib.import_module(name)` returns; when the import fails pytest skips the test and the
//! expression raises, so neither passes. Anything else in the path the param takes is outside
//! what this module replays (`None`: the caller keeps its own reason).

use std::cell::RefCell;

use ruff_python_ast::{self as ast, CmpOp, Expr, Stmt};
use ruff_text_size::Ranged;

use crate::module::ModuleScope;
use crate::pytest::value::{self, Evaluator, Place, PyValue};
use crate::rules::{Fixtures, Reason};
use crate::source::SourceMap;
use crate::walk::{any_expr, Scope};

/// What the fixture does with one param.
#[derive(Debug, PartialEq)]
pub enum Outcome {
    /// Its value, as a Python expression that reads only builtins.
    Value(String),
    /// pytest skips the case; why.
    Skip(Reason),
    /// Which way the body goes depends on what the file does not tell; why.
    Undecided(Reason),
}

/// A value the body computes.
#[derive(Clone, Debug)]
enum Val<'a> {
    /// `request.param` itself.
    Param,
    /// A value the file tells (a literal, a constant).
    Known(PyValue<'a>),
    /// A Python expression that reads only builtins (an imported module, an attribute of it).
    Text(String),
}

/// How running the body stopped.
enum Stop {
    /// Outside what this module replays.
    Unsupported,
    Skip(Reason),
    Undecided(Reason),
}

/// Run the body of a fixture whose only argument is `request`, with `request.param` = `param`.
pub fn run<'a>(
    body: &'a [Stmt],
    param: &PyValue<'a>,
    scope: &ModuleScope<'a>,
    eval: &Evaluator<'_, 'a>,
    place: Place<'a>,
    map: &SourceMap,
) -> Option<Outcome> {
    let mut run = Run {
        param,
        scope,
        eval,
        place,
        map,
        locals: Vec::new(),
        imports: RefCell::new(Vec::new()),
    };
    let body = match body.first() {
        Some(Stmt::Expr(e)) if matches!(e.value.as_ref(), Expr::StringLiteral(_)) => &body[1..],
        _ => body,
    };
    let value = match run.block(body, true) {
        Ok(Some(v)) => v,
        // Falling off the end: the fixture's value is `None`.
        Ok(None) => Val::Known(PyValue::None),
        Err(Stop::Unsupported) => return None,
        Err(Stop::Skip(why)) => return Some(Outcome::Skip(why)),
        Err(Stop::Undecided(why)) => return Some(Outcome::Undecided(why)),
    };
    let text = run.text(&value)?;
    let imports = run.imports.into_inner();
    Some(Outcome::Value(match imports.as_slice() {
        [] => text,
        [only] if text.starts_with(only.as_str()) => text,
        _ => format!("({}, {text})[-1]", imports.join(", ")),
    }))
}

struct Run<'r, 'a> {
    param: &'r PyValue<'a>,
    scope: &'r ModuleScope<'a>,
    eval: &'r Evaluator<'r, 'a>,
    place: Place<'a>,
    map: &'r SourceMap<'r>,
    locals: Vec<(String, Val<'a>)>,
    /// The imports the body ran (`pytest.importorskip`), in order: replayed even where the value
    /// does not read them (a failed import skips the case).
    imports: RefCell<Vec<String>>,
}

impl<'a> Run<'_, 'a> {
    /// Run statements in order; `Some(value)` when one returns. `top`: the function's own body
    /// (where a last `yield` gives the value).
    fn block(&mut self, body: &'a [Stmt], top: bool) -> Result<Option<Val<'a>>, Stop> {
        for (i, stmt) in body.iter().enumerate() {
            let last = top && i + 1 == body.len();
            if let Some(v) = self.stmt(stmt, last)? {
                return Ok(Some(v));
            }
        }
        Ok(None)
    }

    fn stmt(&mut self, stmt: &'a Stmt, last: bool) -> Result<Option<Val<'a>>, Stop> {
        match stmt {
            Stmt::Pass(_) => Ok(None),
            Stmt::Return(r) => match r.value.as_deref() {
                Some(v) => self.value(v).map(Some),
                None => Ok(Some(Val::Known(PyValue::None))),
            },
            Stmt::Assign(a) => match a.targets.as_slice() {
                [Expr::Name(n)] if n.id.as_str() != "request" => {
                    let v = self.value(&a.value)?;
                    if let Val::Known(k) = &v {
                        // Only values that evaluating cannot have run code for.
                        if !matches!(
                            k,
                            PyValue::None
                                | PyValue::Bool(_)
                                | PyValue::Int(_)
                                | PyValue::Float(_)
                                | PyValue::Str(_)
                                | PyValue::Bytes(_)
                                | PyValue::Tuple(_)
                                | PyValue::List(_)
                        ) {
                            return Err(Stop::Unsupported);
                        }
                    }
                    self.locals.retain(|(name, _)| name != n.id.as_str());
                    self.locals.push((n.id.to_string(), v));
                    Ok(None)
                }
                _ => Err(Stop::Unsupported),
            },
            Stmt::If(s) => self.if_stmt(s),
            Stmt::Expr(e) => match e.value.as_ref() {
                // A `yield` that ends the body: no teardown after it.
                Expr::Yield(y) if last => match y.value.as_deref() {
                    Some(v) => self.value(v).map(Some),
                    None => Ok(Some(Val::Known(PyValue::None))),
                },
                call @ Expr::Call(_)
                    if self.scope.pytest_path(call).as_deref() == Some("pytest.skip") =>
                {
                    Err(Stop::Skip(Fixtures::FixtureSkipsCase.because(format!(
                        "`{}` on line {}",
                        self.map.snippet(call.range()),
                        self.map.line(call.range().start())
                    ))))
                }
                _ => Err(Stop::Unsupported),
            },
            _ => Err(Stop::Unsupported),
        }
    }

    fn if_stmt(&mut self, s: &'a ast::StmtIf) -> Result<Option<Val<'a>>, Stop> {
        if self.truth(&s.test)? {
            return self.block(&s.body, false);
        }
        for clause in &s.elif_else_clauses {
            let taken = match &clause.test {
                Some(test) => self.truth(test)?,
                None => true,
            };
            if taken {
                return self.block(&clause.body, false);
            }
        }
        Ok(None)
    }

    /// The value of an expression of the body.
    fn value(&self, expr: &'a Expr) -> Result<Val<'a>, Stop> {
        match expr {
            _ if is_request_param(expr) => Ok(Val::Param),
            Expr::Name(n) => match self
                .locals
                .iter()
                .rev()
                .find(|(name, _)| name == n.id.as_str())
            {
                Some((_, v)) => Ok(v.clone()),
                None if n.id.as_str() == "request" => Err(Stop::Unsupported),
                None => Ok(Val::Known(self.eval.eval(expr, self.place))),
            },
            Expr::Attribute(a) => match self.value(&a.value)? {
                Val::Text(t) => Ok(Val::Text(format!("{t}.{}", a.attr))),
                _ => Err(Stop::Unsupported),
            },
            // `a if test else b`: only the branch the test picks is evaluated.
            Expr::If(e) => match self.truth(&e.test)? {
                true => self.value(&e.body),
                false => self.value(&e.orelse),
            },
            Expr::Call(c)
                if self.scope.pytest_path(expr).as_deref() == Some("pytest.importorskip") =>
            {
                self.importorskip(c)
            }
            _ if self.reads_locals(expr) => Err(Stop::Unsupported),
            // A call may run code: its value is not taken, even where the evaluator could tell it.
            _ if has_call(expr) => Ok(Val::Known(PyValue::Unknown(format!(
                "`{}` calls code",
                self.map.snippet(expr.range())
            )))),
            _ => Ok(Val::Known(self.eval.eval(expr, self.place))),
        }
    }

    /// `pytest.importorskip("a.b")`: the module, as `importlib.import_module` gives it.
    fn importorskip(&self, c: &'a ast::ExprCall) -> Result<Val<'a>, Stop> {
        let ([arg], []) = (&c.arguments.args[..], &c.arguments.keywords[..]) else {
            return Err(Stop::Unsupported);
        };
        let name = match self.value(arg)? {
            Val::Param => self.param.clone(),
            Val::Known(v) => v,
            Val::Text(_) => return Err(Stop::Unsupported),
        };
        match name {
            PyValue::Str(m) if is_dotted_name(&m) => {
                let text = format!("__import__(\"importlib\").import_module(\"{m}\")");
                self.imports.borrow_mut().push(text.clone());
                Ok(Val::Text(text))
            }
            _ => Err(Stop::Unsupported),
        }
    }

    /// Whether an expression reads `request` or a local of the body.
    fn reads_locals(&self, expr: &Expr) -> bool {
        any_expr(expr, Scope::All, |e| {
            matches!(e, Expr::Name(n)
                if n.id.as_str() == "request" || self.locals.iter().any(|(l, _)| l == n.id.as_str()))
        })
    }

    /// The truth value of an `if` condition, exactly as Python takes it, or why it is unknown.
    fn truth(&self, expr: &'a Expr) -> Result<bool, Stop> {
        match expr {
            Expr::BoolOp(b) => {
                // `and` stops at the first false operand, `or` at the first true one.
                let stop_at = matches!(b.op, ast::BoolOp::Or);
                for v in &b.values {
                    if self.truth(v)? == stop_at {
                        return Ok(stop_at);
                    }
                }
                Ok(!stop_at)
            }
            Expr::UnaryOp(u) if matches!(u.op, ast::UnaryOp::Not) => Ok(!self.truth(&u.operand)?),
            Expr::Compare(c) if c.ops.len() == 1 => {
                let left = self.known(&c.left)?;
                let right = self.known(&c.comparators[0])?;
                compare(c.ops[0], &left, &right).ok_or_else(|| self.undecided(expr))
            }
            _ => truthy(&self.known(expr)?).ok_or_else(|| self.undecided(expr)),
        }
    }

    /// The value of an operand of a condition, when the file tells it.
    fn known(&self, expr: &'a Expr) -> Result<PyValue<'a>, Stop> {
        match self.value(expr)? {
            Val::Param => Ok(self.param.clone()),
            Val::Known(PyValue::Unknown(_)) | Val::Text(_) => Err(self.undecided(expr)),
            Val::Known(v) => Ok(v),
        }
    }

    fn undecided(&self, expr: &Expr) -> Stop {
        Stop::Undecided(Fixtures::FixtureBranchUnknown.because(format!(
            "which way it goes depends on `{}` (line {}), which the extractor cannot evaluate",
            self.map.snippet(expr.range()),
            self.map.line(expr.range().start())
        )))
    }

    /// The fixture's value as Python source: a text, or a scalar literal (a new object equal to the
    /// param, as for a parametrize value written out).
    fn text(&self, v: &Val<'a>) -> Option<String> {
        let scalar = match v {
            Val::Text(t) => return Some(t.clone()),
            Val::Param => self.param,
            Val::Known(k) => k,
        };
        match scalar {
            PyValue::None | PyValue::Bool(_) | PyValue::Int(_) | PyValue::Str(_) => {
                value::py_repr(scalar)
            }
            _ => None,
        }
    }
}

/// `request.param`.
pub fn is_request_param(e: &Expr) -> bool {
    matches!(e, Expr::Attribute(a) if a.attr.as_str() == "param"
        && matches!(a.value.as_ref(), Expr::Name(n) if n.id.as_str() == "request"))
}

/// `a.b.c`: names only, so that the text is a valid import and a valid string literal.
fn is_dotted_name(s: &str) -> bool {
    !s.is_empty()
        && s.split('.').all(|part| {
            let mut chars = part.chars();
            chars
                .next()
                .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
                && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
        })
}

/// A comparison of two values the file tells, where Python's answer does not depend on more than
/// the values: strings with strings, integers with integers, `None` by identity, membership of a
/// string in a tuple or list of strings.
fn compare(op: CmpOp, left: &PyValue, right: &PyValue) -> Option<bool> {
    use PyValue::{Int, List, None as PyNone, Str, Tuple};
    let equal = match (left, right) {
        (Str(a), Str(b)) => Some(a == b),
        (Int(a), Int(b)) => Some(a == b),
        _ => None,
    };
    match op {
        CmpOp::Eq => equal,
        CmpOp::NotEq => equal.map(|e| !e),
        CmpOp::Is | CmpOp::IsNot => {
            let same = match (left, right) {
                (PyNone, PyNone) => true,
                (PyNone, Str(_) | Int(_)) | (Str(_) | Int(_), PyNone) => false,
                _ => return None,
            };
            Some(same == matches!(op, CmpOp::Is))
        }
        CmpOp::In | CmpOp::NotIn => {
            let (Str(s), Tuple(items) | List(items)) = (left, right) else {
                return None;
            };
            let mut found = false;
            for item in items {
                match item {
                    Str(t) => found |= t == s,
                    _ => return None,
                }
            }
            Some(found == matches!(op, CmpOp::In))
        }
        _ => None,
    }
}

/// Python's truth value of a value the file tells.
fn truthy(v: &PyValue) -> Option<bool> {
    match v {
        PyValue::None => Some(false),
        PyValue::Bool(b) => Some(*b),
        PyValue::Int(i) => Some(*i != 0),
        PyValue::Str(s) => Some(!s.is_empty()),
        PyValue::Tuple(items) | PyValue::List(items) => Some(!items.is_empty()),
        _ => None,
    }
}

/// Whether an expression contains a call.
fn has_call(expr: &Expr) -> bool {
    any_expr(expr, Scope::All, |e| matches!(e, Expr::Call(_)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(v: &str) -> PyValue<'static> {
        PyValue::Str(v.to_string())
    }

    #[test]
    fn comparisons_decided_only_where_python_answers_from_the_values() {
        assert_eq!(compare(CmpOp::Eq, &s("a"), &s("a")), Some(true));
        assert_eq!(compare(CmpOp::NotEq, &s("a"), &s("b")), Some(true));
        assert_eq!(
            compare(CmpOp::Eq, &PyValue::Int(1), &PyValue::Int(2)),
            Some(false)
        );
        // `True == 1` is true in Python: mixed kinds are not decided.
        assert_eq!(
            compare(CmpOp::Eq, &PyValue::Bool(true), &PyValue::Int(1)),
            None
        );
        assert_eq!(compare(CmpOp::Eq, &s("1"), &PyValue::Int(1)), None);
        assert_eq!(
            compare(CmpOp::Is, &PyValue::None, &PyValue::None),
            Some(true)
        );
        assert_eq!(compare(CmpOp::IsNot, &s("x"), &PyValue::None), Some(true));
        assert_eq!(compare(CmpOp::Is, &s("x"), &s("x")), None);
        let names = PyValue::Tuple(vec![s("a"), s("b")]);
        assert_eq!(compare(CmpOp::In, &s("b"), &names), Some(true));
        assert_eq!(compare(CmpOp::NotIn, &s("c"), &names), Some(true));
        let mixed = PyValue::List(vec![s("a"), PyValue::Int(1)]);
        assert_eq!(compare(CmpOp::In, &s("a"), &mixed), None);
        assert_eq!(compare(CmpOp::Lt, &s("a"), &s("b")), None);
    }

    #[test]
    fn truth_values_and_module_names() {
        assert_eq!(truthy(&s("")), Some(false));
        assert_eq!(truthy(&PyValue::Int(0)), Some(false));
        assert_eq!(truthy(&PyValue::Tuple(vec![PyValue::None])), Some(true));
        assert_eq!(truthy(&PyValue::Opaque), None);
        assert!(is_dotted_name("pyrsistent._pvector"));
        assert!(!is_dotted_name("a..b"));
        assert!(!is_dotted_name("a\"); import os; (\""));
        assert!(!is_dotted_name("1abc"));
        assert!(!is_dotted_name(""));
    }
}
