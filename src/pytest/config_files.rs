//! Reading pytest's configuration files as pytest 9 reads them (`_pytest/config/findpaths.py`):
//! which file of a folder configures pytest, its options, and whether pytest refuses to start
//! with it (an ini file `iniconfig` cannot parse, invalid TOML, a shape pytest rejects). What the
//! options do to the tests is [`super::config`]'s judgement.

/// A configuration file's pytest options.
#[derive(Debug, PartialEq, Clone, Default)]
pub struct Config {
    /// The file's name (`pyproject.toml`), as named in reasons.
    pub name: String,
    /// `(key, values)`: an ini value split into lines, a TOML string or list as its strings.
    pub options: Vec<(String, Vec<String>)>,
    /// Why pytest refuses to start with this file, when it does: the file does not parse
    /// (`iniconfig`'s or TOML's error), or pytest rejects its shape (`[pytest]` in `setup.cfg`,
    /// both of `pyproject.toml`'s pytest tables). pytest then runs no test at all.
    pub refused: Option<String>,
}

impl Config {
    /// The options as a `pytest.ini` file's text: what a run of pytest elsewhere (`check`'s view)
    /// reads to apply the same configuration. Each value on a line of its own.
    pub fn to_ini(&self) -> String {
        let mut out = String::from("[pytest]\n");
        for (key, values) in &self.options {
            out.push_str(key);
            out.push_str(" =");
            if let [one] = values.as_slice() {
                out.push(' ');
                out.push_str(one);
            } else {
                for v in values {
                    out.push_str("\n    ");
                    out.push_str(v);
                }
            }
            out.push('\n');
        }
        out
    }
}

/// The configuration files pytest 9 looks for in each folder, in its order (`locate_config`).
pub const FILE_NAMES: [&str; 7] = [
    "pytest.toml",
    ".pytest.toml",
    "pytest.ini",
    ".pytest.ini",
    "pyproject.toml",
    "tox.ini",
    "setup.cfg",
];

/// The configuration pytest 9 reads in one folder, given each file's text (`None` where there is
/// no such file), as `locate_config` does: the first file in [`FILE_NAMES`]'s order that configures
/// pytest. pytest also reads every later file of that folder (to warn about ignored ones), and any
/// file it reads may make it refuse to start: a refusal wins. `None` when no file configures pytest.
pub fn read_folder(mut text_of: impl FnMut(&str) -> Option<String>) -> Option<Config> {
    let mut found: Option<Config> = None;
    for name in FILE_NAMES {
        let Some(text) = text_of(name) else {
            continue;
        };
        let Some(config) = read(name, &text) else {
            continue;
        };
        if config.refused.is_some() {
            return Some(config);
        }
        found.get_or_insert(config);
    }
    found
}

/// What pytest 9 makes of a configuration file it finds (`findpaths.load_config_dict_from_file`):
/// `None` when the file does not configure pytest (a `tox.ini` without `[pytest]`, a `setup.cfg`
/// without `[tool:pytest]`, a `pyproject.toml` without a pytest table), else its options, or a
/// [`Config::refused`] naming why pytest stops before it collects anything. pytest parses every
/// ini-format file it looks at whole (`iniconfig`), and every TOML file: an error anywhere in it
/// is a refusal, whether or not the file has a pytest section.
pub fn read(name: &str, text: &str) -> Option<Config> {
    let config = |options| {
        Some(Config {
            name: name.to_string(),
            options,
            refused: None,
        })
    };
    let refuse = |why: String| {
        Some(Config {
            name: name.to_string(),
            options: Vec::new(),
            refused: Some(why),
        })
    };
    if name.ends_with(".toml") {
        return match read_toml(name, text) {
            Ok(Some(options)) => config(options),
            Ok(None) => None,
            Err(why) => refuse(why),
        };
    }
    let sections = match iniconfig(text) {
        Ok(sections) => sections,
        Err((line, why)) => {
            return refuse(format!(
                "does not parse as pytest reads it (line {line}: {why})"
            ))
        }
    };
    let section = |wanted: &str| {
        sections
            .iter()
            .find(|(s, _)| s == wanted)
            .map(|(_, keys)| keys.clone())
    };
    match name {
        "setup.cfg" => match section("tool:pytest") {
            Some(options) => config(options),
            None if section("pytest").is_some() => refuse(
                "has a `[pytest]` section, which pytest no longer supports in `setup.cfg` (it takes `[tool:pytest]`)".to_string(),
            ),
            None => None,
        },
        "pytest.ini" | ".pytest.ini" => config(section("pytest").unwrap_or_default()),
        _ => section("pytest").and_then(config),
    }
}

/// A configuration's options: each key with its value's lines (or a TOML list's strings).
type Options = Vec<(String, Vec<String>)>;

/// One ini file's sections, in order, each with its keys and their lines.
type IniSections = Vec<(String, Vec<(String, Vec<String>)>)>;

/// `iniconfig.IniConfig(path)` as pytest 9 calls it (no inline-comment stripping, section names as
/// written): the sections and their keys, or the 1-based line and message of its `ParseError`.
fn iniconfig(text: &str) -> Result<IniSections, (usize, String)> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut sections: IniSections = Vec::new();
    // Whether the last line read was a key (a continuation line extends it).
    let mut last_is_key = false;
    let mut any = false;
    for (index, raw) in text.split_inclusive('\n').enumerate() {
        let line_no = index + 1;
        // `str.splitlines(True)`: `\r\n` and `\r` end lines too; only `\n` is split on here,
        // and `rstrip` drops a trailing `\r`.
        let comment = matches!(raw.trim_start().chars().next(), None | Some('#' | ';'));
        let line = if comment { "" } else { raw.trim_end() };
        if line.is_empty() {
            continue;
        }
        let first = line.chars().next().unwrap_or(' ');
        // A section header: `[name]`, after cutting at a comment character.
        if first == '[' {
            let cut = line.split(['#', ';']).next().unwrap_or("").trim_end();
            if cut.ends_with(']') && cut.len() >= 2 {
                let name = &cut[1..cut.len() - 1];
                if name.is_empty() {
                    return Err((line_no, "empty section name".into()));
                }
                if sections.iter().any(|(s, _)| s == name) {
                    return Err((line_no, format!("duplicate section '{name}'")));
                }
                sections.push((name.to_string(), Vec::new()));
                last_is_key = false;
                any = true;
                continue;
            }
            // `[` without a closing `]` reads as a continuation line.
            if !last_is_key {
                return Err((line_no, "unexpected value continuation".into()));
            }
            if let Some((_, keys)) = sections.last_mut() {
                if let Some((_, values)) = keys.last_mut() {
                    values.push(line.trim().to_string());
                }
            }
            continue;
        }
        if !first.is_whitespace() {
            let Some(at) = line.find(['=', ':']) else {
                return Err((line_no, format!("unexpected line: '{line}'")));
            };
            let (key, value) = (line[..at].trim(), line[at + 1..].trim());
            let Some((_, keys)) = sections.last_mut().filter(|_| any) else {
                return Err((line_no, "no section header defined".into()));
            };
            if keys.iter().any(|(k, _)| k == key) {
                return Err((line_no, format!("duplicate name '{key}'")));
            }
            let values = if value.is_empty() {
                Vec::new()
            } else {
                vec![value.to_string()]
            };
            keys.push((key.to_string(), values));
            last_is_key = true;
            continue;
        }
        // A continuation line: it extends the last key's value.
        if !last_is_key {
            return Err((line_no, "unexpected value continuation".into()));
        }
        if let Some((_, keys)) = sections.last_mut() {
            if let Some((_, values)) = keys.last_mut() {
                values.push(line.trim().to_string());
            }
        }
    }
    Ok(sections)
}

/// A TOML configuration's pytest options (`findpaths.load_config_dict_from_file`): `pytest.toml`'s
/// `[pytest]` table (the file counts even without one); `pyproject.toml`'s `[tool.pytest]` (native
/// types) or `[tool.pytest.ini_options]` (strings), never both. `Ok(None)` when a `pyproject.toml`
/// has neither; `Err` when pytest refuses the file.
#[cfg(feature = "toml")]
fn read_toml(name: &str, text: &str) -> Result<Option<Options>, String> {
    let value: toml::Table = text.parse().map_err(|e: toml::de::Error| {
        let first = e.message().lines().next().unwrap_or("").trim().to_string();
        format!("is not valid TOML ({first})")
    })?;
    let table_at = |path: &[&str]| -> Option<&toml::Table> {
        let mut t = &value;
        for key in path {
            t = t.get(*key)?.as_table()?;
        }
        Some(t)
    };
    let table = if name == "pyproject.toml" {
        let Some(pytest) = table_at(&["tool", "pytest"]) else {
            return Ok(None);
        };
        let ini = pytest.get("ini_options").and_then(|t| t.as_table());
        let native = pytest.iter().any(|(k, _)| k != "ini_options");
        match (native, ini) {
            (true, Some(_)) => return Err("has both `[tool.pytest]` and `[tool.pytest.ini_options]`, which pytest refuses to use together".to_string()),
            (false, Some(ini)) => ini,
            (true, None) => pytest,
            (false, None) => return Ok(None),
        }
    } else {
        match table_at(&["pytest"]) {
            Some(t) => t,
            None => return Ok(Some(Vec::new())),
        }
    };
    let scalar = |v: &toml::Value| -> String {
        match v {
            toml::Value::String(s) => s.clone(),
            toml::Value::Integer(i) => i.to_string(),
            toml::Value::Float(f) => f.to_string(),
            toml::Value::Boolean(b) => b.to_string(),
            _ => String::new(),
        }
    };
    let strings = |v: &toml::Value| -> Vec<String> {
        match v {
            toml::Value::Array(a) => a.iter().map(scalar).collect(),
            other => vec![scalar(other)],
        }
    };
    Ok(Some(
        table
            .iter()
            .filter(|(_, v)| !v.is_table())
            .map(|(k, v)| (k.clone(), strings(v)))
            .collect(),
    ))
}

/// Without a TOML parser (the page's build), a TOML file configures nothing it can read.
#[cfg(not(feature = "toml"))]
fn read_toml(_name: &str, _text: &str) -> Result<Option<Options>, String> {
    Ok(None)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_ini_files_as_iniconfig_does_and_names_what_pytest_refuses() {
        let refused = |name: &str, text: &str| read(name, text).and_then(|c| c.refused);
        // iniconfig's errors, with pytest's 1-based line.
        for (text, said) in [
            (
                "[pytest]\naddopts = -q\naddopts = -q\n",
                "line 3: duplicate name 'addopts'",
            ),
            (
                "[pytest]\naddopts = -q\n  \noops\n",
                "line 4: unexpected line: 'oops'",
            ),
            ("addopts = -q\n[pytest]\n", "no section header defined"),
            ("[pytest]\n[pytest]\n", "duplicate section 'pytest'"),
            ("[pytest]\n  -q\n", "line 2: unexpected value continuation"),
        ] {
            let why = refused("pytest.ini", text).expect(text);
            assert!(why.contains(said), "{text:?}: {why}");
        }
        // A `tox.ini` or `setup.cfg` is parsed whole: an error outside pytest's section refuses too.
        assert!(refused("tox.ini", "[tox]\nenvlist\n[pytest]\naddopts = -q\n").is_some());
        assert!(refused("setup.cfg", "[metadata]\nname\n").is_some());
        // A file without pytest's section configures nothing (and is no refusal).
        assert_eq!(read("tox.ini", "[tox]\nenvlist = py3\n"), None);
        assert!(refused("setup.cfg", "[pytest]\naddopts = -q\n")
            .expect("refused")
            .contains("`[pytest]` section"));
        // Comments (`#`, `;`, blank lines) are skipped; `key: value` and continuations read.
        let c = read(
            "setup.cfg",
            "# c\n[tool:pytest]\n; c\nmarkers:\n    slow: slow tests\n\n    fast\naddopts = -q\n",
        )
        .unwrap();
        assert_eq!(c.refused, None);
        assert_eq!(
            c.options,
            vec![
                (
                    "markers".to_string(),
                    vec!["slow: slow tests".to_string(), "fast".to_string()]
                ),
                ("addopts".to_string(), vec!["-q".to_string()])
            ]
        );
    }

    #[cfg(feature = "toml")]
    #[test]
    fn toml_files_pytest_refuses() {
        let refused = |name: &str, text: &str| read(name, text).and_then(|c| c.refused);
        assert!(refused(
            "pyproject.toml",
            "[tool.pytest.ini_options]\naddopts = \"-q\n"
        )
        .expect("refused")
        .contains("not valid TOML"));
        // A syntax error refuses even where the file has no pytest table.
        assert!(refused("pyproject.toml", "[project]\nname = \n").is_some());
        assert!(refused(
            "pyproject.toml",
            "[tool.pytest]\naddopts = [\"-q\"]\n[tool.pytest.ini_options]\naddopts = \"-q\"\n"
        )
        .is_some());
        assert_eq!(read("pyproject.toml", "[project]\nname = \"x\"\n"), None);
        let c = read(
            "pyproject.toml",
            "[tool.pytest.ini_options]\naddopts = \"-q\"\n",
        )
        .unwrap();
        assert_eq!(
            c.options,
            vec![("addopts".to_string(), vec!["-q".to_string()])]
        );
    }

    #[test]
    fn a_refusal_anywhere_in_the_folder_wins() {
        // pytest reads the files after the one it takes too (to name the ignored ones).
        let files = [
            ("pytest.ini", "[pytest]\naddopts = -q\n"),
            ("setup.cfg", "[x]\noops\n"),
        ];
        let c = read_folder(|n| {
            files
                .iter()
                .find(|(f, _)| *f == n)
                .map(|(_, t)| t.to_string())
        })
        .unwrap();
        assert!(c.refused.is_some() && c.name == "setup.cfg");
        let files = [
            ("pytest.ini", "[pytest]\naddopts = -q\n"),
            ("tox.ini", "[tox]\n"),
        ];
        let c = read_folder(|n| {
            files
                .iter()
                .find(|(f, _)| *f == n)
                .map(|(_, t)| t.to_string())
        })
        .unwrap();
        assert_eq!((c.name.as_str(), c.refused), ("pytest.ini", None));
    }
}
