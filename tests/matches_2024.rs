//! Seeded matches of the 2024 edition (basic rules): the narration of a seeded match as a
//! snapshot, determinism, and whole-match properties (no run error, no runaway half, at
//! most six pieces counted, actions never negative, the phasing team alternates unless a
//! set piece gives the next turn to the team taking it).

use fuba_engine::agent::{HeuristicAgent, RandomAgent};
use fuba_engine::dice::SeededDice;
use fuba_engine::game::{Ending, Match, Outcome};
use fuba_engine::ir::Scope;
use fuba_engine::log::{Event, EventKind, narrate};
use fuba_engine::ruleset::Ruleset;
use fuba_engine::value::Value;
use fuba_tests::edition;

/// Plays a seeded match with the log on; `heuristic` picks the agents.
fn play(rs: &Ruleset, seed: u64, heuristic: bool) -> (Outcome, Vec<Event>) {
    let (home, away): (
        Box<dyn fuba_engine::agent::Agent>,
        Box<dyn fuba_engine::agent::Agent>,
    ) = if heuristic {
        (
            Box::new(HeuristicAgent::new(seed, 0)),
            Box::new(HeuristicAgent::new(seed, 1)),
        )
    } else {
        (
            Box::new(RandomAgent::new(seed, 0)),
            Box::new(RandomAgent::new(seed, 1)),
        )
    };
    let mut m = Match::new(rs, seed, Box::new(SeededDice::new(seed)), home, away).with_log();
    let outcome = match m.play() {
        Ok(o) => o,
        Err(e) => panic!("seed {seed}: {e}"),
    };
    (outcome, m.events().to_vec())
}

fn narrated_match(rs: &Ruleset, seed: u64, heuristic: bool) -> String {
    let (outcome, events) = play(rs, seed, heuristic);
    assert_eq!(outcome.ending, Ending::FullTime, "seed {seed}");
    let mut text: String = events
        .iter()
        .filter_map(|e| narrate(rs, e, false))
        .collect::<Vec<_>>()
        .join("\n");
    text.push_str(&format!(
        "\n\nFinal score: {} - {} (turns per half: {:?})\n",
        outcome.score[0], outcome.score[1], outcome.turns
    ));
    text
}

#[test]
fn seed_1_2024() {
    let rs = edition("2024");
    insta::assert_snapshot!(narrated_match(&rs, 1, false));
}

#[test]
fn seed_2_2024_heuristic() {
    let rs = edition("2024");
    insta::assert_snapshot!(narrated_match(&rs, 2, true));
}

#[test]
fn the_same_seed_gives_the_same_2024_log() {
    let rs = edition("2024");
    let (_, a) = play(&rs, 11, false);
    let (_, b) = play(&rs, 11, false);
    assert_eq!(a, b);
}

/// The events of the set pieces that give the next turn to the team taking them.
const SET_PIECES: [&str; 5] = [
    "kick-off",
    "free kick",
    "quick free kick",
    "corner kick",
    "goal kick",
];

/// The value of a turn variable of the ruleset, as an integer.
fn turn_int(rs: &Ruleset, st: &fuba_engine::state::MatchState, name: &str) -> i64 {
    let (v, _) = rs.var(name).unwrap_or_else(|| panic!("no variable {name}"));
    assert_eq!(v.scope, Scope::Turn);
    match st.vars_turn[v.idx as usize] {
        Value::Int(i) => i,
        _ => panic!("{name} is not an integer"),
    }
}

#[test]
fn whole_2024_matches_keep_their_properties() {
    let rs = edition("2024");
    let counted = |st: &fuba_engine::state::MatchState| {
        // count() never counts more than six pieces of a team in one area (1.4.1).
        assert_eq!(rs.count_cap, 6);
        st.pieces.iter().all(|p| p.on_board() <= 11)
    };
    for seed in 0..40u64 {
        let heuristic = seed % 2 == 1;
        let (home, away): (
            Box<dyn fuba_engine::agent::Agent>,
            Box<dyn fuba_engine::agent::Agent>,
        ) = if heuristic {
            (
                Box::new(HeuristicAgent::new(seed, 0)),
                Box::new(HeuristicAgent::new(seed, 1)),
            )
        } else {
            (
                Box::new(RandomAgent::new(seed, 0)),
                Box::new(RandomAgent::new(seed, 1)),
            )
        };
        let mut m = Match::new(&rs, seed, Box::new(SeededDice::new(seed)), home, away).with_log();
        let outcome = m
            .play_observed(&mut |st, rs| {
                if turn_int(rs, st, "actions") < 0 {
                    return Err("negative number of actions".into());
                }
                if !counted(st) {
                    return Err("too many pieces on the board".into());
                }
                Ok(())
            })
            .unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        assert_eq!(
            outcome.ending,
            Ending::FullTime,
            "seed {seed}: runaway half"
        );
        // Phasing alternates from turn to turn, except that a set piece (kick-off, free
        // kick, corner kick, goal kick) gives the next turn to the team taking it.
        let mut last: Option<String> = None;
        let mut set_piece_for: Option<String> = None;
        for e in m.events() {
            match &e.kind {
                EventKind::Phasing { team } => {
                    if let (Some(prev), None) = (&last, &set_piece_for) {
                        assert_ne!(
                            prev, team,
                            "seed {seed}: the same team phasing twice without a set piece"
                        );
                    }
                    if let Some(t) = &set_piece_for {
                        assert_eq!(
                            t, team,
                            "seed {seed}: a set piece's team does not take the next turn"
                        );
                    }
                    last = Some(team.clone());
                    set_piece_for = None;
                }
                EventKind::Emit { kind, fields } if SET_PIECES.contains(&kind.as_str()) => {
                    if let Some(t) = fields.get("team").and_then(|v| v.as_str()) {
                        set_piece_for = Some(t.to_string());
                    }
                }
                EventKind::HalfEnd { .. } => {
                    last = None;
                    set_piece_for = None;
                }
                _ => {}
            }
        }
    }
}
