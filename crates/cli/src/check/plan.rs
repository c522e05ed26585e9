//! What `check` runs: the problems under the given paths, the solutions of each, and the
//! deterministic list of (problem, solution) pairs that `--shard K/N` slices.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use bench_explorer::{extract, Extraction, Options, Stage};

use crate::Fatal;

/// One problem: its test file and what the extractor keeps of it.
pub struct Problem {
    pub slug: String,
    pub folder: PathBuf,
    pub test_path: PathBuf,
    pub test_source: String,
    pub extraction: Extraction,
    /// The pytest configuration found for the test file, as a `pytest.ini` (see `Config::to_ini`).
    pub pytest_ini: Option<String>,
    /// The test file's `conftest.py` files outside packages, so that the pytest view runs with them
    /// as pytest in the folder does.
    pub conftests: Vec<ConftestFile>,
}

/// A `conftest.py` for the pytest view: its path relative to the test file's folder, and its text.
#[derive(serde::Serialize)]
pub struct ConftestFile {
    pub path: String,
    pub source: String,
}

/// Which solutions to run against each problem.
pub enum Solutions {
    /// `solution.py` in the problem's folder.
    Reference,
    /// One file: looked up in each problem's folder first (`--solution stub.py` runs every stub),
    /// else the path as given.
    File(PathBuf),
    /// Every `.py` file of a folder: `DIR/<slug>/*.py` for a bench, `DIR/*.py` for one problem.
    Dir(PathBuf),
}

/// One unit of work: a solution file against a problem.
pub struct Pair {
    pub problem: Arc<Problem>,
    /// How the report names the solution: its file name (`solution.py`, `stub.py`, `cand_1.py`).
    pub label: String,
    pub solution_path: PathBuf,
}

/// `--shard K/N`: the K-th (1-based) of N slices.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    pub index: usize,
    pub count: usize,
}

impl std::str::FromStr for Shard {
    type Err = String;
    fn from_str(s: &str) -> Result<Shard, String> {
        let (k, n) = s.split_once('/').ok_or("expected K/N, for example 2/8")?;
        let (k, n): (usize, usize) = match (k.trim().parse(), n.trim().parse()) {
            (Ok(k), Ok(n)) => (k, n),
            _ => return Err("expected K/N with whole numbers, for example 2/8".into()),
        };
        if n == 0 || k == 0 || k > n {
            return Err(format!("K/N needs 1 <= K <= N, got {k}/{n}"));
        }
        Ok(Shard { index: k, count: n })
    }
}

impl Shard {
    /// Whether the `i`-th pair (0-based, in plan order) belongs to this shard: round robin, so
    /// every shard gets a share of every problem.
    pub fn takes(self, i: usize) -> bool {
        i % self.count == self.index - 1
    }
}

fn read_text(path: &Path) -> Result<String, Fatal> {
    let bytes =
        std::fs::read(path).map_err(|e| Fatal(format!("cannot read {}: {e}", path.display())))?;
    crate::python_source::decode(&path.display().to_string(), &bytes)
        .map_err(|e| Fatal(format!("{e} (Python would not read it)")))
}

fn is_test_file(p: &Path) -> bool {
    p.is_file()
        && p.file_name()
            .and_then(|n| n.to_str())
            .is_some_and(|n| n.starts_with("test_") && n.ends_with(".py"))
}

/// The test file of a problem folder: `test_<slug>.py`, else the first `test_*.py` by name.
fn test_file_in(folder: &Path, slug: &str) -> Option<PathBuf> {
    let named = folder.join(format!("test_{slug}.py"));
    if named.is_file() {
        return Some(named);
    }
    let mut found: Vec<PathBuf> = std::fs::read_dir(folder)
        .ok()?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| is_test_file(p))
        .collect();
    found.sort();
    found.into_iter().next()
}

fn name_of(p: &Path) -> String {
    p.file_name()
        .and_then(|n| n.to_str())
        .unwrap_or("")
        .to_string()
}

/// The problems under `paths`: each is a bench folder (one sub-folder per problem), a problem
/// folder, or a test file. Sorted by slug; a slug seen twice is a usage error.
pub fn problems(
    paths: &[PathBuf],
    stage: Stage,
    pytest_version: bench_explorer::PytestVersion,
) -> Result<Vec<Arc<Problem>>, Fatal> {
    let mut found: Vec<(String, PathBuf, PathBuf)> = Vec::new();
    for path in paths {
        if path.is_file() {
            let folder = path.parent().unwrap_or(Path::new(".")).to_path_buf();
            let stem = name_of(path);
            let slug = stem
                .trim_end_matches(".py")
                .trim_start_matches("test_")
                .to_string();
            found.push((slug, folder, path.clone()));
        } else if path.is_dir() {
            let slug = name_of(&std::fs::canonicalize(path).unwrap_or(path.clone()));
            if let Some(test) = test_file_in(path, &slug) {
                found.push((slug, path.clone(), test));
                continue;
            }
            let mut folders: Vec<PathBuf> = std::fs::read_dir(path)
                .map_err(|e| Fatal(format!("cannot read {}: {e}", path.display())))?
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.is_dir())
                .collect();
            folders.sort();
            for folder in folders {
                let slug = name_of(&folder);
                if let Some(test) = test_file_in(&folder, &slug) {
                    found.push((slug, folder, test));
                }
            }
        } else {
            return Err(Fatal(format!("{}: no such file or folder", path.display())));
        }
    }
    if found.is_empty() {
        return Err(Fatal(
            "no test_*.py file found under the given paths".into(),
        ));
    }
    found.sort();
    if let Some(w) = found.windows(2).find(|w| w[0].0 == w[1].0) {
        return Err(Fatal(format!("two problems are named {}", w[0].0)));
    }
    found
        .into_iter()
        .map(|(slug, folder, test_path)| {
            let test_source = read_text(&test_path)?;
            let options = Options {
                file: test_path.to_string_lossy().into_owned(),
                slug: Some(slug.clone()),
                solution_modules: Vec::new(),
                stage,
                conftests: crate::conftests::for_file(&test_path.to_string_lossy())
                    .map_err(Fatal)?,
                package_inits: crate::conftests::package_inits(&test_path.to_string_lossy())
                    .map_err(Fatal)?,
                pytest_config: crate::pytest_config::find(&test_path.to_string_lossy()),
                pytest_version,
            };
            let extraction = extract(&test_source, &options);
            let pytest_ini = options.pytest_config.as_ref().map(|c| c.to_ini());
            let conftests = options
                .conftests
                .iter()
                .filter(|c| c.package.is_none())
                .map(|c| ConftestFile {
                    path: c.path.clone(),
                    source: c.source.clone(),
                })
                .collect();
            Ok(Arc::new(Problem {
                slug,
                folder,
                test_path,
                test_source,
                extraction,
                pytest_ini,
                conftests,
            }))
        })
        .collect()
}

fn py_files(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|rd| {
            rd.filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.is_file() && p.extension().is_some_and(|x| x == "py"))
                .collect()
        })
        .unwrap_or_default();
    files.sort();
    files
}

/// Every (problem, solution) pair, sorted by problem then solution, then this shard's slice.
pub fn pairs(
    problems: &[Arc<Problem>],
    solutions: &Solutions,
    shard: Option<Shard>,
) -> Result<Vec<Pair>, Fatal> {
    let mut all = Vec::new();
    for problem in problems {
        let files = match solutions {
            Solutions::Reference => {
                let reference = problem.folder.join("solution.py");
                if !reference.is_file() {
                    return Err(Fatal(format!(
                        "{}: no solution.py (name one with --solution or --solutions)",
                        problem.folder.display()
                    )));
                }
                vec![reference]
            }
            Solutions::File(file) => {
                let inside = problem.folder.join(file);
                if inside.is_file() {
                    vec![inside]
                } else if file.is_file() {
                    vec![file.clone()]
                } else {
                    return Err(Fatal(format!(
                        "{}: no such solution file (looked in {} too)",
                        file.display(),
                        problem.folder.display()
                    )));
                }
            }
            Solutions::Dir(dir) => {
                if !dir.is_dir() {
                    return Err(Fatal(format!("{}: not a folder", dir.display())));
                }
                let per_problem = dir.join(&problem.slug);
                if per_problem.is_dir() {
                    py_files(&per_problem)
                } else if problems.len() == 1 {
                    py_files(dir)
                } else {
                    Vec::new()
                }
            }
        };
        for solution_path in files {
            all.push(Pair {
                problem: problem.clone(),
                label: name_of(&solution_path),
                solution_path,
            });
        }
    }
    if all.is_empty() {
        return Err(Fatal("no solution files to check".into()));
    }
    Ok(all
        .into_iter()
        .enumerate()
        .filter(|(i, _)| shard.is_none_or(|s| s.takes(*i)))
        .map(|(_, p)| p)
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_parse_and_partition() {
        let s: Shard = "2/3".parse().unwrap();
        assert_eq!(s, Shard { index: 2, count: 3 });
        for bad in ["0/3", "4/3", "1/0", "x/2", "3"] {
            assert!(bad.parse::<Shard>().is_err(), "{bad}");
        }
        let shards: Vec<Shard> = (1..=3).map(|k| Shard { index: k, count: 3 }).collect();
        for i in 0..10 {
            assert_eq!(shards.iter().filter(|s| s.takes(i)).count(), 1, "{i}");
        }
    }
}
