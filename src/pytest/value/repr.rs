//! `str()` and `repr()` of the values the file alone shows (what ids and f-strings print).

use crate::pytest::ids;

use super::{EnumKind, PyValue};

/// `str(value)` where the file alone shows it.
pub fn py_str(value: &PyValue) -> Option<String> {
    Some(match value {
        PyValue::Str(s) => s.clone(),
        PyValue::Enum(e) => match (&e.kind, e.value.as_ref()) {
            (EnumKind::IntLike, PyValue::Int(i)) => i.to_string(),
            (EnumKind::IntLike, _) => return None,
            _ => format!("{}.{}", e.class, e.name),
        },
        other => py_repr(other)?,
    })
}

/// `repr(value)` for builtin values (ASCII strings only: Python keeps printable non-ASCII).
pub fn py_repr(value: &PyValue) -> Option<String> {
    Some(match value {
        PyValue::None => "None".into(),
        PyValue::Bool(b) => if *b { "True" } else { "False" }.into(),
        PyValue::Int(i) => i.to_string(),
        PyValue::Float(f) => ids::float_repr(*f),
        PyValue::Complex(a, b) => ids::complex_repr(*a, *b),
        PyValue::Str(s) => {
            if !s.is_ascii() {
                return None;
            }
            let quote = if s.contains('\'') && !s.contains('"') {
                '"'
            } else {
                '\''
            };
            let mut out = String::from(quote);
            for c in s.chars() {
                match c {
                    '\\' => out.push_str("\\\\"),
                    '\n' => out.push_str("\\n"),
                    '\r' => out.push_str("\\r"),
                    '\t' => out.push_str("\\t"),
                    c if c == quote => {
                        out.push('\\');
                        out.push(c);
                    }
                    c if (c as u32) < 0x20 || c as u32 == 0x7f => {
                        out.push_str(&format!("\\x{:02x}", c as u32))
                    }
                    c => out.push(c),
                }
            }
            out.push(quote);
            out
        }
        PyValue::Tuple(v) => {
            let parts: Option<Vec<String>> = v.iter().map(py_repr).collect();
            let parts = parts?;
            if parts.len() == 1 {
                format!("({},)", parts[0])
            } else {
                format!("({})", parts.join(", "))
            }
        }
        PyValue::List(v) => {
            let parts: Option<Vec<String>> = v.iter().map(py_repr).collect();
            format!("[{}]", parts?.join(", "))
        }
        PyValue::Enum(e) if e.kind == EnumKind::Plain => {
            format!("<{}.{}: {}>", e.class, e.name, py_repr(&e.value)?)
        }
        _ => return None,
    })
}
