//! Remembering the values of pure procedures (the machine's memo, see
//! `fuba_engine::purity`) is only a speed-up: with it on or off, every edition plays the
//! same seeded matches event for event, and every coverage counter (procedures called,
//! table rows, triggers, events) comes out the same.

use fuba_engine::game::Game;
use fuba_engine::log::Event;
use fuba_engine::ruleset::Ruleset;
use fuba_engine::vm::Counters;
use fuba_tests::{Agents, edition, every_2024_option, seeded_match};

/// Plays a seeded match with the log on, remembering pure procedures or not.
fn run(rs: &Ruleset, seed: u64, agents: Agents, memo: bool) -> (Vec<Event>, Counters) {
    let mut m: Game<'_> = seeded_match(rs, seed, agents).with_log();
    m.m.set_memoize(memo);
    if let Err(e) = m.play() {
        panic!("seed {seed}: {e}");
    }
    (m.events().to_vec(), m.m.counters.clone())
}

fn assert_same(rs: &Ruleset, seeds: std::ops::Range<u64>, agents: Agents) {
    for seed in seeds {
        let (log_on, c_on) = run(rs, seed, agents, true);
        let (log_off, c_off) = run(rs, seed, agents, false);
        let what = format!("{} seed {seed} {agents:?}", rs.name);
        assert_eq!(log_on, log_off, "{what}: the log differs");
        assert_eq!(c_on.procs, c_off.procs, "{what}: procedure counts differ");
        assert_eq!(c_on.rows, c_off.rows, "{what}: table rows differ");
        assert_eq!(c_on.triggers, c_off.triggers, "{what}: triggers differ");
        assert_eq!(c_on.emits, c_off.emits, "{what}: events differ");
        assert_eq!(c_on.arms, c_off.arms, "{what}: options picked differ");
        assert_eq!(
            c_on.by_field, c_off.by_field,
            "{what}: breakdown figures differ"
        );
        assert_eq!(c_on.choices, c_off.choices, "{what}: choices differ");
        assert_eq!(c_on.dice, c_off.dice, "{what}: dice differ");
    }
}

#[test]
fn every_edition_plays_the_same_with_and_without_the_memo() {
    for name in ["original", "2015", "2024"] {
        let rs = edition(name);
        assert!(
            rs.procs.iter().any(|p| p.pure),
            "{name}: no procedure is pure, the memo is not exercised"
        );
        assert_same(&rs, 0..6, Agents::Random);
        assert_same(&rs, 0..2, Agents::Heuristic);
    }
}

#[test]
fn the_2024_advanced_rules_play_the_same_with_and_without_the_memo() {
    // Every match option switched on: booleans on, numbers at their largest sensible value.
    let rs = every_2024_option();
    assert_same(&rs, 0..4, Agents::Random);
    assert_same(&rs, 0..2, Agents::Heuristic);
}
