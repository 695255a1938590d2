//! Layered rulesets: `extends`, overrides, `remove`, and their diagnostics.

use fuba_engine::load::load_file;
use fuba_engine::value::Value;
use fuba_tests::{Agents, root, seeded_match};

fn fixture(name: &str) -> std::path::PathBuf {
    root().join("tests/fixtures/layers").join(name)
}

/// The diagnostics of a fixture, with the repository's absolute path made relative.
fn errors(name: &str) -> String {
    match load_file(&fixture(name)) {
        Ok(_) => panic!("{name} loaded, but it is meant to fail"),
        Err(e) => {
            let base = root().join("tests/fixtures/layers/");
            e.to_string()
                .replace(&base.display().to_string(), "")
                .replace(&root().display().to_string(), "<repo>")
        }
    }
}

#[test]
fn every_example_house_rule_loads() {
    let dir = root().join("rulesets/examples");
    let mut n = 0;
    for entry in std::fs::read_dir(&dir).unwrap_or_else(|e| panic!("{e}")) {
        let p = entry.unwrap_or_else(|e| panic!("{e}")).path();
        if p.extension().is_some_and(|x| x == "toml") {
            let rs = load_file(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
            assert!(!rs.name.is_empty());
            // A shipped example checks clean: `fuba rules check --deny warnings` passes.
            let warnings: Vec<String> = rs.warnings.iter().map(|w| w.to_string()).collect();
            assert!(
                warnings.is_empty(),
                "{}:\n{}",
                p.display(),
                warnings.join("\n")
            );
            n += 1;
        }
    }
    assert!(
        n >= 3,
        "rulesets/examples holds {n} house rules; at least three are expected"
    );
}

#[test]
fn a_layer_overrides_a_constant_and_layers_stack() {
    let rs = load_file(&fixture("two_layers.toml")).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(rs.name, "two-layers");
    // From the middle layer (gentle-long-pass.toml) and from the top layer.
    assert_eq!(
        rs.constant("long_pass_per_area").map(|c| c.0),
        Some(Value::Int(-1))
    );
    assert_eq!(
        rs.constant("kickoff_ball").map(|c| c.0),
        Some(Value::Int(2))
    );
    // Everything else comes from the bottom layer.
    assert!(rs.table("special_event").is_some());
}

#[test]
fn a_layer_replaces_table_rows_one_by_one() {
    let rs = load_file(&root().join("rulesets/examples/cautious-referee.toml"))
        .unwrap_or_else(|e| panic!("{e}"));
    let t = &rs.tables[rs
        .table("special_event")
        .unwrap_or_else(|| panic!("no table")) as usize];
    let label = |k: &str| {
        t.rows
            .iter()
            .find(|r| r.key == k)
            .map(|r| r.label.clone())
            .unwrap_or_default()
    };
    assert!(label("1").contains("no card"), "{}", label("1"));
    assert!(
        label("2").contains("Free kick for the passive team"),
        "row 2 comes from the original: {}",
        label("2")
    );
    assert_eq!(t.rows.len(), 6);
}

#[test]
fn removing_something_still_used_names_both_places() {
    let e = errors("removes_used.toml");
    // Every use gets its error: `twice` is called eight times in `control_modifiers`.
    assert_eq!(e.matches("procedure `twice` was removed").count(), 8, "{e}");
    insta::assert_snapshot!(e);
}

#[test]
fn extends_in_a_circle_is_an_error() {
    insta::assert_snapshot!(errors("cycle_a.toml"));
}

#[test]
fn an_unknown_parent_is_an_error() {
    insta::assert_snapshot!(errors("unknown_parent.toml"));
}

#[test]
fn removing_what_is_not_there_is_an_error() {
    insta::assert_snapshot!(errors("remove_missing.toml"));
}

#[test]
fn an_error_in_a_layer_points_into_that_layer() {
    let e = errors("bad_row.toml");
    assert!(e.contains("bad_row.toml:6:"), "{e}");
    insta::assert_snapshot!(e);
}

fn play(rs: &fuba_engine::ruleset::Ruleset, seed: u64) -> (Vec<String>, fuba_engine::vm::Counters) {
    let mut m = seeded_match(rs, seed, Agents::Random).with_log();
    m.play().unwrap_or_else(|e| panic!("{e}"));
    let lines = m
        .events()
        .iter()
        .filter_map(|e| fuba_engine::log::narrate(rs, e, false))
        .collect();
    (lines, m.m.counters.clone())
}

/// A trigger attached by a layer to a hook of the edition fires and changes seeded
/// matches, with no change to Rust.
#[test]
fn a_trigger_on_a_hook_changes_seeded_matches() {
    let base = fuba_tests::edition("original");
    let house = load_file(&root().join("rulesets/examples/home-advantage.toml"))
        .unwrap_or_else(|e| panic!("{e}"));
    let trigger = house
        .triggers
        .iter()
        .position(|t| t.name == "home_crowd")
        .unwrap_or_else(|| panic!("no trigger"));
    let mut fired = 0;
    let mut changed = 0;
    for seed in 1..=20 {
        let (a, _) = play(&base, seed);
        let (b, counters) = play(&house, seed);
        fired += counters.triggers[trigger];
        changed += usize::from(a != b);
    }
    assert!(fired > 0, "the trigger never fired in 20 matches");
    assert!(changed > 0, "the trigger fired but no match changed");
}

/// Calls nested deeper than the limit stop the match with an error naming the chain, not
/// a stack overflow.
#[test]
fn calls_nested_deeper_than_the_limit_are_an_error() {
    let rs = load_file(&fixture("deep_calls.toml")).unwrap_or_else(|e| panic!("{e}"));
    let mut m = seeded_match(&rs, 1, Agents::Random);
    let err = m.play().err().unwrap_or_else(|| panic!("the match ran"));
    assert!(
        err.message.contains("calls nested deeper than 32"),
        "{}",
        err.message
    );
    assert!(
        err.message.contains("procedures.p0 -> procedures.p1"),
        "{}",
        err.message
    );
}

/// Match options: declared with a default, set per match, type-checked, unknown ones
/// refused; they read like constants in rules.
#[test]
fn match_options_are_set_per_match() {
    use fuba_engine::load::load_str_options;
    let path = root().join("tests/fixtures/layers/with_option.toml");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{e}"));
    let load = |opts: &[(&str, &str)]| {
        let o: Vec<(String, String)> = opts
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        load_str_options(&path, &text, &|_| None, &o)
    };
    let def = load(&[]).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(
        def.constant("gentle_passes").map(|c| c.0),
        Some(Value::Bool(false))
    );
    let on = load(&[("gentle_passes", "on")]).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(
        on.constant("gentle_passes").map(|c| c.0),
        Some(Value::Bool(true))
    );
    assert_ne!(
        def.fingerprint, on.fingerprint,
        "options are part of the fingerprint"
    );
    let bad = load(&[("gentle_passes", "7")])
        .err()
        .map(|e| e.to_string())
        .unwrap_or_default();
    assert!(bad.contains("takes on or off"), "{bad}");
    let unknown = load(&[("weather", "off")])
        .err()
        .map(|e| e.to_string())
        .unwrap_or_default();
    assert!(
        unknown.contains("unknown match option `weather`") && unknown.contains("gentle_passes"),
        "{unknown}"
    );
    // The option changes play: the long-pass modifier depends on it.
    let (a, _) = play(&def, 4);
    let (b, _) = play(&on, 4);
    assert_ne!(a, b);
}

/// `include` brings in a fragment's entries; the including file's own entries win.
#[test]
fn an_include_adds_entries_below_the_including_file() {
    let rs = load_file(&fixture("with_include.toml")).unwrap_or_else(|e| panic!("{e}"));
    assert!(rs.triggers.iter().any(|t| t.name == "crowd"));
    assert_eq!(
        rs.constant("kickoff_ball").map(|c| c.0),
        Some(Value::Int(4))
    );
}
