//! Loops and `prefer` scores compiled to machine code (`fuba_engine::vm` `native`, through
//! `fuba-native`) are only a speed-up: with them on or off (their closures run instead),
//! every edition plays the same seeded matches event for event, with the same counters and
//! operations, with random agents and with heuristic ones, and every decision's scores are
//! the closures'.

use fuba_engine::log::EventKind;
use fuba_engine::ruleset::Ruleset;
use fuba_engine::vm::Compiled;
use fuba_tests::{
    Agents, assert_plays_same, assert_same_counters, edition, every_2024_option, layer,
    scores_agree, seeded_match,
};

fn assert_same(rs: &Ruleset, seeds: std::ops::Range<u64>, agents: Agents) {
    assert_plays_same(rs, seeds, agents, true, |m, on| m.m.set_native(on));
}

/// Whether this machine has a code generator (Cranelift's hosts).
fn has_codegen() -> bool {
    cfg!(any(target_arch = "x86_64", target_arch = "aarch64"))
}

#[test]
fn every_edition_plays_the_same_with_and_without_machine_code() {
    for name in ["original", "2015", "2024"] {
        let rs = edition(name);
        assert_same(&rs, 0..6, Agents::Random);
        assert_same(&rs, 0..3, Agents::Heuristic);
    }
}

#[test]
fn the_2024_advanced_rules_play_the_same_with_and_without_machine_code() {
    let rs = every_2024_option();
    assert_same(&rs, 0..4, Agents::Random);
    assert_same(&rs, 0..2, Agents::Heuristic);
}

#[test]
fn the_editions_hot_loops_have_machine_code() {
    if !has_codegen() || std::env::var_os("FUBA_NO_NATIVE").is_some() {
        return;
    }
    // The loops gathering a team's moves area by area: the original edition's movements
    // (`movement_moves`, `free_movements`, `quick_movement`) and 2015's. Most of 2015's
    // have no closures (`option_dests` asks `slide`; areas from a procedure that is not
    // inlined): they run as machine code only.
    for (name, least) in [("original", 9), ("2015", 17), ("2024", 14)] {
        let n = edition(name).program().native_count();
        assert!(n >= least, "{name}: only {n} loops as machine code");
    }
}

/// At every decision of seeded matches, the scores with machine code (and kept scores)
/// are those of a copy whose closures score every option.
#[test]
fn scores_as_machine_code_are_the_closures_scores() {
    let closures = |m: &mut fuba_engine::vm::Match<'_>| {
        m.set_native(false);
        m.set_keep_scores(false);
    };
    for (name, seed) in [("original", 3), ("2015", 4), ("2024", 5)] {
        let scored = scores_agree(&edition(name), seed, |_| {}, closures).unwrap();
        assert!(scored > 100, "{name}: only {scored} decisions scored");
    }
    scores_agree(&every_2024_option(), 6, |_| {}, closures).unwrap();
}

/// A score whose machine code works out the parts the closures hoist itself leaves them
/// to be worked out only if the closures score an option. Here the pass target's score
/// reads the turn's modifier area, not set yet when the target is chosen: the machine code
/// cannot read it, so the closures score every option, having worked the parts out first.
#[test]
fn scores_the_closures_take_over_read_their_hoisted_parts_afresh() {
    let rs = layer(
        "native-own-parts",
        r#"
[meta]
extends = "original.toml"

[procedures.pass_preference]
section = "bot"
params = "a: area"
do = '''
let kept = clamp(6 - (ball_value() - control_modifiers(start, a, a)), 0, 6)
let progress = size(closer(a, pt))
let shooting = if entirely_in_half(a, pt) { 4 } else { 0 }
3 * kept + progress + shooting + (if mod_area == a { 1 } else { 0 })
'''
"#,
    );
    assert_same(&rs, 0..3, Agents::Heuristic);
    let closures = |m: &mut fuba_engine::vm::Match<'_>| {
        m.set_native(false);
        m.set_keep_scores(false);
    };
    let scored = scores_agree(&rs, 3, |_| {}, closures).unwrap();
    assert!(scored > 100, "only {scored} decisions scored");
}

#[test]
fn the_original_editions_scores_have_machine_code() {
    if !has_codegen() || std::env::var_os("FUBA_NO_NATIVE").is_some() {
        return;
    }
    // The moves' scores (`move_preference`: the movement, free and quick moves) and the
    // pass targets' (`pass_preference`, with its control-check modifier list).
    let rs = edition("original");
    let n = rs.program().native_score_count(&rs);
    assert!(n >= 4, "original: only {n} scores as machine code");
}

/// A modifier list inside a loop that gathers moves is logged row by row (by the stack
/// code), so machine code never sums one there: the loop plays the same with machine code
/// on or off, and the list's rows are in the log.
#[test]
fn a_modifier_list_in_a_moves_loop_is_logged_as_without_machine_code() {
    let rs = layer(
        "native-loop-modifiers",
        r#"
[meta]
extends = "original.toml"

[procedures.movement_moves]
params = "t: team, option: str, off: areas"
do = '''
let ms = no_moves()
let guard = goal_kick_guard(t)
for a in field_areas(t) {
  let reach = modifiers "reach" { "by the ball": 1 when a == ball_area(), "elsewhere": 0 }
  if reach >= 0 {
    set ms = ms | moves(t, a, option_dests(t, option, a, off) - guard)
  }
}
if not keeper_moved(t) {
  set ms = ms | keeper_moves(t, option_dests(t, option, keeper_area(t), off) - guard)
}
ms
'''
"#,
    );
    assert_same(&rs, 0..3, Agents::Random);
    let mut m = seeded_match(&rs, 1, Agents::Random).with_log();
    m.play().unwrap();
    let reach = (m.events().iter())
        .filter(|e| matches!(&e.kind, EventKind::Modifiers { name, .. } if name == "reach"))
        .count();
    assert!(reach > 10, "only {reach} lists logged");
}

/// A loop whose machine code calls a remembered procedure (one with a loop of its own,
/// never inlined: the match runs it on the stack machine) and then gives up — it finds
/// more moves than it keeps aside when the team stands in eight areas or more — leaves
/// the match as if it had never run: its stack code runs from the same counts and the
/// same memo, so the matches play the same with machine code on and off, counters and
/// operations included.
#[test]
fn a_loop_that_calls_a_remembered_procedure_and_gives_up_plays_the_same() {
    let rs = layer(
        "native-loop-calls",
        &r#"
[meta]
extends = "original.toml"

[procedures.far_side]
section = "test"
params = "t: team"
do = '''
# Nothing: every area is in a half or the centre, and none of them is both.
let s = []
for a in all_areas() {
  if entirely_in_half(a, other(t)) and entirely_in_half(a, t) { set s = s | a }
}
s
'''

[procedures.movement_moves]
params = "t: team, option: str, off: areas"
do = '''
let ms = no_moves()
let guard = goal_kick_guard(t)
for a in field_areas(t) {
  let d = option_dests(t, option, a, off) - guard - far_side(t)
ADDS
}
if not keeper_moved(t) {
  set ms = ms | keeper_moves(t, option_dests(t, option, keeper_area(t), off) - guard)
}
ms
'''
"#
        // Sixteen additions a round: a team in eight areas finds more than 128 moves.
        .replace("ADDS\n", &"  set ms = ms | moves(t, a, d)\n".repeat(16)),
    );
    if has_codegen() && std::env::var_os("FUBA_NO_NATIVE").is_none() {
        let n = rs.program().native_count();
        assert!(n >= 9, "only {n} loops as machine code");
    }
    assert_same(&rs, 0..4, Agents::Random);
}

/// The tests above play with the log on, and a loop whose machine code sums a modifier
/// list (2024's pass targets, each tested against the pass modifiers) runs its stack code
/// while the match logs. Played without a log, with machine code on and off, the matches
/// end the same and count the same, operations included.
#[test]
fn unlogged_2024_matches_count_the_same_with_and_without_machine_code() {
    // A trigger that often holds on a hook the pass targets' machine code asks: the code
    // gives up to the stack code, which runs the trigger (+1 where the team has a player).
    let answered = layer(
        "native-hook-answered",
        r#"
[meta]
extends = "2024.toml"

[triggers.crowded_target]
section = "test"
hook = "pass_value_modifier"
when = 'count(team, target) > 1'
do = '1'
"#,
    );
    for rs in [edition("2024"), every_2024_option(), answered] {
        for seed in 0..4 {
            let run = |on: bool| {
                let mut g = seeded_match(&rs, seed, Agents::Random);
                g.m.set_native(on);
                let outcome = g.play().unwrap_or_else(|e| panic!("seed {seed}: {e}"));
                ((outcome.score, outcome.turns), g.m.counters.clone())
            };
            let (outcome_on, on) = run(true);
            let (outcome_off, off) = run(false);
            let what = format!("{} seed {seed}, no log", rs.name);
            assert_eq!(outcome_on, outcome_off, "{what}: the outcome differs");
            assert_same_counters(&what, &on, &off, true);
        }
    }
}
