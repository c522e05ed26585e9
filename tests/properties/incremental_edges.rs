//! A second outside review of `extract_with` (src/incremental.rs): edits at the very end of a
//! function, functions in unusual places (module-level blocks, nested classes, async, inherited
//! bases), edits that change what pytest collects elsewhere, chains through one memo across
//! functions and stages, and unusual characters (tabs, form feeds, U+2028, U+0085, zero-width).
//! Each case checks old->new and new->old at every stage (as `incremental_review::check`), and
//! prints the memo's reuse. `sweep_*` tests try every single-character insertion and deletion at
//! every position of a few files (those that parse and keep the line count).

use bench_explorer::{extract, extract_with, Memo, Options, Stage};

use crate::incremental_review::{check, edit, first_difference};

fn parses(text: &str) -> bool {
    extract(text, &Options::new("test_example.py"))
        .syntax_errors
        .is_empty()
}

/// A chain of texts through one memo, alternating the stages given; each must equal `extract`.
/// Returns the reuse counts.
fn chain(name: &str, steps: &[(&str, Stage)]) -> Vec<usize> {
    let mut m = Memo::new();
    let mut out = Vec::new();
    for (i, (t, stage)) in steps.iter().enumerate() {
        let mut o = Options::new("test_example.py");
        o.stage = *stage;
        let got = extract_with(t, &o, &mut m);
        let want = extract(t, &o);
        eprintln!("{name} step {i} [{}]: {:?}", stage.id(), m.last_reuse());
        out.push(m.last_reuse().reused);
        assert!(
            got == want,
            "{name} step {i} [{}]:\n{}",
            stage.id(),
            first_difference(&got, &want)
        );
    }
    out
}

// ---- edits at the very end of a function ---------------------------------------------------------

const ENDS: &str = "import pytest\n\nfrom solution import add\n\nLIMIT = 10\n\n\ndef helper(x):\n    return x + LIMIT\n\n\ndef test_a():\n    x = 1\n    assert add(x, 1) == 2\n\n\ndef test_b():\n    assert add(helper(1), 0) == 11\n\n\nclass TestC:\n    def test_c(self):\n        assert add(LIMIT, 1) == 11\n\n    def test_d(self):\n        y = 2\n        assert add(y, 2) == 4\n    items = [1]\n\n\ndef test_e():\n    assert add(3, 3) == 6";

#[test]
fn end_digit_after_last_token() {
    let new = edit(ENDS, "add(x, 1) == 2\n", "add(x, 1) == 22\n");
    assert!(check("end_digit_after_last_token", ENDS, &new).0 > 0);
}

/// The typed character is the one that already ends the function (the edit's place is ambiguous).
#[test]
fn end_repeat_last_char() {
    let new = edit(ENDS, "add(y, 2) == 4\n", "add(y, 2) == 44\n");
    assert!(check("end_repeat_last_char", ENDS, &new).0 > 0);
}

#[test]
fn end_of_file_no_newline() {
    let new = edit(ENDS, "add(3, 3) == 6", "add(3, 3) == 66");
    assert!(check("end_of_file_no_newline", ENDS, &new).0 > 0);
    let new2 = edit(ENDS, "add(3, 3) == 6", "add(3, 3) == ");
    assert!(!parses(&new2));
    let new3 = edit(ENDS, "add(3, 3) == 6", "add(3, 3) == 6;");
    check("end_of_file_semicolon", ENDS, &new3);
    let new4 = edit(ENDS, "add(3, 3) == 6", "add(3, 3) == 6 # c");
    check("end_of_file_comment", ENDS, &new4);
}

#[test]
fn end_trailing_semicolon() {
    let new = edit(ENDS, "add(x, 1) == 2\n", "add(x, 1) == 2;\n");
    check("end_trailing_semicolon", ENDS, &new);
    let new2 = edit(ENDS, "add(x, 1) == 2\n", "add(x, 1) == 2; z = 3\n");
    assert!(check("end_statement_after_semicolon", ENDS, &new2).0 > 0);
    let new3 = edit(ENDS, "add(x, 1) == 2\n", "add(x, 1) == 2; LIMIT\n");
    check("end_reads_limit_after_semicolon", ENDS, &new3);
}

#[test]
fn end_trailing_backslash() {
    // `\` then a blank line: CPython accepts it.
    let new = edit(ENDS, "add(x, 1) == 2\n", "add(x, 1) == 2 \\\n");
    if parses(&new) {
        check("end_trailing_backslash", ENDS, &new);
    } else {
        eprintln!("end_trailing_backslash: does not parse (skipped)");
    }
    // `\` before a class-level statement: it joins the method.
    let new2 = edit(ENDS, "add(y, 2) == 4\n", "add(y, 2) == 4; \\\n");
    if parses(&new2) {
        check("end_backslash_joins_class_attribute", ENDS, &new2);
    } else {
        eprintln!("end_backslash_joins_class_attribute: does not parse (skipped)");
    }
}

#[test]
fn end_trailing_comment() {
    let new = edit(ENDS, "add(x, 1) == 2\n", "add(x, 1) == 2  # two\n");
    check("end_trailing_comment", ENDS, &new);
    let old = edit(ENDS, "add(x, 1) == 2\n", "add(x, 1) == 2 # two\n");
    let new2 = edit(ENDS, "add(x, 1) == 2\n", "add(x, 1) == 2# two\n");
    check("end_comment_space_deleted", &old, &new2);
}

#[test]
fn end_delete_last_char() {
    let new = edit(ENDS, "add(x, 1) == 2\n", "add(x, 1) == \n");
    assert!(!parses(&new));
    let old = edit(ENDS, "add(x, 1) == 2\n", "add(x, 1) == 21\n");
    assert!(check("end_delete_last_char", &old, ENDS).0 > 0);
    let new2 = edit(ENDS, "return x + LIMIT\n", "return x + LIMI\n");
    check("end_delete_last_char_of_helper", ENDS, &new2);
}

/// A class-level statement follows the last method: indenting it into the method, or the method's
/// last statement out to the class.
#[test]
fn end_indent_class_attribute_into_method() {
    let new = edit(ENDS, "    items = [1]\n", "        tems = [1]\n");
    check("end_indent_class_attribute_into_method", ENDS, &new);
    let new2 = edit(
        ENDS,
        "        assert add(y, 2) == 4\n",
        "    assert add(y, 2) == 4    \n",
    );
    if parses(&new2) {
        check("end_dedent_method_statement_to_class", ENDS, &new2);
    }
}

/// The last statement of the last method made into a compound statement that swallows nothing.
#[test]
fn end_if_suffix() {
    let new = edit(ENDS, "add(y, 2) == 4\n", "add(y, 2) == 4 if y else 0\n");
    assert!(check("end_if_suffix", ENDS, &new).0 > 0);
}

// ---- functions in unusual places -------------------------------------------------------------------

#[test]
fn functions_in_module_blocks() {
    let old = "import sys\n\nfrom solution import add\n\n\nif sys.version_info >= (3,):\n    def helper(x):\n        return x + 1\n\n    def test_if():\n        assert add(helper(1), 0) == 2\n\ntry:\n    def test_try():\n        z = 0\n        assert add(1, z) == 1\nexcept ImportError:\n    pass\n\nwith open(__file__):\n    def test_with():\n        assert add(2, 2) == 4\n\n\ndef test_plain():\n    w = 1\n    assert add(w, 1) == 2\n";
    let new = edit(old, "return x + 1", "return x + 2");
    check("function_in_if_edited", old, &new);
    let new2 = edit(old, "add(1, z) == 1", "add(1, z) == 2");
    check("function_in_try_edited", old, &new2);
    let new3 = edit(old, "add(w, 1) == 2", "add(w, 1) == 3");
    check("plain_edited_with_block_tests", old, &new3);
}

#[test]
fn async_tests() {
    let old = "import pytest\n\nfrom solution import add\n\n\nasync def helper(x):\n    return x\n\n\n@pytest.mark.asyncio\nasync def test_a():\n    x = 1\n    assert add(x, 1) == 2\n\n\nasync def test_b():\n    assert add(2, 2) == 4\n\n\ndef test_c():\n    assert add(3, 3) == 6\n";
    let new = edit(old, "add(x, 1) == 2", "add(x, 1) == 3");
    check("async_test_edited", old, &new);
    let new2 = edit(old, "    return x\n", "    return 1\n");
    check("async_helper_edited", old, &new2);
}

#[test]
fn nested_classes() {
    let old = "from solution import add\n\n\nclass TestOuter:\n    class TestInner:\n        def test_a(self):\n            x = 1\n            assert add(x, 1) == 2\n\n        def test_b(self):\n            assert add(2, 2) == 4\n\n    def test_c(self):\n        assert add(3, 3) == 6\n\n\ndef test_d():\n    assert add(4, 4) == 8\n";
    let new = edit(old, "add(x, 1) == 2", "add(x, 1) == 3");
    assert!(check("nested_class_method_edited", old, &new).0 > 0);
    let new2 = edit(
        old,
        "            x = 1\n",
        "            x = 1; __test__ = 0\n",
    );
    check("nested_class_local_dunder_test", old, &new2);
}

/// Classes inheriting test methods from a base of the file, whose non-test method is edited; and a
/// base with `__test__ = False`.
#[test]
fn inherited_base_edited() {
    let old = "from solution import add\n\n\nclass Base:\n    __test__ = False\n\n    def make(self):\n        return 1\n\n    def test_x(self):\n        assert add(self.make(), 1) == 2\n\n\nclass TestChild(Base):\n    __test__ = True\n\n    def test_y(self):\n        assert add(2, 2) == 4\n\n\nclass TestOther(Base):\n    __test__ = True\n\n\ndef test_z():\n    assert add(3, 3) == 6\n";
    let new = edit(old, "return 1", "return 2");
    assert!(check("inherited_base_helper_method_edited", old, &new).0 > 0);
    let new2 = edit(old, "add(self.make(), 1) == 2", "add(self.make(), 1) == 3");
    check("inherited_base_test_edited", old, &new2);
}

#[test]
fn xunit_module_hooks_edited() {
    let old = "from solution import add\n\nSTATE = [0]\n\n\ndef setup_module(module):\n    w = 0\n    x = 1\n\n\ndef teardown_module(module):\n    w = 0\n    y = 1\n\n\ndef test_a():\n    assert add(STATE[0], 1) == 1\n\n\ndef test_b():\n    assert add(2, 2) == 4\n";
    let new = edit(old, "    x = 1\n", "    STATE[0] = 5\n");
    check("setup_module_edited", old, &new);
    let new2 = edit(old, "    y = 1\n", "    STATE[0] = 5\n");
    check("teardown_module_edited", old, &new2);
    let new3 = edit(old, "    x = 1\n", "    global STATE; STATE = [9]\n");
    if old.matches('\n').count() == new3.matches('\n').count() {
        check("setup_module_rebinds_state", old, &new3);
    }
}

#[test]
fn autouse_fixture_variants() {
    let old = "import pytest\n\nfrom solution import add\n\n\n@pytest.fixture(autouse=True)\ndef reset():\n    w = 0\n    yield 1\n\n\n@pytest.fixture\ndef one():\n    return 1\n\n\ndef test_a(one):\n    assert add(one, 1) == 2\n\n\ndef test_b():\n    assert add(2, 2) == 4\n";
    let new = edit(old, "    yield 1\n", "    return 1\n");
    check("autouse_yield_to_return", old, &new);
    let new2 = edit(old, "    return 1\n", "    return 2\n");
    check("value_fixture_edited_autouse_present", old, &new2);
}

/// `pytestmark` whose condition calls a decorated helper (its global holds no definition).
#[test]
fn pytestmark_with_decorated_helper() {
    let old = "import functools\n\nimport pytest\n\nfrom solution import add\n\n\n@functools.lru_cache(maxsize=None)\ndef slow():\n    return False\n\n\npytestmark = pytest.mark.skipif(slow(), reason=\"slow\")\n\n\ndef test_a():\n    assert add(1, 1) == 2\n\n\ndef test_b():\n    assert add(slow(), 1) == 1\n";
    let new = edit(old, "return False", "return True ");
    check("pytestmark_with_decorated_helper", old, &new);
}

/// A decorated helper (a plain function call as decorator): its global entry has no definition,
/// so its name is not searched for; the test calling it must still come out the same.
#[test]
fn decorated_helper_called_by_test() {
    let old = "import functools\n\nfrom solution import add\n\n\ndef register(n):\n    return lambda f: f\n\n\n@register(1)\ndef helper(x):\n    return x + 1\n\n\n@functools.cache\ndef other(x):\n    return x * 2\n\n\ndef test_a():\n    assert add(helper(1), 0) == 2\n\n\ndef test_b():\n    assert add(other(1), 0) == 2\n";
    let new = edit(old, "return x + 1", "return x + 5");
    assert!(check("decorated_helper_called_by_test", old, &new).0 > 0);
    let new2 = edit(old, "return x * 2", "return vars()");
    check("decorated_helper_becomes_opaque", old, &new2);
    let new3 = edit(old, "    return lambda f: f\n", "    return lambda f: 1\n");
    check("decorator_factory_edited", old, &new3);
}

/// Default values and annotations are evaluated when `def` runs; the body is edited around them.
#[test]
fn defaults_and_annotations() {
    let old = "from solution import add\n\nDATA = [1, 2]\n\n\ndef helper(xs=DATA) -> int:\n    w = 0\n    n = 0\n    return len(xs)\n\n\ndef test_a(xs=DATA):\n    w = 0\n    y: int = 0\n    assert add(len(xs), y) == 2\n\n\ndef test_b():\n    assert add(len(DATA), 0) == 2\n";
    let new = edit(old, "    n = 0\n", "    xs.append(3)\n");
    check("helper_default_mutated", old, &new);
    let new2 = edit(old, "    y: int = 0\n", "    xs.append(0)\n");
    check("test_default_mutated", old, &new2);
    let new3 = edit(old, "    y: int = 0\n", "    y: DATA.append(0) = 0\n");
    check("local_annotation_with_call", old, &new3);
}

#[test]
fn module_lambda_calls_edited_helper() {
    let old = "from solution import add\n\n\ndef helper(x):\n    return x + 1\n\n\nf = lambda x: helper(x)\n\n\ndef test_a():\n    assert add(f(1), 0) == 2\n\n\ndef test_b():\n    assert add(2, 2) == 4\n";
    let new = edit(old, "return x + 1", "return x + 2");
    check("module_lambda_calls_edited_helper", old, &new);
}

// ---- edits that change collection elsewhere ----------------------------------------------------------

const COLLECT: &str = "import pytest\n\nfrom solution import add\n\n\ndef test_a():\n    w = 0\n    x = 1\n    assert add(x, 1) == 2\n\n\ndef test_b():\n    assert add(2, 2) == 4\n\n\ndef test_c():\n    assert add(3, 3) == 6\n";

#[test]
fn collection_changed_from_body() {
    let cases: &[(&str, &str)] = &[
        ("del_other_test", "    global test_b; del test_b\n"),
        ("globals_item", "    globals()['test_b'] = None\n"),
        ("globals_update", "    globals().update(test_b=None)\n"),
        ("nested_def_same_name", "    def test_b(): pass\n"),
        ("global_def_same_name", "    global test_b\n"),
        ("test_attribute", "    test_b.__test__ = False\n"),
        (
            "pytestmark_global",
            "    global pytestmark; pytestmark = pytest.mark.skip\n",
        ),
        ("add_rebound", "    global add; add = max\n"),
        ("pytest_rebound", "    global pytest; pytest = None\n"),
        (
            "setattr_module",
            "    import sys; setattr(sys.modules[__name__], 'test_c', 1)\n",
        ),
        ("yield_makes_generator", "    x = yield\n"),
        ("return_value", "    return 1\n"),
    ];
    for (name, line) in cases {
        let new = edit(COLLECT, "    x = 1\n", line);
        if !parses(&new) {
            eprintln!("{name}: does not parse (skipped)");
            continue;
        }
        check(name, COLLECT, &new);
    }
}

// ---- chains through one memo ---------------------------------------------------------------------------

#[test]
fn chain_across_functions_and_stages() {
    let t0 = ENDS.to_string();
    let t1 = edit(&t0, "add(x, 1) == 2\n", "add(x, 1) == 3\n");
    let t2 = edit(&t1, "add(y, 2) == 4\n", "add(y, 2) == 5\n");
    let t3 = edit(&t2, "add(x, 1) == 3\n", "add(x, 1) == 2\n");
    let t4 = edit(&t3, "return x + LIMIT", "return x + 1");
    let t5 = edit(&t4, "add(3, 3) == 6", "add(3, 3) == 7");
    let steps = [
        (t0.as_str(), Stage::Full),
        (t0.as_str(), Stage::ALL[0]),
        (t1.as_str(), Stage::ALL[1]),
        (t1.as_str(), Stage::Full),
        (t2.as_str(), Stage::Full),
        (t3.as_str(), Stage::ALL[2]),
        (t3.as_str(), Stage::Full),
        (t4.as_str(), Stage::Full),
        (t5.as_str(), Stage::ALL[0]),
        (t0.as_str(), Stage::Full),
        (t2.as_str(), Stage::Full),
        (t2.as_str(), Stage::Full),
    ];
    let r = chain("chain_across_functions_and_stages", &steps);
    assert!(r.iter().sum::<usize>() > 0);
}

/// A memo that saw a syntax error in between, and one that saw other options in between.
#[test]
fn chain_through_error_and_options() {
    let t0 = ENDS.to_string();
    let bad = edit(&t0, "add(x, 1) == 2\n", "add(x, 1) ==\n");
    let t1 = edit(&t0, "add(x, 1) == 2\n", "add(x, 1) == 9\n");
    let mut m = Memo::new();
    let o = Options::new("test_example.py");
    let mut other = Options::new("test_other.py");
    other.slug = Some("example".into());
    for (t, opts) in [
        (&t0, &o),
        (&bad, &o),
        (&t1, &o),
        (&t0, &other),
        (&t1, &o),
        (&t0, &o),
        (&t1, &other),
    ] {
        let got = extract_with(t, opts, &mut m);
        eprintln!("chain_through_error_and_options: {:?}", m.last_reuse());
        let want = extract(t, opts);
        assert!(got == want, "{}", first_difference(&got, &want));
    }
}

// ---- shared parametrize values --------------------------------------------------------------------------

const PARAMS: &str = "import pytest\n\nfrom solution import total\n\nCASES = [[1, 2], [3, 4]]\nIDS = [\"a\", \"b\"]\n\n\n@pytest.mark.parametrize(\"xs\", CASES, ids=IDS)\ndef test_a(xs):\n    w = 0\n    n = len(xs)\n    assert total(xs) == sum(xs)\n\n\ndef test_mid():\n    w = 0\n    m = 0\n    assert total([m]) == 0\n\n\n@pytest.mark.parametrize(\"xs\", CASES)\ndef test_b(xs):\n    w = 0\n    k = 1\n    assert total(xs) == sum(xs)\n\n\n@pytest.mark.parametrize(\"ys\", [[5], [6]])\ndef test_c(ys):\n    assert total(ys) == sum(ys)\n";

#[test]
fn shared_params_edits() {
    let cases: &[(&str, &str, &str)] = &[
        ("mutate_in_a", "    n = len(xs)\n", "    xs.append(0)\n"),
        ("mutate_in_b", "    k = 1\n", "    xs.pop()\n"),
        (
            "mutate_cases_in_mid",
            "    m = 0\n",
            "    CASES[0].append(1)\n",
        ),
        ("mutate_ids_in_mid", "    m = 0\n", "    IDS.append('c')\n"),
        ("digit_in_mid", "    m = 0\n", "    m = 1\n"),
        ("rebind_in_a", "    n = len(xs)\n", "    xs = [9]\n"),
        ("read_cases_in_b", "    k = 1\n", "    k = CASES\n"),
    ];
    for (name, from, to) in cases {
        let new = edit(PARAMS, from, to);
        check(name, PARAMS, &new);
    }
    // A chain: mutate in a, then in b, then undo a.
    let t1 = edit(PARAMS, "    n = len(xs)\n", "    xs.append(0)\n");
    let t2 = edit(&t1, "    k = 1\n", "    xs.pop()\n");
    let t3 = edit(&t2, "    xs.append(0)\n", "    n = len(xs)\n");
    chain(
        "shared_params_chain",
        &[
            (PARAMS, Stage::Full),
            (&t1, Stage::Full),
            (&t2, Stage::Full),
            (&t3, Stage::Full),
            (PARAMS, Stage::Full),
            (&t2, Stage::Full),
        ],
    );
}

// ---- characters ----------------------------------------------------------------------------------------

#[test]
fn very_long_line() {
    let long = format!("    s = \"{}\"\n", "x".repeat(20_000));
    let old = format!("from solution import add\n\n\ndef test_a():\n    x = 1\n    assert add(x, 1) == 2\n\n\ndef test_b():\n{long}    assert add(len(s), 0) == 20000\n\n\ndef test_c():\n{long}    assert add(2, 2) == 4\n");
    let new = edit(&old, "add(x, 1) == 2", "add(x, 1) == 3");
    assert!(check("very_long_line", &old, &new).0 > 0);
    let new2 = old.replacen("xxxxxxxxxx\"", "xxxxxxxxxy\"", 1);
    check("very_long_line_edited", &old, &new2);
}

#[test]
fn tabs_and_form_feeds() {
    let old = "from solution import add\n\n\ndef test_a():\n\tx = 1\n\tassert add(x, 1) == 2\n\n\ndef test_b():\n    y = 1\n    assert add(y, 1) == 2\n\n\ndef test_c():\n\x0c    z = 1\n    assert add(z, 1) == 2\n";
    let new = edit(old, "\tx = 1\n", "\tx = 1 \x0c\n");
    if parses(&new) {
        check("form_feed_trailing", old, &new);
    }
    let new2 = edit(old, "    y = 1\n", "\x0c    y = 1\n");
    if parses(&new2) {
        check("form_feed_indent_added", old, &new2);
    }
    let new3 = edit(old, "\x0c    z = 1\n", "    z = 1\x0c\n");
    if parses(&new3) {
        check("form_feed_moved", old, &new3);
    }
    let new4 = edit(old, "\tx = 1\n", "\tx = 1\t\n");
    check("tab_trailing", old, &new4);
    let new5 = edit(old, "    y = 1\n", "    y = 1;\tq = 2\n");
    assert!(check("tab_in_statement", old, &new5).0 > 0);
}

#[test]
fn unicode_line_separators() {
    let old = "from solution import add\n\n\ndef test_a():\n    s = \"ab\"\n    assert add(len(s), 0) == 2\n\n\ndef test_b():\n    assert add(2, 2) == 4  # \u{2028} c\n\n\ndef test_c():\n    t = \"q\"\n    assert add(len(t), 3) == 4\n";
    for (name, ch) in [
        ("u2028", "\u{2028}"),
        ("u2029", "\u{2029}"),
        ("u0085", "\u{85}"),
        ("zwsp", "\u{200b}"),
        ("zwj", "\u{200d}"),
        ("vt", "\u{0b}"),
        ("ff_in_string", "\u{0c}"),
        ("bom", "\u{feff}"),
    ] {
        let new = edit(old, "s = \"ab\"", &format!("s = \"a{ch}b\""));
        check(&format!("{name}_in_string"), old, &new);
        let new2 = edit(
            old,
            "    s = \"ab\"\n",
            &format!("    s = \"ab\"  # {ch}\n"),
        );
        check(&format!("{name}_in_comment"), old, &new2);
        let new3 = edit(old, "    s = \"ab\"\n", &format!("    s = \"ab\"{ch}\n"));
        if parses(&new3) {
            check(&format!("{name}_after_statement"), old, &new3);
        } else {
            eprintln!("{name}_after_statement: does not parse");
        }
    }
    // A test whose own assert line holds a separator: its column after an edit elsewhere.
    let old2 = "from solution import add\n\n\ndef test_a():\n    x = 1\n    assert add(x, 1) == 2\n\n\ndef test_b():\n    s = \"\u{2028}\"; assert add(len(s), 1) == 2\n";
    let new = edit(old2, "add(x, 1) == 2", "add(x, 1) == 3");
    assert!(check("separator_before_assert_column", old2, &new).0 > 0);
}

/// Zero-width and other non-ASCII characters in names (they are either NFKC-normalized or invalid).
#[test]
fn zero_width_in_names() {
    let old = "from solution import add\n\n\ndef helper(x):\n    return x + 1\n\n\ndef test_a():\n    assert add(helper(1), 0) == 2\n\n\ndef test_b():\n    v = 0\n    assert add(v, 0) == 0\n";
    for (name, to) in [
        ("zwsp_name", "    v\u{200b} = 0\n"),
        ("middle_dot_name", "    v\u{b7} = 0\n"),
        ("nbsp", "    v =\u{a0}0\n"),
    ] {
        let new = edit(old, "    v = 0\n", to);
        if parses(&new) {
            check(name, old, &new);
        } else {
            eprintln!("{name}: does not parse");
        }
    }
}

// ---- exhaustive single-character edits -----------------------------------------------------------------

/// Every insertion of each of `chars` at every char boundary, and every deletion of one char, of
/// `old` that parses and keeps the `\n` count: `extract_with` old->new and new->old (full stage)
/// must equal `extract`. Returns (edits tried, edits with reuse, failures).
fn sweep(name: &str, old: &str, chars: &[&str]) -> (usize, usize, Vec<String>) {
    let o = Options::new("test_example.py");
    let mut base = Memo::new();
    let _ = extract_with(old, &o, &mut base);
    let want_old = extract(old, &o);
    let mut tried = 0;
    let mut with_reuse = 0;
    let mut failures = Vec::new();
    let boundaries: Vec<usize> = old
        .char_indices()
        .map(|(i, _)| i)
        .chain([old.len()])
        .collect();
    let mut news: Vec<(String, String)> = Vec::new();
    for &i in &boundaries {
        for c in chars {
            news.push((
                format!("insert {c:?} at {i}"),
                format!("{}{c}{}", &old[..i], &old[i..]),
            ));
        }
        if i < old.len() {
            let ch = old[i..].chars().next().unwrap();
            if ch != '\n' {
                news.push((
                    format!("delete {ch:?} at {i}"),
                    format!("{}{}", &old[..i], &old[i + ch.len_utf8()..]),
                ));
            }
        }
    }
    for (what, new) in news {
        if new.matches('\n').count() != old.matches('\n').count() || !parses(&new) {
            continue;
        }
        tried += 1;
        let want_new = extract(&new, &o);
        let mut m = Memo::new();
        let _ = extract_with(old, &o, &mut m);
        let got = extract_with(&new, &o, &mut m);
        let r1 = m.last_reuse().reused;
        let back = extract_with(old, &o, &mut m);
        let r2 = m.last_reuse().reused;
        if r1 + r2 > 0 {
            with_reuse += 1;
        }
        if got != want_new {
            failures.push(format!(
                "{name}: {what} (forward, reused {r1}):\n{}",
                first_difference(&got, &want_new)
            ));
        }
        if back != want_old {
            failures.push(format!(
                "{name}: {what} (back, reused {r2}):\n{}",
                first_difference(&back, &want_old)
            ));
        }
        // And from a fresh memo of the new text back to the old.
        let mut m2 = Memo::new();
        let _ = extract_with(&new, &o, &mut m2);
        let back2 = extract_with(old, &o, &mut m2);
        if back2 != want_old {
            failures.push(format!(
                "{name}: {what} (new->old fresh, reused {}):\n{}",
                m2.last_reuse().reused,
                first_difference(&back2, &want_old)
            ));
        }
    }
    eprintln!(
        "{name}: {tried} edits parse, {with_reuse} reused something, {} failures",
        failures.len()
    );
    (tried, with_reuse, failures)
}

const SWEEP_CHARS: &[&str] = &[
    "1", "x", " ", ";", "#", "\\", ",", ")", "\t", "\x0c", "\u{2028}", "\u{85}", "é", "_", "\"",
    "*", "=",
];

#[test]
fn sweep_ends() {
    let (_, reused, failures) = sweep("sweep_ends", ENDS, SWEEP_CHARS);
    assert!(reused > 0);
    assert!(
        failures.is_empty(),
        "{}",
        failures[..failures.len().min(5)].join("\n\n")
    );
}

#[test]
fn sweep_params() {
    let (_, reused, failures) = sweep("sweep_params", PARAMS, SWEEP_CHARS);
    assert!(reused > 0);
    assert!(
        failures.is_empty(),
        "{}",
        failures[..failures.len().min(5)].join("\n\n")
    );
}

#[test]
fn sweep_mixed() {
    let old = "import random\nimport pytest\n\nfrom solution import add, Counter\n\nDATA = [1, 2]\nK = 3\n\n\ndef helper(x):\n    return x + K\n\n\n@pytest.fixture\ndef pair():\n    return (1, 2)\n\n\n@pytest.fixture(params=[1, 2])\ndef num(request):\n    return request.param\n\n\ndef test_a(pair):\n    random.seed(1)\n    assert add(*pair) == 3\n\n\nclass TestC:\n    def setup_method(self):\n        self.c = Counter(1)\n\n    def test_m(self):\n        assert self.c.value == 1\n\n    def test_n(self, num):\n        assert add(num, helper(0)) == num + 3\n\n\ndef test_b():\n    assert add(len(DATA), K) == 5\n\n\nasync def test_d():\n    assert add(1, 1) == 2\n";
    let (_, reused, failures) = sweep("sweep_mixed", old, SWEEP_CHARS);
    assert!(reused > 0);
    assert!(
        failures.is_empty(),
        "{}",
        failures[..failures.len().min(5)].join("\n\n")
    );
}

// ---- aliases and implicit names ------------------------------------------------------------------

/// A class-level alias of a method (`test_x = check`), a module-level alias of a test, and a
/// module-level `__import__` function (the flattening spells `__import__("sys")`), each edited.
#[test]
fn aliases_and_implicit_names() {
    let old = "import sys\n\nfrom solution import add\n\n\ndef __import__(*a):\n    w = 0\n    return None\n\n\nclass TestC:\n    def check(self):\n        w = 0\n        assert add(1, 1) == 2\n\n    test_x = check\n\n    def test_y(self):\n        assert add(sys.maxsize, 0) == sys.maxsize\n\n\ndef test_a():\n    w = 0\n    assert add(2, 2) == 4\n\n\ntest_alias = test_a\n\n\ndef test_b():\n    assert add(len(sys.platform), 0) > 0\n";
    let new = edit(
        old,
        "    w = 0\n    return None\n",
        "    w = 0\n    return 1234\n",
    );
    check("module_dunder_import_edited", old, &new);
    let new2 = edit(old, "add(1, 1) == 2", "add(1, 1) == 3");
    check("class_alias_of_method_edited", old, &new2);
    let new3 = edit(old, "add(2, 2) == 4", "add(2, 2) == 5");
    check("module_alias_of_test_edited", old, &new3);
}

/// The edited test rebinds its own name, and a helper named like a builtin is edited.
#[test]
fn self_rebinding_and_builtin_named_helper() {
    let old = "from solution import add\n\n\ndef test_a():\n    w = 0\n    assert add(1, 1) == 2\n\n\ndef sorted(xs):\n    w = 0\n    return xs\n\n\ndef test_b():\n    assert add(2, 2) == 4\n";
    let new = edit(
        old,
        "    w = 0\n    assert add(1, 1)",
        "    w = 0; global test_a; test_a = 1\n    assert add(1, 1)",
    );
    check("test_rebinds_itself", old, &new);
    let new2 = edit(old, "    return xs\n", "    return []\n");
    check("builtin_named_helper_edited", old, &new2);
}

// ---- options the memo must not reuse across --------------------------------------------------------

/// The pytest version changes the ids of long string parameters: the memo keeps no test's
/// flattening across a change of version (the page's settings can change it between keystrokes).
#[test]
fn a_change_of_pytest_version_is_not_reused() {
    let long = "x".repeat(120);
    let text = format!(
        "import pytest\n\n@pytest.mark.parametrize(\"s\", [\"{long}\"])\ndef test_long(s):\n    assert len(s) == 120\n"
    );
    let mut m = Memo::new();
    let mut o = Options::new("test_example.py");
    for version in ["9.0", "9.2", "9.0"] {
        o.pytest_version = bench_explorer::PytestVersion::parse(version).unwrap();
        let got = extract_with(&text, &o, &mut m);
        assert!(
            got == extract(&text, &o),
            "{version}: {}",
            first_difference(&got, &extract(&text, &o))
        );
    }
    assert_eq!(
        extract_with(&text, &o, &mut m).assertions[0].test,
        format!("test_long[{long}]")
    );
    o.pytest_version = bench_explorer::PytestVersion::parse("9.2").unwrap();
    assert_eq!(
        extract_with(&text, &o, &mut m).assertions[0].test,
        "test_long[s0]"
    );
}
