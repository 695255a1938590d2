//! The narration a new user reads (issue 16): no internal words — no `slow: false`, no
//! pass from an area to itself written `A → A`, no `Dice difference 1 below stoppage time
//! +2`, no template field left unfilled — in matches of every edition, the 2024 edition
//! with its advanced rules on, and with `--verbose`.

mod common;

use common::{fuba, ok};

/// What a reader should never meet in a narration line, or `None`.
fn internal_words(line: &str) -> Option<&'static str> {
    if line.contains(": false") || line.contains(": true") {
        return Some("a flag's raw value");
    }
    if line.contains("Dice difference") || line.contains("below stoppage time") {
        return Some("the stoppage roll's old wording");
    }
    // `{name}` left unfilled by a template.
    let unfilled = line.match_indices('{').any(|(i, _)| {
        let rest = &line[i + 1..];
        rest.find('}').is_some_and(|j| {
            j > 0
                && rest[..j]
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || "_?|=".contains(c))
        })
    });
    if unfilled {
        return Some("a template field left unfilled");
    }
    // `X → X`: a move or pass within one area written as from it to itself.
    let words: Vec<&str> = line.split_whitespace().collect();
    let same = words.windows(3).any(|w| {
        let to = w[2].trim_end_matches([',', ':', ')', '.']);
        w[1] == "→" && w[0] == to
    });
    if same {
        return Some("an area moved to itself");
    }
    None
}

#[test]
fn narration_has_no_internal_words_in_any_edition() {
    let runs: [&[&str]; 6] = [
        &["play", "--rules", "original", "--seed", "1"],
        &["play", "--rules", "2015", "--seed", "1"],
        &["play", "--rules", "2024", "--seed", "1"],
        &[
            "play",
            "--rules",
            "2024",
            "--seed",
            "2",
            "--home",
            "heuristic",
        ],
        &[
            "play",
            "--rules",
            "2024",
            "--seed",
            "3",
            "--option",
            "condition=on",
            "--option",
            "skills=6",
            "--option",
            "weather=on",
            "--option",
            "var=on",
        ],
        &["play", "--rules", "original", "--seed", "7", "--verbose"],
    ];
    let mut seen = Vec::new();
    for args in runs {
        let out = ok(&fuba(args));
        assert!(out.lines().count() > 50, "{args:?}: {out}");
        for line in out.lines() {
            if let Some(why) = internal_words(line) {
                seen.push(format!("{args:?}: {why}: {line}"));
            }
        }
    }
    assert!(seen.is_empty(), "{}", seen.join("\n"));
}

#[test]
fn the_checks_catch_what_they_are_for() {
    for bad in [
        "12' Goal kick for Home (slow: false)",
        "3' Home pass S_FRONT → S_FRONT, ball 2: kept",
        "45' Dice difference 1 below stoppage time +2",
        "5' Free kick for {team} in S_BOX",
    ] {
        assert!(internal_words(bad).is_some(), "{bad}");
    }
    for good in [
        "12' Goal kick for Home, a quick one",
        "3' Home pass within S_FRONT, ball 2: kept",
        "2' Away pass CENTRE → N_WEST_CORNER, ball 3: kept (6 vs 3)",
    ] {
        assert_eq!(internal_words(good), None, "{good}");
    }
}
