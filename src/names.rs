//! Name analysis of one expression: which names it reads from outside itself, in which position, and
//! the rewriting that substitutes values for names.
//!
//! Scopes are honoured: names bound by comprehensions, lambdas and walrus targets inside the
//! expression are not free. A read is *touching* when evaluating the expression may change the object
//! the name refers to: a method call on it, passing it to a call, iterating it, or testing membership
//! in it (both consume an iterator).

use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};
use std::rc::Rc;

use ruff_python_ast::token::TokenKind;
use ruff_python_ast::visitor::{self, Visitor};
use ruff_python_ast::{self as ast, CmpOp, Expr, ExprContext, OperatorPrecedence as Prec};
use ruff_text_size::{Ranged, TextRange};

use crate::source::SourceMap;

/// Builtins whose call neither changes nor consumes its arguments.
const NON_MUTATING_BUILTINS: &[&str] = &[
    "len",
    "isinstance",
    "issubclass",
    "type",
    "id",
    "callable",
    "repr",
    "hash",
];

/// A name as the AST holds it: short names are stored inline, so copying one does not allocate.
pub type Ident = ast::name::Name;

/// One read of a free name.
#[derive(Clone, Debug)]
pub struct Load {
    pub name: Ident,
    pub range: TextRange,
    /// The read sits where it may not be evaluated at all (a conditional branch, a short-circuited
    /// operand, a lambda body, a comprehension).
    pub conditional: bool,
    /// The read sits where it may be evaluated many times (a lambda body, a comprehension).
    pub repeated: bool,
    /// `name.attr`: the attribute read on the name, when the name is the value of an attribute.
    pub attr: Option<Ident>,
    /// The read sits inside an f-string's replacement field (its text is part of the output when
    /// the field has `=`; a substituted value would need quotes that only Python 3.12 nests).
    pub in_fstring: bool,
    /// The read is an operand of `is` / `is not`: object identity, which a substituted literal
    /// does not preserve.
    pub in_identity: bool,
    /// `name(...)`: the name is what a call calls, and its value goes nowhere else.
    pub called: bool,
}

/// An operation that may run code outside the builtins (a call, an attribute read, a subscript, an
/// operator, a truth test, iteration, formatting): evaluating it may observe or change state.
#[derive(Clone, Debug)]
pub struct Op {
    pub range: TextRange,
    /// For `name.attr`, the name (an attribute of the solution module is a plain global read).
    pub base: Option<Ident>,
}

/// What an expression reads, binds and calls.
#[derive(Clone, Debug, Default)]
pub struct Facts {
    pub loads: Vec<Load>,
    /// Names a walrus inside the expression binds in the enclosing function.
    pub walrus: Vec<Ident>,
    pub has_call: bool,
    /// The ranges of the calls the expression makes.
    pub calls: Vec<TextRange>,
    /// Every operation that may run user code, in evaluation order of their start.
    pub ops: Vec<Op>,
}

impl Facts {
    pub fn of(expr: &Expr) -> Facts {
        let mut walker = FactsWalker::default();
        walker.visit_expr(expr);
        let mut facts = std::mem::take(&mut walker.facts);
        if !facts.walrus.is_empty() {
            let walrus: HashSet<Ident> = facts.walrus.iter().cloned().collect();
            facts.loads.retain(|l| !walrus.contains(&l.name));
        }
        facts
    }

    pub fn free_names(&self) -> impl Iterator<Item = &str> {
        self.loads.iter().map(|l| l.name.as_str())
    }
}

#[derive(Default)]
struct FactsWalker {
    facts: Facts,
    scopes: Vec<HashSet<String>>,
    touch: usize,
    conditional: usize,
    repeated: usize,
    /// Pending attribute name for a `Name` about to be visited as an attribute's value.
    attr: Option<Ident>,
    fstring: usize,
    identity: usize,
    /// The `Name` about to be visited is a call's callee.
    callee: bool,
}

impl FactsWalker {
    fn bound(&self, name: &str) -> bool {
        self.scopes.iter().any(|s| s.contains(name))
    }

    fn record(&mut self, name: &ast::ExprName) {
        let attr = self.attr.take();
        let called = std::mem::take(&mut self.callee);
        if name.ctx != ExprContext::Load || self.bound(name.id.as_str()) {
            return;
        }
        self.facts.loads.push(Load {
            name: name.id.clone(),
            range: name.range,
            conditional: self.conditional > 0,
            repeated: self.repeated > 0,
            attr,
            in_fstring: self.fstring > 0,
            in_identity: self.identity > 0,
            called,
        });
    }

    fn with_touch(&mut self, expr: &Expr) {
        self.touch += 1;
        self.visit_expr(expr);
        self.touch -= 1;
    }

    fn conditionally(&mut self, expr: &Expr) {
        self.conditional += 1;
        self.visit_expr(expr);
        self.conditional -= 1;
    }

    fn comprehension(&mut self, generators: &[ast::Comprehension], elts: &[&Expr]) {
        // The first iterable is evaluated in the enclosing scope, and iterating it may consume it.
        if let Some(first) = generators.first() {
            self.with_touch(&first.iter);
        }
        self.conditional += 1;
        self.repeated += 1;
        let mut scope = HashSet::default();
        for generator in generators {
            collect_targets(&generator.target, &mut scope);
        }
        self.scopes.push(scope);
        for (i, generator) in generators.iter().enumerate() {
            if i > 0 {
                self.with_touch(&generator.iter);
            }
            for cond in &generator.ifs {
                self.visit_expr(cond);
            }
        }
        for elt in elts {
            self.visit_expr(elt);
        }
        self.scopes.pop();
        self.conditional -= 1;
        self.repeated -= 1;
    }
}

impl FactsWalker {
    /// `name.attr` records the attribute on the name's load; `loader().attr` records it on the
    /// loader's name, so the solution's `attr` can be recognised through either.
    fn attribute(&mut self, attribute: &ast::ExprAttribute) {
        match attribute.value.as_ref() {
            Expr::Name(_) => {
                self.attr = Some(attribute.attr.id.clone());
                self.visit_expr(&attribute.value);
                self.attr = None;
            }
            Expr::Call(call)
                if call.arguments.is_empty() && matches!(call.func.as_ref(), Expr::Name(_)) =>
            {
                self.facts.has_call = true;
                self.attr = Some(attribute.attr.id.clone());
                let touch = std::mem::take(&mut self.touch);
                self.visit_expr(&call.func);
                self.touch = touch;
                self.attr = None;
            }
            value => self.visit_expr(value),
        }
    }
}

impl FactsWalker {
    fn op(&mut self, expr: &Expr) {
        let runs_code = match expr {
            Expr::Call(_)
            | Expr::Subscript(_)
            | Expr::BinOp(_)
            | Expr::Compare(_)
            | Expr::BoolOp(_)
            | Expr::If(_)
            | Expr::ListComp(_)
            | Expr::SetComp(_)
            | Expr::DictComp(_)
            | Expr::Generator(_)
            | Expr::Starred(_)
            | Expr::Await(_)
            | Expr::Yield(_)
            | Expr::YieldFrom(_)
            | Expr::Set(_)
            | Expr::Dict(_) => true,
            Expr::Attribute(_) => true,
            Expr::UnaryOp(u) => !matches!(u.operand.as_ref(), Expr::NumberLiteral(_)),
            Expr::FString(f) => f
                .value
                .elements()
                .any(|e| matches!(e, ast::InterpolatedStringElement::Interpolation(_))),
            _ => false,
        };
        if runs_code {
            let base = match expr {
                Expr::Attribute(a) => match a.value.as_ref() {
                    Expr::Name(n) if !self.bound(n.id.as_str()) => Some(n.id.clone()),
                    _ => None,
                },
                _ => None,
            };
            self.facts.ops.push(Op {
                range: expr.range(),
                base,
            });
        }
    }
}

impl<'a> Visitor<'a> for FactsWalker {
    fn visit_expr(&mut self, expr: &'a Expr) {
        self.op(expr);
        match expr {
            Expr::Name(name) => self.record(name),
            Expr::FString(_) => {
                self.fstring += 1;
                visitor::walk_expr(self, expr);
                self.fstring -= 1;
            }
            Expr::Attribute(attribute) => self.attribute(attribute),
            Expr::Call(call) => {
                self.facts.has_call = true;
                self.facts.calls.push(call.range());
                // A method call may change its receiver: touch the root of `x.a.m(...)`.
                match call.func.as_ref() {
                    Expr::Attribute(attribute) => {
                        self.touch += 1;
                        self.attribute(attribute);
                        self.touch -= 1;
                    }
                    func => {
                        self.callee = matches!(func, Expr::Name(_));
                        self.visit_expr(func);
                        self.callee = false;
                    }
                }
                let pure = matches!(call.func.as_ref(), Expr::Name(n)
                    if NON_MUTATING_BUILTINS.contains(&n.id.as_str()) && !self.bound(n.id.as_str()));
                for arg in call.arguments.args.iter() {
                    if pure {
                        self.visit_expr(arg)
                    } else {
                        self.with_touch(arg)
                    }
                }
                for keyword in call.arguments.keywords.iter() {
                    if pure {
                        self.visit_expr(&keyword.value)
                    } else {
                        self.with_touch(&keyword.value)
                    }
                }
            }
            Expr::Named(named) => {
                self.visit_expr(&named.value);
                collect_target_idents(&named.target, &mut self.facts.walrus);
            }
            Expr::Lambda(lambda) => {
                if let Some(parameters) = &lambda.parameters {
                    for default in parameters
                        .iter_non_variadic_params()
                        .filter_map(|p| p.default.as_deref())
                    {
                        self.visit_expr(default);
                    }
                    let scope = parameters.iter().map(|p| p.name().id.to_string()).collect();
                    self.scopes.push(scope);
                } else {
                    self.scopes.push(HashSet::default());
                }
                self.repeated += 1;
                self.conditionally(&lambda.body);
                self.repeated -= 1;
                self.scopes.pop();
            }
            Expr::ListComp(c) => self.comprehension(&c.generators, &[&c.elt]),
            Expr::SetComp(c) => self.comprehension(&c.generators, &[&c.elt]),
            Expr::Generator(c) => self.comprehension(&c.generators, &[&c.elt]),
            Expr::DictComp(c) => {
                let mut elts: Vec<&Expr> = vec![&c.value];
                if let Some(key) = &c.key {
                    elts.insert(0, key);
                }
                self.comprehension(&c.generators, &elts)
            }
            Expr::If(if_expr) => {
                self.visit_expr(&if_expr.test);
                self.conditionally(&if_expr.body);
                self.conditionally(&if_expr.orelse);
            }
            Expr::BoolOp(bool_op) => {
                for (i, value) in bool_op.values.iter().enumerate() {
                    if i == 0 {
                        self.visit_expr(value)
                    } else {
                        self.conditionally(value)
                    }
                }
            }
            Expr::Compare(compare) => {
                let identity = compare
                    .ops
                    .iter()
                    .any(|op| matches!(op, CmpOp::Is | CmpOp::IsNot));
                // Only a name that is itself compared by identity is an identity read.
                let direct = |e: &Expr| identity && matches!(e, Expr::Name(_));
                self.identity += usize::from(direct(&compare.left));
                self.visit_expr(&compare.left);
                self.identity -= usize::from(direct(&compare.left));
                for (i, (op, right)) in compare
                    .ops
                    .iter()
                    .zip(compare.comparators.iter())
                    .enumerate()
                {
                    // `a < b < c` evaluates `c` only when `a < b`.
                    self.conditional += usize::from(i > 0);
                    self.identity += usize::from(direct(right));
                    if matches!(op, CmpOp::In | CmpOp::NotIn) {
                        self.with_touch(right)
                    } else {
                        self.visit_expr(right)
                    }
                    self.identity -= usize::from(direct(right));
                    self.conditional -= usize::from(i > 0);
                }
            }
            Expr::Starred(starred) => self.with_touch(&starred.value),
            Expr::Await(_) | Expr::Yield(_) | Expr::YieldFrom(_) => {
                self.facts.has_call = true;
                visitor::walk_expr(self, expr);
            }
            _ => visitor::walk_expr(self, expr),
        }
    }
}

/// Names bound by an assignment target (`a`, `a, (b, *c)`); attribute and subscript targets bind none.
pub fn collect_targets(target: &Expr, out: &mut HashSet<String>) {
    let mut names = Vec::new();
    collect_targets_vec(target, &mut names);
    out.extend(names);
}

pub fn collect_targets_vec(target: &Expr, out: &mut Vec<String>) {
    match target {
        Expr::Name(name) => out.push(name.id.to_string()),
        Expr::Tuple(t) => t.elts.iter().for_each(|e| collect_targets_vec(e, out)),
        Expr::List(l) => l.elts.iter().for_each(|e| collect_targets_vec(e, out)),
        Expr::Starred(s) => collect_targets_vec(&s.value, out),
        _ => {}
    }
}

/// As [`collect_targets_vec`], without copying the names' text.
pub fn collect_target_idents(target: &Expr, out: &mut Vec<Ident>) {
    match target {
        Expr::Name(name) => out.push(name.id.clone()),
        Expr::Tuple(t) => t.elts.iter().for_each(|e| collect_target_idents(e, out)),
        Expr::List(l) => l.elts.iter().for_each(|e| collect_target_idents(e, out)),
        Expr::Starred(s) => collect_target_idents(&s.value, out),
        _ => {}
    }
}

/// The root name of `x`, `x.a.b`, `x[0].a`: the local an attribute or item store changes.
pub fn root_name(expr: &Expr) -> Option<&str> {
    match expr {
        Expr::Name(name) => Some(name.id.as_str()),
        Expr::Attribute(a) => root_name(&a.value),
        Expr::Subscript(s) => root_name(&s.value),
        _ => None,
    }
}

/// An expression written out as Python source: the text, whether it can stand anywhere without
/// parentheses, and the free names it reads (for capture checks).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rendered {
    pub text: String,
    pub atomic: bool,
    /// How tightly the expression binds (a bare tuple or generator counts as the loosest).
    pub prec: Prec,
    pub free: Vec<String>,
}

impl Rendered {
    /// A bare name (a solution name after rewriting).
    pub fn name(id: &str) -> Rendered {
        Rendered {
            text: id.to_string(),
            atomic: true,
            prec: Prec::Atomic,
            free: vec![id.to_string()],
        }
    }
}

/// Whether `module` (dotted) is in the standard library of every Python from 3.9 to 3.14 (a module
/// removed on the way, such as `distutils`, may be some other package's).
pub fn is_stdlib_module(module: &str) -> bool {
    let top = module.split('.').next().unwrap_or(module);
    ruff_python_stdlib::sys::is_known_standard_library(9, top)
        && ruff_python_stdlib::sys::is_known_standard_library(14, top)
        && module.split('.').all(is_stdlib_module_part)
}

/// Standard-library modules whose results depend on which module the calling code or the objects
/// it made belong to (pickling finds classes by their `__module__`, which code run inside the
/// expression gets from the solution's namespace, not the test module's; `inspect` and `sys` read
/// frames and module names): they are not spelled out, and what reads them stays dropped.
fn reads_the_callers_module(module: &str) -> bool {
    let top = module.split('.').next().unwrap_or(module);
    matches!(
        top,
        "pickle"
            | "_pickle"
            | "copyreg"
            | "shelve"
            | "pickletools"
            | "inspect"
            | "sys"
            | "traceback"
            | "warnings"
            | "doctest"
            | "unittest"
    )
}

/// `import M` / `import M as N` of the standard library, written as an expression giving the
/// object the statement binds, in any namespace (the bytecode's own steps):
/// - `import a.b.c` binds the top package after importing `a.b.c`: `__import__("a.b.c")` is exactly
///   that (`IMPORT_NAME` with no `fromlist` returns the top package);
/// - `import a.b.c as d` binds `a.b.c` reached by attributes (`IMPORT_FROM b`, then `c`):
///   `__import__("a.b.c").b.c`.
pub fn stdlib_import(module: &str, alias: bool) -> Option<String> {
    if !is_stdlib_module(module) || reads_the_callers_module(module) {
        return None;
    }
    let rest: Vec<&str> = module.split('.').skip(1).collect();
    Some(if alias && !rest.is_empty() {
        format!("__import__(\"{module}\").{}", rest.join("."))
    } else {
        format!("__import__(\"{module}\")")
    })
}

/// `from M import X` of the standard library (absolute, not `*`): `IMPORT_NAME M` with
/// `fromlist=("X",)` (which imports the submodule `M.X` when `M` is a package without an attribute
/// `X`), then `IMPORT_FROM X`, an attribute read: `__import__("M", fromlist=("X",)).X`.
pub fn stdlib_from_import(module: &str, name: &str) -> Option<String> {
    (is_stdlib_module(module)
        && !reads_the_callers_module(module)
        && name != "*"
        && is_stdlib_module_part(name))
    .then(|| format!("__import__(\"{module}\", fromlist=(\"{name}\",)).{name}"))
}

/// Two plain imports binding the same top name (`import os`, then `import os.path`): the name is the
/// same top module either way, and both submodules were imported. One spelling stands for both
/// when one module contains the other (`__import__("os.path")`); siblings (`a.b`, `a.c`) have none.
/// `earlier`: the spelling of the earlier import of that name (`None` if it has none).
pub fn merge_plain_imports(earlier: Option<&str>, new: Option<String>) -> Option<String> {
    let plain = |s: &str| {
        s.strip_prefix("__import__(\"")
            .and_then(|r| r.strip_suffix("\")"))
            .filter(|m| !m.contains('"'))
            .map(str::to_string)
    };
    let (Some(earlier), Some(new)) = (earlier, new.as_deref()) else {
        return None;
    };
    let (Some(a), Some(b)) = (plain(earlier), plain(new)) else {
        // The earlier binding was not a plain import (an alias, a `from` import): replaced.
        return Some(new.to_string());
    };
    let within =
        |outer: &str, inner: &str| inner == outer || inner.starts_with(&format!("{outer}."));
    if within(&a, &b) {
        Some(new.to_string())
    } else if within(&b, &a) {
        Some(earlier.to_string())
    } else {
        None
    }
}

fn is_stdlib_module_part(name: &str) -> bool {
    !name.is_empty() && name.chars().all(|c| c.is_alphanumeric() || c == '_')
}

/// A standard-library import's spelling as a value to substitute: a call, then attributes.
pub fn import_value(text: &str) -> Rendered {
    Rendered {
        text: text.to_string(),
        atomic: true,
        prec: Prec::CallAttribute,
        free: vec!["__import__".to_string()],
    }
}

/// Whether a substituted value is a standard-library import's spelling (not a solution name).
pub fn is_import_value(value: &Rendered) -> bool {
    value.text.starts_with("__import__(\"") && value.free == ["__import__"]
}

/// What to put in place of a free name when rendering an expression.
#[derive(Clone, Debug)]
pub enum Replacement {
    /// Substitute this value (parenthesised unless atomic).
    Value(Rc<Rendered>),
    /// The name refers to the solution module: `name.attr` (and `name().attr` for a loader) becomes
    /// `attr`.
    SolutionModule,
}

/// A substitution that would change meaning: the replacement's free name is bound where it lands.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Capture {
    pub name: String,
    pub captured_by: String,
}

impl Capture {
    /// Why the rewrite was refused, as a sentence fragment for a drop reason.
    pub fn describe(&self) -> String {
        if self.captured_by.starts_with(' ') {
            format!("rewriting `{}`{}", self.name, self.captured_by)
        } else {
            format!(
                "rewriting `{}` would be captured by `{}`",
                self.name, self.captured_by
            )
        }
    }
}

/// How tightly an expression binds; a tuple or generator without its own parentheses binds loosest.
pub fn precedence(expr: &Expr) -> Prec {
    match expr {
        Expr::Tuple(t) if !t.parenthesized => Prec::None,
        Expr::Generator(g) if !g.parenthesized => Prec::None,
        other => Prec::from_expr(other),
    }
}

/// Where a substituted value lands: it needs parentheses when it binds looser than `min` (or as
/// loose, when `strict`).
#[derive(Clone, Copy)]
struct Pos {
    min: Prec,
    strict: bool,
}

impl Pos {
    /// An element of a comma-separated list (call arguments, displays, subscripts), or a whole
    /// expression: anything but a bare tuple, a starred value, a walrus or a yield.
    const COMMA: Pos = Pos {
        min: Prec::Lambda,
        strict: false,
    };
    /// Where an atom is needed (the value of an attribute, a call or a subscript).
    const PRIMARY: Pos = Pos {
        min: Prec::CallAttribute,
        strict: false,
    };

    fn needs_parens(self, prec: Prec) -> bool {
        prec < self.min || (self.strict && prec == self.min)
    }
}

/// Whether an expression can be spliced anywhere without parentheses.
pub fn is_atomic(expr: &Expr) -> bool {
    match expr {
        Expr::Name(_)
        | Expr::Attribute(_)
        | Expr::Subscript(_)
        | Expr::Call(_)
        | Expr::StringLiteral(_)
        | Expr::BytesLiteral(_)
        | Expr::FString(_)
        | Expr::TString(_)
        | Expr::NumberLiteral(_)
        | Expr::BooleanLiteral(_)
        | Expr::NoneLiteral(_)
        | Expr::EllipsisLiteral(_)
        | Expr::List(_)
        | Expr::Dict(_)
        | Expr::Set(_)
        | Expr::ListComp(_)
        | Expr::SetComp(_)
        | Expr::DictComp(_) => true,
        Expr::Tuple(t) => t.parenthesized,
        Expr::Generator(g) => g.parenthesized,
        _ => false,
    }
}

/// Render `expr` as source text, substituting free names as `map` says, by splicing the original
/// source between the substituted ranges. Precedence holds because every non-atomic substitution is
/// parenthesised; an expression spanning several lines is rebuilt from its tokens on one line,
/// without comments. Names bound inside the expression are left alone, and a substitution whose own
/// free names would be captured by an enclosing comprehension or lambda is refused.
pub fn render(
    expr: &Expr,
    map: &HashMap<String, Replacement>,
    src: &SourceMap,
) -> Result<Rendered, Capture> {
    let mut walker = Splicer {
        map,
        pos: Pos::COMMA,
        scopes: Vec::new(),
        edits: Vec::new(),
        free: Vec::new(),
        error: None,
        fstring: 0,
    };
    walker.visit_expr(expr);
    if let Some(capture) = walker.error {
        return Err(capture);
    }
    // Comprehensions are visited out of source order; splicing needs it.
    walker.edits.sort_by_key(|(r, _)| r.start());
    let text = splice(src, expr.range(), &walker.edits);
    let mut free = walker.free;
    free.sort();
    free.dedup();
    Ok(Rendered {
        text,
        atomic: is_atomic(expr),
        prec: precedence(expr),
        free,
    })
}

fn splice(src: &SourceMap, range: TextRange, edits: &[(TextRange, String)]) -> String {
    let source = src.source;
    let raw = &source[range];
    if !raw.contains(['\n', '\r']) {
        let mut out = String::with_capacity(raw.len());
        let mut at = range.start();
        for (r, text) in edits {
            out.push_str(&source[TextRange::new(at, r.start())]);
            out.push_str(text);
            at = r.end();
        }
        out.push_str(&source[TextRange::new(at, range.end())]);
        return out;
    }
    // Several lines: rebuild from tokens, joining lines with one space and dropping comments.
    let mut out = String::with_capacity(raw.len());
    let mut edits = edits.iter().peekable();
    let mut last_end = None;
    for token in src.tokens.in_range(range) {
        if matches!(
            token.kind(),
            TokenKind::Comment | TokenKind::NonLogicalNewline | TokenKind::Newline
        ) {
            continue;
        }
        let tr = token.range();
        while edits.peek().is_some_and(|(er, _)| er.end() <= tr.start()) {
            edits.next();
        }
        let gap = last_end.map(|end| &source[TextRange::new(end, tr.start())]);
        match edits.peek() {
            Some((er, text)) if er.contains_range(tr) => {
                if tr.start() == er.start() {
                    if let Some(gap) = gap {
                        push_gap(&mut out, gap);
                    }
                    out.push_str(text);
                }
            }
            _ => {
                if let Some(gap) = gap {
                    push_gap(&mut out, gap);
                }
                out.push_str(&source[tr]);
            }
        }
        last_end = Some(tr.end());
    }
    out
}

/// The whitespace between two tokens: kept when on one line, one space when it crosses lines.
fn push_gap(out: &mut String, gap: &str) {
    if gap.contains(['\n', '\r', '\\']) {
        out.push(' ');
    } else {
        out.push_str(gap);
    }
}

struct Splicer<'m> {
    map: &'m HashMap<String, Replacement>,
    pos: Pos,
    scopes: Vec<HashSet<String>>,
    edits: Vec<(TextRange, String)>,
    free: Vec<String>,
    error: Option<Capture>,
    /// Depth of f-string replacement fields around the current node.
    fstring: usize,
}

impl Splicer<'_> {
    /// An f-string's fields: a substituted value must not bring quotes or backslashes into a field
    /// (only Python 3.12 parses those), and a field with `=` prints its own source text, so nothing
    /// in it may be rewritten at all.
    fn fstring_element(&mut self, element: &ast::InterpolatedStringElement) {
        let ast::InterpolatedStringElement::Interpolation(field) = element else {
            return;
        };
        let before = self.edits.len();
        self.fstring += 1;
        self.child(&field.expression, Pos::COMMA);
        if let Some(spec) = &field.format_spec {
            for inner in spec.elements.iter() {
                self.fstring_element(inner);
            }
        }
        self.fstring -= 1;
        if field.debug_text.is_some() && self.edits.len() > before && self.error.is_none() {
            self.error = Some(Capture {
                name: self.edits[before].1.clone(),
                captured_by: " would change the text that an f-string's `=` field prints".into(),
            });
        }
    }

    fn child(&mut self, expr: &Expr, pos: Pos) {
        let saved = std::mem::replace(&mut self.pos, pos);
        self.visit_expr(expr);
        self.pos = saved;
    }

    fn bound(&self, name: &str) -> bool {
        self.scopes.iter().any(|s| s.contains(name))
    }

    fn capture_check(&mut self, name: &str, free: &[String]) {
        if self.scopes.is_empty() || self.error.is_some() {
            return;
        }
        if let Some(f) = free.iter().find(|f| self.bound(f)) {
            self.error = Some(Capture {
                name: name.to_string(),
                captured_by: f.clone(),
            });
        }
    }

    fn solution_module(&self, name: &ast::ExprName) -> bool {
        name.ctx == ExprContext::Load
            && !self.bound(name.id.as_str())
            && matches!(
                self.map.get(name.id.as_str()),
                Some(Replacement::SolutionModule)
            )
    }

    fn comprehension(&mut self, generators: &[ast::Comprehension], elts: &[&Expr]) {
        // Iterables and conditions of a comprehension are `or` tests.
        let test = Pos {
            min: Prec::Or,
            strict: false,
        };
        if let Some(first) = generators.first() {
            self.child(&first.iter, test);
        }
        let mut scope = HashSet::default();
        for generator in generators {
            collect_targets(&generator.target, &mut scope);
        }
        self.scopes.push(scope);
        for (i, generator) in generators.iter().enumerate() {
            if i > 0 {
                self.child(&generator.iter, test);
            }
            for cond in &generator.ifs {
                self.child(cond, test);
            }
        }
        for elt in elts {
            self.child(elt, Pos::COMMA);
        }
        self.scopes.pop();
    }
}

impl<'a> Visitor<'a> for Splicer<'_> {
    fn visit_expr(&mut self, expr: &'a Expr) {
        match expr {
            Expr::FString(f) => {
                for element in f.value.elements() {
                    self.fstring_element(element);
                }
            }
            Expr::Name(name) if name.ctx == ExprContext::Load && !self.bound(name.id.as_str()) => {
                match self.map.get(name.id.as_str()) {
                    Some(Replacement::Value(value)) => {
                        let value = Rc::clone(value);
                        if self.fstring > 0
                            && value
                                .text
                                .contains(['\'', '"', '\\', '\n', '\r', '{', '}', '#'])
                            && self.error.is_none()
                        {
                            self.error = Some(Capture {
                                name: name.id.to_string(),
                                captured_by: " would put quotes or backslashes inside an f-string's field, which Python before 3.12 cannot parse".into(),
                            });
                        }
                        self.capture_check(name.id.as_str(), &value.free);
                        self.free.extend(value.free.iter().cloned());
                        let text = if self.pos.needs_parens(value.prec) {
                            format!("({})", value.text)
                        } else {
                            value.text.clone()
                        };
                        self.edits.push((name.range, text));
                    }
                    _ => self.free.push(name.id.to_string()),
                }
            }
            Expr::Attribute(attribute) => {
                let module = match attribute.value.as_ref() {
                    Expr::Name(n) => self.solution_module(n),
                    Expr::Call(call) if call.arguments.is_empty() => {
                        matches!(call.func.as_ref(), Expr::Name(n) if self.solution_module(n))
                    }
                    _ => false,
                };
                if module {
                    let attr = attribute.attr.id.to_string();
                    self.capture_check(&attr, std::slice::from_ref(&attr));
                    self.edits.push((attribute.range, attr.clone()));
                    self.free.push(attr);
                    return;
                }
                // `x.attr` where `x` becomes a number literal needs parentheses: `(1).real`.
                if let Expr::Name(n) = attribute.value.as_ref() {
                    if let Some(Replacement::Value(v)) = self.map.get(n.id.as_str()) {
                        if !self.bound(n.id.as_str())
                            && v.text.starts_with(|c: char| c.is_ascii_digit())
                        {
                            let v = Rc::clone(v);
                            self.free.extend(v.free.iter().cloned());
                            self.edits.push((n.range, format!("({})", v.text)));
                            return;
                        }
                    }
                }
                self.child(&attribute.value, Pos::PRIMARY);
            }
            Expr::Named(named) => self.child(&named.value, Pos::COMMA),
            Expr::BinOp(b) => {
                let op = Prec::from(b.op);
                let right_assoc = op.is_right_associative();
                self.child(
                    &b.left,
                    Pos {
                        min: op,
                        strict: right_assoc,
                    },
                );
                self.child(
                    &b.right,
                    Pos {
                        min: op,
                        strict: !right_assoc,
                    },
                );
            }
            Expr::UnaryOp(u) => self.child(
                &u.operand,
                Pos {
                    min: Prec::from(u.op),
                    strict: false,
                },
            ),
            Expr::BoolOp(b) => {
                let pos = Pos {
                    min: Prec::from(b.op),
                    strict: false,
                };
                for value in &b.values {
                    self.child(value, pos);
                }
            }
            Expr::Compare(c) => {
                let pos = Pos {
                    min: Prec::ComparisonsMembershipIdentity,
                    strict: true,
                };
                self.child(&c.left, pos);
                for right in c.comparators.iter() {
                    self.child(right, pos);
                }
            }
            Expr::If(i) => {
                let inner = Pos {
                    min: Prec::IfElse,
                    strict: true,
                };
                self.child(&i.body, inner);
                self.child(&i.test, inner);
                self.child(
                    &i.orelse,
                    Pos {
                        min: Prec::IfElse,
                        strict: false,
                    },
                );
            }
            Expr::Call(call) => {
                self.child(&call.func, Pos::PRIMARY);
                for arg in call.arguments.args.iter() {
                    self.child(arg, Pos::COMMA);
                }
                for keyword in call.arguments.keywords.iter() {
                    self.child(&keyword.value, Pos::COMMA);
                }
            }
            Expr::Subscript(sub) => {
                self.child(&sub.value, Pos::PRIMARY);
                self.child(&sub.slice, Pos::COMMA);
            }
            Expr::List(l) => l.elts.iter().for_each(|e| self.child(e, Pos::COMMA)),
            Expr::Tuple(t) => t.elts.iter().for_each(|e| self.child(e, Pos::COMMA)),
            Expr::Set(t) => t.elts.iter().for_each(|e| self.child(e, Pos::COMMA)),
            Expr::Dict(d) => {
                for item in &d.items {
                    if let Some(key) = &item.key {
                        self.child(key, Pos::COMMA);
                    }
                    self.child(&item.value, Pos::COMMA);
                }
            }
            Expr::Starred(st) => self.child(
                &st.value,
                Pos {
                    min: Prec::BitOr,
                    strict: false,
                },
            ),
            Expr::Await(a) => self.child(
                &a.value,
                Pos {
                    min: Prec::Await,
                    strict: false,
                },
            ),
            Expr::Lambda(lambda) => {
                let mut scope = HashSet::default();
                if let Some(parameters) = lambda.parameters.as_deref() {
                    for p in parameters.iter() {
                        scope.insert(p.name().id.to_string());
                    }
                    for default in parameters
                        .iter_non_variadic_params()
                        .filter_map(|p| p.default.as_deref())
                    {
                        self.visit_expr(default);
                    }
                }
                self.scopes.push(scope);
                self.child(&lambda.body, Pos::COMMA);
                self.scopes.pop();
            }
            Expr::ListComp(c) => self.comprehension(&c.generators, &[&c.elt]),
            Expr::SetComp(c) => self.comprehension(&c.generators, &[&c.elt]),
            Expr::Generator(c) => self.comprehension(&c.generators, &[&c.elt]),
            Expr::DictComp(c) => {
                let mut elts: Vec<&Expr> = vec![&c.value];
                if let Some(key) = &c.key {
                    elts.insert(0, key);
                }
                self.comprehension(&c.generators, &elts)
            }
            // Anything else (slices, f-string parts, …): keep to atoms.
            _ => {
                let saved = std::mem::replace(&mut self.pos, Pos::PRIMARY);
                visitor::walk_expr(self, expr);
                self.pos = saved;
            }
        }
    }
}

/// The deepest bracket nesting of an expression's text, outside string literals.
pub fn bracket_depth(text: &str) -> usize {
    let (mut depth, mut max, mut quote, mut escaped) = (0usize, 0usize, None::<char>, false);
    for c in text.chars() {
        match quote {
            Some(q) => {
                if escaped {
                    escaped = false;
                } else if c == '\\' {
                    escaped = true;
                } else if c == q {
                    quote = None;
                }
            }
            None => match c {
                '\'' | '"' => quote = Some(c),
                '(' | '[' | '{' => {
                    depth += 1;
                    max = max.max(depth);
                }
                ')' | ']' | '}' => depth = depth.saturating_sub(1),
                _ => {}
            },
        }
    }
    max
}

/// Whether a value can be written twice without changing meaning: numbers, strings, bytes, `None`,
/// booleans, `...`, and tuples, negations and arithmetic of those.
pub fn is_immutable_literal(expr: &Expr) -> bool {
    match expr {
        Expr::NumberLiteral(_)
        | Expr::StringLiteral(_)
        | Expr::BytesLiteral(_)
        | Expr::BooleanLiteral(_)
        | Expr::NoneLiteral(_)
        | Expr::EllipsisLiteral(_) => true,
        Expr::Tuple(t) => t.elts.iter().all(is_immutable_literal),
        Expr::UnaryOp(u) => is_immutable_literal(&u.operand),
        Expr::BinOp(b) => is_immutable_literal(&b.left) && is_immutable_literal(&b.right),
        _ => false,
    }
}

/// Whether an expression is built only from literals and displays (lists, dicts, sets, tuples),
/// optionally reading names that `is_const` accepts: a value that can be written out again.
pub fn is_literal_value(expr: &Expr, is_const: &dyn Fn(&str) -> bool) -> bool {
    match expr {
        Expr::NumberLiteral(_)
        | Expr::StringLiteral(_)
        | Expr::BytesLiteral(_)
        | Expr::BooleanLiteral(_)
        | Expr::NoneLiteral(_)
        | Expr::EllipsisLiteral(_) => true,
        Expr::Name(n) => is_const(n.id.as_str()),
        Expr::Tuple(t) => t.elts.iter().all(|e| is_literal_value(e, is_const)),
        Expr::List(l) => l.elts.iter().all(|e| is_literal_value(e, is_const)),
        Expr::Set(s) => s.elts.iter().all(|e| is_literal_value(e, is_const)),
        Expr::Dict(d) => d.items.iter().all(|item| {
            item.key
                .as_ref()
                .is_some_and(|k| is_literal_value(k, is_const))
                && is_literal_value(&item.value, is_const)
        }),
        Expr::UnaryOp(u) => is_literal_value(&u.operand, is_const),
        Expr::BinOp(b) => {
            is_literal_value(&b.left, is_const) && is_literal_value(&b.right, is_const)
        }
        _ => false,
    }
}
