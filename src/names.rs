//! Name analysis of one expression: which names it reads from outside itself, in which position, and
//! the rewriting that substitutes values for names.
//!
//! Scopes are honoured: names bound by comprehensions, lambdas and walrus targets inside the
//! expression are not free. A read is *touching* when evaluating the expression may change the object
//! the name refers to: a method call on it, passing it to a call, iterating it, or testing membership
//! in it (both consume an iterator).

use std::cell::RefCell;
use std::collections::{HashMap, HashSet};

use ruff_python_ast::visitor::transformer::{self, Transformer};
use ruff_python_ast::visitor::{self, Visitor};
use ruff_python_ast::{self as ast, AtomicNodeIndex, CmpOp, Expr, ExprContext};
use ruff_python_codegen::{Generator, Indentation};
use ruff_source_file::LineEnding;
use ruff_text_size::TextRange;

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

/// One read of a free name.
#[derive(Clone, Debug)]
pub struct Load {
    pub name: String,
    pub range: TextRange,
    /// Evaluating the expression may change the object behind the name.
    pub touched: bool,
    /// The read sits where it may not be evaluated at all (a conditional branch, a short-circuited
    /// operand, a lambda body, a comprehension).
    pub conditional: bool,
    /// The read sits where it may be evaluated many times (a lambda body, a comprehension).
    pub repeated: bool,
    /// `name.attr`: the attribute read on the name, when the name is the value of an attribute.
    pub attr: Option<String>,
}

/// What an expression reads, binds and calls.
#[derive(Clone, Debug, Default)]
pub struct Facts {
    pub loads: Vec<Load>,
    /// Names a walrus inside the expression binds in the enclosing function.
    pub walrus: Vec<String>,
    pub has_call: bool,
}

impl Facts {
    pub fn of(expr: &Expr) -> Facts {
        let mut walker = FactsWalker::default();
        walker.visit_expr(expr);
        let walrus: HashSet<&String> = walker.facts.walrus.iter().collect();
        let mut facts = walker.facts.clone();
        facts.loads.retain(|l| !walrus.contains(&l.name));
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
    attr: Option<String>,
}

impl FactsWalker {
    fn bound(&self, name: &str) -> bool {
        self.scopes.iter().any(|s| s.contains(name))
    }

    fn record(&mut self, name: &ast::ExprName) {
        let attr = self.attr.take();
        if name.ctx != ExprContext::Load || self.bound(name.id.as_str()) {
            return;
        }
        self.facts.loads.push(Load {
            name: name.id.to_string(),
            range: name.range,
            touched: self.touch > 0,
            conditional: self.conditional > 0,
            repeated: self.repeated > 0,
            attr,
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
        let mut scope = HashSet::new();
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
                self.attr = Some(attribute.attr.id.to_string());
                self.visit_expr(&attribute.value);
                self.attr = None;
            }
            Expr::Call(call)
                if call.arguments.is_empty() && matches!(call.func.as_ref(), Expr::Name(_)) =>
            {
                self.facts.has_call = true;
                self.attr = Some(attribute.attr.id.to_string());
                let touch = std::mem::take(&mut self.touch);
                self.visit_expr(&call.func);
                self.touch = touch;
                self.attr = None;
            }
            value => self.visit_expr(value),
        }
    }
}

impl<'a> Visitor<'a> for FactsWalker {
    fn visit_expr(&mut self, expr: &'a Expr) {
        match expr {
            Expr::Name(name) => self.record(name),
            Expr::Attribute(attribute) => self.attribute(attribute),
            Expr::Call(call) => {
                self.facts.has_call = true;
                // A method call may change its receiver: touch the root of `x.a.m(...)`.
                match call.func.as_ref() {
                    Expr::Attribute(attribute) => {
                        self.touch += 1;
                        self.attribute(attribute);
                        self.touch -= 1;
                    }
                    func => self.visit_expr(func),
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
                collect_targets_vec(&named.target, &mut self.facts.walrus);
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
                    self.scopes.push(HashSet::new());
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
                self.visit_expr(&compare.left);
                for (op, right) in compare.ops.iter().zip(compare.comparators.iter()) {
                    if matches!(op, CmpOp::In | CmpOp::NotIn) {
                        self.with_touch(right)
                    } else {
                        self.visit_expr(right)
                    }
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

/// The root name of `x`, `x.a.b`, `x[0].a`: the local an attribute or item store changes.
pub fn root_name(expr: &Expr) -> Option<&str> {
    match expr {
        Expr::Name(name) => Some(name.id.as_str()),
        Expr::Attribute(a) => root_name(&a.value),
        Expr::Subscript(s) => root_name(&s.value),
        _ => None,
    }
}

/// What to put in place of a free name when rewriting an expression.
#[derive(Clone, Debug)]
pub enum Replacement {
    /// Substitute this expression (the printer adds parentheses where precedence needs them).
    Value(Expr),
    /// The name refers to the solution module: `name.attr` becomes `attr`.
    SolutionModule,
}

/// A rewrite that would change meaning: the replacement's free name is bound where it lands.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Capture {
    pub name: String,
    pub captured_by: String,
}

/// Rewrite `expr`, replacing free names as `map` says. Names bound inside the expression are left
/// alone, and a replacement whose own free names would be captured by an enclosing comprehension or
/// lambda is refused.
pub fn rewrite(expr: &Expr, map: &HashMap<String, Replacement>) -> Result<Expr, Capture> {
    let mut out = expr.clone();
    if map.is_empty() {
        return Ok(out);
    }
    let free: HashMap<&str, Vec<String>> = map
        .iter()
        .map(|(k, v)| {
            let names = match v {
                Replacement::Value(e) => Facts::of(e).free_names().map(str::to_string).collect(),
                Replacement::SolutionModule => Vec::new(),
            };
            (k.as_str(), names)
        })
        .collect();
    let rewriter = Rewriter {
        map,
        free,
        scopes: RefCell::new(Vec::new()),
        error: RefCell::new(None),
    };
    rewriter.visit_expr(&mut out);
    match rewriter.error.into_inner() {
        Some(capture) => Err(capture),
        None => Ok(out),
    }
}

struct Rewriter<'m> {
    map: &'m HashMap<String, Replacement>,
    free: HashMap<&'m str, Vec<String>>,
    scopes: RefCell<Vec<HashSet<String>>>,
    error: RefCell<Option<Capture>>,
}

impl Rewriter<'_> {
    fn bound(&self, name: &str) -> bool {
        self.scopes.borrow().iter().any(|s| s.contains(name))
    }

    fn check_capture(&self, name: &str) {
        if let Some(free) = self.free.get(name) {
            for f in free {
                if self.bound(f) && self.error.borrow().is_none() {
                    *self.error.borrow_mut() = Some(Capture {
                        name: name.to_string(),
                        captured_by: f.clone(),
                    });
                }
            }
        }
    }

    fn comprehension(&self, generators: &mut [ast::Comprehension], elts: Vec<&mut Expr>) {
        if let Some(first) = generators.first_mut() {
            self.visit_expr(&mut first.iter);
        }
        let mut scope = HashSet::new();
        for generator in generators.iter() {
            collect_targets(&generator.target, &mut scope);
        }
        self.scopes.borrow_mut().push(scope);
        for (i, generator) in generators.iter_mut().enumerate() {
            if i > 0 {
                self.visit_expr(&mut generator.iter);
            }
            for cond in generator.ifs.iter_mut() {
                self.visit_expr(cond);
            }
        }
        for elt in elts {
            self.visit_expr(elt);
        }
        self.scopes.borrow_mut().pop();
    }
}

impl Transformer for Rewriter<'_> {
    fn visit_expr(&self, expr: &mut Expr) {
        match expr {
            Expr::Name(name) if name.ctx == ExprContext::Load && !self.bound(name.id.as_str()) => {
                if let Some(Replacement::Value(value)) = self.map.get(name.id.as_str()) {
                    self.check_capture(name.id.as_str());
                    *expr = value.clone();
                }
            }
            Expr::Attribute(attribute) => {
                let loader_call = match attribute.value.as_ref() {
                    Expr::Call(call) if call.arguments.is_empty() => Some(call.func.as_ref()),
                    Expr::Name(_) => Some(attribute.value.as_ref()),
                    _ => None,
                };
                if let Some(Expr::Name(name)) = loader_call {
                    if name.ctx == ExprContext::Load
                        && !self.bound(name.id.as_str())
                        && matches!(
                            self.map.get(name.id.as_str()),
                            Some(Replacement::SolutionModule)
                        )
                    {
                        let attr = attribute.attr.id.to_string();
                        if self.bound(&attr) && self.error.borrow().is_none() {
                            *self.error.borrow_mut() = Some(Capture {
                                name: name.id.to_string(),
                                captured_by: attr.clone(),
                            });
                        }
                        let range = attribute.range;
                        *expr = name_expr(&attr, range);
                        return;
                    }
                }
                self.visit_expr(&mut attribute.value);
            }
            Expr::Named(named) => {
                self.visit_expr(&mut named.value);
            }
            Expr::Lambda(lambda) => {
                let mut scope = HashSet::new();
                if let Some(parameters) = lambda.parameters.as_deref_mut() {
                    for p in parameters.iter() {
                        scope.insert(p.name().id.to_string());
                    }
                    for p in parameters
                        .posonlyargs
                        .iter_mut()
                        .chain(parameters.args.iter_mut())
                        .chain(parameters.kwonlyargs.iter_mut())
                    {
                        if let Some(default) = p.default.as_deref_mut() {
                            self.visit_expr(default);
                        }
                    }
                }
                self.scopes.borrow_mut().push(scope);
                self.visit_expr(&mut lambda.body);
                self.scopes.borrow_mut().pop();
            }
            Expr::ListComp(c) => self.comprehension(&mut c.generators, vec![&mut c.elt]),
            Expr::SetComp(c) => self.comprehension(&mut c.generators, vec![&mut c.elt]),
            Expr::Generator(c) => self.comprehension(&mut c.generators, vec![&mut c.elt]),
            Expr::DictComp(c) => {
                let mut elts: Vec<&mut Expr> = Vec::new();
                if let Some(key) = c.key.as_deref_mut() {
                    elts.push(key);
                }
                elts.push(&mut c.value);
                self.comprehension(&mut c.generators, elts)
            }
            _ => transformer::walk_expr(self, expr),
        }
    }
}

/// A `Name` expression in load context.
pub fn name_expr(id: &str, range: TextRange) -> Expr {
    Expr::Name(ast::ExprName {
        node_index: AtomicNodeIndex::default(),
        range,
        id: ast::name::Name::new(id),
        ctx: ExprContext::Load,
    })
}

/// Python source for an expression, on one line, with the string quotes it was written with.
pub fn unparse(expr: &Expr) -> String {
    let indentation = Indentation::default();
    Generator::new(&indentation, LineEnding::Lf).expr(expr)
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
