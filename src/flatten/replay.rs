//! What an assertion replays: everything before it that is not inert, plus the inert bindings of
//! what that reads; the first replayed item that cannot be replayed; and the shapes the replay
//! shows.

use crate::sort::SharedSort as _;
use rustc_hash::FxHashSet as HashSet;

use super::items::{Blocker, Item, Kind, Piece};
use super::{Ctx, Test};
use crate::names::{Facts, Ident};
use crate::rules::{Reason, Statements};
use crate::shape::Shape;

/// The items an assertion replays, and for each the locals that made it needed.
pub(super) struct Replay {
    pub items: Vec<usize>,
    /// For each replayed item (by index in `items`), the needed locals it binds.
    pub binds: Vec<Vec<Ident>>,
    /// Locals the assertion needs that nothing before it binds.
    pub unbound: Vec<Ident>,
}

/// Everything before the assertion that is not inert, plus the inert bindings of what that reads.
pub(super) fn replay_set(test: &Test, facts: &Facts, items: &[Item]) -> Replay {
    let mut needed: HashSet<Ident> = facts
        .loads
        .iter()
        .filter(|l| test.is_local(l.name.as_str()))
        .map(|l| l.name.clone())
        .collect();
    let mut chosen = Vec::new();
    let mut binds = Vec::new();
    let mut maybe_bound: HashSet<Ident> = HashSet::default();
    // Names read after a `del` of them: unbound in pytest.
    let mut deleted: Vec<Ident> = Vec::new();
    for (i, item) in items.iter().enumerate().rev() {
        let hits: Vec<Ident> = item
            .defs
            .iter()
            .filter(|d| needed.contains(*d))
            .cloned()
            .collect();
        if matches!(item.fold, Ok(Piece::Unbind(_))) {
            for h in &hits {
                needed.remove(h);
                deleted.push(h.clone());
            }
        }
        if hits.is_empty() && item.inert {
            continue;
        }
        // A loop may iterate nothing: what it binds keeps its earlier binding then, which is
        // replayed too (and a name only the loop binds is unbound after it in both).
        if matches!(item.fold, Ok(Piece::Loop(..))) {
            maybe_bound.extend(item.defs.iter().cloned());
        } else {
            // An `if`, or a walrus that may not run (`a or (z := 1)`), may leave a name as it was:
            // what bound it before is still needed. If nothing did, the name is unbound in the test
            // and in the fold's lambda alike (a local of both), so it is not reported unbound.
            for d in &item.defs {
                if item.maybe_defs.contains(d) {
                    maybe_bound.insert(d.clone());
                } else {
                    needed.remove(d);
                }
            }
        }
        // A block that cannot be replayed reads names it binds itself (`for step in …`); its
        // reads only matter for the reason it gives.
        for r in &item.reads {
            if item.fold.is_ok() || !item.defs.contains(r) {
                needed.insert(r.clone());
            }
        }
        chosen.push(i);
        binds.push(hits);
    }
    chosen.reverse();
    binds.reverse();
    let mut unbound: Vec<Ident> = needed
        .into_iter()
        .filter(|n| !maybe_bound.contains(n))
        .chain(deleted)
        .collect();
    unbound.dedup();
    unbound.sort_shared();
    Replay {
        items: chosen,
        binds,
        unbound,
    }
}

/// The first replayed item that cannot be replayed, with the drop reason and the names involved.
pub(super) fn first_blocker(
    ctx: &Ctx,
    items: &[Item],
    replay: &Replay,
) -> Option<(usize, Reason, Vec<String>)> {
    for (pos, &i) in replay.items.iter().enumerate() {
        let item = &items[i];
        let blocker = match &item.fold {
            Ok(_) => continue,
            Err(Blocker::Silent) => {
                let reason = Statements::UnreplayableStatement.because(format!(
                    "{} cannot be replayed in an expression",
                    item.what(ctx)
                ));
                return Some((i, reason, names_of(&replay.binds[pos])));
            }
            Err(Blocker::Reason(why)) => why.clone(),
        };
        let hits = &replay.binds[pos];
        let listed: Vec<String> = hits.iter().map(|n| format!("`{n}`")).collect();
        let reason = if item.label.is_some() {
            // A binding that cannot be reproduced (a fixture, the class instance) or setup: cite
            // where the test uses it.
            let user = replay.items[pos + 1..]
                .iter()
                .find(|&&j| item.defs.iter().any(|d| items[j].reads.contains(d)));
            match user {
                Some(&j) => blocker.map(|b| format!("{} uses it; {b}", items[j].what(ctx))),
                None => blocker,
            }
        } else if !hits.is_empty() {
            let be = if hits.len() == 1 { "is" } else { "are" };
            match &item.place {
                // What the block's own reason adds (a loop's: which statement stops it).
                Some(place) => blocker.map(|b| {
                    // A nested `def` or `class` binds its own name: it is not assigned inside it.
                    let how = if place.starts_with("the nested function ")
                        || place.starts_with("the nested class ")
                    {
                        "defined by"
                    } else {
                        "assigned inside"
                    };
                    format!(
                        "{} {be} {how} {place}, which cannot be folded into an expression{}",
                        listed.join(", "),
                        b.strip_prefix(place.as_str())
                            .and_then(|r| r.strip_prefix(" cannot be folded into an expression"))
                            .unwrap_or("")
                    )
                }),
                // The reason may already cite the name (the statement's own text, an import).
                None if !blocker.text.contains(&listed[0]) => {
                    blocker.map(|b| format!("{} {be} assigned there: {b}", listed.join(", ")))
                }
                None => blocker,
            }
        } else {
            let what = item.place.clone().unwrap_or_else(|| item.what(ctx));
            blocker.map(|b| format!("{what} runs before this assert and may change what it reads, but cannot be replayed in an expression: {b}"))
        };
        return Some((i, reason, names_of(hits)));
    }
    None
}

/// A piece run for its effect on an object (a call, a store, `+=`, `del`), or an `if` with one.
fn changes_state(piece: &Piece) -> bool {
    match piece {
        Piece::Eval(_)
        | Piece::Store(..)
        | Piece::Augmented(..)
        | Piece::DelItem(..)
        | Piece::DelAttr(..)
        | Piece::Unbind(..) => true,
        Piece::Cond(clauses) => clauses.iter().flat_map(|(_, p)| p).any(changes_state),
        _ => false,
    }
}

fn names_of(hits: &[Ident]) -> Vec<String> {
    hits.iter().map(|n| n.to_string()).collect()
}

pub(super) fn shapes_of(
    test: &Test,
    facts: &Facts,
    items: &[Item],
    replay: &[usize],
) -> Vec<Shape> {
    let case = test.case;
    let params = || case.func.parameters.iter().map(|p| p.name().as_str());
    let mut shapes = Vec::new();
    let reads_statement_local = facts.free_names().any(|n| {
        test.is_local(n)
            && !params().any(|p| p == n)
            && !items.iter().any(|it| {
                matches!(it.kind, Kind::Param | Kind::Fixture) && it.defs.iter().any(|d| d == n)
            })
    });
    let statement = |it: &Item| it.label.is_none() && it.kind != Kind::Assert;
    if reads_statement_local
        || replay
            .iter()
            .any(|&i| statement(&items[i]) && !items[i].defs.is_empty())
    {
        shapes.push(Shape::VariableThenAssert);
    }
    // An earlier assert that works on an object this one reads through it (`it.next()`).
    let reads = |it: &Item| {
        it.loads.iter().any(|l| {
            l.attr.is_some()
                && test.is_local(&l.name)
                && facts.free_names().any(|n| n == l.name.as_str())
        })
    };
    if replay.iter().any(|&i| {
        let it = &items[i];
        (statement(it) && it.fold.as_ref().is_ok_and(changes_state))
            // An earlier assert that works on an object this one reads (`it.next()`).
            || (it.kind == Kind::Assert && reads(it))
    }) {
        shapes.push(Shape::InstanceWithSideEffects);
    }
    if (!case.params.is_empty() && replay.iter().any(|&i| items[i].kind == Kind::Param))
        || (case.parametrized
            && case.params.is_empty()
            && facts.free_names().any(|n| params().any(|p| p == n)))
    {
        shapes.push(Shape::ParametrizedInputs);
    }
    shapes
}
