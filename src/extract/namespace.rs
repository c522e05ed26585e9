//! The namespace a stage's kept expressions are evaluated in, and the name pytest imports the test
//! module under.

use crate::model::{Extraction, Stage};
use crate::module::ModuleScope;
use crate::options::Options;

/// The namespace the stage's kept expressions are evaluated in (contract version 2): the
/// write-up's stages keep the solution's own globals, as the loop they reproduce did; the full
/// stage lists what the test file binds from the solution, the module itself first when an
/// expression reads it.
pub(super) fn bindings(
    stage: Stage,
    scope: &ModuleScope,
    e: &Extraction,
    options: &Options,
) -> Vec<crate::model::Binding> {
    use crate::model::Binding;
    let module = scope.solution_module_path().to_string();
    if stage != Stage::Full {
        return vec![Binding::Globals { module }];
    }
    // The test module's `__name__`: the evaluator's namespace is then a module of that name, as
    // the test's globals are (what a check reads as `__name__`, the `__module__` of a function it
    // creates, the module code finds by its caller's `__name__`).
    let test_module = e.kept().next().map(|_| Binding::Value {
        name: "__name__".into(),
        value: test_module_name(options),
    });
    let reads = |name: &str| {
        e.kept().any(|a| {
            a.expr.as_deref().is_some_and(|x| {
                x.match_indices(name).any(|(i, _)| {
                    let before = x[..i].chars().next_back();
                    let after = x[i + name.len()..].chars().next();
                    !before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '.')
                        && !after.is_some_and(|c| c.is_alphanumeric() || c == '_')
                })
            })
        })
    };
    let name: &str = &scope.module_binding;
    // A bare read of the solution's attribute that pytest made while importing the file is read
    // again through the module's binding, once, where pytest read it.
    let reads_module = reads(name) || !scope.import_reads.is_empty();
    let mut probes = scope.import_reads.iter().peekable();
    let mut ordered: Vec<Binding> = Vec::new();
    for (range, b) in scope.solution_bindings.iter().filter(|(_, b)| {
        !matches!(b, Binding::Import { name, .. }
                if !reads(name) && !name.starts_with(crate::conftest::CONFTEST_IMPORT_PREFIX))
    }) {
        while let Some(p) = probes.next_if(|p| p.range.start() < range.start()) {
            ordered.push(probe(name, p));
        }
        ordered.push(b.clone());
    }
    ordered.extend(probes.map(|p| probe(name, p)));
    test_module
        .into_iter()
        .chain(reads_module.then(|| Binding::Module {
            name: name.to_string(),
            module,
        }))
        // pytest's own import is made only where a check reads it (`pytest.approx`).
        .chain(ordered)
        .collect()
}

/// The `eval` binding of a bare read pytest made at import: `sol.X`.
fn probe(module: &str, read: &crate::module::ImportRead) -> crate::model::Binding {
    crate::model::Binding::Eval {
        expr: format!("{module}.{}", read.attr),
        line: read.line,
    }
}

/// The name pytest imports the test module under (its default `prepend` import mode): the file's
/// stem, inside the package its folder is when it has an `__init__.py`.
pub(super) fn test_module_name(options: &Options) -> String {
    let file = options.file.replace('\\', "/");
    let stem = file
        .rsplit('/')
        .next()
        .unwrap_or("")
        .trim_end_matches(".py")
        .to_string();
    match options
        .package_inits
        .last()
        .filter(|init| init.path == "__init__.py" || !init.path.contains("../"))
        .and_then(|init| init.package.as_deref())
    {
        Some(package) => format!("{package}.{stem}"),
        None => stem,
    }
}
