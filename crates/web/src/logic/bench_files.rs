//! The bench's files the page fetches on demand (`bench.json`, written next to the page by
//! `scripts/bench-files.py`): each problem's statement, original statement, stub, reference solution
//! and `meta.toml`. The wasm embeds only each problem's slug, title and test file (`build.rs`).

use bench_explorer::bench::Meta;
use serde_json::Value;

/// One problem's fetched files (`None`: the folder has no such file, or its `meta.toml` is malformed).
#[derive(Debug, Default, Clone, PartialEq)]
pub struct ProblemFiles {
    pub statement: Option<String>,
    /// The statement before its hidden convention was written in (clean_phone).
    pub original_statement: Option<String>,
    pub stub: Option<String>,
    pub solution: Option<String>,
    pub meta: Option<Meta>,
}

/// `bench.json` read for the embedded problems `slugs`, in their order. A problem the file does not
/// list is an error: the page and the file are from different builds.
pub fn parse(text: &str, slugs: &[&str]) -> Result<Vec<ProblemFiles>, String> {
    let all: Value = serde_json::from_str(text)
        .map_err(|e| format!("bench.json does not read as the bench's files ({e})"))?;
    let problems = all
        .get("problems")
        .and_then(Value::as_object)
        .ok_or("bench.json does not read as the bench's files (no problems)")?;
    slugs
        .iter()
        .map(|slug| {
            let p = problems.get(*slug).ok_or_else(|| {
                format!(
                    "bench.json has no {slug}: the page and its files are from different builds"
                )
            })?;
            let text = |field: &str| p.get(field).and_then(Value::as_str).map(str::to_string);
            Ok(ProblemFiles {
                statement: text("statement"),
                original_statement: text("original_statement"),
                stub: text("stub"),
                solution: text("solution"),
                meta: p
                    .get("meta")
                    .and_then(|m| serde_json::from_value(m.clone()).ok()),
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_each_problem_in_the_embedded_order() {
        let text = r#"{"problems":{
            "b":{"statement":"B","original_statement":null,"stub":"def f(): ...","solution":"def f(): return 1","meta":{"title":"Bee","difficulty":"easy","tags":[],"shapes":[],"note":"","functions":["f"]}},
            "a":{"statement":null,"original_statement":null,"stub":null,"solution":null,"meta":{"title":"no other field"}}}}"#;
        let files = parse(text, &["a", "b"]).unwrap();
        assert_eq!(files[0], ProblemFiles::default());
        assert_eq!(files[1].statement.as_deref(), Some("B"));
        assert_eq!(files[1].solution.as_deref(), Some("def f(): return 1"));
        assert_eq!(
            files[1].meta.as_ref().map(|m| m.title.as_str()),
            Some("Bee")
        );
    }

    #[test]
    fn a_missing_problem_or_another_file_is_an_error() {
        assert!(parse(r#"{"problems":{}}"#, &["a"])
            .unwrap_err()
            .contains("different builds"));
        assert!(parse("<!doctype html>", &["a"]).is_err());
        assert!(parse(r#"{"rules":[]}"#, &["a"]).is_err());
    }

    /// The build hook's output for the repository's bench reads, with every problem's files.
    #[test]
    fn the_hooks_bench_json_reads() {
        let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../..");
        let dir = std::env::temp_dir().join(format!("bench-files-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let status = std::process::Command::new("python3")
            .arg(format!("{root}/scripts/bench-files.py"))
            .arg(&dir)
            .status()
            .expect("python3 runs scripts/bench-files.py");
        assert!(status.success());
        let text = std::fs::read_to_string(dir.join("bench.json")).unwrap();
        let _ = std::fs::remove_dir_all(&dir);
        let mut slugs = Vec::new();
        for entry in std::fs::read_dir(format!("{root}/problems")).unwrap() {
            let entry = entry.unwrap();
            let slug = entry.file_name().into_string().unwrap();
            if entry.path().join(format!("test_{slug}.py")).is_file() {
                slugs.push(slug);
            }
        }
        let slugs: Vec<&str> = slugs.iter().map(String::as_str).collect();
        assert!(slugs.len() >= 21);
        let files = parse(&text, &slugs).unwrap();
        for (slug, f) in slugs.iter().zip(&files) {
            assert!(f.statement.is_some(), "{slug} has a statement");
            assert!(f.solution.is_some(), "{slug} has a solution");
            assert!(f.stub.is_some(), "{slug} has a stub");
            assert!(f.meta.is_some(), "{slug}'s meta.toml reads");
        }
        let clean = &files[slugs.iter().position(|s| *s == "clean_phone").unwrap()];
        assert!(clean.original_statement.is_some());
    }
}
