//! Property tests over whole seeded matches of the original edition: invariants checked
//! between every stage, and exact replay from the recorded choices.

use fuba_engine::agent::{RandomAgent, ScriptedAgent};
use fuba_engine::dice::SeededDice;
use fuba_engine::game::{Ending, Match, Outcome};
use fuba_engine::log::{Event, EventKind};
use fuba_engine::ruleset::Ruleset;
use fuba_engine::state::{Clock, GONE, MatchState, OFF};
use fuba_tests::edition;
use proptest::prelude::*;

/// The original edition, loaded once per test thread (a ruleset is not `Sync`).
fn original() -> &'static Ruleset {
    thread_local! {
        static RS: &'static Ruleset = Box::leak(Box::new(edition("original")));
    }
    RS.with(|r| *r)
}

/// What the observer remembers from the previous stage.
#[derive(Default)]
struct Seen {
    clock: Option<Clock>,
    score: [i64; 2],
    stages: u64,
}

/// The invariants that hold between any two stages.
fn check_state(st: &MatchState, rs: &Ruleset, seen: &mut Seen) -> Result<(), String> {
    seen.stages += 1;
    for (t, p) in st.pieces.iter().enumerate() {
        let on_board = p.at.iter().filter(|a| **a < GONE).count();
        let gone = p.at.iter().filter(|a| **a == GONE).count();
        let off = p.at.iter().filter(|a| **a == OFF).count();
        if off != 0 {
            return Err(format!(
                "team {t}: {off} piece(s) left OFF the board between stages at {:?}",
                st.clock
            ));
        }
        if on_board + gone != usize::from(rs.pieces) || on_board + gone != 11 {
            return Err(format!(
                "team {t}: {on_board} on the board + {gone} sent off != 11 at {:?}",
                st.clock
            ));
        }
        let counted: usize = p.count.iter().map(|c| usize::from(*c)).sum();
        if counted != on_board {
            return Err(format!(
                "team {t}: area counts sum to {counted}, but {on_board} pieces are on the board"
            ));
        }
    }
    let (lo, hi) = rs.ball_values;
    if !(lo..=hi).contains(&st.ball_value) || !(1..=6).contains(&st.ball_value) {
        return Err(format!(
            "ball value {} outside 1..=6 at {:?}",
            st.ball_value, st.clock
        ));
    }
    if let Some(prev) = seen.clock {
        if st.clock < prev {
            return Err(format!(
                "the clock went back from {prev:?} to {:?}",
                st.clock
            ));
        }
    }
    seen.clock = Some(st.clock);
    for t in 0..2 {
        if st.score[t] < seen.score[t] {
            return Err(format!(
                "the score went down from {:?} to {:?}",
                seen.score, st.score
            ));
        }
    }
    seen.score = st.score;
    Ok(())
}

/// Plays seed `seed` with random agents, checking the invariants after every stage.
fn play_checked(seed: u64) -> Result<(Outcome, Vec<Event>, Seen), TestCaseError> {
    let rs = original();
    let mut m = Match::new(
        rs,
        seed,
        Box::new(SeededDice::new(seed)),
        Box::new(RandomAgent::new(seed, 0)),
        Box::new(RandomAgent::new(seed, 1)),
    )
    .with_log();
    let mut seen = Seen::default();
    let outcome = m
        .play_observed(&mut |st, rs| check_state(st, rs, &mut seen))
        .map_err(|e| TestCaseError::fail(format!("seed {seed}: {e}")))?;
    let events = m.events().to_vec();
    Ok((outcome, events, seen))
}

fn goals_in_log(events: &[Event]) -> [i64; 2] {
    let mut g = [0, 0];
    for e in events {
        if let EventKind::Goal { team, .. } = &e.kind {
            g[usize::from(team != "home")] += 1;
        }
    }
    g
}

/// The labels each team actually chose (choices with one legal option are made by the
/// engine without asking the agent, so they are not part of a script).
fn scripts(events: &[Event]) -> [Vec<String>; 2] {
    let mut s: [Vec<String>; 2] = Default::default();
    for e in events {
        if let EventKind::Choice {
            team,
            label,
            options,
            ..
        } = &e.kind
        {
            if *options > 1 {
                s[usize::from(team != "home")].push(label.clone());
            }
        }
    }
    s
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn invariants_hold_between_stages(seed in any::<u64>()) {
        let (outcome, events, seen) = play_checked(seed)?;
        prop_assert!(seen.stages > 2, "seed {seed}: the observer was called only {} times", seen.stages);
        prop_assert_eq!(&outcome.ending, &Ending::FullTime, "seed {}: the match did not reach full time", seed);
        prop_assert_eq!(outcome.turns.len(), 2, "seed {}: halves played {:?}", seed, &outcome.turns);
        for (h, t) in outcome.turns.iter().enumerate() {
            prop_assert!(*t >= 1, "seed {seed}: half {} had no turn", h + 1);
        }
        prop_assert_eq!(goals_in_log(&events), outcome.score, "seed {}: goal events vs final score", seed);
        prop_assert_eq!(seen.score, outcome.score, "seed {}: last observed score vs final score", seed);
        match events.last().map(|e| &e.kind) {
            Some(EventKind::MatchEnd { score }) => prop_assert_eq!(*score, outcome.score),
            other => prop_assert!(false, "seed {seed}: the log ends with {other:?}"),
        }
        let ends: Vec<&str> = events
            .iter()
            .filter_map(|e| match &e.kind {
                EventKind::HalfEnd { reason } => Some(reason.as_str()),
                _ => None,
            })
            .collect();
        prop_assert_eq!(ends, vec!["rules", "rules"], "seed {}: half ends", seed);
        // Every goal event carries the running score.
        let mut running = [0, 0];
        for e in &events {
            if let EventKind::Goal { team, score } = &e.kind {
                running[usize::from(team != "home")] += 1;
                prop_assert_eq!(*score, running, "seed {}: goal event #{}", seed, e.seq);
            }
        }
    }

    #[test]
    fn recorded_choices_replay_the_same_match(seed in any::<u64>()) {
        let rs = original();
        let (outcome, events, _) = play_checked(seed)?;
        let [home, away] = scripts(&events);
        let (nh, na) = (home.len(), away.len());
        let mut replay = Match::new(
            rs,
            seed,
            Box::new(SeededDice::new(seed)),
            Box::new(ScriptedAgent::new(home)),
            Box::new(ScriptedAgent::new(away)),
        )
        .with_log();
        let again = replay
            .play()
            .map_err(|e| TestCaseError::fail(format!("seed {seed}: replay failed ({nh} home, {na} away choices): {e}")))?;
        prop_assert_eq!(again.score, outcome.score);
        prop_assert_eq!(&again.turns, &outcome.turns);
        let replayed = replay.events();
        prop_assert_eq!(replayed.len(), events.len(), "seed {}: event counts differ", seed);
        if let Some(i) = (0..events.len()).find(|i| replayed[*i] != events[*i]) {
            prop_assert!(false, "seed {seed}: event {i} differs:\n  played:   {:?}\n  replayed: {:?}", events[i], replayed[i]);
        }
        prop_assert!(replayed == events.as_slice());
    }
}
