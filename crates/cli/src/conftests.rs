//! What the CLI reads beside a test file. Finding the `conftest.py` files pytest imports for it: every one from the test's folder
//! up to the rootdir (the first folder with a pytest configuration file, or a repository root).
//! Reading more than pytest would is safe (the extractor only drops more); fewer would not be.

use std::path::Path;

use bench_explorer::Conftest;

/// Files that make a folder pytest's rootdir, and a repository root where the search stops anyway.
const ROOT_MARKERS: &[&str] = &[
    "pytest.ini",
    ".pytest.ini",
    "pyproject.toml",
    "tox.ini",
    "setup.cfg",
    ".git",
];

/// The test file's path from the root, so that the walk up its folders meets each folder once
/// (`./test_x.py`'s folder `.` and its parent `` are the same one).
fn absolute(test_file: &str) -> std::path::PathBuf {
    let path = Path::new(test_file);
    path.canonicalize()
        .or_else(|_| std::path::absolute(path))
        .unwrap_or_else(|_| path.to_path_buf())
}

/// The conftest files for `test_file`, outermost first; an error names one Python would not read
/// (pytest's collection fails on it).
pub fn for_file(test_file: &str) -> Result<Vec<Conftest>, String> {
    if test_file == "-" {
        return Ok(Vec::new());
    }
    let path = absolute(test_file);
    let mut found = Vec::new();
    let mut dir = path.parent();
    // Named relative to the test file's folder in reasons (`conftest.py`, `../conftest.py`): no
    // machine's path in the output.
    let mut up = String::new();
    while let Some(d) = dir {
        let candidate = d.join("conftest.py");
        if let Some(source) = crate::python_source::read(&candidate) {
            let source = source?;
            found.push(Conftest {
                path: format!("{up}conftest.py"),
                source,
                package: package_of(d),
            });
        }
        up.push_str("../");
        let here = if d.as_os_str().is_empty() {
            Path::new(".")
        } else {
            d
        };
        if ROOT_MARKERS.iter().any(|m| here.join(m).exists()) {
            break;
        }
        dir = match d.parent() {
            Some(p) => Some(p),
            // A relative path's last folder: continue from the working directory's absolute path.
            None => None,
        };
    }
    found.reverse();
    Ok(found)
}

/// The dotted package a folder is, as pytest's default import mode resolves it: the folders from the
/// outermost one holding an `__init__.py` (with no `__init__.py` above it) down to `dir`; `None`
/// when `dir` has no `__init__.py`.
fn package_of(dir: &Path) -> Option<String> {
    let dir = if dir.as_os_str().is_empty() {
        Path::new(".")
    } else {
        dir
    };
    let mut here = dir.canonicalize().ok()?;
    let mut parts = Vec::new();
    while here.join("__init__.py").is_file() {
        parts.push(here.file_name()?.to_str()?.to_string());
        here = here.parent()?.to_path_buf();
    }
    if parts.is_empty() || parts.iter().any(|p| p.contains('.')) {
        return None;
    }
    parts.reverse();
    Some(parts.join("."))
}

/// The package `__init__.py` files pytest imports before the test module, outermost first: the
/// test's folder and each folder above it, while each holds one (a package pytest imports the test
/// module in).
pub fn package_inits(test_file: &str) -> Result<Vec<Conftest>, String> {
    if test_file == "-" {
        return Ok(Vec::new());
    }
    let mut found = Vec::new();
    let path = absolute(test_file);
    let mut dir = path.parent();
    let mut up = String::new();
    while let Some(d) = dir {
        let here = if d.as_os_str().is_empty() {
            Path::new(".")
        } else {
            d
        };
        let Some(source) = crate::python_source::read(&here.join("__init__.py")) else {
            break;
        };
        let source = source?;
        found.push(Conftest {
            path: format!("{up}__init__.py"),
            source,
            package: package_of(d),
        });
        up.push_str("../");
        dir = d.parent();
    }
    found.reverse();
    Ok(found)
}

#[cfg(test)]
mod tests {
    use super::for_file;

    #[test]
    fn conftests_from_the_file_folder_up_to_the_root_marker() {
        let root = std::env::temp_dir().join(format!("bx-conftest-{}", std::process::id()));
        let sub = root.join("pkg/tests");
        std::fs::create_dir_all(&sub).unwrap();
        std::fs::write(root.join("pytest.ini"), "[pytest]\n").unwrap();
        std::fs::write(root.join("conftest.py"), "# top\n").unwrap();
        std::fs::write(sub.join("conftest.py"), "# near\n").unwrap();
        std::fs::write(sub.join("test_x.py"), "def test_x():\n    assert 1\n").unwrap();
        std::fs::write(root.join("pkg/__init__.py"), "").unwrap();
        std::fs::write(sub.join("__init__.py"), "").unwrap();
        let found = for_file(sub.join("test_x.py").to_str().unwrap()).unwrap();
        let sources: Vec<&str> = found.iter().map(|c| c.source.as_str()).collect();
        assert_eq!(sources, ["# top\n", "# near\n"]);
        // The near one is in the package `pkg.tests`; the top one (no `__init__.py`) in none.
        let packages: Vec<Option<&str>> = found.iter().map(|c| c.package.as_deref()).collect();
        assert_eq!(packages, [None, Some("pkg.tests")]);
        // `tests/./test_x.py`: the folder `tests/.` and its parent `tests` are one folder, whose
        // conftest is read once (`./test_x.py` from the test's folder read it twice).
        let dotted = sub.join(".").join("test_x.py");
        let found = for_file(dotted.to_str().unwrap()).unwrap();
        let paths: Vec<&str> = found.iter().map(|c| c.path.as_str()).collect();
        assert_eq!(paths, ["../../conftest.py", "conftest.py"]);
        std::fs::remove_dir_all(&root).unwrap();
    }
}
