//! The 2024 advanced rules as match options (issue 6): each option switched on alone
//! changes a seeded match's log, condition points stay within their caps (A1, A3) through
//! whole matches, a seeded match with every advanced rule on, as a snapshot, and the
//! skills' footnote 2 (the goalkeeper alone in the ball's area) as two scenarios.

use fuba_engine::game::Ending;
use fuba_engine::ir::Scope;
use fuba_engine::ruleset::Ruleset;
use fuba_engine::scenario::Scenario;
use fuba_engine::state::MatchState;
use fuba_engine::value::Value;
use fuba_tests::{Agents, edition_with_options, narrated_match, play, seeded_match};

/// The 2024 edition with these match options set; every option not given keeps its
/// default (off, skills 0).
fn with_options(options: &[(&str, &str)]) -> Ruleset {
    edition_with_options("2024", options)
}

/// Every advanced option of rulesets/2024/options.toml, with the value that switches it on.
const OPTIONS: [(&str, &str); 11] = [
    ("condition", "on"),
    ("advanced_formations", "on"),
    ("substitutions", "on"),
    ("charge", "on"),
    ("aggressive_pressing", "on"),
    ("offside_risk", "on"),
    ("challenge", "on"),
    ("slowing_down", "on"),
    ("weather", "on"),
    ("var", "on"),
    ("skills", "4"),
];

/// The options that act only through condition points ("needs condition" in
/// options.toml): alone they change nothing, so they are compared with condition alone.
const NEEDS_CONDITION: [&str; 3] = ["advanced_formations", "aggressive_pressing", "challenge"];

/// The first seed in 1..40 (random agents, then heuristic ones) whose log under `on`
/// differs from its log under `base`.
fn changing_seed(base: &Ruleset, on: &Ruleset) -> Option<(u64, Agents)> {
    for agents in [Agents::Random, Agents::Heuristic] {
        for seed in 1..40u64 {
            let (_, a) = play(base, seed, agents);
            let (_, b) = play(on, seed, agents);
            if a != b {
                return Some((seed, agents));
            }
        }
    }
    None
}

#[test]
fn each_advanced_option_changes_a_seeded_match() {
    let off = with_options(&[]);
    let condition_only = with_options(&[("condition", "on")]);
    let mut unchanged = vec![];
    for (name, value) in OPTIONS {
        let alone = with_options(&[(name, value)]);
        if NEEDS_CONDITION.contains(&name) {
            // Alone it has no condition points to spend: the log is that of all off.
            assert_eq!(
                changing_seed(&off, &alone),
                None,
                "{name} changes a match without condition points"
            );
            let with_condition = with_options(&[("condition", "on"), (name, value)]);
            if changing_seed(&condition_only, &with_condition).is_none() {
                unchanged.push(format!("{name} (with condition)"));
            }
        } else if changing_seed(&off, &alone).is_none() {
            unchanged.push(name.to_string());
        }
    }
    assert!(
        unchanged.is_empty(),
        "no seed in 1..40 changes the log: {unchanged:?}"
    );
}

/// A team variable of the ruleset, as an integer, for team `t` (0 home, 1 away).
fn team_int(rs: &Ruleset, st: &MatchState, name: &str, t: usize) -> i64 {
    let (v, _) = rs.var(name).unwrap_or_else(|| panic!("no variable {name}"));
    assert_eq!(v.scope, Scope::Team, "{name} is not a team variable");
    match st.vars_team[v.idx as usize][t] {
        Value::Int(i) => i,
        ref other => panic!("{name} is not an integer: {other:?}"),
    }
}

#[test]
fn condition_points_stay_within_their_caps() {
    // A1.2: the points are the formation's lines (ten field players); A3: substitutions
    // never bring a zone above six nor the total above ten; spending never goes below 0.
    let rs = with_options(&[
        ("condition", "on"),
        ("substitutions", "on"),
        ("skills", "4"),
    ]);
    for seed in 0..16u64 {
        let agents = if seed % 2 == 1 {
            Agents::Heuristic
        } else {
            Agents::Random
        };
        let mut m = seeded_match(&rs, seed, agents);
        let outcome = m
            .play_observed(&mut |st, rs| {
                for t in 0..2 {
                    let zones = ["cp_defence", "cp_midfield", "cp_attack"]
                        .map(|z| (z, team_int(rs, st, z, t)));
                    for (z, p) in zones {
                        if !(0..=6).contains(&p) {
                            return Err(format!("team {t}: {z} = {p}, outside 0..=6"));
                        }
                    }
                    let total: i64 = zones.iter().map(|(_, p)| p).sum();
                    if total > 10 {
                        return Err(format!("team {t}: {total} condition points, above 10"));
                    }
                }
                Ok(())
            })
            .unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        assert_eq!(outcome.ending, Ending::FullTime, "seed {seed}");
    }
}

#[test]
fn seed_3_2024_all_advanced_rules() {
    let on: Vec<(&str, &str)> = OPTIONS.to_vec();
    let rs = with_options(&on);
    insta::assert_snapshot!(narrated_match(&rs, 3, Agents::Heuristic));
}

/// A12 footnote 2 (Tackler, Stopper, Doubling up: not when the goalkeeper is the defending
/// team's only player in the ball's area), shown on Stopper. Scenarios in the format of
/// docs/scenarios.md, kept here with the options tests.
const STOPPER_KEEPER_ALONE: &str = r#"name = "Stopper not offered: the goalkeeper is the defending team's only player in the target area"
rules = "2024"
options = { condition = true, skills = 4 }
source = "fuba-2024.txt A12 (defenders: Stopper, footnote 2), 4.7.4"
# As stopper.toml, but home's goalkeeper has come out to S_FRONT and stands there alone
# (its two defenders are in CENTRE): footnote 2, Stopper cannot be played; the new ball
# value of the short pass is the lower die, 2.

[position]
controlling = "away"
phasing = "away"
ball = { area = "CENTRE", value = 3 }
clock = { minute = 30 }
home = { keeper = "S_FRONT", pieces = { S_BOX = 1, CENTRE = 5, N_FRONT = 4 } }
away = { keeper = "N_BOX", pieces = { S_FRONT = 1, CENTRE = 4, N_FRONT = 5 } }
vars = { actions = 1, skill_13 = { home = 1 }, cp_defence = { home = 3 } }

[run]
from = "action_stage"
to = "action_stage"
dice = [5, 2]
choices.away = ["pass", "S_FRONT"]

[expect]
ball = { area = "S_FRONT", value = 2 }
controlling = "away"
no_events = ["skill"]
event_fields = { pass = { ball = 4, result = "supportive" } }
vars = { cp_defence = { home = 3 } }
"#;

/// The counterpart of [`STOPPER_KEEPER_ALONE`]: a defender beside the goalkeeper.
const STOPPER_KEEPER_NOT_ALONE: &str = r#"name = "Stopper with the goalkeeper and a defender in the target area: played"
rules = "2024"
options = { condition = true, skills = 4 }
source = "fuba-2024.txt A12 (defenders: Stopper, footnote 2), 4.7.4"
# As the keeper-alone case, but one of home's defenders stands in S_FRONT beside the
# goalkeeper: the goalkeeper is not alone, home plays Stopper for a defence point and the
# new ball value is the higher die, 5.

[position]
controlling = "away"
phasing = "away"
ball = { area = "CENTRE", value = 3 }
clock = { minute = 30 }
home = { keeper = "S_FRONT", pieces = { S_BOX = 1, S_FRONT = 1, CENTRE = 4, N_FRONT = 4 } }
away = { keeper = "N_BOX", pieces = { S_FRONT = 1, CENTRE = 4, N_FRONT = 5 } }
vars = { actions = 1, skill_13 = { home = 1 }, cp_defence = { home = 3 } }

[run]
from = "action_stage"
to = "action_stage"
dice = [5, 2]
choices.away = ["pass", "S_FRONT"]
choices.home = ["play"]

[expect]
ball = { area = "S_FRONT", value = 5 }
controlling = "away"
events = ["skill", "condition spent"]
event_fields = { skill = { skill = "Stopper" }, pass = { ball = 4, result = "supportive" }, "condition spent" = { zone = "defence", points = 1 } }
vars = { cp_defence = { home = 2 } }
"#;

#[test]
fn stopper_not_when_the_goalkeeper_is_alone_in_the_ball_area() {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("fuba-options-2024-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary folder");
    for (file, text) in [
        ("stopper_keeper_alone.toml", STOPPER_KEEPER_ALONE),
        ("stopper_keeper_not_alone.toml", STOPPER_KEEPER_NOT_ALONE),
    ] {
        let path = dir.join(file);
        std::fs::write(&path, text).expect("the scenario is written");
        let s = Scenario::load(&path).unwrap_or_else(|e| panic!("{e}"));
        let options = s.option_pairs();
        let options: Vec<(&str, &str)> = options
            .iter()
            .map(|(k, v)| (k.as_str(), v.as_str()))
            .collect();
        let rs = with_options(&options);
        let r = s.run(&rs).unwrap_or_else(|e| panic!("{e}"));
        assert!(
            r.passed(),
            "{file} ({}):\n  {}\n  narration:\n    {}",
            r.name,
            r.failures.join("\n  "),
            r.narration.join("\n    ")
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// Matches with every advanced rule on (six skills) that once stopped with a rule error:
/// Goal poacher was offered for a pass after Short passes had already passed the ball on,
/// and shot from an area with no shot distance. Now the end-of-pass skills wait for the
/// last pass of the action (`pass_still_at`).
#[test]
fn matches_that_once_stopped_play_to_the_end() {
    let mut on: Vec<(&str, &str)> = OPTIONS.to_vec();
    for o in &mut on {
        if o.0 == "skills" {
            o.1 = "6";
        }
    }
    let rs = with_options(&on);
    for seed in [
        14_436_794_181_472_294_796,
        13_911_585_768_485_865_792,
        9_723_660_051_010_915_607,
    ] {
        let mut m = seeded_match(&rs, seed, Agents::Random);
        let o = m.play().unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        assert_eq!(o.ending, Ending::FullTime, "seed {seed}");
    }
}
