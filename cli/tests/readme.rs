//! The README's commands, run as a new user runs them from a clean clone (issue 16): the
//! replay example pairs a log with a ruleset it can be replayed under, the viewer's
//! examples write their pages, and the screenshot the README shows is there.

mod common;

use std::path::PathBuf;

use common::{fuba, ok, scratch, stderr, stdout, workspace};

fn readme() -> String {
    std::fs::read_to_string(workspace().join("README.md")).expect("README.md")
}

/// The README's command lines that start with `start`, without `fuba`, a trailing comment or
/// a `&& ...` chain: each as its words.
fn commands(start: &str) -> Vec<Vec<String>> {
    readme()
        .lines()
        .flat_map(|l| l.split("&&"))
        .map(str::trim)
        .filter(|l| l.starts_with(start))
        .map(|l| {
            let l = l.split(" #").next().unwrap_or(l);
            l.split_whitespace().skip(1).map(str::to_string).collect()
        })
        .collect()
}

/// `words` with `match.jsonl` and `match.html` put in `dir`.
fn in_dir(words: &[String], dir: &std::path::Path) -> Vec<String> {
    words
        .iter()
        .map(|w| match w.as_str() {
            "match.jsonl" | "match.html" | "scenario.html" => dir.join(w).display().to_string(),
            _ => w.clone(),
        })
        .collect()
}

fn run(words: &[String]) -> std::process::Output {
    let args: Vec<&str> = words.iter().map(String::as_str).collect();
    fuba(&args)
}

#[test]
fn the_replay_example_pairs_a_log_with_rules_it_replays_under() {
    let dir = scratch("replay");
    // `fuba play --seed 5 --log match.jsonl`, then the replay under the house rule.
    let play = commands("fuba play --seed 5 --log match.jsonl");
    assert_eq!(play.len(), 1, "the README records match.jsonl once");
    ok(&run(&in_dir(&play[0], &dir)));
    let replay = commands("fuba replay match.jsonl");
    assert_eq!(replay.len(), 1, "one replay example");
    let o = run(&in_dir(&replay[0], &dir));
    let out = stdout(&o);
    // The house rule alters the match: replay names the first event it alters, and does
    // not refuse the log (a ruleset of another edition would say so in a note).
    assert_eq!(o.status.code(), Some(1), "{out}{}", stderr(&o));
    assert!(out.contains("diverged at event"), "{out}");
    // Both rulesets encode the same rulebook (a note names them when they differ).
    let rulebooks: Vec<&str> = out
        .split("(rulebook ")
        .skip(1)
        .filter_map(|s| s.split(')').next())
        .collect();
    assert!(
        rulebooks.windows(2).all(|w| w[0] == w[1]),
        "another edition's rules: {out}"
    );
    assert!(!stderr(&o).contains("error"), "{}", stderr(&o));
}

#[test]
fn the_viewer_examples_write_their_pages_and_the_screenshot_is_shown() {
    let dir = scratch("view");
    for prefix in ["fuba play --seed 7", "fuba view "] {
        let found = commands(prefix);
        assert!(!found.is_empty(), "no `{prefix}` in the README");
        for words in found {
            let words = in_dir(&words, &dir);
            // Each writes its page where it is told, not into the clone.
            assert!(
                words[0] != "view" || words.iter().any(|w| w == "-o"),
                "{words:?}"
            );
            let o = run(&words);
            assert_eq!(o.status.code(), Some(0), "{words:?}: {}", stderr(&o));
        }
    }
    assert!(dir.join("match.html").exists() && dir.join("scenario.html").exists());
    // The screenshot the README shows (made by tests/view.rs) is in the repository.
    let text = readme();
    assert!(
        text.contains("![fuba view") && text.contains("](docs/viewer.png)"),
        "README shows docs/viewer.png"
    );
    let png: PathBuf = workspace().join("docs/viewer.png");
    let bytes = std::fs::read(&png).expect("docs/viewer.png");
    assert!(bytes.starts_with(b"\x89PNG\r\n\x1a\n"), "a PNG");
}
