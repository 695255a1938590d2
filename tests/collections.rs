//! Declared collections (issue 18): a skill of 2024 is one entry of the `skillset`
//! collection, so a house rule adds one in a table of a dozen lines and a match plays it;
//! a name given where an entry is meant is checked when the ruleset loads; and the
//! language's iteration, look-ups and per-team state of entries expand to what they mean.

use std::path::{Path, PathBuf};

use fuba_engine::load::{load_file, load_str, load_str_options};
use fuba_engine::log::EventKind;
use fuba_engine::ruleset::Ruleset;
use fuba_tests::{Agents, play, root};

fn example() -> PathBuf {
    root().join("rulesets/examples/2024-tempo-dictator.toml")
}

/// A ruleset written here, as if it lay in `rulesets/examples/` (so `extends = "2024"`
/// and `"original"` find the editions).
fn layer(text: &str) -> Result<Ruleset, String> {
    load_str(&root().join("rulesets/examples/written-here.toml"), text).map_err(|e| {
        e.to_string()
            .replace(&root().display().to_string(), "<repo>")
    })
}

fn loaded(text: &str) -> Ruleset {
    layer(text).unwrap_or_else(|e| panic!("{e}"))
}

fn refused(text: &str) -> String {
    match layer(text) {
        Ok(_) => panic!("the ruleset loaded:\n{text}"),
        Err(e) => e,
    }
}

/// The skills played in a match, in order.
fn skills_played(rs: &Ruleset, seed: u64) -> Vec<String> {
    let (_, events) = play(rs, seed, Agents::Heuristic);
    events
        .iter()
        .filter_map(|e| match &e.kind {
            EventKind::Emit { kind, fields } if kind == "skill" => fields
                .get("skill")
                .and_then(|s| s.as_str())
                .map(String::from),
            _ => None,
        })
        .collect()
}

fn with_options(path: &Path, options: &[(&str, &str)]) -> Ruleset {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{e}"));
    let options: Vec<(String, String)> = options
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    load_str_options(path, &text, &|_| None, &options).unwrap_or_else(|e| panic!("{e}"))
}

/// The issue's "done when": a new 2024 skill in a layer of at most about 20 lines, which
/// checks clean and which a match plays.
#[test]
fn a_new_skill_is_one_entry_and_a_match_plays_it() {
    let text = std::fs::read_to_string(example()).unwrap_or_else(|e| panic!("{e}"));
    let lines = text
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.trim_start().starts_with('#'))
        .count();
    assert!(lines <= 20, "the layer has {lines} lines of TOML");
    let rs = load_file(&example()).unwrap_or_else(|e| panic!("{e}"));
    assert!(rs.warnings.is_empty(), "{:?}", rs.warnings);
    let rs = with_options(&example(), &[("condition", "on"), ("skills", "4")]);
    let played = (1..=20).find(|&seed| {
        skills_played(&rs, seed)
            .iter()
            .any(|s| s == "Tempo dictator")
    });
    assert!(played.is_some(), "no match of 20 played the new skill");
}

/// A layer's entry of the same name changes just the fields it gives; `remove` takes an
/// entry out, its trigger with it.
#[test]
fn a_layer_overrides_a_field_and_removes_an_entry() {
    let rs = loaded(
        r#"
[meta]
extends = "2024-tempo-dictator.toml"
name = "cheaper"

[entries.skillset."Tempo dictator"]
cost = 0
"#,
    );
    let raw = &rs.raw.entries["skillset"]["Tempo dictator"];
    assert_eq!(raw.get_ref()["cost"].get_ref().as_integer(), Some(0));
    assert_eq!(
        raw.get_ref()["group"].get_ref().as_str(),
        Some("midfielders")
    );
    assert!(
        rs.triggers
            .iter()
            .any(|t| t.name == "skillset.Tempo dictator")
    );
    let rs = loaded(
        r#"
remove = ["entries.skillset.Tempo dictator"]

[meta]
extends = "2024-tempo-dictator.toml"
name = "gone"
"#,
    );
    assert!(!rs.raw.entries["skillset"].contains_key("Tempo dictator"));
    assert!(!rs.triggers.iter().any(|t| t.name.contains("Tempo")));
}

/// The issue's other half: a layer with only the trigger names a skill the edition does
/// not have. It used to check "ok" and never fire; now it is refused, at the name.
#[test]
fn a_trigger_naming_an_unknown_skill_is_a_located_error() {
    // The layer of `fuba rules check`'s test too (cli/tests/collections.rs).
    let text = &std::fs::read_to_string(
        root().join("tests/fixtures/collections/trigger_only_unknown_skill.toml"),
    )
    .expect("fixture");
    let e = refused(text);
    assert!(e.contains("written-here.toml:8:27"), "{e}");
    insta::assert_snapshot!("unknown_skill", e);
    let e = refused(&text.replace("Tempo dictator", "Midfeld general"));
    assert!(e.contains("did you mean \"Midfield general\"?"), "{e}");
}

const ORIGINAL_WITH_CHANTS: &str = r#"
[meta]
extends = "original"
name = "chants"

[collections.chants]
fields = { bonus = "int", loud = { type = "bool", default = false } }
team_state = { sung = 0 }

[entries.chants]
"Olé" = { bonus = 1 }
"Allez" = { bonus = 2, loud = true }
"Forza" = { bonus = 3, loud = true }

[procedures.chant_bonus]
params = "c: chants"
do = 'c.bonus'
"#;

fn chants(extra: &str) -> Result<Ruleset, String> {
    layer(&format!("{ORIGINAL_WITH_CHANTS}\n{extra}"))
}

/// The language's forms over a collection all load: iteration with `where`, quantifiers,
/// `size`, fields of a known and of a computed entry, look-ups by name and position,
/// options and arms per entry, and a per-team state read and set.
#[test]
fn every_form_over_a_collection_loads() {
    let rs = chants(
        r#"
[triggers.crowd]
hook = "goal_attempt_modifier"
section = "house rule"
when = 'any c in chants where c.loud and c.sung[team] == 0'
do = '''
let total = 0
for c in chants where c.bonus > 1 { set total += c.bonus }
let pick = choose "chant" by team {
  "none" => "",
  for c in chants when c.sung[team] == 0 prefer c.bonus => c,
}
if pick != "" { sing(team, pick) }
let n = match pick { for c in chants => c.index, _ => 0 }
total + n + chant_bonus(chants["Allez"]) + chants[2].bonus + size(chants) + chant_bonus("Olé")
  - count c in chants where c.sung[team] > 0
'''

[procedures.sing]
params = "t: team, c: chants"
do = 'set c.sung[t] += 1'
"#,
    )
    .unwrap_or_else(|e| panic!("{e}"));
    assert!(rs.warnings.iter().all(|w| w.lint != Some("unused-entry")));
    // The per-team state of each entry is a team state variable named by its position.
    for v in ["sung_1", "sung_2", "sung_3"] {
        assert!(rs.raw.state.team.contains_key(v), "{v}");
    }
}

/// Mistakes with a collection are located errors, with a hint.
#[test]
fn mistakes_with_a_collection_are_located_errors() {
    let cases = [
        ("unknown_field", "do = 'chants[\"Olé\"].bonsu'"),
        ("unknown_entry", "do = 'chant_bonus(\"Ole\")'"),
        ("position_out_of_range", "do = 'chants[4].bonus'"),
        ("state_without_team", "do = 'chants[\"Olé\"].sung'"),
        ("collection_as_value", "do = 'chants'"),
        (
            "break_in_unrolled_loop",
            "do = '''\nfor c in chants { if c.bonus > 1 { break } }\n0\n'''",
        ),
    ];
    let mut out = String::new();
    for (name, body) in cases {
        let e = chants(&format!(
            "[triggers.crowd]\nhook = \"goal_attempt_modifier\"\nsection = \"house rule\"\n{body}\n"
        ))
        .err()
        .unwrap_or_else(|| panic!("{name} loaded"));
        out.push_str(&format!("--- {name}\n{e}\n"));
    }
    insta::assert_snapshot!("mistakes", out);
}

/// A layer's entry with a field of the wrong type, an unknown field, or a collection
/// nobody declared, is refused at the entry.
#[test]
fn malformed_entries_are_located_errors() {
    let e = chants("[entries.chants.\"Vamos\"]\nbonus = \"two\"\nlouder = true\n")
        .err()
        .unwrap_or_else(|| panic!("loaded"));
    assert!(e.contains("field `bonus` is an integer"), "{e}");
    assert!(e.contains("unknown field `louder`"), "{e}");
    assert!(e.contains("did you mean `loud`?"), "{e}");
    let e = chants("[entries.songs.\"Vamos\"]\nbonus = 1\n")
        .err()
        .unwrap_or_else(|| panic!("loaded"));
    assert!(e.contains("not a declared collection"), "{e}");
}
