//! Running pairs in Python: one fork server (`zygote.py`, next to a copy of the page's
//! `www/py/runner.py`) per worker thread, each pair in a forked child with its limits.
//! The server imports pytest once, which is what makes a whole bench take seconds, not minutes.

use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

use serde::{Deserialize, Serialize};
use serde_json::Value;

use bench_explorer::model::{Binding, Logging, WarningFilter};
use bench_explorer::runner::Reply;

use super::sandbox::Sandbox;
use crate::Fatal;

/// The page's runner, byte for byte: both views are decided by the same Python.
const RUNNER_PY: &str = include_str!("../../../../www/py/runner.py");
const ZYGOTE_PY: &str = include_str!("zygote.py");

/// A folder holding `runner.py` and `zygote.py` for this run; removed on drop.
pub struct Scripts {
    dir: PathBuf,
}

impl Scripts {
    pub fn write() -> Result<Scripts, Fatal> {
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos())
            .unwrap_or(0);
        let dir =
            std::env::temp_dir().join(format!("bench-explorer-py-{}-{nanos}", std::process::id()));
        let fail = |e: std::io::Error| Fatal(format!("cannot write {}: {e}", dir.display()));
        std::fs::create_dir_all(&dir).map_err(fail)?;
        std::fs::write(dir.join("runner.py"), RUNNER_PY).map_err(fail)?;
        std::fs::write(dir.join("zygote.py"), ZYGOTE_PY).map_err(fail)?;
        Ok(Scripts { dir })
    }

    fn zygote(&self) -> PathBuf {
        self.dir.join("zygote.py")
    }

    pub fn dir(&self) -> &Path {
        &self.dir
    }
}

impl Drop for Scripts {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// Limits for each pair.
#[derive(Clone, Copy)]
pub struct Limits {
    pub timeout_secs: u64,
    pub memory_mb: u64,
}

/// One pair's request, as zygote.py reads it (runner.py's `run_request`, plus the limits).
#[derive(Serialize)]
pub struct Request<'a> {
    pub solution: &'a str,
    pub assertions: Vec<KeptExpr<'a>>,
    /// The extraction's bindings: the namespace runner.py's `build_namespace` evaluates each
    /// expression in (contract version 2).
    pub bindings: &'a [Binding],
    /// The extraction's warning filters (each expression's own are in `assertions`).
    #[serde(skip_serializing_if = "<[_]>::is_empty")]
    pub warning_filters: &'a [WarningFilter],
    /// The extraction's logging (a configured log level), applied around the solution's import and
    /// every check.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub logging: Option<&'a Logging>,
    /// The pytest configuration the test file is extracted under, as a `pytest.ini`, so that the
    /// pytest view runs under it too.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pytest_ini: Option<&'a str>,
    /// The test file's conftests (outside packages), for the pytest view.
    #[serde(skip_serializing_if = "<[_]>::is_empty")]
    pub conftests: &'a [super::plan::ConftestFile],
    pub test_source: &'a str,
    pub test_filename: &'a str,
    pub timeout: u64,
    pub memory_mb: u64,
}

#[derive(Serialize)]
pub struct KeptExpr<'a> {
    pub id: usize,
    pub expr: &'a str,
    #[serde(skip_serializing_if = "<[_]>::is_empty")]
    pub warning_filters: &'a [WarningFilter],
}

/// What came back: `ok` with runner.py's reply, or `timeout` / `crashed` with a sentence.
pub struct Answer {
    pub status: String,
    pub detail: Option<String>,
    pub reply: Option<Reply>,
    pub wall_ms: f64,
}

/// An answer as zygote.py writes it, its reply not read yet.
#[derive(Deserialize)]
struct Wire {
    status: String,
    #[serde(default)]
    detail: Option<String>,
    #[serde(default)]
    reply: Option<Value>,
    #[serde(default)]
    wall_ms: f64,
}

impl From<Wire> for Answer {
    /// A reply that is not runner.py's shape (the child runs the solution, which could alter
    /// what it writes) is a crash, as the page takes an unreadable reply from its worker.
    fn from(wire: Wire) -> Answer {
        match wire.reply.map(serde_json::from_value::<Reply>).transpose() {
            Ok(reply) => Answer {
                status: wire.status,
                detail: wire.detail,
                reply,
                wall_ms: wire.wall_ms,
            },
            Err(e) => Answer {
                status: "crashed".into(),
                detail: Some(format!("unreadable reply from the Python runner ({e})")),
                reply: None,
                wall_ms: wire.wall_ms,
            },
        }
    }
}

/// A running fork server. Dropping it closes its input (it then exits) and reaps it.
pub struct Zygote {
    child: Child,
    stdin: Option<ChildStdin>,
    stdout: BufReader<ChildStdout>,
}

impl Zygote {
    /// Start a server (inside the sandbox unless `--no-sandbox`) and wait for its `ready`; a
    /// Python without pytest is a usage error.
    pub fn start(
        python: &Path,
        scripts: &Scripts,
        sandbox: Option<&Sandbox>,
    ) -> Result<Zygote, Fatal> {
        let mut command = match sandbox {
            Some(sandbox) => sandbox.command(),
            None => {
                let mut c = Command::new(python);
                c.env_remove("BENCH_EXPLORER_SANDBOX");
                c
            }
        };
        let mut child = command
            .arg("-B")
            .arg(scripts.zygote())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .env("PYTHONDONTWRITEBYTECODE", "1")
            .spawn()
            .map_err(|e| Fatal(format!("cannot start {}: {e}", python.display())))?;
        let stdin = child.stdin.take();
        let mut stdout = BufReader::new(child.stdout.take().expect("piped"));
        let mut line = String::new();
        let _ = stdout.read_line(&mut line);
        if line.trim() != "ready" {
            let mut err = String::new();
            if let Some(mut e) = child.stderr.take() {
                let _ = e.read_to_string(&mut err);
            }
            let _ = child.kill();
            let _ = child.wait();
            let last = err.trim().lines().last().unwrap_or("it exited").to_string();
            let hint = if sandbox.is_some() {
                " (in the sandbox; try --no-sandbox to see whether it is the cause)"
            } else {
                ""
            };
            return Err(Fatal(format!(
                "{} cannot run the checks (it needs pytest 9){hint}: {last}",
                python.display()
            )));
        }
        Ok(Zygote {
            child,
            stdin,
            stdout,
        })
    }

    /// Run one pair; an error means the server itself is gone (start another).
    pub fn run(&mut self, request: &Request) -> std::io::Result<Answer> {
        let mut text = serde_json::to_string(request)?;
        text.push('\n');
        let stdin = self.stdin.as_mut().ok_or(std::io::ErrorKind::BrokenPipe)?;
        stdin.write_all(text.as_bytes())?;
        stdin.flush()?;
        let mut line = String::new();
        if self.stdout.read_line(&mut line)? == 0 {
            return Err(std::io::ErrorKind::UnexpectedEof.into());
        }
        Ok(serde_json::from_str::<Wire>(&line)?.into())
    }
}

impl Drop for Zygote {
    fn drop(&mut self) {
        drop(self.stdin.take());
        let _ = self.child.wait();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn answer(line: &str) -> Answer {
        serde_json::from_str::<Wire>(line).unwrap().into()
    }

    #[test]
    fn answers_are_read_with_their_reply() {
        let ok = answer(
            r#"{"id": null, "wall_ms": 3.5, "status": "ok", "reply": {"evals": [{"id": 0, "outcome": "pass"}], "pytest": null, "timings": {"eval_ms": 1.0, "pytest_ms": 0.0}}}"#,
        );
        assert_eq!((ok.status.as_str(), ok.wall_ms), ("ok", 3.5));
        assert_eq!(ok.reply.unwrap().evals.len(), 1);
        let timeout = answer(
            r#"{"id": null, "wall_ms": 5000.0, "status": "timeout", "detail": "killed after 5 s (wall-clock limit)"}"#,
        );
        assert_eq!(timeout.status, "timeout");
        assert!(timeout.reply.is_none() && timeout.detail.is_some());
        // Not runner.py's shape: a crash, with why.
        let odd = answer(r#"{"wall_ms": 1.0, "status": "ok", "reply": {"evals": [{"id": "x"}]}}"#);
        assert_eq!(odd.status, "crashed");
        assert!(odd.reply.is_none());
        assert!(odd.detail.unwrap().starts_with("unreadable reply"));
    }
}
