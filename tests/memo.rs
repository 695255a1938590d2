//! Remembering the values of pure procedures (the machine's memo, see
//! `fuba_engine::purity`) is only a speed-up: with it on or off, every edition plays the
//! same seeded matches event for event, and every coverage counter (procedures called,
//! table rows, triggers, events) comes out the same.

use fuba_engine::ruleset::Ruleset;
use fuba_tests::{Agents, assert_plays_same, edition, every_2024_option};

fn assert_same(rs: &Ruleset, seeds: std::ops::Range<u64>, agents: Agents) {
    assert_plays_same(rs, seeds, agents, false, |m, on| m.m.set_memoize(on));
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
