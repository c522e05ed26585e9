//! The rule catalogue checks itself: every rule's example, run through the extractor, gives that
//! rule; `docs/rules.md` is the catalogue as generated; and no reason is left without its rule.
//! `UPDATE_RULES=1 cargo test --test rules` rewrites `docs/rules.md`.

use std::path::Path;

use bench_explorer::rules::{self, Rule};
use bench_explorer::{extract, Extraction, Options, Stage};

fn run_example(rule: Rule, example: &rules::Example) -> Extraction {
    let stage = example
        .stage
        .as_deref()
        .map(|s| Stage::from_id(s).unwrap_or_else(|| panic!("{rule}: unknown stage {s}")))
        .unwrap_or(Stage::Full);
    let options = Options {
        file: "tests/test_example.py".to_string(),
        stage,
        conftests: example
            .conftest
            .iter()
            .map(|source| bench_explorer::Conftest {
                path: "tests/conftest.py".to_string(),
                source: source.clone(),
                package: None,
            })
            .collect(),
        pytest_config: example
            .ini
            .as_ref()
            .map(|text| bench_explorer::pytest_config::Config {
                name: "pytest.ini".to_string(),
                options: bench_explorer::pytest_config::parse_ini("pytest.ini", text)
                    .unwrap_or_else(|| panic!("{rule}: the example's pytest.ini does not parse")),
            }),
        ..Options::new("tests/test_example.py")
    };
    extract(&example.test, &options)
}

fn fired(extraction: &Extraction) -> Vec<String> {
    extraction
        .assertions
        .iter()
        .filter_map(|a| a.rule.as_ref())
        .chain(extraction.findings.iter().filter_map(|f| f.rule.as_ref()))
        .map(|r| r.code.clone())
        .collect()
}

#[test]
fn every_rule_example_gives_its_rule() {
    let mut failures = Vec::new();
    let mut without = Vec::new();
    for rule in Rule::all() {
        let Some(example) = rules::example(rule) else {
            without.push(rule.to_string());
            continue;
        };
        let extraction = run_example(rule, &example);
        let codes = fired(&extraction);
        if !codes.iter().any(|c| c == rule.code()) {
            failures.push(format!(
                "{rule}: its example gives {codes:?}; reasons: {:?}",
                extraction
                    .dropped()
                    .map(|a| a.reason.clone().unwrap_or_default())
                    .collect::<Vec<_>>()
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    // A rule whose page can give no runnable example says so in its "Example" section; keep them few.
    assert!(
        without.len() * 10 <= Rule::all().len(),
        "too many rules without a runnable example: {without:?}"
    );
}

#[test]
fn www_rules_json_is_the_catalogue() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("www/rules.json");
    let generated = rules::catalogue_json();
    if std::env::var_os("UPDATE_RULES").is_some() {
        std::fs::write(&path, &generated).unwrap();
    }
    let on_disk = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        on_disk == generated,
        "www/rules.json is not the catalogue: run `UPDATE_RULES=1 cargo test --test rules`"
    );
}

#[test]
fn docs_rules_md_is_the_catalogue() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/rules.md");
    let generated = rules::catalogue_markdown();
    if std::env::var_os("UPDATE_RULES").is_some() {
        std::fs::write(&path, &generated).unwrap();
    }
    let on_disk = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        on_disk == generated,
        "docs/rules.md is not the catalogue: run `UPDATE_RULES=1 cargo test --test rules`"
    );
}

/// Every dropped entry and finding of every fixture names a rule of the catalogue.
#[test]
fn every_drop_in_the_fixtures_has_a_rule() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    let mut missing = Vec::new();
    let mut unsorted = 0usize;
    for dir in std::fs::read_dir(&root).unwrap() {
        let dir = dir.unwrap().path();
        let Some(test) = std::fs::read_dir(&dir)
            .unwrap()
            .filter_map(|e| e.ok())
            .map(|e| e.path())
            .find(|p| {
                let name = p.file_name().unwrap().to_string_lossy().to_string();
                name.ends_with(".py") && (name.starts_with("test") || name.ends_with("_test.py"))
            })
        else {
            continue;
        };
        let source = std::fs::read_to_string(&test).unwrap();
        let e = extract(
            &source,
            &Options::new(test.file_name().unwrap().to_string_lossy()),
        );
        for a in e.dropped() {
            match &a.rule {
                None => missing.push(format!(
                    "{}: line {}: {:?}",
                    dir.display(),
                    a.line,
                    a.reason
                )),
                Some(r) if r.code == Rule::Unsorted.code() => unsorted += 1,
                Some(r) => assert!(Rule::find(&r.code).is_some(), "{r:?}"),
            }
        }
        for f in &e.findings {
            match &f.rule {
                None => missing.push(format!("{}: line {}: {}", dir.display(), f.line, f.message)),
                Some(r) if r.code == Rule::Unsorted.code() => unsorted += 1,
                Some(_) => {}
            }
        }
    }
    assert!(
        missing.is_empty(),
        "entries without a rule:\n{}",
        missing.join("\n")
    );
    eprintln!("reasons not yet given their rule in the fixtures: {unsorted}");
}
