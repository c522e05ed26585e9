//! Configuration: pytest's configuration: ini options, `addopts`, warning filters, plugins and conftest hooks that change how every test runs.

declare_rules! {
    family Config, prefix "P", title "Configuration",
    summary "pytest's configuration: ini options, `addopts`, warning filters, plugins and conftest hooks that change how every test runs.";

    /// ## What it means
    /// pytest's configuration sets `strict = true`, which makes pytest strict in several ways at once.
    ///
    /// ## Why it cannot be kept
    /// In pytest 9 `strict` turns on strict configuration, strict markers, strict parametrize ids and
    /// strict xfail: an unregistered ini key or mark, or a duplicate parametrize id, makes pytest refuse
    /// the run or the file, and an `xfail` test that passes fails. Which of these applies depends on
    /// what pytest sees beyond the file, so no test's outcome can be taken from its assertions alone.
    ///
    /// ## Example
    /// ```python
    /// from solution import add
    ///
    /// def test_add():
    ///     assert add(2, 3) == 5
    /// ```
    ///
    /// ```ini
    /// [pytest]
    /// strict = true
    /// ```
    ///
    /// ## How to write it so it can be checked
    /// Drop `strict` from the configuration, or turn on only `strict_markers` (which the extractor
    /// follows) and register every mark the tests use.
    "001" StrictMode "strict-mode",

    /// ## What it means
    /// pytest's configuration lists `required_plugins`, without which pytest refuses to run.
    ///
    /// ## Why it cannot be kept
    /// pytest checks the installed plugins before it collects anything and stops with a usage error
    /// when one is missing; whether it is installed is not in the files the extractor reads, and a
    /// required plugin may change every test.
    ///
    /// ## Example
    /// ```python
    /// from solution import add
    ///
    /// def test_add():
    ///     assert add(2, 3) == 5
    /// ```
    ///
    /// ```ini
    /// [pytest]
    /// required_plugins = pytest-timeout
    /// ```
    ///
    /// ## How to write it so it can be checked
    /// Remove `required_plugins`; install what the tests need outside the test configuration.
    "002" RequiredPlugins "required-plugins",

    /// ## What it means
    /// pytest's configuration passes an option in `addopts` that the extractor does not know to be
    /// harmless: it may select, stop or change the tests.
    ///
    /// ## Why it cannot be kept
    /// `addopts` is added to every pytest command line. An option such as `-x`, `-k`, `-p plugin`,
    /// `--lf` or `-p no:warnings` changes which tests run or how their outcome is decided, which an
    /// assertion evaluated on its own does not reproduce.
    ///
    /// ## Example
    /// ```python
    /// from solution import add
    ///
    /// def test_add():
    ///     assert add(2, 3) == 5
    /// ```
    ///
    /// ```ini
    /// [pytest]
    /// addopts = -x
    /// ```
    ///
    /// ## How to write it so it can be checked
    /// Keep in `addopts` only options that report or format (`-v`, `-q`, `-ra`, `--tb=short`), warning
    /// filters (`-W`), `-m` and `--strict-markers`.
    "003" AddoptsChangesEveryTest "addopts-changes-every-test",

    /// ## What it means
    /// pytest's configuration is strict (`--strict-config`, `strict_config = true`) and may hold an option
    /// pytest itself does not register.
    ///
    /// ## Why it cannot be kept
    /// Under strict configuration pytest refuses to run when an ini key is registered by no plugin
    /// (`_warn_or_fail_if_strict`); a key of a third-party plugin is registered only when that plugin is
    /// installed, and disabling a default plugin with `-p no:` unregisters its keys. The files alone do
    /// not tell whether the run starts.
    ///
    /// ## Example
    /// ```python
    /// from solution import add
    ///
    /// def test_add():
    ///     assert add(2, 3) == 5
    /// ```
    ///
    /// ```ini
    /// [pytest]
    /// strict_config = true
    /// timeout = 5
    /// ```
    ///
    /// ## How to write it so it can be checked
    /// Drop `strict_config`, or keep only keys pytest registers itself.
    "004" StrictConfigMayRefuse "strict-config-may-refuse",

    /// ## What it means
    /// pytest's configuration sets `usefixtures`, which runs fixtures before every test.
    ///
    /// ## Why it cannot be kept
    /// Those fixtures run code before each test (and after it) that may change what the assertions
    /// read; the extractor does not replay them.
    ///
    /// ## Example
    /// ```python
    /// from solution import add
    ///
    /// def test_add():
    ///     assert add(2, 3) == 5
    /// ```
    ///
    /// ```ini
    /// [pytest]
    /// usefixtures = reset_state
    /// ```
    ///
    /// ## How to write it so it can be checked
    /// Request the fixture in the tests that need it, or do the setup in the test.
    "005" IniUsefixtures "ini-usefixtures",

    /// ## What it means
    /// pytest's configuration changes what is collected: `python_functions`, `python_classes` or
    /// `python_files` other than the defaults, or an `empty_parameter_set_mark` other than `skip`.
    ///
    /// ## Why it cannot be kept
    /// The extractor collects tests as pytest does by default: with other patterns pytest runs other
    /// functions as tests (or none), and with `empty_parameter_set_mark = xfail` or `fail_at_collect` a
    /// test with no cases is xfailed or fails the file instead of being skipped.
    ///
    /// ## Example
    /// ```python
    /// from solution import add
    ///
    /// def test_add():
    ///     assert add(2, 3) == 5
    /// ```
    ///
    /// ```ini
    /// [pytest]
    /// python_functions = check_*
    /// ```
    ///
    /// ## How to write it so it can be checked
    /// Keep pytest's default collection: name tests `test_*` in `test_*.py` files.
    "006" IniChangesCollection "ini-changes-collection",

    /// ## What it means
    /// A warning filter (`filterwarnings`, `-W`, a `filterwarnings` mark) that pytest refuses: more than
    /// five fields, an unknown action, or a line number that is not a number.
    ///
    /// ## Why it cannot be kept
    /// pytest parses every filter before it runs a test (`parse_warning_filter`) and stops with a usage
    /// error on one it cannot parse: no test runs.
    ///
    /// ## Example
    /// ```python
    /// from solution import add
    ///
    /// def test_add():
    ///     assert add(2, 3) == 5
    /// ```
    ///
    /// ```ini
    /// [pytest]
    /// filterwarnings =
    ///     explode::DeprecationWarning
    /// ```
    ///
    /// ## How to write it so it can be checked
    /// Write the filter as `action:message:category:module:lineno` with one of `default`, `always`,
    /// `ignore`, `module`, `once`, `error`.
    "007" WarningFilterRefused "warning-filter-refused",

    /// ## What it means
    /// A warning filter names its category in a way the extractor cannot spell as a Python name.
    ///
    /// ## Why it cannot be kept
    /// pytest resolves the category by its dotted name (a builtin, or an attribute of an imported module),
    /// and stops with a usage error when it cannot; the evaluator must name the same class to apply the
    /// filter around the check, and cannot spell this one.
    ///
    /// ## Example
    /// ```python
    /// from solution import add
    ///
    /// def test_add():
    ///     assert add(2, 3) == 5
    /// ```
    ///
    /// ```ini
    /// [pytest]
    /// filterwarnings =
    ///     error::Deprecation-Warning
    /// ```
    ///
    /// ## How to write it so it can be checked
    /// Name the category by its plain dotted name (`DeprecationWarning`, `package.module.MyWarning`).
    "008" WarningFilterCategoryUnreadable "warning-filter-category-unreadable",

    /// ## What it means
    /// A warning filter that may decide before an `error` filter singles out a line number.
    ///
    /// ## Why it cannot be kept
    /// pytest attributes a warning to a line of the frame its `stacklevel` reaches, in the test's file;
    /// an evaluated expression keeps no such line, so a warning that fails the test under pytest may not
    /// fail the check, or the other way round.
    ///
    /// ## Example
    /// ```python
    /// from solution import add
    ///
    /// def test_add():
    ///     assert add(2, 3) == 5
    /// ```
    ///
    /// ```ini
    /// [pytest]
    /// filterwarnings =
    ///     error
    ///     ignore::DeprecationWarning::12
    /// ```
    ///
    /// ## How to write it so it can be checked
    /// Filter by category and message, not by line.
    "009" WarningFilterByLine "warning-filter-by-line",

    /// ## What it means
    /// A warning filter that may decide before an `error` filter picks warnings by a module pattern that
    /// may match the test module or pytest's own frames.
    ///
    /// ## Why it cannot be kept
    /// A warning whose `stacklevel` reaches past the test is attributed under pytest to pytest's frames
    /// or the test module, and to the evaluator's frames when the check runs alone: the filter that
    /// decides may differ.
    ///
    /// ## Example
    /// ```python
    /// from solution import add
    ///
    /// def test_add():
    ///     assert add(2, 3) == 5
    /// ```
    ///
    /// ```ini
    /// [pytest]
    /// filterwarnings =
    ///     error
    ///     ignore:::test_.*
    /// ```
    ///
    /// ## How to write it so it can be checked
    /// Filter by category and message, or by a module of the solution's.
    "010" WarningFilterByModule "warning-filter-by-module",

    /// ## What it means
    /// A warning filter that may decide before an `error` filter names a warning category defined in the
    /// solution module.
    ///
    /// ## Why it cannot be kept
    /// pytest imports the category's module to apply the filter, so it imports the solution while it
    /// configures itself, before the test module; the evaluator imports it at another time, and the
    /// candidate's import-time code runs under other filters.
    ///
    /// ## Example
    /// ```python
    /// from solution import add
    ///
    /// def test_add():
    ///     assert add(2, 3) == 5
    /// ```
    ///
    /// ```ini
    /// [pytest]
    /// filterwarnings =
    ///     error
    ///     ignore::solution.OldApiWarning
    /// ```
    ///
    /// ## How to write it so it can be checked
    /// Filter the solution's warnings with a `filterwarnings` mark on the test, or by message.
    "011" WarningFilterSolutionCategory "warning-filter-solution-category",

    /// ## What it means
    /// Under an `error` warning filter, the test file binds a `Test…` name that may be a class pytest
    /// cannot collect.
    ///
    /// ## Why it cannot be kept
    /// pytest collects every class of the test module whose name starts with `Test`; one with an
    /// `__init__` makes it warn `PytestCollectionWarning` ("cannot collect test class … because it has a
    /// __init__ constructor"), which the `error` filter turns into a collection error of the whole file.
    /// Whether the bound class (imported, or derived from a base the file does not define) has a
    /// constructor is not the file's to tell.
    ///
    /// ## Example
    /// ```python
    /// from solution import add
    ///
    /// def make():
    ///     return object
    ///
    /// TestData = make()
    ///
    /// def test_add():
    ///     assert add(2, 3) == 5
    /// ```
    ///
    /// ```ini
    /// [pytest]
    /// filterwarnings = error
    /// ```
    ///
    /// ## How to write it so it can be checked
    /// Bind it under a name that does not start with `Test` (`Data = make()`), or set `__test__ = False`
    /// on the class.
    "012" TestNamedBindingMayWarn "test-named-binding-may-warn",

    /// ## What it means
    /// Under an `error` warning filter, the test file imports a module whose import may warn.
    ///
    /// ## Why it cannot be kept
    /// A warning while pytest imports the test file is turned into an error by the filter, and pytest
    /// fails to collect the file. Whether a third-party or deprecated module warns when imported depends
    /// on its version, which the file does not tell.
    ///
    /// ## Example
    /// ```python
    /// import numpy
    /// from solution import add
    ///
    /// def test_add():
    ///     assert add(2, 3) == 5
    /// ```
    ///
    /// ```ini
    /// [pytest]
    /// filterwarnings = error
    /// ```
    ///
    /// ## How to write it so it can be checked
    /// Import only the standard library (and the solution) in the test file, or narrow the `error`
    /// filter to the categories the tests check.
    "013" ImportMayWarn "import-may-warn",

    /// ## What it means
    /// Under an `error` warning filter, the file uses `@pytest.yield_fixture`, which is deprecated.
    ///
    /// ## Why it cannot be kept
    /// `pytest.yield_fixture` warns `PytestDeprecationWarning` when the decorator is applied, while
    /// pytest imports the file; the `error` filter turns that into a collection error.
    ///
    /// ## Example
    /// ```python
    /// import pytest
    /// from solution import add
    ///
    /// @pytest.yield_fixture
    /// def two():
    ///     yield 2
    ///
    /// def test_add():
    ///     assert add(2, 3) == 5
    /// ```
    ///
    /// ```ini
    /// [pytest]
    /// filterwarnings = error
    /// ```
    ///
    /// ## How to write it so it can be checked
    /// Use `@pytest.fixture`, which takes generator fixtures too.
    "014" YieldFixtureDeprecated "yield-fixture-deprecated",

    /// ## What it means
    /// A conftest defines a pytest hook (`pytest_runtest_setup`, `pytest_collection_modifyitems`, …).
    ///
    /// ## Why it cannot be kept
    /// pytest calls the hook around the tests: it may skip, reorder, deselect or change any of them, or
    /// run code before each. The extractor does not run hooks.
    ///
    /// ## Example
    /// ```python
    /// from solution import add
    ///
    /// def test_add():
    ///     assert add(2, 3) == 5
    /// ```
    ///
    /// ```python conftest.py
    /// def pytest_runtest_setup(item):
    ///     print("setting up", item.name)
    /// ```
    ///
    /// ## How to write it so it can be checked
    /// Move the setup into the tests or a fixture they request; a `pytest_configure` that only registers
    /// markers with `config.addinivalue_line("markers", …)` is followed.
    "015" ConftestHook "conftest-hook",

    /// ## What it means
    /// A conftest loads plugins with `pytest_plugins`.
    ///
    /// ## Why it cannot be kept
    /// pytest imports each plugin and registers its hooks and fixtures, which may run code around every
    /// test; the extractor does not see the plugins' code.
    ///
    /// ## Example
    /// ```python
    /// from solution import add
    ///
    /// def test_add():
    ///     assert add(2, 3) == 5
    /// ```
    ///
    /// ```python conftest.py
    /// pytest_plugins = ["helpers.plugin"]
    /// ```
    ///
    /// ## How to write it so it can be checked
    /// Write the fixtures the tests need in the conftest itself.
    "016" ConftestPlugins "conftest-plugins",

    /// ## What it means
    /// pytest refuses to start with the configuration: a file it reads does not parse (a stray line
    /// or a duplicate key in an ini file, a TOML syntax error), has a shape pytest rejects (`[pytest]`
    /// in `setup.cfg`, both `[tool.pytest]` and `[tool.pytest.ini_options]`), `addopts` cannot be split
    /// into options, `minversion` is newer than the pytest the checks follow, or a log level is not a
    /// level name.
    ///
    /// ## Why it cannot be kept
    /// pytest stops with a usage error before it collects anything: no test runs, so no check pytest
    /// would make passes. An expression evaluated on its own would pass for a right solution.
    ///
    /// ## Example
    /// ```python
    /// from solution import add
    ///
    /// def test_add():
    ///     assert add(2, 3) == 5
    /// ```
    ///
    /// ```ini
    /// [pytest]
    /// addopts = -q
    /// addopts = -ra
    /// ```
    ///
    /// ## How to write it so it can be checked
    /// Fix the configuration so that pytest starts: one value per key, every line a key, a section
    /// header or an indented continuation, valid TOML, `[tool:pytest]` in `setup.cfg`.
    "017" ConfigRefused "config-refused",

    /// ## What it means
    /// pytest's configuration sets `log_level` below both `log_cli_level` and `log_file_level`.
    ///
    /// ## Why it cannot be kept
    /// pytest lowers the root logger's level while it imports the test file to the lower of the
    /// live-log and log-file levels (each falling back to `log_level`), and around each test further,
    /// to `log_level` (`catching_logs`). The evaluator carries one level (the extraction's `logging`),
    /// which it applies both while it imports the solution and around the check: a solution that
    /// reads a level at import (`logger.isEnabledFor(logging.DEBUG)`) would see the test's level there.
    /// A configuration with one level, or whose levels agree, is kept and carried.
    ///
    /// ## Example
    /// ```python
    /// from solution import add
    ///
    /// def test_add():
    ///     assert add(2, 3) == 5
    /// ```
    ///
    /// ```ini
    /// [pytest]
    /// log_level = DEBUG
    /// log_cli_level = INFO
    /// log_file_level = INFO
    /// ```
    ///
    /// ## How to write it so it can be checked
    /// Set one level (`log_level` alone), or let `log_cli_level` or `log_file_level` fall back to it.
    "018" LogLevelSet "log-level-set",
}
