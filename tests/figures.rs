//! Figures with a `where` test (`[figures] NAME = { event, where }`): they count exactly
//! the events of the log that pass the test, a test that cannot be worked out from the
//! event alone is a located error, `Ruleset::adopt_figures` counts a house rule's figure
//! under the ruleset it extends as the house rule does, and a match counts the same
//! events and figures with its log off (where the fields of most events are never worked
//! out) as with it on.

use std::path::Path;

use fuba_engine::load::load_str;
use fuba_engine::log::EventKind;
use fuba_engine::ruleset::Ruleset;
use fuba_engine::value::{Move, Value};
use fuba_engine::vm::Compiled;
use fuba_tests::{
    Agents, assert_same_counters, edition, every_2024_option, original_text, seeded_match,
};

/// Figures added to the original edition for these tests: each `where` form.
const FIGURES: &str = r#"
long_passes = { event = "pass", where = "between({from}, to) >= 1" }
long_range_shots = { event = "shot", where = 'not (area in mark("box", other(team)))' }
wing_shots = { event = "shot", where = "area in [S_WEST_WING, S_EAST_WING, N_WEST_WING, N_EAST_WING]" }
long_passes_by_target = { event = "pass", by = "to", where = "between({from}, to) >= 1" }
"#;

/// The original edition with `figures` added to its `[figures]` table.
fn original_with(figures: &str) -> String {
    original_text().replace("[figures]\n", &format!("[figures]\n{figures}\n"))
}

fn load(text: &str) -> Ruleset {
    load_str(Path::new("figures.toml"), text).unwrap_or_else(|e| panic!("{e}"))
}

/// The messages of a ruleset that must not load.
fn errors(figures: &str) -> String {
    match load_str(Path::new("figures.toml"), &original_with(figures)) {
        Ok(_) => panic!("figures {figures:?} loaded, but are meant to fail"),
        Err(e) => e.to_string(),
    }
}

/// Plays seed `seed` and gives each figure's count (per-match figures in declaration
/// order) and the events.
fn counts(rs: &Ruleset, seed: u64) -> (Vec<(String, u32)>, Vec<fuba_engine::log::Event>) {
    let mut g = seeded_match(rs, seed, Agents::Heuristic).with_log();
    g.play().unwrap_or_else(|e| panic!("seed {seed}: {e}"));
    let c = &g.m.counters;
    let figures = rs.figures.iter().enumerate();
    let counted = figures
        .map(|(i, f)| (f.name.clone(), f.count(i, c)))
        .collect();
    (counted, g.events().to_vec())
}

#[test]
fn a_tested_figure_counts_the_logged_events_that_pass_its_test() {
    let rs = load(&original_with(FIGURES));
    let area = |fields: &serde_json::Map<String, serde_json::Value>, f: &str| {
        let name = fields
            .get(f)
            .and_then(|v| v.as_str())
            .expect("an area field");
        rs.board.find(name).expect("a known area")
    };
    let mut seen = [0u32; 3];
    for seed in 1..=5 {
        let (counted, events) = counts(&rs, seed);
        let (mut long, mut long_range, mut wing) = (0, 0, 0);
        let mut by_target = std::collections::BTreeMap::<String, u32>::new();
        for e in &events {
            let EventKind::Emit { kind, fields } = &e.kind else {
                continue;
            };
            match kind.as_str() {
                "pass" if rs.board.between(area(fields, "from"), area(fields, "to")) >= 1 => {
                    long += 1;
                    let to = fields["to"].as_str().unwrap_or_default().to_string();
                    *by_target.entry(to).or_default() += 1;
                }
                "shot" => {
                    let at = fields["area"].as_str().unwrap_or_default();
                    // No shot is taken from the shooting team's own box.
                    long_range += u32::from(!at.ends_with("_BOX"));
                    wing += u32::from(at.ends_with("_WING"));
                }
                _ => {}
            }
        }
        let get = |n: &str| counted.iter().find(|(x, _)| x == n).map(|x| x.1);
        assert_eq!(get("long_passes"), Some(long), "seed {seed}");
        assert_eq!(get("long_range_shots"), Some(long_range), "seed {seed}");
        assert_eq!(get("wing_shots"), Some(wing), "seed {seed}");
        for (i, n) in [long, long_range, wing].into_iter().enumerate() {
            seen[i] += n;
        }
        // The breakdown counts the same passes, by their target.
        let mut g = seeded_match(&rs, seed, Agents::Heuristic);
        g.play().unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        let b = rs
            .breakdowns
            .iter()
            .position(|b| b.name == "long_passes_by_target")
            .expect("the breakdown");
        let mut got = std::collections::BTreeMap::<String, u32>::new();
        for (v, n) in &g.m.counters.by_field[b] {
            let name = match v {
                fuba_engine::value::Value::Area(a) => rs.board.name(*a).to_string(),
                other => panic!("a pass target that is not an area: {other:?}"),
            };
            got.insert(name, *n);
        }
        assert_eq!(got, by_target, "seed {seed}");
    }
    // The seeds have something to count: the checks above are not all of zeros.
    assert!(
        seen.iter().all(|n| *n > 0),
        "counted {seen:?} over five matches"
    );
}

#[test]
fn a_figure_test_that_needs_more_than_the_event_is_a_located_error() {
    let cases = [
        // Reads the match.
        r#"a = { event = "shot", where = "ball_area() == area" }"#,
        // A field the event does not have.
        r#"b = { event = "shot", where = "distance > 2" }"#,
        // A field named like a keyword, without braces.
        r#"c = { event = "pass", where = "between(from, to) >= 1" }"#,
        // Calls a procedure.
        r#"d = { event = "shot", where = "scored(team)" }"#,
        // Not a condition.
        r#"e = { event = "shot", where = "modifier + 1" }"#,
        // An event no rule emits.
        r#"f = { event = "shoot", where = "area == S_BOX" }"#,
    ];
    let all: Vec<String> = cases.iter().map(|c| errors(c)).collect();
    for (c, e) in cases.iter().zip(&all) {
        assert!(
            e.contains("figures.toml:"),
            "{c}: no place in the file: {e}"
        );
    }
    insta::assert_snapshot!(all.join("\n"));
}

#[test]
fn an_unknown_key_in_a_figure_is_an_error() {
    let e = errors(r#"a = { event = "shot", were = "area == S_BOX" }"#);
    assert!(e.contains("figures"), "{e}");
}

#[test]
fn a_figure_a_house_rule_declares_is_counted_the_same_under_the_edition() {
    // A layer that changes no rule, only adds the figures: both play the same match.
    let house = load(&original_with(FIGURES));
    let mut base = load(&original_text());
    assert!(base.figures.iter().all(|f| f.name != "long_passes"));
    base.adopt_figures(&house).unwrap_or_else(|e| panic!("{e}"));
    for seed in 1..=3 {
        let (with, _) = counts(&house, seed);
        let (adopted, _) = counts(&base, seed);
        for (name, n) in &with {
            let got = adopted.iter().find(|(x, _)| x == name).map(|x| x.1);
            assert_eq!(got, Some(*n), "figure {name}, seed {seed}");
        }
    }
    assert!(
        base.breakdowns
            .iter()
            .any(|b| b.name == "long_passes_by_target"),
        "the breakdown is adopted too"
    );
}

#[test]
fn a_figure_that_does_not_check_under_the_other_ruleset_is_an_error_naming_both() {
    let house = load(&original_with(
        r#"long_passes = { event = "pass", where = "between({from}, to) >= 1" }"#,
    ));
    // A ruleset whose passes have no `from` field.
    let other = original_text().replace(
        "emit \"pass\" { team: ct, from: s,",
        "emit \"pass\" { team: ct,",
    );
    assert_ne!(other, original_text(), "the pass event was found");
    let mut other = load(&other);
    let e = other
        .adopt_figures(&house)
        .expect_err("`from` is not a field");
    insta::assert_snapshot!(e.message);
}

/// Plays seed `seed` with the log on or off: the outcome and the counters.
fn played(
    rs: &Ruleset,
    seed: u64,
    agents: Agents,
    log: bool,
) -> (String, fuba_engine::vm::Counters) {
    let g = seeded_match(rs, seed, agents);
    let mut g = if log { g.with_log() } else { g };
    let outcome = g.play().unwrap_or_else(|e| panic!("seed {seed}: {e}"));
    (format!("{outcome:?}"), g.m.counters.clone())
}

#[test]
fn events_and_figures_count_the_same_with_the_log_off() {
    let with_figures = load(&original_with(FIGURES));
    let rulesets = [
        with_figures,
        edition("2015"),
        edition("2024"),
        every_2024_option(),
    ];
    for rs in &rulesets {
        // Most events' fields are never worked out while the match does not log; those
        // that a figure tests or breaks down are.
        let emits = &rs.program().emits;
        let quiet = emits.iter().filter(|e| e.quiet.is_some()).count();
        assert!(
            quiet * 2 > emits.len(),
            "{}: {quiet} of {} events quiet",
            rs.name,
            emits.len()
        );
        for (seed, agents) in [
            (1, Agents::Random),
            (2, Agents::Heuristic),
            (3, Agents::Random),
        ] {
            let (on, counted_on) = played(rs, seed, agents, true);
            let (off, counted_off) = played(rs, seed, agents, false);
            let what = format!("{} seed {seed}", rs.name);
            assert_eq!(on, off, "{what}: the outcome differs");
            assert_same_counters(&what, &counted_on, &counted_off, true);
            assert!(
                counted_off.emits.iter().sum::<u32>() > 50,
                "{what}: few events"
            );
        }
    }
}

#[test]
fn an_unlogged_event_whose_move_field_is_none_fails_as_a_logged_one() {
    let text = original_text().replace(
        "[figures]\n",
        "[procedures.probe]\nparams = \"t: team, m: move\"\ndo = 'emit \"probe\" { team: t, from: m.from, keeper: m.keeper }'\n\n[figures]\n",
    );
    let rs = load(&text);
    let probe = (rs.procs.iter().position(|p| p.name == "probe")).expect("the probe") as u16;
    let site = (rs.program().emits.iter())
        .find(|e| rs.symbol(e.kind) == "probe")
        .expect("the probe's event");
    assert!(site.quiet.is_some(), "the probe's event is quiet");
    let call = |m: Value, log: bool| {
        let mut x = fuba_engine::vm::Match::new(&rs, 1);
        if log {
            x.log = Some(Vec::new());
        }
        x.call(probe, vec![Value::Team(0), m])
            .map_err(|e| e.message)
    };
    let mv = Value::Move(Move {
        from: 3,
        to: 4,
        keeper: false,
    });
    for log in [false, true] {
        assert_eq!(call(mv.clone(), log), Ok(Value::None), "log {log}");
        let err = call(Value::None, log).expect_err("a move's part of none fails");
        assert!(err.starts_with("expected a move"), "log {log}: {err}");
    }
}
