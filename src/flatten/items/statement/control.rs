//! An `if` or a `for` loop whose body folds, replayed as a piece (`Piece::Cond`, `Piece::Loop`).

use rustc_hash::FxHashSet as HashSet;

use ruff_python_ast::{self as ast, Expr, Stmt};
use ruff_text_size::{Ranged, TextRange};

use super::super::super::Ctx;
use super::super::{Blocker, Clause, Item, Piece};
use super::statement;
use crate::names::{self, Facts, Ident};
use crate::rules::{Reason, Statements};

/// An `if` whose branches hold only statements that are replayed as pieces themselves (no assert,
/// no block that is not itself such an `if`, no `return`, import or `def`), and whose conditions
/// bind nothing (a walrus in a condition would bind in one scope or the other depending on the
/// branch): written as a conditional expression (`Piece::Cond`). Its item (already read as a
/// compound statement: what it binds and the locals it mentions) keeps the compound's reason
/// otherwise. A name bound in one branch only stays unbound when the other runs, in the fold's
/// lambda as in the test function (a local either way); module-level code needs more, which
/// `ModuleScope` checks before it replays an `if` (see `module::prelude::replayable_if`).
pub(super) fn conditional<'a>(
    ctx: &Ctx<'_, 'a>,
    i: &'a ast::StmtIf,
    item: &mut Item<'a>,
    is_local: &dyn Fn(&str) -> bool,
) {
    let mut loads = Vec::new();
    // What the conditions and the branches' statements read (the compound's reading of the
    // whole statement counts the names it stores into as read).
    let mut reads: Vec<Ident> = Vec::new();
    let mut branch_defs: Vec<Vec<String>> = Vec::new();
    let mut clauses: Vec<Clause<'a>> = Vec::new();
    let branches = std::iter::once((Some(i.test.as_ref()), &i.body)).chain(
        i.elif_else_clauses
            .iter()
            .map(|c| (c.test.as_ref(), &c.body)),
    );
    for (test, body) in branches {
        if let Some(test) = test {
            let facts = Facts::of(test);
            if !facts.walrus.is_empty() {
                return;
            }
            reads.extend(
                facts
                    .loads
                    .iter()
                    .filter(|l| is_local(l.name.as_str()))
                    .map(|l| l.name.clone()),
            );
            loads.extend(facts.loads);
        }
        let mut pieces = Vec::new();
        // The names this branch certainly binds: not those a nested `if` binds on some paths only.
        let mut certain: Vec<String> = Vec::new();
        for s in body {
            if matches!(s, Stmt::Pass(_)) {
                continue;
            }
            let sub = statement(ctx, s, is_local);
            match sub.fold {
                // An assert, also one inside a loop, would run only on one path: not replayed.
                Ok(Piece::Check(_) | Piece::Loop(..)) | Err(Blocker::Silent) => return,
                // The `if`'s words, and the rule of the statement that stops it.
                Err(Blocker::Reason(inner)) => {
                    if let Err(Blocker::Reason(r)) = &mut item.fold {
                        r.rule = inner.rule;
                    }
                    return;
                }
                Ok(piece) => pieces.push(piece),
            }
            certain.extend(
                sub.defs
                    .iter()
                    .filter(|d| !sub.maybe_defs.contains(d))
                    .map(|d| d.to_string()),
            );
            loads.extend(sub.loads);
            reads.extend(sub.reads);
        }
        branch_defs.push(certain);
        clauses.push((test, pieces));
    }
    if i.elif_else_clauses.last().is_none_or(|c| c.test.is_some()) {
        branch_defs.push(Vec::new());
    }
    item.maybe_defs = item
        .defs
        .iter()
        .filter(|d| {
            !branch_defs
                .iter()
                .all(|b| b.iter().any(|n| n == d.as_str()))
        })
        .cloned()
        .collect();
    item.loads.extend(loads);
    item.reads = reads;
    item.fold = Ok(Piece::Cond(clauses));
    item.place = None;
}

/// A `for` loop whose body is plain statements, as a piece: what it binds and reads.
pub(super) struct Loop<'a> {
    pub(super) piece: Piece<'a>,
    /// Locals read before the loop binds them (the iterable's, and the body's first reads).
    pub(super) reads: Vec<Ident>,
    pub(super) loads: Vec<names::Load>,
    pub(super) defs: Vec<Ident>,
}

/// `for t in it: body` with plain names as the target, no `else:`, and a body of statements that
/// each fold (nested loops included); otherwise why not, naming the statement.
pub(super) fn for_loop<'a>(
    ctx: &Ctx<'_, 'a>,
    f: &'a ast::StmtFor,
    is_local: &dyn Fn(&str) -> bool,
) -> Result<Loop<'a>, Reason> {
    let at = |r: TextRange| {
        format!(
            "`{}` on line {}",
            ctx.map.snippet(r),
            ctx.map.line(r.start())
        )
    };
    // It was the rule S009 (retired): an `async for` outside an `async def` is a syntax error
    // (`extract::syntax::async_outside_async_function`), so one here is in an `async def` test,
    // which pytest does not run without a plugin (C006): its whole test is dropped for that (or
    // for the syntax error), whatever this says. `flatten_case` asserts it in debug builds.
    if f.is_async {
        return Err(crate::rules::Collection::AsyncTest.because(
            "it is an `async for`, which only an `async def` test holds, and pytest runs such a test only with a plugin",
        ));
    }
    if let Some(first) = f.orelse.first() {
        return Err(Statements::ForElse.because(format!(
            "its `else:` block ({}) runs only when no `break` ends it",
            at(first.range())
        )));
    }
    if !is_plain_unpack(&f.target) || matches!(f.target.as_ref(), Expr::Starred(_)) {
        return Err(Statements::LoopTargetNotNames.because(format!(
            "its target `{}` is not plain names",
            ctx.map.snippet(f.target.range())
        )));
    }
    let iter = Facts::of(&f.iter);
    if !iter.walrus.is_empty() {
        return Err(Statements::WalrusInLoopIterable.because("its iterable binds a name with `:=`"));
    }
    let mut reads: Vec<Ident> = iter
        .loads
        .iter()
        .filter(|l| is_local(&l.name))
        .map(|l| l.name.clone())
        .collect();
    let mut loads = iter.loads;
    let mut defs = Vec::new();
    names::collect_target_idents(&f.target, &mut defs);
    let mut bound: HashSet<Ident> = defs.iter().cloned().collect();
    let mut pieces = Vec::new();
    for s in &f.body {
        match s {
            Stmt::Pass(_) => continue,
            Stmt::Break(_) | Stmt::Continue(_) | Stmt::Return(_) | Stmt::Raise(_) => {
                return Err(Statements::LoopExitsEarly
                    .because(format!("{} leaves the iteration early", at(s.range()))));
            }
            _ => {}
        }
        let sub = statement(ctx, s, is_local);
        let piece = match sub.fold {
            Ok(piece) => piece,
            Err(Blocker::Silent) => {
                return Err(Statements::UnreplayableStatement.because(format!(
                    "{} cannot be replayed in an expression",
                    at(s.range())
                )))
            }
            Err(Blocker::Reason(why)) => return Err(why),
        };
        reads.extend(sub.reads.into_iter().filter(|r| !bound.contains(r)));
        bound.extend(sub.defs.iter().cloned());
        defs.extend(sub.defs);
        // The body runs once per iteration: a file constant it reads is one object across them,
        // bound once (see `assertion::shared_constants`), never a fresh literal per iteration.
        loads.extend(sub.loads.into_iter().map(|mut l| {
            l.repeated = true;
            l
        }));
        pieces.push(piece);
    }
    let piece = Piece::Loop(&f.target, &f.iter, pieces);
    Ok(Loop {
        piece,
        reads,
        loads,
        defs,
    })
}

pub(super) fn is_plain_unpack(target: &Expr) -> bool {
    match target {
        Expr::Name(_) => true,
        Expr::Tuple(t) => t.elts.iter().all(is_plain_unpack),
        Expr::List(l) => l.elts.iter().all(is_plain_unpack),
        Expr::Starred(s) => matches!(s.value.as_ref(), Expr::Name(_)),
        _ => false,
    }
}
