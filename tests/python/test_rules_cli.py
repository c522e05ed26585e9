"""The rule catalogue through the CLI: `rule CODE`, `--statistics`, and `--select` / `--ignore` (also from
`[tool.bench-explorer]` in pyproject.toml) deciding the exit status without hiding anything."""

import json
import os
import pathlib
import subprocess
import textwrap

ROOT = pathlib.Path(__file__).resolve().parents[2]
BIN = pathlib.Path(os.environ.get("BENCH_EXPLORER_BIN", ROOT / "target" / "debug" / "bench-explorer"))

# A HumanEval-style file: every check is kept, and the only finding is that the tests call a name
# other than the slug (N006).
SLUG_ONLY = textwrap.dedent(
    """\
    from solution import add

    def test_add():
        assert add(2, 3) == 5
    """
)
# A file with a real drop: a check inside a `while` loop.
WITH_DROP = textwrap.dedent(
    """\
    from solution import add

    def test_add():
        n = 0
        while n < 2:
            n += 1
            assert add(n, 0) == n
    """
)


def run(*args, cwd):
    return subprocess.run([str(BIN), *args], capture_output=True, text=True, cwd=cwd)


def test_a_finding_alone_fails_by_default_and_not_when_its_rule_is_ignored(tmp_path):
    (tmp_path / "test_sum.py").write_text(SLUG_ONLY)
    assert run("extract", "test_sum.py", cwd=tmp_path).returncode == 1
    out = run("extract", "--ignore", "N006", "test_sum.py", cwd=tmp_path)
    assert out.returncode == 0, out.stdout + out.stderr
    # Ignored is not hidden: the finding is still reported, with its rule.
    assert "slug-name-mismatch" in out.stdout and "[N006]" in out.stdout
    assert run("extract", "--ignore", "slug-name-mismatch", "test_sum.py", cwd=tmp_path).returncode == 0
    assert run("extract", "--ignore", "N", "test_sum.py", cwd=tmp_path).returncode == 0


def test_ignoring_a_finding_does_not_pass_a_lost_check(tmp_path):
    (tmp_path / "test_sum.py").write_text(WITH_DROP)
    out = run("extract", "--ignore", "N006", "--json", "test_sum.py", cwd=tmp_path)
    assert out.returncode == 1
    data = json.loads(out.stdout)
    dropped = [a for a in data["assertions"] if a["status"] == "dropped"]
    assert dropped and all(a["rule"]["code"] and a["rule"]["name"] for a in dropped)


def test_pyproject_table_is_read_and_the_command_line_overrides_it(tmp_path):
    (tmp_path / "pyproject.toml").write_text('[tool.bench-explorer]\nignore = ["N006"]\n')
    tests = tmp_path / "tests"
    tests.mkdir()
    (tests / "test_sum.py").write_text(SLUG_ONLY)
    assert run("extract", "tests/test_sum.py", cwd=tmp_path).returncode == 0
    assert run("extract", "--select", "ALL", "--ignore", "E", "tests/test_sum.py", cwd=tmp_path).returncode == 1
    (tmp_path / "pyproject.toml").write_text('[tool.bench-explorer]\nignore = ["Q"]\n')
    out = run("extract", "tests/test_sum.py", cwd=tmp_path)
    assert out.returncode == 2 and "`Q` selects no rule" in out.stderr


def test_statistics_count_per_rule_most_frequent_first(tmp_path):
    for i in range(3):
        (tmp_path / f"test_s{i}.py").write_text(SLUG_ONLY)
    (tmp_path / "test_loop.py").write_text(WITH_DROP)
    out = run("extract", "--statistics", *[f"test_s{i}.py" for i in range(3)], "test_loop.py", cwd=tmp_path)
    assert out.returncode == 1
    rows = [line.split() for line in out.stdout.splitlines()[1:] if line[:1] == " " and line.split()[0].isdigit()]
    by_code = {r[3]: r for r in rows}
    assert by_code["N006"][1] == "3", out.stdout  # three findings, one per file
    assert sum(int(r[0]) for r in rows) == 1, "the loop file's one dropped check"
    assert rows[0][3] == "N006", "most frequent first"


def test_rule_prints_a_page_and_refuses_an_unknown_code(tmp_path):
    out = run("rule", "N006", cwd=tmp_path)
    assert out.returncode == 0
    for section in ("## What it means", "## Why it cannot be kept", "## Example", "## How to write it"):
        assert section in out.stdout
    assert run("rule", "slug-name-mismatch", cwd=tmp_path).stdout == out.stdout
    bad = run("rule", "Q999", cwd=tmp_path)
    assert bad.returncode == 2 and "no rule `Q999`" in bad.stderr
    every = json.loads(run("rule", "--all", "--json", cwd=tmp_path).stdout)
    assert len({r["code"] for r in every}) == len(every) > 10


def test_docs_rules_md_is_what_rule_all_prints():
    out = run("rule", "--all", cwd=ROOT)
    assert out.stdout == (ROOT / "docs" / "rules.md").read_text()


def test_a_retired_code_is_named_so(tmp_path):
    # C030 and S009 were rules no input reaches; their codes stay unused, and `rule` says why.
    for key in ("C030", "s009", "param-not-indexable"):
        proc = run("rule", key, cwd=tmp_path)
        assert proc.returncode != 0
        assert "retired code" in proc.stderr, proc.stderr
    listed = json.loads(run("rule", "--all", "--json", cwd=tmp_path).stdout)
    assert not {r["code"] for r in listed} & {"C030", "S009"}
    assert run("rule", "C999", cwd=tmp_path).stderr.count("no rule") == 1
