//! Operators with Python's own rules: subscripts, unary and binary operators on ints, floats,
//! complex numbers and sequences, and truth values.

use ruff_python_ast as ast;

use super::repr::complex_repr;
use super::{PyValue, MAX_LEN};

/// An int converted to float where the conversion is exact (CPython rounds the rest the same way,
/// but only small ints are taken).
pub(super) fn exact_float(i: i128) -> Option<f64> {
    (i.unsigned_abs() <= 1 << 53).then_some(i as f64)
}

pub(super) fn truth(v: &PyValue) -> Option<bool> {
    Some(match v {
        PyValue::None => false,
        PyValue::Bool(b) => *b,
        PyValue::Int(i) => *i != 0,
        PyValue::Float(f) => *f != 0.0,
        PyValue::Str(s) => !s.is_empty(),
        PyValue::Tuple(t) | PyValue::List(t) => !t.is_empty(),
        _ => return None,
    })
}

pub(super) fn subscript<'a>(value: PyValue<'a>, index: PyValue<'a>) -> PyValue<'a> {
    let PyValue::Int(i) = index else {
        return PyValue::unknown("a subscript the extractor does not evaluate");
    };
    let pick = |len: usize| -> Option<usize> {
        let len = len as i128;
        let j = if i < 0 { i + len } else { i };
        (0..len).contains(&j).then_some(j as usize)
    };
    match value {
        PyValue::Tuple(v) | PyValue::List(v) => match pick(v.len()) {
            Some(j) => v[j].clone(),
            None => PyValue::unknown("an index out of range"),
        },
        PyValue::Str(s) => {
            let chars: Vec<char> = s.chars().collect();
            match pick(chars.len()) {
                Some(j) => PyValue::Str(chars[j].to_string()),
                None => PyValue::unknown("an index out of range"),
            }
        }
        PyValue::Unknown(w) => PyValue::Unknown(w),
        _ => PyValue::unknown("a subscript the extractor does not evaluate"),
    }
}

pub(super) fn unary<'a>(op: ast::UnaryOp, v: PyValue<'a>) -> PyValue<'a> {
    use ast::UnaryOp::*;
    match (op, v) {
        (_, PyValue::Unknown(w)) => PyValue::Unknown(w),
        (USub, PyValue::Int(i)) => i
            .checked_neg()
            .map_or_else(|| PyValue::unknown("overflow"), PyValue::Int),
        (USub, PyValue::Bool(b)) => PyValue::Int(-i128::from(b)),
        (USub, PyValue::Float(f)) => PyValue::Float(-f),
        (USub, PyValue::Complex(a, b)) => PyValue::Complex(-a, -b),
        (UAdd, PyValue::Int(i)) => PyValue::Int(i),
        (UAdd, PyValue::Bool(b)) => PyValue::Int(i128::from(b)),
        (UAdd, PyValue::Float(f)) => PyValue::Float(f),
        (UAdd, PyValue::Complex(a, b)) => PyValue::Complex(a, b),
        (Invert, PyValue::Int(i)) => PyValue::Int(!i),
        (Invert, PyValue::Bool(b)) => PyValue::Int(!i128::from(b)),
        (Not, v) => truth(&v).map_or_else(
            || PyValue::unknown("`not` of a computed value"),
            |t| PyValue::Bool(!t),
        ),
        _ => PyValue::unknown("an operator on a value the extractor does not evaluate"),
    }
}

/// Python's binary operators on the values the extractor evaluates; `Unknown` for the rest (and for
/// float `//`, `%`, `**`, whose results depend on the platform's libm).
pub(super) fn binary<'a>(op: ast::Operator, l: PyValue<'a>, r: PyValue<'a>) -> PyValue<'a> {
    match (&l, &r) {
        (PyValue::Unknown(w), _) | (_, PyValue::Unknown(w)) => return PyValue::Unknown(w.clone()),
        _ => {}
    }
    if let (Some(a), Some(b)) = (as_int(&l), as_int(&r)) {
        return int_binary(op, a, b);
    }
    if let Some(v) = sequence_binary(op, &l, &r) {
        return v;
    }
    // Floats: IEEE arithmetic, the same as CPython's for + - * /.
    if let (Some(a), Some(b)) = (as_float(&l), as_float(&r)) {
        return match op {
            ast::Operator::Add => PyValue::Float(a + b),
            ast::Operator::Sub => PyValue::Float(a - b),
            ast::Operator::Mult => PyValue::Float(a * b),
            ast::Operator::Div if b != 0.0 => PyValue::Float(a / b),
            _ => PyValue::unknown("a float operation whose result the extractor does not compute"),
        };
    }
    complex_binary(op, &l, &r)
}

/// An int (or bool) as Python's int arithmetic sees it.
fn as_int(v: &PyValue) -> Option<i128> {
    match v {
        PyValue::Int(i) => Some(*i),
        PyValue::Bool(b) => Some(i128::from(*b)),
        _ => None,
    }
}

/// A real number as a float, when the conversion is exact.
fn as_float(v: &PyValue) -> Option<f64> {
    match v {
        PyValue::Float(f) => Some(*f),
        other => as_int(other).and_then(exact_float),
    }
}

fn int_binary<'a>(op: ast::Operator, a: i128, b: i128) -> PyValue<'a> {
    use ast::Operator::*;
    let overflow = || PyValue::unknown("an int too large for the extractor");
    match op {
        Add => a.checked_add(b).map_or_else(overflow, PyValue::Int),
        Sub => a.checked_sub(b).map_or_else(overflow, PyValue::Int),
        Mult => a.checked_mul(b).map_or_else(overflow, PyValue::Int),
        FloorDiv if b != 0 => {
            PyValue::Int(a.div_euclid(b) - i128::from(b < 0 && a.rem_euclid(b) != 0))
        }
        Mod if b != 0 => {
            let m = a.rem_euclid(b);
            PyValue::Int(if b < 0 && m != 0 { m + b } else { m })
        }
        Pow if (0..=127).contains(&b) => {
            a.checked_pow(b as u32).map_or_else(overflow, PyValue::Int)
        }
        Div if b != 0 => match (exact_float(a), exact_float(b)) {
            (Some(x), Some(y)) => PyValue::Float(x / y),
            _ => overflow(),
        },
        LShift if (0..120).contains(&b) => a
            .checked_mul(1i128 << b)
            .map_or_else(overflow, PyValue::Int),
        RShift if b >= 0 => PyValue::Int(a >> b.min(127)),
        BitAnd => PyValue::Int(a & b),
        BitOr => PyValue::Int(a | b),
        BitXor => PyValue::Int(a ^ b),
        _ => PyValue::unknown("an int operation that raises or is not followed"),
    }
}

/// `+` of two strings, bytes, tuples or lists, and `*` of one of them by an int.
fn sequence_binary<'a>(op: ast::Operator, l: &PyValue<'a>, r: &PyValue<'a>) -> Option<PyValue<'a>> {
    use ast::Operator::*;
    match (op, l, r) {
        (Add, PyValue::Str(a), PyValue::Str(b)) if a.len() + b.len() <= MAX_LEN => {
            Some(PyValue::Str(format!("{a}{b}")))
        }
        (Add, PyValue::Bytes(a), PyValue::Bytes(b)) if a.len() + b.len() <= MAX_LEN => {
            Some(PyValue::Bytes([a.as_slice(), b.as_slice()].concat()))
        }
        (Add, PyValue::Tuple(a), PyValue::Tuple(b)) => {
            Some(PyValue::Tuple([a.clone(), b.clone()].concat()))
        }
        (Add, PyValue::List(a), PyValue::List(b)) => {
            Some(PyValue::List([a.clone(), b.clone()].concat()))
        }
        (Mult, s, n) | (Mult, n, s)
            if as_int(n).is_some()
                && matches!(
                    s,
                    PyValue::Str(_) | PyValue::Bytes(_) | PyValue::Tuple(_) | PyValue::List(_)
                ) =>
        {
            Some(repeat(s, as_int(n).unwrap_or(0).max(0) as usize))
        }
        _ => None,
    }
}

/// `s * times` for a string, bytes, tuple or list.
fn repeat<'a>(s: &PyValue<'a>, times: usize) -> PyValue<'a> {
    let len = match s {
        PyValue::Str(x) => x.len(),
        PyValue::Bytes(x) => x.len(),
        PyValue::Tuple(x) | PyValue::List(x) => x.len(),
        _ => 0,
    };
    if len.saturating_mul(times) > MAX_LEN {
        return PyValue::unknown("a value too long for the extractor");
    }
    match s {
        PyValue::Str(x) => PyValue::Str(x.repeat(times)),
        PyValue::Bytes(x) => PyValue::Bytes(x.repeat(times)),
        PyValue::Tuple(x) => {
            PyValue::Tuple(x.iter().cloned().cycle().take(x.len() * times).collect())
        }
        PyValue::List(x) => {
            PyValue::List(x.iter().cloned().cycle().take(x.len() * times).collect())
        }
        _ => PyValue::Opaque,
    }
}

/// `+` and `-` with a complex operand. A real and a complex: Python 3.14 no longer turns the real
/// into `complex(x, 0)` first, which changes signed zeros; only results both versions agree on are
/// taken.
fn complex_binary<'a>(op: ast::Operator, l: &PyValue<'a>, r: &PyValue<'a>) -> PyValue<'a> {
    use ast::Operator::*;
    let complex = |v: &PyValue| match v {
        PyValue::Complex(a, b) => Some((*a, *b)),
        _ => None,
    };
    let (lc, rc) = (complex(l), complex(r));
    let (lf, rf) = (as_float(l), as_float(r));
    let result = match (op, lc, rc, lf, rf) {
        (Add, Some((a, b)), Some((c, d)), _, _) => Some(((a + c, b + d), (a + c, b + d))),
        (Sub, Some((a, b)), Some((c, d)), _, _) => Some(((a - c, b - d), (a - c, b - d))),
        (Add, None, Some((c, d)), Some(x), _) => Some(((x + c, 0.0 + d), (x + c, d))),
        (Sub, None, Some((c, d)), Some(x), _) => Some(((x - c, 0.0 - d), (x - c, -d))),
        (Add, Some((a, b)), None, _, Some(y)) => Some(((a + y, b + 0.0), (a + y, b))),
        (Sub, Some((a, b)), None, _, Some(y)) => Some(((a - y, b - 0.0), (a - y, b))),
        _ => None,
    };
    match result {
        Some((old, new)) if complex_repr(old.0, old.1) == complex_repr(new.0, new.1) => {
            PyValue::Complex(new.0, new.1)
        }
        Some(_) => {
            PyValue::unknown("a complex number whose signed zero differs between Python versions")
        }
        None => PyValue::unknown("an operation the extractor does not evaluate"),
    }
}
