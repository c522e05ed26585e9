//! Writing an expression back out as source text, with values substituted for free names: the
//! original source is spliced between the substituted ranges, and a value is parenthesised where it
//! binds looser than the place it lands in needs.

use crate::sort::SharedSort as _;
use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};
use std::rc::Rc;

use crate::walk::visitor::{self, Visitor};
use ruff_python_ast::token::TokenKind;
use ruff_python_ast::{self as ast, Expr, ExprContext, OperatorPrecedence as Prec};
use ruff_text_size::{Ranged, TextRange};

use super::facts::{collect_targets, dict_comp_parts};
use crate::source::SourceMap;

/// An expression written out as Python source: the text, how tightly it binds (where it lands
/// decides whether it needs parentheses), and the free names it reads (for capture checks).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rendered {
    pub text: String,
    /// How tightly the expression binds (a bare tuple or generator counts as the loosest).
    pub prec: Prec,
    pub free: Vec<String>,
}

impl Rendered {
    /// A bare name (a solution name after rewriting).
    pub fn name(id: &str) -> Rendered {
        Rendered {
            text: id.to_string(),
            prec: Prec::Atomic,
            free: vec![id.to_string()],
        }
    }
}

/// What to put in place of a free name when rendering an expression.
#[derive(Clone, Debug)]
pub enum Replacement {
    /// Substitute this value (parenthesised where it binds looser than its place needs).
    Value(Rc<Rendered>),
    /// The name refers to the solution module. With the name the evaluator binds the module to
    /// (contract version 2), `name` and a loader's `name()` become that name (`sol.attr` →
    /// `solution.attr`); without one (the write-up's stages, evaluated in the solution's own
    /// globals), `name.attr` (and `name().attr`) becomes `attr`.
    SolutionModule(Option<Rc<str>>),
}

/// A substitution that would change meaning: the replacement's free name is bound where it lands.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Capture {
    pub name: String,
    pub captured_by: String,
}

impl Capture {
    /// Why the rewrite was refused, as a sentence fragment for a drop reason.
    pub fn describe(&self) -> crate::rules::Reason {
        crate::rules::Statements::CapturedName.because(if self.captured_by.starts_with(' ') {
            format!("rewriting `{}`{}", self.name, self.captured_by)
        } else {
            format!(
                "rewriting `{}` would be captured by `{}`",
                self.name, self.captured_by
            )
        })
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
    const COMMA: Pos = Pos::loose(Prec::Lambda);
    /// Where an atom is needed (the value of an attribute, a call or a subscript).
    const PRIMARY: Pos = Pos::loose(Prec::CallAttribute);

    /// Needs parentheses only when the value binds looser than `min`.
    const fn loose(min: Prec) -> Pos {
        Pos { min, strict: false }
    }

    /// Needs parentheses when the value binds as loose as `min`, or looser.
    const fn strict(min: Prec) -> Pos {
        Pos { min, strict: true }
    }

    fn needs_parens(self, prec: Prec) -> bool {
        prec < self.min || (self.strict && prec == self.min)
    }
}

/// Render `expr` as source text, substituting free names as `map` says, by splicing the original
/// source between the substituted ranges. Precedence holds because a substituted value is
/// parenthesised wherever it binds looser than the place it lands in needs (see `Pos`); an
/// expression spanning several lines is rebuilt from its tokens on one line, without comments.
/// Names bound inside the expression are left alone, and a substitution whose own free names would
/// be captured by an enclosing comprehension or lambda is refused.
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
        bare_field: None,
        fstring_quote: None,
    };
    walker.visit_expr(expr);
    if let Some(capture) = walker.error {
        return Err(capture);
    }
    // Comprehensions are visited out of source order; splicing needs it.
    walker.edits.sort_shared_by_key(|(r, _)| r.start());
    let text = splice(src, expr.range(), &walker.edits);
    let mut free = walker.free;
    free.sort_shared();
    free.dedup();
    Ok(Rendered {
        text,
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

/// A string literal's text (`"\x1b"`) written as an equal string with neither backslashes nor the
/// enclosing f-string's quote `q`: an f-string in the other quote, printable characters as they
/// are and the others (quotes, backslashes, braces, `#`, control characters) as a field formatting
/// the code point with `c` (`f'{27:c}[0m'`), which needs no name. `None` for any other text.
fn other_quote_string(text: &str, q: ruff_python_ast::str::Quote) -> Option<String> {
    let parsed = ruff_python_parser::parse_expression(text).ok()?;
    let Expr::StringLiteral(s) = parsed.expr() else {
        return None;
    };
    let quote = match q {
        ruff_python_ast::str::Quote::Single => '"',
        ruff_python_ast::str::Quote::Double => '\'',
    };
    let fields: String = s
        .value
        .to_str()
        .chars()
        .map(|c| match c {
            ' '..='~' if !matches!(c, '\\' | '\'' | '"' | '{' | '}' | '#') => c.to_string(),
            _ => format!("{{{}:c}}", c as u32),
        })
        .collect();
    Some(format!("f{quote}{fields}{quote}"))
}

/// Characters a substituted value may not bring into an f-string's field before Python 3.12.
const FSTRING_FIELD_UNSAFE: [char; 8] = ['\'', '"', '\\', '\n', '\r', '{', '}', '#'];

struct Splicer<'m> {
    map: &'m HashMap<String, Replacement>,
    pos: Pos,
    scopes: Vec<HashSet<String>>,
    edits: Vec<(TextRange, String)>,
    free: Vec<String>,
    error: Option<Capture>,
    /// Depth of f-string replacement fields around the current node.
    fstring: usize,
    /// The innermost f-string field's expression, when it is a bare name (`f"{ESC}[0m"`).
    bare_field: Option<TextRange>,
    /// The quote of the innermost f-string around the current node.
    fstring_quote: Option<ruff_python_ast::str::Quote>,
}

/// The scopes, free names and refusals of a walk.
impl Splicer<'_> {
    fn child(&mut self, expr: &Expr, pos: Pos) {
        let saved = std::mem::replace(&mut self.pos, pos);
        self.visit_expr(expr);
        self.pos = saved;
    }

    fn bound(&self, name: &str) -> bool {
        self.scopes.iter().any(|s| s.contains(name))
    }

    /// Refuse the rewrite (the first reason found is the one given).
    fn refuse(&mut self, name: String, captured_by: String) {
        if self.error.is_none() {
            self.error = Some(Capture { name, captured_by });
        }
    }

    fn capture_check(&mut self, name: &str, free: &[String]) {
        if self.scopes.is_empty() || self.error.is_some() {
            return;
        }
        if let Some(f) = free.iter().find(|f| self.bound(f)) {
            let f = f.clone();
            self.refuse(name.to_string(), f);
        }
    }

    fn solution_module(&self, name: &ast::ExprName) -> bool {
        name.ctx == ExprContext::Load
            && !self.bound(name.id.as_str())
            && matches!(
                self.map.get(name.id.as_str()),
                Some(Replacement::SolutionModule(_))
            )
    }

    /// The name the evaluator binds the solution module to, if `name` stands for the module
    /// and the map has one.
    fn module_binding(&self, name: &ast::ExprName) -> Option<Rc<str>> {
        if !self.solution_module(name) {
            return None;
        }
        match self.map.get(name.id.as_str()) {
            Some(Replacement::SolutionModule(b)) => b.clone(),
            _ => None,
        }
    }

    /// `module` or `loader()` written as the module's binding: `true` if it was.
    fn module_as_binding(&mut self, value: &Expr) -> bool {
        let name = match value {
            Expr::Name(n) => n,
            Expr::Call(call) if call.arguments.is_empty() => match call.func.as_ref() {
                Expr::Name(n) => n,
                _ => return false,
            },
            _ => return false,
        };
        self.name_as_binding(value.range(), name)
    }

    /// `range` (the module's name, or a loader's call) written as the module's binding.
    fn name_as_binding(&mut self, range: TextRange, name: &ast::ExprName) -> bool {
        let Some(binding) = self.module_binding(name) else {
            return false;
        };
        let binding = binding.to_string();
        self.capture_check(&binding, std::slice::from_ref(&binding));
        self.edits.push((range, binding.clone()));
        self.free.push(binding);
        true
    }

    /// A free name's value to substitute, if `map` gives one.
    fn value_of(&self, name: &ast::ExprName) -> Option<Rc<Rendered>> {
        if name.ctx != ExprContext::Load || self.bound(name.id.as_str()) {
            return None;
        }
        match self.map.get(name.id.as_str()) {
            Some(Replacement::Value(value)) => Some(Rc::clone(value)),
            _ => None,
        }
    }
}

/// The rewrites: a free name replaced by its value, `module.attr` by `attr`.
impl Splicer<'_> {
    fn free_name(&mut self, name: &ast::ExprName) {
        if self.name_as_binding(name.range, name) {
            return;
        }
        let Some(value) = self.value_of(name) else {
            self.free.push(name.id.to_string());
            return;
        };
        if self.fstring > 0 && value.text.contains(FSTRING_FIELD_UNSAFE) {
            // A string constant that is a field's whole expression is only formatted there: an
            // equal string written without quotes or backslashes formats the same.
            if let Some(text) = (self.bare_field == Some(name.range) && self.fstring == 1)
                .then(|| {
                    self.fstring_quote
                        .and_then(|q| other_quote_string(&value.text, q))
                })
                .flatten()
            {
                self.edits.push((name.range, text));
                return;
            }
            self.refuse(
                name.id.to_string(),
                " would put quotes or backslashes inside an f-string's field, which Python before 3.12 cannot parse".into(),
            );
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

    fn attribute(&mut self, attribute: &ast::ExprAttribute) {
        if self.module_as_binding(&attribute.value) {
            return;
        }
        if self.is_solution_module(&attribute.value) {
            let attr = attribute.attr.id.to_string();
            self.capture_check(&attr, std::slice::from_ref(&attr));
            self.edits.push((attribute.range, attr.clone()));
            self.free.push(attr);
            return;
        }
        // `x.attr` where `x` becomes a number literal needs parentheses: `(1).real`.
        if let Expr::Name(n) = attribute.value.as_ref() {
            if let Some(v) = self.value_of(n) {
                if v.text.starts_with(|c: char| c.is_ascii_digit()) {
                    self.free.extend(v.free.iter().cloned());
                    self.edits.push((n.range, format!("({})", v.text)));
                    return;
                }
            }
        }
        self.child(&attribute.value, Pos::PRIMARY);
    }

    /// `module` or `loader()`, where `module` is the solution module.
    fn is_solution_module(&self, value: &Expr) -> bool {
        match value {
            Expr::Name(n) => self.solution_module(n),
            Expr::Call(call) if call.arguments.is_empty() => {
                matches!(call.func.as_ref(), Expr::Name(n) if self.solution_module(n))
            }
            _ => false,
        }
    }

    /// An f-string's fields: a substituted value must not bring quotes or backslashes into a field
    /// (only Python 3.12 parses those), and a field with `=` prints its own source text, so nothing
    /// in it may be rewritten at all.
    fn fstring_element(&mut self, element: &ast::InterpolatedStringElement) {
        let ast::InterpolatedStringElement::Interpolation(field) = element else {
            return;
        };
        let before = self.edits.len();
        self.fstring += 1;
        let saved = self.bare_field.take();
        if let Expr::Name(n) = field.expression.as_ref() {
            self.bare_field = Some(n.range);
        }
        self.child(&field.expression, Pos::COMMA);
        self.bare_field = None;
        if let Some(spec) = &field.format_spec {
            for inner in spec.elements.iter() {
                self.fstring_element(inner);
            }
        }
        self.bare_field = saved;
        self.fstring -= 1;
        if field.debug_text.is_some() && self.edits.len() > before {
            let name = self.edits[before].1.clone();
            self.refuse(
                name,
                " would change the text that an f-string's `=` field prints".into(),
            );
        }
    }
}

/// Where each operand of each kind of expression lands, and the scopes it opens.
impl Splicer<'_> {
    fn binary(&mut self, b: &ast::ExprBinOp) {
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

    fn compare(&mut self, c: &ast::ExprCompare) {
        let pos = Pos::strict(Prec::ComparisonsMembershipIdentity);
        self.child(&c.left, pos);
        for right in c.comparators.iter() {
            self.child(right, pos);
        }
    }

    fn conditional(&mut self, i: &ast::ExprIf) {
        let inner = Pos::strict(Prec::IfElse);
        self.child(&i.body, inner);
        self.child(&i.test, inner);
        self.child(&i.orelse, Pos::loose(Prec::IfElse));
    }

    fn call(&mut self, call: &ast::ExprCall) {
        if call.arguments.is_empty() {
            if let Expr::Name(n) = call.func.as_ref() {
                if self.name_as_binding(call.range(), n) {
                    return;
                }
            }
        }
        self.child(&call.func, Pos::PRIMARY);
        for arg in call.arguments.args.iter() {
            self.child(arg, Pos::COMMA);
        }
        for keyword in call.arguments.keywords.iter() {
            self.child(&keyword.value, Pos::COMMA);
        }
    }

    fn elements(&mut self, elts: &[Expr]) {
        elts.iter().for_each(|e| self.child(e, Pos::COMMA));
    }

    fn dict(&mut self, d: &ast::ExprDict) {
        for item in &d.items {
            if let Some(key) = &item.key {
                self.child(key, Pos::COMMA);
            }
            self.child(&item.value, Pos::COMMA);
        }
    }

    fn lambda(&mut self, lambda: &ast::ExprLambda) {
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

    fn comprehension(&mut self, generators: &[ast::Comprehension], elts: &[&Expr]) {
        // Iterables and conditions of a comprehension are `or` tests.
        let test = Pos::loose(Prec::Or);
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
                for part in f.value.iter() {
                    if let ast::FStringPart::FString(fs) = part {
                        let saved = self
                            .fstring_quote
                            .replace(ruff_python_ast::StringFlags::quote_style(fs.flags));
                        fs.elements.iter().for_each(|e| self.fstring_element(e));
                        self.fstring_quote = saved;
                    }
                }
            }
            Expr::Name(name) if name.ctx == ExprContext::Load && !self.bound(name.id.as_str()) => {
                self.free_name(name)
            }
            Expr::Attribute(attribute) => self.attribute(attribute),
            Expr::Named(named) => self.child(&named.value, Pos::COMMA),
            Expr::BinOp(b) => self.binary(b),
            Expr::UnaryOp(u) => self.child(&u.operand, Pos::loose(Prec::from(u.op))),
            Expr::BoolOp(b) => {
                let pos = Pos::loose(Prec::from(b.op));
                b.values.iter().for_each(|value| self.child(value, pos));
            }
            Expr::Compare(c) => self.compare(c),
            Expr::If(i) => self.conditional(i),
            Expr::Call(call) => self.call(call),
            Expr::Subscript(sub) => {
                self.child(&sub.value, Pos::PRIMARY);
                self.child(&sub.slice, Pos::COMMA);
            }
            Expr::List(l) => self.elements(&l.elts),
            Expr::Tuple(t) => self.elements(&t.elts),
            Expr::Set(t) => self.elements(&t.elts),
            Expr::Dict(d) => self.dict(d),
            Expr::Starred(st) => self.child(&st.value, Pos::loose(Prec::BitOr)),
            Expr::Await(a) => self.child(&a.value, Pos::loose(Prec::Await)),
            Expr::Lambda(lambda) => self.lambda(lambda),
            Expr::ListComp(c) => self.comprehension(&c.generators, &[&c.elt]),
            Expr::SetComp(c) => self.comprehension(&c.generators, &[&c.elt]),
            Expr::Generator(c) => self.comprehension(&c.generators, &[&c.elt]),
            Expr::DictComp(c) => self.comprehension(&c.generators, &dict_comp_parts(c)),
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
    // Bytes, not chars: every character that matters is ASCII, and no byte of a multi-byte UTF-8
    // character is (an escaped one is skipped by its first byte; its other bytes match nothing).
    let (mut depth, mut max, mut quote, mut escaped) = (0usize, 0usize, None::<u8>, false);
    for c in text.bytes() {
        match quote {
            Some(q) => {
                if escaped {
                    escaped = false;
                } else if c == b'\\' {
                    escaped = true;
                } else if c == q {
                    quote = None;
                }
            }
            None => match c {
                b'\'' | b'"' => quote = Some(c),
                b'(' | b'[' | b'{' => {
                    depth += 1;
                    max = max.max(depth);
                }
                b')' | b']' | b'}' => depth = depth.saturating_sub(1),
                _ => {}
            },
        }
    }
    max
}
