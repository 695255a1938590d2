//! `prefer` scores kept from one offer of a decision to the next (`fuba_engine::vm`
//! `kept`, proved possible by `lower/hoist.rs`) are only a speed-up: at every decision of
//! seeded matches the scores a keeping match gives are those of a copy that scores every
//! option afresh; with keeping on or off every edition plays the same heuristic matches
//! event for event with the same counters; and a score that reads the match for each
//! option is never kept.

use fuba_engine::dice::{DiceSource, SeededDice};
use fuba_engine::ruleset::Ruleset;
use fuba_engine::vm::{Match, Status};
use fuba_tests::{Agents, assert_plays_same, edition, every_2024_option, layer};
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

/// Plays a match of `rs` (seed `seed`) choosing a best-scored option (ties by a number
/// drawn from the seed), and at every decision compares the scores of the match, which
/// keeps them from one offer to the next, with those of a copy that keeps none. Returns
/// how many decisions had scores.
fn scores_agree(rs: &Ruleset, seed: u64) -> Result<usize, TestCaseError> {
    let mut m = Match::new(rs, seed);
    let mut dice = SeededDice::new(seed);
    let mut pick = seed | 1;
    let mut scored = 0;
    loop {
        match m
            .advance()
            .map_err(|e| TestCaseError::fail(e.to_string()))?
        {
            Status::Decision => {
                let hints = m.hints().map_err(|e| TestCaseError::fail(e.to_string()))?;
                let mut fresh = m.clone();
                fresh.set_keep_scores(false);
                let afresh = fresh
                    .hints()
                    .map_err(|e| TestCaseError::fail(e.to_string()))?;
                prop_assert_eq!(&hints, &afresh, "seed {} decision {}", seed, scored);
                let n = m.decision().map_or(0, |d| d.options.len());
                let choice = if hints.is_empty() {
                    0
                } else {
                    scored += 1;
                    let best = hints.iter().copied().max().unwrap_or(0);
                    let ties: Vec<usize> = (0..n).filter(|i| hints[*i] == best).collect();
                    pick = pick
                        .wrapping_mul(6364136223846793005)
                        .wrapping_add(1442695040888963407);
                    ties[(pick >> 33) as usize % ties.len()]
                };
                m.choose(choice)
                    .map_err(|e| TestCaseError::fail(e.to_string()))?;
            }
            Status::Chance => {
                let c = m.chance().expect("a roll is waiting");
                let label = rs.symbol(c.label).to_string();
                let rolled: Vec<u8> = (0..c.count)
                    .map(|_| dice.roll(c.sides, &label).expect("a die"))
                    .collect();
                m.roll(&rolled)
                    .map_err(|e| TestCaseError::fail(e.to_string()))?;
            }
            Status::Boundary => {}
            Status::End => return Ok(scored),
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(4))]

    #[test]
    fn kept_scores_are_the_scores_worked_out_afresh(seed in any::<u64>(), which in 0usize..3) {
        let name = ["original", "2015", "2024"][which];
        let scored = scores_agree(&edition(name), seed)?;
        prop_assert!(scored > 100, "{}: only {} decisions scored", name, scored);
    }
}

#[test]
fn kept_scores_of_the_2024_advanced_rules_are_the_scores_worked_out_afresh() {
    let rs = every_2024_option();
    scores_agree(&rs, 11).unwrap();
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
    scores_agree(&valued, 3).unwrap();
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
    scores_agree(&rs, 5).unwrap();
}
