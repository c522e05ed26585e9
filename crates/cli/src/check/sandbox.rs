//! The sandbox every candidate runs in: bubblewrap (`bwrap`) around each fork server, so the server
//! and every child it forks see a read-only system (`/usr`, `/etc`), the Python interpreter's own
//! folders, the two scripts, an empty home and a private `/tmp` (both tmpfs), and nothing else: no
//! network, no other process (a PID namespace of their own), no checkout, no environment variables
//! beyond Python's. One `bwrap` per server, not per pair: it costs one process start per `--jobs`.
//!
//! Never silently unsandboxed: where `bwrap` is missing or cannot start, [`Sandbox::prepare`]
//! refuses with one line naming the fix; `--no-sandbox` is the only way to run without it.

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use serde::{Deserialize, Serialize};

use crate::Fatal;

/// Which mode ran, recorded in every pair of the report.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Mode {
    /// bubblewrap around every fork server.
    Bwrap,
    /// `--no-sandbox` (and every line written before the sandbox existed).
    #[default]
    None,
}

impl Mode {
    pub fn id(self) -> &'static str {
        match self {
            Mode::Bwrap => "bwrap",
            Mode::None => "none",
        }
    }
}

/// Overrides where `bwrap` is looked up (tests; an install outside `PATH`).
pub const BWRAP_ENV: &str = "BENCH_EXPLORER_BWRAP";

/// Folders of the system shown read-only (symbolic links, as merged-/usr systems have, are
/// recreated as links). Everything else (`/home`, `/root`, `/srv`, `/var`, `/work`, …) is absent.
const SYSTEM: [&str; 9] = [
    "/usr", "/etc", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/nix",
];
/// The home folder's and `/dev/shm`'s tmpfs (the candidates' `/tmp` is as large as `--memory`).
const SMALL_MIB: u64 = 64;
const DEFAULT_TMP_MIB: u64 = 2048;

const FIX_MISSING: &str =
    "install it (`apt-get install bubblewrap`, or `scripts/setup.sh sandbox`)";
const FIX_START: &str =
    "enable unprivileged user namespaces (`sysctl -w kernel.unprivileged_userns_clone=1`; \
     `kernel.apparmor_restrict_unprivileged_userns=0` on Ubuntu; in a container, allow them)";
const OR_NO_SANDBOX: &str = "or pass --no-sandbox to run the candidates with all your rights";

/// A checked `bwrap` command line, ready to put in front of the fork server.
pub struct Sandbox {
    bwrap: PathBuf,
    args: Vec<OsString>,
    /// The interpreter as Python itself names it (`sys.executable`): a `pyenv` shim or a
    /// launcher outside the sandbox's view is resolved before the sandbox starts.
    python: PathBuf,
}

impl Sandbox {
    /// Find `bwrap`, ask `python` where it lives, build the command line and start it once with
    /// `true`. Every failure is a one-line refusal naming the fix.
    pub fn prepare(python: &Path, scripts: &Path, memory_mb: u64) -> Result<Sandbox, Fatal> {
        if !cfg!(target_os = "linux") {
            return Err(Fatal(format!(
                "check runs every candidate in a sandbox, which exists on Linux only (bubblewrap); {OR_NO_SANDBOX}"
            )));
        }
        let bwrap = find_bwrap()?;
        let found = probe(python)?;
        let tmp_mib = if memory_mb == 0 {
            DEFAULT_TMP_MIB
        } else {
            memory_mb
        };
        let args = arguments(&found, scripts, tmp_mib);
        let trial = Command::new(&bwrap)
            .args(&args)
            .arg("--")
            .arg("true")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .output();
        let why = match trial {
            Ok(out) if out.status.success() => None,
            Ok(out) => {
                let err = String::from_utf8_lossy(&out.stderr);
                Some(
                    err.trim()
                        .lines()
                        .last()
                        .map(str::to_string)
                        .unwrap_or_else(|| format!("it exited with {}", out.status)),
                )
            }
            Err(e) => Some(e.to_string()),
        };
        if let Some(why) = why {
            return Err(Fatal(format!(
                "check runs every candidate in a sandbox, but {} cannot start one here ({why}); {FIX_START}, {OR_NO_SANDBOX}",
                bwrap.display()
            )));
        }
        Ok(Sandbox {
            bwrap,
            args,
            python: found.executable,
        })
    }

    /// `bwrap ARGS -- PYTHON`, to which the caller adds the server's own arguments.
    pub fn command(&self) -> Command {
        let mut cmd = Command::new(&self.bwrap);
        cmd.args(&self.args).arg("--").arg(&self.python);
        cmd
    }
}

fn find_bwrap() -> Result<PathBuf, Fatal> {
    if let Some(path) = std::env::var_os(BWRAP_ENV) {
        let path = PathBuf::from(path);
        return if path.is_file() {
            Ok(path)
        } else {
            Err(Fatal(format!(
                "check runs every candidate in a sandbox, which needs bubblewrap: {} ({BWRAP_ENV}) does not exist; {FIX_MISSING}, {OR_NO_SANDBOX}",
                path.display()
            )))
        };
    }
    std::env::var_os("PATH")
        .iter()
        .flat_map(std::env::split_paths)
        .map(|dir| dir.join("bwrap"))
        .find(|p| p.is_file())
        .ok_or_else(|| {
            Fatal(format!(
                "check runs every candidate in a sandbox, which needs bubblewrap: `bwrap` is not on PATH; {FIX_MISSING}, {OR_NO_SANDBOX}"
            ))
        })
}

/// What the interpreter needs to see: its executable and the folders it imports from.
struct Python {
    executable: PathBuf,
    folders: Vec<PathBuf>,
}

/// Ask the interpreter (outside the sandbox, running no candidate code) for `sys.executable`,
/// its prefixes and its `sys.path`, one per line.
fn probe(python: &Path) -> Result<Python, Fatal> {
    const SCRIPT: &str = "import os, sys\n\
        e = sys.executable\n\
        paths = [e, os.path.dirname(e), os.path.dirname(os.path.realpath(e)), sys.prefix,\n\
                 sys.base_prefix, sys.exec_prefix, sys.base_exec_prefix] + sys.path[1:]\n\
        sys.stdout.write('\\n'.join(paths))\n";
    let out = Command::new(python)
        .args(["-B", "-c", SCRIPT])
        .stdin(Stdio::null())
        .stderr(Stdio::piped())
        .output()
        .map_err(|e| Fatal(format!("cannot start {}: {e}", python.display())))?;
    let text = String::from_utf8_lossy(&out.stdout);
    let mut lines = text.lines();
    let executable = match lines.next() {
        Some(e) if out.status.success() && e.starts_with('/') => PathBuf::from(e),
        _ => {
            let err = String::from_utf8_lossy(&out.stderr);
            let last = err
                .trim()
                .lines()
                .last()
                .unwrap_or("it did not say where it lives");
            return Err(Fatal(format!(
                "{} cannot run the checks (it needs pytest 9): {last}",
                python.display()
            )));
        }
    };
    let folders = lines
        .map(PathBuf::from)
        .filter(|p| p.is_absolute() && p.exists())
        .collect();
    Ok(Python {
        executable,
        folders,
    })
}

fn under(path: &Path, dir: &Path) -> bool {
    path.starts_with(dir)
}

/// The `bwrap` arguments: order matters (a bind after a tmpfs shows through it).
fn arguments(python: &Python, scripts: &Path, tmp_mib: u64) -> Vec<OsString> {
    let mut args: Vec<OsString> = [
        "--unshare-all",
        "--die-with-parent",
        "--new-session",
        "--cap-drop",
        "ALL",
    ]
    .map(OsString::from)
    .into();
    let mut push = |a: &[&std::ffi::OsStr]| args.extend(a.iter().map(|s| s.to_os_string()));
    let mut shown: Vec<PathBuf> = Vec::new();
    for dir in SYSTEM {
        let path = Path::new(dir);
        match std::fs::symlink_metadata(path) {
            Ok(m) if m.file_type().is_symlink() => {
                if let Ok(target) = std::fs::read_link(path) {
                    push(&["--symlink".as_ref(), target.as_os_str(), dir.as_ref()]);
                }
            }
            Ok(m) if m.is_dir() => {
                push(&["--ro-bind".as_ref(), dir.as_ref(), dir.as_ref()]);
                shown.push(path.to_path_buf());
            }
            _ => {}
        }
    }
    let small = (SMALL_MIB << 20).to_string();
    push(&[
        "--dev".as_ref(),
        "/dev".as_ref(),
        "--proc".as_ref(),
        "/proc".as_ref(),
    ]);
    push(&[
        "--size".as_ref(),
        small.as_ref(),
        "--tmpfs".as_ref(),
        "/dev/shm".as_ref(),
    ]);
    let tmp_bytes = (tmp_mib << 20).to_string();
    push(&[
        "--size".as_ref(),
        tmp_bytes.as_ref(),
        "--tmpfs".as_ref(),
        "/tmp".as_ref(),
    ]);
    let home = std::env::var_os("HOME")
        .map(PathBuf::from)
        .filter(|h| h.is_absolute() && h.parent().is_some() && !h.starts_with("/tmp"))
        .filter(|h| !shown.iter().any(|s| under(h, s)));
    if let Some(home) = &home {
        push(&[
            "--size".as_ref(),
            small.as_ref(),
            "--tmpfs".as_ref(),
            home.as_os_str(),
        ]);
    }
    // The interpreter's folders not already shown, outermost first, each once (read-only, after
    // the tmpfs on the home folder: pyenv lives in ~/.pyenv). Never `/` itself.
    let mut folders: Vec<PathBuf> = python
        .folders
        .iter()
        .chain([&python.executable])
        .filter(|p| p.parent().is_some())
        .cloned()
        .collect();
    folders.sort();
    folders.dedup();
    for folder in folders {
        if shown.iter().any(|s| under(&folder, s)) {
            continue;
        }
        push(&["--ro-bind".as_ref(), folder.as_os_str(), folder.as_os_str()]);
        shown.push(folder);
    }
    push(&[
        "--ro-bind".as_ref(),
        scripts.as_os_str(),
        scripts.as_os_str(),
    ]);
    // The sandbox's own root and /dev are tmpfs too: read-only once everything is mounted.
    push(&[
        "--remount-ro".as_ref(),
        "/".as_ref(),
        "--remount-ro".as_ref(),
        "/dev".as_ref(),
    ]);
    push(&["--chdir".as_ref(), "/tmp".as_ref(), "--clearenv".as_ref()]);
    let mut env: Vec<(OsString, OsString)> = vec![
        ("PATH".into(), "/usr/local/bin:/usr/bin:/bin".into()),
        ("TMPDIR".into(), "/tmp".into()),
        ("PYTHONDONTWRITEBYTECODE".into(), "1".into()),
        ("BENCH_EXPLORER_SANDBOX".into(), Mode::Bwrap.id().into()),
    ];
    if let Some(home) = &home {
        env.push(("HOME".into(), home.into()));
    }
    // Python's own variables (PYTHONPATH, PYTHONHOME, …) and the locale; nothing else (no tokens).
    for (key, value) in std::env::vars_os() {
        let k = key.to_string_lossy();
        if (k.starts_with("PYTHON") && k != "PYTHONDONTWRITEBYTECODE")
            || k == "LANG"
            || k.starts_with("LC_")
            || k == "TZ"
        {
            env.push((key, value));
        }
    }
    for (key, value) in env {
        push(&["--setenv".as_ref(), key.as_os_str(), value.as_os_str()]);
    }
    args
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(args: &[OsString]) -> Vec<String> {
        args.iter()
            .map(|a| a.to_string_lossy().into_owned())
            .collect()
    }

    #[test]
    fn python_under_home_is_bound_after_the_home_tmpfs_and_system_paths_once() {
        let home = std::env::var("HOME").unwrap_or_else(|_| "/root".into());
        let python = Python {
            executable: PathBuf::from(format!("{home}/.pyenv/versions/3/bin/python3")),
            folders: vec![
                PathBuf::from(format!("{home}/.pyenv/versions/3")),
                PathBuf::from(format!(
                    "{home}/.pyenv/versions/3/lib/python3/site-packages"
                )),
                PathBuf::from("/usr/lib/python3/dist-packages"),
            ],
        };
        let args = words(&arguments(&python, Path::new("/tmp/scripts"), 100));
        let at = |w: &str| args.iter().position(|a| a == w).unwrap();
        let home_tmpfs = args
            .windows(2)
            .position(|w| w[0] == "--tmpfs" && w[1] == home)
            .unwrap();
        let pyenv = at(&format!("{home}/.pyenv/versions/3"));
        assert!(home_tmpfs < pyenv);
        // The prefix covers its site-packages and executable; /usr covers dist-packages.
        assert_eq!(args.iter().filter(|a| a.contains(".pyenv")).count(), 2);
        assert!(!args.iter().any(|a| a.contains("dist-packages")));
        assert!(at("/tmp/scripts") > at("/tmp"));
        assert!(args.contains(&"--unshare-all".to_string()));
        assert!(args.contains(&(100u64 << 20).to_string()));
    }
}
