//! Portable output: a kept expression must parse under every Python the input file parses under,
//! from 3.9 on. ruff's parser reports syntax newer than a target version (an f-string nesting the
//! quotes that encloses it, `except*`, …) as unsupported-syntax errors; none may appear at 3.9.

use crate::walk::visitor::{walk_expr, Visitor};
use ruff_python_ast::{Comprehension, Expr, PythonVersion};
use ruff_python_parser::{parse, Mode, ParseOptions};
use rustc_hash::FxHashMap;

/// Whether `expr` parses as an expression under Python 3.9 (and so under every later version).
pub fn parses_everywhere(expr: &str) -> bool {
    let options = ParseOptions::from(Mode::Expression).with_target_version(PythonVersion::PY39);
    parse(expr, options).is_ok_and(|parsed| parsed.unsupported_syntax_errors().is_empty())
}

/// Why CPython refuses to compile `expr`, for the rules a flattened expression can break: an
/// assignment expression anywhere in a comprehension's iterable (even inside a lambda there), or
/// one that rebinds the comprehension's own variable; or a syntax error (a flattening bug, which
/// must drop the assertion rather than emit it).
pub fn compile_error(expr: &str) -> Option<&'static str> {
    // The answer depends on the text alone, and the page re-extracts the whole file on every
    // keystroke: nearly every kept expression was checked by the previous extraction (and
    // parametrized or repeated tests repeat expressions within one), so answers are remembered.
    CHECKED.with(|checked| {
        if let Some(answer) = checked.borrow_mut().get(expr) {
            return answer;
        }
        let answer = check(expr);
        checked.borrow_mut().insert(expr, answer);
        answer
    })
}

/// How many answers, and how many bytes of expression text, each generation of the memory holds:
/// the kept expressions of a large file fit, and the memory stays small (two generations at most:
/// a file of long folded expressions, 2,000 of 37 KB each, would otherwise keep 74 MB).
const GENERATION: usize = 4096;
const GENERATION_BYTES: usize = 4 << 20;

thread_local! {
    static CHECKED: std::cell::RefCell<Checked> = Default::default();
}

/// `compile_error`'s answers by expression text, in two generations: when the current one is
/// full it becomes the previous one (and the one before is forgotten); an answer found in the
/// previous generation moves to the current one.
#[derive(Default)]
struct Checked {
    current: FxHashMap<Box<str>, Option<&'static str>>,
    /// Bytes of text in `current`'s keys.
    current_bytes: usize,
    previous: FxHashMap<Box<str>, Option<&'static str>>,
}

impl Checked {
    fn get(&mut self, expr: &str) -> Option<Option<&'static str>> {
        if let Some(&answer) = self.current.get(expr) {
            return Some(answer);
        }
        let (key, answer) = self.previous.remove_entry(expr)?;
        self.put(key, answer);
        Some(answer)
    }

    fn insert(&mut self, expr: &str, answer: Option<&'static str>) {
        self.put(expr.into(), answer);
    }

    fn put(&mut self, key: Box<str>, answer: Option<&'static str>) {
        if self.current.len() >= GENERATION || self.current_bytes + key.len() > GENERATION_BYTES {
            self.previous = std::mem::take(&mut self.current);
            self.current_bytes = 0;
        }
        self.current_bytes += key.len();
        self.current.insert(key, answer);
    }
}

/// `compile_error` without the memory.
fn check(expr: &str) -> Option<&'static str> {
    // One parse answers both questions: the target version only adds "unsupported syntax" errors
    // to what the parser accepts, it does not change what is a syntax error (this runs for every
    // kept assertion, and a second parse was a tenth of a large file's extraction).
    let options = ParseOptions::from(Mode::Expression).with_target_version(PythonVersion::PY39);
    let Ok(parsed) = parse(expr, options) else {
        return Some("a syntax error");
    };
    if !parsed.unsupported_syntax_errors().is_empty() {
        return Some("syntax that Python 3.9 does not parse");
    }
    let Some(body) = parsed.syntax().as_expression() else {
        return Some("a syntax error");
    };
    let mut check = CompileCheck { error: None };
    check.visit_expr(&body.body);
    check.error
}

struct CompileCheck {
    error: Option<&'static str>,
}

#[derive(Default)]
struct Walruses {
    targets: Vec<String>,
    /// Assignment expressions outside nested lambdas (those bind in the comprehension's scope).
    direct: Vec<String>,
    lambda_depth: u32,
}

impl Visitor<'_> for Walruses {
    fn visit_expr(&mut self, expr: &Expr) {
        match expr {
            Expr::Named(n) => {
                if let Expr::Name(t) = n.target.as_ref() {
                    self.targets.push(t.id.to_string());
                    if self.lambda_depth == 0 {
                        self.direct.push(t.id.to_string());
                    }
                }
                walk_expr(self, expr);
            }
            Expr::Lambda(_) => {
                self.lambda_depth += 1;
                walk_expr(self, expr);
                self.lambda_depth -= 1;
            }
            _ => walk_expr(self, expr),
        }
    }
}

impl CompileCheck {
    fn generators(&mut self, generators: &[Comprehension], parts: &[&Expr]) {
        let mut variables = Vec::new();
        for g in generators {
            let mut w = Walruses::default();
            w.visit_expr(&g.iter);
            if !w.targets.is_empty() {
                self.error = Some("an assignment expression in a comprehension's iterable");
            }
            collect_names(&g.target, &mut variables);
        }
        let mut w = Walruses::default();
        for part in parts {
            w.visit_expr(part);
        }
        for g in generators {
            for cond in &g.ifs {
                w.visit_expr(cond);
            }
        }
        if w.direct.iter().any(|n| variables.contains(n)) {
            self.error = Some("an assignment expression that rebinds a comprehension variable");
        }
    }
}

fn collect_names(target: &Expr, out: &mut Vec<String>) {
    match target {
        Expr::Name(n) => out.push(n.id.to_string()),
        Expr::Tuple(t) => t.elts.iter().for_each(|e| collect_names(e, out)),
        Expr::List(l) => l.elts.iter().for_each(|e| collect_names(e, out)),
        Expr::Starred(s) => collect_names(&s.value, out),
        _ => {}
    }
}

impl Visitor<'_> for CompileCheck {
    fn visit_expr(&mut self, expr: &Expr) {
        if self.error.is_some() {
            return;
        }
        match expr {
            Expr::ListComp(c) => self.generators(&c.generators, &[&c.elt]),
            Expr::SetComp(c) => self.generators(&c.generators, &[&c.elt]),
            Expr::Generator(c) => self.generators(&c.generators, &[&c.elt]),
            // A `yield` makes the lambda around it a generator function (always truthy), and
            // `await` is refused outside `async def`.
            Expr::Yield(_) | Expr::YieldFrom(_) => {
                self.error = Some("a `yield`, which would make it a generator");
                return;
            }
            Expr::Await(_) => {
                self.error = Some("an `await`, which only an `async def` may hold");
                return;
            }
            Expr::DictComp(c) => {
                let mut parts: Vec<&Expr> = vec![&c.value];
                parts.extend(c.key.as_deref());
                self.generators(&c.generators, &parts);
            }
            _ => {}
        }
        walk_expr(self, expr);
    }
}

#[cfg(test)]
mod tests {
    use super::{check, compile_error, parses_everywhere, Checked, GENERATION, GENERATION_BYTES};

    #[test]
    fn remembered_answers_are_the_answers() {
        let exprs = [
            "[x for x in [(y := 1)]]",
            "f(1) ==( 2",
            "add(1, 2) == 3",
            r#"f"{"Ada"}""#,
        ];
        for _ in 0..2 {
            for e in exprs {
                assert_eq!(compile_error(e), check(e), "{e}");
            }
        }
        let mut checked = Checked::default();
        for i in 0..=GENERATION {
            assert_eq!(checked.get(&format!("f({i})")), None);
            checked.insert(&format!("f({i})"), Some("why"));
        }
        // The first generation rolled over: its answers are still there, and move back.
        assert_eq!(checked.current.len(), 1);
        assert_eq!(checked.get("f(0)"), Some(Some("why")));
        assert_eq!(checked.current.len(), 2);
        assert_eq!(checked.get(&format!("f({GENERATION})")), Some(Some("why")));
        assert_eq!(checked.get("f(-1)"), None);
    }

    #[test]
    fn the_memory_holds_a_bounded_amount_of_text() {
        let mut checked = Checked::default();
        let long = |i: usize| format!("f({i}) == {}", "1 + ".repeat(10_000));
        for i in 0..1_000 {
            checked.insert(&long(i), None);
            let held: usize = checked
                .current
                .keys()
                .chain(checked.previous.keys())
                .map(|k| k.len())
                .sum();
            assert!(held <= 2 * GENERATION_BYTES, "{held} bytes after {i}");
        }
        // The latest are still answered.
        assert_eq!(checked.get(&long(999)), Some(None));
    }

    #[test]
    fn what_cpython_refuses_to_compile() {
        assert!(compile_error("[x for x in (lambda: [(y := 1)])()]").is_some());
        assert!(compile_error("[x for x in [(y := 1)]]").is_some());
        assert!(compile_error("[(x := 2) for x in range(3)]").is_some());
        assert!(compile_error("{k: (k := 1) for k in 'ab'}").is_some());
        assert!(compile_error("[(y := x) for x in range(3)]").is_none());
        assert!(compile_error("[(lambda: (x := 2))() for x in range(3)]").is_none());
        assert!(compile_error("(lambda: (y := [1], [x for x in y])[-1])()").is_none());
        assert_eq!(compile_error("f(1) ==( 2"), Some("a syntax error"));
        assert!(compile_error("(lambda s=s: ((yield s(4)), s(3) == 9)[-1])()").is_some());
        assert!(compile_error("(lambda: (await g()))()").is_some());
        assert!(compile_error("w()[*-1] == 1").is_some());
    }

    #[test]
    fn nested_quotes_in_an_f_string_need_python_3_12() {
        assert!(parses_everywhere(r#"f"Hello, {'Ada'}!""#));
        assert!(!parses_everywhere(r#"f"Hello, {"Ada"}!""#));
        assert!(!parses_everywhere(r#"f"{'\x1b[31m'}""#));
        assert!(parses_everywhere("(lambda: (x := 1, x == 1)[-1])()"));
        assert!(!parses_everywhere("f("));
    }
}
