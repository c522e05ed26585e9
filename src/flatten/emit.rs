//! Writing a kept assertion: inlined when substitution is exactly equivalent, otherwise folded —
//! the replayed items in order inside one expression — and the `Assertion` records themselves.

use crate::rules::{Reason, Statements};
use crate::sort::SharedSort as _;
use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};
use std::rc::Rc;

use ruff_python_ast::{self as ast, Expr, OperatorPrecedence as Prec};
use ruff_text_size::{Ranged, TextSize};

use super::items::{Item, Kind, Piece};
use super::resolve::Aliases;
use super::Ctx;
use crate::case::Case;
use crate::model::{Assertion, Origin, Status};
use crate::names::{self, Facts, Ident, Replacement};
use crate::shape::Shape;

/// Inline the replayed items into the test, if that is exactly equivalent: every item is a plain
/// binding whose value is evaluated exactly once, unconditionally, in the original order, before
/// any operation of the assert that could observe it; values that run code are read once each.
pub fn try_inline(
    ctx: &Ctx,
    test: &Expr,
    facts: &Facts,
    items: &[Item],
    replay: &[usize],
    map: &Aliases,
    origins: &mut Vec<Origin>,
) -> Option<String> {
    if replay.iter().any(|&i| {
        let it = &items[i];
        !matches!(it.kind, Kind::Assign | Kind::Param | Kind::Fixture)
            || it.defs.len() != 1
            || it.value.is_none()
    }) {
        return None;
    }
    let effectful = effectful_read_once(facts, items, replay)?;
    if substitution_changes_meaning(facts, items, replay)
        || !evaluation_order_holds(facts, items, replay, &effectful)
    {
        return None;
    }
    // Room for the replayed values from the start (a clone is full: its first insert regrows it).
    let mut combined =
        Aliases::with_capacity_and_hasher(map.len() + replay.len(), Default::default());
    combined.extend(map.iter().map(|(k, v)| (k.clone(), v.clone())));
    for &i in replay {
        let it = &items[i];
        let mut value = names::render(it.value?, &combined, ctx.map).ok()?;
        value.text =
            super::qualnames::Home::at(it.home.as_ref(), ctx, it.value?, value.text).ok()?;
        combined.insert(it.defs[0].to_string(), Replacement::Value(Rc::new(value)));
    }
    let expr = names::render(test, &combined, ctx.map).ok()?;
    for &i in replay {
        origins.push(Origin {
            role: items[i].role,
            span: ctx.map.span(items[i].range),
        });
    }
    // A walrus, yield, starred value or bare tuple cannot stand alone as an expression: the source's
    // parentheses are outside the node's range, so put them back.
    Some(if expr.prec < Prec::Lambda {
        format!("({})", expr.text)
    } else {
        expr.text
    })
}

/// Count how many times each replayed binding's value would be evaluated once inlined: every
/// binding must be read, a value read more than once must be an immutable literal, and no value
/// may read a name the replay binds outside its own position. The items whose values are not
/// inert, in replay order; `None` if inlining would change how often a value runs.
fn effectful_read_once(facts: &Facts, items: &[Item], replay: &[usize]) -> Option<Vec<usize>> {
    let mut pending: HashMap<Ident, usize> = HashMap::default();
    for load in &facts.loads {
        let weight = if load.repeated { 2 } else { 1 };
        *pending.entry(load.name.clone()).or_default() += weight;
    }
    let mut effectful: Vec<usize> = Vec::new();
    for &i in replay.iter().rev() {
        let it = &items[i];
        let name = &it.defs[0];
        let value = it.value?;
        let count = pending.remove(name).unwrap_or(0);
        if count == 0 {
            // Replayed without being read: it matters for its effect, which inlining would lose.
            return None;
        }
        if count > 1 && !names::is_immutable_literal(value) {
            return None;
        }
        if !it.inert {
            effectful.push(i);
        }
        for load in &it.loads {
            let weight = if load.repeated { 2 } else { 1 };
            *pending.entry(load.name.clone()).or_default() += count * weight;
        }
    }
    // A value that reads a name bound by the replay outside its own position (a lambda that calls
    // itself, `fib = lambda n: … fib(n - 1)`) cannot be written out: the name would be unbound.
    let defined: HashSet<&Ident> = replay.iter().map(|&i| &items[i].defs[0]).collect();
    if pending.keys().any(|n| defined.contains(n)) {
        return None;
    }
    effectful.reverse();
    Some(effectful)
}

/// Substituting into an f-string field or an identity test changes what is formatted or which
/// object is compared: keep the name (fold) instead.
fn substitution_changes_meaning(facts: &Facts, items: &[Item], replay: &[usize]) -> bool {
    let substituted: HashSet<&Ident> = replay.iter().map(|&i| &items[i].defs[0]).collect();
    facts.loads.iter().any(|l| {
        substituted.contains(&l.name)
            && (l.in_fstring || (l.in_identity && !is_singleton(items, replay, &l.name)))
    })
}

/// Where each inlined value is read: its container (`None`: the test; else the replayed item whose
/// value reads it) and the position of that first read.
type Places = HashMap<usize, (Option<usize>, TextSize)>;

/// Inlined values that run code must run exactly where, and in the order, the test ran them: each
/// is read once, unconditionally, by the test or by a later value (its *container*), before any
/// operation of that container completes; and they finish in assignment order (a value nested in
/// another finishes first).
fn evaluation_order_holds(
    facts: &Facts,
    items: &[Item],
    replay: &[usize],
    effectful: &[usize],
) -> bool {
    match places(facts, items, replay, effectful) {
        Some(place) => finish_in_assignment_order(&place, effectful),
        None => false,
    }
}

/// Each binding's container and its first read there; `None` if a value that runs code is read
/// conditionally, after an operation of its container, or not at all.
fn places(facts: &Facts, items: &[Item], replay: &[usize], effectful: &[usize]) -> Option<Places> {
    // The facts of every container are computed once.
    let value_facts: HashMap<usize, Facts> = replay
        .iter()
        .filter_map(|&j| items[j].value.map(|v| (j, Facts::of(v))))
        .collect();
    let container_facts = |c: Option<usize>| -> Option<&Facts> {
        match c {
            None => Some(facts),
            Some(j) => value_facts.get(&j),
        }
    };
    // For each name, the containers that read it, in order (the assertion, then the replayed
    // values): looking each binding's first reader up here keeps this linear in the replay's size
    // (a scan of every container per binding was quadratic: 10,000 chained module constants).
    let mut readers: HashMap<&str, Vec<Option<usize>>> = HashMap::default();
    for container in std::iter::once(None).chain(replay.iter().map(|&j| Some(j))) {
        let Some(cf) = container_facts(container) else {
            continue;
        };
        for l in &cf.loads {
            let list = readers.entry(l.name.as_str()).or_default();
            if list.last() != Some(&container) {
                list.push(container);
            }
        }
    }
    let mut place: Places = HashMap::default();
    for &i in replay {
        let name = &items[i].defs[0];
        let Some(containers) = readers.get(name.as_str()) else {
            continue;
        };
        for &container in containers {
            if container == Some(i) {
                continue;
            }
            let Some(cf) = container_facts(container) else {
                continue;
            };
            let Some(load) = cf.loads.iter().find(|l| &l.name == name) else {
                continue;
            };
            if effectful.contains(&i) {
                let pos = load.range.start();
                // A read of the solution module's attribute is an operation too: its value is
                // the one at that moment, and a module `__getattr__` runs code.
                let early_op = cf
                    .ops
                    .iter()
                    .any(|op| !op.range.contains(pos) && op.range.start() < pos);
                if load.conditional || early_op {
                    return None;
                }
            }
            place.insert(i, (container, load.range.start()));
            break;
        }
        if effectful.contains(&i) && !place.contains_key(&i) {
            return None;
        }
    }
    Some(place)
}

/// Whether the values that run code finish in assignment order: ordered by the path from the test
/// down to each (a descendant finishes before its container).
fn finish_in_assignment_order(place: &Places, effectful: &[usize]) -> bool {
    let path = |mut i: usize| -> Vec<TextSize> {
        let mut out = Vec::new();
        loop {
            let Some(&(container, pos)) = place.get(&i) else {
                return out;
            };
            out.push(pos);
            match container {
                None => {
                    out.reverse();
                    return out;
                }
                Some(j) => i = j,
            }
        }
    };
    let mut order: Vec<usize> = effectful.to_vec();
    let paths: HashMap<usize, Vec<TextSize>> = order.iter().map(|&i| (i, path(i))).collect();
    order.sort_shared_by(|a, b| {
        let (pa, pb) = (&paths[a], &paths[b]);
        for (x, y) in pa.iter().zip(pb.iter()) {
            if x != y {
                return x.cmp(y);
            }
        }
        // One contains the other: the longer path (nested deeper) finishes first.
        pb.len().cmp(&pa.len())
    });
    order == effectful
}

/// Whether the binding of `name` among the replayed items is `None`, `True`, `False` or `...`,
/// whose identity a literal preserves.
fn is_singleton(items: &[Item], replay: &[usize], name: &Ident) -> bool {
    replay
        .iter()
        .map(|&i| &items[i])
        .find(|it| it.defs.first() == Some(name))
        .and_then(|it| it.value)
        .is_some_and(|v| {
            matches!(
                v,
                Expr::NoneLiteral(_) | Expr::BooleanLiteral(_) | Expr::EllipsisLiteral(_)
            )
        })
}

/// Replay the items in order inside one expression. Earlier asserts split it into segments joined
/// by `and` (pytest stops at the first failing assert, and tests its truth once, as `and` does):
/// `(lambda: (c := Cache(), c.put(1), c.get(1) == 1)[-1] and (c.put(2), c.get(2) == 2)[-1])()`.
/// The lambda keeps walrus targets out of the solution's namespace. `test` comes with its facts
/// (the assertion computed them already).
/// How the check that ends a fold is written: its truth (an assert), a call that returns `None`
/// when it passes (unittest's), or a helper call whose helper is spelled as given for it alone.
#[derive(Clone, Copy)]
pub enum FinalCheck<'v> {
    Truth,
    ReturnsNone,
    Override(&'v str, &'v names::Rendered),
}

pub fn fold(
    ctx: &Ctx,
    test: Option<(&Expr, &Facts, FinalCheck)>,
    items: &[Item],
    replay: &[usize],
    map: &Aliases,
    solution_names: &[String],
    shared: &[(String, String)],
) -> Result<String, Reason> {
    let no_facts = Facts::default();
    let (test, facts, how) = match test {
        Some((test, facts, how)) => (Some(test), facts, how),
        None => (None, &no_facts, FinalCheck::Truth),
    };
    refuse_hidden_solution_names(facts, items, replay, solution_names, shared)?;
    let mut fold = Fold {
        ctx,
        map,
        segments: Vec::new(),
        current: shared
            .iter()
            .map(|(name, value)| format!("{name} := {value}"))
            .collect(),
        binds: !facts.walrus.is_empty() || !shared.is_empty(),
        home: None,
    };
    for &i in replay {
        fold.home = items[i].home.clone();
        fold.piece(items[i].fold.clone().map_err(|b| match b {
            super::items::Blocker::Reason(why) => why,
            // `replay::first_blocker` refuses such an item before the fold is written.
            super::items::Blocker::Silent => Statements::UnreplayableStatement.because(""),
        })?)?;
    }
    fold.home = None;
    match test {
        Some(test) => match how {
            FinalCheck::Truth => fold.check(test)?,
            FinalCheck::ReturnsNone => fold.check_call(test)?,
            FinalCheck::Override(name, value) => fold.check_overridden(test, name, value)?,
        },
        // An assert inside a loop: the loop, replayed last, is the check.
        None if fold.current.is_empty() && !fold.segments.is_empty() => {}
        None => {
            return Err(Statements::UnreplayableStatement
                .because("nothing in the replay checks the assert"))
        }
    }
    // A walrus inside a replayed statement or an earlier assert (`[best := v for v in xs]`) binds
    // too: only inside the lambda does it stay out of the solution's namespace.
    let binds = fold.binds || replay.iter().any(|&i| !items[i].defs.is_empty());
    let joined = fold.segments.len() > 1;
    let count = fold.segments.len();
    let body = fold
        .segments
        .into_iter()
        .enumerate()
        .map(|(i, (parts, last))| {
            // An earlier assert's test is made a real bool (`not not x`): as an operand of `and`
            // a false value would become the fold's value and have its truth tested again by the
            // evaluator, where pytest tests it once (a `__bool__` that changes would lie).
            let last = match last {
                Last::Check(text, alone) if i + 1 < count => Last::Check(
                    if alone {
                        format!("not not ({text})")
                    } else {
                        format!("not not {text}")
                    },
                    false,
                ),
                last => last,
            };
            segment(parts, last, joined)
        })
        .collect::<Vec<_>>()
        .join(" and ");
    Ok(if binds {
        format!("(lambda: {body})()")
    } else {
        body
    })
}

/// Replayed pieces alone, each as an element of a fold's tuple (no assert among them).
pub(super) fn steps(ctx: &Ctx, pieces: Vec<Piece>, map: &Aliases) -> Result<Vec<String>, Reason> {
    let mut fold = Fold {
        ctx,
        map,
        segments: Vec::new(),
        current: Vec::new(),
        binds: false,
        home: None,
    };
    for piece in pieces {
        if matches!(piece, Piece::Check(_)) {
            return Err(
                Statements::UnreplayableStatement.because("an assert cannot be replayed there")
            );
        }
        fold.piece(piece)?;
    }
    Ok(fold.current)
}

/// A local the fold binds (a replayed binding, a shared constant, a walrus of the assert) under
/// the name of a solution global the assertion reads would hide that global.
fn refuse_hidden_solution_names(
    facts: &Facts,
    items: &[Item],
    replay: &[usize],
    solution_names: &[String],
    shared: &[(String, String)],
) -> Result<(), Reason> {
    let mut bound: HashSet<&str> = replay
        .iter()
        .flat_map(|&i| items[i].defs.iter().map(|d| d.as_str()))
        .collect();
    bound.extend(shared.iter().map(|(n, _)| n.as_str()));
    bound.extend(facts.walrus.iter().map(|w| w.as_str()));
    match solution_names.iter().find(|n| bound.contains(n.as_str())) {
        Some(clash) => Err(Statements::LocalHidesSolutionName.because(format!("the test binds a local `{clash}`, which would hide the namespace's `{clash}` once the assertion is folded"))),
        None => Ok(()),
    }
}

/// A fold being written: the finished segments (each ends with an assert's test), the parts of
/// the current one, and whether anything binds a name (then the whole is wrapped in a lambda).
struct Fold<'f, 's, 'a> {
    ctx: &'f Ctx<'s, 'a>,
    map: &'f Aliases,
    segments: Vec<(Vec<String>, Last)>,
    current: Vec<String>,
    binds: bool,
    /// Where the item being written runs under pytest, when not in the test (`Item::home`).
    home: Option<super::qualnames::Home>,
}

/// What ends a segment of a fold: an assert's test (as a tuple element, and whether it needs
/// parentheses standing alone next to `and`), or a loop whose body asserts, written as the
/// `any(…)` that is true when an iteration fails.
enum Last {
    Check(String, bool),
    Loop(String),
}

impl<'e> Fold<'_, '_, '_> {
    fn render(&self, e: &Expr) -> Result<String, Reason> {
        self.home
            .as_ref()
            .map_or(Ok(()), |h| h.refuse(self.ctx, e))?;
        self.render_here(e)
    }

    fn render_here(&self, e: &Expr) -> Result<String, Reason> {
        names::render(e, self.map, self.ctx.map)
            .map(|r| r.text)
            .map_err(|c| c.describe())
    }

    /// A nested `def` (see `items::nested_def`).
    fn def(&self, def: &ast::StmtFunctionDef, qualname: &str) -> Result<String, Reason> {
        let text = super::definitions::function(self.ctx, self.map, def, qualname)?;
        Ok(format!("{} := {text}", def.name))
    }

    /// A nested `class` (see `items::nested_class`).
    fn class(&self, class: &ast::StmtClassDef, qualname: &str) -> Result<String, Reason> {
        let text = super::definitions::class(self.ctx, self.map, class, qualname)?;
        Ok(format!("{} := {text}", class.name))
    }

    /// An expression as an element of the fold's tuple.
    fn value(&self, e: &Expr) -> Result<String, Reason> {
        let text = wrap(e, self.render_here(e)?);
        super::qualnames::Home::at(self.home.as_ref(), self.ctx, e, text)
    }

    /// A unittest raises block (see `items::Raises`): a check, `… is None`.
    fn raises(&mut self, r: &super::items::Raises<'e>) -> Result<(), Reason> {
        let body = match r.body.as_slice() {
            [] => "None".to_string(),
            [one] => self.lambda_body(one)?,
            many => {
                let parts: Result<Vec<String>, Reason> =
                    many.iter().map(|e| self.lambda_body(e)).collect();
                format!("({})", parts?.join(", "))
            }
        };
        if let Some((expected, matching)) = r.pytest {
            let expected = self.lambda_body(expected)?;
            let pattern = matching.map(|m| self.lambda_body(m)).transpose()?;
            let (text, binds) = super::items::pytest_raises_text(
                &expected,
                &body,
                pattern.as_deref(),
                r.target.as_ref().map(|t| t.as_str()),
            );
            self.binds |= binds;
            self.segments
                .push((std::mem::take(&mut self.current), Last::Check(text, true)));
            return Ok(());
        }
        let plain_args = r.manager.arguments.keywords.is_empty()
            && !r.manager.arguments.args.iter().any(Expr::is_starred_expr);
        let text = match (&r.target, plain_args) {
            (None, true) => {
                let mut args: Vec<String> = Vec::new();
                for a in r.manager.arguments.args.iter() {
                    args.push(self.lambda_body(a)?);
                }
                args.push(format!("lambda: {body}"));
                format!("{}({})", self.value(&r.manager.func)?, args.join(", "))
            }
            (target, _) => {
                let manager = self.value(r.expr)?;
                let held = match target {
                    Some(t) => {
                        self.binds = true;
                        format!("({t} := {manager})")
                    }
                    None => manager,
                };
                format!("{held}.handle(\"{}\", (lambda: {body},), {{}})", r.method)
            }
        };
        self.segments.push((
            std::mem::take(&mut self.current),
            Last::Check(format!("{text} is None"), false),
        ));
        Ok(())
    }

    /// An expression as a lambda's body or a call's argument: a bare tuple parenthesised.
    fn lambda_body(&mut self, e: &Expr) -> Result<String, Reason> {
        let text = self.value(e)?;
        Ok(if names::precedence(e) == Prec::None {
            format!("({text})")
        } else {
            text
        })
    }

    /// A check that is a call returning `None` when it passes (unittest's `self.assertEqual`):
    /// `<call> is None`, a comparison, which `and` needs no parentheses around.
    fn check_call(&mut self, e: &'e Expr) -> Result<(), Reason> {
        let text = format!("{} is None", self.value(e)?);
        self.segments
            .push((std::mem::take(&mut self.current), Last::Check(text, false)));
        Ok(())
    }

    /// A helper call's check written with `name` spelled as `value` (the helper up to the assert
    /// being decided), where earlier calls in the fold spell it as the whole helper.
    fn check_overridden(
        &mut self,
        e: &'e Expr,
        name: &str,
        value: &names::Rendered,
    ) -> Result<(), Reason> {
        let mut map = self.map.clone();
        map.insert(name.to_string(), Replacement::Value(Rc::new(value.clone())));
        let text = names::render(e, &map, self.ctx.map)
            .map(|r| r.text)
            .map_err(|c| c.describe())?;
        let text = wrap(e, text);
        let alone = !is_bare_wrap(e) && names::precedence(e) <= Prec::And;
        self.segments
            .push((std::mem::take(&mut self.current), Last::Check(text, alone)));
        Ok(())
    }

    /// An assert's test, which ends the current segment.
    fn check(&mut self, e: &'e Expr) -> Result<(), Reason> {
        let plain = self.value(e)?;
        let text = super::lifetimes::hold_as_pytest(plain.clone())?;
        // A held check is a call of its own lambda, which binds tighter than `and`.
        let alone = text == plain && !is_bare_wrap(e) && names::precedence(e) <= Prec::And;
        self.segments
            .push((std::mem::take(&mut self.current), Last::Check(text, alone)));
        Ok(())
    }

    /// `for t in it: body` → `[(t := _bx_t, …) and None for _bx_t in it]`, or, when the body asserts,
    /// a check: `not any(… for _bx_t in it)`, each iteration true when one of its asserts fails
    /// (`any` stops there, as pytest stops the test), every assert's truth tested once by `not`.
    fn for_loop(&mut self, target: &Expr, iter: &Expr, body: &[Piece<'e>]) -> Result<(), Reason> {
        let mut names = Vec::new();
        names::collect_targets_vec(target, &mut names);
        let mut inner = Fold {
            ctx: self.ctx,
            map: self.map,
            segments: Vec::new(),
            current: names
                .iter()
                .map(|n| format!("{n} := {}", unpack_temp(n)))
                .collect(),
            binds: true,
            home: self.home.clone(),
        };
        for p in body {
            inner.piece(p.clone())?;
        }
        let it = names::render(iter, self.map, self.ctx.map).map_err(|c| c.describe())?;
        let it = if it.prec < Prec::Or {
            format!("({})", it.text)
        } else {
            it.text
        };
        let clause = format!("for {} in {it}", unpack_target(self.ctx, target));
        self.binds = true;
        if inner.segments.is_empty() {
            let comma = if inner.current.len() == 1 { "," } else { "" };
            self.current.push(format!(
                "[({}{comma}) and None {clause}]",
                inner.current.join(", ")
            ));
            return Ok(());
        }
        let mut flags: Vec<String> = inner
            .segments
            .into_iter()
            .map(|(parts, last)| {
                let fails = match last {
                    Last::Check(text, _) => format!("not ({text})"),
                    Last::Loop(any) => any,
                };
                if parts.is_empty() {
                    fails
                } else {
                    format!("({}, {fails})[-1]", parts.join(", "))
                }
            })
            .collect();
        if !inner.current.is_empty() {
            flags.push(format!("({}, False)[-1]", inner.current.join(", ")));
        }
        // `any` spelled through the builtins module: a local, a loop target or the solution may
        // bind the bare name (a list-only `any`, a pool's `any`).
        let any = format!(
            "__import__(\"builtins\").any({} {clause})",
            flags.join(" or ")
        );
        self.segments
            .push((std::mem::take(&mut self.current), Last::Loop(any)));
        Ok(())
    }

    /// One replayed item, appended to the current segment.
    fn piece(&mut self, piece: Piece<'e>) -> Result<(), Reason> {
        self.binds |= matches!(
            piece,
            Piece::Bind(..)
                | Piece::BindName(..)
                | Piece::BindParams(..)
                | Piece::BindIndexed(..)
                | Piece::Unpack(..)
                | Piece::Augmented(Expr::Name(_), ..)
                | Piece::Unbind(..)
                | Piece::ImportNames(..)
                | Piece::Def(..)
                | Piece::Class(..)
                | Piece::Compiled(..)
                | Piece::CompiledClass(..)
        );
        let text = match piece {
            Piece::Bind(targets, value) => self.bind(targets, value)?,
            Piece::BindName(name, value) => format!("{name} := {}", self.value(value)?),
            Piece::BindParams(name, list) => self.bind_params(&name, list)?,
            Piece::BindIndexed(name, text) => format!("{name} := {text}"),
            Piece::Eval(Expr::NoneLiteral(_) | Expr::StringLiteral(_)) => return Ok(()),
            Piece::Eval(e) => self.value(e)?,
            Piece::Def(def, qualname) => self.def(def, &qualname)?,
            Piece::Class(class, qualname) => self.class(class, &qualname)?,
            Piece::Compiled(d, c) => super::compiled::function(self.ctx, self.map, d, &c)?,
            Piece::CompiledClass(k, c) => super::compiled::class(self.ctx, self.map, k, &c)?,
            Piece::Check(e) | Piece::HelperCheck(e) => return self.check(e),
            Piece::Store(target, value) => self.store(target, value)?,
            Piece::Augmented(target, op, value) => self.augmented(target, op, value)?,
            // `operator.delitem` and the builtin `delattr` are `del` itself: the special method is
            // looked up on the type, as the statement does (an instance `__getattr__` does not
            // answer it), and each part is evaluated once.
            Piece::DelItem(value, key) => format!(
                "__import__(\"operator\").delitem({}, {})",
                self.value(value)?,
                self.value(key)?
            ),
            Piece::DelAttr(value, attr) => self.del_attr(value, attr)?,
            Piece::ImportNames(module, names) => {
                let binding: &str = &self.ctx.scope.module_binding;
                let main = module == self.ctx.scope.solution_module_path();
                if !main && super::resolve::shadows_import(self.ctx) {
                    return Err(Statements::ImportInTest.because(format!("`from {module} import …` in the test is spelled with `__import__`, which the star import may rebind")));
                }
                names
                    .iter()
                    .map(|(bound, attr)| {
                        if main {
                            format!("{bound} := {binding}.{attr}")
                        } else {
                            format!(
                                "{bound} := __import__({module:?}, fromlist=({attr:?},)).{attr}"
                            )
                        }
                    })
                    .collect::<Vec<_>>()
                    .join(", ")
            }
            Piece::Unbind(names) => names
                .iter()
                .map(|n| format!("{n} := None"))
                .collect::<Vec<_>>()
                .join(", "),
            Piece::Unpack(target, value) => self.unpack(target, value)?,
            Piece::Cond(clauses) => self.cond(clauses)?,
            Piece::Loop(target, iter, body) => return self.for_loop(target, iter, &body),
            Piece::Raises(r) => return self.raises(&r),
        };
        self.current.push(text);
        Ok(())
    }

    /// `if c: A elif d: B else: C` → `((A…, None) if (c) else (B…, None) if (d) else (C…, None))`
    /// (see `Piece::Cond`); an empty branch, or a missing `else`, is `None`.
    fn cond(&mut self, clauses: Vec<super::items::Clause<'e>>) -> Result<String, Reason> {
        let mut text = String::from("(");
        let mut has_else = false;
        for (test, pieces) in clauses {
            let outer = std::mem::take(&mut self.current);
            let mut rendered = Ok(());
            for piece in pieces {
                rendered = self.piece(piece);
                if rendered.is_err() {
                    break;
                }
            }
            let parts = std::mem::replace(&mut self.current, outer);
            rendered?;
            let branch = if parts.is_empty() {
                "None".to_string()
            } else {
                format!("({}, None)", parts.join(", "))
            };
            match test {
                Some(test) => {
                    text.push_str(&format!("{branch} if ({}) else ", self.value(test)?));
                }
                None => {
                    text.push_str(&branch);
                    has_else = true;
                }
            }
        }
        if !has_else {
            text.push_str("None");
        }
        text.push(')');
        Ok(text)
    }

    /// `a = b = value` → `a := (b := value)`.
    fn bind(&self, targets: &[Expr], value: &Expr) -> Result<String, Reason> {
        let mut s = self.value(value)?;
        for (k, t) in targets.iter().enumerate().rev() {
            let n = self.ctx.map.text(t.range());
            s = if k == 0 {
                format!("{n} := {s}")
            } else {
                format!("({n} := {s})")
            };
        }
        Ok(s)
    }

    /// A parametrize list evaluated whole; a `pytest.param(a, b, …)` entry is written `(a, b,)`.
    fn bind_params(&self, name: &Ident, list: &Expr) -> Result<String, Reason> {
        let elts = match list {
            Expr::List(l) => &l.elts,
            Expr::Tuple(t) => &t.elts,
            // `setup` binds only a list or tuple display so.
            _ => {
                return Err(Statements::UnreplayableStatement
                    .because("the parametrize values are not a list"))
            }
        };
        let mut parts = Vec::new();
        for e in elts {
            parts.push(match e {
                Expr::Call(c)
                    if self.ctx.scope.pytest_path(e).as_deref() == Some("pytest.param") =>
                {
                    let args: Vec<String> = c
                        .arguments
                        .args
                        .iter()
                        .map(|a| self.value(a))
                        .collect::<Result<_, _>>()?;
                    format!("({},)", args.join(", "))
                }
                other => self.value(other)?,
            });
        }
        Ok(format!("{name} := [{}]", parts.join(", ")))
    }

    fn store(&self, target: &Expr, value: &Expr) -> Result<String, Reason> {
        let value = self.value(value)?;
        Ok(match module_attribute(target, self.map) {
            // A global of the solution's namespace: `globals()` inside the fold is that
            // namespace (a comprehension target would bind a local instead).
            Some(attr) => format!("globals().__setitem__({attr:?}, {value})"),
            None => format!("[None for {} in [{value}]]", self.render(target)?),
        })
    }

    fn augmented(&self, target: &Expr, op: ast::Operator, value: &Expr) -> Result<String, Reason> {
        let call = format!(
            "__import__(\"operator\").{}({}, {})",
            super::items::inplace_function(op),
            self.render(target)?,
            self.value(value)?
        );
        Ok(match (target, module_attribute(target, self.map)) {
            (Expr::Name(n), _) => format!("{} := {call}", n.id),
            (_, Some(attr)) => format!("globals().__setitem__({attr:?}, {call})"),
            _ => format!("[None for {} in [{call}]]", self.render(target)?),
        })
    }

    fn del_attr(&self, value: &Expr, attr: &str) -> Result<String, Reason> {
        let target = Expr::Attribute(ast::ExprAttribute {
            value: Box::new(value.clone()),
            attr: ast::Identifier::new(attr, value.range()),
            ctx: ast::ExprContext::Del,
            range: value.range(),
            node_index: Default::default(),
        });
        Ok(match module_attribute(&target, self.map) {
            Some(attr) => format!("globals().__delitem__({attr:?})"),
            None => format!(
                "__import__(\"builtins\").delattr({}, {attr:?})",
                self.value(value)?
            ),
        })
    }

    /// `a, *b = value` → `[(a := _bx_a, b := _bx_b) for _bx_a, *_bx_b in [value]]`.
    fn unpack(&self, target: &Expr, value: &Expr) -> Result<String, Reason> {
        let mut names = Vec::new();
        names::collect_targets_vec(target, &mut names);
        let walruses: Vec<String> = names
            .iter()
            .map(|n| format!("{n} := {}", unpack_temp(n)))
            .collect();
        let comma = if walruses.len() == 1 { "," } else { "" };
        Ok(format!(
            "[({}{comma}) for {} in [{}]]",
            walruses.join(", "),
            unpack_target(self.ctx, target),
            self.value(value)?
        ))
    }
}

/// `module.attr` as a store target, where `module` is the solution module: the attribute's name.
fn module_attribute<'e>(target: &'e Expr, map: &Aliases) -> Option<&'e str> {
    let Expr::Attribute(a) = target else {
        return None;
    };
    // Only where the namespace is the solution's own globals (no binding for the module); with a
    // binding, `sol.X = v` is a store into the module's attribute like any other.
    let is_module = |e: &Expr| matches!(e, Expr::Name(n) if matches!(map.get(n.id.as_str()), Some(Replacement::SolutionModule(None))));
    let module = match a.value.as_ref() {
        Expr::Call(c) if c.arguments.is_empty() => is_module(&c.func),
        other => is_module(other),
    };
    module.then_some(a.attr.as_str())
}

/// The temporary name an unpacking target goes through: a comprehension variable cannot be the
/// target of a walrus, so `a, b = v` becomes `[(a := _bx_a, b := _bx_b) for _bx_a, _bx_b in [v]]`.
fn unpack_temp(name: &str) -> String {
    format!("_bx_{name}")
}

/// An unpacking target with every name replaced by its temporary.
fn unpack_target(ctx: &Ctx, target: &Expr) -> String {
    match target {
        Expr::Name(n) => unpack_temp(n.id.as_str()),
        Expr::Starred(s) => format!("*{}", unpack_target(ctx, &s.value)),
        Expr::Tuple(t) => {
            let parts: Vec<String> = t.elts.iter().map(|e| unpack_target(ctx, e)).collect();
            if parts.len() == 1 {
                format!("({},)", parts[0])
            } else {
                format!("({})", parts.join(", "))
            }
        }
        Expr::List(l) => {
            let parts: Vec<String> = l.elts.iter().map(|e| unpack_target(ctx, e)).collect();
            format!("[{}]", parts.join(", "))
        }
        other => ctx.map.text(other.range()).to_string(),
    }
}

/// One segment of a fold: the items since the last assert, then that assert's test. Joined to
/// other segments by `and`, a lone test that binds as loosely as `and` needs parentheses.
fn segment(parts: Vec<String>, last: Last, joined: bool) -> String {
    let (text, alone) = match last {
        Last::Check(text, alone) => (text, alone),
        // `not` binds tighter than `and`.
        Last::Loop(any) => (format!("not {any}"), false),
    };
    if parts.is_empty() {
        if joined && alone {
            format!("({text})")
        } else {
            text
        }
    } else {
        // `[step] and … and check`: each step runs in order, and its value is let go as soon as
        // the step is done (an element of one tuple would live until the check ends: a discarded
        // result's finalizer, the old value of a rebound name, would run late).
        let check = if alone { format!("({text})") } else { text };
        let steps: Vec<String> = parts.iter().map(|p| format!("[{p}]")).collect();
        format!("{} and {check}", steps.join(" and "))
    }
}

fn is_bare_wrap(e: &Expr) -> bool {
    matches!(e, Expr::Tuple(t) if !t.parenthesized)
        || matches!(
            e,
            Expr::Named(_) | Expr::Lambda(_) | Expr::Yield(_) | Expr::Starred(_)
        )
}

/// An element of a tuple display: a bare tuple, walrus, lambda, yield or starred value needs
/// parentheses there.
fn wrap(e: &Expr, s: String) -> String {
    if is_bare_wrap(e) {
        format!("({s})")
    } else {
        s
    }
}

pub fn base(ctx: &Ctx, case: &Case, stmt: &ast::StmtAssert) -> Assertion {
    let (line, column) = ctx.map.line_column(stmt.range.start());
    Assertion {
        test: case.id.clone(),
        line,
        column,
        source: ctx.map.text(stmt.range).to_string(),
        status: Status::Kept,
        expr: None,
        reason: None,
        rule: None,
        unresolved: None,
        shapes: Vec::new(),
        span: ctx.map.span(stmt.range),
        origins: Vec::new(),
        warning_filters: Vec::new(),
    }
}

/// CPython refuses an expression with more than 200 nested brackets ("too many nested
/// parentheses"); inlining can add levels to what the test file had.
const CPYTHON_MAX_NESTING: usize = 200;

/// A kept assertion. Every kept expression must parse as Python 3.9 does (checked in debug
/// builds, which every test run uses); an expression deeper than CPython accepts is dropped.
pub fn kept(
    ctx: &Ctx,
    case: &Case,
    stmt: &ast::StmtAssert,
    expr: String,
    shapes: Vec<Shape>,
    origins: Vec<Origin>,
) -> Assertion {
    if names::bracket_depth(&expr) > CPYTHON_MAX_NESTING {
        return dropped(
            ctx,
            case,
            stmt,
            crate::rules::Evaluator::TooManyBrackets.because(format!("once flattened it nests more than {CPYTHON_MAX_NESTING} brackets, which CPython refuses to compile")),
            vec![],
            shapes,
            origins,
        );
    }
    // An expression that does not parse under Python 3.9 or that CPython would refuse to compile
    // is dropped after flattening (`extract::refuse_uncompilable`).
    let mut a = base(ctx, case, stmt);
    a.expr = Some(expr);
    a.shapes = shapes;
    a.origins = dedup_origins(origins);
    a
}

pub fn dropped(
    ctx: &Ctx,
    case: &Case,
    stmt: &ast::StmtAssert,
    reason: impl Into<Reason>,
    unresolved: Vec<String>,
    shapes: Vec<Shape>,
    origins: Vec<Origin>,
) -> Assertion {
    let reason = reason.into();
    let mut a = base(ctx, case, stmt);
    a.status = Status::Dropped;
    a.rule = Some(reason.rule.reference());
    a.reason = Some(reason.text);
    a.unresolved = Some(unresolved);
    a.shapes = shapes;
    a.origins = dedup_origins(origins);
    a
}

fn dedup_origins(mut origins: Vec<Origin>) -> Vec<Origin> {
    origins.sort_shared_by_key(|o| (o.span.start, o.span.end));
    origins.dedup_by(|a, b| a.span == b.span);
    origins
}
