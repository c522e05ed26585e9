//! A top-level statement of the test as an item: what it binds and reads, and how it is replayed
//! (an assignment, a `del`, an augmented assignment), or why it cannot be. An `if` or a `for` loop
//! whose body folds is `control`'s, which reads the statements inside it with [`statement`].

mod control;

use rustc_hash::FxHashSet as HashSet;

use ruff_python_ast::visitor::Visitor;
use ruff_python_ast::{self as ast, Expr, Stmt};
use ruff_text_size::Ranged;

use super::super::Ctx;
use super::raises::{raises_context, raises_rule};
use super::reads::{local_reads, Reads};
use super::{Blocker, Item, Kind, Piece};
use crate::model::OriginRole;
use crate::module::BoundNames;
use crate::names::{self, Facts, Ident};
use crate::rules::{self, Reason, Statements};
use control::{conditional, for_loop, is_plain_unpack};

/// Whether evaluating an augmented or deleted target's parts twice is the same as once: names and
/// literals only (`obj.attr`, `d[k]`, `d["key"]`).
fn plain_parts(target: &Expr) -> bool {
    let plain = |e: &Expr| matches!(e, Expr::Name(_)) || e.is_literal_expr();
    match target {
        Expr::Name(_) => true,
        Expr::Attribute(a) => plain(&a.value),
        Expr::Subscript(s) => plain(&s.value) && plain(&s.slice),
        _ => false,
    }
}

/// A top-level statement of the test. `is_local(name)`: a local of the test (not an alias of the
/// solution). Inertness is decided by the caller, which knows what is bound.
pub fn statement<'a>(
    ctx: &Ctx<'_, 'a>,
    stmt: &'a Stmt,
    is_local: &dyn Fn(&str) -> bool,
) -> Item<'a> {
    let mut item = Item::blank(stmt.range(), Kind::Other, OriginRole::Folded);
    let reads = Reads { is_local };
    let unwritable = |what: &str| {
        Statements::UnwritableAssignment.because(format!(
            "{what} `{}` on line {} cannot be written as an expression",
            ctx.map.snippet(stmt.range()),
            ctx.map.line(stmt.range().start())
        ))
    };
    match stmt {
        Stmt::Assign(a) => {
            reads.absorb(&mut item, &a.value);
            assign(&mut item, a, &reads, || unwritable("the assignment"));
        }
        Stmt::AnnAssign(a) => match (a.target.as_ref(), a.value.as_deref()) {
            (Expr::Name(t), Some(value)) => {
                reads.absorb(&mut item, value);
                item.defs.push(t.id.clone());
                bind_one(&mut item, std::slice::from_ref(a.target.as_ref()), value);
            }
            // `x: int` binds nothing and evaluates nothing inside a function.
            (Expr::Name(_), None) => item.fold = Err(Blocker::Silent),
            _ => item.fold = Err(Blocker::Reason(unwritable("the annotated assignment"))),
        },
        Stmt::AugAssign(a) => {
            reads.absorb(&mut item, &a.value);
            reads.target(&mut item, &a.target);
            if let Expr::Name(n) = a.target.as_ref() {
                item.defs.push(n.id.clone());
            } else {
                reads.store(&mut item, &a.target);
            }
            item.fold = if plain_parts(&a.target) {
                Ok(Piece::Augmented(&a.target, a.op, &a.value))
            } else {
                Err(Blocker::Reason(Statements::AugmentedTargetTwice.because(format!(
                    "`{}` on line {} is an augmented assignment whose target would be evaluated twice in an expression",
                    ctx.map.snippet(stmt.range()),
                    ctx.map.line(stmt.range().start())
                ))))
            };
        }
        Stmt::Expr(e) => {
            reads.absorb(&mut item, &e.value);
            item.fold = Ok(Piece::Eval(&e.value));
        }
        Stmt::Assert(a) => {
            reads.absorb(&mut item, &a.test);
            if let Some(msg) = &a.msg {
                // The message is evaluated only when the assert fails, when the test stops anyway.
                let facts = Facts::of(msg);
                item.defs.extend(facts.walrus);
            }
            item.kind = Kind::Assert;
            item.fold = Ok(Piece::Check(&a.test));
        }
        Stmt::Delete(d) => delete(ctx, &mut item, d, &reads),
        Stmt::ImportFrom(i)
            if i.level == 0
                && i.module
                    .as_ref()
                    .is_some_and(|m| ctx.scope.is_solution_package(m.as_str()))
                && i.names.iter().all(|a| a.name.as_str() != "*") =>
        {
            let names: Vec<(Ident, String)> = i
                .names
                .iter()
                .map(|a| {
                    let bound = a.asname.as_ref().unwrap_or(&a.name);
                    (Ident::from(bound.as_str()), a.name.to_string())
                })
                .collect();
            item.defs.extend(names.iter().map(|(n, _)| n.clone()));
            let module = i.module.as_ref().map(|m| m.to_string()).unwrap_or_default();
            item.fold = Ok(Piece::ImportNames(module, names));
        }
        Stmt::Pass(_) => item.fold = Err(Blocker::Silent),
        Stmt::If(i) => {
            compound(ctx, stmt, &mut item, is_local);
            conditional(ctx, i, &mut item, is_local);
        }
        Stmt::For(f) => {
            compound(ctx, stmt, &mut item, is_local);
            let mut seen = HashSet::default();
            item.defs.retain(|d| seen.insert(d.clone()));
            match for_loop(ctx, f, is_local) {
                Ok(lp) => {
                    item.fold = Ok(lp.piece);
                    item.reads = lp.reads;
                    item.loads = lp.loads;
                    for d in lp.defs {
                        if !item.defs.contains(&d) {
                            item.defs.push(d);
                        }
                    }
                }
                Err(why) => {
                    // The loop's own words, and the rule of what stops it.
                    if let Err(Blocker::Reason(r)) = &item.fold {
                        let place = r.text.clone();
                        item.fold = Err(Blocker::Reason(why.map(|t| format!("{place}: {t}"))));
                    }
                }
            }
        }
        _ => compound(ctx, stmt, &mut item, is_local),
    }
    item
}

/// `x = value` or `x: T = value` with one name: may be inlined.
fn bind_one<'a>(item: &mut Item<'a>, targets: &'a [Expr], value: &'a Expr) {
    item.kind = Kind::Assign;
    item.role = OriginRole::Inlined;
    item.value = Some(value);
    item.fold = Ok(Piece::Bind(targets, value));
}

/// An assignment statement (its value already absorbed): to names, an unpacking, an attribute or
/// an item, or something no expression writes (`unwritable` says so).
fn assign<'a>(
    item: &mut Item<'a>,
    a: &'a ast::StmtAssign,
    reads: &Reads,
    unwritable: impl Fn() -> Reason,
) {
    // `fib = lambda n: … fib(n - 1)`: a read inside a lambda or comprehension body runs later and
    // means the new binding, not an earlier one.
    let deferred: Vec<Ident> = Facts::of(&a.value)
        .loads
        .iter()
        .filter(|l| l.repeated)
        .map(|l| l.name.clone())
        .filter(|n| {
            a.targets
                .iter()
                .any(|t| matches!(t, Expr::Name(t) if &t.id == n))
        })
        .collect();
    item.reads.retain(|r| !deferred.contains(r));
    let targets = a.targets.as_slice();
    if targets.iter().all(|t| matches!(t, Expr::Name(_))) {
        for t in targets {
            if let Expr::Name(n) = t {
                item.defs.push(n.id.clone());
            }
        }
        if targets.len() == 1 {
            bind_one(item, targets, &a.value);
        }
        item.fold = Ok(Piece::Bind(targets, &a.value));
    } else if let [target @ (Expr::Tuple(_) | Expr::List(_))] = targets {
        names::collect_target_idents(target, &mut item.defs);
        item.fold = if is_plain_unpack(target) {
            Ok(Piece::Unpack(target, &a.value))
        } else {
            Err(Blocker::Reason(unwritable()))
        };
    } else if let [target @ (Expr::Attribute(_) | Expr::Subscript(_))] = targets {
        reads.store(item, target);
        reads.target(item, target);
        item.fold = Ok(Piece::Store(target, &a.value));
    } else {
        for t in targets {
            names::collect_target_idents(t, &mut item.defs);
            reads.target(item, t);
        }
        item.fold = Err(Blocker::Reason(unwritable()));
    }
}

/// `del x`, `del obj[key]`, `del obj.attr`: one item or attribute is replayed, nothing else.
fn delete<'a>(ctx: &Ctx, item: &mut Item<'a>, d: &'a ast::StmtDelete, reads: &Reads) {
    for t in &d.targets {
        match t {
            Expr::Name(n) => item.defs.push(n.id.clone()),
            other => {
                reads.store(item, other);
                reads.target(item, other);
            }
        }
    }
    item.fold = match d.targets.as_slice() {
        [Expr::Subscript(s)] if !matches!(s.slice.as_ref(), Expr::Slice(_)) => {
            Ok(Piece::DelItem(&s.value, &s.slice))
        }
        [Expr::Attribute(a)] => Ok(Piece::DelAttr(&a.value, a.attr.as_str())),
        names if names.iter().all(|t| matches!(t, Expr::Name(_))) => Ok(Piece::Unbind(
            names
                .iter()
                .filter_map(|t| t.as_name_expr().map(|n| n.id.clone()))
                .collect(),
        )),
        _ => Err(Blocker::Reason(Statements::UnreplayableStatement.because(
            format!(
                "`{}` on line {} cannot be replayed in an expression",
                ctx.map.snippet(d.range),
                ctx.map.line(d.range.start())
            ),
        ))),
    };
}

/// Compound statements, nested defs, imports, `global`: they bind what they bind, read every local
/// they mention, and cannot be replayed.
fn compound<'a>(
    ctx: &Ctx<'_, 'a>,
    stmt: &'a Stmt,
    item: &mut Item<'a>,
    is_local: &dyn Fn(&str) -> bool,
) {
    let line = ctx.map.line(stmt.range().start());
    let mut bound = BoundNames::default();
    bound.visit_stmt(stmt);
    item.defs
        .extend(bound.names.iter().map(|n| Ident::from(n.as_str())));
    item.reads.extend(local_reads(stmt, is_local));
    // A `for` loop's rule is that of what stops it (`for_loop`), which `statement` puts in place.
    let (kind, rule): (&str, rules::Rule) = match stmt {
        Stmt::For(_) => ("the `for` loop", Statements::UnreplayableStatement.into()),
        Stmt::While(_) => ("the `while` loop", Statements::WhileLoop.into()),
        Stmt::If(_) => ("the `if`", Statements::IfNotReplayable.into()),
        // A raises block that is not written as a check: the rule of why it is not.
        Stmt::With(w) => (
            "the `with` block",
            // At the top of a test, a `pytest.raises` block of a fine shape is refused only when
            // the test reads its `as` name after it.
            match raises_context(ctx, w) {
                Some(rules::Raises::WarnsBlock) => raises_rule(ctx, w, |_| true)
                    .map_or(Statements::WithBlock.into(), rules::Rule::from),
                Some(r) => r.into(),
                None => Statements::WithBlock.into(),
            },
        ),
        Stmt::Try(_) => ("the `try`", Statements::TryBlock.into()),
        Stmt::Match(_) => ("the `match`", Statements::MatchStatement.into()),
        Stmt::FunctionDef(_) => ("the nested function", Statements::NestedDefinition.into()),
        Stmt::ClassDef(_) => ("the nested class", Statements::NestedDefinition.into()),
        Stmt::Import(_) | Stmt::ImportFrom(_) => ("the import", Statements::ImportInTest.into()),
        Stmt::Global(_) => (
            "the `global` statement",
            Statements::GlobalDeclaration.into(),
        ),
        Stmt::Nonlocal(_) => (
            "the `nonlocal` statement",
            Statements::GlobalDeclaration.into(),
        ),
        // Only inside a loop (elsewhere a syntax error): in a branch of an `if` in the loop's body.
        Stmt::Break(_) | Stmt::Continue(_) => ("the statement", Statements::LoopExitsEarly.into()),
        _ => ("the statement", Statements::UnreplayableStatement.into()),
    };
    item.fold = Err(Blocker::Reason(match bound.names.first() {
        Some(n) if matches!(stmt, Stmt::Import(_) | Stmt::ImportFrom(_)) => {
            Statements::ImportInTest.because(format!("`{n}` is a module imported inside the test on line {line}; the evaluation namespace has only the builtins and what the test file takes from the solution and pytest, not it"))
        }
        _ => {
            let place = format!(
                "{kind} on line {line} (`{}`)",
                ctx.map.snippet(stmt.range())
            );
            let what = format!("{place} cannot be folded into an expression");
            item.place = Some(place);
            rule.because(what)
        }
    }));
}
