//! Synthetic pytest files of any size, for benchmarks (native and in the browser).
//!
//! The file mixes the shapes real bench files have: locals inlined into asserts, parametrize,
//! stateful setup that must be folded, module constants, a helper assert in a loader. Output is
//! deterministic for a given size.

/// A pytest file of about `lines` lines.
pub fn test_file(lines: usize) -> String {
    let mut out = String::from(
        "import importlib.util\nfrom pathlib import Path\n\nimport pytest\n\nWORDS = [\"hot\", \"dot\", \"dog\", \"lot\", \"log\", \"cog\"]\n\n\ndef _load_solution():\n    path = Path(__file__).with_name(\"solution.py\")\n    spec = importlib.util.spec_from_file_location(\"solution\", path)\n    assert spec.loader is not None\n    module = importlib.util.module_from_spec(spec)\n    spec.loader.exec_module(module)\n    return module\n\n",
    );
    let mut i = 0usize;
    while out.lines().count() < lines {
        let block = match i % 4 {
            0 => format!(
                "\ndef test_ladder_{i}():\n    sol = _load_solution()\n    result = sol.word_ladder(\"hit\", \"cog\", WORDS)\n    assert result == {}\n",
                i % 7
            ),
            1 => format!(
                "\n@pytest.mark.parametrize(\"a, b, expected\", [({i}, 1, {}), ({i}, -1, {}), pytest.param(0, 0, 0, id=\"zero\")])\ndef test_add_{i}(a, b, expected):\n    assert _load_solution().add(a, b) == expected\n",
                i + 1,
                i as i64 - 1
            ),
            2 => format!(
                "\ndef test_cache_{i}():\n    cache = _load_solution().LRUCache(2)\n    cache.put(1, \"a\")\n    cache.put(2, \"b\")\n    assert cache.get(1) == \"a\"\n    cache.put(3, \"c\")\n    assert cache.get(2) is None\n"
            ),
            _ => format!(
                "\nclass TestMisc{i}:\n    def test_total(self):\n        values = [{i}, {}, {}]\n        total = _load_solution().total(values)\n        assert total == {}\n",
                i + 1,
                i + 2,
                3 * i + 3
            ),
        };
        out.push_str(&block);
        i += 1;
    }
    out
}
