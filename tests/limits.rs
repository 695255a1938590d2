//! Issue 15, item 5: ranges checked when a ruleset and its options load, the number of
//! layers `extends` may stack, and docs/limits.md checked against the code's limits.

use std::path::{Path, PathBuf};

use fuba_engine::files::size_text;
use fuba_engine::limits;
use fuba_engine::load::{load_file, load_str_options};
use fuba_engine::vm::Limits;
use fuba_tests::{root, ruleset_path};

/// The diagnostics of a ruleset file, with the repository's path left out.
fn errors_of(path: &Path) -> String {
    match load_file(path) {
        Ok(_) => panic!("{} loaded, but it is meant to fail", path.display()),
        Err(e) => {
            let dir = path.parent().unwrap_or(Path::new("."));
            e.to_string().replace(&format!("{}/", dir.display()), "")
        }
    }
}

#[test]
fn numbers_out_of_range_are_located_errors() {
    insta::glob!("fixtures/ranges/*.toml", |path| {
        let text = errors_of(path);
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("?");
        assert!(
            text.contains(&format!("--> {name}:")),
            "{name}: the error points into the file:\n{text}"
        );
        insta::assert_snapshot!(text);
    });
}

/// A layer over `edition` with the text `body` after its `[meta]`: loaded or its errors.
fn layer(edition: &str, body: &str) -> Result<(), String> {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("fuba-limits-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("scratch");
    let p = dir.join(format!("needs-{edition}.toml"));
    let base = ruleset_path(edition);
    std::fs::write(
        &p,
        format!(
            "[meta]\nextends = \"{}\"\nname = \"needs\"\n\n{body}\n",
            base.display()
        ),
    )
    .expect("write");
    load_file(&p).map(drop).map_err(|e| e.to_string())
}

#[test]
fn numbers_within_the_needs_of_the_rules_load() {
    for edition in ["original", "2015", "2024"] {
        // Wider ball values, three pieces, any number of halves.
        let ok = "[match]\nball_values = [0, 8]\npieces = 3\ncount_cap = 0\nhalves = 5";
        assert_eq!(layer(edition, ok), Ok(()), "{edition}");
        let e = layer(edition, "[match]\npieces = 2\ncount_cap = 0").expect_err("2 pieces");
        assert!(e.contains("match.pieces = 2 is below 3"), "{edition}: {e}");
        assert!(e.contains("[match.needs.pieces] at "), "{e}");
        // A layer that rewrites the rules concerned replaces the need.
        let replaced = "[match]\npieces = 2\ncount_cap = 0\n\n[match.needs.pieces]\nat_least = 2\nwhy = \"a house kick-off with one player\"";
        assert_eq!(layer(edition, replaced), Ok(()), "{edition}");
    }
}

/// The 2024 edition with `skills` set to `v`.
fn skills(v: &str) -> Result<(), String> {
    let path = ruleset_path("2024");
    let text = std::fs::read_to_string(&path).expect("2024.toml");
    load_str_options(&path, &text, &|_| None, &[("skills".into(), v.into())])
        .map(drop)
        .map_err(|e| e.to_string())
}

#[test]
fn an_option_set_outside_its_range_is_an_error() {
    for v in ["0", "3", "41"] {
        assert!(skills(v).is_ok(), "skills={v}: {:?}", skills(v));
    }
    for v in ["-1", "42", "999"] {
        let e = skills(v).expect_err("out of range");
        assert!(e.contains(&format!("`skills={v}`")), "{e}");
        assert!(e.contains("takes 0 to 41"), "{e}");
        assert!(e.contains("2024/options.toml:"), "located: {e}");
    }
    let rs = fuba_tests::edition("2024");
    let o = rs
        .options
        .iter()
        .find(|o| o.name == "skills")
        .expect("skills");
    assert_eq!(o.range, Some((0, 41)));
}

/// Writes `n` house rules stacked on the original edition in `dir`; the top one's path.
fn stack(dir: &Path, n: usize) -> PathBuf {
    std::fs::create_dir_all(dir).expect("a folder");
    for i in 1..=n {
        let below = if i == n {
            ruleset_path("original").display().to_string()
        } else {
            dir.join(format!("l{}.toml", i + 1)).display().to_string()
        };
        let text = format!("[meta]\nextends = {below:?}\nname = \"l{i}\"\n");
        std::fs::write(dir.join(format!("l{i}.toml")), text).expect("write");
    }
    dir.join("l1.toml")
}

#[test]
fn extends_stacks_as_many_layers_as_the_docs_say_and_no_more() {
    let base = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("fuba-limits-{}", std::process::id()));
    // The edition and MAX_LAYERS - 1 house rules: MAX_LAYERS rulesets.
    let ok = stack(&base.join("ok"), limits::MAX_LAYERS - 1);
    if let Err(e) = load_file(&ok) {
        panic!("{} layers do not load: {e}", limits::MAX_LAYERS);
    }
    let over = stack(&base.join("over"), limits::MAX_LAYERS);
    let e = load_file(&over)
        .expect_err("one layer too many")
        .to_string();
    assert!(
        e.contains(&format!("more than {} rulesets", limits::MAX_LAYERS)),
        "{e}"
    );
    assert!(e.contains("MAX_LAYERS"), "{e}");
    assert!(
        e.contains("l8.toml:2:11"),
        "located at the last extends: {e}"
    );
    let _ = std::fs::remove_dir_all(&base);
    let format = std::fs::read_to_string(root().join("docs/ruleset-format.md")).expect("docs");
    assert!(
        format.contains(&format!("up to {}", limits::MAX_LAYERS)),
        "docs/ruleset-format.md gives another number of layers than MAX_LAYERS"
    );
}

/// A count for people: `100,000`.
fn count(n: u64) -> String {
    size_text(n).trim_end_matches(" bytes").to_string()
}

#[test]
fn docs_limits_md_gives_the_limits_of_the_code() {
    let run = Limits::default();
    let expected: Vec<(&str, String)> = vec![
        (
            "MAX_RULESET_FILE_BYTES",
            size_text(limits::MAX_RULESET_FILE_BYTES),
        ),
        ("MAX_RULESET_BYTES", size_text(limits::MAX_RULESET_BYTES)),
        ("MAX_SCENARIO_BYTES", size_text(limits::MAX_SCENARIO_BYTES)),
        ("MAX_LOG_BYTES", size_text(limits::MAX_LOG_BYTES)),
        ("MAX_RESULT_BYTES", size_text(limits::MAX_RESULT_BYTES)),
        ("MAX_LAYERS", limits::MAX_LAYERS.to_string()),
        ("MAX_INCLUDES", limits::MAX_INCLUDES.to_string()),
        ("MAX_HALVES", format!("1 to {}", limits::MAX_HALVES)),
        (
            "MAX_TURNS_PER_HALF",
            format!("1 to {}", count(limits::MAX_TURNS_PER_HALF as u64)),
        ),
        ("MAX_PIECES", format!("1 to {}", limits::MAX_PIECES)),
        ("MAX_AREAS", fuba_engine::board::MAX_AREAS.to_string()),
        (
            "MAX_ROW",
            format!(
                "-{} to {}",
                count(fuba_engine::board::MAX_ROW as u64),
                count(fuba_engine::board::MAX_ROW as u64)
            ),
        ),
        ("MAX_NESTING", limits::MAX_NESTING.to_string()),
        ("MAX_CODE_BYTES", size_text(limits::MAX_CODE_BYTES as u64)),
        ("ops_per_stage", count(run.ops_per_stage)),
        ("max_repeat", run.max_repeat.to_string()),
        ("max_call_depth", run.max_call_depth.to_string()),
        ("events_per_turn", count(u64::from(run.events_per_turn))),
        ("events_per_match", count(u64::from(run.events_per_match))),
        ("MAX_TREE_DEPTH", limits::MAX_TREE_DEPTH.to_string()),
    ];
    let docs = std::fs::read_to_string(root().join("docs/limits.md")).expect("docs/limits.md");
    for (name, value) in &expected {
        let tag = format!("`{name}`");
        let row = docs
            .lines()
            .find(|l| l.starts_with('|') && l.trim_end().ends_with(&format!("{tag} |")))
            .unwrap_or_else(|| panic!("docs/limits.md has no row for {tag}"));
        let cells: Vec<&str> = row.split('|').map(str::trim).collect();
        let shown = cells[cells.len() - 3];
        assert_eq!(
            shown, value,
            "docs/limits.md gives {tag} as {shown}, the code {value}"
        );
    }
}

/// A chain of calls as long as a ruleset likes, each procedure's expression nested deep,
/// compiles on a small host stack: the compiler grows the stack on demand at every
/// procedure and every expression (`limits::COMPILE_STACK_RED_ZONE`). Found by
/// `tests/mutations.rs` overflowing a debug build's stack when the check was made only per
/// procedure.
#[test]
fn deep_calls_of_deeply_nested_expressions_compile_on_a_small_stack() {
    let (levels, chain) = (24, 200);
    let mut body = String::new();
    for i in 0..chain {
        let inner = if i + 1 < chain {
            format!("chain_{}()", i + 1)
        } else {
            "1".to_string()
        };
        let e = (0..levels).fold(inner, |e, _| format!("(1 + {e})"));
        body.push_str(&format!("[procedures.chain_{i}]\ndo = '{e}'\n"));
    }
    let loaded = std::thread::Builder::new()
        .stack_size(512 * 1024)
        .spawn(move || layer("original", &body))
        .expect("a thread")
        .join()
        .expect("no panic");
    assert_eq!(loaded, Ok(()));
}
