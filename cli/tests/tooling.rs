//! End-to-end tests of the rule tooling: `fuba rules check` (lints, --deny warnings),
//! `rules show`, `rules diff`, `rules new` and `fuba explain`.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

fn fuba(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_fuba"))
        .args(args)
        .current_dir(workspace())
        .env_remove("FUBA_RULES")
        .stdin(Stdio::null())
        .output()
        .expect("run fuba")
}

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("workspace root")
        .to_path_buf()
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn json(o: &Output) -> serde_json::Value {
    serde_json::from_slice(&o.stdout).unwrap_or_else(|e| panic!("not JSON ({e}): {}", stdout(o)))
}

const BAD: &str = "tests/fixtures/lints/unused-procedure_bad.toml";
const OK: &str = "tests/fixtures/lints/unused-procedure_ok.toml";

#[test]
fn check_shows_warnings_and_exits_0() {
    let o = fuba(&["rules", "check", BAD]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stdout(&o).contains("1 warning"), "{}", stdout(&o));
    let err = stderr(&o);
    assert!(
        err.contains("warning[unused-procedure]: procedure `home_bonus` is never run"),
        "{err}"
    );
    assert!(err.contains("unused-procedure_bad.toml:6:1"), "{err}");
    assert!(err.contains("^^^^"), "a marker under the line: {err}");
}

#[test]
fn deny_warnings_makes_warnings_fail() {
    let o = fuba(&["rules", "check", "--deny", "warnings", BAD]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(stderr(&o).contains("denied by --deny warnings"));
    let o = fuba(&["rules", "check", "--deny", "warnings", OK]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let o = fuba(&["rules", "check", "--deny", "errors", OK]);
    assert_eq!(o.status.code(), Some(2), "a usage error");
}

#[test]
fn check_json_lists_warnings_as_data() {
    let o = fuba(&["rules", "check", "--format", "json", BAD]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let j = json(&o);
    let d = &j[0];
    assert_eq!(d["severity"], "warning");
    assert_eq!(d["lint"], "unused-procedure");
    assert_eq!(d["line"], 6);
    assert_eq!(d["column"], 1);
    assert_eq!(d["rule"], "procedures.home_bonus");
    let o = fuba(&[
        "rules", "check", "--format", "json", "--deny", "warnings", BAD,
    ]);
    assert_eq!(o.status.code(), Some(1));
    let o = fuba(&["rules", "check", "--format", "json", OK]);
    assert_eq!(json(&o), serde_json::json!([]));
}

#[test]
fn the_editions_check_clean_under_deny_warnings() {
    let o = fuba(&["rules", "check", "--deny", "warnings", "original", "2015"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(stderr(&o), "");
}
