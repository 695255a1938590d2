//! Property tests over whole seeded matches of every edition that plays whole matches:
//! invariants checked between every stage, and exact replay from the recorded choices.
//!
//! Each edition in [`EDITIONS`] gets the common invariants (pieces conserved, area counts
//! consistent, ball value 1..=6 between stages, the clock never goes back, the score only
//! goes up and only by goal events, full time reached, identical replay) and its own: the
//! ranges of its per-team state variables and what accounts for its pieces off the board.
//! An edition is added here once its ruleset plays whole matches.
//!
//! The 2024 edition adds: its turn variable `actions` (4.2.1) is never negative; the
//! ruleset's `count()` (evaluated by the engine on a copy of every observed state) never
//! counts more than six pieces of a team in an area and otherwise counts them all (1.4.1);
//! and the phasing team alternates from turn to turn except that a set piece gives the next
//! turn to the team taking it (4).

use std::collections::HashMap;
use std::sync::{Mutex, OnceLock};

use fuba_engine::agent::ScriptedAgent;
use fuba_engine::dice::SeededDice;
use fuba_engine::game::{Ending, Game, Outcome};
use fuba_engine::ir::Scope;
use fuba_engine::log::{Event, EventKind};
use fuba_engine::ruleset::Ruleset;
use fuba_engine::state::{Clock, GONE, MatchState, OFF};
use fuba_engine::value::Value;
use fuba_engine::vm::Match;
use fuba_tests::{Agents, edition, ruleset_path, seeded_match};
use proptest::prelude::*;

#[path = "properties/editions.rs"]
mod editions;
#[path = "properties/logs.rs"]
mod logs;
use editions::{EDITIONS, Edition, spec};
use logs::{emitted_per_team, goals_in_log, phasing_alternates, scripts};

/// An edition's ruleset, loaded once for all test threads.
fn rules(name: &str) -> &'static Ruleset {
    static CACHE: OnceLock<Mutex<HashMap<String, &'static Ruleset>>> = OnceLock::new();
    let mut m = CACHE
        .get_or_init(Default::default)
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    m.entry(name.to_string())
        .or_insert_with(|| Box::leak(Box::new(edition(name))))
}

/// A per-team integer state variable.
fn team_int(st: &MatchState, rs: &Ruleset, name: &str, team: usize) -> Result<i64, String> {
    let (v, _) = rs
        .var(name)
        .ok_or_else(|| format!("the ruleset has no state variable `{name}`"))?;
    let value = match v.scope {
        Scope::Team => &st.vars_team[usize::from(v.idx)][team],
        Scope::TeamTurn => &st.vars_team_turn[usize::from(v.idx)][team],
        _ => return Err(format!("`{name}` is not held per team")),
    };
    match value {
        Value::Int(i) => Ok(*i),
        other => Err(format!("`{name}` is {other:?}, not an integer")),
    }
}

/// A turn integer state variable.
fn turn_int(st: &MatchState, rs: &Ruleset, name: &str) -> Result<i64, String> {
    let (v, _) = rs
        .var(name)
        .ok_or_else(|| format!("the ruleset has no state variable `{name}`"))?;
    if v.scope != Scope::Turn {
        return Err(format!("`{name}` is not a turn variable"));
    }
    match &st.vars_turn[usize::from(v.idx)] {
        Value::Int(i) => Ok(*i),
        other => Err(format!("`{name}` is {other:?}, not an integer")),
    }
}

/// The edition's ruleset with one procedure added, `probe_count(t, a) = count(t, a)`, so
/// that the engine's own `count()` can be evaluated on any state.
fn probe_rules(name: &str) -> &'static Ruleset {
    static CACHE: OnceLock<Mutex<HashMap<String, &'static Ruleset>>> = OnceLock::new();
    let mut m = CACHE
        .get_or_init(Default::default)
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    m.entry(name.to_string()).or_insert_with(|| {
        let path = ruleset_path(name);
        let text = std::fs::read_to_string(&path).expect("the ruleset is readable");
        let text = format!(
            "{text}\n[procedures.probe_count]\nsection = \"1.4.1\"\nparams = \"t: team, a: area\"\ndo = 'count(t, a)'\n"
        );
        let rs = fuba_engine::load::load_str(&path, &text).unwrap_or_else(|e| panic!("{e}"));
        Box::leak(Box::new(rs))
    })
}

/// Evaluates the rules' `count()` for every team and area of `st` and compares it with the
/// raw number of pieces there, capped at `cap`. Returns how many (team, area) pairs had
/// more than `cap` pieces.
fn check_count(probe: &mut Match<'_>, st: &MatchState, cap: i64) -> Result<usize, String> {
    let idx = probe
        .rs
        .procedure("probe_count")
        .ok_or("no probe_count procedure")?;
    probe.st = st.clone();
    let mut over = 0;
    for t in 0..2u8 {
        for a in 0..probe.rs.board.areas.len() {
            let raw = i64::from(st.pieces[usize::from(t)].count[a]);
            let area = u8::try_from(a).map_err(|_| "too many areas")?;
            let counted = match probe.call(idx, vec![Value::Team(t), Value::Area(area)]) {
                Ok(Value::Int(n)) => n,
                other => return Err(format!("count() gave {other:?}")),
            };
            if counted != raw.min(cap) {
                return Err(format!(
                    "team {t}, area {}: {raw} pieces, count() = {counted} (cap {cap}) at {:?}",
                    probe.rs.board.areas[a].name, st.clock
                ));
            }
            if raw > cap {
                over += 1;
            }
        }
    }
    Ok(over)
}

/// What the observer remembers from the previous stage.
#[derive(Default)]
struct Seen {
    clock: Option<Clock>,
    score: [i64; 2],
    stages: u64,
    /// Pieces off the board (sent off or injured) seen at some stage, per team.
    most_off: [usize; 2],
    /// Observed (team, area) pairs with more pieces than `count()` counts.
    over_cap: usize,
    /// Pieces gone for good at the last stage, per team.
    gone: [usize; 2],
}

/// The invariants that hold between any two stages.
fn check_state(st: &MatchState, rs: &Ruleset, ed: &Edition, seen: &mut Seen) -> Result<(), String> {
    seen.stages += 1;
    let pieces = usize::from(rs.pieces);
    for (t, p) in st.pieces.iter().enumerate() {
        let on_board = p.at.iter().filter(|a| **a < GONE).count();
        let gone = p.at.iter().filter(|a| **a == GONE).count();
        let off = p.at.iter().filter(|a| **a == OFF).count();
        let mut waiting = 0;
        for v in ed.waiting {
            waiting += team_int(st, rs, v, t)?;
        }
        if off as i64 != waiting {
            return Err(format!(
                "team {t}: {off} piece(s) left OFF the board between stages, but {} = {waiting} at {:?}",
                if ed.waiting.is_empty() {
                    "none waits".to_string()
                } else {
                    ed.waiting.join(" + ")
                },
                st.clock
            ));
        }
        if on_board + gone + off != pieces || pieces != 11 {
            return Err(format!(
                "team {t}: {on_board} on the board + {gone} gone + {off} waiting != 11 at {:?}",
                st.clock
            ));
        }
        if p.at[0] >= GONE {
            return Err(format!(
                "team {t}: the goalkeeper left the board at {:?}",
                st.clock
            ));
        }
        let counted: usize = p.count.iter().map(|c| usize::from(*c)).sum();
        if counted != on_board {
            return Err(format!(
                "team {t}: area counts sum to {counted}, but {on_board} pieces are on the board"
            ));
        }
        // Every piece off the board is accounted for by the rules' own bookkeeping.
        let mut accounted = 0;
        for v in ed.off_board {
            accounted += team_int(st, rs, v, t)?;
        }
        if ed.gone_in_log.is_none() && accounted != gone as i64 {
            return Err(format!(
                "team {t}: {gone} piece(s) off the board, but {} = {accounted} at {:?}",
                ed.off_board.join(" + "),
                st.clock
            ));
        }
        seen.most_off[t] = seen.most_off[t].max(gone + off);
        seen.gone[t] = gone;
        for (v, lo, hi) in ed.ranges {
            let x = team_int(st, rs, v, t)?;
            if !(*lo..=*hi).contains(&x) {
                return Err(format!(
                    "team {t}: {v} = {x} outside {lo}..={hi} at {:?}",
                    st.clock
                ));
            }
        }
    }
    for (v, lo, hi) in ed.turn_ranges {
        let x = turn_int(st, rs, v)?;
        if !(*lo..=*hi).contains(&x) {
            return Err(format!("{v} = {x} outside {lo}..={hi} at {:?}", st.clock));
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

/// Plays seed `seed` of an edition with random agents, checking the invariants after
/// every stage.
fn play_checked(name: &str, seed: u64) -> Result<(Outcome, Vec<Event>, Seen), TestCaseError> {
    let rs = rules(name);
    let ed = spec(name);
    let mut m = seeded_match(rs, seed, Agents::Random).with_log();
    let mut seen = Seen::default();
    let mut probe = ed.count_cap.map(|_| Match::new(probe_rules(name), seed));
    let outcome = m
        .play_observed(&mut |st, rs| {
            check_state(st, rs, ed, &mut seen)?;
            if let (Some(p), Some(cap)) = (probe.as_mut(), ed.count_cap) {
                seen.over_cap += check_count(p, st, cap)?;
            }
            Ok(())
        })
        .map_err(|e| TestCaseError::fail(format!("{name}, seed {seed}: {e}")))?;
    let events = m.events().to_vec();
    Ok((outcome, events, seen))
}

/// The invariants of one seeded match of an edition.
fn invariants(name: &str, seed: u64) -> Result<(), TestCaseError> {
    let (outcome, events, seen) = play_checked(name, seed)?;
    prop_assert!(
        seen.stages > 2,
        "{name}, seed {seed}: the observer was called only {} times",
        seen.stages
    );
    prop_assert_eq!(
        &outcome.ending,
        &Ending::FullTime,
        "{}, seed {}: the match did not reach full time",
        name,
        seed
    );
    prop_assert_eq!(
        outcome.turns.len(),
        2,
        "{}, seed {}: halves played {:?}",
        name,
        seed,
        &outcome.turns
    );
    for (h, t) in outcome.turns.iter().enumerate() {
        prop_assert!(*t >= 1, "{name}, seed {seed}: half {} had no turn", h + 1);
    }
    prop_assert_eq!(
        goals_in_log(&events),
        outcome.score,
        "{}, seed {}: goal events vs final score",
        name,
        seed
    );
    prop_assert_eq!(
        seen.score,
        outcome.score,
        "{}, seed {}: last observed score vs final score",
        name,
        seed
    );
    match events.last().map(|e| &e.kind) {
        Some(EventKind::MatchEnd { score }) => prop_assert_eq!(*score, outcome.score),
        other => prop_assert!(false, "{name}, seed {seed}: the log ends with {other:?}"),
    }
    let ends: Vec<&str> = events
        .iter()
        .filter_map(|e| match &e.kind {
            EventKind::HalfEnd { reason } => Some(reason.as_str()),
            _ => None,
        })
        .collect();
    prop_assert_eq!(
        ends,
        vec!["rules", "rules"],
        "{}, seed {}: half ends",
        name,
        seed
    );
    // The score only changes by goal events: every goal event carries the running score.
    let mut running = [0, 0];
    for e in &events {
        if let EventKind::Goal { team, score } = &e.kind {
            running[usize::from(team != "home")] += 1;
            prop_assert_eq!(
                *score,
                running,
                "{}, seed {}: goal event #{}",
                name,
                seed,
                e.seq
            );
        }
    }
    if let Some(gone_by) = spec(name).gone_in_log {
        let mut logged = [0, 0];
        for e in &events {
            if let Some(t) = gone_by(e) {
                logged[t] += 1;
            }
        }
        prop_assert_eq!(
            logged,
            seen.gone,
            "{}, seed {}: pieces removed by events vs pieces gone at full time",
            name,
            seed
        );
    }
    if let Some(set_pieces) = spec(name).phasing {
        let turns = phasing_alternates(&events, set_pieces)
            .map_err(|e| TestCaseError::fail(format!("{name}, seed {seed}: {e}")))?;
        prop_assert!(
            turns > 2,
            "{name}, seed {seed}: only {turns} phasing events"
        );
    }
    for (kind, most) in spec(name).at_most {
        let n = emitted_per_team(&events, kind);
        prop_assert!(
            n[0] <= *most && n[1] <= *most,
            "{name}, seed {seed}: {n:?} \"{kind}\" events (at most {most} per team)"
        );
    }
    Ok(())
}

/// Replays a seeded match of an edition from the choices recorded in its log.
fn replay_identical(name: &str, seed: u64) -> Result<(), TestCaseError> {
    let rs = rules(name);
    let (outcome, events, _) = play_checked(name, seed)?;
    let [home, away] = scripts(&events);
    let (nh, na) = (home.len(), away.len());
    let mut replay = Game::new(
        rs,
        seed,
        Box::new(SeededDice::new(seed)),
        Box::new(ScriptedAgent::new(home)),
        Box::new(ScriptedAgent::new(away)),
    )
    .with_log();
    let again = replay.play().map_err(|e| {
        TestCaseError::fail(format!(
            "{name}, seed {seed}: replay failed ({nh} home, {na} away choices): {e}"
        ))
    })?;
    prop_assert_eq!(again.score, outcome.score);
    prop_assert_eq!(&again.turns, &outcome.turns);
    let replayed = replay.events();
    prop_assert_eq!(
        replayed.len(),
        events.len(),
        "{}, seed {}: event counts differ",
        name,
        seed
    );
    if let Some(i) = (0..events.len()).find(|i| replayed[*i] != events[*i]) {
        prop_assert!(
            false,
            "{name}, seed {seed}: event {i} differs:\n  played:   {:?}\n  replayed: {:?}",
            events[i],
            replayed[i]
        );
    }
    prop_assert!(replayed == events.as_slice());
    Ok(())
}

/// One module of property tests per edition (64 cases each unless given).
macro_rules! edition_properties {
    ($module:ident, $name:literal) => {
        edition_properties!($module, $name, 64);
    };
    ($module:ident, $name:literal, $cases:literal) => {
        mod $module {
            use super::*;

            proptest! {
                #![proptest_config(ProptestConfig::with_cases($cases))]

                #[test]
                fn invariants_hold_between_stages(seed in any::<u64>()) {
                    invariants($name, seed)?;
                }

                #[test]
                fn recorded_choices_replay_the_same_match(seed in any::<u64>()) {
                    replay_identical($name, seed)?;
                }
            }
        }
    };
}

edition_properties!(original, "original");
edition_properties!(edition_2015, "2015");
edition_properties!(edition_2024, "2024", 32);

#[test]
fn every_edition_listed_has_its_tests() {
    // The macro invocations above and EDITIONS name the same editions.
    let listed: Vec<&str> = EDITIONS.iter().map(|e| e.name).collect();
    assert_eq!(listed, ["original", "2015", "2024"]);
}

/// The 2015 edition's injury bookkeeping is exercised: some seeded matches take players
/// off injured or sent off and bring injured ones back (5.4, 5.6), so the piece accounting
/// above is not vacuous.
#[test]
fn the_2015_accounting_sees_pieces_leave_and_return() {
    let mut left = 0;
    let mut returned = 0;
    for seed in 0..24 {
        let (_, events, seen) = play_checked("2015", seed).unwrap_or_else(|e| panic!("{e}"));
        left += seen.most_off.iter().sum::<usize>();
        returned += emitted_per_team(&events, "player returns")
            .iter()
            .sum::<usize>();
    }
    assert!(left > 0, "no piece left the board in 24 matches");
    assert!(returned > 0, "no injured piece came back in 24 matches");
}

/// The 2024 count check is not vacuous: some seeded matches put more than six pieces of a
/// team in one area, where `count()` must give six.
#[test]
fn the_2024_count_cap_is_exercised() {
    let mut over = 0;
    for seed in 0..16 {
        let (_, _, seen) = play_checked("2024", seed).unwrap_or_else(|e| panic!("{e}"));
        over += seen.over_cap;
    }
    assert!(
        over > 0,
        "no area held more than six pieces of a team in 16 matches"
    );
}
