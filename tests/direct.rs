//! Plain expressions worked out directly by closures (`fuba_engine::vm` `direct`) are only
//! a speed-up: with them on or off (their stack code run instead), every edition plays
//! the same seeded matches event for event, with the same counters and operations, with
//! random agents and with heuristic ones (whose `prefer` scores are mostly direct
//! expressions); and an expression that fails (an overflow, a division by zero) fails the
//! same way, with the same message and place.

use fuba_engine::ruleset::Ruleset;
use fuba_engine::value::Value;
use fuba_engine::vm::Compiled;
use fuba_tests::{Agents, assert_plays_same, call_proc, edition, every_2024_option, layer};

fn assert_same(rs: &Ruleset, seeds: std::ops::Range<u64>, agents: Agents) {
    assert_plays_same(rs, seeds, agents, true, |m, on| m.m.set_direct(on));
}

#[test]
fn every_edition_plays_the_same_with_and_without_direct_expressions() {
    for name in ["original", "2015", "2024"] {
        let rs = edition(name);
        let n = rs.program().direct_count();
        assert!(n > 50, "{name}: only {n} direct expressions");
        assert_same(&rs, 0..6, Agents::Random);
        assert_same(&rs, 0..3, Agents::Heuristic);
    }
}

#[test]
fn the_2024_advanced_rules_play_the_same_with_and_without_direct_expressions() {
    let rs = every_2024_option();
    assert_same(&rs, 0..4, Agents::Random);
    assert_same(&rs, 0..2, Agents::Heuristic);
}

/// A layer of the original edition with procedures whose direct expressions fail.
fn failing_layer() -> Ruleset {
    let text = r#"
[meta]
extends = "original.toml"

[procedures.product_plus]
params = "a: int, b: int"
do = "a * b + a - b"

[procedures.ratio_check]
params = "a: int, b: int"
do = '''
if a / b + a > 3 and b > 0 { 1 } else { 2 }
'''
"#;
    layer("direct-failing-layer", text)
}

/// Calls procedure `name` of `rs` with integer arguments, direct expressions on or off.
fn call(rs: &Ruleset, name: &str, args: &[i64], direct: bool) -> Result<Value, String> {
    call_proc(
        rs,
        name,
        args.iter().map(|a| Value::Int(*a)).collect(),
        direct,
    )
}

#[test]
fn a_direct_expression_that_fails_fails_as_its_stack_code_does() {
    let rs = failing_layer();
    let base = edition("original").program().direct_count();
    // Both procedures' expressions are direct ones (two more than the edition's).
    assert_eq!(rs.program().direct_count(), base + 2);
    let cases: [(&str, [i64; 2]); 5] = [
        ("product_plus", [6, 7]),
        ("product_plus", [i64::MAX, 2]),
        ("ratio_check", [7, 2]),
        ("ratio_check", [7, 0]),
        ("ratio_check", [i64::MIN, -1]),
    ];
    let mut failures = 0;
    for (name, args) in cases {
        let on = call(&rs, name, &args, true);
        let off = call(&rs, name, &args, false);
        assert_eq!(on, off, "{name}{args:?}");
        failures += usize::from(on.is_err());
    }
    // The overflows and the division by zero are errors: the give-up path was taken.
    assert_eq!(failures, 3, "expected three failing calls");
    assert_eq!(call(&rs, "product_plus", &[6, 7], true), Ok(Value::Int(41)));
    let zero = call(&rs, "ratio_check", &[7, 0], true).unwrap_err();
    assert!(zero.starts_with("division by zero at "), "{zero}");
    assert!(zero.contains("direct-failing-layer.toml:12:"), "{zero}");
}

/// A layer whose direct block has `let`s that cannot fail (sunk: worked out only where
/// read) beside one that can.
fn sunk_layer() -> Ruleset {
    let text = r#"
[meta]
extends = "original.toml"

[procedures.sunk_lets]
params = "a: int, b: int"
do = '''
if b != 0 {
  let near = a < b
  let far = max(a, b) > 10 and not near
  let q = a / b
  if a > 100 { 3 } else if near { q } else if far { 1 } else { 2 }
} else { 0 }
'''
"#;
    layer("direct-sunk-layer", text)
}

#[test]
fn sunk_lets_give_what_the_stack_code_gives() {
    let rs = sunk_layer();
    let cases: [[i64; 2]; 6] = [[1, 2], [20, 3], [7, 5], [101, 1], [i64::MIN, -1], [3, 0]];
    for args in cases {
        let on = call(&rs, "sunk_lets", &args, true);
        let off = call(&rs, "sunk_lets", &args, false);
        assert_eq!(on, off, "sunk_lets{args:?}");
    }
    assert_eq!(call(&rs, "sunk_lets", &[20, 3], true), Ok(Value::Int(1)));
    assert!(call(&rs, "sunk_lets", &[i64::MIN, -1], true).is_err());
}

/// A layer with expressions the direct closures took only lately: a `match` on a name
/// outside a loop (looked up in a table of names), an `if` with an area in one branch and
/// a set in the other read as a set, and a `match` that no arm fits.
fn names_layer() -> Ruleset {
    let text = r#"
[meta]
extends = "original.toml"

[procedures.zone_points]
params = "z: str, a: int"
do = '''
match z { "defence" => a + 1, "midfield" | "middle" => a * 2, "defence" => 0, "attack" => a - 1 } * 3 + a
'''

[procedures.zone_or_any]
params = "z: str, a: int"
do = '''
match z { "attack" => a * a, _ => a + 100 } - match z { "defence" => 1, _ => 2 }
'''

[procedures.held_here]
params = "a: int, x: area"
do = '''
if x in (if a > 0 { x } else { [] }) | mark("box", home) { a * 2 + 1 } else { a - 1 }
'''
"#;
    layer("direct-names-layer", text)
}

#[test]
fn matches_on_names_and_widened_areas_give_what_the_stack_code_gives() {
    let rs = names_layer();
    let base = edition("original").program().direct_count();
    // Each procedure's expression is one direct expression.
    assert_eq!(rs.program().direct_count(), base + 3);
    let name = |s: &str| Value::Str(rs.sym(s).unwrap_or_else(|| panic!("no symbol {s}")));
    let cases = [
        ("zone_points", "defence", 4, Ok(Value::Int(19))),
        ("zone_points", "middle", 4, Ok(Value::Int(28))),
        ("zone_points", "attack", i64::MAX, Err(())),
        ("zone_points", "left", 4, Err(())),
        ("zone_or_any", "attack", 5, Ok(Value::Int(23))),
        ("zone_or_any", "defence", 5, Ok(Value::Int(104))),
    ];
    for (proc, z, a, want) in cases {
        let args = || vec![name(z), Value::Int(a)];
        let on = call_proc(&rs, proc, args(), true);
        let off = call_proc(&rs, proc, args(), false);
        assert_eq!(on, off, "{proc}({z}, {a})");
        assert_eq!(on.clone().map_err(|_| ()), want, "{proc}({z}, {a}): {on:?}");
    }
    let mut held = 0;
    for (a, x) in [-3, 0, 4]
        .into_iter()
        .flat_map(|a| (0..8).map(move |x| (a, x)))
    {
        let args = || vec![Value::Int(a), Value::Area(x)];
        let on = call_proc(&rs, "held_here", args(), true);
        let off = call_proc(&rs, "held_here", args(), false);
        assert_eq!(on, off, "held_here({a}, {x})");
        held += usize::from(on == Ok(Value::Int(a * 2 + 1)));
    }
    // Every area is held for a positive `a`; some are not for the others.
    assert!((8..24).contains(&held), "{held} held");
}
