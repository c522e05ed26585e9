"""Python side of bench-explorer's execution layer.

Two views of one solution against one test file:

* ``eval_assertions`` evaluates the extractor's kept assertions the way the bench
  loop does (see docs/contract.md): for each ``expr`` a fresh module is loaded from
  the solution's file (written once, as solution.py) and the expression is
  evaluated in the namespace ``build_namespace`` makes of it and the extraction's
  ``bindings`` (contract version 2: the real builtins, then what the test file
  imported from the solution; version 1, no bindings: the module's own globals).
* ``run_pytest`` runs the real test file under pytest, next to the solution, and
  reports one outcome per test node id.

Plain functions, no Pyodide imports: the module runs under CPython 3.11+ (for
quick local tests) and under Pyodide (in the page's Web Worker). The worker calls
``run_request_json``, which takes and returns JSON text so that no JS/Python
proxies have to be managed across the boundary.

Every captured stream is capped (``OUTPUT_CAP`` characters, then a note), so a
solution that prints in a loop costs time, not unbounded memory.
"""

from __future__ import annotations

import builtins
import contextlib
import functools
import gc
import importlib
import importlib.util
import io
import json
import logging
import os
import re
import reprlib
import shutil
import sys
import tempfile
import time
import threading
import traceback
import types
import warnings

# Characters kept from one captured stream (stdout+stderr of one assertion, or the
# pytest terminal output) before the rest is dropped and counted.
OUTPUT_CAP = 64 * 1024
# Characters kept from the captured output of all assertions of one call together.
EVAL_TOTAL_OUTPUT_CAP = 512 * 1024
# Characters kept from one pytest failure report (longrepr) or one traceback.
MESSAGE_CAP = 4 * 1024

SOLUTION_MODULE = "solution"
SOLUTION_FILENAME = "solution.py"

__all__ = [
    "OUTPUT_CAP",
    "build_namespace",
    "eval_assertions",
    "evaluate_check",
    "evaluate_in",
    "pytest_logging",
    "pytest_warnings",
    "solution_import_logging",
    "release_test_module",
    "run_pytest",
    "run_request",
    "run_request_json",
    "nodeid_name",
]


# --------------------------------------------------------------------------- capture


class CappedText(io.TextIOBase):
    """A text stream that keeps at most ``cap`` characters and counts the rest."""

    def __init__(self, cap: int = OUTPUT_CAP):
        super().__init__()
        self._cap = max(0, cap)
        self._parts: list[str] = []
        self._size = 0
        self.dropped = 0

    # pytest's terminal writer and some user code look at these.
    encoding = "utf-8"
    errors = "strict"

    def writable(self) -> bool:
        return True

    def isatty(self) -> bool:
        return False

    def write(self, s) -> int:
        if not isinstance(s, str):
            raise TypeError(f"write() argument must be str, not {type(s).__name__}")
        n = len(s)
        room = self._cap - self._size
        if room >= n:
            self._parts.append(s)
            self._size += n
        else:
            # Past the cap only a counter moves: a flood costs time, not memory.
            if room > 0:
                self._parts.append(s[:room])
                self._size += room
            self.dropped += n - max(room, 0)
        return n

    @property
    def size(self) -> int:
        return self._size

    def getvalue(self) -> str:
        text = "".join(self._parts)
        if self.dropped:
            if text and not text.endswith("\n"):
                text += "\n"
            text += f"[output truncated: {self.dropped} more characters not shown]\n"
        return text


class _Redirect:
    """Send sys.stdout and sys.stderr to ``sink`` and make stdin empty, then restore."""

    def __init__(self, sink: io.TextIOBase):
        self._sink = sink

    def __enter__(self):
        self._saved = (sys.stdout, sys.stderr, sys.stdin)
        sys.stdout = sys.stderr = self._sink
        sys.stdin = io.StringIO("")  # input() raises EOFError instead of blocking
        return self._sink

    def __exit__(self, *exc):
        sys.stdout, sys.stderr, sys.stdin = self._saved
        return False


def _cap(text: str, limit: int = MESSAGE_CAP) -> str:
    if len(text) <= limit:
        return text
    return text[:limit] + f"\n[truncated: {len(text) - limit} more characters]"


def _error_line(exc: BaseException) -> str:
    """``Type: message``, as the last line of a traceback prints it."""
    lines = traceback.format_exception_only(type(exc), exc)
    return _cap(lines[-1].strip() if lines else type(exc).__name__, 1000)


def _traceback_text(exc: BaseException) -> str:
    """The traceback without this module's own frames."""
    tb = exc.__traceback__
    while tb is not None and (
        tb.tb_frame.f_globals.get("__name__") == __name__
        or tb.tb_frame.f_code.co_filename.startswith("<frozen importlib")
    ):
        tb = tb.tb_next
    return _cap("".join(traceback.format_exception(type(exc), exc, tb)))


_repr = reprlib.Repr()
_repr.maxstring = 200
_repr.maxother = 200
_repr.maxlist = _repr.maxtuple = _repr.maxset = _repr.maxdict = 20


def _safe_repr(value) -> str:
    try:
        return _repr.repr(value)
    except Exception as exc:  # a user __repr__ may raise
        return f"<unrepresentable {type(value).__name__}: {_error_line(exc)}>"


# --------------------------------------------------------------------------- namespace

# The fields each kind of binding has (docs/contract.md, version 2), all strings.
_BINDING_FIELDS = {
    "module": ("name", "module"),
    "attr": ("name", "module", "attr"),
    "star": ("module",),
    "globals": ("module",),
    "import": ("name", "module"),
    "value": ("name", "value"),
    "eval": ("expr",),
}


def _check_bindings(bindings):
    """``bindings`` as given when it is None or a well-formed list; TypeError/ValueError otherwise."""
    if bindings is None:
        return None
    if not isinstance(bindings, list):
        raise TypeError(f"bindings must be a list of {{'kind', ...}} objects or None, got {bindings!r:.200}")
    for binding in bindings:
        kind = binding.get("kind") if isinstance(binding, dict) else None
        if kind not in _BINDING_FIELDS:
            raise ValueError(
                f"each binding must be {{'kind': 'module' | 'attr' | 'star' | 'import' | 'value' | 'eval' | 'globals', ...}}, got {binding!r:.200}"
            )
        for field in _BINDING_FIELDS[kind]:
            if not isinstance(binding.get(field), str):
                raise TypeError(f"a {kind!r} binding needs {field!r}: str, got {binding!r:.200}")
    if len(bindings) > 1 and any(b["kind"] == "globals" for b in bindings):
        raise ValueError("a 'globals' binding must be the only binding")
    return bindings


def _probe_fromlist(module: types.ModuleType, fromlist: tuple) -> None:
    """What ``from M import …`` asks of the module before it takes the names: ``__import__`` looks
    for ``__path__`` and, on a package, for each name (importing a submodule it lacks) — each a read
    a module ``__getattr__`` answers, as it answers the test file's own import."""
    if hasattr(module, "__path__"):
        importlib._bootstrap._handle_fromlist(module, fromlist, importlib._bootstrap._gcd_import)


class StarReplacesError(ImportError):
    """The candidate's ``from M import *`` replaces a name the test relies on (``__import__``,
    ``__builtins__``, or a module the test file imported before it), or exports a name pytest reads
    from the test module (``PYTEST_READS``, a fixture): pytest would run the tests
    with the candidate's object, which no kept expression reproduces, so every check fails with this."""


# Names pytest reads from the test module itself, which a star export makes the candidate's: what
# each one does to every test of the file there.
PYTEST_READS = {
    "pytestmark": "marks every test of the file (a skip, an xfail, a filter)",
    "setup_module": "xunit setup pytest runs before the file's first test",
    "teardown_module": "xunit teardown pytest runs after the file's last test",
    "setUpModule": "xunit setup pytest runs before the file's first test",
    "tearDownModule": "xunit teardown pytest runs after the file's last test",
    "setup_function": "xunit setup pytest runs before each test",
    "teardown_function": "xunit teardown pytest runs after each test",
    "__test__": "tells pytest whether to collect the file at all",
    "__getattr__": "answers every name pytest looks up in the test module",
    "pytest_plugins": "plugins pytest loads for the file",
    "pytest_generate_tests": "a hook pytest calls to parametrize the file's tests",
}


def _pytest_read(name: str, value) -> str | None:
    """Why pytest reads an exported ``name`` from the test module, or None."""
    if name in PYTEST_READS:
        return PYTEST_READS[name]
    if _is_fixture(value):
        return "a fixture, which pytest takes from the test module (it may be autouse, or override the file's)"
    return None


def _is_fixture(value) -> bool:
    """A ``@pytest.fixture`` object: pytest 8.4 and later wrap the function, earlier ones mark it."""
    kind = type(value)
    if kind.__name__ == "FixtureFunctionDefinition" and kind.__module__.startswith("_pytest"):
        return True
    return isinstance(value, types.FunctionType) and "_pytestfixturefunction" in value.__dict__


def _check_star_kept(binding: dict, namespace: dict, exported: tuple = ()) -> None:
    for name in ("__import__", "__builtins__"):
        expected = builtins if name == "__builtins__" else builtins.__import__
        if namespace.get(name, expected) is not expected:
            raise StarReplacesError(
                f"`from {binding['module']} import *` replaces `{name}`: no expression reproduces the test then"
            )
    for kept in binding.get("keep") or []:
        if kept["name"] not in namespace:
            continue
        expected = _imported(kept)
        if namespace[kept["name"]] is not expected:
            raise StarReplacesError(
                f"`from {binding['module']} import *` replaces the test's `{kept['name']}` "
                f"(imported from `{kept['module']}`) with another object: no expression reproduces the test then"
            )
    for name in exported:
        why = _pytest_read(name, namespace.get(name))
        if why is not None:
            raise StarReplacesError(
                f"`from {binding['module']} import *` exports `{name}`, which pytest reads from the test "
                f"module: {why}; no expression reproduces the test then"
            )


def _imported(binding: dict):
    """What the test file's ``import M [as N]`` or ``from M import A [as N]`` binds."""
    name, module, attr = binding["name"], binding["module"], binding.get("attr")
    imported = importlib.import_module(module)
    if attr is None:
        top = module.split(".")[0]
        # `import a.b` binds the package `a`; `import a.b as n` the module `a.b`.
        return sys.modules[top] if name == top and "." in module else imported
    try:
        return getattr(imported, attr)
    except AttributeError:
        try:
            return importlib.import_module(f"{module}.{attr}")
        except ImportError:
            raise ImportError(f"cannot import name {attr!r} from {module!r}", name=module) from None


def release_test_module(namespace) -> None:
    """Take the test module ``build_namespace`` registered for ``namespace`` out of sys.modules."""
    name = namespace.get("__name__") if isinstance(namespace, dict) else None
    if isinstance(name, str) and getattr(sys.modules.get(name), "__dict__", None) is namespace:
        del sys.modules[name]


def build_namespace(module: types.ModuleType, bindings: list[dict] | None = None, *, resolve=None) -> dict:
    """The namespace a kept expression is evaluated in, as the contract (docs/contract.md) says.

    ``module`` is the freshly loaded solution module and ``bindings`` the extraction's ``bindings``.
    Version 2: a fresh ``{"__builtins__": builtins}`` (this interpreter's own ``builtins`` module,
    never the solution's), then each binding in order:

    * ``{"kind": "module", "name": N, "module": M}``: N is the module itself, so ``N.X`` reads the
      module's X when the expression runs;
    * ``{"kind": "attr", "name": N, "module": M, "attr": A}``: ``from M import A as N``, N is what the
      module's A holds now (a snapshot); a module without A raises ``ImportError("cannot import name
      'A' from 'M'")``, so every check of the file errors, as pytest fails to collect it;
    * ``{"kind": "star", "module": M[, "keep": [{"name", "module"[, "attr"]}, ...]]}``: ``from M import
      *``: each name the module's ``__all__`` lists when it has one (even empty; a listed name it lacks
      raises AttributeError, as in CPython), else each of its globals whose name does not start with
      ``_``; it must not replace ``__import__``, ``__builtins__`` or a kept module with another object,
      nor export a name pytest reads from the test module (``pytestmark``, xunit setup and teardown,
      ``__test__``, ``__getattr__``, ``pytest_plugins``, ``pytest_generate_tests``, a fixture)
      (``StarReplacesError``: every check fails, saying so);
    * ``{"kind": "import", "name": N, "module": M[, "attr": A]}``: a module the test file imports that
      is not the solution: ``import M as N`` (``import a.b``, N ``a``: the package ``a``), or ``from M
      import A as N``; an import that fails raises, so every check of the file errors, as pytest
      fails to collect it;
    * ``{"kind": "eval", "expr": E, "line": L}``: module-level code of the test file that pytest ran
      at this point of its import (after the solution's import, before a later binding), written as
      the expression E: evaluated in the namespace, once;
    * ``{"kind": "value", "name": N, "value": V}``: N is the string V. For ``__name__``, the test
      module's name: the namespace is then the ``__dict__`` of a module of that name, registered in
      ``sys.modules`` (unless that name is taken) while the expression runs, as pytest's test module
      is (code that looks its caller's module up by ``__name__`` finds it);
    * ``{"kind": "globals", "module": M}``: version 1's namespace, the module's own ``__dict__``
      (builtins as the solution sees them); used only by the write-up's stages, alone.

    So nothing the solution defines (``sorted``, ``len``, ``__import__``, even ``__builtins__``)
    changes what a name of the expression means. ``bindings=None`` (a version 1 extraction or request,
    without the field) is ``[{"kind": "globals", "module": "solution"}]``: the module's ``__dict__``.

    ``resolve(M)`` gives the module a binding names; by default every M is ``module`` (an evaluator
    with one solution file). An evaluator of a package passes ``importlib.import_module`` or the like.
    """
    bindings = _check_bindings(bindings)
    if resolve is None:
        def resolve(_name):
            return module
    if bindings is None:
        return module.__dict__
    if len(bindings) == 1 and bindings[0]["kind"] == "globals":
        return resolve(bindings[0]["module"]).__dict__
    test_name = next(
        (b["value"] for b in bindings if b["kind"] == "value" and b["name"] == "__name__"), None
    )
    if test_name is None:
        namespace = {"__builtins__": builtins}
    else:
        test_module = types.ModuleType(test_name)
        namespace = test_module.__dict__
        namespace["__builtins__"] = builtins
        sys.modules.setdefault(test_name, test_module)
    for binding in bindings:
        kind = binding["kind"]
        if kind == "value":
            namespace[binding["name"]] = binding["value"]
            continue
        if kind == "import":
            namespace[binding["name"]] = _imported(binding)
            continue
        if kind == "eval":
            # Module-level code of the test file that pytest ran here, between its imports.
            eval(compile(binding["expr"], f"<test module, line {binding.get('line')}>", "eval"), namespace)
            continue
        source = resolve(binding["module"])
        if kind == "module":
            namespace[binding["name"]] = source
        elif kind == "attr":
            _probe_fromlist(source, (binding["attr"],))
            try:
                value = getattr(source, binding["attr"])
            except AttributeError:
                raise ImportError(
                    f"cannot import name {binding['attr']!r} from {binding['module']!r}",
                    name=binding["module"],
                ) from None
            namespace[binding["name"]] = value
        else:  # star
            _probe_fromlist(source, ("*",))
            try:
                names = source.__all__
                listed = True
            except AttributeError:
                names = list(vars(source))
                listed = False
            exported = []
            for name in names:
                if not isinstance(name, str):
                    where = "__all__" if listed else "__dict__"
                    raise TypeError(
                        f"{'Item' if listed else 'Key'} in {binding['module']}.{where} must be str, "
                        f"not {type(name).__name__}"
                    )
                if not listed and name.startswith("_"):
                    continue
                namespace[name] = getattr(source, name)
                exported.append(name)
            _check_star_kept(binding, namespace, tuple(exported))
    return namespace


# --------------------------------------------------------------------------- warnings


def _resolve_category(name: str) -> type:
    """A filter's category, resolved as pytest resolves it (``_resolve_warning_category``)."""
    if not name:
        return Warning
    if "." not in name:
        module, klass = builtins, name
    else:
        module_name, _, klass = name.rpartition(".")
        module = __import__(module_name, None, None, [klass])
    category = getattr(module, klass)
    if not (isinstance(category, type) and issubclass(category, Warning)):
        raise TypeError(f"{name} is not a Warning subclass")
    return category


def _apply_filters(filters) -> None:
    """What pytest 9.0's ``catch_warnings_for_item`` applies, in its order, each in front of the last:
    deprecation warnings shown (without ``-W`` options), its deprecated APIs errors, then ``filters``
    (the configuration's, then the test's marks'). A category that cannot be imported leaves its
    filter out, as pytest's ``apply_warning_filters`` does."""
    if not sys.warnoptions:
        warnings.filterwarnings("always", category=DeprecationWarning)
        warnings.filterwarnings("always", category=PendingDeprecationWarning)
    pytest_module = sys.modules.get("pytest")
    removed = getattr(pytest_module, "PytestRemovedIn9Warning", None)
    if removed is not None:
        warnings.filterwarnings("error", category=removed)
    for f in filters:
        try:
            category = _resolve_category(f.get("category") or "")
        except ImportError:
            continue
        warnings.filterwarnings(
            f.get("action") or "default",
            f.get("message") or "",
            category,
            f.get("module") or "",
            int(f.get("lineno") or 0),
        )


def _pytest_warning(name: str) -> type:
    try:
        import pytest
        return getattr(pytest, name)
    except (ImportError, AttributeError):
        return type(name, (UserWarning,), {})


def _tracemalloc_message(source) -> str:
    try:
        from _pytest.tracemalloc import tracemalloc_message
    except ImportError:
        return ""
    return tracemalloc_message(source)


class _Unraisables:
    """pytest 9.0's unraisable-exception and thread-exception plugins around one check: while
    ``recording``, what ``sys.unraisablehook`` and ``threading.excepthook`` receive is kept, as
    pytest keeps it; otherwise it is dropped (the garbage of an earlier check, which pytest's run
    would not attribute to this test). ``report()`` warns each as pytest does at the end of a test
    phase, under the filters in force: an ``error`` filter makes it raise."""

    def __init__(self):
        self.recording = False
        self.found: list = []

    def _unraisable(self, u) -> None:
        if not self.recording:
            return
        err_msg = "Exception ignored in" if u.err_msg is None else u.err_msg
        summary = f"{err_msg}: {u.object!r}"
        tb = "\n\n" + "".join(traceback.format_exception(u.exc_type, u.exc_value, u.exc_traceback))
        tm = "\n" + _tracemalloc_message(u.object)
        self.found.append(("PytestUnraisableExceptionWarning", "unraisableexception",
                           summary + tb + tm, summary + tm, u.exc_value))

    def _thread(self, args) -> None:
        if not self.recording:
            return
        name = "<unknown>" if args.thread is None else args.thread.name
        summary = f"Exception in thread {name}"
        tb = "\n\n" + "".join(traceback.format_exception(args.exc_type, args.exc_value, args.exc_traceback))
        tm = "\n" + _tracemalloc_message(args.thread)
        self.found.append(("PytestUnhandledThreadExceptionWarning", "threadexception",
                           summary + tb + tm, summary + tm, args.exc_value))

    def __enter__(self):
        self._saved = (sys.unraisablehook, threading.excepthook)
        sys.unraisablehook = self._unraisable
        threading.excepthook = self._thread
        return self

    def __exit__(self, *exc):
        sys.unraisablehook, threading.excepthook = self._saved
        self.recording = False
        self.found.clear()

    def report(self) -> None:
        errors = []
        found, self.found = self.found, []
        for kind, plugin, msg, cause_msg, exc_value in found:
            category = _pytest_warning(kind)
            try:
                # Attributed to pytest's plugin module, as its own warn() call is.
                warnings.warn_explicit(category(msg), None, f"_pytest/{plugin}.py", 0,
                                       module=f"_pytest.{plugin}", registry={})
            except category as e:
                if exc_value is not None:
                    e.args = (cause_msg,)
                    e.__cause__ = exc_value
                errors.append(e)
        if len(errors) == 1:
            raise errors[0]
        if errors:
            raise ExceptionGroup("multiple unraisable exception warnings", errors)


@contextlib.contextmanager
def pytest_warnings(filters=()):
    """``warnings.catch_warnings(record=True)`` with pytest's filters and ``filters`` applied (see
    ``_apply_filters``): what pytest's collection runs in (the configuration's filters) and each
    test (its marks' too). What the code inside changes in the filters goes with the block."""
    with warnings.catch_warnings(record=True):
        _apply_filters(filters)
        yield


# pytest 9.0's `_pytest/logging.py`: the capture handlers' formatter, as `LoggingPlugin` builds it.
DEFAULT_LOG_FORMAT = "%(levelname)-8s %(name)s:%(filename)s:%(lineno)d %(message)s"
DEFAULT_LOG_DATE_FORMAT = "%H:%M:%S"
_LEVELNAME_FMT_REGEX = re.compile(r"%\(levelname\)([+-.]?\d*(?:\.\d+)?s)")
# The levels `ColoredLevelFormatter` writes the name of itself (`LOGLEVEL_COLOROPTS`), and their
# names when pytest configures its plugin: the standard ones, unless a solution a conftest imports
# (before `pytest_configure`) renamed one (`solution_import_logging`).
_COLORED_LEVELS = (logging.CRITICAL, logging.ERROR, logging.WARNING, logging.INFO, logging.DEBUG, logging.NOTSET)
_STANDARD_LEVEL_NAMES = {50: "CRITICAL", 40: "ERROR", 30: "WARNING", 20: "INFO", 10: "DEBUG", 0: "NOTSET"}
_level_names_at_configure = None


def _strtobool(val: str) -> bool:
    val = val.lower()
    if val in ("y", "yes", "t", "true", "on", "1"):
        return True
    if val in ("n", "no", "f", "false", "off", "0"):
        return False
    raise ValueError(f"invalid truth value {val!r}")


class _PercentStyleMultiline(logging.PercentStyle):
    """pytest's ``PercentStyleMultiline`` (``log_auto_indent``)."""

    def __init__(self, fmt, auto_indent):
        super().__init__(fmt)
        self._auto_indent = self._get_auto_indent(auto_indent)

    @staticmethod
    def _get_auto_indent(auto_indent_option) -> int:
        if auto_indent_option is None:
            return 0
        elif isinstance(auto_indent_option, bool):
            return -1 if auto_indent_option else 0
        elif isinstance(auto_indent_option, int):
            return int(auto_indent_option)
        elif isinstance(auto_indent_option, str):
            try:
                return int(auto_indent_option)
            except ValueError:
                pass
            try:
                if _strtobool(auto_indent_option):
                    return -1
            except ValueError:
                return 0
        return 0

    def format(self, record) -> str:
        if "\n" in record.message:
            if hasattr(record, "auto_indent"):
                auto_indent = self._get_auto_indent(record.auto_indent)
            else:
                auto_indent = self._auto_indent
            if auto_indent:
                lines = record.message.splitlines()
                formatted = self._fmt % {**record.__dict__, "message": lines[0]}
                if auto_indent < 0:
                    indentation = re.sub(r"\x1b\[[\d;]+m", "", formatted).find(lines[0])
                else:
                    indentation = auto_indent
                lines[0] = formatted
                return ("\n" + " " * indentation).join(lines)
        return self._fmt % record.__dict__


class _DatetimeFormatter(logging.Formatter):
    """pytest's ``DatetimeFormatter``."""

    def formatTime(self, record, datefmt=None) -> str:
        if datefmt and "%f" in datefmt:
            from datetime import datetime, timedelta, timezone

            ct = self.converter(record.created)
            tz = timezone(timedelta(seconds=ct.tm_gmtoff), ct.tm_zone)
            dt = datetime(*ct[0:6], microsecond=int(record.msecs * 1000), tzinfo=tz)
            return dt.strftime(datefmt)
        return super().formatTime(record, datefmt)


class _ColoredLevelFormatter(_DatetimeFormatter):
    """pytest's ``ColoredLevelFormatter`` (its formatter under the default ``--color=auto``) on a
    terminal without markup: each standard level's name is written into the format, in place of
    ``%(levelname)…s``, as it was named when pytest configured its plugin."""

    def __init__(self, *args, level_names, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self._original_fmt = self._style._fmt
        self._level_to_fmt_mapping = {}
        for level in _COLORED_LEVELS:
            match = _LEVELNAME_FMT_REGEX.search(self._fmt)
            if not match:
                continue
            formatted = match.group() % {"levelname": level_names.get(level, logging.getLevelName(level))}
            self._level_to_fmt_mapping[level] = _LEVELNAME_FMT_REGEX.sub(formatted, self._fmt)

    def format(self, record) -> str:
        fmt = self._level_to_fmt_mapping.get(record.levelno, self._original_fmt)
        self._style._fmt = fmt
        return super().format(record)


def pytest_formatter(spec=None) -> logging.Formatter:
    """The formatter pytest's capture handlers format every record with (``LoggingPlugin.
    _create_formatter``): the extraction's ``logging.format`` (``log_format``), else pytest's
    ``DEFAULT_LOG_FORMAT``, its ``date_format`` and ``auto_indent``; an empty value is pytest's
    ``None`` (``get_option_ini``)."""
    spec = spec or {}
    log_format = (spec["format"] if "format" in spec and spec["format"] is not None else DEFAULT_LOG_FORMAT) or None
    date_format = (spec["date_format"] if spec.get("date_format") is not None else DEFAULT_LOG_DATE_FORMAT) or None
    auto_indent = spec.get("auto_indent") or None
    if _LEVELNAME_FMT_REGEX.search(log_format):  # raises TypeError for None, as pytest's does
        names = _level_names_at_configure or _STANDARD_LEVEL_NAMES
        formatter = _ColoredLevelFormatter(log_format, date_format, level_names=names)
    else:
        formatter = _DatetimeFormatter(log_format, date_format)
    formatter._style = _PercentStyleMultiline(formatter._style._fmt, auto_indent=auto_indent)
    return formatter


class _CaptureHandler(logging.Handler):
    """What pytest's ``LogCaptureHandler`` does to the code under test: it keeps every record that
    reaches it (and what the record holds) until the test is done, formats it with pytest's
    formatter (``pytest_formatter``), and raises where formatting fails (its ``handleError``), which
    fails the test."""

    def __init__(self, level: int = 0, formatter=None):
        super().__init__(level)
        self.records = []
        if formatter is not None:
            self.setFormatter(formatter)

    def emit(self, record):
        self.records.append(record)
        try:
            self.format(record)
        except RecursionError:
            raise
        except Exception:
            self.handleError(record)

    def handleError(self, record):
        if logging.raiseExceptions:
            raise


class _SessionHandler(logging.Handler):
    """pytest's live-log and log-file handlers, on the root logger through the whole session (its
    collection included): they format what reaches them and print, never raise, where that fails
    (the live-log one is a null handler unless `log_cli` is on). That the root logger has handlers
    at all is what the code under test may see: `logging.basicConfig()` then does nothing."""

    def emit(self, record):
        try:
            self.format(record)
        except RecursionError:
            raise
        except Exception:  # noqa: BLE001 - logging's default: print, go on
            pass


@contextlib.contextmanager
def pytest_logging(spec=None, *, capture: bool):
    """pytest's logging plugin (``catching_logs``; docs/contract.md, *Logging*): its two session
    handlers on the root logger, while it imports the test file and around every test; with
    ``capture``, around a test, its two capture handlers too (the ``caplog`` one and the report's),
    at ``spec["capture_level"]`` (0 by default), with pytest's formatter (``pytest_formatter``);
    with a ``spec["root_level"]``, the root logger's level lowered to it and restored afterwards."""
    root = logging.getLogger()
    spec = spec or {}
    handlers = [_SessionHandler(), _SessionHandler()]
    if capture:
        level = int(spec.get("capture_level") or 0)
        formatter = pytest_formatter(spec)  # one for both, as pytest's
        handlers += [_CaptureHandler(level, formatter), _CaptureHandler(level, formatter)]
    for handler in handlers:
        root.addHandler(handler)
    saved = root.level
    if spec.get("root_level") is not None:
        root.setLevel(min(saved, int(spec["root_level"])))
    try:
        yield
    finally:
        if spec.get("root_level") is not None:
            root.setLevel(saved)
        for handler in handlers:
            root.removeHandler(handler)


@contextlib.contextmanager
def solution_import_logging(spec=None):
    """What the solution's first import runs in. pytest imports it while it collects the test file
    (``pytest_logging`` without capture), or, where a conftest imports it
    (``spec["before_session"]``), while it loads the initial conftests: before ``pytest_configure``
    registers its logging plugin, so no handler of pytest's is on the root logger, its level is not
    lowered, and a ``logging.basicConfig`` there configures the root logger. Handlers the evaluator's
    own process put on the root logger are set aside meanwhile; the level names the solution leaves
    are those pytest's formatter then reads."""
    global _level_names_at_configure
    _level_names_at_configure = None
    spec = spec or {}
    if not spec.get("before_session"):
        with pytest_logging(spec, capture=False):
            yield
        return
    root = logging.getLogger()
    own = root.handlers[:]
    root.handlers[:] = []
    try:
        yield
    finally:
        root.handlers[:] = own + [h for h in root.handlers if h not in own]
        _level_names_at_configure = {level: logging.getLevelName(level) for level in _COLORED_LEVELS}


def _has_error(filters) -> bool:
    return any((f.get("action") or "") == "error" for f in filters)


# --------------------------------------------------------------------------- assertions


class _SolutionFinder:
    """Finds the solution module where pytest's would be found (its folder on ``sys.path``): the
    file the evaluator last loaded under that name, so ``importlib.reload(solution)`` (and a later
    ``import`` after ``del sys.modules["solution"]``) runs that file again, as under pytest."""

    paths: dict[str, str] = {}

    @classmethod
    def remember(cls, module: types.ModuleType) -> None:
        spec = getattr(module, "__spec__", None)
        origin = getattr(spec, "origin", None)
        if isinstance(origin, str) and os.path.isfile(origin):
            cls.paths[module.__name__] = origin
            if cls not in sys.meta_path:
                sys.meta_path.append(cls)

    @classmethod
    def find_spec(cls, name, path=None, target=None):
        origin = cls.paths.get(name)
        if origin is None:
            return None
        return importlib.util.spec_from_file_location(name, origin)


def _fresh_solution_module(path: str) -> types.ModuleType:
    """Load a new module from the solution's file, as the contract (docs/contract.md) says.

    ``importlib.util.spec_from_file_location`` / ``module_from_spec`` / ``exec_module``, the way a
    test file's ``_load_solution()`` loads it, so ``__name__`` (``"solution"``), ``__file__`` and
    ``__spec__`` are set; the module is registered as ``sys.modules["solution"]`` while it runs and
    while the expression is evaluated, so code that looks itself up there (dataclasses,
    typing.get_type_hints, pickle) behaves as it would in the bench loop's ``import solution``.
    """
    spec = importlib.util.spec_from_file_location(SOLUTION_MODULE, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[SOLUTION_MODULE] = module
    spec.loader.exec_module(module)
    return module


def eval_assertions(
    solution_source: str,
    assertions: list[dict],
    *,
    output_cap: int = OUTPUT_CAP,
    total_output_cap: int = EVAL_TOTAL_OUTPUT_CAP,
    bindings: list[dict] | None = None,
    warning_filters: list[dict] | None = None,
    logging_spec: dict | None = None,
) -> list[dict]:
    """Evaluate each kept assertion against a fresh solution namespace.

    ``assertions`` is a list of ``{"id": ..., "expr": str[, "warning_filters": [...]]}``; ``bindings``
    the extraction's ``bindings`` (see ``build_namespace``; None, a version 1 extraction: the solution
    module's own globals), ``warning_filters`` its filters (see ``_evaluate_one``) and ``logging_spec``
    its ``logging`` (see ``pytest_logging``). Returns, in the same
    order, ``{"id", "outcome", "error", "phase", "value", "output", "duration_ms"}``:

    * ``outcome`` is ``"pass"`` (truthy), ``"fail"`` (falsy) or ``"error"`` (raised);
    * ``error`` is ``"Type: message"`` for an error, else None, and ``traceback``
      the (capped) traceback;
    * ``phase`` says where an error came from: ``"solution"`` (executing the
      solution source, or taking from it what the bindings import: a name it
      lacks) or ``"assertion"`` (compiling or evaluating the expression, or taking
      its truth value);
    * ``value`` is a short repr of what the expression returned (None on error);
    * ``output`` is what the solution and the expression printed (capped).

    The solution is executed anew for every assertion, so no assertion depends on
    another having run first. KeyboardInterrupt (Pyodide's interrupt buffer) is not
    caught: it ends the whole call.
    """
    if not isinstance(solution_source, str):
        raise TypeError("solution_source must be a str")
    if not isinstance(assertions, list):
        raise TypeError("assertions must be a list of {'id', 'expr'} objects")
    bindings = _check_bindings(bindings)

    # A solution that does not even compile fails every assertion the same way,
    # without running anything.
    solution_error: BaseException | None = None
    try:
        compile(solution_source, SOLUTION_FILENAME, "exec")
    except (SyntaxError, ValueError) as exc:  # ValueError: source with NUL bytes
        solution_error = exc

    # The solution is loaded from a file named solution.py in a directory of its own (the same
    # name pytest's run gives it), written once; bytecode is never written next to it.
    solution_dir = tempfile.mkdtemp(prefix="bench-explorer-eval-")
    solution_path = os.path.join(solution_dir, SOLUTION_FILENAME)
    with open(solution_path, "w", encoding="utf-8") as f:
        f.write(solution_source)
    saved_dont_write = sys.dont_write_bytecode
    sys.dont_write_bytecode = True
    saved_module = sys.modules.get(SOLUTION_MODULE)
    results = []
    output_used = 0
    try:
        for item in assertions:
            if not isinstance(item, dict) or not isinstance(item.get("expr"), str):
                raise TypeError(f"each assertion must be {{'id', 'expr': str}}, got {item!r:.200}")
            result = {
                "id": item.get("id"),
                "outcome": "error",
                "error": None,
                "traceback": None,
                "phase": None,
                "value": None,
                "output": "",
                "duration_ms": 0.0,
            }
            sink = CappedText(min(output_cap, max(0, total_output_cap - output_used)))
            started = time.perf_counter()
            with _Redirect(sink):
                if solution_error is not None:
                    result.update(
                        phase="solution",
                        error=_error_line(solution_error),
                        traceback=_traceback_text(solution_error),
                    )
                else:
                    _evaluate_one(
                        solution_path, item["expr"], bindings, result,
                        list(warning_filters or ()), list(item.get("warning_filters") or ()),
                        logging_spec,
                    )
            result["duration_ms"] = round((time.perf_counter() - started) * 1000, 3)
            output_used += sink.size
            result["output"] = sink.getvalue()
            results.append(result)
    finally:
        sys.dont_write_bytecode = saved_dont_write
        shutil.rmtree(solution_dir, ignore_errors=True)
        if saved_module is None:
            sys.modules.pop(SOLUTION_MODULE, None)
        else:
            sys.modules[SOLUTION_MODULE] = saved_module
    return results


class CheckOutcome:
    """What ``evaluate_check`` found: ``outcome`` ``"pass"``, ``"fail"`` or ``"error"``, ``phase``
    (``"solution"`` or ``"assertion"``), the ``error`` raised, and ``value`` (a short repr)."""

    __slots__ = ("outcome", "phase", "error", "value")

    def __init__(self, outcome, phase, error=None, value=None):
        self.outcome, self.phase, self.error, self.value = outcome, phase, error, value


_IMPORT_SPELLED = re.compile(r"""__import__\(\s*["']([\w.]+)["']""")


def _replayed_modules(expr: str, bindings) -> set[str]:
    """The modules a check's replay may change: those the test file imports (``import`` bindings)
    and those its expressions spell ``__import__("m")`` (its own and its ``eval`` bindings'), with
    the packages above each."""
    names = set(_IMPORT_SPELLED.findall(expr))
    for b in bindings or ():
        if b.get("kind") == "eval":
            names.update(_IMPORT_SPELLED.findall(b.get("expr") or ""))
        elif b.get("kind") == "import" and b.get("module"):
            names.add(b["module"])
    for name in list(names):
        parts = name.split(".")
        names.update(".".join(parts[:i]) for i in range(1, len(parts)))
    names.discard(SOLUTION_MODULE)
    return names


@contextlib.contextmanager
def _modules_restored(names):
    """What a check's replay stores in a module it shares with the next check (``time.time = …``
    run by the test file's module-level code, which pytest ran once, before the solution was
    imported) is undone after the check, so that it reaches neither the next check's fresh import
    of the solution nor the pytest run of the same process. A standard-library module written in
    Python first imported during the check is forgotten instead (the next import makes it anew); an
    extension module or a third-party package is kept as the check left it. Submodules a package
    gained stay."""
    saved = {n: (sys.modules[n], dict(vars(sys.modules[n]))) for n in names
             if n in sys.modules and hasattr(sys.modules[n], "__dict__")}
    try:
        yield
    finally:
        for name, (module, before) in saved.items():
            now = vars(module)
            for key in [k for k in now if k not in before and not isinstance(now[k], types.ModuleType)]:
                del now[key]
            for key, value in before.items():
                if now.get(key, now) is not value:
                    now[key] = value
        for name in names:
            if name not in saved and name in sys.modules and _reimportable(sys.modules[name], name):
                del sys.modules[name]


def _reimportable(module, name: str) -> bool:
    """A standard-library module written in Python: imported again, it is made anew. (An extension
    module, or a third-party package that holds one, may refuse a second import in one process.)"""
    top = name.split(".")[0]
    stdlib = getattr(sys, "stdlib_module_names", ())
    return top in stdlib and str(getattr(module, "__file__", "") or "").endswith(".py")


@contextlib.contextmanager
def _logging_restored():
    """The loggers' state (handlers, filters, level, ``propagate``, ``disabled``, and
    ``logging.disable``'s level) as it was before the check: under pytest the solution's import and
    the test file's module-level code configure logging once, where the evaluator runs them again for
    every check, which would add a handler per check to a logger every check shares."""
    manager = logging.Logger.manager

    def loggers():
        found = [logging.getLogger()]
        found += [lg for lg in list(manager.loggerDict.values()) if isinstance(lg, logging.Logger)]
        return found

    saved = {id(lg): (lg, lg.handlers[:], lg.filters[:], lg.level, lg.propagate, lg.disabled) for lg in loggers()}
    disabled = manager.disable
    try:
        yield
    finally:
        for lg in loggers():
            before = saved.get(id(lg))
            if before is not None and before[0] is lg:
                _, handlers, filters, level, propagate, was_disabled = before
            else:  # created during the check: as `getLogger` made it
                handlers, filters, level, propagate, was_disabled = [], [], logging.NOTSET, True, False
            if lg.handlers != handlers:
                lg.handlers[:] = handlers
            if lg.filters != filters:
                lg.filters[:] = filters
            if lg.level != level:
                lg.setLevel(level)
            lg.propagate, lg.disabled = propagate, was_disabled
        if manager.disable != disabled:
            logging.disable(disabled)


def evaluate_check(
    load,
    expr: str,
    bindings: list[dict] | None,
    *,
    file_filters=(),
    own_filters=(),
    resolve=None,
    logging_spec=None,
) -> CheckOutcome:
    """One kept check, as pytest runs its test (docs/contract.md, *Warnings*).

    ``load()`` loads the solution module afresh. It runs, with ``build_namespace``, under pytest's
    filters and ``file_filters`` (the extraction's ``warning_filters``), as pytest's collection
    imports the test file; what the solution changes in the filters goes with it. The expression
    is then evaluated by ``evaluate_in``. ``logging_spec`` is the extraction's ``logging``: the
    solution is loaded under ``solution_import_logging``, the namespace built under
    ``pytest_logging`` and the expression evaluated under it with capture. KeyboardInterrupt is not caught."""
    with _modules_restored(_replayed_modules(expr, bindings)), _logging_restored():
        return _evaluate_check(load, expr, bindings, file_filters, own_filters, resolve, logging_spec)


def _evaluate_check(load, expr, bindings, file_filters, own_filters, resolve, logging_spec) -> CheckOutcome:
    strict = _has_error(file_filters) or _has_error(own_filters)
    namespace = None
    with _Unraisables():
        try:
            if strict:
                gc.collect()
            with pytest_warnings(file_filters):
                with solution_import_logging(logging_spec):
                    module = load()
                _SolutionFinder.remember(module)
                with pytest_logging(logging_spec, capture=False):
                    namespace = build_namespace(module, bindings, resolve=resolve)
        except KeyboardInterrupt:
            raise
        except BaseException as exc:  # SystemExit from the solution is an error too
            release_test_module(namespace)
            return CheckOutcome("error", "solution", exc)
    try:
        return evaluate_in(namespace, expr, list(file_filters) + list(own_filters), logging_spec)
    finally:
        release_test_module(namespace)


def evaluate_in(namespace: dict, expr: str, filters=(), logging_spec=None) -> CheckOutcome:
    """``eval(expr, namespace)`` and its truth value as pytest runs a test: under pytest's filters and
    ``filters`` (the extraction's, then the check's own), and what reached ``sys.unraisablehook`` or
    ``threading.excepthook`` meanwhile is then warned as pytest warns it at the end of a test, so that
    an ``error`` filter fails the check. Where a filter raises, garbage left from before is collected
    first, so that it is not attributed to this check (pytest's run would attribute it to whichever
    test runs when the collector does). pytest's logging capture is around it (``pytest_logging``)."""
    with _Unraisables() as unraisables:
        try:
            if _has_error(filters):
                gc.collect()
            # The test file was compiled when pytest collected it, under pytest's own filters (a
            # configuration that makes compiling it an error drops the file).
            with pytest_warnings():
                code = compile(expr, "<assertion>", "eval")
            with pytest_warnings(filters), pytest_logging(logging_spec, capture=True):
                unraisables.recording = True
                value = eval(code, namespace)
                truthy = bool(value)  # may raise (e.g. an object whose __bool__ raises)
                shown = _safe_repr(value)
                del value
                unraisables.report()
        except KeyboardInterrupt:
            raise
        except BaseException as exc:
            return CheckOutcome("error", "assertion", exc)
    return CheckOutcome("pass" if truthy else "fail", "assertion", None, shown)


def _evaluate_one(
    solution_path: str,
    expr: str,
    bindings: list[dict] | None,
    result: dict,
    file_filters=(),
    own_filters=(),
    logging_spec=None,
) -> None:
    # Each check starts from the environment the evaluator started with, as each test of a fresh
    # pytest session would: what an earlier check's replay stored in `os.environ` must not reach the
    # next check's fresh import of the solution.
    saved_environ = dict(os.environ)
    try:
        checked = evaluate_check(
            lambda: _fresh_solution_module(solution_path), expr, bindings,
            file_filters=file_filters, own_filters=own_filters, logging_spec=logging_spec,
        )
    finally:
        if dict(os.environ) != saved_environ:
            os.environ.clear()
            os.environ.update(saved_environ)
    if checked.error is not None:
        result.update(phase=checked.phase, error=_error_line(checked.error),
                      traceback=_traceback_text(checked.error))
        return
    result["outcome"] = checked.outcome
    result["value"] = checked.value


# --------------------------------------------------------------------------- pytest

# Every temporary directory a run was made in, so that later runs can drop the
# modules imported from it.
_run_dirs: list[str] = []
# Whether a run forgets, once pytest is done, the modules it imported (the next run starts without
# them anyway). A process that exits after its one run (a fork server's child) skips it.
FORGET_AFTER_RUN = True


def nodeid_name(nodeid: str) -> str:
    """The node id without its file part: ``test_x``, ``TestA::test_b``, ``test_x[1-2]``."""
    return nodeid.split("::", 1)[1] if "::" in nodeid else nodeid


def _is_under(path, dirs) -> bool:
    if not dirs or not isinstance(path, str):
        return False
    path = os.path.abspath(path)
    return any(path == d or path.startswith(d + os.sep) for d in dirs)


def _forget_run_modules(extra_names=()) -> None:
    """Drop from sys.modules/sys.path everything an earlier run brought in."""
    for name in (SOLUTION_MODULE, *extra_names):
        sys.modules.pop(name, None)
    for name, module in list(sys.modules.items()):
        if _is_under(getattr(module, "__file__", None), _run_dirs):
            sys.modules.pop(name, None)
    sys.path[:] = [p for p in sys.path if not _is_under(p, _run_dirs)]
    for key in list(sys.path_importer_cache):
        if _is_under(key, _run_dirs):
            del sys.path_importer_cache[key]
    importlib.invalidate_caches()


def forget_runs() -> None:
    """Forget every earlier run: its modules, its import paths and its directories (a fork server
    calls this once before it forks, so that no child does it again)."""
    _forget_run_modules()
    for old in _run_dirs:
        shutil.rmtree(old, ignore_errors=True)
    _run_dirs.clear()


class _Collector:
    """pytest plugin that records one outcome per test node id."""

    def __init__(self):
        self.tests: dict[str, dict] = {}
        self.collection_errors: list[dict] = []

    def _entry(self, report) -> dict:
        entry = self.tests.get(report.nodeid)
        if entry is None:
            lineno = report.location[1] if report.location else None
            entry = self.tests[report.nodeid] = {
                "nodeid": report.nodeid,
                "name": nodeid_name(report.nodeid),
                "outcome": None,
                "message": "",
                "crash": "",
                "line": lineno + 1 if isinstance(lineno, int) else None,
                "duration": 0.0,
            }
        return entry

    @staticmethod
    def _describe(report) -> tuple[str, str]:
        """(full but capped longrepr text, one-line reason)."""
        longrepr = report.longrepr
        if longrepr is None:
            return "", ""
        if isinstance(longrepr, tuple) and len(longrepr) == 3:  # a skip: (path, line, reason)
            reason = str(longrepr[2])
            return _cap(reason), reason
        crash = getattr(getattr(longrepr, "reprcrash", None), "message", "") or ""
        try:
            text = report.longreprtext
        except Exception:  # noqa: BLE001 - never let reporting break the run
            text = str(longrepr)
        return _cap(text), _cap(crash.strip(), 1000)

    # Hook implementations (pytest finds them by name).

    def pytest_runtest_logreport(self, report):
        entry = self._entry(report)
        entry["duration"] += getattr(report, "duration", 0.0) or 0.0
        wasxfail = hasattr(report, "wasxfail")
        message, crash = self._describe(report)
        if report.when == "call":
            if report.passed:
                outcome = "xpassed" if wasxfail else "passed"
            elif report.failed:
                outcome = "failed"
            else:
                outcome = "xfailed" if wasxfail else "skipped"
            if wasxfail and not message:
                message = crash = str(report.wasxfail)
        elif report.failed:  # setup or teardown failed: pytest calls that an error
            if entry["outcome"] == "failed":
                return  # keep the test's own failure; pytest also reports it as failed
            outcome = "error"
        elif report.skipped and report.when == "setup":
            outcome = "xfailed" if wasxfail else "skipped"
            if wasxfail and not message:
                message = crash = str(report.wasxfail)
        else:
            if entry["outcome"] is None:
                entry["outcome"] = "passed"  # placeholder until the call phase reports
            return
        entry["outcome"] = outcome
        entry["message"] = message
        entry["crash"] = crash

    def pytest_collectreport(self, report):
        if report.failed:
            message, crash = self._describe(report)
            self.collection_errors.append(
                {"nodeid": report.nodeid, "message": message, "crash": crash}
            )


def _pytest_args(test_filename: str, run_dir: str) -> list[str]:
    args = [
        test_filename,
        "-q",
        "--rootdir", run_dir,
        "-c", os.path.join(run_dir, "pytest.ini"),  # ignore any config outside run_dir
        "--capture=sys",  # pure-Python capture: no fd juggling in Pyodide
        "--color=no",
        "-p", "no:cacheprovider",
        "-p", "no:faulthandler",
    ]
    if _has_pytest_randomly():
        args += ["-p", "no:randomly"]
    return args


@functools.lru_cache(maxsize=None)
def _has_pytest_randomly() -> bool:
    """Whether pytest-randomly is installed (a search of sys.path: asked once per process)."""
    return importlib.util.find_spec("pytest_randomly") is not None


def _safe_test_filename(test_filename: str) -> str:
    name = os.path.basename((test_filename or "").replace("\\", "/")) or "test_solution.py"
    if not name.endswith(".py") or name in (SOLUTION_FILENAME, "conftest.py"):
        raise ValueError(
            f"test_filename must name a .py file other than {SOLUTION_FILENAME} "
            f"and conftest.py, got {test_filename!r}"
        )
    return name


def run_pytest(
    test_source: str,
    test_filename: str,
    solution_source: str,
    *,
    output_cap: int = OUTPUT_CAP,
    pytest_ini: str | None = None,
    conftests: list[dict] | None = None,
) -> dict:
    """Run the test file under pytest next to ``solution.py`` in a fresh directory, under
    ``pytest_ini`` (the text of a ``pytest.ini``; by default an empty ``[pytest]`` section).
    ``conftests`` are the test file's ``conftest.py`` files, ``{"path", "source"}`` with the path
    relative to the test file's folder (``conftest.py``, ``../conftest.py``): the test file sits as
    deep in the run directory as the farthest one needs, with ``pytest.ini`` at its top.

    Returns ``{"tests": [...], "collection_errors": [...], "exit_code": int,
    "output": str}``; each test is ``{"nodeid", "name", "outcome", "message",
    "crash", "line", "duration"}`` with ``outcome`` one of passed, failed, skipped,
    xfailed, xpassed, error. ``name`` is the node id without the file part, as the
    extractor's ``test`` field spells it.
    """
    import pytest  # imported on first use; the worker imports it once at start-up

    if not isinstance(test_source, str) or not isinstance(solution_source, str):
        raise TypeError("test_source and solution_source must be str")
    test_filename = _safe_test_filename(test_filename)
    module_name = test_filename[: -len(".py")]

    _forget_run_modules((module_name,))
    # Earlier run directories are no longer needed: remove them (their modules are
    # forgotten above, so nothing refers to them any more).
    for old in _run_dirs:
        shutil.rmtree(old, ignore_errors=True)

    run_dir = os.path.realpath(tempfile.mkdtemp(prefix="bench-explorer-run-"))
    _run_dirs.append(run_dir)
    conftests = [c for c in conftests or () if isinstance(c, dict) and isinstance(c.get("source"), str)
                 and isinstance(c.get("path"), str)]
    depth = max((c["path"].replace("\\", "/").count("../") for c in conftests), default=0)
    test_dir = os.path.join(run_dir, *[f"up{i}" for i in range(depth, 0, -1)])
    os.makedirs(test_dir, exist_ok=True)
    for conftest in conftests:
        target = os.path.normpath(os.path.join(test_dir, conftest["path"]))
        if os.path.basename(target) == "conftest.py" and _is_under(target, [run_dir]):
            with open(target, "w", encoding="utf-8") as f:
                f.write(conftest["source"])
    with open(os.path.join(test_dir, SOLUTION_FILENAME), "w", encoding="utf-8") as f:
        f.write(solution_source)
    with open(os.path.join(test_dir, test_filename), "w", encoding="utf-8") as f:
        f.write(test_source)
    with open(os.path.join(run_dir, "pytest.ini"), "w", encoding="utf-8") as f:
        f.write(pytest_ini if isinstance(pytest_ini, str) else "[pytest]\n")

    collector = _Collector()
    sink = CappedText(output_cap)
    try:
        saved_cwd = os.getcwd()
    except OSError:  # an interrupted earlier run left us in a directory since removed
        saved_cwd = tempfile.gettempdir()
    saved_dont_write = sys.dont_write_bytecode
    try:
        os.chdir(run_dir)
        sys.dont_write_bytecode = True
        with _Redirect(sink):
            exit_code = pytest.main(_pytest_args(os.path.relpath(os.path.join(test_dir, test_filename), run_dir),
                                                 run_dir), plugins=[collector])
    finally:
        sys.dont_write_bytecode = saved_dont_write
        os.chdir(saved_cwd)
        if FORGET_AFTER_RUN:
            _forget_run_modules((module_name,))

    tests = []
    for entry in collector.tests.values():
        entry["outcome"] = entry["outcome"] or "error"
        entry["duration"] = round(entry["duration"], 6)
        tests.append(entry)
    return {
        "tests": tests,
        "collection_errors": collector.collection_errors,
        "exit_code": int(exit_code),
        "output": sink.getvalue(),
    }


# --------------------------------------------------------------------------- requests


def run_request(request: dict) -> dict:
    """Both views for one ``run`` request (see www/py/engine.mjs for the protocol).

    An empty or missing ``test_source`` skips pytest (``"pytest": None``). ``bindings``
    is the extraction's (see ``build_namespace``); a request without it (or with
    null) is a version 1 one, evaluated in the solution module's own globals.
    """
    solution = request.get("solution")
    if not isinstance(solution, str):
        raise TypeError("request.solution must be a str")
    assertions = request.get("assertions") or []

    started = time.perf_counter()
    evals = eval_assertions(
        solution, assertions,
        bindings=request.get("bindings"),
        warning_filters=request.get("warning_filters"),
        logging_spec=request.get("logging"),
    )
    eval_ms = (time.perf_counter() - started) * 1000

    pytest_result = None
    started = time.perf_counter()
    test_source = request.get("test_source")
    if test_source:
        pytest_result = run_pytest(
            test_source, request.get("test_filename") or "", solution,
            pytest_ini=request.get("pytest_ini"),
            conftests=request.get("conftests"),
        )
    pytest_ms = (time.perf_counter() - started) * 1000

    return {
        "evals": evals,
        "pytest": pytest_result,
        "timings": {"eval_ms": round(eval_ms, 3), "pytest_ms": round(pytest_ms, 3)},
    }


def run_request_json(request_json: str) -> str:
    return json.dumps(run_request(json.loads(request_json)))
