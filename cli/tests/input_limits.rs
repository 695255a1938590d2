//! Issue 15, bad input that got through: output paths checked before any match is played,
//! files that are too large or not regular files, how `extends` names resolve, and the
//! ranges of match options and ruleset numbers.

mod common;

use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use common::{fuba, scratch, stderr, stdout, workspace};

/// Runs `fuba` in the workspace root; `None` when it is still running after `secs`
/// seconds (it is then killed).
fn fuba_within(args: &[&str], secs: u64) -> Option<Output> {
    let mut child = Command::new(env!("CARGO_BIN_EXE_fuba"))
        .args(args)
        .current_dir(workspace())
        .env_remove("FUBA_RULES")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run fuba");
    let start = Instant::now();
    while start.elapsed() < Duration::from_secs(secs) {
        if child.try_wait().expect("wait").is_some() {
            return Some(child.wait_with_output().expect("output"));
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    let _ = child.kill();
    let _ = child.wait();
    None
}

/// Asserts that `args` fail at once (exit 1, nothing on stdout) with a message naming
/// the folder that does not exist.
fn fails_before_playing(args: &[&str]) {
    let o = fuba_within(args, 20)
        .unwrap_or_else(|| panic!("`fuba {}` was still playing after 20 s", args.join(" ")));
    assert_eq!(o.status.code(), Some(1), "{args:?}: {}", stderr(&o));
    assert!(
        stderr(&o).contains("/nonexistent-fuba-dir"),
        "{args:?}: the message names the folder: {}",
        stderr(&o)
    );
    assert!(
        stdout(&o).is_empty(),
        "{args:?}: nothing is printed before the error:\n{}",
        stdout(&o)
    );
}

// ------------------------------------------------------------------ item 4: output paths

#[test]
fn issue15_every_output_path_is_checked_before_the_first_match() {
    let out = "/nonexistent-fuba-dir/a.txt";
    let html = "/nonexistent-fuba-dir/r.html";
    let games = "1000000";
    for args in [
        vec!["simulate", "--games", games, "--seed", "1", "--out", out],
        vec![
            "simulate", "--games", games, "--seed", "1", "--report", html,
        ],
        vec![
            "compare", "original", "2015", "--games", games, "--seed", "1", "--out", out,
        ],
        vec![
            "compare", "original", "2015", "--games", games, "--seed", "1", "--report", html,
        ],
        vec![
            "play",
            "--seed",
            "1",
            "--log",
            "/nonexistent-fuba-dir/m.jsonl",
        ],
        vec!["odds", "original", "--out", out],
    ] {
        fails_before_playing(&args);
    }
}

#[test]
fn issue15_merge_checks_its_outputs_before_printing_figures() {
    let dir = scratch("merge-out");
    let part = dir.join("part.json");
    let part = part.to_str().expect("a UTF-8 path");
    let o = fuba(&[
        "simulate", "--games", "4", "--seed", "1", "--format", "json", "--out", part,
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    fails_before_playing(&["merge", part, "--report", "/nonexistent-fuba-dir/r.html"]);
    fails_before_playing(&["merge", part, "--out", "/nonexistent-fuba-dir/a.json"]);
}

#[test]
fn issue15_an_output_that_is_a_folder_is_refused_and_a_good_one_left_alone() {
    let dir = scratch("out-folder");
    let d = dir.to_str().expect("a UTF-8 path");
    let o = fuba(&["simulate", "--games", "2", "--seed", "1", "--out", d]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(stderr(&o).contains("is a folder"), "{}", stderr(&o));
    // A run that fails after the check leaves no empty output file behind.
    let report = dir.join("never.html");
    let o = fuba(&[
        "simulate",
        "--rules",
        "no-such-edition",
        "--report",
        report.to_str().expect("a UTF-8 path"),
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(!Path::new(&report).exists(), "the check left a file behind");
}

// ------------------------------------------------------------------ item 3: `extends`

/// Runs `fuba` in `dir`.
fn fuba_in(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_fuba"))
        .args(args)
        .current_dir(dir)
        .env_remove("FUBA_RULES")
        .stdin(Stdio::null())
        .output()
        .expect("run fuba")
}

#[test]
fn issue15_an_edition_name_is_the_built_in_edition_wherever_the_file_lies() {
    let dir = scratch("stray-edition");
    // A stray `original.toml` in the folder above the house rule: not a ruleset at all.
    std::fs::write(
        dir.join("original.toml"),
        "this is not the original edition\n",
    )
    .expect("write");
    let sub = dir.join("house");
    std::fs::create_dir_all(&sub).expect("folder");
    let rule = "[meta]\nextends = \"original\"\nname = \"house\"\n\n[constants]\nlong_pass_per_area = -1\n";
    std::fs::write(sub.join("house.toml"), rule).expect("write");
    let abs = sub.join("house.toml");
    let abs = abs.to_str().expect("a UTF-8 path");
    for (cwd, path) in [
        (workspace(), abs),
        (dir.clone(), "house/house.toml"),
        (sub.clone(), "house.toml"),
        (sub.clone(), "./house.toml"),
    ] {
        let o = fuba_in(&cwd, &["rules", "check", path]);
        assert_eq!(
            o.status.code(),
            Some(0),
            "`rules check {path}` in {}: {}",
            cwd.display(),
            stderr(&o)
        );
        let o = fuba_in(&cwd, &["rules", "show", path, "--constants"]);
        assert!(
            stdout(&o).contains("long_pass_per_area"),
            "{path}: {}",
            stderr(&o)
        );
    }
}

#[test]
fn issue15_an_extends_path_is_relative_to_the_file_that_names_it() {
    let dir = scratch("extends-path");
    let base = dir.join("base");
    let house = dir.join("house");
    std::fs::create_dir_all(&base).expect("folder");
    std::fs::create_dir_all(&house).expect("folder");
    std::fs::write(
        base.join("b.toml"),
        "[meta]\nextends = \"original\"\nname = \"base\"\n\n[constants]\nlong_pass_per_area = -1\n",
    )
    .expect("write");
    std::fs::write(
        house.join("h.toml"),
        "[meta]\nextends = \"../base/b.toml\"\nname = \"house\"\n",
    )
    .expect("write");
    let abs = house.join("h.toml");
    for (cwd, path) in [
        (workspace(), abs.to_str().expect("a UTF-8 path")),
        (dir.clone(), "house/h.toml"),
        (house.clone(), "h.toml"),
    ] {
        let o = fuba_in(&cwd, &["rules", "check", path]);
        assert_eq!(o.status.code(), Some(0), "{path}: {}", stderr(&o));
    }
}

// ------------------------------------------------------------------ item 2: file sizes

/// Asserts that `args` fail within 20 s (exit 1) with every piece of `expect` in what
/// they print.
fn refused(args: &[&str], expect: &[&str]) {
    let o = fuba_within(args, 20)
        .unwrap_or_else(|| panic!("`fuba {}` still running after 20 s", args.join(" ")));
    assert_eq!(o.status.code(), Some(1), "{args:?}: {}", stderr(&o));
    // `fuba scenario` reports on stdout, the other commands on stderr.
    let said = format!("{}{}", stdout(&o), stderr(&o));
    for e in expect {
        assert!(said.contains(e), "{args:?}: expected `{e}` in:\n{said}");
    }
}

#[test]
fn issue15_what_is_not_a_regular_file_is_refused_before_it_is_read() {
    let not_regular = "not a regular file";
    refused(
        &["rules", "check", "/dev/zero"],
        &["/dev/zero", not_regular],
    );
    refused(
        &["play", "--rules", "/dev/zero", "--option", "skills=1"],
        &["/dev/zero", not_regular],
    );
    refused(&["rules", "check", "rulesets/"], &["rulesets/", "folder"]);
    refused(&["explain", "/dev/zero"], &["/dev/zero", not_regular]);
    refused(&["replay", "/dev/zero"], &["/dev/zero", not_regular]);
    refused(&["view", "/dev/zero"], &["/dev/zero", not_regular]);
    refused(&["scenario", "/dev/zero"], &["/dev/zero", not_regular]);
    let dir = scratch("dev-zero");
    let h = dir.join("h.toml");
    std::fs::write(&h, "[meta]\nextends = \"/dev/zero\"\nname = \"h\"\n").expect("write");
    // Located at the `extends`, and not "cannot find".
    refused(
        &["rules", "check", h.to_str().expect("a UTF-8 path")],
        &["/dev/zero", not_regular, "h.toml:2:11"],
    );
}

#[test]
fn issue15_files_over_their_size_limit_are_refused_naming_the_file_and_the_limit() {
    let dir = scratch("too-large");
    let big = dir.join("big.toml");
    std::fs::write(&big, "# a comment line\n".repeat(70_000)).expect("write");
    let big = big.to_str().expect("a UTF-8 path");
    refused(
        &["rules", "check", big],
        &[
            big,
            "1,190,000 bytes",
            "at most 1 MiB",
            "MAX_RULESET_FILE_BYTES",
        ],
    );
    // Five layers of 900 kB each: each file is within its limit, the whole is not.
    for i in 1..=5 {
        let below = if i == 5 {
            "original".to_string()
        } else {
            format!("l{}.toml", i + 1)
        };
        let text = format!(
            "[meta]\nextends = \"{below}\"\nname = \"l{i}\"\n{}",
            "# padding padding\n".repeat(50_000)
        );
        std::fs::write(dir.join(format!("l{i}.toml")), text).expect("write");
    }
    let top = dir.join("l1.toml");
    refused(
        &["rules", "check", top.to_str().expect("a UTF-8 path")],
        &["at most 4 MiB", "MAX_RULESET_BYTES", "l4.toml:2:11"],
    );
    // A log and a scenario, as sparse files: refused from their size, before reading.
    let log = dir.join("huge.jsonl");
    std::fs::File::create(&log)
        .and_then(|f| f.set_len(65 << 20))
        .expect("a sparse file");
    let log = log.to_str().expect("a UTF-8 path");
    refused(&["explain", log], &[log, "at most 64 MiB", "MAX_LOG_BYTES"]);
    let sc = dir.join("huge-scenario.toml");
    std::fs::File::create(&sc)
        .and_then(|f| f.set_len(2 << 20))
        .expect("a sparse file");
    let sc = sc.to_str().expect("a UTF-8 path");
    refused(
        &["scenario", sc],
        &[sc, "at most 1 MiB", "MAX_SCENARIO_BYTES"],
    );
}
