//! The teaching pages: one per shape of quiet measurement bug, and the first-visit introduction.
//! Plain text with `code` marks (rendered by `markdown::inlines` as text nodes, never as HTML).

use bench_explorer::model::Stage;
use bench_explorer::shape::Shape;

pub struct Lesson {
    pub shape: Shape,
    /// One sentence: what the shape is.
    pub summary: &'static str,
    /// A minimal pytest example of it.
    pub example: &'static str,
    /// What it did to the bench in the write-up.
    pub went_wrong: &'static [&'static str],
    /// What bench-explorer's extractor does with it now.
    pub now: &'static [&'static str],
    /// How each stage treats it, in [`Stage::ALL`] order.
    pub stages: [&'static str; 4],
    /// A bench problem that shows it, and the stage to look at first.
    pub try_problem: &'static str,
    pub try_stage: Stage,
}

pub static LESSONS: [Lesson; 7] = [
    Lesson {
        shape: Shape::VariableThenAssert,
        summary: "The test stores the answer in a local variable and asserts on the variable, the way most people write pytest.",
        example: "def test_classic_hit_to_cog():\n    result = word_ladder(\"hit\", \"cog\", WORDS)\n    assert result == 5",
        went_wrong: &[
            "The loop copied only the `assert` lines, so it checked `result == 5` on its own. In the namespace where that runs there is no `result`: the check raised `NameError` and was recorded as a failure of the model's code.",
            "On the word-ladder problem six of seven checks had this form. Only the one written inline, `word_ladder('a', 'c', ['a', 'b', 'c']) == 2`, could pass, so a textbook-correct answer scored 1 of 7 on every retry, and the problem looked too hard for the model.",
        ],
        now: &[
            "Assignments are tracked in the order the test runs them, and a name in an assertion is replaced by the value it holds at that point: `word_ladder(\"hit\", \"cog\", [...]) == 5`. Module-level constants such as `WORDS` are inlined the same way.",
            "When a value cannot be pinned down (reassigned in a loop, changed through a method, built by a helper in the test file) the assertion is dropped with a reason naming the variable, never kept half-resolved.",
        ],
        stages: [
            "Kept verbatim: `result == 5`, which fails with NameError.",
            "Inlined: `word_ladder(...) == 5`.",
            "Inlined, as in the six-shape stage.",
            "Inlined, with constants and unpacked tuples too; anything it cannot pin down is dropped with a reason.",
        ],
        try_problem: "word_ladder",
        try_stage: Stage::AsWritten,
    },
    Lesson {
        shape: Shape::InstanceWithSideEffects,
        summary: "The test builds an object, changes it through method calls, then asserts on its state.",
        example: "def test_eviction():\n    cache = LRUCache(2)\n    cache.put(1, \"a\")\n    cache.put(2, \"b\")\n    cache.put(3, \"c\")\n    assert cache.get(1) is None",
        went_wrong: &[
            "Inlining alone would turn `cache.get(1)` into `LRUCache(2).get(1)`: a fresh, empty cache without the three `put` calls. That check tests the wrong state and can pass or fail for the wrong reason.",
            "The write-up's fix forgets a variable as soon as a method is called on it, so those assertions fall through to the unresolved-name net and are dropped with a warning. The stateful tests of both LRU problems stayed unmeasured (only checks on a fresh cache were kept): \"no clean way to fold three lines of imperative setup into a single boolean expression\".",
        ],
        now: &[
            "The faithful stage folds the setup into the assertion, in order, inside one expression: `(lambda: [cache := LRUCache(2)] and [cache.put(1, \"a\")] and ... and cache.get(1) is None)()`. It runs every call the test ran, on one object, in order (each step in a one-element list, which is always true), and evaluates to the assertion's truth.",
            "Each assertion is self-contained: a later assert in the same test repeats the setup and the earlier asserts, so evaluating it never depends on another check having run first. Setup it cannot fold exactly (a `with` block, a loop, a `try`) makes it drop the assertion instead.",
        ],
        stages: [
            "Kept verbatim: `cache.get(1) is None` with `cache` undefined.",
            "`cache` is forgotten after `cache.put(...)`; the assertion is dropped as unresolved.",
            "Dropped, as in the six-shape stage.",
            "The setup is folded in order into one expression, and the assertion is kept.",
        ],
        try_problem: "lru_cache",
        try_stage: Stage::SixShapes,
    },
    Lesson {
        shape: Shape::ParametrizedInputs,
        summary: "`@pytest.mark.parametrize` supplies the test's arguments, one set per case.",
        example: "@pytest.mark.parametrize(\"arr, target, expected\", [\n    ([1, 3, 5, 6], 0, 0),\n    ([2], 3, 1),\n])\ndef test_edges(arr, target, expected):\n    assert search_insert(arr, target) == expected",
        went_wrong: &[
            "Outside pytest nothing binds `arr`, `target` or `expected`: copied verbatim the assertion raises `NameError` for every case. The write-up's safety net turned that into a drop with a warning, which avoids the false failure but leaves the test unmeasured.",
        ],
        now: &[
            "Each case becomes its own assertion with the case's values substituted, named the way pytest names it (`test_edges[arr0-0-0]`, or the case's `id=`), so a result can be matched against pytest's own report.",
            "Cases marked `skip` or `xfail` are never kept as passing checks, and a parametrize list that is computed rather than written out is dropped with that reason.",
        ],
        stages: [
            "Kept verbatim with the parameters undefined.",
            "Dropped: the parameters are unresolved.",
            "Dropped, as in the six-shape stage.",
            "Expanded: one kept assertion per case.",
        ],
        try_problem: "search_insert_position",
        try_stage: Stage::SevenShapes,
    },
    Lesson {
        shape: Shape::SlugNameMismatch,
        summary: "The problem's slug is not the name of the function the tests call.",
        example: "# problem slug: dijkstra_shortest_path\n_solution = _load_solution()\nshortest_path = _solution.shortest_path\n\ndef test_far_node(graph):\n    assert shortest_path(graph, \"A\", \"F\")[0] == 20",
        went_wrong: &[
            "An evaluator that knows only the slug's name cannot resolve `shortest_path` or `dijkstra`, so every check of those problems failed, whatever the model wrote. In the write-up seven problems were blocked this way, the largest group of all.",
            "The fix was about ten lines: every name the test file pulls from `_load_solution()` joins the set of names an assertion may use.",
        ],
        now: &[
            "Every route to the solution counts the same: `_load_solution().f`, `from solution import f`, `import solution` with `solution.f(...)`, and aliases (`from solution import f as g` is kept as `f(...)`).",
            "The mismatch is still reported as a finding, because a statement that never names `shortest_path` invites a solution that defines only `dijkstra_shortest_path`.",
        ],
        stages: [
            "Kept verbatim; the names resolve only if the model happened to use them.",
            "Names loaded through `_load_solution()` are trusted.",
            "The same.",
            "Every import route to the solution is followed, aliases are rewritten, and the mismatch is reported.",
        ],
        try_problem: "dijkstra_shortest_path",
        try_stage: Stage::SixShapes,
    },
    Lesson {
        shape: Shape::HelperAssertion,
        summary: "An `assert` outside any test, such as a sanity check in the helper that loads the solution.",
        example: "def _load_solution():\n    spec = importlib.util.spec_from_file_location(\"solution\", path)\n    assert spec.loader is not None\n    ...",
        went_wrong: &[
            "The extractor took every `assert` in the file, so this one was checked against the model's code too. It refers to `spec`, a local of the helper, and failed every time: a check of the test file's own plumbing counted against the model.",
        ],
        now: &[
            "An assert outside a test is a check only as part of what calls it. In a helper a test calls as a statement (HumanEval's `check(candidate)`), each assert is a check of that test, written with the helper as a lambda bound to the call's arguments. The loader's own asserts check the harness, not the solution: they are reported as a finding on their line, as is any assert no test reaches, counted as not seen where pytest may still run it.",
        ],
        stages: [
            "Kept verbatim, and fails.",
            "Dropped by the unresolved-name net (`spec` is unresolved).",
            "Dropped, as in the six-shape stage.",
            "The loader's assert is no check of the solution: reported as a finding, not extracted.",
        ],
        try_problem: "word_ladder",
        try_stage: Stage::AsWritten,
    },
    Lesson {
        shape: Shape::HiddenSpecRule,
        summary: "The tests rely on a convention that the problem statement never states.",
        example: "# statement: \"returns the digits\"\nassert clean_phone(\"1-555-123-4567\") == \"5551234567\"",
        went_wrong: &[
            "The clean-phone statement asked for the digits of a phone number. The tests expected a leading country code 1 to be stripped, a US dialing convention the statement never mentioned. The model wrote a literally correct keep-the-digits function and the tests rejected it.",
            "No extractor can fix this: the assertions were extracted correctly. The fault was in the statement, a different layer with the same outcome: the bench rejected a reasonable answer.",
        ],
        now: &[
            "Each problem's `meta.toml` lists the conventions its tests rely on, and the audit checks that every one of them appears in the statement. A convention the statement leaves out is reported as this shape.",
            "The clean-phone statement has been rewritten to state the rule; the Problem tab shows the original beside the fixed one.",
        ],
        stages: [
            "Not visible to any extractor: the statement is the problem.",
            "Not visible to any extractor.",
            "Not visible to any extractor.",
            "Checked by the audit against each problem's listed conventions.",
        ],
        try_problem: "clean_phone",
        try_stage: Stage::Full,
    },
    Lesson {
        shape: Shape::StdlibReference,
        summary: "An assertion, once inlined, refers to a module the test file imported, such as `random` or `math`.",
        example: "import bisect\nimport random\n\ndef test_random_sample_against_a_running_count():\n    random.seed(2024)\n    data = random.sample(range(100000), 5000)\n    expected = 0\n    seen = []\n    for value in data:\n        position = bisect.bisect_right(seen, value)\n        expected += len(seen) - position\n        seen.insert(position, value)\n    assert count_inversions(data) == expected",
        went_wrong: &[
            "The six-shape fix trusted the test file's imports, so `random` looked resolved and the assertion was kept. But the loop evaluates assertions in the solution's namespace, which imports nothing for the tests: `random` was undefined there.",
            "Worse, `expected` was inlined from its first value, `expected = 0`, missing the `+=` in the loop. The kept check read `count_inversions(random.sample(...)) == 0`: wrong twice. The fix removed the one line that trusted imports; the assertion is now dropped with a warning.",
        ],
        now: &[
            "A test-file import of the standard library is spelled out where an assertion reads it: `random.sample(...)` becomes `__import__(\"random\").sample(...)`, the very module pytest's test file had, whatever the solution binds under that name. Any other import is not in the solution's namespace: an assertion that still needs one is dropped, naming the module.",
            "A variable updated after its assignment (`+=`, a loop, a method call) is never inlined from its first value.",
        ],
        stages: [
            "Kept verbatim with `data` and `expected` undefined.",
            "Kept: `random` is trusted and `expected` is inlined as `0`, a wrong check.",
            "Dropped: `random` is not in the solution's namespace.",
            "Dropped, naming the loop: `random` is spelled `__import__(\"random\")`, but `expected` is built in a loop, and loop-updated values are never inlined.",
        ],
        try_problem: "count_inversions",
        try_stage: Stage::SixShapes,
    },
];

pub fn lesson(shape: Shape) -> &'static Lesson {
    LESSONS
        .iter()
        .find(|l| l.shape == shape)
        .expect("every shape has a lesson")
}

/// What each stage is, in one line, for the stage switch.
pub fn stage_blurb(stage: Stage) -> &'static str {
    match stage {
        Stage::AsWritten => "Every `assert` taken verbatim, helper asserts included: the bench loop before any fix.",
        Stage::SixShapes => "The write-up's first fix: inline locals, forget mutated objects, drop what stays unresolved.",
        Stage::SevenShapes => "The write-up's last fix: as the six-shape fix, but test-file imports are no longer trusted.",
        Stage::Full => "Ours: folds setup, expands parametrize, inlines fixtures; drops only what it cannot make exact.",
    }
}

/// A short name for the stage switch's buttons.
pub fn stage_short(stage: Stage) -> &'static str {
    match stage {
        Stage::AsWritten => "As written",
        Stage::SixShapes => "Six-shape fix",
        Stage::SevenShapes => "Seven-shape fix",
        Stage::Full => "Faithful",
    }
}

/// The first-visit introduction, in paragraphs.
pub static INTRO: &[&str] = &[
    "A coding loop grades itself on 21 test problems: it pulls the assertions out of each problem's pytest file and checks the model's code against them. One problem failed every time, 6 of 7 assertions, and it looked like a problem the model could not solve.",
    "The model's code was right. The assertions were broken by the extraction code: `assert result == 5` was checked without the line that set `result`. Auditing the whole bench turned up seven shapes of such quiet bugs, six in the extractor and one in a problem statement. After the six-shape fix 20 of 21 problems passed first try, 147 of 148 assertions; the seventh-shape fix made it 21 of 21.",
    "This page runs that extractor in your browser, at each stage of the story, on the bench's own files or on any pytest file you paste, open or drop here.",
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_lesson_per_shape_in_order() {
        assert_eq!(LESSONS.len(), Shape::ALL.len());
        for (l, s) in LESSONS.iter().zip(Shape::ALL) {
            assert_eq!(l.shape, s);
            assert!(!l.summary.is_empty() && !l.example.is_empty());
            assert!(!l.went_wrong.is_empty() && !l.now.is_empty());
        }
    }
}
