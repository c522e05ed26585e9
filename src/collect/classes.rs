//! `Test*` classes: the tests of a class and of its bases defined in the file, classes pytest does
//! not collect (a constructor, `__test__`, a decorator that may remake them), and what runs before
//! each of their tests (bases, autouse fixtures, setup methods).

use rustc_hash::FxHashSet as HashSet;

use ruff_python_ast::{self as ast, Expr, Stmt};
use ruff_text_size::Ranged;

use crate::rules::Collection;
use crate::walk::{self, Scope};

use super::body::Within;
use super::fixtures::Fixtures;
use super::marks::{class_marks, TestAttr};
use super::{kept, CaseReason, Collector, Unlisted};

/// The base classes of `c` that are classes defined before it in the same body (nearest first).
fn bases_in<'a>(body: &'a [Stmt], c: &ast::StmtClassDef) -> Vec<&'a ast::StmtClassDef> {
    let Some(args) = &c.arguments else {
        return Vec::new();
    };
    args.args
        .iter()
        .filter_map(|b| match b {
            Expr::Name(n) => body.iter().rev().find_map(|s| match s {
                Stmt::ClassDef(d)
                    if d.name.as_str() == n.id.as_str() && d.range.end() <= c.range.start() =>
                {
                    Some(d)
                }
                _ => None,
            }),
            _ => None,
        })
        .collect()
}

/// Whether a base class of `c` defined in `body` has a constructor.
fn inherits_init(body: &[Stmt], c: &ast::StmtClassDef) -> bool {
    bases_in(body, c).iter().any(|b| binds_constructor(&b.body))
}

/// Whether a class body binds `__init__` or `__new__` (pytest's `hasinit`/`hasnew`: anything but
/// `object`'s own) anywhere, under an `if` or a `try` too, by `def` or by assignment.
fn binds_constructor(body: &[Stmt]) -> bool {
    let is_ctor = |name: &str| matches!(name, "__init__" | "__new__");
    walk::any_stmt(body, Scope::Own, |stmt| match stmt {
        Stmt::FunctionDef(f) => is_ctor(f.name.as_str()),
        Stmt::Assign(a) => a.targets.iter().any(|t| match t {
            Expr::Name(n) => {
                let objects_own = matches!(a.value.as_ref(), Expr::Attribute(v)
                    if v.attr.as_str() == n.id.as_str()
                        && matches!(v.value.as_ref(), Expr::Name(o) if o.id.as_str() == "object"));
                is_ctor(n.id.as_str()) && !objects_own
            }
            _ => false,
        }),
        Stmt::AnnAssign(a) => {
            matches!(a.target.as_ref(), Expr::Name(n) if is_ctor(n.id.as_str()))
        }
        Stmt::Import(i) => i
            .names
            .iter()
            .any(|a| is_ctor(a.asname.as_ref().unwrap_or(&a.name).as_str())),
        Stmt::ImportFrom(i) => i
            .names
            .iter()
            .any(|a| is_ctor(a.asname.as_ref().unwrap_or(&a.name).as_str())),
        _ => false,
    })
}

/// `__test__ = False` inherited from a base of `body`, unless the class sets its own.
fn inherits_not_a_test(body: &[Stmt], c: &ast::StmtClassDef) -> bool {
    let sets_test = c.body.iter().any(|s| {
        matches!(s, Stmt::Assign(a)
        if matches!(a.targets.as_slice(), [Expr::Name(n)] if n.id.as_str() == "__test__"))
    });
    !sets_test
        && bases_in(body, c).iter().any(|b| {
            b.body.iter().any(|s| {
                matches!(s, Stmt::Assign(a)
                if matches!(a.targets.as_slice(), [Expr::Name(n)] if n.id.as_str() == "__test__")
                    && !matches!(a.value.as_ref(), Expr::BooleanLiteral(v) if v.value))
            })
        })
}

impl<'s, 'a> Collector<'s, 'a> {
    /// The tests of a `Test*` class of the body: its own methods, then those it inherits from
    /// bases defined in the body, under the class's marks and setup.
    pub(super) fn collect_class(&mut self, within: &Within<'_, 'a>, c: &'a ast::StmtClassDef) {
        // A decorator of the file that sets `__test__` to a false value (nose's `nottest`):
        // pytest collects nothing from the class.
        let class_body = (!within.prefix.is_empty()).then_some(within.body);
        let test_attr = self.decorators_test_attr(&c.decorator_list, class_body);
        if test_attr == TestAttr::False {
            return;
        }
        if self.unlist_decorated_class(within, c, test_attr) {
            return;
        }
        let in_class = !within.prefix.is_empty();
        let marks = class_marks(c, in_class.then_some(within.body), within.marks);
        let Some(setup) = self.class_setup(within.body, c, within.setup) else {
            return;
        };
        let class_prefix = format!("{}{}::", within.prefix, c.name);
        let inner = Fixtures::of(&c.body, self.scope, Some(&c.body), Some(within.fixtures));
        let generate = self.class_generate(c).or(within.generate);
        let outer_count = self.class_fixtures.len();
        self.push_class_fixtures(c);
        let inner_within = |body: &'a [Stmt]| Within {
            body,
            prefix: &class_prefix,
            marks: &marks,
            setup: &setup,
            fixtures: &inner,
            generate,
        };
        self.collect_in(inner_within(&c.body));
        // Test methods inherited from a base class of this body, unless overridden.
        let own: HashSet<String> = c
            .body
            .iter()
            .filter_map(|m| match m {
                Stmt::FunctionDef(m) => Some(m.name.to_string()),
                _ => None,
            })
            .collect();
        for base in bases_in(within.body, c) {
            let saved = std::mem::replace(&mut self.exclude, own.clone());
            self.collect_in(inner_within(&base.body));
            self.exclude = saved;
        }
        self.class_fixtures.truncate(outer_count);
    }

    /// A decorator that is not a pytest mark may remake the class (`@dataclass` gives it a
    /// constructor, and pytest then does not collect it): whether and how pytest collects its
    /// tests is not in the file (a decorator that may set `__test__`, `test_attr`, says so). Lists
    /// its tests apart and says so.
    fn unlist_decorated_class(
        &mut self,
        within: &Within<'_, 'a>,
        c: &'a ast::StmtClassDef,
        test_attr: TestAttr,
    ) -> bool {
        let map = self.map;
        let Some(d) = c
            .decorator_list
            .iter()
            .find(|d| self.scope.pytest_path(&d.expression).is_none())
        else {
            return false;
        };
        let why = match test_attr {
            // A decorator that may set `__test__` says so.
            TestAttr::Unknown(why) => format!("its class `{}`: {why}", c.name),
            _ => format!(
                "its class `{}` is decorated with `@{}` (line {}), which may give it a constructor (pytest then does not collect it) or change its tests",
                c.name,
                map.snippet(d.expression.range()),
                map.line(d.range().start())
            ),
        };
        for s in &c.body {
            if let Stmt::FunctionDef(f) = s {
                if f.name.starts_with("test") {
                    self.unlisted.push(Unlisted {
                        func: f,
                        name: format!("{}{}::{}", within.prefix, c.name, f.name),
                        why: why.clone(),
                        cases: 1,
                    });
                }
            }
        }
        true
    }

    /// The line of the class's own `pytest_generate_tests` hook, if it has one.
    fn class_generate(&self, c: &ast::StmtClassDef) -> Option<u32> {
        c.body.iter().find_map(|s| match s {
            Stmt::FunctionDef(g) if g.name.as_str() == "pytest_generate_tests" => {
                Some(self.map.line(g.range.start()))
            }
            _ => None,
        })
    }

    /// Record the fixtures the class defines (they override the module's for its tests).
    fn push_class_fixtures(&mut self, c: &ast::StmtClassDef) {
        for m in &c.body {
            if let Stmt::FunctionDef(m) = m {
                if m.decorator_list.iter().any(|d| {
                    self.scope.pytest_path(&d.expression).as_deref() == Some("pytest.fixture")
                }) {
                    self.class_fixtures
                        .push((m.name.to_string(), self.map.line(m.range.start())));
                }
            }
        }
    }

    /// What runs before each test of class `c` (its bases, autouse fixtures and setup methods,
    /// after the enclosing scopes'), or `None` when pytest does not collect the class: it has a
    /// constructor (its asserts are helper assertions), or `__test__` says it is not a test.
    fn class_setup(
        &self,
        body: &'a [Stmt],
        c: &'a ast::StmtClassDef,
        outer_setup: &[(u32, CaseReason)],
    ) -> Option<Vec<(u32, CaseReason)>> {
        let mut setup: Vec<(u32, CaseReason)> = outer_setup.to_vec();
        // Bases may define setup methods and autouse fixtures the file does not show.
        setup.extend(self.base_setup(body, c));
        let (own_init, own_not_a_test) = self.body_setup(c, &mut setup);
        // A constructor inherited from a base class of this body: pytest does not collect it either.
        let has_init = own_init || inherits_init(body, c);
        let not_a_test = own_not_a_test
            || inherits_not_a_test(body, c)
            || self.inherits_test_false_from_decorator(body, c);
        (!has_init && !not_a_test).then_some(setup)
    }

    /// `__test__` set to a false value by a decorator of a base defined in `body` (`@nottest class
    /// Base`), unless the class sets its own: the class inherits it.
    fn inherits_test_false_from_decorator(&self, body: &'a [Stmt], c: &ast::StmtClassDef) -> bool {
        let sets_test = c.body.iter().any(|s| {
            matches!(s, Stmt::Assign(a)
            if matches!(a.targets.as_slice(), [Expr::Name(n)] if n.id.as_str() == "__test__"))
        });
        !sets_test
            && bases_in(body, c)
                .iter()
                .any(|b| self.decorators_test_attr(&b.decorator_list, None) == TestAttr::False)
    }

    /// A base other than `object`, whose setup and fixtures the file does not show.
    fn base_setup(&self, body: &[Stmt], c: &ast::StmtClassDef) -> Option<(u32, CaseReason)> {
        let args = c.arguments.as_ref()?;
        let base = args
            .args
            .iter()
            .chain(args.keywords.iter().map(|k| &k.value))
            .find(|b| !matches!(b, Expr::Name(n) if n.id.as_str() == "object"))?;
        let line = self.map.line(c.range.start());
        // What a base of the file defines that pytest runs before each test, named when seen.
        let inherited = bases_in(body, c).iter().find_map(|b| {
            b.body.iter().find_map(|s| match s {
                Stmt::FunctionDef(f)
                    if matches!(f.name.as_str(), "setup_method" | "setup_class") =>
                {
                    Some(format!(
                        "`{}.{}` (line {}), which pytest runs before {} test of `{}`",
                        b.name,
                        f.name,
                        self.map.line(f.range.start()),
                        if f.name.as_str() == "setup_class" {
                            "the first"
                        } else {
                            "each"
                        },
                        c.name
                    ))
                }
                _ => None,
            })
        });
        let words = match inherited {
            Some(what) => format!(
                "`{}` (line {line}) derives from `{}` and inherits {what}",
                c.name,
                self.map.snippet(base.range())
            ),
            None => format!(
                "`{}` (line {line}) derives from `{}`, whose setup and fixtures may run before each test",
                c.name,
                self.map.snippet(base.range())
            ),
        };
        Some((line, kept(Collection::TestClassHasBase.because(words))))
    }

    /// The class body's autouse fixtures and setup methods (pushed onto `setup`), and whether it
    /// has a constructor and whether it sets `__test__` to something other than `True`.
    fn body_setup(
        &self,
        c: &ast::StmtClassDef,
        setup: &mut Vec<(u32, CaseReason)>,
    ) -> (bool, bool) {
        let map = self.map;
        let mut has_init = false;
        let mut not_a_test = false;
        for s in &c.body {
            if let Stmt::Assign(a) = s {
                if matches!(a.targets.as_slice(), [Expr::Name(n)] if n.id.as_str() == "__test__")
                    && !matches!(a.value.as_ref(), Expr::BooleanLiteral(b) if b.value)
                {
                    not_a_test = true;
                }
            }
            let Stmt::FunctionDef(m) = s else { continue };
            if self.is_autouse_fixture(m) {
                let line = map.line(m.range.start());
                setup.push((
                    line,
                    kept(Collection::ClassSetupNotReplayed.because(format!(
                        "the autouse fixture `{}.{}` (line {line}) runs before each test",
                        c.name, m.name
                    ))),
                ));
            }
            match m.name.as_str() {
                "setup_method" | "setup" | "setup_class" | "setUp" => setup.push((
                    map.line(m.range.start()),
                    kept(Collection::ClassSetupNotReplayed.because(format!(
                        "`{}.{}` (line {}) runs {}",
                        c.name,
                        m.name,
                        map.line(m.range.start()),
                        if m.name.as_str() == "setup_class" {
                            "once, before the class's first test, and may change state its tests share"
                        } else {
                            "before each test"
                        }
                    ))),
                )),
                _ => {}
            }
        }
        has_init |= binds_constructor(&c.body);
        (has_init, not_a_test)
    }

    /// `@pytest.fixture(autouse=True)` on a method or function.
    fn is_autouse_fixture(&self, f: &ast::StmtFunctionDef) -> bool {
        f.decorator_list.iter().any(|d| {
            matches!(&d.expression, Expr::Call(call)
            if self.scope.pytest_path(&d.expression).as_deref() == Some("pytest.fixture")
                && call.arguments.keywords.iter().any(|k| {
                    k.arg.as_ref().is_some_and(|a| a.as_str() == "autouse")
                        && !matches!(&k.value, Expr::BooleanLiteral(b) if !b.value)
                }))
        })
    }
}

/// The module's classes pytest would collect by name (`Test…`) but refuses because they have a
/// constructor: pytest warns `PytestCollectionWarning` for each while it collects the file. A
/// `unittest.TestCase` is collected by pytest's unittest plugin, which does not look.
pub fn constructor_test_classes(body: &[Stmt]) -> Vec<&ast::StmtClassDef> {
    let testcases = crate::unittest::testcase_classes(body);
    body.iter()
        .filter_map(|s| match s {
            Stmt::ClassDef(c) => Some(c),
            _ => None,
        })
        .filter(|c| c.name.as_str().starts_with("Test"))
        .filter(|c| !testcases.iter().any(|t| std::ptr::eq(*t, *c)))
        .filter(|c| {
            let not_a_test = c.body.iter().any(|s| {
                matches!(s, Stmt::Assign(a)
                    if matches!(a.targets.as_slice(), [Expr::Name(n)] if n.id.as_str() == "__test__")
                    && !matches!(a.value.as_ref(), Expr::BooleanLiteral(b) if b.value))
            });
            !not_a_test && !inherits_not_a_test(body, c)
        })
        .filter(|c| binds_constructor(&c.body) || inherits_init(body, c))
        .collect()
}
