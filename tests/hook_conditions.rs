//! A trigger's condition of one expression is tested in its hook's dispatch, and a call in
//! it of a pure procedure that is not inlined has the procedure's first plain tests worked
//! out there first (`engine/src/vm/lower/hook_when.rs`): the procedure is entered only
//! when they hold, yet counted as called every time the condition asks for it, and the
//! match plays the same with direct expressions on and off.

use fuba_engine::ruleset::Ruleset;
use fuba_tests::{Agents, assert_plays_same, layer, seeded_match};

/// A layer of the 2024 edition: at each turn's start a trigger asks `guarded(team)`, a
/// pure procedure that is not inlined (it calls one that leaves early) and starts with a
/// plain test; another trigger counts how often the hook asks.
fn guarded_layer() -> Ruleset {
    let text = EARLY.to_string()
        + r#"
[procedures.asked]
params = "t: team"
do = 't == t'

[procedures.guarded]
params = "t: team"
do = 'ball_value() > 2 and early(t) > 0'

[triggers.counted]
hook = "turn_start"
when = 'asked(team)'
do = '0'

[triggers.guarded_trigger]
hook = "turn_start"
when = 'guarded(team) and half() > 0'
do = '0'
"#;
    layer("hook-conditions-layer", &text)
}

/// The start of both layers: a procedure that leaves early (so that it is not inlined).
const EARLY: &str = r#"
[meta]
extends = "2024.toml"

[procedures.early]
params = "t: team"
do = '''
if ball_value() > 3 { return 1 }
0
'''
"#;

fn proc_index(rs: &Ruleset, name: &str) -> usize {
    rs.procs.iter().position(|p| p.name == name).unwrap()
}

#[test]
fn a_guarded_call_in_a_condition_counts_as_called_and_plays_the_same() {
    let rs = guarded_layer();
    let (asked, guarded, early) = (
        proc_index(&rs, "asked"),
        proc_index(&rs, "guarded"),
        proc_index(&rs, "early"),
    );
    let trigger = rs
        .triggers
        .iter()
        .position(|t| t.name == "guarded_trigger")
        .unwrap();
    for seed in 0..3 {
        let mut m = seeded_match(&rs, seed, Agents::Random);
        m.play().unwrap();
        let c = &m.m.counters;
        assert!(c.procs[asked] > 0, "seed {seed}: the hook was never asked");
        // Counted at every ask, entered only when its first tests hold.
        assert_eq!(c.procs[guarded], c.procs[asked], "seed {seed}");
        assert!(
            c.procs[early] > 0 && c.procs[early] < c.procs[guarded],
            "seed {seed}"
        );
        assert!(c.triggers[trigger] > 0 && c.triggers[trigger] <= c.procs[early]);
    }
    assert_plays_same(&rs, 0..3, Agents::Random, true, |m, on| m.m.set_direct(on));
}

/// A layer of the 2024 edition with triggers on `pass_value_modifier` (asked for every
/// candidate target of a pass, inside an expression) whose conditions are not plain as a
/// whole: a plain test before a call that is not inlined, and a call with a guard first.
/// The hook's call is then worked out without entering the dispatch while those first
/// tests are false (`engine/src/vm/lower/direct_hook.rs`).
fn prefixed_layer() -> Ruleset {
    let text = EARLY.to_string()
        + r#"
[procedures.guarded]
params = "t: team, a: area"
do = 'ball_value() > 2 and count(t, a) > 0 and early(t) > 0'

[triggers.plain_first]
hook = "pass_value_modifier"
when = 'start == target and early(team) > 0'
do = '1'

[triggers.guard_first]
hook = "pass_value_modifier"
when = 'guarded(other(team), target) and start != target'
do = '-1'
"#;
    layer("hook-prefix-layer", &text)
}

#[test]
fn a_condition_whose_first_tests_are_plain_counts_and_plays_the_same() {
    let rs = prefixed_layer();
    let (guarded, early) = (proc_index(&rs, "guarded"), proc_index(&rs, "early"));
    let fired = |name: &str| rs.triggers.iter().position(|t| t.name == name).unwrap();
    let (plain_first, guard_first) = (fired("plain_first"), fired("guard_first"));
    let mut seen = [0u32; 4];
    for seed in 0..4 {
        let mut m = seeded_match(&rs, seed, Agents::Random);
        m.play().unwrap();
        let c = &m.m.counters;
        // The guarded call is counted at every candidate target, entered only when its
        // first tests hold, and `early` only when the guard's or the plain test's hold.
        assert!(c.procs[guarded] > c.procs[early], "seed {seed}");
        seen[0] += c.procs[guarded];
        seen[1] += c.procs[early];
        seen[2] += c.triggers[plain_first];
        seen[3] += c.triggers[guard_first];
    }
    assert!(seen.iter().all(|&n| n > 0), "each path taken: {seen:?}");
    assert_plays_same(&rs, 0..4, Agents::Random, true, |m, on| m.m.set_direct(on));
    assert_plays_same(&rs, 0..2, Agents::Heuristic, true, |m, on| {
        m.m.set_direct(on)
    });
}
