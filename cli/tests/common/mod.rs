//! Helpers shared by the end-to-end tests of the `fuba` binary (`cli.rs`, `tooling.rs`,
//! `batches.rs`): running it from the workspace root, reading its output, scratch files.
//!
//! Each test file compiles this module on its own and uses a part of it.
#![allow(dead_code)]

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

/// Runs `fuba` with `args` in the workspace root, without `FUBA_RULES` and with no stdin.
pub fn fuba(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_fuba"))
        .args(args)
        .current_dir(workspace())
        .env_remove("FUBA_RULES")
        .stdin(Stdio::null())
        .output()
        .expect("run fuba")
}

/// Runs `fuba` like [`fuba`], with `input` written to its stdin (then closed).
pub fn fuba_with_stdin(args: &[&str], input: &[u8]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_fuba"))
        .args(args)
        .current_dir(workspace())
        .env_remove("FUBA_RULES")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run fuba");
    {
        let mut stdin = child.stdin.take().expect("stdin");
        stdin.write_all(input).expect("write");
    }
    child.wait_with_output().expect("wait")
}

/// The workspace root.
pub fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("workspace root")
        .to_path_buf()
}

/// What a run printed on stdout.
pub fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// What a run printed on stderr.
pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// What a run printed on stdout, after asserting that it exited 0 (else showing stderr).
pub fn ok(o: &Output) -> String {
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// What a run printed on stdout, parsed as JSON.
pub fn json(o: &Output) -> serde_json::Value {
    serde_json::from_slice(&o.stdout).unwrap_or_else(|e| panic!("not JSON ({e}): {}", stdout(o)))
}

/// A private scratch directory for one test: `fuba-<test file>-<pid>-<name>` in the build's
/// folder for test files (`target/tmp`), which a clean build removes with the rest.
pub fn scratch(name: &str) -> PathBuf {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!(
        "fuba-{}-{}-{name}",
        env!("CARGO_CRATE_NAME"),
        std::process::id()
    ));
    std::fs::create_dir_all(&dir).expect("scratch dir");
    dir
}
