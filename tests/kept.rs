//! `prefer` scores kept from one offer of a decision to the next (`fuba_engine::vm`
//! `kept`, proved possible by `lower/hoist.rs`) are only a speed-up: at every decision of
//! seeded matches the scores a keeping match gives are those of a copy that scores every
//! option afresh; with keeping on or off every edition plays the same heuristic matches
//! event for event with the same counters; and a score that reads the match for each
//! option is never kept. Scores are kept only in a match without machine code for them
//! (with it, scores are worked out afresh for less), so these matches run without it.

use fuba_engine::ruleset::Ruleset;
use fuba_engine::vm::Compiled;
use fuba_tests::{Agents, assert_plays_same, edition, every_2024_option, layer, scores_agree};
use proptest::prelude::*;

/// How many decision sites of `rs` keep their scores.
fn kept_sites(rs: &Ruleset) -> usize {
    rs.program()
        .decisions
        .iter()
        .filter(|d| d.keep.is_some())
        .count()
}

fn assert_same(rs: &Ruleset, seeds: std::ops::Range<u64>) {
    assert_plays_same(rs, seeds, Agents::Heuristic, true, |m, on| {
        m.m.set_native(false);
        m.m.set_keep_scores(on)
    });
}

#[test]
fn every_edition_plays_the_same_with_and_without_kept_scores() {
    for name in ["original", "2015", "2024"] {
        let rs = edition(name);
        assert!(kept_sites(&rs) > 0, "{name}: no decision keeps its scores");
        assert_same(&rs, 0..3);
    }
}

#[test]
fn the_2024_advanced_rules_play_the_same_with_and_without_kept_scores() {
    assert_same(&every_2024_option(), 0..2);
}

/// [`scores_agree`] against a copy that keeps no scores.
fn kept_agree(rs: &Ruleset, seed: u64) -> Result<usize, TestCaseError> {
    scores_agree(rs, seed, closures, |m| {
        closures(m);
        m.set_keep_scores(false)
    })
    .map_err(TestCaseError::fail)
}

/// A match scoring with closures, which keeps scores.
fn closures(m: &mut fuba_engine::vm::Match<'_>) {
    m.set_native(false)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(4))]

    #[test]
    fn kept_scores_are_the_scores_worked_out_afresh(seed in any::<u64>(), which in 0usize..3) {
        let name = ["original", "2015", "2024"][which];
        let scored = kept_agree(&edition(name), seed)?;
        prop_assert!(scored > 100, "{}: only {} decisions scored", name, scored);
    }
}

#[test]
fn kept_scores_of_the_2024_advanced_rules_are_the_scores_worked_out_afresh() {
    let rs = every_2024_option();
    kept_agree(&rs, 11).unwrap();
}

/// The original edition with the movement's score `score` (of `t` and the move `m`).
fn with_move_score(name: &str, score: &str) -> Ruleset {
    let text = format!(
        r#"
[meta]
extends = "original.toml"

[procedures.move_preference]
section = "bot"
params = "t: team, m: move"
do = '''
{score}
'''
"#
    );
    layer(name, &text)
}

/// Whether the decisions named `kind` keep their scores.
fn keeps(rs: &Ruleset, kind: &str) -> Vec<bool> {
    rs.program()
        .decisions
        .iter()
        .filter(|d| rs.symbol(d.kind) == kind)
        .map(|d| d.keep.is_some())
        .collect()
}

#[test]
fn only_scores_that_read_nothing_of_the_match_per_option_are_kept() {
    // The board's geometry, the team and the ball's area (worked out once per offer).
    let kept = with_move_score(
        "kept-geometry",
        "let b = ball_area()\nif distance(m.to, b) < distance(m.from, b) { 1 } else { 0 }",
    );
    assert_eq!(keeps(&kept, "move"), [true]);
    // The pieces in the move's end area: the match, read for each option.
    let counted = with_move_score(
        "kept-counted",
        "count(t, m.to) + if m.keeper { 1 } else { 0 }",
    );
    assert_eq!(keeps(&counted, "move"), [false]);
    // The ball's value does not depend on the option: worked out once per offer, and
    // compared before a kept score is taken.
    let valued = with_move_score(
        "kept-valued",
        "if m.to in closer(m.from, t) { ball_value() } else { 0 }",
    );
    assert_eq!(keeps(&valued, "move"), [true]);
    kept_agree(&valued, 3).unwrap();
}

#[test]
fn a_hoisted_part_read_behind_another_is_compared_only_where_that_one_holds() {
    // `t == ct and m.from == b and count(t, b) == 1`: the count is read only where the
    // team controls the ball.
    let rs = edition("original");
    let guarded: Vec<bool> = rs
        .program()
        .decisions
        .iter()
        .filter(|d| rs.symbol(d.kind) == "move")
        .map(|d| d.keep.as_ref().is_some_and(|k| !k.guards.is_empty()))
        .collect();
    assert_eq!(guarded, [true]);
    let rs = with_move_score(
        "kept-guarded",
        "let b = ball_area()\nif ball_value() > 2 and m.to == b and count(t, b) > 1 { 1 } else { 0 }",
    );
    let guards = |rs: &Ruleset| {
        rs.program()
            .decisions
            .iter()
            .filter(|d| rs.symbol(d.kind) == "move")
            .map(|d| d.keep.as_ref().map_or(0, |k| k.guards.len()))
            .collect::<Vec<_>>()
    };
    assert_eq!(guards(&rs), [1]);
    kept_agree(&rs, 5).unwrap();
}
