"""The helpers in benchlib reject what they should reject.

test_bench.py only ever feeds them the real bench, which passes; these tests
feed them small bad inputs, so a helper that always says "fine" is caught.
"""

import textwrap

import benchlib as bl

HEADER = textwrap.dedent(
    '''\
    import importlib.util
    from pathlib import Path

    import pytest


    '''
) + bl.LOADER_SOURCE + "\n\n\n"


def toy_tests(body: str) -> str:
    return HEADER + textwrap.dedent(body)


# --------------------------------------------------------------------------- conventions


def test_convention_outside_the_section_is_not_a_bullet():
    meta = {"conventions": ["Strip the prefix"]}
    markdown = "# T\n\nStrip the prefix, says the intro.\n\n## Conventions\n\n- Something else\n"
    # (It counts as stated for the extractor's convention check: tests/conventions.rs.)
    assert bl.conventions_not_in_bullets(meta, markdown) == ["Strip the prefix"]


def test_markdown_section_stops_at_the_next_heading():
    markdown = "# T\n## Conventions\n- a\n## Notes\n- b\n"
    assert bl.bullet_points(bl.markdown_section(markdown, "Conventions")) == ["a"]
    assert bl.markdown_section(markdown, "Examples") is None


def test_mentions_needs_the_whole_identifier():
    assert bl.mentions("call `shortest_path(g, a, b)`", "shortest_path")
    assert not bl.mentions("call `shortest_path_len(g)`", "shortest_path")
    assert not bl.mentions("the path is short", "path_short")


# --------------------------------------------------------------------------- meta


GOOD_META = {
    "title": "T", "difficulty": "easy", "tags": ["x"], "shapes": ["helper-assertion"],
    "note": "n", "functions": ["f"], "conventions": ["c"],
}


def test_meta_problems_accepts_a_good_table():
    assert bl.meta_problems(GOOD_META) == []


def test_meta_problems_reports_each_defect():
    bad = dict(GOOD_META, difficulty="brutal", shapes=["helper-assertion", "made-up"], extra=1)
    del bad["note"]
    found = bl.meta_problems(bad)
    assert "missing key 'note'" in found
    assert "unexpected key 'extra'" in found
    assert "unknown shape id 'made-up'" in found
    assert any("difficulty" in p for p in found)


def test_meta_problems_rejects_empty_lists():
    assert bl.meta_problems(dict(GOOD_META, functions=[])) != []


# --------------------------------------------------------------------------- source analysis


def test_stub_defects_flags_logic_and_missing_docstrings():
    stub = textwrap.dedent(
        '''\
        def good(x):
            """Doc."""
            raise NotImplementedError


        def has_logic(x):
            """Doc."""
            return x + 1


        def no_doc(x):
            raise NotImplementedError


        LIMIT = 3
        '''
    )
    assert bl.stub_defects(stub) == ["has_logic", "no_doc", "line 15: Assign"]


def test_public_signatures_see_a_changed_parameter():
    a = "def f(x, y):\n    pass\n"
    b = "def f(x, z):\n    pass\n"
    assert bl.public_signatures(a) != bl.public_signatures(b)


def test_solution_names_called_follows_aliases():
    source = toy_tests(
        '''
        shortest = _load_solution().shortest_path


        def test_a():
            sol = _load_solution()
            assert sol.dijkstra({}, 1) == {}
        '''
    )
    assert bl.solution_names_called(source) == {"shortest_path", "dijkstra"}


def test_asserts_not_touching_solution_flags_constant_and_helper_asserts():
    source = toy_tests(
        '''
        f = _load_solution().f


        def helper(x):
            return x * 2


        def test_ok():
            result = f(2)
            assert result == 4


        def test_constant():
            assert 1 + 1 == 2


        def test_helper_only():
            value = helper(3)
            assert value == 6
        '''
    )
    lines = source.splitlines()
    flagged = [lines[n - 1].strip() for n in bl.asserts_not_touching_solution(source)]
    assert flagged == ["assert 1 + 1 == 2", "assert value == 6"]


def test_helper_assertion_is_found_only_outside_tests():
    source = toy_tests("def test_a():\n    assert _load_solution().f() == 1\n")
    assert len(bl.helper_assert_lines(source)) == 1  # the one in _load_solution
    assert bl.helper_assert_lines("def test_a():\n    assert 1\n") == []


def test_asserts_by_test_names_class_methods_like_pytest():
    source = toy_tests(
        '''
        class TestThing:
            def test_one(self):
                assert _load_solution().f() == 1
                assert _load_solution().f() != 2

            def helper(self):
                pass
        '''
    )
    assert bl.asserts_by_test(source) == {"TestThing::test_one": 2}


# --------------------------------------------------------------------------- examples


def test_example_failures_catches_a_wrong_example():
    solution = "def double(x):\n    return 2 * x\n"
    good = "```python\n>>> double(2)\n4\n```\n"
    bad = "```python\n>>> double(2)\n5\n```\n"
    assert bl.example_failures(good, solution)[:2] == (1, 0)
    assert bl.example_failures(bad, solution)[:2] == (1, 1)


# --------------------------------------------------------------------------- running pytest


JUNIT = """<?xml version="1.0" encoding="utf-8"?><testsuites><testsuite name="pytest">
<testcase classname="test_x" name="test_ok[1-2]" />
<testcase classname="test_x" name="test_bad"><failure message="AssertionError">x</failure></testcase>
<testcase classname="test_x.TestA" name="test_m"><skipped type="pytest.xfail" message="why" /></testcase>
<testcase classname="test_x" name="test_err"><error message="boom">x</error></testcase>
</testsuite></testsuites>"""


def test_parse_junit_classifies_outcomes():
    assert bl.parse_junit(JUNIT) == [
        ("test_ok[1-2]", "passed", ""),
        ("test_bad", "failed", "AssertionError"),
        ("TestA::test_m", "skipped", "why"),
        ("test_err", "error", "boom"),
    ]


def test_run_pytest_reports_passes_failures_and_xfails(tmp_path):
    test = tmp_path / "test_toy.py"
    test.write_text(
        toy_tests(
            '''
            def test_passes():
                assert _load_solution().f(1) == 2


            def test_fails():
                assert _load_solution().f(1) == 3


            @pytest.mark.parametrize("x", [1, pytest.param(2, marks=pytest.mark.xfail(strict=True))])
            def test_param(x):
                assert _load_solution().f(x) == 2
            '''
        )
    )
    solution = tmp_path / "toy_solution.py"
    solution.write_text("def f(x):\n    return x * 2 if x == 1 else 0\n")
    run = bl.run_pytest(test, solution)
    assert run.returncode == 1
    assert run.with_outcome("passed") == ["test_passes", "test_param[1]"]
    assert run.with_outcome("failed") == ["test_fails"]
    assert run.with_outcome("skipped") == ["test_param[2]"]
    # Only passing cases count, each with its function's asserts.
    assert bl.kept_assert_count(test.read_text(), run) == 2
