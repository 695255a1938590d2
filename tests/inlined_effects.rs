//! Procedures with effects (moves, `emit`, `set`, a `choose`, modifier lists) small enough
//! are lowered into their callers (`fuba_engine::vm` `inline`), their instructions marked
//! with their rule: with them inlined or called, every edition plays the same seeded
//! matches event for event (each event under the same rule), with the same counters, the
//! same notes for `explain`, and a run-time error inside one reads the same.

use fuba_engine::ruleset::Ruleset;
use fuba_engine::value::Value;
use fuba_engine::vm::lower::compile_calling_effects;
use fuba_engine::vm::{Compiled, Match};
use fuba_tests::{Agents, assert_same_counters, edition, every_2024_option, layer, seeded_match};

/// The ruleset with its procedures with effects called, not inlined.
fn calling(rs: &Ruleset) -> Ruleset {
    let mut plain = rs.clone();
    plain.set_program(compile_calling_effects(rs));
    plain
}

/// Plays seeded matches of `rs` inlined and called: the same log, counters (but the
/// operations: an inlined call counts none) and `explain` notes.
fn assert_same(rs: &Ruleset, seeds: std::ops::Range<u64>, agents: Agents) {
    assert!(
        rs.program().rule_marks.len() > 1,
        "{}: no procedure with effects is inlined",
        rs.name
    );
    let called = calling(rs);
    assert_eq!(called.program().rule_marks.len(), 1);
    for seed in seeds {
        let run = |rs: &Ruleset| {
            let mut m = seeded_match(rs, seed, agents).with_log();
            m.m.keep_modifier_args();
            if let Err(e) = m.play() {
                panic!("seed {seed}: {e}");
            }
            (
                m.events().to_vec(),
                m.m.counters.clone(),
                m.m.modifier_args().to_vec(),
            )
        };
        let (log, c, notes) = run(rs);
        let (log_called, c_called, notes_called) = run(&called);
        let what = format!("{} seed {seed} {agents:?}", rs.name);
        assert!(!log.is_empty());
        assert_eq!(log, log_called, "{what}: the log differs");
        assert_eq!(notes, notes_called, "{what}: explain's notes differ");
        // An inlined call counts no operation, a called one one.
        assert_same_counters(&what, &c, &c_called, false);
    }
}

#[test]
fn every_edition_plays_the_same_with_procedures_with_effects_inlined_or_called() {
    for name in ["original", "2015", "2024"] {
        let rs = edition(name);
        assert_same(&rs, 0..4, Agents::Random);
        assert_same(&rs, 0..2, Agents::Heuristic);
    }
}

#[test]
fn the_2024_advanced_rules_play_the_same_inlined_or_called() {
    let rs = every_2024_option();
    assert_same(&rs, 0..3, Agents::Random);
    assert_same(&rs, 0..2, Agents::Heuristic);
}

/// A layer whose procedure `inner` has an effect (an event) and then fails, and whose
/// `guarded` returns early, before and after an effect.
fn failing_layer() -> Ruleset {
    let text = r#"
[meta]
extends = "original.toml"

[procedures.outer]
params = "a: int"
do = "inner(a) + 1"

[procedures.inner]
params = "a: int"
do = '''
emit "kick-off" { team: home }
10 / a
'''

[procedures.twice_guarded]
params = "a: int"
do = "guarded(a) * 2"

[procedures.guarded]
params = "a: int"
do = '''
if a > 3 {
  return a
}
emit "kick-off" { team: home }
if a > 1 {
  emit "kick-off" { team: away }
  return 10
}
20
'''
"#;
    layer("inlined-failing-layer", text)
}

#[test]
fn an_error_in_an_inlined_procedure_names_its_rule_and_call_chain_as_a_call_does() {
    let rs = failing_layer();
    let idx = |name: &str| rs.procs.iter().position(|p| p.name == name).unwrap() as u16;
    let run = |rs: &Ruleset| {
        let mut m = Match::new(rs, 1);
        m.call(idx("outer"), vec![Value::Int(0)])
    };
    let inlined = run(&rs).expect_err("10 / 0 fails");
    let called = run(&calling(&rs)).expect_err("10 / 0 fails");
    assert_eq!(inlined, called);
    assert_eq!(inlined.rule, "procedures.inner");
    assert_eq!(inlined.chain, ["procedures.outer", "procedures.inner"]);
    assert!(inlined.message.contains("division by zero"), "{inlined}");
    // And it was inlined: the call of `inner` is marked, not entered.
    let prog = rs.program();
    let rules: Vec<&str> = (prog.rule_marks.iter().flat_map(|m| m.rules.iter()))
        .map(|&u| rs.units[u as usize].rule.as_str())
        .collect();
    assert!(rules.contains(&"procedures.inner"), "{rules:?}");
    let ok = Match::new(&rs, 1).call(idx("outer"), vec![Value::Int(5)]);
    assert_eq!(ok, Ok(Value::Int(3)));
}

#[test]
fn an_inlined_procedure_returns_early_to_its_caller() {
    let rs = failing_layer();
    let idx = |name: &str| rs.procs.iter().position(|p| p.name == name).unwrap() as u16;
    let called = calling(&rs);
    for (a, want) in [(5, 10), (2, 20), (0, 40)] {
        let run = |rs: &Ruleset| Match::new(rs, 1).call(idx("twice_guarded"), vec![Value::Int(a)]);
        assert_eq!(run(&rs), Ok(Value::Int(want)), "twice_guarded({a})");
        assert_eq!(
            run(&called),
            Ok(Value::Int(want)),
            "twice_guarded({a}), called"
        );
    }
    let rules: Vec<&str> = (rs.program().rule_marks.iter().flat_map(|m| m.rules.iter()))
        .map(|&u| rs.units[u as usize].rule.as_str())
        .collect();
    assert!(rules.contains(&"procedures.guarded"), "{rules:?}");
}
