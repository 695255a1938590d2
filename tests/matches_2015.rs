//! Seeded matches of the 2015 edition: the narration of one as a snapshot (each stage of
//! the 2015 turn order is narrated), and whole matches played to full time.

use fuba_engine::game::Ending;
use fuba_engine::log::{Event, EventKind};
use fuba_tests::{Agents, edition, narrated_match, play};

#[test]
fn seed_1_2015() {
    let rs = edition("2015");
    insta::assert_snapshot!(narrated_match(&rs, 1, Agents::Random));
}

/// The fields of the emitted events of a kind.
fn emitted<'e>(
    events: &'e [Event],
    kind: &'e str,
) -> impl Iterator<Item = &'e serde_json::Map<String, serde_json::Value>> {
    events.iter().filter_map(move |e| match &e.kind {
        EventKind::Emit { kind: k, fields } if k == kind => Some(fields),
        _ => None,
    })
}

#[test]
fn matches_reach_full_time_and_narrate_every_stage() {
    let rs = edition("2015");
    for seed in 1..=20 {
        let (outcome, events) = play(&rs, seed, Agents::Random);
        assert_eq!(outcome.ending, Ending::FullTime, "seed {seed}");
        for kind in [
            "target area",
            "dice",
            "control check",
            "new ball value",
            "action stage",
            "movement",
            "ball value adjustment",
        ] {
            assert!(
                emitted(&events, kind).next().is_some(),
                "seed {seed}: no \"{kind}\" event"
            );
        }
        // 3.5, 4.10: three substitutions per team at most.
        for team in ["home", "away"] {
            let subs = emitted(&events, "substitution")
                .filter(|f| f.get("team").and_then(|t| t.as_str()) == Some(team))
                .count();
            assert!(subs <= 3, "seed {seed}: {team} made {subs} substitutions");
        }
        // 4.11.1: tiredness levels 1 and 2 only.
        for f in emitted(&events, "tiredness") {
            let level = f.get("level").and_then(serde_json::Value::as_i64);
            assert!(matches!(level, Some(1 | 2)), "seed {seed}: tiredness {f:?}");
        }
    }
}

#[test]
fn the_same_seed_gives_the_same_2015_match() {
    let rs = edition("2015");
    let (a, ea) = play(&rs, 7, Agents::Random);
    let (b, eb) = play(&rs, 7, Agents::Random);
    assert_eq!(a.score, b.score);
    assert_eq!(
        serde_json::to_string(&ea).expect("events serialise"),
        serde_json::to_string(&eb).expect("events serialise")
    );
}
