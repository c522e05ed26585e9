//! The classes of the module pytest collects as unittest test cases, and the names under which
//! the module imports unittest.

use ruff_python_ast::visitor::Visitor;
use ruff_python_ast::{self as ast, Expr, Stmt};
use rustc_hash::FxHashSet as HashSet;

/// The names under which the module imports unittest and its `TestCase` classes.
#[derive(Default)]
pub(super) struct UnittestNames<'a> {
    modules: HashSet<&'a str>,
    bases: HashSet<&'a str>,
}

impl<'a> UnittestNames<'a> {
    pub(super) fn of(body: &'a [Stmt]) -> Self {
        let mut names = UnittestNames::default();
        for stmt in body {
            match stmt {
                Stmt::Import(i) => {
                    for a in &i.names {
                        if a.name.as_str() == "unittest" {
                            names
                                .modules
                                .insert(a.asname.as_ref().unwrap_or(&a.name).as_str());
                        }
                    }
                }
                Stmt::ImportFrom(i)
                    if i.level == 0
                        && i.module
                            .as_ref()
                            .is_some_and(|m| m.id.as_str() == "unittest") =>
                {
                    for a in &i.names {
                        if is_testcase_name(a.name.as_str()) {
                            names
                                .bases
                                .insert(a.asname.as_ref().unwrap_or(&a.name).as_str());
                        }
                    }
                }
                _ => {}
            }
        }
        names
    }

    /// `unittest.TestCase` (or `IsolatedAsyncioTestCase`) itself, as the file names it.
    pub(super) fn is_testcase(&self, b: &Expr) -> bool {
        match b {
            Expr::Name(n) => self.bases.contains(n.id.as_str()),
            Expr::Attribute(a) => {
                is_testcase_name(a.attr.as_str())
                    && matches!(a.value.as_ref(), Expr::Name(m) if self.modules.contains(m.id.as_str()))
            }
            _ => false,
        }
    }
}

/// Whether a class base is unittest's own `TestCase` as the module imported it.
pub fn is_unittest_base(body: &[Stmt], b: &Expr) -> bool {
    UnittestNames::of(body).is_testcase(b)
}

/// The classes of the module pytest collects as unittest test cases: those deriving from
/// `unittest.TestCase` (or `IsolatedAsyncioTestCase`), directly or through a class of the file,
/// that the module still names at the end (a later binding of the name, a `del`, replaces it) and
/// whose `__test__` is not false.
pub fn testcase_classes(body: &[Stmt]) -> Vec<&ast::StmtClassDef> {
    let names = UnittestNames::of(body);
    let mut derived: HashSet<&str> = HashSet::default();
    let mut out: Vec<&ast::StmtClassDef> = Vec::new();
    for (i, stmt) in body.iter().enumerate() {
        let Stmt::ClassDef(c) = stmt else { continue };
        let derives = c.bases().iter().any(|b| {
            names.is_testcase(b) || matches!(b, Expr::Name(n) if derived.contains(n.id.as_str()))
        });
        if !derives {
            continue;
        }
        derived.insert(c.name.as_str());
        if rebound_later(&body[i + 1..], c.name.as_str()) {
            continue;
        }
        out.push(c);
    }
    let by_name = |n: &str| out.iter().find(|c| c.name.as_str() == n).copied();
    let collected: Vec<&ast::StmtClassDef> = out
        .iter()
        .copied()
        .filter(|c| !test_false(c, &by_name))
        .collect();
    collected
}

/// Whether a statement after a class rebinds or deletes its name at module level.
fn rebound_later(later: &[Stmt], name: &str) -> bool {
    later.iter().any(|s| {
        let mut bound = crate::module::BoundNames::default();
        bound.visit_stmt(s);
        let deleted = matches!(s, Stmt::Delete(d)
            if d.targets.iter().any(|t| matches!(t, Expr::Name(n) if n.id.as_str() == name)));
        deleted || bound.names.iter().any(|b| b == name)
    })
}

/// Whether the class (or its nearest base in the file that sets it) sets `__test__` to something
/// other than `True`: pytest then does not collect it.
fn test_false<'a>(
    c: &'a ast::StmtClassDef,
    by_name: &dyn Fn(&str) -> Option<&'a ast::StmtClassDef>,
) -> bool {
    let mut k = Some(c);
    let mut depth = 0;
    while let Some(class) = k {
        for s in &class.body {
            if let Stmt::Assign(a) = s {
                if a.targets
                    .iter()
                    .any(|t| matches!(t, Expr::Name(n) if n.id.as_str() == "__test__"))
                {
                    return !matches!(a.value.as_ref(), Expr::BooleanLiteral(b) if b.value);
                }
            }
        }
        depth += 1;
        k = class.bases().iter().find_map(|b| match b {
            Expr::Name(n) if depth < 32 => by_name(n.id.as_str()),
            _ => None,
        });
    }
    false
}

fn is_testcase_name(n: &str) -> bool {
    matches!(n, "TestCase" | "IsolatedAsyncioTestCase")
}
