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
        pytest_config: example.ini.as_ref().map(|text| {
            bench_explorer::pytest_config::read("pytest.ini", text)
                .expect("a pytest.ini always configures pytest")
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
                Some(r) => assert!(Rule::find(&r.code).is_some(), "{r:?}"),
            }
        }
        for f in &e.findings {
            match &f.rule {
                None => missing.push(format!("{}: line {}: {}", dir.display(), f.line, f.message)),
                Some(r) => assert!(Rule::find(&r.code).is_some(), "{r:?}"),
            }
        }
    }
    assert!(
        missing.is_empty(),
        "entries without a rule:\n{}",
        missing.join("\n")
    );
}

/// Every rule is shown by a behaviour fixture (its snapshot names it), except the rules listed in
/// `tests/rules_without_fixture.txt`: a new rule cannot land without a fixture, and a listed rule
/// that gains one must leave the list, so the list only shrinks.
#[test]
fn every_rule_has_a_fixture_or_is_listed() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut seen = std::collections::BTreeSet::new();
    for entry in std::fs::read_dir(root.join("tests/snapshots")).unwrap() {
        let text = std::fs::read_to_string(entry.unwrap().path()).unwrap_or_default();
        for part in text.split("\"code\": \"").skip(1) {
            seen.insert(part.chars().take_while(|c| *c != '"').collect::<String>());
        }
    }
    let listed_text =
        std::fs::read_to_string(root.join("tests/rules_without_fixture.txt")).unwrap_or_default();
    let listed: std::collections::BTreeSet<String> = listed_text
        .lines()
        .filter_map(|l| l.split_whitespace().next())
        .filter(|w| !w.starts_with('#'))
        .map(str::to_string)
        .collect();
    let mut errors = Vec::new();
    for rule in Rule::all() {
        let code = rule.code().to_string();
        match (seen.contains(&code), listed.contains(&code)) {
            (false, false) => errors.push(format!(
                "{rule} has no fixture: add one under tests/fixtures/ whose expect.toml states `rule = \"{code}\"`"
            )),
            (true, true) => errors.push(format!(
                "{rule} has a fixture now: take it out of tests/rules_without_fixture.txt"
            )),
            _ => {}
        }
    }
    for code in &listed {
        if Rule::find(code).is_none() {
            errors.push(format!(
                "tests/rules_without_fixture.txt lists {code}, which is no rule"
            ));
        }
    }
    assert!(errors.is_empty(), "{}", errors.join("\n"));
}
