//! Tests as pytest collects them, expanded into cases: module-level `test*` functions and `test*`
//! methods of `Test*` classes (nested classes too), one case per parametrize combination, with the
//! node id pytest prints and what pytest's marks say about running it.

use rustc_hash::FxHashMap as HashMap;

use ruff_python_ast::{self as ast, Expr, Stmt};
use ruff_text_size::{Ranged, TextRange};

use crate::module::{Global, ModuleScope};
use crate::source::SourceMap;

/// Parametrize combinations expanded per test at most.
const MAX_CASES: usize = 10_000;

/// One test case: one function (one parametrize combination of it).
pub struct Case<'a> {
    /// The pytest node id without the file part.
    pub id: String,
    pub func: &'a ast::StmtFunctionDef,
    /// Whether the function is a method of a test class (its first parameter is the instance).
    pub is_method: bool,
    /// Parameter values from parametrize, by argument name.
    pub params: Vec<(String, &'a Expr)>,
    /// For each of `params`, the source range of the case it came from.
    pub param_ranges: Vec<TextRange>,
    /// Why pytest will not run this case as a passing check (skip, xfail, not collected…).
    pub not_run: Option<String>,
    /// Whether the function is parametrized (even when its cases could not be expanded).
    pub parametrized: bool,
    /// Fixtures requested by `usefixtures`, and setup methods, that run before the test.
    pub setup: Vec<(u32, String)>,
}

/// Every test case of the module, in source order.
pub fn collect<'a>(body: &'a [Stmt], scope: &ModuleScope<'a>, map: &SourceMap) -> Vec<Case<'a>> {
    let module_marks = pytestmark(body);
    let mut out = Vec::new();
    collect_in(body, scope, map, "", &module_marks, &[], &mut out);
    out
}

fn pytestmark(body: &[Stmt]) -> Vec<&Expr> {
    let mut marks = Vec::new();
    for stmt in body {
        if let Stmt::Assign(a) = stmt {
            if matches!(a.targets.as_slice(), [Expr::Name(n)] if n.id.as_str() == "pytestmark") {
                match a.value.as_ref() {
                    Expr::List(l) => marks.extend(l.elts.iter()),
                    Expr::Tuple(t) => marks.extend(t.elts.iter()),
                    other => marks.push(other),
                }
            }
        }
    }
    marks
}

fn collect_in<'a>(
    body: &'a [Stmt],
    scope: &ModuleScope<'a>,
    map: &SourceMap,
    prefix: &str,
    outer_marks: &[&'a Expr],
    outer_setup: &[(u32, String)],
    out: &mut Vec<Case<'a>>,
) {
    // pytest collects a name once: a later definition replaces an earlier one.
    let mut last_def: HashMap<&str, usize> = HashMap::default();
    for (i, stmt) in body.iter().enumerate() {
        if let Stmt::FunctionDef(f) = stmt {
            last_def.insert(f.name.as_str(), i);
        }
    }
    let in_class = !prefix.is_empty();
    for (i, stmt) in body.iter().enumerate() {
        match stmt {
            Stmt::FunctionDef(f) if f.name.starts_with("test") => {
                let mut marks: Vec<&Expr> =
                    f.decorator_list.iter().map(|d| &d.expression).collect();
                marks.extend(outer_marks.iter().copied());
                let shadowed = last_def.get(f.name.as_str()).copied().filter(|&j| j != i);
                let mut cases = expand(f, &marks, scope, map, prefix, in_class);
                for case in &mut cases {
                    case.setup.extend(outer_setup.iter().cloned());
                    if let Some(j) = shadowed {
                        let line = map.line(body[j].range().start());
                        case.not_run = Some(format!(
                            "a later definition of `{}` (line {line}) replaces this one; pytest never runs it",
                            f.name
                        ));
                    }
                    if f.is_async {
                        case.not_run.get_or_insert_with(|| {
                            "an `async def` test needs a plugin to run under pytest".to_string()
                        });
                    }
                }
                out.extend(cases);
            }
            Stmt::ClassDef(c) if c.name.starts_with("Test") => {
                let mut marks: Vec<&Expr> =
                    c.decorator_list.iter().map(|d| &d.expression).collect();
                marks.extend(pytestmark(&c.body));
                marks.extend(outer_marks.iter().copied());
                let mut setup: Vec<(u32, String)> = outer_setup.to_vec();
                let mut has_init = false;
                for s in &c.body {
                    if let Stmt::FunctionDef(m) = s {
                        match m.name.as_str() {
                            "__init__" | "__new__" => has_init = true,
                            "setup_method" | "setup" | "setup_class" | "setUp" => setup.push((
                                map.line(m.range.start()),
                                format!(
                                    "`{}.{}` (line {}) runs before each test",
                                    c.name,
                                    m.name,
                                    map.line(m.range.start())
                                ),
                            )),
                            _ => {}
                        }
                    }
                }
                // pytest does not collect a class with a constructor: its methods are not tests,
                // and their asserts are reported as helper assertions.
                if !has_init {
                    let class_prefix = format!("{prefix}{}::", c.name);
                    collect_in(&c.body, scope, map, &class_prefix, &marks, &setup, out);
                }
            }
            _ => {}
        }
    }
}

/// One parametrize decorator, parsed.
struct Parametrize<'a> {
    names: Vec<String>,
    /// Per case: values, the case's range, its explicit id, its marks.
    cases: Vec<ParamCase<'a>>,
    problem: Option<String>,
}

struct ParamCase<'a> {
    values: Vec<&'a Expr>,
    range: TextRange,
    id: String,
    not_run: Option<String>,
}

fn expand<'a>(
    f: &'a ast::StmtFunctionDef,
    marks: &[&'a Expr],
    scope: &ModuleScope<'a>,
    map: &SourceMap,
    prefix: &str,
    in_class: bool,
) -> Vec<Case<'a>> {
    let mut not_run: Option<String> = None;
    let mut setup = Vec::new();
    let mut parametrizes = Vec::new();
    for mark in marks {
        let line = map.line(mark.range().start());
        let Some(path) = scope.pytest_path(mark) else {
            // A decorator that is not a pytest mark may change how the test runs (mock.patch,
            // hypothesis, retries): the extractor cannot reproduce it.
            let own = f
                .decorator_list
                .iter()
                .any(|d| std::ptr::eq(&d.expression, *mark));
            let harmless = matches!(mark, Expr::Name(n) if matches!(n.id.as_str(), "staticmethod" | "classmethod"));
            if own && !harmless {
                not_run.get_or_insert(format!(
                    "the test is decorated with `@{}` (line {line}), which may change how it runs",
                    map.snippet(mark.range())
                ));
            }
            continue;
        };
        // Name the decorator as written when it is an alias (`@skip_me`).
        let written = map.snippet(mark.range());
        let via = if written.starts_with("pytest.") || written.starts_with("mark.") {
            String::new()
        } else {
            format!(" through `@{written}`")
        };
        match path.as_str() {
            "pytest.mark.skip" => {
                not_run.get_or_insert(format!(
                    "marked `skip`{via} (line {line}): pytest does not run it"
                ));
            }
            "pytest.mark.skipif" => {
                not_run.get_or_insert(format!(
                    "marked `skipif`{via} (line {line}): pytest may not run it"
                ));
            }
            "pytest.mark.xfail" => {
                not_run.get_or_insert(format!(
                    "marked `xfail`{via} (line {line}): pytest expects it to fail"
                ));
            }
            "pytest.mark.usefixtures" => {
                setup.push((
                    line,
                    format!("`usefixtures` (line {line}) runs fixtures before the test"),
                ));
            }
            "pytest.mark.parametrize" => {
                if let Expr::Call(call) = mark {
                    parametrizes.push(parse_parametrize(call, scope, map));
                }
            }
            _ => {}
        }
    }
    let base = format!("{prefix}{}", f.name);
    let mut cases = vec![Case {
        id: base.clone(),
        func: f,
        is_method: in_class,
        params: Vec::new(),
        param_ranges: Vec::new(),
        not_run: not_run.clone(),
        parametrized: !parametrizes.is_empty(),
        setup,
    }];
    if parametrizes.is_empty() {
        return cases;
    }
    // Decorators apply bottom-up: the one nearest the function is the outer loop and comes first in
    // the id. `marks` lists the function's decorators top-down, then the class's.
    let mut order: Vec<&Parametrize> = Vec::new();
    let function_count = f.decorator_list.len();
    let (own, outer): (Vec<_>, Vec<_>) = parametrizes
        .iter()
        .zip(
            marks
                .iter()
                .filter(|m| scope.pytest_path(m).as_deref() == Some("pytest.mark.parametrize")),
        )
        .partition(|(_, m)| {
            f.decorator_list[..function_count]
                .iter()
                .any(|d| std::ptr::eq(&d.expression, **m))
        });
    order.extend(own.iter().rev().map(|(p, _)| *p));
    order.extend(outer.iter().map(|(p, _)| *p));
    let mut ids: Vec<Vec<String>> = vec![Vec::new()];
    for p in &order {
        if let Some(problem) = &p.problem {
            for case in &mut cases {
                case.not_run.get_or_insert(problem.clone());
            }
            return cases;
        }
        if cases.len().saturating_mul(p.cases.len()) > MAX_CASES {
            // Reported once, under the function's own id, like any parametrize it cannot expand.
            cases.truncate(1);
            cases[0].id = base.clone();
            cases[0].params.clear();
            cases[0].param_ranges.clear();
            cases[0].not_run = Some(format!(
                "parametrize on line {}: its stacked decorators make more than {MAX_CASES} cases, which the extractor does not expand",
                map.line(f.range.start())
            ));
            return cases;
        }
        let mut next_cases = Vec::new();
        let mut next_ids = Vec::new();
        for (case, id) in cases.iter().zip(ids.iter()) {
            for pc in &p.cases {
                let mut params = case.params.clone();
                params.extend(p.names.iter().cloned().zip(pc.values.iter().copied()));
                let mut ranges = case.param_ranges.clone();
                // One range per parameter: the case (of its own decorator) it came from.
                ranges.extend(p.names.iter().map(|_| pc.range));
                let mut new_id = id.clone();
                new_id.push(pc.id.clone());
                next_cases.push(Case {
                    id: String::new(),
                    func: f,
                    is_method: in_class,
                    params,
                    param_ranges: ranges,
                    not_run: case.not_run.clone().or_else(|| pc.not_run.clone()),
                    parametrized: true,
                    setup: case.setup.clone(),
                });
                next_ids.push(new_id);
            }
        }
        cases = next_cases;
        ids = next_ids;
    }
    for (case, id) in cases.iter_mut().zip(ids) {
        case.id = format!("{base}[{}]", id.join("-"));
    }
    cases
}

fn parse_parametrize<'a>(
    call: &'a ast::ExprCall,
    scope: &ModuleScope<'a>,
    map: &SourceMap,
) -> Parametrize<'a> {
    let line = map.line(call.range().start());
    let mut out = Parametrize {
        names: Vec::new(),
        cases: Vec::new(),
        problem: None,
    };
    let fail = |why: &str| Parametrize {
        names: Vec::new(),
        cases: Vec::new(),
        problem: Some(format!("parametrize on line {line}: {why}")),
    };
    let arg = |pos: usize, kw: &str| -> Option<&'a Expr> {
        call.arguments.args.get(pos).or_else(|| {
            call.arguments
                .keywords
                .iter()
                .find(|k| k.arg.as_ref().is_some_and(|a| a.as_str() == kw))
                .map(|k| &k.value)
        })
    };
    let keyword = |kw: &str| -> Option<&'a Expr> {
        call.arguments
            .keywords
            .iter()
            .find(|k| k.arg.as_ref().is_some_and(|a| a.as_str() == kw))
            .map(|k| &k.value)
    };
    // Argument names may come from a literal module constant.
    let argnames = match arg(0, "argnames") {
        Some(Expr::Name(n)) => match scope.globals.get(n.id.as_str()) {
            Some(Global::Constant { source, .. }) => Some(*source),
            _ => Some(arg(0, "argnames").unwrap()),
        },
        other => other,
    };
    match argnames {
        Some(Expr::StringLiteral(s)) => {
            out.names = s
                .value
                .to_str()
                .split(',')
                .map(|n| n.trim().to_string())
                .filter(|n| !n.is_empty())
                .collect();
        }
        Some(Expr::List(ast::ExprList { elts, .. }))
        | Some(Expr::Tuple(ast::ExprTuple { elts, .. })) => {
            for e in elts {
                match e {
                    Expr::StringLiteral(s) => out.names.push(s.value.to_str().to_string()),
                    _ => return fail("argument names are not literal strings"),
                }
            }
        }
        _ => return fail("argument names are not literal strings"),
    }
    if keyword("indirect").is_some_and(|e| !matches!(e, Expr::BooleanLiteral(b) if !b.value)) {
        return fail("`indirect` sends values through fixtures");
    }
    let values: Vec<&Expr> = match arg(1, "argvalues") {
        Some(Expr::List(l)) => l.elts.iter().collect(),
        Some(Expr::Tuple(t)) => t.elts.iter().collect(),
        Some(Expr::Name(n)) => match scope.globals.get(n.id.as_str()) {
            // A literal module constant the file never changes: expand its cases.
            Some(Global::Constant {
                source: Expr::List(l),
                ..
            }) => l.elts.iter().collect(),
            Some(Global::Constant {
                source: Expr::Tuple(t),
                ..
            }) => t.elts.iter().collect(),
            _ => {
                return fail(&format!(
                    "the cases come from `{}`, which the file computes",
                    n.id
                ))
            }
        },
        _ => return fail("the cases are not a literal list"),
    };
    // `*rest` among the cases or inside one: the values are only known at collection time.
    let starred = |e: &Expr| matches!(e, Expr::Starred(_));
    let inner_starred = |e: &Expr| match e {
        Expr::Tuple(t) => t.elts.iter().any(starred),
        Expr::List(l) => l.elts.iter().any(starred),
        Expr::Call(c) => c.arguments.args.iter().any(starred),
        _ => false,
    };
    if values.iter().any(|v| starred(v) || inner_starred(v)) {
        return fail(
            "the cases unpack values with `*`, so they are only known when pytest collects them",
        );
    }
    if values.is_empty() {
        return fail("there are no cases (pytest skips the test)");
    }
    let explicit_ids: Option<Vec<Option<String>>> = match keyword("ids") {
        None => None,
        Some(Expr::List(ast::ExprList { elts, .. }))
        | Some(Expr::Tuple(ast::ExprTuple { elts, .. })) => {
            let mut ids = Vec::new();
            for e in elts {
                match e {
                    Expr::StringLiteral(s) => ids.push(Some(ascii_escaped(s.value.to_str()))),
                    Expr::NoneLiteral(_) => ids.push(None),
                    _ => {
                        return fail(
                            "`ids` are not literal strings, so the test ids cannot be known",
                        )
                    }
                }
            }
            Some(ids)
        }
        Some(_) => return fail("`ids` are computed, so the test ids cannot be known"),
    };
    let n = out.names.len();
    for (index, value) in values.iter().enumerate() {
        let mut explicit_id = None;
        let mut not_run = None;
        let mut value: &Expr = value;
        let range = value.range();
        if let Expr::Call(c) = value {
            if scope.pytest_path(value).as_deref() == Some("pytest.param") {
                for kw in c.arguments.keywords.iter() {
                    match kw.arg.as_ref().map(|a| a.as_str()) {
                        Some("id") => match &kw.value {
                            Expr::StringLiteral(s) => {
                                explicit_id = Some(ascii_escaped(s.value.to_str()))
                            }
                            Expr::NoneLiteral(_) => {}
                            _ => return fail("a `pytest.param` id is computed"),
                        },
                        Some("marks") => not_run = case_marks(&kw.value, scope, map),
                        _ => {}
                    }
                }
                let args: Vec<&Expr> = c.arguments.args.iter().collect();
                if args.len() != n {
                    return fail("a `pytest.param` has the wrong number of values");
                }
                let id = explicit_id.unwrap_or_else(|| auto_id(&args, &out.names, index, scope));
                out.cases.push(ParamCase {
                    values: args,
                    range,
                    id,
                    not_run,
                });
                continue;
            }
        }
        let vals: Vec<&Expr> = if n == 1 {
            vec![value]
        } else {
            match &mut value {
                Expr::Tuple(t) if t.elts.len() == n => t.elts.iter().collect(),
                Expr::List(l) if l.elts.len() == n => l.elts.iter().collect(),
                _ => return fail("a case does not have one value per argument name"),
            }
        };
        let id = match explicit_ids
            .as_ref()
            .and_then(|ids| ids.get(index).cloned())
        {
            Some(Some(id)) => id,
            _ => auto_id(&vals, &out.names, index, scope),
        };
        out.cases.push(ParamCase {
            values: vals,
            range,
            id,
            not_run,
        });
    }
    make_unique(&mut out.cases);
    out
}

fn case_marks(expr: &Expr, scope: &ModuleScope, map: &SourceMap) -> Option<String> {
    let marks: Vec<&Expr> = match expr {
        Expr::List(l) => l.elts.iter().collect(),
        Expr::Tuple(t) => t.elts.iter().collect(),
        other => vec![other],
    };
    for mark in marks {
        let line = map.line(mark.range().start());
        match scope.pytest_path(mark).as_deref() {
            Some("pytest.mark.skip") => {
                return Some(format!("this case is marked `skip` (line {line})"))
            }
            Some("pytest.mark.skipif") => {
                return Some(format!(
                    "this case is marked `skipif` (line {line}): pytest may not run it"
                ))
            }
            Some("pytest.mark.xfail") => {
                return Some(format!(
                    "this case is marked `xfail` (line {line}): pytest expects it to fail"
                ))
            }
            _ => {}
        }
    }
    None
}

/// pytest's id for one case: each value's id joined with `-`.
fn auto_id(values: &[&Expr], names: &[String], index: usize, scope: &ModuleScope) -> String {
    values
        .iter()
        .zip(names)
        .map(|(v, name)| value_id(v, scope).unwrap_or_else(|| format!("{name}{index}")))
        .collect::<Vec<_>>()
        .join("-")
}

/// The id pytest gives a value: strings (escaped), numbers, booleans and `None` as `str()` gives
/// them, functions and classes by name; `None` (fall back to argname + index) for anything else.
fn value_id(value: &Expr, scope: &ModuleScope) -> Option<String> {
    match value {
        Expr::StringLiteral(s) => Some(ascii_escaped(s.value.to_str())),
        Expr::BytesLiteral(b) => {
            let bytes: Vec<u8> = b.value.bytes().collect();
            Some(bytes_escaped(&bytes))
        }
        Expr::NumberLiteral(n) => number_str(&n.value),
        Expr::BooleanLiteral(b) => Some(if b.value { "True" } else { "False" }.into()),
        Expr::NoneLiteral(_) => Some("None".into()),
        Expr::UnaryOp(u) if matches!(u.op, ast::UnaryOp::USub) => match u.operand.as_ref() {
            Expr::NumberLiteral(n) => {
                let s = number_str(&n.value)?;
                Some(match s.strip_prefix('-') {
                    Some(rest) => rest.to_string(),
                    None => format!("-{s}"),
                })
            }
            _ => None,
        },
        Expr::BinOp(b) => match fold_constant(value, 0) {
            Some(Const::Str(s)) => Some(ascii_escaped(&s)),
            Some(Const::Int(i)) => Some(i.to_string()),
            None => complex_id(b),
        },
        // `float("inf")` and friends: pytest shows the float.
        Expr::Call(call)
            if matches!(call.func.as_ref(), Expr::Name(n) if n.id.as_str() == "float" && !scope.globals.contains_key("float"))
                && call.arguments.keywords.is_empty()
                && call.arguments.args.len() == 1 =>
        {
            let Expr::StringLiteral(s) = &call.arguments.args[0] else {
                return None;
            };
            let text = s.value.to_str().trim().to_ascii_lowercase();
            let f: f64 = match text.as_str() {
                "inf" | "+inf" | "infinity" | "+infinity" => f64::INFINITY,
                "-inf" | "-infinity" => f64::NEG_INFINITY,
                "nan" | "+nan" | "-nan" => f64::NAN,
                other => other.parse().ok()?,
            };
            Some(python_float_str(f))
        }
        Expr::Name(n) => match scope.globals.get(n.id.as_str()) {
            Some(Global::Constant { source, .. }) => value_id(source, scope),
            Some(Global::SolutionName { name }) => Some(name.clone()),
            Some(Global::Helper { .. }) => Some(n.id.to_string()),
            _ => None,
        },
        Expr::Attribute(_) => scope.solution_attr(value),
        _ => None,
    }
}

/// `3 + 4j`, `-1.5 - 2j`: `str(complex)` is `(3+4j)`.
fn complex_id(b: &ast::ExprBinOp) -> Option<String> {
    let real = real_number(&b.left)?;
    let Expr::NumberLiteral(ast::ExprNumberLiteral {
        value: ast::Number::Complex { real: 0.0, imag },
        ..
    }) = b.right.as_ref()
    else {
        return None;
    };
    let imag = match b.op {
        ast::Operator::Add => *imag,
        ast::Operator::Sub => -*imag,
        _ => return None,
    };
    let sign = if imag.is_sign_negative() { "-" } else { "+" };
    Some(format!(
        "({}{sign}{}j)",
        python_float_repr_short(real),
        python_float_repr_short(imag.abs())
    ))
}

fn real_number(expr: &Expr) -> Option<f64> {
    match expr {
        Expr::NumberLiteral(ast::ExprNumberLiteral {
            value: ast::Number::Int(i),
            ..
        }) => i.as_u64().map(|v| v as f64),
        Expr::NumberLiteral(ast::ExprNumberLiteral {
            value: ast::Number::Float(f),
            ..
        }) => Some(*f),
        Expr::UnaryOp(u) if matches!(u.op, ast::UnaryOp::USub) => {
            real_number(&u.operand).map(|v| -v)
        }
        _ => None,
    }
}

/// A value pytest would compute from a literal expression (`"w" * 12 + "b"`, `2 ** 10`).
enum Const {
    Str(String),
    Int(i128),
}

fn fold_constant(expr: &Expr, depth: usize) -> Option<Const> {
    if depth > 64 {
        return None;
    }
    match expr {
        Expr::StringLiteral(s) => Some(Const::Str(s.value.to_str().to_string())),
        Expr::NumberLiteral(ast::ExprNumberLiteral {
            value: ast::Number::Int(i),
            ..
        }) => i.as_u64().map(|v| Const::Int(i128::from(v))),
        Expr::UnaryOp(u) if matches!(u.op, ast::UnaryOp::USub) => {
            match fold_constant(&u.operand, depth + 1)? {
                Const::Int(i) => Some(Const::Int(-i)),
                Const::Str(_) => None,
            }
        }
        Expr::BinOp(b) => {
            let (l, r) = (
                fold_constant(&b.left, depth + 1)?,
                fold_constant(&b.right, depth + 1)?,
            );
            const MAX_LEN: i128 = 10_000;
            match (b.op, l, r) {
                (ast::Operator::Add, Const::Str(a), Const::Str(c)) => Some(Const::Str(a + &c)),
                (ast::Operator::Mult, Const::Str(a), Const::Int(n))
                | (ast::Operator::Mult, Const::Int(n), Const::Str(a)) => {
                    (n.max(0) * a.len() as i128 <= MAX_LEN)
                        .then(|| Const::Str(a.repeat(n.max(0) as usize)))
                }
                (ast::Operator::Add, Const::Int(a), Const::Int(c)) => {
                    a.checked_add(c).map(Const::Int)
                }
                (ast::Operator::Sub, Const::Int(a), Const::Int(c)) => {
                    a.checked_sub(c).map(Const::Int)
                }
                (ast::Operator::Mult, Const::Int(a), Const::Int(c)) => {
                    a.checked_mul(c).map(Const::Int)
                }
                (ast::Operator::FloorDiv, Const::Int(a), Const::Int(c)) if c != 0 => {
                    let q = a / c;
                    Some(Const::Int(if a % c != 0 && ((a < 0) != (c < 0)) {
                        q - 1
                    } else {
                        q
                    }))
                }
                (ast::Operator::Mod, Const::Int(a), Const::Int(c)) if c > 0 => {
                    Some(Const::Int(a.rem_euclid(c)))
                }
                (ast::Operator::Pow, Const::Int(a), Const::Int(c)) if (0..128).contains(&c) => {
                    a.checked_pow(c as u32).map(Const::Int)
                }
                _ => None,
            }
        }
        _ => None,
    }
}

fn number_str(n: &ast::Number) -> Option<String> {
    match n {
        ast::Number::Int(i) => i
            .as_u64()
            .map(|v| v.to_string())
            .or_else(|| Some(i.to_string())),
        ast::Number::Float(f) => Some(python_float_str(*f)),
        ast::Number::Complex { real, imag } => {
            if *real == 0.0 {
                Some(format!("{}j", python_float_repr_short(*imag)))
            } else {
                None
            }
        }
    }
}

/// `str(float)` as CPython prints it: shortest round-trip digits, scientific notation outside
/// 1e-4 ≤ |x| < 1e16.
pub fn python_float_str(f: f64) -> String {
    if f.is_nan() {
        return "nan".into();
    }
    if f.is_infinite() {
        return if f > 0.0 { "inf".into() } else { "-inf".into() };
    }
    if f == 0.0 {
        return if f.is_sign_negative() {
            "-0.0".into()
        } else {
            "0.0".into()
        };
    }
    let sci = format!("{f:e}"); // e.g. "1.5e-5", "-1e16"
    let (mantissa, exp) = sci.split_once('e').unwrap_or((&sci, "0"));
    let exp: i32 = exp.parse().unwrap_or(0);
    let negative = mantissa.starts_with('-');
    let digits: String = mantissa.chars().filter(|c| c.is_ascii_digit()).collect();
    let sign = if negative { "-" } else { "" };
    if (-4..16).contains(&exp) {
        let point = exp + 1; // digits before the decimal point
        if point <= 0 {
            format!("{sign}0.{}{digits}", "0".repeat((-point) as usize))
        } else if (point as usize) >= digits.len() {
            format!(
                "{sign}{digits}{}.0",
                "0".repeat(point as usize - digits.len())
            )
        } else {
            let (a, b) = digits.split_at(point as usize);
            format!("{sign}{a}.{b}")
        }
    } else {
        let (first, rest) = digits.split_at(1);
        let mant = if rest.is_empty() {
            first.to_string()
        } else {
            format!("{first}.{rest}")
        };
        let esign = if exp < 0 { '-' } else { '+' };
        format!("{sign}{mant}e{esign}{:02}", exp.abs())
    }
}

/// The imaginary part as `str(complex)` writes it (`2j`, `1.5j`): integral values without `.0`.
fn python_float_repr_short(f: f64) -> String {
    let s = python_float_str(f);
    s.strip_suffix(".0").map(str::to_string).unwrap_or(s)
}

/// pytest's escaping of string ids: `unicode_escape`, then non-printable ASCII as `\xNN`.
pub fn ascii_escaped(s: &str) -> String {
    let mut out = String::new();
    for c in s.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 || c as u32 == 0x7f => {
                out.push_str(&format!("\\x{:02x}", c as u32))
            }
            c if (c as u32) < 0x80 => out.push(c),
            c if (c as u32) < 0x100 => out.push_str(&format!("\\x{:02x}", c as u32)),
            c if (c as u32) < 0x10000 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push_str(&format!("\\U{:08x}", c as u32)),
        }
    }
    out
}

fn bytes_escaped(bytes: &[u8]) -> String {
    let mut out = String::new();
    for &b in bytes {
        match b {
            b'\\' => out.push('\\'),
            b'\n' => out.push_str("\\n"),
            b'\r' => out.push_str("\\r"),
            b'\t' => out.push_str("\\t"),
            0x20..=0x7e => out.push(b as char),
            _ => out.push_str(&format!("\\x{b:02x}")),
        }
    }
    out
}

/// pytest's disambiguation of duplicate ids within one parametrize: a counter suffix per id, with
/// `_` before it when the id ends in a digit.
fn make_unique(cases: &mut [ParamCase]) {
    let ids: Vec<String> = cases.iter().map(|c| c.id.clone()).collect();
    let mut counts: HashMap<&str, usize> = HashMap::default();
    for id in &ids {
        *counts.entry(id.as_str()).or_default() += 1;
    }
    if counts.values().all(|&c| c == 1) {
        return;
    }
    let mut taken: std::collections::HashSet<String> = ids.iter().cloned().collect();
    let mut suffixes: HashMap<String, usize> = HashMap::default();
    for (i, id) in ids.iter().enumerate() {
        if counts[id.as_str()] > 1 {
            let sep = if id.chars().last().is_some_and(|c| c.is_ascii_digit()) {
                "_"
            } else {
                ""
            };
            let counter = suffixes.entry(id.clone()).or_default();
            let mut new_id = format!("{id}{sep}{counter}");
            while taken.contains(&new_id) {
                *counter += 1;
                new_id = format!("{id}{sep}{counter}");
            }
            *counter += 1;
            taken.insert(new_id.clone());
            cases[i].id = new_id;
        }
    }
}
