//! Mutants of a reference solution: small, deterministic edits of its syntax tree that a test file
//! should notice (issue 27). A mutant that every test still passes is what the tests do not check,
//! or an equivalent program: a reader decides which from its diff.
//!
//! Pure: the source in, the mutants out (spans into the source, the replacement text, the mutated
//! source and a small diff), so the CLI and the page share one generator. Only mutants whose source
//! still parses are kept; two edits giving the same text are one mutant.
//!
//! Operators (kebab-case ids, in [`Mutant::operator`]):
//! `boundary` (`<` ↔ `<=`, `>` ↔ `>=`), `equality` (`==` ↔ `!=`), `constant` (an integer literal
//! `+ 1` / `- 1`), `bool-op` (`and` ↔ `or`), `negate-condition` (an `if`/`elif`/`while` test under
//! `not (…)`), `return-none` (`return x` → `return None`), `return-flip` (`return True` ↔ `return
//! False`), `remove-statement` (an expression statement or augmented assignment → `pass`),
//! `arithmetic` (`+` ↔ `-`, `*` ↔ `//`, `/` → `*`, `%` → `//`, and the same in `+=` and friends),
//! `remove-break` / `remove-continue` (→ `pass`), `remove-unary` (`-x` → `x`, `not x` → `x`),
//! `literal` (`True` ↔ `False` elsewhere than a `return`), `swap-arguments` (in a call, the first two
//! adjacent positional arguments whose texts differ change places: `f(a, b)` → `f(b, a)`; one
//! mutant per call, and none for `min`/`max` without a `key`, whose answer does not depend on the
//! order).
//!
//! Ids: the operators come in generations, and a later generation's mutants are numbered after
//! every mutant of the earlier ones, so adding an operator renames no mutant of a given file (the
//! first generation is every operator above but `swap-arguments`, the second). The list is in id
//! order: each generation in source order, one after the other.

use crate::sort::SharedSort as _;
use crate::walk::visitor::{self, Visitor};
use ruff_python_ast::{
    ArgOrKeyword, BoolOp, CmpOp, Expr, ExprCall, Number, Operator, Stmt, UnaryOp,
};
use ruff_text_size::Ranged;
use serde::{Deserialize, Serialize};

/// One replacement of `source[start..end]` (byte offsets into the original source).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Edit {
    pub start: u32,
    pub end: u32,
    pub replacement: String,
}

/// One mutant of a source file.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Mutant {
    /// `m001`, `m002`, … in source order within a generation of operators, each generation
    /// numbered after the earlier ones (see the module's doc); numbered before any cap, so a
    /// mutant keeps its id whatever `--mutants=N` keeps, and an operator added later renames none.
    pub id: String,
    /// The operator's kebab-case id (`boundary`, `return-none`, …).
    pub operator: String,
    /// 1-based line of the first edit.
    pub line: u32,
    /// One line for people: ``line 6: `<` → `<=` ``.
    pub description: String,
    /// The edits, sorted, not overlapping.
    pub edits: Vec<Edit>,
    /// The mutated source.
    pub source: String,
    /// The changed lines, unified style: `@@ line N @@`, then `-` old lines and `+` new lines.
    pub diff: String,
}

/// The generation of an operator: 1 for the first set, 2 for `swap-arguments`. A later
/// generation's mutants are numbered after every earlier one's, so adding an operator keeps the
/// ids the generator gave before.
fn generation(operator: &str) -> u8 {
    match operator {
        "swap-arguments" => 2,
        _ => 1,
    }
}

/// Calls whose answer does not depend on the order of their positional arguments when they have
/// no keyword (`min(a, b)` is `min(b, a)`, apart from which of two equal values comes back):
/// swapping theirs would only add mutants a reader must dismiss as equivalent.
const SYMMETRIC_CALLS: [&str; 2] = ["min", "max"];

/// A mutation found by the walk, before it is applied and checked.
struct Candidate {
    operator: &'static str,
    description: String,
    edits: Vec<Edit>,
}

fn edit(start: usize, end: usize, replacement: impl Into<String>) -> Edit {
    Edit {
        start: start as u32,
        end: end as u32,
        replacement: replacement.into(),
    }
}

/// The offset of an operator token (`<`, `and`, `+=`…) in the gap `start..end` between two
/// operands: the first character that is not whitespace, a parenthesis, a line continuation or a
/// comment. `None` when the token there is not `token` (or is a longer token).
fn token_in_gap(source: &str, start: usize, end: usize, token: &str) -> Option<usize> {
    let bytes = source.as_bytes();
    let mut i = start;
    while i < end {
        match bytes[i] {
            b' ' | b'\t' | b'\n' | b'\r' | b'\x0c' | b'(' | b')' | b'\\' => i += 1,
            b'#' => {
                while i < end && bytes[i] != b'\n' {
                    i += 1;
                }
            }
            _ => {
                let rest = &source[i..end];
                if !rest.starts_with(token) {
                    return None;
                }
                let next = rest.as_bytes().get(token.len()).copied();
                let word = token.as_bytes()[0].is_ascii_alphabetic();
                let longer = match next {
                    Some(c) if word => c.is_ascii_alphanumeric() || c == b'_',
                    Some(c) => matches!(c, b'=' | b'<' | b'>' | b'/' | b'*'),
                    None => false,
                };
                return (!longer).then_some(i);
            }
        }
    }
    None
}

fn cmp_flip(op: CmpOp) -> Option<(&'static str, &'static str, &'static str)> {
    Some(match op {
        CmpOp::Lt => ("boundary", "<", "<="),
        CmpOp::LtE => ("boundary", "<=", "<"),
        CmpOp::Gt => ("boundary", ">", ">="),
        CmpOp::GtE => ("boundary", ">=", ">"),
        CmpOp::Eq => ("equality", "==", "!="),
        CmpOp::NotEq => ("equality", "!=", "=="),
        _ => return None,
    })
}

fn arith_swap(op: Operator) -> Option<(&'static str, &'static str)> {
    Some(match op {
        Operator::Add => ("+", "-"),
        Operator::Sub => ("-", "+"),
        Operator::Mult => ("*", "//"),
        Operator::FloorDiv => ("//", "*"),
        Operator::Div => ("/", "*"),
        Operator::Mod => ("%", "//"),
        _ => return None,
    })
}

fn short(text: &str) -> String {
    let one_line: String = text.split_whitespace().collect::<Vec<_>>().join(" ");
    if one_line.chars().count() > 40 {
        let cut: String = one_line.chars().take(37).collect();
        format!("{cut}...")
    } else {
        one_line
    }
}

struct Walk<'s> {
    source: &'s str,
    found: Vec<Candidate>,
}

impl Walk<'_> {
    fn push(&mut self, operator: &'static str, description: String, edits: Vec<Edit>) {
        self.found.push(Candidate {
            operator,
            description,
            edits,
        });
    }

    fn negate(&mut self, test: &Expr, keyword: &str) {
        let r = test.range();
        let (start, end) = (r.start().to_usize(), r.end().to_usize());
        self.push(
            "negate-condition",
            format!(
                "`{keyword} {}` → `{keyword} not ({})`",
                short(&self.source[start..end]),
                short(&self.source[start..end])
            ),
            vec![edit(start, start, "not ("), edit(end, end, ")")],
        );
    }

    fn replace_stmt(&mut self, stmt: &Stmt, operator: &'static str) {
        let r = stmt.range();
        let (start, end) = (r.start().to_usize(), r.end().to_usize());
        self.push(
            operator,
            format!("`{}` → `pass`", short(&self.source[start..end])),
            vec![edit(start, end, "pass")],
        );
    }

    /// `swap-arguments`: the first two adjacent positional arguments of `call` (no keyword
    /// between them) whose texts differ, swapped. One mutant per call at most.
    fn swap_arguments(&mut self, call: &ExprCall) {
        let callee = call.func.range();
        let callee = &self.source[callee.start().to_usize()..callee.end().to_usize()];
        if call.arguments.keywords.is_empty() && SYMMETRIC_CALLS.contains(&callee) {
            return;
        }
        let text = |e: &Expr| {
            let r = e.range();
            (r.start().to_usize(), r.end().to_usize())
        };
        let order: Vec<ArgOrKeyword> = call.arguments.iter_source_order().collect();
        let pair = order.windows(2).find_map(|w| match (w[0], w[1]) {
            (ArgOrKeyword::Arg(a), ArgOrKeyword::Arg(b)) => {
                let (a, b) = (text(a), text(b));
                (self.source[a.0..a.1] != self.source[b.0..b.1]).then_some((a, b))
            }
            _ => None,
        });
        let Some((a, b)) = pair else {
            return;
        };
        let (first, second) = (&self.source[a.0..a.1], &self.source[b.0..b.1]);
        self.push(
            "swap-arguments",
            format!(
                "`{}` ↔ `{}` in `{}(…)`",
                short(first),
                short(second),
                short(callee)
            ),
            vec![edit(a.0, a.1, second), edit(b.0, b.1, first)],
        );
    }
}

impl<'a> Visitor<'a> for Walk<'_> {
    fn visit_stmt(&mut self, stmt: &'a Stmt) {
        match stmt {
            Stmt::If(s) => {
                self.negate(&s.test, "if");
                for clause in &s.elif_else_clauses {
                    if let Some(test) = &clause.test {
                        self.negate(test, "elif");
                    }
                }
            }
            Stmt::While(s) => self.negate(&s.test, "while"),
            Stmt::Return(s) => {
                if let Some(value) = &s.value {
                    let r = value.range();
                    let text = &self.source[r.start().to_usize()..r.end().to_usize()];
                    match value.as_ref() {
                        Expr::NoneLiteral(_) => {}
                        Expr::BooleanLiteral(b) => {
                            let flipped = if b.value { "False" } else { "True" };
                            self.push(
                                "return-flip",
                                format!("`return {text}` → `return {flipped}`"),
                                vec![edit(r.start().to_usize(), r.end().to_usize(), flipped)],
                            );
                        }
                        _ => self.push(
                            "return-none",
                            format!("`return {}` → `return None`", short(text)),
                            vec![edit(r.start().to_usize(), r.end().to_usize(), "None")],
                        ),
                    }
                }
            }
            // A docstring or `...` is no statement a test can notice.
            Stmt::Expr(s)
                if !matches!(
                    s.value.as_ref(),
                    Expr::StringLiteral(_) | Expr::EllipsisLiteral(_)
                ) =>
            {
                self.replace_stmt(stmt, "remove-statement");
            }
            Stmt::AugAssign(s) => {
                self.replace_stmt(stmt, "remove-statement");
                if let Some((from, to)) = arith_swap(s.op) {
                    let (from, to) = (format!("{from}="), format!("{to}="));
                    let gap = (
                        s.target.range().end().to_usize(),
                        s.value.range().start().to_usize(),
                    );
                    if let Some(at) = token_in_gap(self.source, gap.0, gap.1, &from) {
                        self.push(
                            "arithmetic",
                            format!("`{from}` → `{to}`"),
                            vec![edit(at, at + from.len(), to)],
                        );
                    }
                }
            }
            Stmt::Break(_) => self.replace_stmt(stmt, "remove-break"),
            Stmt::Continue(_) => self.replace_stmt(stmt, "remove-continue"),
            _ => {}
        }
        visitor::walk_stmt(self, stmt);
    }

    fn visit_expr(&mut self, expr: &'a Expr) {
        match expr {
            Expr::Compare(c) => {
                let mut left_end = c.left.range().end().to_usize();
                for (op, right) in c.ops.iter().zip(c.comparators.iter()) {
                    let right_start = right.range().start().to_usize();
                    if let Some((operator, from, to)) = cmp_flip(*op) {
                        if let Some(at) = token_in_gap(self.source, left_end, right_start, from) {
                            self.push(
                                operator,
                                format!("`{from}` → `{to}`"),
                                vec![edit(at, at + from.len(), to)],
                            );
                        }
                    }
                    left_end = right.range().end().to_usize();
                }
            }
            Expr::BoolOp(b) => {
                let (from, to) = match b.op {
                    BoolOp::And => ("and", "or"),
                    BoolOp::Or => ("or", "and"),
                };
                let edits: Option<Vec<Edit>> = b
                    .values
                    .windows(2)
                    .map(|w| {
                        let (s, e) = (
                            w[0].range().end().to_usize(),
                            w[1].range().start().to_usize(),
                        );
                        token_in_gap(self.source, s, e, from)
                            .map(|at| edit(at, at + from.len(), to))
                    })
                    .collect();
                if let Some(edits) = edits.filter(|e| !e.is_empty()) {
                    self.push("bool-op", format!("`{from}` → `{to}`"), edits);
                }
            }
            Expr::BinOp(b) => {
                if let Some((from, to)) = arith_swap(b.op) {
                    let (s, e) = (
                        b.left.range().end().to_usize(),
                        b.right.range().start().to_usize(),
                    );
                    if let Some(at) = token_in_gap(self.source, s, e, from) {
                        self.push(
                            "arithmetic",
                            format!("`{from}` → `{to}`"),
                            vec![edit(at, at + from.len(), to)],
                        );
                    }
                }
            }
            Expr::UnaryOp(u) if matches!(u.op, UnaryOp::USub | UnaryOp::Not) => {
                let r = u.range();
                let operand = u.operand.range();
                let (start, end) = (r.start().to_usize(), operand.start().to_usize());
                let token = if u.op == UnaryOp::Not { "not" } else { "-" };
                // Keep any parentheses between the sign and the operand.
                let gap = self.source[start + token.len()..end].trim_start();
                self.push(
                    "remove-unary",
                    format!(
                        "`{}` → `{}`",
                        short(&self.source[start..r.end().to_usize()]),
                        short(&self.source[end..r.end().to_usize()])
                    ),
                    vec![edit(start, end, gap)],
                );
            }
            Expr::Call(call) => self.swap_arguments(call),
            Expr::BooleanLiteral(b) => {
                let r = b.range();
                let flipped = if b.value { "False" } else { "True" };
                self.push(
                    "literal",
                    format!("`{}` → `{flipped}`", if b.value { "True" } else { "False" }),
                    vec![edit(r.start().to_usize(), r.end().to_usize(), flipped)],
                );
            }
            Expr::NumberLiteral(n) if matches!(n.value, Number::Int(_)) => {
                let r = n.range();
                let (start, end) = (r.start().to_usize(), r.end().to_usize());
                let text = &self.source[start..end];
                // Plain decimal literals only (no `0x`, `1_000`): the new text is then exact.
                let value = text
                    .bytes()
                    .all(|b| b.is_ascii_digit())
                    .then(|| text.parse::<u64>().ok())
                    .flatten()
                    .filter(|v| text == "0" || !text.starts_with('0') || *v == 0);
                if let Some(value) = value {
                    if let Some(up) = value.checked_add(1) {
                        self.push(
                            "constant",
                            format!("`{text}` → `{up}`"),
                            vec![edit(start, end, up.to_string())],
                        );
                    }
                    if value >= 1 {
                        let down = value - 1;
                        self.push(
                            "constant",
                            format!("`{text}` → `{down}`"),
                            vec![edit(start, end, down.to_string())],
                        );
                    }
                }
            }
            _ => {}
        }
        visitor::walk_expr(self, expr);
    }
}

/// `source` with `edits` (sorted, not overlapping) applied.
pub fn apply(source: &str, edits: &[Edit]) -> String {
    let mut out = String::with_capacity(source.len() + 16);
    let mut at = 0;
    for e in edits {
        out.push_str(&source[at..e.start as usize]);
        out.push_str(&e.replacement);
        at = e.end as usize;
    }
    out.push_str(&source[at..]);
    out
}

fn line_of(source: &str, offset: usize) -> u32 {
    source.as_bytes()[..offset]
        .iter()
        .filter(|&&b| b == b'\n')
        .count() as u32
        + 1
}

/// The changed lines: from the line where the first edit starts to the line where the last ends.
fn diff(source: &str, mutated: &str, edits: &[Edit]) -> String {
    let (Some(first), Some(last)) = (edits.first(), edits.last()) else {
        return String::new();
    };
    let start = source[..first.start as usize]
        .rfind('\n')
        .map_or(0, |i| i + 1);
    let end_old = source[last.end as usize..]
        .find('\n')
        .map_or(source.len(), |i| last.end as usize + i);
    let delta: isize = edits
        .iter()
        .map(|e| e.replacement.len() as isize - (e.end - e.start) as isize)
        .sum();
    let end_new = (end_old as isize + delta) as usize;
    let mut out = format!("@@ line {} @@\n", line_of(source, first.start as usize));
    for l in source[start..end_old].lines() {
        out.push_str(&format!("-{l}\n"));
    }
    for l in mutated[start..end_new].lines() {
        out.push_str(&format!("+{l}\n"));
    }
    out
}

/// Every mutant of `source` in id order (by generation of operator, then source order: see the
/// module's doc), then at most `cap` of them spread evenly over the list (the first, then every
/// `len / cap`-th). Deterministic: the same source gives the same mutants with the same ids. A
/// source that does not parse has none.
pub fn mutants(source: &str, cap: Option<usize>) -> Vec<Mutant> {
    let Ok(parsed) = ruff_python_parser::parse_module(source) else {
        return Vec::new();
    };
    let mut walk = Walk {
        source,
        found: Vec::new(),
    };
    for stmt in parsed.suite() {
        walk.visit_stmt(stmt);
    }
    let mut found = walk.found;
    // Id order: by generation, then source order; ties keep the walk's order (a stable sort).
    // An earlier generation's mutant wins a duplicate, so its id never moves.
    found.sort_shared_by_key(|c| {
        (
            generation(c.operator),
            c.edits.first().map_or(0, |e| e.start),
        )
    });
    let mut seen = std::collections::HashSet::new();
    let mut all = Vec::new();
    for c in found {
        let mutated = apply(source, &c.edits);
        if mutated == source || ruff_python_parser::parse_module(&mutated).is_err() {
            continue;
        }
        if !seen.insert(mutated.clone()) {
            continue;
        }
        let line = line_of(source, c.edits[0].start as usize);
        all.push(Mutant {
            id: format!("m{:03}", all.len() + 1),
            operator: c.operator.to_string(),
            line,
            description: format!("line {line}: {}", c.description),
            diff: diff(source, &mutated, &c.edits),
            edits: c.edits,
            source: mutated,
        });
    }
    match cap {
        Some(n) if n < all.len() => {
            let len = all.len();
            let keep: Vec<usize> = (0..n).map(|i| i * len / n).collect();
            all.into_iter()
                .enumerate()
                .filter(|(i, _)| keep.binary_search(i).is_ok())
                .map(|(_, m)| m)
                .collect()
        }
        _ => all,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SEARCH: &str = "def search_insert(nums, target):\n    \"\"\"Where target goes.\"\"\"\n    low, high = 0, len(nums)\n    while low < high:\n        middle = (low + high) // 2\n        if nums[middle] < target:\n            low = middle + 1\n        else:\n            high = middle\n    return low\n";

    fn ops(ms: &[Mutant]) -> Vec<&str> {
        ms.iter().map(|m| m.operator.as_str()).collect()
    }

    fn find<'m>(ms: &'m [Mutant], needle: &str) -> &'m Mutant {
        ms.iter()
            .find(|m| m.source.contains(needle))
            .unwrap_or_else(|| panic!("no mutant with {needle:?}: {ms:#?}"))
    }

    #[test]
    fn operators_fire_where_they_should() {
        let ms = mutants(SEARCH, None);
        let boundary = find(&ms, "while low <= high:");
        assert_eq!(boundary.operator, "boundary");
        assert_eq!(boundary.line, 4);
        assert_eq!(boundary.description, "line 4: `<` → `<=`");
        assert_eq!(
            boundary.diff,
            "@@ line 4 @@\n-    while low < high:\n+    while low <= high:\n"
        );
        assert_eq!(find(&ms, "if nums[middle] <= target").line, 6);
        assert_eq!(
            find(&ms, "while not (low < high):").operator,
            "negate-condition"
        );
        assert_eq!(find(&ms, "if not (nums[middle] < target):").line, 6);
        assert_eq!(find(&ms, "(low - high) // 2").operator, "arithmetic");
        assert_eq!(find(&ms, "(low + high) * 2").operator, "arithmetic");
        assert_eq!(find(&ms, "(low + high) // 3").operator, "constant");
        assert_eq!(find(&ms, "(low + high) // 1").operator, "constant");
        assert_eq!(find(&ms, "low = middle + 2").operator, "constant");
        assert_eq!(find(&ms, "low = middle - 1").operator, "arithmetic");
        assert_eq!(find(&ms, "return None").operator, "return-none");
        assert_eq!(find(&ms, "low, high = 1, len(nums)").line, 3);
        // The docstring is never removed.
        assert!(ms
            .iter()
            .all(|m| m.source.contains("\"\"\"Where target goes.\"\"\"")));
        assert!(!ops(&ms).contains(&"remove-statement"));
    }

    #[test]
    fn the_other_operators() {
        let src = "def f(xs, a, b):\n    total = 0\n    for x in xs:\n        if x == 3 and a or b:\n            break\n        if x != 0:\n            continue\n        total += x * 2\n        print(total % 5, total / 2)\n    return True\n";
        let ms = mutants(src, None);
        assert_eq!(find(&ms, "if x != 3 and").operator, "equality");
        assert_eq!(find(&ms, "if x == 0:").operator, "equality");
        assert_eq!(find(&ms, "x == 3 or a or b").operator, "bool-op");
        assert_eq!(find(&ms, "x == 3 and a and b").operator, "bool-op");
        assert_eq!(
            find(&ms, "        if x == 3 and a or b:\n            pass\n").operator,
            "remove-break"
        );
        assert_eq!(
            find(&ms, "            pass\n        total +=").operator,
            "remove-continue"
        );
        assert_eq!(find(&ms, "total -= x * 2").operator, "arithmetic");
        assert_eq!(find(&ms, "total += x // 2").operator, "arithmetic");
        assert_eq!(find(&ms, "total // 5").operator, "arithmetic");
        assert_eq!(find(&ms, "total * 2)").operator, "arithmetic");
        assert_eq!(find(&ms, "return False").operator, "return-flip");
        let removed: Vec<&Mutant> = ms
            .iter()
            .filter(|m| m.operator == "remove-statement")
            .collect();
        assert_eq!(removed.len(), 2, "{removed:#?}");
        assert!(removed[0].source.contains("        pass\n        print("));
        assert!(removed[1].source.contains("        pass\n    return True"));
        assert_eq!(find(&ms, "total = 1\n").line, 2);
        // `0` only goes up.
        assert!(!ms.iter().any(|m| m.source.contains("total = -1")));
    }

    #[test]
    fn tokens_are_found_through_parentheses_and_comments_never_inside_longer_ones() {
        let src = "def f(a, b):\n    return ((a)  # left\n            <= (b)) or (a >> b) > 1\n";
        let ms = mutants(src, None);
        assert!(ms.iter().any(|m| m.source.contains("            < (b))")));
        assert!(ms.iter().any(|m| m.source.contains("(a >> b) >= 1")));
        // `>>` is no `>`: only the comparison's `>` moves.
        assert!(!ms
            .iter()
            .any(|m| m.source.contains(">=>") || m.source.contains("> > b")));
        assert!(ms.iter().any(|m| m.source.contains("<= (b)) and (a >> b)")));
    }

    #[test]
    fn ids_are_stable_every_mutant_parses_and_differs() {
        let a = mutants(SEARCH, None);
        let b = mutants(SEARCH, None);
        assert_eq!(a, b);
        assert!(a.len() >= 12, "{}", a.len());
        let mut sources = std::collections::HashSet::new();
        for (i, m) in a.iter().enumerate() {
            assert_eq!(m.id, format!("m{:03}", i + 1));
            assert_ne!(m.source, SEARCH);
            assert!(
                ruff_python_parser::parse_module(&m.source).is_ok(),
                "{}",
                m.source
            );
            assert_eq!(apply(SEARCH, &m.edits), m.source);
            assert!(sources.insert(m.source.clone()), "duplicate {}", m.id);
            assert!(
                m.diff.starts_with(&format!("@@ line {} @@\n-", m.line)),
                "{}",
                m.diff
            );
            assert!(m.diff.contains("\n+"), "{}", m.diff);
        }
        let lines: Vec<u32> = a.iter().map(|m| m.line).collect();
        assert!(lines.windows(2).all(|w| w[0] <= w[1]), "{lines:?}");
    }

    #[test]
    fn the_cap_is_respected_spread_and_keeps_ids() {
        let all = mutants(SEARCH, None);
        for n in [0, 1, 3, 5, all.len(), all.len() + 4] {
            let some = mutants(SEARCH, Some(n));
            assert_eq!(some.len(), n.min(all.len()));
            for m in &some {
                assert!(all.contains(m), "{} changed under the cap", m.id);
            }
        }
        let five = mutants(SEARCH, Some(5));
        assert_eq!(five[0].id, "m001");
        // Spread over the file, not the first five.
        assert!(five.last().unwrap().line > all[4].line, "{five:#?}");
    }

    #[test]
    fn unary_and_literals() {
        let src =
            "def f(xs, a):\n    return sorted(xs, key=lambda w: -w[0], reverse=not a) or True\n";
        let ms = mutants(src, None);
        assert_eq!(find(&ms, "lambda w: w[0]").operator, "remove-unary");
        assert_eq!(find(&ms, "reverse=a)").operator, "remove-unary");
        assert_eq!(find(&ms, "or False").operator, "literal");
        let src = "x = not(y)\nz = -(1)\n";
        let ms = mutants(src, None);
        assert!(
            ms.iter().any(|m| m.source == "x = (y)\nz = -(1)\n"),
            "{ms:#?}"
        );
        assert!(
            ms.iter().any(|m| m.source == "x = not(y)\nz = (1)\n"),
            "{ms:#?}"
        );
    }

    #[test]
    fn nothing_for_a_file_that_does_not_parse_and_only_parsing_mutants() {
        assert!(mutants("def f(:\n", None).is_empty());
        assert!(mutants("", None).is_empty());
        // `0x10` and `1_000` are left alone (only plain decimal literals change).
        let ms = mutants("x = 0x10 + 1_000\n", None);
        assert_eq!(ops(&ms), ["arithmetic"]);
    }

    #[test]
    fn swapped_arguments() {
        let src =
            "def f(a, b, xs):\n    g(a, b)\n    h(a, a, b, xs)\n    k(a, a)\n    return g(1, 2)\n";
        let ms = mutants(src, None);
        let swaps: Vec<&Mutant> = ms
            .iter()
            .filter(|m| m.operator == "swap-arguments")
            .collect();
        // One per call: `h` swaps its first pair that differs, `k(a, a)` has none.
        assert_eq!(swaps.len(), 3, "{swaps:#?}");
        let g = find(&ms, "    g(b, a)\n");
        assert_eq!(g.operator, "swap-arguments");
        assert_eq!(g.description, "line 2: `a` ↔ `b` in `g(…)`");
        assert_eq!(g.diff, "@@ line 2 @@\n-    g(a, b)\n+    g(b, a)\n");
        assert_eq!(
            g.edits,
            [
                Edit {
                    start: 23,
                    end: 24,
                    replacement: "b".into()
                },
                Edit {
                    start: 26,
                    end: 27,
                    replacement: "a".into()
                }
            ]
        );
        let h = find(&ms, "h(a, b, a, xs)");
        assert_eq!(h.description, "line 3: `a` ↔ `b` in `h(…)`");
        assert!(!ms.iter().any(|m| m.source.contains("h(b, a, a, xs)")));
        assert!(!ms.iter().any(|m| m.source.contains("h(a, a, xs, b)")));
        assert_eq!(find(&ms, "return g(2, 1)").line, 5);
    }

    #[test]
    fn swapped_arguments_only_where_the_order_can_matter() {
        let src = "x = min(a, b) + max(a, b, c)\ny = max(a, b, key=len)\nz = f(a, k=1, *b)\nw = q.get(k, [])\n";
        let swaps: Vec<Mutant> = mutants(src, None)
            .into_iter()
            .filter(|m| m.operator == "swap-arguments")
            .collect();
        // `min`/`max` without a key are symmetric; with one, ties make the order matter. No swap
        // across a keyword (`f(*b, k=1, a)` would not parse anyway).
        let sources: Vec<&str> = swaps.iter().map(|m| m.source.as_str()).collect();
        assert_eq!(
            sources,
            [
                "x = min(a, b) + max(a, b, c)\ny = max(b, a, key=len)\nz = f(a, k=1, *b)\nw = q.get(k, [])\n",
                "x = min(a, b) + max(a, b, c)\ny = max(a, b, key=len)\nz = f(a, k=1, *b)\nw = q.get([], k)\n",
            ]
        );
        assert_eq!(swaps[1].description, "line 4: `k` ↔ `[]` in `q.get(…)`");
        // Nested calls: each call its own mutant. Parentheses around an argument stay where they
        // are (the argument's own text moves), which keeps the meaning of the swap.
        let src = "r = outer(inner(1, 2),\n          (x\n           + 1))\n";
        let ms = mutants(src, None);
        find(&ms, "outer(inner(2, 1),");
        let outer = find(
            &ms,
            "r = outer(x\n           + 1,\n          (inner(1, 2)))\n",
        );
        assert_eq!(outer.line, 1);
        assert_eq!(
            outer.diff,
            "@@ line 1 @@\n-r = outer(inner(1, 2),\n-          (x\n-           + 1))\n\
             +r = outer(x\n+           + 1,\n+          (inner(1, 2)))\n"
        );
        assert_eq!(
            outer.description,
            "line 1: `inner(1, 2)` ↔ `x + 1` in `outer(…)`"
        );
    }

    #[test]
    fn a_later_operator_renames_no_earlier_mutant() {
        let src = "def f(graph, start):\n    seen = set(range(0, 3))\n    return walk(graph, start) < 1\n";
        let ms = mutants(src, None);
        // The list is in id order: the first generation, numbered as if `swap-arguments` did
        // not exist (m001… in source order), then the swaps, in source order too.
        for (i, m) in ms.iter().enumerate() {
            assert_eq!(m.id, format!("m{:03}", i + 1), "{ms:#?}");
        }
        let operators = ops(&ms);
        let n = operators
            .iter()
            .position(|o| *o == "swap-arguments")
            .unwrap();
        assert_eq!(ms.len(), n + 2, "{operators:?}");
        assert!(operators[..n].iter().all(|o| *o != "swap-arguments"));
        let lines: Vec<u32> = ms[..n].iter().map(|m| m.line).collect();
        assert!(lines.windows(2).all(|w| w[0] <= w[1]), "{lines:?}");
        assert!(ms[n].source.contains("range(3, 0)"));
        assert_eq!(ms[n].line, 2);
        assert!(ms[n + 1].source.contains("walk(start, graph)"));
        assert_eq!(ms[n + 1].line, 3);
        // The first generation keeps the ids it had before the swaps existed: the constant of
        // line 2 first, the return's last constant last.
        assert_eq!(find(&ms, "range(1, 3)").id, "m001");
        assert_eq!(find(&ms, "walk(graph, start) < 0").id, format!("m{n:03}"));
        // A cap keeps ids whatever the generation.
        let all = mutants(src, None);
        for cap in 1..all.len() {
            for m in mutants(src, Some(cap)) {
                assert!(all.contains(&m), "{} changed under the cap", m.id);
            }
        }
    }

    #[test]
    fn every_bench_solution_gives_parsing_mutants() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("problems");
        let mut folders: Vec<_> = std::fs::read_dir(&root)
            .expect("problems/")
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.join("solution.py").is_file())
            .collect();
        folders.sort();
        assert!(folders.len() >= 20);
        let mut total = 0;
        for folder in folders {
            let source = std::fs::read_to_string(folder.join("solution.py")).unwrap();
            let ms = mutants(&source, None);
            assert!(ms.len() >= 2, "{}: {} mutants", folder.display(), ms.len());
            total += ms.len();
            assert_eq!(ms, mutants(&source, None));
            for m in &ms {
                assert_ne!(m.source, source);
                assert!(ruff_python_parser::parse_module(&m.source).is_ok());
            }
            // The first generation's ids are consecutive in source order, the swaps' after them.
            let first: Vec<&str> = ms
                .iter()
                .filter(|m| m.operator != "swap-arguments")
                .map(|m| m.id.as_str())
                .collect();
            let expected: Vec<String> = (1..=first.len()).map(|i| format!("m{i:03}")).collect();
            assert_eq!(first, expected, "{}", folder.display());
        }
        assert!(total >= 200, "{total} mutants in the bench");
    }
}
