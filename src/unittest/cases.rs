//! The test cases of the module's unittest classes: one per `test*` method a class has or inherits
//! from a base in the file.

use crate::sort::SharedSort as _;
use ruff_python_ast::{self as ast, Expr, Stmt};
use rustc_hash::FxHashSet as HashSet;

use super::reasons::{class_reason, method_reason, setup_reason};
use super::testcase_classes;
use crate::case::{kept, Case};
use crate::source::SourceMap;

/// The test cases of the module's unittest classes: one per `test*` method a class has (its own
/// and those its bases in the file define), `Class::method`, each with the reason it cannot be
/// flattened, if any.
pub fn cases<'a>(body: &'a [Stmt], map: &SourceMap) -> Vec<Case<'a>> {
    let classes = testcase_classes(body);
    let all_classes: Vec<&ast::StmtClassDef> = body
        .iter()
        .filter_map(|s| match s {
            Stmt::ClassDef(c) => Some(c),
            _ => None,
        })
        .collect();
    let mut out = Vec::new();
    for c in &classes {
        let mro = mro(c, &all_classes);
        let class_reason = class_reason(&mro, map);
        let mut methods: Vec<&ast::StmtFunctionDef> = Vec::new();
        let mut seen: HashSet<&str> = HashSet::default();
        let mut defined: HashSet<&str> = HashSet::default();
        for k in &mro {
            // `test_x = wrap(test_x)` after `def test_x`: the test pytest runs is what the call
            // returns, over the method's body; its checks are entries (dropped by the class's
            // reason, as its body runs code), never silence.
            let mut rebound: HashSet<&str> = HashSet::default();
            // unittest takes the class attribute: the last definition in a body, the nearest class.
            for stmt in k.body.iter().rev() {
                match stmt {
                    Stmt::FunctionDef(f) => {
                        defined.insert(f.name.as_str());
                        let rebinding = rebound.remove(f.name.as_str());
                        if (seen.insert(f.name.as_str()) || rebinding) && f.name.starts_with("test")
                        {
                            methods.push(f);
                        }
                    }
                    Stmt::Assign(a) => {
                        for t in &a.targets {
                            if let Expr::Name(n) = t {
                                if seen.insert(n.id.as_str())
                                    && !crate::names::is_immutable_literal(&a.value)
                                {
                                    rebound.insert(n.id.as_str());
                                }
                                defined.insert(n.id.as_str());
                            }
                        }
                    }
                    Stmt::AnnAssign(a) => {
                        if let Expr::Name(n) = a.target.as_ref() {
                            seen.insert(n.id.as_str());
                            defined.insert(n.id.as_str());
                        }
                    }
                    _ => {}
                }
            }
        }
        methods.sort_shared_by(|a, b| a.name.as_str().cmp(b.name.as_str()));
        // unittest's loader: a class without `test*` methods runs its `runTest`, if it has one.
        if methods.is_empty() {
            if let Some(run) = mro.iter().find_map(|k| {
                k.body.iter().rev().find_map(|s| match s {
                    Stmt::FunctionDef(f) if f.name.as_str() == "runTest" => Some(f),
                    _ => None,
                })
            }) {
                methods.push(run);
            }
        }
        // The nearest `setUp`: replayed before each test when it only sets the instance's
        // attributes and calls code (see `setup_reason`).
        let set_up = mro.iter().find_map(|k| {
            k.body.iter().rev().find_map(|s| match s {
                Stmt::FunctionDef(f) if f.name.as_str() == "setUp" => Some(f),
                _ => None,
            })
        });
        let (setup_reason, set_by_setup) = match set_up {
            Some(s) => setup_reason(s, &defined, map),
            None => (None, HashSet::default()),
        };
        for f in methods {
            let not_run = class_reason
                .clone()
                .or_else(|| setup_reason.clone())
                .or_else(|| method_reason(f, &defined, &set_by_setup, set_up, map));
            out.push(Case {
                id: format!("{}::{}", c.name, f.name),
                func: f,
                is_method: true,
                unittest: true,
                unittest_setup: set_up,
                params: Vec::new(),
                param_ranges: Vec::new(),
                not_run: not_run.map(kept),
                parametrized: false,
                setup: Vec::new(),
                class_fixtures: Vec::new(),
                fixture_values: Vec::new(),
            });
        }
    }
    out
}

/// The class and its bases that the file defines, nearest first (single inheritance chains and
/// simple trees, depth first, as Python's MRO orders them when no base is shared).
fn mro<'a>(
    c: &'a ast::StmtClassDef,
    classes: &[&'a ast::StmtClassDef],
) -> Vec<&'a ast::StmtClassDef> {
    let mut out = vec![c];
    let mut i = 0;
    while i < out.len() && out.len() < 32 {
        let k = out[i];
        for b in k.bases() {
            if let Expr::Name(n) = b {
                if let Some(base) = classes.iter().find(|x| x.name.as_str() == n.id.as_str()) {
                    if !out.iter().any(|o| o.range == base.range) {
                        out.push(base);
                    }
                }
            }
        }
        i += 1;
    }
    out
}
