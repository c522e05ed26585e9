"""The outside reviews' cases, judged against real pytest in CI: a known lie is a red build.

Each folder under tests/review/ is one attempt to make the `full` extraction lie (NOTES.md); every one
is judged as the fixtures are (tests/python/faithful.py: the reference and its hand-written mutants,
next to real pytest), one named test per case. A case may lie only where the contract states the limit
it shows (docs/contract.md, "What the evaluator does not reproduce"): `STATED` names those cases and
the limit, and a stated case that stops lying is a failure too (the list must shrink with the limits).
Run it by its path (`pytest tests/review/test_review.py`): the case folders hold test files of their own.
"""

from __future__ import annotations

import pathlib
import sys

import pytest

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "python"))

import faithful as fx  # noqa: E402

# Cases whose lies are limits the contract states, with the limit (its words there).
STATED = {
    "order_dependent_calls": "test order",
    "recursion_depth": "pytest's own process (the frames it adds)",
    "replay_cost_timeout": "time",
    "runs_under_pytest_detection": "pytest's own process (PYTEST_CURRENT_TEST, sys.modules)",
    "test_file_import_fails": "a test-file import that fails",
    "collection_probes_module_getattr": "pytest's own process (its collection reads every module-level object)",
    "lifetime_local_past_assert_error": "garbage collected at another time (a test's local is released when the check is done)",
    "wave8_llm_candidate_keyboardinterrupt_stops_session": "a candidate that stops pytest's session (KeyboardInterrupt, pytest.exit)",
    "wave8_star_export_fixture_override_stated": "a star import that replaces what the test relies on (a fixture the candidate exports overrides the conftest's)",
    "wave8_star_export_pytest_names_stated": "a star import that replaces what the test relies on (names pytest reads from the test module)",
}

CASES = sorted(p for p in HERE.iterdir() if p.is_dir() and (p / "solution.py").exists())


@pytest.mark.parametrize("folder", CASES, ids=[p.name for p in CASES])
def test_no_lie_beyond_the_stated_limits(folder):
    m = fx.measure(folder, "full", auto=0)
    lies = [fx.describe(folder, run["label"], lie) for run in m["runs"] for lie in run["lies"] or []]
    if folder.name in STATED:
        assert lies, f"{folder.name} no longer lies ({STATED[folder.name]}): take it off STATED"
    else:
        assert not lies, "\n".join(lies)
