//! The seven shapes of quiet measurement bug, with stable kebab-case ids.
//!
//! Each variant documents, in the manner of a lint rule, what the shape is, why it breaks a naive
//! extractor, and a minimal example; the contract's JSON Schema (`docs/contract.schema.json`) carries
//! the same text. The page's teaching pages (`crates/web/src/logic/teach.rs`) tell each at length.

use serde::{Deserialize, Serialize};

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "kebab-case")]
pub enum Shape {
    /// ## What it is
    /// A test stores a result in a local variable and asserts on the variable.
    ///
    /// ## Why it matters
    /// Taking the `assert` line alone leaves the variable undefined: the check raises `NameError` and is
    /// recorded as a failure of correct code.
    ///
    /// ## Example
    /// ```python
    /// result = word_ladder("hit", "cog", words)
    /// assert result == 5
    /// ```
    VariableThenAssert,
    /// ## What it is
    /// A test builds an object, changes it through method calls, then asserts on its state.
    ///
    /// ## Why it matters
    /// Substituting the constructor into the assertion gives a fresh object without the calls that
    /// changed it: the check runs against the wrong state.
    ///
    /// ## Example
    /// ```python
    /// c = LRUCache(2); c.put(1, "a")
    /// assert c.get(1) == "a"
    /// ```
    InstanceWithSideEffects,
    /// ## What it is
    /// `@pytest.mark.parametrize` supplies the test's arguments.
    ///
    /// ## Why it matters
    /// Outside pytest nothing binds the parameters, so every assertion on them is unresolved.
    ///
    /// ## Example
    /// ```python
    /// @pytest.mark.parametrize("a, b, expected", [(1, 2, 3)])
    /// def test_add(a, b, expected): assert add(a, b) == expected
    /// ```
    ParametrizedInputs,
    /// ## What it is
    /// The problem's slug is not the name of the function the tests call.
    ///
    /// ## Why it matters
    /// An evaluator that only knows the slug's name cannot resolve the tests' calls.
    ///
    /// ## Example
    /// Slug `dijkstra_shortest_path`, tests calling `shortest_path(...)` and `dijkstra(...)`.
    SlugNameMismatch,
    /// ## What it is
    /// An `assert` outside any test: in a loader helper, a fixture or another helper.
    ///
    /// ## Why it matters
    /// pytest runs it only as part of what calls it. Lifted out of its function it references the
    /// helper's locals and fails: in the loader it checks the harness, not the solution; in a helper
    /// a test calls (`check(candidate)`) it checks the solution with the call's arguments.
    ///
    /// ## Example
    /// `assert spec.loader is not None` inside `_load_solution()`.
    HelperAssertion,
    /// ## What it is
    /// The tests rely on a convention that the problem statement never states.
    ///
    /// ## Why it matters
    /// A literally correct solution is rejected: the bench measures the statement, not the model.
    ///
    /// ## Example
    /// `clean_phone("1-555-123-4567") == "5551234567"` when the statement never says to strip a leading 1.
    HiddenSpecRule,
    /// ## What it is
    /// An assertion (after inlining) references a module the test file imported, such as `random`.
    ///
    /// ## Why it matters
    /// The evaluation namespace is the solution's, not the test file's: the module is undefined there.
    ///
    /// ## Example
    /// `assert count_inversions(random.sample(range(100), 10)) == expected`
    StdlibReference,
}

impl Shape {
    pub const ALL: [Shape; 7] = [
        Shape::VariableThenAssert,
        Shape::InstanceWithSideEffects,
        Shape::ParametrizedInputs,
        Shape::SlugNameMismatch,
        Shape::HelperAssertion,
        Shape::HiddenSpecRule,
        Shape::StdlibReference,
    ];

    /// The stable kebab-case id (the contract's).
    pub fn id(self) -> &'static str {
        match self {
            Shape::VariableThenAssert => "variable-then-assert",
            Shape::InstanceWithSideEffects => "instance-with-side-effects",
            Shape::ParametrizedInputs => "parametrized-inputs",
            Shape::SlugNameMismatch => "slug-name-mismatch",
            Shape::HelperAssertion => "helper-assertion",
            Shape::HiddenSpecRule => "hidden-spec-rule",
            Shape::StdlibReference => "stdlib-reference",
        }
    }

    pub fn from_id(id: &str) -> Option<Shape> {
        Shape::ALL.into_iter().find(|s| s.id() == id)
    }

    /// A short title.
    pub fn title(self) -> &'static str {
        match self {
            Shape::VariableThenAssert => "Variable, then assert",
            Shape::InstanceWithSideEffects => "Instance with side effects",
            Shape::ParametrizedInputs => "Parametrized inputs",
            Shape::SlugNameMismatch => "Slug and function name differ",
            Shape::HelperAssertion => "Helper assertion leaked",
            Shape::HiddenSpecRule => "Hidden rule in the statement",
            Shape::StdlibReference => "Imported module in an assertion",
        }
    }

    /// Where the shape lives: in the extractor, or in the problem statement.
    pub fn layer(self) -> &'static str {
        match self {
            Shape::HiddenSpecRule => "statement",
            _ => "extractor",
        }
    }
}

impl std::fmt::Display for Shape {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.id())
    }
}
