//! pytest's parametrize ids (`_pytest/python.py`: `IdMaker`), for values already evaluated to
//! [`PyValue`]s: `_idval_from_value`, `_idval_from_argname`, the explicit ids of `ids=` lists and
//! `pytest.param(id=)`, the duplicate suffixes of `make_unique_parameterset_ids`, and
//! `ascii_escaped` (`_pytest/compat.py`) as `_ascii_escaped_by_config` applies it: not at all under
//! the ini key `disable_test_id_escaping_and_forfeit_all_rights_to_community_support` ([`Escaping`]).

use std::cell::RefCell;

use crate::pytest::value::{complex_repr, float_repr, EnumKind, PyValue};

/// The ini key that turns `ascii_escaped` off for the ids of `str` and `bytes` values, `ids=`
/// strings and `pytest.param(id=…)` (`_ascii_escaped_by_config`); a pattern's id stays escaped.
pub const NO_ESCAPING_KEY: &str =
    "disable_test_id_escaping_and_forfeit_all_rights_to_community_support";

/// How pytest turns a `str` or `bytes` into id text (`_ascii_escaped_by_config`), by the value of
/// [`NO_ESCAPING_KEY`], which pytest reads (`config.getini`, a `bool`) the first time it needs it.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub enum EscapeMode {
    /// `ascii_escaped` (the key unset or false): pytest's default.
    #[default]
    Escaped,
    /// The text as it is (the key true). A `bytes` value then stays `bytes`, which pytest cannot
    /// join into an id: the file's collection fails (`TypeError`).
    Raw,
    /// The key's value is not a truth value (`_strtobool`): pytest fails the file's collection
    /// (`ValueError`) the first time it escapes a string. The value as written.
    Invalid(String),
}

impl EscapeMode {
    /// The mode for the key's value as the configuration holds it (`None`: the key is unset).
    /// pytest's `_strtobool` on the stripped text: `y yes t true on 1`, `n no f false off 0`, any
    /// case.
    pub fn of(value: Option<&str>) -> EscapeMode {
        let Some(value) = value else {
            return EscapeMode::Escaped;
        };
        match value.trim().to_lowercase().as_str() {
            "y" | "yes" | "t" | "true" | "on" | "1" => EscapeMode::Raw,
            "n" | "no" | "f" | "false" | "off" | "0" => EscapeMode::Escaped,
            _ => EscapeMode::Invalid(value.trim().to_string()),
        }
    }
}

/// [`EscapeMode`], and the first refusal met while computing ids: why pytest fails to collect the
/// whole file (the collector then runs none of its tests).
#[derive(Clone, Debug, Default)]
pub struct Escaping {
    pub mode: EscapeMode,
    refused: RefCell<Option<String>>,
}

impl Escaping {
    pub fn new(mode: EscapeMode) -> Escaping {
        Escaping {
            mode,
            refused: RefCell::new(None),
        }
    }

    /// Why pytest fails to collect the file, if an id computed so far made it.
    pub fn refused(&self) -> Option<String> {
        self.refused.borrow().clone()
    }

    fn refuse(&self, why: String) -> String {
        self.refused.borrow_mut().get_or_insert_with(|| why.clone());
        why
    }

    /// `_ascii_escaped_by_config(str)`.
    pub fn str_id(&self, s: &str) -> Result<String, String> {
        match &self.mode {
            EscapeMode::Escaped => Ok(ascii_escaped_str(s)),
            EscapeMode::Raw => Ok(s.to_string()),
            EscapeMode::Invalid(value) => Err(self.refuse(invalid(value))),
        }
    }

    /// `_ascii_escaped_by_config(bytes)`.
    pub fn bytes_id(&self, b: &[u8]) -> Result<String, String> {
        match &self.mode {
            EscapeMode::Escaped => Ok(ascii_escaped_bytes(b)),
            EscapeMode::Raw => Err(self.refuse(format!(
                "with `{NO_ESCAPING_KEY} = true` the id of a bytes value stays bytes, which pytest cannot join into a test id: it fails the file's collection (`TypeError: sequence item 0: expected str instance, bytes found`)"
            ))),
            EscapeMode::Invalid(value) => Err(self.refuse(invalid(value))),
        }
    }
}

fn invalid(value: &str) -> String {
    format!(
        "`{NO_ESCAPING_KEY} = {value}` is not a truth value pytest reads: it fails the file's collection when it computes the id of a string (`ValueError: invalid truth value '{value}'`)"
    )
}

/// pytest ≥ 9.2 (`parametrize_long_str_id_strategy = "short"`, its default): a `str` or `bytes`
/// value longer than this gets the argname-and-index id instead of its text. pytest 9.0 and 9.1
/// have no limit.
pub const LONG_STR_LIMIT: usize = 100;

/// The pytest version whose ids the extraction follows (`Options::pytest_version`): 9.0 by
/// default, what the page's Pyodide ships and `scripts/setup.sh` pins.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct PytestVersion {
    pub major: u32,
    pub minor: u32,
}

impl Default for PytestVersion {
    fn default() -> Self {
        PytestVersion { major: 9, minor: 0 }
    }
}

impl PytestVersion {
    /// The versions whose ids the extractor knows.
    pub const SUPPORTED: &'static str = "9.0, 9.1 and 9.2";

    /// `9.2` or `9.2.0` (a patch level changes no id); an error naming the supported versions.
    pub fn parse(text: &str) -> Result<PytestVersion, String> {
        let mut parts = text.trim().split('.');
        let number = |p: Option<&str>| p.and_then(|p| p.parse::<u32>().ok());
        let (Some(major), Some(minor)) = (number(parts.next()), number(parts.next())) else {
            return Err(format!("`{text}` is not a pytest version such as 9.2"));
        };
        if parts.next().is_some_and(|p| p.parse::<u32>().is_err()) || parts.next().is_some() {
            return Err(format!("`{text}` is not a pytest version such as 9.2"));
        }
        if major != 9 || minor > 2 {
            return Err(format!(
                "pytest {major}.{minor}: the extractor follows the ids of pytest {}",
                Self::SUPPORTED
            ));
        }
        Ok(PytestVersion { major, minor })
    }
}

/// What pytest does with a `str` or `bytes` value over [`LONG_STR_LIMIT`] characters in an
/// id it generates.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub enum LongStrIds {
    /// Its whole text (pytest before 9.2, or `parametrize_long_str_id_strategy = legacy`).
    #[default]
    Whole,
    /// `argname + index` (`short`, pytest 9.2's default).
    ArgnameIndex,
    /// An id the extractor does not compute (`sha256`), or none (`disallow`: pytest fails the
    /// collection): why.
    Unknown(String),
}

impl LongStrIds {
    /// The rule under `version`, with the configuration's `parametrize_long_str_id_strategy`.
    pub fn of(version: PytestVersion, strategy: Option<&str>) -> LongStrIds {
        if version < (PytestVersion { major: 9, minor: 2 }) {
            return LongStrIds::Whole;
        }
        match strategy.map(str::trim).unwrap_or("short") {
            "short" => LongStrIds::ArgnameIndex,
            "legacy" => LongStrIds::Whole,
            "sha256" => LongStrIds::Unknown(
                "pytest names a long string by its sha256 digest (`parametrize_long_str_id_strategy = sha256`), which the extractor does not compute".into(),
            ),
            "disallow" => LongStrIds::Unknown(
                "pytest refuses a long string in an id it generates (`parametrize_long_str_id_strategy = disallow`)".into(),
            ),
            other => LongStrIds::Unknown(format!(
                "`parametrize_long_str_id_strategy = {other}` is not a strategy pytest knows"
            )),
        }
    }
}

/// One part of a parameter set's id.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Id {
    Shown(String),
    /// `pytest.HIDDEN_PARAM`: the set adds nothing to the node id.
    Hidden,
}

/// `IdMaker._idval_from_value`: the id a value gives itself, or `None` when pytest falls back to
/// `argname + index`. `Err` when the value's id cannot be known without running code.
pub fn idval_from_value(
    value: &PyValue<'_>,
    escaping: &Escaping,
) -> Result<Option<String>, String> {
    Ok(match value {
        PyValue::Str(s) => Some(escaping.str_id(s)?),
        PyValue::Bytes(b) => Some(escaping.bytes_id(b)?),
        PyValue::None => Some("None".into()),
        PyValue::Bool(b) => Some(if *b { "True" } else { "False" }.into()),
        PyValue::Int(i) => Some(i.to_string()),
        PyValue::Float(f) => Some(float_repr(*f)),
        PyValue::Complex(re, im) => Some(complex_repr(*re, *im)),
        // `ascii_escaped(val.pattern)`, whatever the configuration says.
        PyValue::Pattern(p) => Some(ascii_escaped_str(p)),
        PyValue::Enum(e) => Some(match &e.kind {
            // `isinstance(val, str)` comes first: the member's own text.
            EnumKind::StrMixin => match e.value.as_ref() {
                PyValue::Str(s) => escaping.str_id(s)?,
                _ => {
                    return Err(format!(
                        "the value of `{}.{}` is not known",
                        e.class, e.name
                    ))
                }
            },
            // `str(val)`: IntEnum and IntFlag print their value (Python 3.11+).
            EnumKind::IntLike => match e.value.as_ref() {
                PyValue::Int(i) => i.to_string(),
                _ => {
                    return Err(format!(
                        "the value of `{}.{}` is not known",
                        e.class, e.name
                    ))
                }
            },
            EnumKind::Plain => format!("{}.{}", e.class, e.name),
        }),
        PyValue::Named(n) | PyValue::Func(n, _) => Some(n.clone()),
        PyValue::Tuple(_) | PyValue::List(_) | PyValue::Opaque => None,
        PyValue::Unknown(why) => return Err(why.clone()),
    })
}

/// `IdMaker._idval` without an `ids` callable: the value's own id or `argname + index`, with
/// pytest 9.2's rule for long strings (`long`).
pub fn idval(
    value: &PyValue<'_>,
    argname: &str,
    index: usize,
    long: &LongStrIds,
    escaping: &Escaping,
) -> Result<String, String> {
    let is_long = match value {
        PyValue::Str(s) => s.chars().count() > LONG_STR_LIMIT,
        PyValue::Bytes(b) => b.len() > LONG_STR_LIMIT,
        _ => false,
    };
    if is_long {
        match long {
            LongStrIds::Whole => {}
            LongStrIds::ArgnameIndex => return Ok(format!("{argname}{index}")),
            LongStrIds::Unknown(why) => return Err(why.clone()),
        }
    }
    Ok(idval_from_value(value, escaping)?.unwrap_or_else(|| format!("{argname}{index}")))
}

/// `IdMaker._idval_from_value_required`: an entry of an `ids=` list. `Err` when pytest refuses it
/// (the file fails to collect) or its id cannot be known.
pub fn explicit_id(value: &PyValue<'_>, escaping: &Escaping) -> Result<String, String> {
    idval_from_value(value, escaping)?
        .ok_or_else(|| "an `ids` entry is of a type pytest refuses".to_string())
}

/// `make_unique_parameterset_ids`: duplicates get a counter suffix (`_` first when the id ends in a
/// digit), skipping suffixed ids already present. `Err` when a duplicate ends in a non-ASCII
/// numeric character (only an unescaped id can): whether Python's `str.isdigit` takes it, and pytest
/// puts `_` before the counter, is Unicode's digit table, which the extractor does not hold.
pub fn make_unique(ids: &mut [Id]) -> Result<(), String> {
    let shown = |id: &Id| match id {
        Id::Shown(s) => Some(s.clone()),
        Id::Hidden => None,
    };
    let mut counts: std::collections::HashMap<Option<String>, usize> = Default::default();
    for id in ids.iter() {
        *counts.entry(shown(id)).or_default() += 1;
    }
    if counts.values().all(|&c| c == 1) {
        return Ok(());
    }
    let mut suffixes: std::collections::HashMap<String, usize> = Default::default();
    for index in 0..ids.len() {
        let Id::Shown(id) = ids[index].clone() else {
            continue;
        };
        if counts[&Some(id.clone())] <= 1 {
            continue;
        }
        let last = id.chars().last();
        if let Some(c) = last.filter(|c| !c.is_ascii() && c.is_numeric()) {
            return Err(format!(
                "the duplicate id `{id}` ends in `{c}`, and whether pytest counts it a digit (`str.isdigit`) is not known here"
            ));
        }
        let sep = if last.is_some_and(|c| c.is_ascii_digit()) {
            "_"
        } else {
            ""
        };
        let taken = |ids: &[Id], candidate: &str| {
            ids.iter()
                .any(|i| matches!(i, Id::Shown(s) if s == candidate))
        };
        let counter = suffixes.entry(id.clone()).or_default();
        let mut new_id = format!("{id}{sep}{counter}");
        while taken(ids, &new_id) {
            *counter += 1;
            new_id = format!("{id}{sep}{counter}");
        }
        *counter += 1;
        ids[index] = Id::Shown(new_id);
    }
    Ok(())
}

/// `ascii_escaped(str)`: `unicode_escape`, then the remaining non-printable ASCII as `\xNN`.
pub fn ascii_escaped_str(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        let u = c as u32;
        match c {
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            _ if u < 0x20 || (0x7f..0x100).contains(&u) => out.push_str(&format!("\\x{u:02x}")),
            _ if u < 0x80 => out.push(c),
            _ if u < 0x10000 => out.push_str(&format!("\\u{u:04x}")),
            _ => out.push_str(&format!("\\U{u:08x}")),
        }
    }
    out
}

/// `ascii_escaped(bytes)`: `decode("ascii", "backslashreplace")` (a backslash stays one), then
/// non-printable ASCII as `\xNN` (`\t`, `\r`, `\n` by name).
pub fn ascii_escaped_bytes(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len());
    for &b in bytes {
        match b {
            b'\n' => out.push_str("\\n"),
            b'\r' => out.push_str("\\r"),
            b'\t' => out.push_str("\\t"),
            0x20..=0x7e => out.push(b as char),
            _ => out.push_str(&format!("\\x{b:02x}")),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shown(ids: &[&str]) -> Vec<Id> {
        ids.iter().map(|s| Id::Shown(s.to_string())).collect()
    }

    #[test]
    fn strings_are_escaped_like_pytest() {
        assert_eq!(ascii_escaped_str("abc"), "abc");
        assert_eq!(ascii_escaped_str("é\\\n\x7f"), "\\xe9\\\\\\n\\x7f");
        assert_eq!(ascii_escaped_str("😀"), "\\U0001f600");
        assert_eq!(ascii_escaped_str("日本"), "\\u65e5\\u672c");
        assert_eq!(ascii_escaped_str("\x00\x1b"), "\\x00\\x1b");
        assert_eq!(ascii_escaped_bytes(b"\x00\\\xff"), "\\x00\\\\xff");
        assert_eq!(ascii_escaped_bytes(b"a\tb"), "a\\tb");
    }

    #[test]
    fn duplicates_get_counters_that_skip_taken_ids() {
        let mut ids = shown(&["a", "a", "a0", "1", "1", "b1"]);
        make_unique(&mut ids).unwrap();
        assert_eq!(ids, shown(&["a1", "a2", "a0", "1_0", "1_1", "b1"]));
        let mut ids = shown(&["x", "y"]);
        make_unique(&mut ids).unwrap();
        assert_eq!(ids, shown(&["x", "y"]));
    }

    #[test]
    fn values_without_an_id_fall_back_to_argname_and_index() {
        let whole = LongStrIds::Whole;
        let esc = Escaping::default();
        assert_eq!(
            idval(&PyValue::Tuple(vec![]), "v", 3, &whole, &esc).unwrap(),
            "v3"
        );
        assert_eq!(
            idval(&PyValue::Int(-1_000_000), "v", 0, &whole, &esc).unwrap(),
            "-1000000"
        );
        assert_eq!(
            idval(&PyValue::Str("a".repeat(100)), "v", 0, &whole, &esc).unwrap(),
            "a".repeat(100)
        );
        // pytest 9.0 (the version shipped and pinned) prints long strings in full.
        assert_eq!(
            idval(&PyValue::Str("a".repeat(101)), "v", 7, &whole, &esc).unwrap(),
            "a".repeat(101)
        );
        assert!(idval(&PyValue::Unknown("why".into()), "v", 0, &whole, &esc).is_err());
        assert!(explicit_id(&PyValue::Tuple(vec![]), &esc).is_err());
        assert_eq!(explicit_id(&PyValue::Float(1.5), &esc).unwrap(), "1.5");
    }

    #[test]
    fn pytest_9_2_names_long_strings_by_argname_and_index() {
        let v92 = PytestVersion::parse("9.2.0").unwrap();
        let v91 = PytestVersion::parse("9.1").unwrap();
        assert_eq!(LongStrIds::of(v91, Some("short")), LongStrIds::Whole);
        let esc = Escaping::default();
        let short = LongStrIds::of(v92, None);
        assert_eq!(short, LongStrIds::ArgnameIndex);
        let long = PyValue::Str("a".repeat(101));
        assert_eq!(idval(&long, "v", 7, &short, &esc).unwrap(), "v7");
        // Exactly 100 characters is not long; bytes count bytes.
        let edge = PyValue::Str("é".repeat(100));
        assert_eq!(
            idval(&edge, "v", 0, &short, &esc).unwrap(),
            "\\xe9".repeat(100)
        );
        let legacy = LongStrIds::of(v92, Some("legacy"));
        assert_eq!(
            idval(&long, "v", 7, &legacy, &esc).unwrap(),
            "a".repeat(101)
        );
        assert!(idval(&long, "v", 7, &LongStrIds::of(v92, Some("sha256")), &esc).is_err());
        assert!(idval(
            &PyValue::Str("a".into()),
            "v",
            0,
            &LongStrIds::of(v92, Some("sha256")),
            &esc
        )
        .is_ok());
        assert!(PytestVersion::parse("8.4").is_err());
        assert!(PytestVersion::parse("9.3").is_err());
        assert!(PytestVersion::parse("nine").is_err());
    }

    #[test]
    fn the_no_escaping_key_leaves_strings_as_they_are() {
        assert_eq!(EscapeMode::of(None), EscapeMode::Escaped);
        assert_eq!(EscapeMode::of(Some(" True ")), EscapeMode::Raw);
        assert_eq!(EscapeMode::of(Some("on")), EscapeMode::Raw);
        assert_eq!(EscapeMode::of(Some("0")), EscapeMode::Escaped);
        assert_eq!(
            EscapeMode::of(Some("maybe")),
            EscapeMode::Invalid("maybe".into())
        );
        let long = LongStrIds::Whole;
        let raw = Escaping::new(EscapeMode::Raw);
        let s = PyValue::Str("é\n\t\\".into());
        assert_eq!(idval(&s, "v", 0, &long, &raw).unwrap(), "é\n\t\\");
        // A pattern's id is escaped whatever the key says.
        let p = PyValue::Pattern("é".into());
        assert_eq!(idval(&p, "v", 0, &long, &raw).unwrap(), "\\xe9");
        assert_eq!(raw.refused(), None);
        // Bytes stay bytes: pytest fails the file.
        assert!(idval(&PyValue::Bytes(b"a".to_vec()), "v", 0, &long, &raw).is_err());
        assert!(raw.refused().unwrap().contains("TypeError"));
        // An invalid value fails at the first string, not before.
        let bad = Escaping::new(EscapeMode::of(Some("maybe")));
        assert_eq!(idval(&PyValue::Int(1), "v", 0, &long, &bad).unwrap(), "1");
        assert_eq!(bad.refused(), None);
        assert!(explicit_id(&PyValue::Str("x".into()), &bad).is_err());
        assert!(bad.refused().unwrap().contains("invalid truth value"));
        // A duplicate ending in a non-ASCII digit: `isdigit` is Unicode's.
        let mut ids = shown(&["x²", "x²"]);
        assert!(make_unique(&mut ids).is_err());
        let mut ids = shown(&["é", "é"]);
        make_unique(&mut ids).unwrap();
        assert_eq!(ids, shown(&["é0", "é1"]));
    }
}
