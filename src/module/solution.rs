//! The solution itself: the module names it goes by, the file's loaders of it, expressions that
//! give the module or one of its names, and the name the evaluator binds the module to.

use crate::sort::SharedSort as _;
use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};

use ruff_python_ast::visitor::{self, Visitor};
use ruff_python_ast::{self as ast, Expr, Stmt};

use crate::walk::{any_expr, for_each_expr, Scope};

use super::{Global, ModuleScope};

impl<'a> ModuleScope<'a> {
    /// Whether a dotted package is a solution module or inside one.
    pub fn is_solution_package(&self, package: &str) -> bool {
        self.is_solution_module_name(package)
    }

    pub(super) fn is_solution_module_name(&self, module: &str) -> bool {
        self.solution_modules
            .iter()
            .any(|m| module == m || module.starts_with(&format!("{m}.")))
    }

    /// The module the evaluator's bindings name: the one `--solution-module` gives, else
    /// `solution`.
    pub fn solution_module_path(&self) -> &str {
        self.solution_modules
            .iter()
            .find(|m| m.as_str() != "solution")
            .or(self.solution_modules.first())
            .map_or("solution", |m| m.as_str())
    }

    /// `_load_solution()` or a name bound to the solution module.
    pub fn is_solution_module_expr(&self, expr: &Expr) -> bool {
        match expr {
            Expr::Call(call) if self.imports_solution_by_name(call) => true,
            Expr::Call(call) => {
                call.arguments.args.is_empty()
                    && matches!(call.func.as_ref(), Expr::Name(n) if self.loaders.contains(n.id.as_str()))
            }
            Expr::Name(n) => matches!(
                self.globals.get(n.id.as_str()),
                Some(Global::SolutionModule)
            ),
            _ => false,
        }
    }

    /// `importlib.import_module("solution")` with the file's own `import importlib`: the module
    /// `import solution` gives.
    fn imports_solution_by_name(&self, call: &ast::ExprCall) -> bool {
        let Expr::Attribute(a) = call.func.as_ref() else {
            return false;
        };
        let importlib = matches!(a.value.as_ref(), Expr::Name(n)
            if n.id == "importlib"
                && matches!(self.globals.get("importlib"), Some(Global::Import { module, .. }) if module == "importlib"));
        importlib
            && a.attr.as_str() == "import_module"
            && call.arguments.keywords.is_empty()
            && matches!(&call.arguments.args[..], [Expr::StringLiteral(s)]
                if self.solution_modules.iter().any(|m| s.value.to_str() == m.as_str()))
    }

    /// `_load_solution().X` or `sol.X` → `X`.
    pub fn solution_attr(&self, expr: &Expr) -> Option<String> {
        match expr {
            Expr::Attribute(a) if self.is_solution_module_expr(&a.value) => {
                Some(a.attr.to_string())
            }
            _ => None,
        }
    }
}

/// The functions of the file that load the solution module from its file.
pub(super) fn solution_loaders(body: &[Stmt], solution_modules: &[String]) -> HashSet<String> {
    let mut loaders = HashSet::default();
    for stmt in body {
        if let Stmt::FunctionDef(f) = stmt {
            let named = f.name.as_str() == "_load_solution";
            if (named || is_loader_body(&f.body))
                && loads_solution_file(&f.body, solution_modules, named)
            {
                loaders.insert(f.name.to_string());
            }
        }
    }
    loaders
}

/// Whether a loader loads the solution and not another file (an oracle, a reference): every
/// `.py` file name it mentions is the solution's, and, unless it is named `_load_solution`, it
/// mentions the solution by name.
fn loads_solution_file(body: &[Stmt], solution_modules: &[String], named: bool) -> bool {
    let mut strings = Vec::new();
    for_each_expr(body, Scope::All, |expr| {
        if let Expr::StringLiteral(s) = expr {
            strings.push(s.value.to_str().to_string());
        }
    });
    let is_solution = |s: &str| {
        let stem = s.rsplit(['/', '\\']).next().unwrap_or(s);
        let stem = stem.strip_suffix(".py").unwrap_or(stem);
        solution_modules.iter().any(|m| m == stem)
    };
    let other_file = strings
        .iter()
        .any(|s| s.ends_with(".py") && !is_solution(s));
    !other_file && (named || strings.iter().any(|s| is_solution(s)))
}

/// Whether a function body loads a module from a file (a solution loader).
fn is_loader_body(body: &[Stmt]) -> bool {
    any_expr(body, Scope::All, |expr| {
        matches!(expr, Expr::Attribute(a) if matches!(
            a.attr.as_str(),
            "spec_from_file_location" | "exec_module" | "import_module"
        ))
    })
}

/// The name the evaluator binds the solution module to (`ModuleScope::module_binding`): a
/// module-level name of the file bound once, to the solution module (`import solution`,
/// `sol = _load_solution()`), so that the expression reads as the test does; else the first of
/// `solution`, `solution_`, … that is no identifier of the file, so that nothing the expression
/// replays (a local, a parameter, a helper's name) can hide it.
pub(super) fn module_binding_name(body: &[Stmt], globals: &HashMap<String, Global>) -> String {
    let mut ids = Identifiers::default();
    for stmt in body {
        ids.visit_stmt(stmt);
    }
    let mut own: Vec<&String> = globals
        .iter()
        .filter(|(n, g)| {
            matches!(g, Global::SolutionModule) && ids.bound.get(n.as_str()) == Some(&1)
        })
        .map(|(n, _)| n)
        .collect();
    own.sort_shared();
    if let Some(name) = own.first() {
        return (*name).clone();
    }
    let mut candidate = String::from("solution");
    while ids.seen.contains(candidate.as_str()) {
        candidate.push('_');
    }
    candidate
}

/// Every identifier of a file: each name read or bound (`seen`), and how often each is bound.
#[derive(Default)]
struct Identifiers<'a> {
    seen: HashSet<&'a str>,
    bound: HashMap<&'a str, usize>,
}

impl<'a> Identifiers<'a> {
    fn bind(&mut self, name: &'a str) {
        self.seen.insert(name);
        *self.bound.entry(name).or_default() += 1;
    }
}

impl<'a> Visitor<'a> for Identifiers<'a> {
    fn visit_stmt(&mut self, stmt: &'a Stmt) {
        match stmt {
            Stmt::FunctionDef(f) => self.bind(f.name.as_str()),
            Stmt::ClassDef(c) => self.bind(c.name.as_str()),
            Stmt::Global(g) => g.names.iter().for_each(|n| self.bind(n.as_str())),
            Stmt::Nonlocal(g) => g.names.iter().for_each(|n| self.bind(n.as_str())),
            Stmt::Import(i) => {
                for a in &i.names {
                    match &a.asname {
                        Some(asname) => self.bind(asname.as_str()),
                        None => self.bind(a.name.as_str().split('.').next().unwrap_or_default()),
                    }
                }
            }
            Stmt::ImportFrom(i) => {
                for a in &i.names {
                    self.bind(a.asname.as_ref().unwrap_or(&a.name).as_str());
                }
            }
            _ => {}
        }
        visitor::walk_stmt(self, stmt);
    }

    fn visit_expr(&mut self, expr: &'a Expr) {
        if let Expr::Name(n) = expr {
            match n.ctx {
                ast::ExprContext::Load => {
                    self.seen.insert(n.id.as_str());
                }
                _ => self.bind(n.id.as_str()),
            }
        }
        visitor::walk_expr(self, expr);
    }

    fn visit_parameter(&mut self, parameter: &'a ast::Parameter) {
        self.bind(parameter.name.as_str());
        visitor::walk_parameter(self, parameter);
    }

    fn visit_except_handler(&mut self, handler: &'a ast::ExceptHandler) {
        let ast::ExceptHandler::ExceptHandler(h) = handler;
        if let Some(name) = &h.name {
            self.bind(name.as_str());
        }
        visitor::walk_except_handler(self, handler);
    }

    fn visit_pattern(&mut self, pattern: &'a ast::Pattern) {
        match pattern {
            ast::Pattern::MatchAs(p) => {
                if let Some(n) = &p.name {
                    self.bind(n.as_str());
                }
            }
            ast::Pattern::MatchStar(p) => {
                if let Some(n) = &p.name {
                    self.bind(n.as_str());
                }
            }
            ast::Pattern::MatchMapping(p) => {
                if let Some(n) = &p.rest {
                    self.bind(n.as_str());
                }
            }
            _ => {}
        }
        visitor::walk_pattern(self, pattern);
    }

    fn visit_type_param(&mut self, type_param: &'a ast::TypeParam) {
        self.bind(type_param.name().as_str());
        visitor::walk_type_param(self, type_param);
    }
}
