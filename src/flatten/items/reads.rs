//! Recording the names an item reads.

use ruff_python_ast::{Expr, Stmt};

use super::Item;
use crate::names::{self, Facts, Ident};
use crate::walk::{for_each_expr, Scope};

/// Recording what an item reads: every name its expressions load (`loads`, for name resolution),
/// and of those the test's locals (`reads`).
pub(super) struct Reads<'l> {
    pub(super) is_local: &'l dyn Fn(&str) -> bool,
}

impl Reads<'_> {
    /// An expression the item evaluates: what it reads, and what its walruses bind.
    pub(super) fn absorb<'a>(&self, item: &mut Item<'a>, expr: &'a Expr) {
        let facts = Facts::of(expr);
        for load in &facts.loads {
            if (self.is_local)(&load.name) {
                item.reads.push(load.name.clone());
            }
        }
        item.defs.extend(facts.walrus);
        item.maybe_defs.extend(facts.walrus_maybe);
        item.loads.extend(facts.loads);
    }

    /// `obj.attr = …` / `obj[k] = …`: the object is read (and changed).
    pub(super) fn store(&self, item: &mut Item, target: &Expr) {
        if let Some(root) = names::root_name(target) {
            if (self.is_local)(root) {
                item.reads.push(Ident::from(root));
            }
        }
    }

    /// The names a target's sub-expressions read (`obj` and `key` in `obj.a[key] = …`).
    pub(super) fn target<'a>(&self, item: &mut Item<'a>, target: &'a Expr) {
        let facts = match target {
            Expr::Name(n) => {
                if (self.is_local)(n.id.as_str()) {
                    item.reads.push(n.id.clone());
                }
                return;
            }
            // The whole target, so that `module.attr` is read as an attribute of the module.
            Expr::Attribute(_) => Facts::of(target),
            Expr::Subscript(s) => {
                let mut f = Facts::of(&s.value);
                f.loads.extend(Facts::of(&s.slice).loads);
                f
            }
            other => Facts::of(other),
        };
        for load in &facts.loads {
            if (self.is_local)(&load.name) {
                item.reads.push(load.name.clone());
            }
        }
        item.loads.extend(facts.loads);
    }
}

/// Local names a compound statement mentions.
pub(super) fn local_reads(stmt: &Stmt, is_local: &dyn Fn(&str) -> bool) -> Vec<Ident> {
    let mut names = Vec::new();
    for_each_expr(stmt, Scope::All, |expr| {
        if let Expr::Name(n) = expr {
            if is_local(n.id.as_str()) {
                names.push(n.id.clone());
            }
        }
    });
    names
}
