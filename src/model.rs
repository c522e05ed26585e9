//! The extractor's output: the extraction contract's JSON form (`version: 2`).
//!
//! Field names and meanings are the contract's (`docs/contract.md`); with the `schema` feature the types
//! also derive the JSON Schema committed as `docs/contract.schema.json`. Everything here is plain data
//! so the same types serialise for the CLI, the page and the bench loop.

use crate::sort::SharedSort as _;
use serde::{Deserialize, Serialize};

use crate::shape::Shape;

/// The contract's version number, bumped only when a field is renamed or removed.
pub const CONTRACT_VERSION: u32 = 2;

/// Which of the write-up's extractors to run. Only [`Stage::Full`] is held to the contract's
/// guarantee; the earlier stages reproduce the write-up's bugs on purpose, for teaching.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "kebab-case")]
pub enum Stage {
    /// Every `assert` in the file taken verbatim, helper asserts included: the loop before any fix.
    AsWritten,
    /// The write-up's first three fixes: inline locals, forget a name on `name.method(...)`, drop
    /// assertions with unresolved names (builtins, loader names and test-file imports trusted).
    SixShapes,
    /// As [`Stage::SixShapes`], but test-file imports are no longer trusted.
    SevenShapes,
    /// This project's extractor: faithful inlining and folding, parametrize, fixtures, constants.
    #[default]
    Full,
}

impl Stage {
    pub const ALL: [Stage; 4] = [
        Stage::AsWritten,
        Stage::SixShapes,
        Stage::SevenShapes,
        Stage::Full,
    ];

    /// The stable id used on the command line, in JSON and in permalinks.
    pub fn id(self) -> &'static str {
        match self {
            Stage::AsWritten => "as-written",
            Stage::SixShapes => "six-shapes",
            Stage::SevenShapes => "seven-shapes",
            Stage::Full => "full",
        }
    }

    pub fn from_id(id: &str) -> Option<Stage> {
        Stage::ALL.into_iter().find(|s| s.id() == id)
    }

    /// A short human label.
    pub fn label(self) -> &'static str {
        match self {
            Stage::AsWritten => "as written (no fix)",
            Stage::SixShapes => "after the six-shape fix",
            Stage::SevenShapes => "after the seventh-shape fix",
            Stage::Full => "bench-explorer (faithful)",
        }
    }
}

/// pytest's logging plugin (`catching_logs`), where the configuration or the conftests make it
/// differ from its defaults. Whatever is configured, pytest adds two capture handlers to the root
/// logger around each test, which format every record that reaches them with pytest's formatter
/// (`format`, else `DEFAULT_LOG_FORMAT`) and raise where formatting fails
/// (`LogCaptureHandler.handleError`): the evaluator does the same, at `capture_level` (0 without
/// this object).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Logging {
    /// The root logger's level becomes the lower of its own and this one while the test file is
    /// imported and around every check, and is restored afterwards (none: a level is not set).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub root_level: Option<i64>,
    /// The capture handlers' level (`log_level`, else 0).
    #[serde(default)]
    pub capture_level: i64,
    /// `log_format`, when set: the capture handlers' format.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub format: Option<String>,
    /// `log_date_format`, when set: the capture handlers' date format.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub date_format: Option<String>,
    /// `log_auto_indent`, when set, as written: how the capture handlers indent a message's
    /// later lines.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub auto_indent: Option<String>,
    /// A `conftest.py` imports the solution, which pytest does before its session starts: the
    /// evaluator loads the solution without pytest's session handlers on the root logger and
    /// without lowering its level (a `logging.basicConfig` there configures the root logger).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub before_session: bool,
}

/// One extraction of one pytest file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Extraction {
    pub version: u32,
    pub file: String,
    pub slug: String,
    pub stage: Stage,
    /// The solution names the tests reach (after rewriting aliases), sorted.
    pub solution_names: Vec<String>,
    /// The namespace a kept expression is evaluated in: what the evaluator binds, in order, in a
    /// fresh namespace whose builtins are the real ones (see [`Binding`]).
    pub bindings: Vec<Binding>,
    /// pytest's warning filters from the configuration (`filterwarnings` lines, then `-W` options
    /// of `addopts`), in the order pytest applies them, when one of them (or a kept check's
    /// `filterwarnings` mark) turns a warning into an error: the evaluator applies them, after
    /// pytest's own, while it loads the solution and around every check (see `WarningFilter`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub warning_filters: Vec<WarningFilter>,
    /// What pytest's logging plugin does around the tests when the configuration sets a log level
    /// (see [`Logging`]); absent, its defaults.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub logging: Option<Logging>,
    pub assertions: Vec<Assertion>,
    pub findings: Vec<Finding>,
    pub syntax_errors: Vec<SyntaxError>,
}

impl Extraction {
    pub fn kept(&self) -> impl Iterator<Item = &Assertion> {
        self.assertions.iter().filter(|a| a.status == Status::Kept)
    }

    pub fn dropped(&self) -> impl Iterator<Item = &Assertion> {
        self.assertions
            .iter()
            .filter(|a| a.status == Status::Dropped)
    }

    /// Checks pytest may make that are no entry: the sum of the findings' `unseen`.
    pub fn unseen(&self) -> u32 {
        self.findings.iter().map(|f| f.unseen).sum()
    }

    /// Whether an author's CI gate should fail: anything dropped, found, or a syntax error.
    pub fn is_clean(&self) -> bool {
        self.dropped().next().is_none() && self.findings.is_empty() && self.syntax_errors.is_empty()
    }

    /// Every shape seen in this file: on assertions and in findings, sorted and unique.
    pub fn shapes(&self) -> Vec<Shape> {
        let mut shapes: Vec<Shape> = self
            .assertions
            .iter()
            .flat_map(|a| a.shapes.iter().copied())
            .chain(self.findings.iter().map(|f| f.shape))
            .collect();
        shapes.sort_shared();
        shapes.dedup();
        shapes
    }
}

/// One step of building the namespace a kept expression is evaluated in (contract version 2).
///
/// The evaluator loads the solution fresh, starts from an empty namespace whose `__builtins__` are
/// the interpreter's own `builtins` module, and applies the bindings in order, as the test file's
/// imports did when pytest imported it: so every name of a kept expression means what it meant in
/// the test file, whatever the solution defines. A binding that fails (a missing name) fails every
/// check of the file, as pytest then fails to collect it.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum Binding {
    /// `name` is the solution module itself (what `import solution` or `_load_solution()` gives):
    /// `name.X` in an expression reads the module's `X` when it runs.
    Module { name: String, module: String },
    /// `from module import attr as name`: `name` is the object the solution's `attr` holds once
    /// it is loaded (a snapshot, as the import takes it).
    Attr {
        name: String,
        module: String,
        attr: String,
    },
    /// `from module import *`: the solution's `__all__`, or its names without a leading
    /// underscore. The star import must not replace `__import__` or `__builtins__`, nor any name
    /// in `keep` (a module the file imported before it) with another object: the evaluator then
    /// fails every check, saying so (pytest would run the tests with the candidate's object, which
    /// no expression reproduces).
    Star {
        module: String,
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        keep: Vec<Kept>,
    },
    /// pytest, which the test file imports (`import pytest`, `from pytest import approx`): `import
    /// module as name`, or `from module import attr as name` with `attr`; `import a.b` (name `a`)
    /// binds the package `a`. An import that fails fails every check of the file, as pytest then
    /// fails to collect it.
    Import {
        name: String,
        module: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        attr: Option<String>,
    },
    /// Module-level code of the test file that pytest runs after the solution's import (a conftest
    /// imported it first) and before a later binding, whose snapshot that code may change
    /// (`enum.StrEnum = enum.Enum` under a version guard, then `from click import Option`): the
    /// evaluator evaluates `expr` in the namespace at this point, once, as pytest ran the statement
    /// once, at import. `line` is the statement's line in the test file. The expression reads only
    /// the standard library (spelled `__import__("m")`), builtins and literals, and binds no name.
    Eval { expr: String, line: u32 },
    /// `name` is the string `value`: the test module's own `__name__`, which code a check creates
    /// (a lambda it hands to the solution) records as its `__module__`.
    Value { name: String, value: String },
    /// The namespace is the solution module's own globals (version 1's namespace, builtins
    /// included as the solution sees them). Only the write-up's stages use it, to reproduce the
    /// loop they describe; it is then the only binding.
    Globals { module: String },
}

/// `Binding`'s JSON read through one flat object (the tag and every variant's fields): serde's
/// derive for an internally tagged enum buffers the object into its generic `Content` first, a
/// reader about 20 KB of the page's wasm larger. Fields another kind has are ignored, as unknown
/// fields are; a field the kind needs and the object lacks is an error, as it was.
impl<'de> Deserialize<'de> for Binding {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        #[derive(Deserialize)]
        #[serde(rename_all = "kebab-case")]
        enum Kind {
            Module,
            Attr,
            Star,
            Import,
            Eval,
            Value,
            Globals,
        }
        #[derive(Deserialize)]
        struct Flat {
            kind: Kind,
            name: Option<String>,
            module: Option<String>,
            attr: Option<String>,
            #[serde(default)]
            keep: Vec<Kept>,
            expr: Option<String>,
            line: Option<u32>,
            value: Option<String>,
        }
        fn need<T, E: serde::de::Error>(field: Option<T>, name: &'static str) -> Result<T, E> {
            field.ok_or_else(|| E::missing_field(name))
        }
        let f = Flat::deserialize(deserializer)?;
        Ok(match f.kind {
            Kind::Module => Binding::Module {
                name: need(f.name, "name")?,
                module: need(f.module, "module")?,
            },
            Kind::Attr => Binding::Attr {
                name: need(f.name, "name")?,
                module: need(f.module, "module")?,
                attr: need(f.attr, "attr")?,
            },
            Kind::Star => Binding::Star {
                module: need(f.module, "module")?,
                keep: f.keep,
            },
            Kind::Import => Binding::Import {
                name: need(f.name, "name")?,
                module: need(f.module, "module")?,
                attr: f.attr,
            },
            Kind::Eval => Binding::Eval {
                expr: need(f.expr, "expr")?,
                line: need(f.line, "line")?,
            },
            Kind::Value => Binding::Value {
                name: need(f.name, "name")?,
                value: need(f.value, "value")?,
            },
            Kind::Globals => Binding::Globals {
                module: need(f.module, "module")?,
            },
        })
    }
}

/// One warning filter, as pytest parsed it (`parse_warning_filter`), for
/// `warnings.filterwarnings(action, message, category, module, lineno)`.
///
/// Around each check the evaluator does what pytest 9.0 does around each test
/// (`catch_warnings_for_item`): in a `warnings.catch_warnings(record=True)`, it applies
/// `always::DeprecationWarning` and `always::PendingDeprecationWarning` (unless the interpreter has
/// `-W` options), `error::pytest.PytestRemovedIn9Warning`, the extraction's `warning_filters` and then
/// the check's own, each in front of the last; an unraisable exception (`sys.unraisablehook`) or an
/// exception in a thread (`threading.excepthook`) while the check runs is then warned as pytest
/// warns it (`pytest.PytestUnraisableExceptionWarning`, `pytest.PytestUnhandledThreadExceptionWarning`),
/// under the same filters, so an `error` filter fails the check as it fails the test.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct WarningFilter {
    /// `error`, `ignore`, `always`, `all`, `default`, `module` or `once`.
    pub action: String,
    /// A regular expression the start of the warning's message must match, ignoring case; empty
    /// for any.
    pub message: String,
    /// The category's dotted name, resolved as pytest does (`DeprecationWarning` from builtins,
    /// `pytest.PytestUnraisableExceptionWarning` imported); empty for `Warning`.
    pub category: String,
    /// A regular expression the module name must match; empty for any.
    pub module: String,
    /// The line number, 0 for any.
    pub lineno: u32,
}

/// A name the test file bound to a module before `from solution import *`, which the star import
/// must leave as it was: `import module as name` (`import a.b` binds `a`), or `from module import
/// attr as name`.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Kept {
    pub name: String,
    pub module: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub attr: Option<String>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "kebab-case")]
pub enum Status {
    Kept,
    Dropped,
}

/// One `assert` of one test (one parametrized case of it).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Assertion {
    /// The pytest node id without the file part: `test_sum`, `TestCache::test_evicts`, `test_sum[1-2]`.
    pub test: String,
    pub line: u32,
    pub column: u32,
    /// The `assert` statement as written (its first line when it spans several).
    pub source: String,
    pub status: Status,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub expr: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// Dropped assertions only: the rule of the catalogue that fired (`bench-explorer rule CODE`
    /// prints its page; `docs/rules.md` lists them all).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rule: Option<RuleRef>,
    /// The names left unresolved (dropped assertions only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub unresolved: Option<Vec<String>>,
    pub shapes: Vec<Shape>,
    /// Where the assert statement is in the file, as byte offsets `[start, end)`.
    pub span: Span,
    /// The other source lines this assertion was built from or is affected by: inlined assignments,
    /// folded setup, parametrize cases, fixtures, constants, and (when dropped) the line that changed a
    /// name. The page highlights these.
    pub origins: Vec<Origin>,
    /// Kept checks only: the filters of the test's `filterwarnings` marks, in the order pytest
    /// applies them, when the file's or these turn a warning into an error; the evaluator applies
    /// them after the extraction's `warning_filters`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub warning_filters: Vec<WarningFilter>,
}

/// A byte range of the source file with its 1-based line numbers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Span {
    pub start: u32,
    pub end: u32,
    pub line: u32,
    pub end_line: u32,
}

/// A piece of source that feeds an assertion.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Origin {
    pub role: OriginRole,
    pub span: Span,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "kebab-case")]
pub enum OriginRole {
    /// An assignment whose value was inlined.
    Inlined,
    /// A statement folded into the assertion in order (stateful setup, earlier asserts).
    Folded,
    /// A parametrize case that supplied values.
    Parameter,
    /// A same-file fixture whose value was inlined.
    Fixture,
    /// A module-level constant whose value was inlined.
    Constant,
    /// The statement that made the assertion impossible to flatten.
    Blocker,
}

/// A file-level observation, tied to one shape and one line: a warning shown to the user.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Finding {
    pub shape: Shape,
    /// The rule of the catalogue this finding is (`bench-explorer rule CODE`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rule: Option<RuleRef>,
    pub line: u32,
    pub message: String,
    /// How many checks pytest may make that this finding stands for and that are no entry (an
    /// assert in a helper something calls, a test whose ids are unknown); absent when none.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub unseen: u32,
}

/// A rule of the catalogue, as the contract names it: its stable code (`M101`) and kebab-case name.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct RuleRef {
    pub code: String,
    pub name: String,
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

/// A syntax error; what parses around it is still extracted.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct SyntaxError {
    pub line: u32,
    pub column: u32,
    pub message: String,
    /// Byte offsets `[start, end)` of the offending text.
    pub start: u32,
    pub end: u32,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bindings_read_back_what_they_write() {
        let all = vec![
            Binding::Module {
                name: "s".into(),
                module: "solution".into(),
            },
            Binding::Attr {
                name: "f".into(),
                module: "solution".into(),
                attr: "g".into(),
            },
            Binding::Star {
                module: "solution".into(),
                keep: vec![Kept {
                    name: "os".into(),
                    module: "os".into(),
                    attr: None,
                }],
            },
            Binding::Star {
                module: "solution".into(),
                keep: Vec::new(),
            },
            Binding::Import {
                name: "pytest".into(),
                module: "pytest".into(),
                attr: Some("approx".into()),
            },
            Binding::Import {
                name: "pytest".into(),
                module: "pytest".into(),
                attr: None,
            },
            Binding::Eval {
                expr: "None".into(),
                line: 3,
            },
            Binding::Value {
                name: "__name__".into(),
                value: "test_x".into(),
            },
            Binding::Globals {
                module: "solution".into(),
            },
        ];
        let json = serde_json::to_string(&all).unwrap();
        assert_eq!(serde_json::from_str::<Vec<Binding>>(&json).unwrap(), all);
        // The tag may come anywhere; what another kind has is ignored; a missing field is an error.
        let b: Binding =
            serde_json::from_str(r#"{"name":"x","module":"m","kind":"module","line":1}"#).unwrap();
        assert_eq!(
            b,
            Binding::Module {
                name: "x".into(),
                module: "m".into()
            }
        );
        let e = serde_json::from_str::<Binding>(r#"{"kind":"attr","name":"x","module":"m"}"#)
            .unwrap_err();
        assert!(e.to_string().contains("missing field `attr`"), "{e}");
        assert!(serde_json::from_str::<Binding>(r#"{"kind":"other"}"#).is_err());
        assert!(serde_json::from_str::<Binding>(r#"{"name":"x"}"#).is_err());
    }
}
