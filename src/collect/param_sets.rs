//! One parametrization's parameter sets (`ParameterSet._for_parametrize`, `IdMaker`): its cases as
//! values (and as source where the file spells them out), `pytest.param`, `ids=`, and pytest's ids.

use ruff_python_ast::{self as ast, Expr, Stmt};
use ruff_text_size::Ranged;

use crate::module::Global;
use crate::pytest::ids::{self, Id};
use crate::pytest::value::{self, Callable, Place, PyValue};
use crate::rules::{Collection, Reason};
use crate::walk::{self, Scope};

use super::marks::case_marks;
use super::{Collector, ParamSet, Parametrize};

impl<'s, 'a> Collector<'s, 'a> {
    pub(super) fn parameter_sets(
        &self,
        names: Vec<String>,
        values: &'a Expr,
        ids: Option<&'a Expr>,
        place: Place<'a>,
        line: u32,
        fixture: Option<&str>,
    ) -> Result<Parametrize<'a>, String> {
        // A fixture's params are each one value.
        self.parameter_sets_with(names, values, ids, place, line, fixture, true)
    }

    /// pytest's parameter sets and their ids (`ParameterSet._for_parametrize`, `IdMaker`).
    #[allow(clippy::too_many_arguments)]
    pub(super) fn parameter_sets_with(
        &self,
        names: Vec<String>,
        values: &'a Expr,
        ids_expr: Option<&'a Expr>,
        place: Place<'a>,
        line: u32,
        fixture: Option<&str>,
        force_tuple: bool,
    ) -> Result<Parametrize<'a>, String> {
        let what = match fixture {
            Some(name) => format!("fixture `{name}` (line {line})"),
            None => format!("parametrize on line {line}"),
        };
        let how = SetsOf {
            what,
            names: &names,
            force_tuple,
        };
        let elements = self.elements(values, place, &how)?;
        let ids = self.ids_of(ids_expr, place, &how)?;
        if let Ids::List(list) = &ids {
            if !list.is_empty() && list.len() != elements.len() {
                return Err(
                    how.fail("`ids` and the cases differ in number: pytest fails to collect it")
                );
            }
        }
        let mut sets: Vec<ParamSet<'a>> = Vec::new();
        if elements.is_empty() {
            // pytest's empty parameter set: one case, `NOTSET`, skipped.
            sets.push(ParamSet {
                exprs: None,
                range: values.range(),
                id: Id::Shown("NOTSET".into()),
                not_run: Some(Collection::ParametrizeEmpty.because(format!(
                    "{}: it has no cases, so pytest skips the test (`NOTSET`)",
                    how.what
                ))),

                replay: Vec::new(),
            });
            return Ok(Parametrize::new(names, sets, line));
        }
        for (index, element) in elements.into_iter().enumerate() {
            sets.push(self.param_set(index, element, values, &ids, &how)?);
        }
        unique_ids(&mut sets, &how)?;
        Ok(Parametrize::new(names, sets, line))
    }

    /// The cases: source expressions where the file spells them out, values always.
    fn elements(
        &self,
        values: &'a Expr,
        place: Place<'a>,
        how: &SetsOf,
    ) -> Result<Vec<Element<'a>>, String> {
        let Some((elts, at)) = self.literal_elements(values, place, 0) else {
            return match self.eval.eval(values, place) {
                PyValue::List(v) | PyValue::Tuple(v) => {
                    Ok(v.into_iter().map(|v| (None, v, place)).collect())
                }
                PyValue::Str(s) => Ok(s
                    .chars()
                    .map(|c| (None, PyValue::Str(c.to_string()), place))
                    .collect()),
                PyValue::Unknown(why) => Err(how.fail(&format!("its cases are computed ({why})"))),
                _ => Err(how.fail("its cases are not a sequence the extractor can read")),
            };
        };
        if !elts.iter().any(|e| matches!(e, Expr::Starred(_))) {
            return Ok(elts
                .iter()
                .map(|e| (Some(e), self.eval.eval(e, at), at))
                .collect());
        }
        // Unpacked cases: their values may still be known.
        match self.eval.eval(values, place) {
            PyValue::List(v) | PyValue::Tuple(v) => {
                Ok(v.into_iter().map(|v| (None, v, place)).collect())
            }
            PyValue::Unknown(why) => Err(how.fail(&format!("its cases are computed ({why})"))),
            _ => Err(how.fail("its cases are not a sequence")),
        }
    }

    /// `ids=`: a list of ids, or a callable applied to each value.
    fn ids_of(
        &self,
        ids_expr: Option<&'a Expr>,
        place: Place<'a>,
        how: &SetsOf,
    ) -> Result<Ids<'a>, String> {
        Ok(match ids_expr.map(|e| self.eval.eval(e, place)) {
            None | Some(PyValue::None) => Ids::None,
            Some(PyValue::List(v) | PyValue::Tuple(v)) => Ids::List(v),
            Some(PyValue::Func(_, Some(f))) => Ids::Callable(f),
            Some(PyValue::Named(b))
                if (b == "str" || b == "repr") && !self.scope.globals.contains_key(&b) =>
            {
                Ids::Callable(Callable::Builtin(if b == "str" { "str" } else { "repr" }))
            }
            Some(PyValue::Unknown(why)) => {
                return Err(how.fail(&format!("its `ids` are computed ({why})")))
            }
            Some(_) => {
                return Err(how.fail("its `ids` callable is not one the extractor can evaluate"))
            }
        })
    }

    /// One parameter set: its values (and their source, when the file spells them out and a test
    /// function's scope reads them the same), its id and its marks.
    fn param_set(
        &self,
        index: usize,
        (expr, value, at): Element<'a>,
        values: &'a Expr,
        ids: &Ids<'a>,
        how: &SetsOf,
    ) -> Result<ParamSet<'a>, String> {
        let range = expr.map_or(values.range(), Ranged::range);
        // `pytest.param(*values, id=..., marks=...)`.
        let param_call = expr.and_then(|e| match e {
            Expr::Call(c) if self.scope.pytest_path(e).as_deref() == Some("pytest.param") => {
                Some(c)
            }
            _ => None,
        });
        let (explicit, not_run, (exprs, vals)) = match param_call {
            Some(c) => self.pytest_param(c, at, how)?,
            None => (None, None, self.unpack_case(expr, value, at, how)?),
        };
        if vals.len() != how.names.len() {
            return Err(how.fail(
                "a case does not have one value per argument name: pytest fails to collect it",
            ));
        }
        // Values read from a class body, or reading names bound there, are not what a test
        // function's scope sees: keep them only when they are self-contained literals.
        let exprs = exprs.and_then(|list| {
            list.into_iter()
                .map(|e| self.class_free(e, at, 0))
                .collect::<Option<Vec<_>>>()
        });
        let id = match explicit {
            Some(id) => id,
            None => self.case_id(index, &vals, ids, how)?,
        };
        Ok(ParamSet {
            exprs,
            range,
            id,
            not_run,
            replay: Vec::new(),
        })
    }

    /// `pytest.param(values…, id=…, marks=…)`: its explicit id, why its marks keep it from
    /// running, and its values.
    fn pytest_param(
        &self,
        c: &'a ast::ExprCall,
        at: Place<'a>,
        how: &SetsOf,
    ) -> Result<(Option<Id>, Option<Reason>, CaseValues<'a>), String> {
        let mut explicit = None;
        let mut not_run = None;
        for kw in c.arguments.keywords.iter() {
            match kw.arg.as_ref().map(|a| a.as_str()) {
                Some("id") => {
                    if let Some(id) = self.param_id(&kw.value, at, how)? {
                        explicit = Some(id);
                    }
                }
                Some("marks") => not_run = case_marks(&kw.value, self.scope, self.map),
                _ => return Err(how.fail("a `pytest.param` has an argument pytest refuses")),
            }
        }
        if c.arguments
            .args
            .iter()
            .any(|a| matches!(a, Expr::Starred(_)))
        {
            return Err(how.fail("a `pytest.param` unpacks values with `*`"));
        }
        let args: Vec<&'a Expr> = c.arguments.args.iter().collect();
        let vals = args.iter().map(|a| self.eval.eval(a, at)).collect();
        Ok((explicit, not_run, (Some(args), vals)))
    }

    /// The `id=` of a `pytest.param`: `None` when it is `None` (the id is then computed).
    fn param_id(&self, value: &'a Expr, at: Place<'a>, how: &SetsOf) -> Result<Option<Id>, String> {
        if self.scope.pytest_path(value).as_deref() == Some("pytest.HIDDEN_PARAM") {
            return Ok(Some(Id::Hidden));
        }
        match self.eval.eval(value, at) {
            PyValue::Str(s) => {
                Ok(Some(Id::Shown(self.escaping.str_id(&s).map_err(
                    |why| how.fail(&format!("a `pytest.param` id: {why}")),
                )?)))
            }
            PyValue::None => Ok(None),
            PyValue::Unknown(why) => {
                Err(how.fail(&format!("a `pytest.param` id is computed ({why})")))
            }
            _ => Err(how.fail("a `pytest.param` id is not a string: pytest refuses it")),
        }
    }

    /// A case that is not a `pytest.param`: one value, or (several names) a sequence unpacked
    /// into them.
    fn unpack_case(
        &self,
        expr: Option<&'a Expr>,
        value: PyValue<'a>,
        at: Place<'a>,
        how: &SetsOf,
    ) -> Result<CaseValues<'a>, String> {
        if how.force_tuple {
            return Ok((expr.map(|e| vec![e]), vec![value]));
        }
        // Several names: each case is unpacked into them.
        let source = expr.and_then(|e| self.literal_elements(e, at, 0));
        match (source, value) {
            (Some((elts, inner)), _) if !elts.iter().any(|e| matches!(e, Expr::Starred(_))) => {
                let vals = elts.iter().map(|e| self.eval.eval(e, inner)).collect();
                Ok((Some(elts.iter().collect()), vals))
            }
            (_, PyValue::Tuple(v) | PyValue::List(v)) => Ok((None, v)),
            (_, PyValue::Unknown(why)) => Err(how.fail(&format!("a case is computed ({why})"))),
            _ => Err(how.fail("a case is not a sequence the extractor can unpack")),
        }
    }

    /// The id pytest gives a case that has no `pytest.param` id: from `ids=`, else from its values.
    fn case_id(
        &self,
        index: usize,
        vals: &[PyValue<'a>],
        ids: &Ids<'a>,
        how: &SetsOf,
    ) -> Result<Id, String> {
        let unknown = |why: String| how.fail(&format!("the id of a case cannot be known: {why}"));
        match ids {
            Ids::List(list) if list.get(index).is_some_and(|v| *v != PyValue::None) => {
                Ok(Id::Shown(
                    ids::explicit_id(&list[index], &self.escaping)
                        .map_err(|why| how.fail(&format!("an `ids` entry: {why}")))?,
                ))
            }
            Ids::Callable(f) => {
                let mut parts = Vec::new();
                for (v, name) in vals.iter().zip(how.names) {
                    let from_fn = match self.eval.call(f, v.clone()) {
                        PyValue::None => None,
                        PyValue::Unknown(why) => {
                            return Err(how.fail(&format!(
                                "its `ids` callable cannot be evaluated here ({why})"
                            )))
                        }
                        r => ids::idval_from_value(&r, &self.escaping)
                            .map_err(|why| how.fail(&why))?,
                    };
                    parts.push(match from_fn {
                        Some(s) => s,
                        None => ids::idval(v, name, index, &self.long_str, &self.escaping)
                            .map_err(unknown)?,
                    });
                }
                Ok(Id::Shown(parts.join("-")))
            }
            _ => {
                let mut parts = Vec::new();
                for (v, name) in vals.iter().zip(how.names) {
                    parts.push(
                        ids::idval(v, name, index, &self.long_str, &self.escaping)
                            .map_err(unknown)?,
                    );
                }
                Ok(Id::Shown(parts.join("-")))
            }
        }
    }

    /// The elements of a list or tuple the file spells out, following names to literal constants
    /// (a class body's first, for a method's decorators), with where they are evaluated.
    fn literal_elements(
        &self,
        expr: &'a Expr,
        place: Place<'a>,
        depth: usize,
    ) -> Option<(&'a [Expr], Place<'a>)> {
        if depth > 16 {
            return None;
        }
        match expr {
            Expr::List(l) => Some((&l.elts, place)),
            Expr::Tuple(t) => Some((&t.elts, place)),
            Expr::Name(n) => {
                let (source, at) = self.name_source(n.id.as_str(), place)?;
                self.literal_elements(source, at, depth + 1)
            }
            _ => None,
        }
    }

    /// The literal a name is bound to: a class-body assignment before `place`, else a module constant.
    fn name_source(&self, name: &str, place: Place<'a>) -> Option<(&'a Expr, Place<'a>)> {
        if let Some(body) = place.class {
            let mut found = None;
            for stmt in body.iter().take_while(|s| s.range().start() < place.before) {
                if value::binds(stmt, name) {
                    found = Some(stmt);
                }
            }
            if let Some(stmt) = found {
                return match stmt {
                    Stmt::Assign(a) if matches!(a.targets.as_slice(), [Expr::Name(t)] if t.id.as_str() == name) => {
                        Some((
                            &a.value,
                            Place {
                                class: Some(body),
                                before: stmt.range().start(),
                            },
                        ))
                    }
                    _ => None,
                };
            }
        }
        match self.scope.globals.get(name) {
            Some(Global::Constant { source, .. }) => Some((source, Place::module())),
            _ => None,
        }
    }

    /// The expression to hand to flatten for a value evaluated at `place`: itself when it reads no
    /// class-body name, the class constant's literal when it is one, else `None`.
    fn class_free(&self, expr: &'a Expr, place: Place<'a>, depth: usize) -> Option<&'a Expr> {
        let Some(body) = place.class else {
            return Some(expr);
        };
        if depth > 16 {
            return None;
        }
        let mut reads = Vec::new();
        load_names(expr, &mut reads);
        let class_bound = |n: &str| {
            body.iter()
                .take_while(|s| s.range().start() < place.before)
                .any(|s| value::binds(s, n))
        };
        if !reads.iter().any(|n| class_bound(n)) {
            return Some(expr);
        }
        if let Expr::Name(n) = expr {
            let (source, at) = self.name_source(n.id.as_str(), place)?;
            return self.class_free(source, at, depth + 1);
        }
        None
    }
}

/// Names a value expression reads (comprehension and lambda variables included: conservative).
fn load_names<'e>(expr: &'e Expr, out: &mut Vec<&'e str>) {
    walk::for_each_expr(expr, Scope::All, |e| {
        if let Expr::Name(n) = e {
            out.push(n.id.as_str());
        }
    });
}

/// A case as written (when it is), its value, and where it is evaluated.
type Element<'a> = (Option<&'a Expr>, PyValue<'a>, Place<'a>);

/// A parametrization being read: what its messages start with, its argument names, and whether
/// each case is one value (a single name given as a string, or a fixture's params).
struct SetsOf<'n> {
    what: String,
    names: &'n [String],
    force_tuple: bool,
}

impl SetsOf<'_> {
    fn fail(&self, why: &str) -> String {
        format!("{}: {why}", self.what)
    }
}

/// `ids=`: none, a list of ids, or a callable applied to each value.
enum Ids<'a> {
    None,
    List(Vec<PyValue<'a>>),
    Callable(Callable<'a>),
}

/// A case's values: their source expressions when the file spells them out, and their values.
type CaseValues<'a> = (Option<Vec<&'a Expr>>, Vec<PyValue<'a>>);

/// pytest fails to collect several hidden ids; duplicate ids get a suffix (`a0`, `a1`).
fn unique_ids(sets: &mut [ParamSet], how: &SetsOf) -> Result<(), String> {
    let mut all: Vec<Id> = sets.iter().map(|s| s.id.clone()).collect();
    if all.iter().filter(|i| **i == Id::Hidden).count() > 1 {
        return Err(how.fail("several cases hide their ids: pytest fails to collect it"));
    }
    ids::make_unique(&mut all).map_err(|why| how.fail(&why))?;
    for (set, id) in sets.iter_mut().zip(all) {
        set.id = id;
    }
    Ok(())
}
