//! Walks of the syntax tree the scope's parts share: the names a statement binds, dotted names,
//! `if __name__ == "__main__":`, and every expression a statement evaluates at import.

use ruff_python_ast::visitor::{self, Visitor};
use ruff_python_ast::{self as ast, Expr, Stmt};

use crate::names;

/// `a.b.c` for a chain of attributes on a name.
pub fn dotted_name(expr: &Expr) -> Option<String> {
    let mut out = String::new();
    push_dotted(expr, &mut out).then_some(out)
}

/// Append `expr`'s dotted name to `out` (one string for the whole chain, not one per level);
/// false, with `out` partly written, when the chain does not start at a name.
fn push_dotted(expr: &Expr, out: &mut String) -> bool {
    match expr {
        Expr::Name(n) => {
            out.push_str(n.id.as_str());
            true
        }
        Expr::Attribute(a) => {
            if !push_dotted(&a.value, out) {
                return false;
            }
            out.push('.');
            out.push_str(a.attr.as_str());
            true
        }
        _ => false,
    }
}

/// `__name__ == "__main__"` (either way round).
pub(super) fn is_main_guard(test: &Expr) -> bool {
    let Expr::Compare(c) = test else { return false };
    let is_name = |e: &Expr| matches!(e, Expr::Name(n) if n.id.as_str() == "__name__");
    let is_main = |e: &Expr| matches!(e, Expr::StringLiteral(s) if s.value.to_str() == "__main__");
    c.comparators.len() == 1
        && matches!(c.ops[0], ast::CmpOp::Eq)
        && ((is_name(&c.left) && is_main(&c.comparators[0]))
            || (is_main(&c.left) && is_name(&c.comparators[0])))
}

/// Every expression a module-level statement evaluates when the file is imported: all of it for a
/// simple statement; decorators, defaults and annotations of a `def` (not its body); the body of a
/// class; the tests and bodies of module-level blocks.
pub(super) fn for_import_time_exprs(stmt: &Stmt, f: &mut dyn FnMut(&Expr)) {
    struct Walk<'f>(&'f mut dyn FnMut(&Expr));
    impl<'a> Visitor<'a> for Walk<'_> {
        fn visit_stmt(&mut self, stmt: &'a Stmt) {
            match stmt {
                Stmt::FunctionDef(d) => {
                    for dec in &d.decorator_list {
                        self.visit_expr(&dec.expression);
                    }
                    for p in d.parameters.iter() {
                        if let Some(default) = p.default() {
                            self.visit_expr(default);
                        }
                    }
                }
                other => visitor::walk_stmt(self, other),
            }
        }
        fn visit_expr(&mut self, expr: &'a Expr) {
            (self.0)(expr);
            if let Expr::Lambda(_) = expr {
                return;
            }
            visitor::walk_expr(self, expr);
        }
    }
    Walk(f).visit_stmt(stmt);
}

/// Names bound anywhere in a statement (assignments, loop targets, imports, `as` targets, defs),
/// not descending into nested functions or classes.
#[derive(Default)]
pub struct BoundNames {
    pub names: Vec<String>,
}

impl<'a> Visitor<'a> for BoundNames {
    fn visit_stmt(&mut self, stmt: &'a Stmt) {
        match stmt {
            Stmt::FunctionDef(f) => {
                self.names.push(f.name.to_string());
                return;
            }
            Stmt::ClassDef(c) => {
                self.names.push(c.name.to_string());
                return;
            }
            Stmt::Import(i) => {
                for a in &i.names {
                    let bound = a
                        .asname
                        .as_ref()
                        .map(|n| n.to_string())
                        .unwrap_or_else(|| a.name.split('.').next().unwrap_or("").to_string());
                    self.names.push(bound);
                }
            }
            Stmt::ImportFrom(i) => {
                for a in &i.names {
                    self.names
                        .push(a.asname.as_ref().unwrap_or(&a.name).to_string());
                }
            }
            Stmt::Assign(a) => a
                .targets
                .iter()
                .for_each(|t| names::collect_targets_vec(t, &mut self.names)),
            Stmt::AnnAssign(a) => names::collect_targets_vec(&a.target, &mut self.names),
            Stmt::AugAssign(a) => names::collect_targets_vec(&a.target, &mut self.names),
            Stmt::For(f) => names::collect_targets_vec(&f.target, &mut self.names),
            Stmt::With(w) => {
                for item in &w.items {
                    if let Some(v) = &item.optional_vars {
                        names::collect_targets_vec(v, &mut self.names);
                    }
                }
            }
            Stmt::Try(t) => {
                for h in &t.handlers {
                    let ast::ExceptHandler::ExceptHandler(h) = h;
                    if let Some(n) = &h.name {
                        self.names.push(n.to_string());
                    }
                }
            }
            Stmt::Delete(d) => d
                .targets
                .iter()
                .for_each(|t| names::collect_targets_vec(t, &mut self.names)),
            _ => {}
        }
        visitor::walk_stmt(self, stmt);
    }
    fn visit_expr(&mut self, expr: &'a Expr) {
        match expr {
            Expr::Named(n) => {
                names::collect_targets_vec(&n.target, &mut self.names);
                self.visit_expr(&n.value);
            }
            // Comprehensions and lambdas have their own scopes (walrus targets inside still bind here,
            // but are rare enough to treat through the walk above).
            Expr::Lambda(_) => {}
            _ => visitor::walk_expr(self, expr),
        }
    }
}

/// A decorator that only sets attributes of its argument to literals (`f.__test__ = False`,
/// `setattr(f, "__test__", False)`, `f.slow = True`) and returns it: applying it runs nothing but
/// those stores. `Some(None)` when it does not set `__test__`, `Some(Some(false_))` when it does,
/// `false_` whether the last value it sets is false (nose's `nottest`). `None` for any other
/// function.
pub fn literal_attribute_decorator(f: &ast::StmtFunctionDef) -> Option<Option<bool>> {
    let param = f
        .parameters
        .posonlyargs
        .iter()
        .chain(f.parameters.args.iter())
        .next()?
        .parameter
        .name
        .as_str();
    // Called with the decorated object alone: every other parameter needs a default.
    if f.parameters
        .posonlyargs
        .iter()
        .chain(&f.parameters.args)
        .chain(&f.parameters.kwonlyargs)
        .skip(1)
        .any(|p| p.default.is_none())
    {
        return None;
    }
    let body = &f.body;
    let (last, rest) = body.split_last()?;
    if !matches!(last, Stmt::Return(r) if matches!(r.value.as_deref(), Some(Expr::Name(n)) if n.id.as_str() == param))
    {
        return None;
    }
    let is_param = |e: &Expr| matches!(e, Expr::Name(n) if n.id.as_str() == param);
    let mut test = None;
    for (i, s) in rest.iter().enumerate() {
        match s {
            Stmt::Pass(_) => {}
            Stmt::Expr(e) if i == 0 && e.value.is_string_literal_expr() => {}
            Stmt::Assign(a) => {
                let [Expr::Attribute(t)] = a.targets.as_slice() else {
                    return None;
                };
                if !is_param(&t.value) {
                    return None;
                }
                let falsy = falsy_literal(&a.value)?;
                if t.attr.as_str() == "__test__" {
                    test = Some(falsy);
                }
            }
            Stmt::Expr(e) => {
                let Expr::Call(c) = e.value.as_ref() else {
                    return None;
                };
                let ([target, Expr::StringLiteral(attr), value], true) = (
                    c.arguments.args.as_ref(),
                    c.arguments.keywords.is_empty()
                        && matches!(c.func.as_ref(), Expr::Name(n) if n.id.as_str() == "setattr"),
                ) else {
                    return None;
                };
                if !is_param(target) {
                    return None;
                }
                let falsy = falsy_literal(value)?;
                if attr.value.to_str() == "__test__" {
                    test = Some(falsy);
                }
            }
            _ => return None,
        }
    }
    Some(test)
}

/// Whether an expression is a literal Python takes as false (`Some(true)`) or true (`Some(false)`).
pub fn falsy_literal(e: &Expr) -> Option<bool> {
    match e {
        Expr::BooleanLiteral(b) => Some(!b.value),
        Expr::NoneLiteral(_) => Some(true),
        Expr::NumberLiteral(n) => match &n.value {
            ast::Number::Int(i) => Some(i.as_u64() == Some(0)),
            _ => None,
        },
        Expr::StringLiteral(s) => Some(s.value.is_empty()),
        _ => None,
    }
}
