//! What to extract and how, and the slug a test file's path implies.

use crate::model::Stage;

/// What to extract and how.
#[derive(Clone, Debug, Default)]
pub struct Options {
    /// The file's name as reported in the output.
    pub file: String,
    /// The problem's slug; derived from `file` when absent.
    pub slug: Option<String>,
    /// Extra module names whose imports count as the solution (`--solution-module`).
    pub solution_modules: Vec<String>,
    pub stage: Stage,
    /// The `conftest.py` files pytest imports for this file, from the rootdir down.
    pub conftests: Vec<crate::conftest::Conftest>,
    /// The package `__init__.py` files pytest imports before the test module (the test's folder
    /// and each folder above it that holds one, outermost first): their import-time code runs
    /// before every test of the file.
    pub package_inits: Vec<crate::conftest::Conftest>,
    /// pytest's configuration file for this file (`pytest.ini`, `pyproject.toml`, …), when the
    /// caller found one: its options may drop every test or deselect some
    /// (`bench_explorer::pytest_config`). Only with the `pytest-config` feature (a default): the
    /// page, which is never given a configuration file, is built without it and carries no
    /// code that judges one.
    #[cfg(feature = "pytest-config")]
    pub pytest_config: Option<crate::pytest::config::Config>,
    /// The pytest version whose ids the extraction follows (9.0 by default; 9.2 names a long
    /// string by its argname and index).
    pub pytest_version: crate::pytest::ids::PytestVersion,
}

impl Options {
    /// pytest's configuration for this file: `pytest_config`, or none in a build without the
    /// `pytest-config` feature (where the judging code is then unreachable, and left out).
    pub(crate) fn config(&self) -> Option<&crate::pytest::config::Config> {
        #[cfg(feature = "pytest-config")]
        {
            self.pytest_config.as_ref()
        }
        #[cfg(not(feature = "pytest-config"))]
        {
            None
        }
    }

    pub fn new(file: impl Into<String>) -> Self {
        Options {
            file: file.into(),
            ..Options::default()
        }
    }
}

/// The slug a test file's path implies: `test_word_ladder.py` → `word_ladder`; a file named just
/// `test.py` / `tests.py` takes its folder's name.
pub fn slug_from_path(path: &str) -> String {
    let path = path.replace('\\', "/");
    let mut parts = path.rsplit('/');
    let file = parts.next().unwrap_or("");
    let stem = file.strip_suffix(".py").unwrap_or(file);
    let folder = parts.next().unwrap_or("");
    let slug = if let Some(rest) = stem.strip_prefix("test_") {
        rest
    } else if let Some(rest) = stem.strip_suffix("_test") {
        rest
    } else if matches!(stem, "test" | "tests" | "" | "-") && !folder.is_empty() {
        folder
    } else {
        stem
    };
    slug.to_string()
}
