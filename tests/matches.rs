//! Seeded matches of the original edition: their narration as snapshots, determinism, and
//! proof that a match follows the ruleset's data (changing a table row or a number in the
//! file changes the match).

use std::path::Path;

use fuba_engine::load::load_str;
use fuba_engine::log::{Event, EventKind};
use fuba_engine::ruleset::Ruleset;
use fuba_tests::{Agents, edition, narrated_match, narration, original_text, play};

/// Loads a modified copy of the original edition under a made-up path.
fn load_variant(name: &str, text: &str) -> Ruleset {
    match load_str(Path::new(name), text) {
        Ok(r) => r,
        Err(e) => panic!("the variant `{name}` does not load:\n{e}"),
    }
}

/// Replaces exactly one occurrence of `from`.
fn replace_once(text: &str, from: &str, to: &str) -> String {
    assert_eq!(
        text.matches(from).count(),
        1,
        "expected `{from}` exactly once in original.toml"
    );
    text.replacen(from, to, 1)
}

#[test]
fn seed_1() {
    let rs = edition("original");
    insta::assert_snapshot!(narrated_match(&rs, 1, Agents::Random));
}

#[test]
fn seed_2() {
    let rs = edition("original");
    insta::assert_snapshot!(narrated_match(&rs, 2, Agents::Random));
}

#[test]
fn seed_3() {
    let rs = edition("original");
    insta::assert_snapshot!(narrated_match(&rs, 3, Agents::Random));
}

#[test]
fn seed_7_verbose_first_400_lines() {
    let rs = edition("original");
    let (_, events) = play(&rs, 7, Agents::Random);
    let lines = narration(&rs, &events, true);
    assert!(
        lines.len() > 400,
        "a verbose match is longer than 400 lines: {}",
        lines.len()
    );
    insta::assert_snapshot!(lines[..400].join("\n"));
}

#[test]
fn the_same_seed_gives_the_same_log() {
    let rs = edition("original");
    for seed in [1, 42, 0xDEAD_BEEF] {
        let (a, ea) = play(&rs, seed, Agents::Random);
        let (b, eb) = play(&rs, seed, Agents::Random);
        assert_eq!(a.score, b.score);
        assert_eq!(a.turns, b.turns);
        let ja = serde_json::to_string(&ea).expect("events serialise");
        let jb = serde_json::to_string(&eb).expect("events serialise");
        assert!(
            ja == jb,
            "seed {seed}: two runs of the same seed logged different events"
        );
    }
    // And different seeds give different matches.
    let (_, e1) = play(&rs, 1, Agents::Random);
    let (_, e2) = play(&rs, 2, Agents::Random);
    assert_ne!(
        serde_json::to_string(&e1).unwrap(),
        serde_json::to_string(&e2).unwrap()
    );
}

fn rolled_special_event(events: &[Event], row: &str) -> bool {
    events.iter().any(|e| {
        matches!(&e.kind, EventKind::Table { table, row: r, .. } if table == "special_event" && r == row)
    })
}

#[test]
fn changing_a_special_event_row_changes_the_match() {
    let text = original_text();
    let original = load_variant("original-copy.toml", &text);
    let from = r#""3" = { label = "No moves for the controlling team.", do = '''
set no_moves[ct] = true
emit "no moves" { team: ct }
''' }"#;
    let to = r#""3" = { label = "Free kick for the passive team.", do = 'free_kick(pt)' }"#;
    let variant = load_variant("house-rule-3.toml", &replace_once(&text, from, to));

    let mut with_3 = Vec::new();
    for seed in 1..=50 {
        let (_, events) = play(&original, seed, Agents::Random);
        let before = narration(&original, &events, false);
        let (_, changed) = play(&variant, seed, Agents::Random);
        let after = narration(&variant, &changed, false);
        if rolled_special_event(&events, "3") {
            with_3.push(seed);
            assert_ne!(
                before, after,
                "seed {seed}: special event 3 was rolled, but the house rule changed nothing"
            );
            assert!(
                rolled_special_event(&changed, "3"),
                "seed {seed}: the house rule's match never reached special event 3"
            );
        } else {
            // Until a 3 is rolled the two rulesets are the same game.
            assert_eq!(
                before, after,
                "seed {seed}: no special event 3, yet the narration changed"
            );
        }
    }
    assert!(
        !with_3.is_empty(),
        "no seed in 1..=50 rolled special event 3"
    );
}

#[test]
fn changing_the_kickoff_ball_value_changes_the_match() {
    let text = original_text();
    let original = load_variant("original-copy.toml", &text);
    let variant = load_variant(
        "kickoff-4.toml",
        &replace_once(&text, "kickoff_ball = 3 ", "kickoff_ball = 4 "),
    );
    let (_, a) = play(&original, 1, Agents::Random);
    let (_, b) = play(&variant, 1, Agents::Random);
    assert_ne!(
        narration(&original, &a, false),
        narration(&variant, &b, false)
    );
    // The first kick-off sets the ball value from the constant.
    let first_value = |events: &[Event]| {
        events.iter().find_map(|e| match &e.kind {
            EventKind::BallValue { value } => Some(*value),
            _ => None,
        })
    };
    assert_eq!(first_value(&a), Some(3));
    assert_eq!(first_value(&b), Some(4));
}

#[test]
fn a_copy_loaded_from_text_plays_like_the_file() {
    let from_file = edition("original");
    let from_text = load_variant("original-copy.toml", &original_text());
    assert_eq!(from_file.fingerprint, from_text.fingerprint);
    let (_, a) = play(&from_file, 5, Agents::Random);
    let (_, b) = play(&from_text, 5, Agents::Random);
    assert!(a == b);
}
