//! `str()` and `repr()` of the values the file alone shows (what ids and f-strings print).

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
        PyValue::Float(f) => float_repr(*f),
        PyValue::Complex(a, b) => complex_repr(*a, *b),
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

/// `repr(float)` (and `str(float)`): shortest round-trip digits, scientific notation outside
/// 1e-4 ≤ |x| < 1e16.
pub fn float_repr(f: f64) -> String {
    if f.is_nan() {
        return "nan".into();
    }
    if f.is_infinite() {
        return if f > 0.0 { "inf".into() } else { "-inf".into() };
    }
    if f == 0.0 {
        return if f.is_sign_negative() { "-0.0" } else { "0.0" }.into();
    }
    let sci = format!("{f:e}"); // shortest digits: "1.5e-5", "-1e16"
    let (mantissa, exp) = sci.split_once('e').unwrap_or((&sci, "0"));
    let exp: i32 = exp.parse().unwrap_or(0);
    let sign = if mantissa.starts_with('-') { "-" } else { "" };
    let digits: String = mantissa.chars().filter(|c| c.is_ascii_digit()).collect();
    if (-4..16).contains(&exp) {
        let point = exp + 1; // digits before the decimal point
        if point <= 0 {
            format!("{sign}0.{}{digits}", "0".repeat((-point) as usize))
        } else if (point as usize) >= digits.len() {
            format!(
                "{sign}{digits}{}.0",
                "0".repeat(point as usize - digits.len())
            )
        } else {
            let (a, b) = digits.split_at(point as usize);
            format!("{sign}{a}.{b}")
        }
    } else {
        let (first, rest) = digits.split_at(1);
        let mant = if rest.is_empty() {
            first.to_string()
        } else {
            format!("{first}.{rest}")
        };
        let esign = if exp < 0 { '-' } else { '+' };
        format!("{sign}{mant}e{esign}{:02}", exp.abs())
    }
}

/// A complex part as `repr(complex)` writes it: like `repr(float)` without the `.0`.
fn complex_part(f: f64) -> String {
    let s = float_repr(f);
    s.strip_suffix(".0").map(str::to_string).unwrap_or(s)
}

/// `repr(complex)`: `2j` when the real part is +0.0, else `(re±imj)`.
pub fn complex_repr(re: f64, im: f64) -> String {
    if re == 0.0 && re.is_sign_positive() {
        return format!("{}j", complex_part(im));
    }
    let imag = complex_part(im);
    let imag = if imag.starts_with('-') {
        imag
    } else {
        format!("+{imag}")
    };
    format!("({}{imag}j)", complex_part(re))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn floats_print_like_python_repr() {
        assert_eq!(float_repr(0.1 + 0.2), "0.30000000000000004");
        assert_eq!(float_repr(1e16), "1e+16");
        assert_eq!(float_repr(1e15), "1000000000000000.0");
        assert_eq!(float_repr(1e-5), "1e-05");
        assert_eq!(float_repr(0.0001), "0.0001");
        assert_eq!(float_repr(-0.0), "-0.0");
        assert_eq!(float_repr(2.5), "2.5");
        assert_eq!(float_repr(1.0 / 3.0), "0.3333333333333333");
        assert_eq!(float_repr(f64::NAN), "nan");
        assert_eq!(float_repr(f64::NEG_INFINITY), "-inf");
        assert_eq!(float_repr(123456789012345680.0), "1.2345678901234568e+17");
    }

    #[test]
    fn complex_prints_like_python_repr() {
        assert_eq!(complex_repr(3.0, 4.0), "(3+4j)");
        assert_eq!(complex_repr(0.0, 2.0), "2j");
        assert_eq!(complex_repr(-0.0, -2.0), "(-0-2j)");
        assert_eq!(complex_repr(1.5, -0.5), "(1.5-0.5j)");
        assert_eq!(complex_repr(0.0, 1e16), "1e+16j");
    }
}
