//! Finding pytest's configuration file for a test file as pytest does: the first folder from the
//! test's up with `pytest.ini`, `.pytest.ini`, a `pyproject.toml` with a pytest table, a `tox.ini`
//! with `[pytest]` or a `setup.cfg` with `[tool:pytest]`. What its options do to the file's tests is
//! the library's judgement (`bench_explorer::pytest_config::judge`).

use std::path::{Path, PathBuf};

use bench_explorer::pytest_config::{read_folder, Config};

/// The configuration pytest would read for `test_file`, if any: the first folder from the test's
/// up whose files configure pytest (or make it refuse to start).
pub fn find(test_file: &str) -> Option<Config> {
    if test_file == "-" {
        return None;
    }
    let start: PathBuf = std::fs::canonicalize(test_file)
        .ok()?
        .parent()?
        .to_path_buf();
    let mut dir: Option<&Path> = Some(&start);
    while let Some(d) = dir {
        let found = read_folder(|name| std::fs::read_to_string(d.join(name)).ok());
        if found.is_some() {
            return found;
        }
        dir = d.parent();
    }
    None
}

/// The pytest options of a configuration file's text, or `None` when it has no pytest section
/// (`pytest.ini` and `.pytest.ini` always count, as in pytest) or pytest refuses it.
#[cfg(test)]
pub fn parse(name: &str, text: &str) -> Option<Vec<(String, Vec<String>)>> {
    bench_explorer::pytest_config::read(name, text)
        .filter(|c| c.refused.is_none())
        .map(|c| c.options)
}

#[cfg(test)]
mod tests {
    use super::*;
    use bench_explorer::pytest_config::{judge, Judgement};

    fn judged(name: &str, text: &str) -> Judgement {
        judge(&Config {
            name: name.to_string(),
            options: parse(name, text).expect("a pytest section"),
            refused: None,
        })
    }

    fn block(name: &str, text: &str) -> Option<String> {
        judged(name, text).blocker
    }

    fn blocker(config: &Config) -> Option<String> {
        judge(config).blocker
    }

    #[test]
    fn harmless_options_block_nothing() {
        let ini = "[pytest]\nminversion = 8.0\ntestpaths = tests\naddopts = -ra -r a --tb short -q --doctest-modules --cov=pkg --cov-report term-missing -p no:cacheprovider --import-mode=importlib\nmarkers =\n    slow: slow tests\nxfail_strict = true\nfilterwarnings =\n    ignore::DeprecationWarning\n";
        assert_eq!(block("pytest.ini", ini), None);
    }

    #[test]
    fn warning_filters_are_read_in_order_config_then_command_line() {
        let ini = "[pytest]\naddopts = -W ignore::UserWarning -Werror::ResourceWarning\nfilterwarnings =\n    error\n    ignore:old:DeprecationWarning\n";
        let j = judged("tox.ini", ini);
        assert_eq!(j.blocker, None);
        let actions: Vec<(&str, &str)> = j
            .warning_filters
            .iter()
            .map(|f| (f.action.as_str(), f.category.as_str()))
            .collect();
        assert_eq!(
            actions,
            [
                ("error", ""),
                ("ignore", "DeprecationWarning"),
                ("ignore", "UserWarning"),
                ("error", "ResourceWarning")
            ]
        );
        let toml =
            "[tool.pytest.ini_options]\nfilterwarnings = [\"error\", \"ignore::UserWarning\"]\n";
        assert_eq!(judged("pyproject.toml", toml).warning_filters.len(), 2);
        let bad = "[pytest]\nfilterwarnings =\n    shout\n";
        assert!(block("pytest.ini", bad).unwrap().contains("unknown action"));
    }

    #[test]
    fn marks_selection_and_strict_markers_are_followed() {
        let ini = "[pytest]\naddopts = --strict-markers -m 'not slow'\nmarkers =\n    slow: slow tests\n    device(serial): a device\n";
        let j = judged("pytest.ini", ini);
        assert_eq!(j.blocker, None);
        let (written, expr) = j.mark_expr.unwrap();
        assert_eq!(written, "not slow");
        assert!(!expr.matches(&["slow".to_string()]));
        assert!(j.strict_markers);
        for name in ["slow", "device", "parametrize", "filterwarnings"] {
            assert!(j.registered_markers.iter().any(|r| r == name), "{name}");
        }
        assert!(!judged("pytest.ini", "[pytest]\naddopts = -ra\n").strict_markers);
        assert_eq!(
            block("pytest.ini", "[pytest]\naddopts = --strict-config -ra\n"),
            None
        );
        assert!(judged("pytest.ini", "[pytest]\nstrict_markers = yes\n").strict_markers);
        assert!(
            block("pytest.ini", "[pytest]\naddopts = -m 'dev(serial=1)'\n")
                .unwrap()
                .contains("-m dev")
        );
    }

    #[test]
    fn selection_plugins_fixtures_and_names_block_every_test() {
        let cases = [
            ("[pytest]\naddopts = -k 'not slow'\n", "`-k`"),
            ("[pytest]\naddopts = -x\n", "`-x`"),
            // Inert alone (pytest 9 registers every key here); with a plugin's key, a usage error.
            (
                "[pytest]\naddopts = --strict-config\nasyncio_mode = auto\n",
                "`--strict-config`",
            ),
            ("[pytest]\nstrict = true\n", "`strict = true`"),
            (
                "[pytest]\nrequired_plugins = pytest-xdist\n",
                "`required_plugins",
            ),
            ("[pytest]\naddopts = -p myplugin\n", "`-p myplugin`"),
            ("[pytest]\nusefixtures = prime\n", "`usefixtures = prime`"),
            (
                "[pytest]\npython_functions = check_*\n",
                "`python_functions = check_*`",
            ),
        ];
        for (ini, expected) in cases {
            let why = block("pytest.ini", ini).unwrap_or_default();
            assert!(why.contains(expected), "{ini:?}: {why}");
        }
    }

    #[test]
    fn sections_pytest_does_not_read_are_not_configurations() {
        assert_eq!(parse("tox.ini", "[tox]\nenvlist = py311\n"), None);
        assert_eq!(parse("setup.cfg", "[metadata]\nname = x\n"), None);
        assert_eq!(parse("pyproject.toml", "[project]\nname = \"x\"\n"), None);
        assert!(parse("setup.cfg", "[tool:pytest]\naddopts = -q\n").is_some());
        assert_eq!(
            parse("pytest.toml", "[pytest]\naddopts = \"-m 'not slow'\"\n"),
            Some(vec![(
                "addopts".to_string(),
                vec!["-m 'not slow'".to_string()]
            )])
        );
        // An empty pytest.ini still makes its folder the rootdir.
        assert_eq!(parse("pytest.ini", ""), Some(Vec::new()));
    }

    #[test]
    fn the_no_escaping_key_reaches_the_ids_from_every_file_pytest_reads() {
        let key = "disable_test_id_escaping_and_forfeit_all_rights_to_community_support";
        let test =
            "import pytest\n@pytest.mark.parametrize('s', ['é'])\ndef test_s(s):\n    assert s\n";
        let id = |name: &str, text: &str| {
            let options = bench_explorer::Options {
                pytest_config: Some(Config {
                    name: name.to_string(),
                    options: parse(name, text).expect("a pytest section"),
                    refused: None,
                }),
                ..Default::default()
            };
            bench_explorer::extract(test, &options).assertions[0]
                .test
                .clone()
        };
        // A TOML boolean (in `ini_options`, pytest reads `str(True)`; in pytest 9's own table, the
        // boolean itself) and the ini files' truth values.
        for (name, text) in [
            (
                "pyproject.toml",
                format!("[tool.pytest.ini_options]\n{key} = true\n"),
            ),
            ("pyproject.toml", format!("[tool.pytest]\n{key} = true\n")),
            ("pytest.toml", format!("[pytest]\n{key} = true\n")),
            ("setup.cfg", format!("[tool:pytest]\n{key} = on\n")),
            ("tox.ini", format!("[pytest]\n{key} = 1\n")),
        ] {
            assert_eq!(id(name, &text), "test_s[é]", "{name}: {text}");
        }
        assert_eq!(
            id(
                "pyproject.toml",
                &format!("[tool.pytest.ini_options]\n{key} = false\n")
            ),
            "test_s[\\xe9]"
        );
    }

    #[test]
    fn the_nearest_configuration_wins() {
        let root = std::env::temp_dir().join(format!("bx-ini-{}", std::process::id()));
        let sub = root.join("pkg/tests");
        std::fs::create_dir_all(&sub).unwrap();
        std::fs::write(root.join("pytest.ini"), "[pytest]\naddopts = -x\n").unwrap();
        std::fs::write(sub.join("tox.ini"), "[tox]\nenvlist = py\n").unwrap();
        std::fs::write(sub.join("test_x.py"), "def test_x():\n    assert 1\n").unwrap();
        let found = find(sub.join("test_x.py").to_str().unwrap()).unwrap();
        assert_eq!(found.name, "pytest.ini");
        assert!(blocker(&found).unwrap().contains("`-x`"));
        std::fs::write(root.join("pkg/setup.cfg"), "[tool:pytest]\naddopts = -q\n").unwrap();
        let found = find(sub.join("test_x.py").to_str().unwrap()).unwrap();
        assert_eq!(found.name, "setup.cfg");
        assert_eq!(blocker(&found), None);
        std::fs::remove_dir_all(&root).unwrap();
    }
}
