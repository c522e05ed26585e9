//! What an expression reads from outside itself, and in which position; what it binds; the
//! operations in it that may run code.
//!
//! Scopes are honoured: names bound by comprehensions, lambdas and walrus targets inside the
//! expression are not free. A read is *touching* when evaluating the expression may change the object
//! the name refers to: a method call on it, passing it to a call, iterating it, or testing membership
//! in it (both consume an iterator).

use rustc_hash::FxHashSet as HashSet;

use crate::walk::visitor::{self, Visitor};
use ruff_python_ast::{self as ast, CmpOp, Expr, ExprContext};
use ruff_text_size::{Ranged, TextRange};

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
    /// `name()`: called with no arguments at all (`vars()` reads the caller's frame, `vars(x)` not).
    pub bare_call: bool,
}

/// An operation that may run code outside the builtins (a call, an attribute read, a subscript, an
/// operator, a truth test, iteration, formatting): evaluating it may observe or change state.
#[derive(Clone, Debug)]
pub struct Op {
    pub range: TextRange,
}

/// What an expression reads, binds and calls.
#[derive(Clone, Debug, Default)]
pub struct Facts {
    pub loads: Vec<Load>,
    /// Names a walrus inside the expression binds in the enclosing function.
    pub walrus: Vec<Ident>,
    /// Of `walrus`, those bound where the walrus may not run (behind `and`/`or`, in a branch of a
    /// conditional expression, in a comprehension that may not iterate): the name may keep the
    /// value it had.
    pub walrus_maybe: Vec<Ident>,
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
    /// That call has no arguments.
    bare_callee: bool,
}

impl FactsWalker {
    fn bound(&self, name: &str) -> bool {
        self.scopes.iter().any(|s| s.contains(name))
    }

    fn record(&mut self, name: &ast::ExprName) {
        let attr = self.attr.take();
        let called = std::mem::take(&mut self.callee);
        let bare_call = called && std::mem::take(&mut self.bare_callee);
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
            bare_call,
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
            self.facts.ops.push(Op {
                range: expr.range(),
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
            Expr::Call(call) => self.call(call),
            Expr::Named(named) => {
                self.visit_expr(&named.value);
                collect_target_idents(&named.target, &mut self.facts.walrus);
                if self.conditional > 0 || self.repeated > 0 {
                    collect_target_idents(&named.target, &mut self.facts.walrus_maybe);
                }
            }
            Expr::Lambda(lambda) => self.lambda(lambda),
            Expr::ListComp(c) => self.comprehension(&c.generators, &[&c.elt]),
            Expr::SetComp(c) => self.comprehension(&c.generators, &[&c.elt]),
            Expr::Generator(c) => self.comprehension(&c.generators, &[&c.elt]),
            Expr::DictComp(c) => self.comprehension(&c.generators, &dict_comp_parts(c)),
            Expr::If(if_expr) => {
                self.visit_expr(&if_expr.test);
                self.conditionally(&if_expr.body);
                self.conditionally(&if_expr.orelse);
            }
            Expr::BoolOp(bool_op) => self.short_circuit(&bool_op.values),
            Expr::Compare(compare) => self.compare(compare),
            Expr::Starred(starred) => self.with_touch(&starred.value),
            Expr::Await(_) | Expr::Yield(_) | Expr::YieldFrom(_) => {
                self.facts.has_call = true;
                visitor::walk_expr(self, expr);
            }
            _ => visitor::walk_expr(self, expr),
        }
    }
}

impl FactsWalker {
    fn call(&mut self, call: &ast::ExprCall) {
        self.facts.has_call = true;
        self.facts.calls.push(call.range());
        self.bare_callee = call.arguments.is_empty();
        self.callee(&call.func);
        self.bare_callee = false;
        let pure = matches!(call.func.as_ref(), Expr::Name(n)
            if NON_MUTATING_BUILTINS.contains(&n.id.as_str()) && !self.bound(n.id.as_str()));
        let arguments = call.arguments.args.iter();
        for arg in arguments.chain(call.arguments.keywords.iter().map(|k| &k.value)) {
            if pure {
                self.visit_expr(arg)
            } else {
                self.with_touch(arg)
            }
        }
    }

    /// What a call calls. A method call may change its receiver: touch the root of `x.a.m(...)`.
    fn callee(&mut self, func: &Expr) {
        match func {
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
    }

    /// Defaults are evaluated where the lambda is made; the body maybe never, maybe many times.
    fn lambda(&mut self, lambda: &ast::ExprLambda) {
        let mut scope = HashSet::default();
        if let Some(parameters) = &lambda.parameters {
            for default in parameters
                .iter_non_variadic_params()
                .filter_map(|p| p.default.as_deref())
            {
                self.visit_expr(default);
            }
            scope = parameters.iter().map(|p| p.name().id.to_string()).collect();
        }
        self.scopes.push(scope);
        self.repeated += 1;
        self.conditionally(&lambda.body);
        self.repeated -= 1;
        self.scopes.pop();
    }

    /// `a and b or c`: every operand after the first may be short-circuited away.
    fn short_circuit(&mut self, values: &[Expr]) {
        for (i, value) in values.iter().enumerate() {
            if i == 0 {
                self.visit_expr(value)
            } else {
                self.conditionally(value)
            }
        }
    }

    fn compare(&mut self, compare: &ast::ExprCompare) {
        let identity = compare
            .ops
            .iter()
            .any(|op| matches!(op, CmpOp::Is | CmpOp::IsNot));
        // Only a name that is itself compared by identity is an identity read.
        let direct = |e: &Expr| identity && matches!(e, Expr::Name(_));
        self.comparand(&compare.left, direct(&compare.left), false);
        let rights = compare.ops.iter().zip(compare.comparators.iter());
        for (i, (op, right)) in rights.enumerate() {
            // `a < b < c` evaluates `c` only when `a < b`.
            self.conditional += usize::from(i > 0);
            let membership = matches!(op, CmpOp::In | CmpOp::NotIn);
            self.comparand(right, direct(right), membership);
            self.conditional -= usize::from(i > 0);
        }
    }

    /// One operand of a comparison: read by identity, or iterated (the right of `in`), or plainly.
    fn comparand(&mut self, operand: &Expr, by_identity: bool, membership: bool) {
        self.identity += usize::from(by_identity);
        if membership {
            self.with_touch(operand)
        } else {
            self.visit_expr(operand)
        }
        self.identity -= usize::from(by_identity);
    }
}

/// What a dict comprehension evaluates for each item, in order: the key (when it has one), the value.
pub(super) fn dict_comp_parts(c: &ast::ExprDictComp) -> Vec<&Expr> {
    c.key.as_deref().into_iter().chain([&*c.value]).collect()
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
