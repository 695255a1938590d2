//! Helpers shared by the workspace tests: where the rulesets are, loading an edition, and
//! playing and narrating seeded matches.

use std::path::PathBuf;

use fuba_engine::agent::{Agent, HeuristicAgent, RandomAgent};
use fuba_engine::dice::SeededDice;
use fuba_engine::game::{Ending, Game, Outcome};
use fuba_engine::load::{load_file, load_str, load_str_options};
use fuba_engine::log::{Event, narrate};
use fuba_engine::ruleset::Ruleset;
use fuba_engine::value::Value;
use fuba_engine::vm::{Counters, Match};

/// The repository root.
pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// Path of a ruleset file under `rulesets/`.
pub fn ruleset_path(name: &str) -> PathBuf {
    root().join("rulesets").join(format!("{name}.toml"))
}

/// Loads an edition from `rulesets/`, panicking with the diagnostics if it does not load.
pub fn edition(name: &str) -> Ruleset {
    match load_file(&ruleset_path(name)) {
        Ok(r) => r,
        Err(e) => panic!("{e}"),
    }
}

/// Loads an edition with match options set (`(name, value)` as `--option` takes them);
/// every option not given keeps its default.
pub fn edition_with_options(name: &str, options: &[(&str, &str)]) -> Ruleset {
    let path = ruleset_path(name);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{name}: {e}"));
    let options: Vec<(String, String)> = options
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    load_str_options(&path, &text, &|_| None, &options).unwrap_or_else(|e| panic!("{e}"))
}

/// The 2024 edition with every advanced rule on: flags on, numbers (skills) at 6, as the
/// benches play it.
pub fn every_2024_option() -> Ruleset {
    let options: Vec<(String, &str)> = edition("2024")
        .options
        .iter()
        .map(|o| {
            let on = match (o.ty, &o.default) {
                (fuba_engine::value::Ty::Bool, _) => "on",
                (_, fuba_engine::value::Value::Int(_)) => "6",
                _ => panic!("option {} has a type the tests do not know", o.name),
            };
            (o.name.clone(), on)
        })
        .collect();
    assert!(!options.is_empty(), "2024 has no match options");
    let pairs: Vec<(&str, &str)> = options.iter().map(|(k, v)| (k.as_str(), *v)).collect();
    edition_with_options("2024", &pairs)
}

/// The text of `rulesets/original.toml`, to make modified copies of.
pub fn original_text() -> String {
    std::fs::read_to_string(ruleset_path("original")).expect("rulesets/original.toml is readable")
}

/// Who plays a seeded match: both teams the same kind of agent, seeded with the match.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Agents {
    /// [`RandomAgent`]s.
    Random,
    /// [`HeuristicAgent`]s.
    Heuristic,
}

impl Agents {
    /// The home and away agents for seed `seed`.
    pub fn build(self, seed: u64) -> (Box<dyn Agent>, Box<dyn Agent>) {
        match self {
            Agents::Random => (
                Box::new(RandomAgent::new(seed, 0)),
                Box::new(RandomAgent::new(seed, 1)),
            ),
            Agents::Heuristic => (
                Box::new(HeuristicAgent::new(seed, 0)),
                Box::new(HeuristicAgent::new(seed, 1)),
            ),
        }
    }
}

/// A match of `rs` with dice and agents seeded with `seed`, the log off (add
/// [`Game::with_log`] for the events).
pub fn seeded_match(rs: &Ruleset, seed: u64, agents: Agents) -> Game<'_> {
    let (home, away) = agents.build(seed);
    Game::new(rs, seed, Box::new(SeededDice::new(seed)), home, away)
}

/// Plays a seeded match with the log on, panicking with the seed if a rule fails.
pub fn play(rs: &Ruleset, seed: u64, agents: Agents) -> (Outcome, Vec<Event>) {
    let mut m = seeded_match(rs, seed, agents).with_log();
    let outcome = match m.play() {
        Ok(o) => o,
        Err(e) => panic!("seed {seed}: {e}"),
    };
    (outcome, m.events().to_vec())
}

/// The narration of a match, one line per narrated event.
pub fn narration(rs: &Ruleset, events: &[Event], verbose: bool) -> Vec<String> {
    events
        .iter()
        .filter_map(|e| narrate(rs, e, verbose))
        .collect()
}

/// The narration of a seeded match (see [`play`]) and its final score: the text of the
/// match snapshots. Asserts that the match reached full time.
pub fn narrated_match(rs: &Ruleset, seed: u64, agents: Agents) -> String {
    let (outcome, events) = play(rs, seed, agents);
    assert_eq!(outcome.ending, Ending::FullTime, "seed {seed}");
    let mut text = narration(rs, &events, false).join("\n");
    text.push_str(&format!(
        "\n\nFinal score: {} - {} (turns per half: {:?})\n",
        outcome.score[0], outcome.score[1], outcome.turns
    ));
    text
}

/// A short match with choices and dice drawn from `seed`: at most `steps` pauses. A rule
/// error ends it; only a panic fails.
pub fn short_match(rs: &Ruleset, seed: u64, steps: usize) {
    let mut m = fuba_engine::vm::Match::new(rs, seed);
    let mut x = seed | 1;
    let mut next = |n: usize| {
        // xorshift: any fixed stream will do.
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        (x % n.max(1) as u64) as usize
    };
    for _ in 0..steps {
        match m.advance() {
            Err(_) | Ok(fuba_engine::vm::Status::End) => return,
            Ok(fuba_engine::vm::Status::Decision) => {
                let n = m.decision().map_or(0, |d| d.options.len());
                if n == 0 || m.choose(next(n)).is_err() {
                    return;
                }
            }
            Ok(fuba_engine::vm::Status::Chance) => {
                let Some(c) = m.chance() else { return };
                let dice: Vec<u8> = (0..c.count)
                    .map(|_| 1 + next(usize::from(c.sides.max(1))) as u8)
                    .collect();
                if m.roll(&dice).is_err() {
                    return;
                }
            }
            Ok(_) => {}
        }
    }
}

/// Plays the seeds twice, the match set up by `setup(game, true)` and by
/// `setup(game, false)` (a speed-up on and off), and asserts that the log and every
/// counter come out the same (the operations counted too when `same_ops`: a memo that
/// skips a procedure's loops counts fewer).
pub fn assert_plays_same(
    rs: &Ruleset,
    seeds: std::ops::Range<u64>,
    agents: Agents,
    same_ops: bool,
    setup: impl Fn(&mut Game<'_>, bool),
) {
    for seed in seeds {
        let run = |on: bool| {
            let mut m: Game<'_> = seeded_match(rs, seed, agents).with_log();
            setup(&mut m, on);
            if let Err(e) = m.play() {
                panic!("seed {seed}: {e}");
            }
            (m.events().to_vec(), m.m.counters.clone())
        };
        let (log_on, c_on) = run(true);
        let (log_off, c_off) = run(false);
        let what = format!("{} seed {seed} {agents:?}", rs.name);
        assert_eq!(log_on, log_off, "{what}: the log differs");
        assert_same_counters(&what, &c_on, &c_off, same_ops);
    }
}

/// Asserts that two runs counted the same (`what` names them): procedures, table rows,
/// triggers, events, options picked, figures, choices, dice, and with `same_ops` the
/// operations.
pub fn assert_same_counters(what: &str, a: &Counters, b: &Counters, same_ops: bool) {
    assert_eq!(a.procs, b.procs, "{what}: procedure counts differ");
    assert_eq!(a.rows, b.rows, "{what}: table rows differ");
    assert_eq!(a.triggers, b.triggers, "{what}: triggers differ");
    assert_eq!(a.emits, b.emits, "{what}: events differ");
    assert_eq!(a.arms, b.arms, "{what}: options picked differ");
    assert_eq!(a.by_field, b.by_field, "{what}: breakdown figures differ");
    assert_eq!(a.choices, b.choices, "{what}: choices differ");
    assert_eq!(a.dice, b.dice, "{what}: dice differ");
    if same_ops {
        assert_eq!(a.ops, b.ops, "{what}: operations counted differ");
    }
}

/// A ruleset layer given as text (it may `extends` an edition), loaded as if it were the
/// file `NAME.toml` beside the editions.
pub fn layer(name: &str, text: &str) -> Ruleset {
    load_str(&ruleset_path(name), text).unwrap_or_else(|e| panic!("{e}"))
}

/// Calls procedure `name` of `rs` on a new match with the arguments, direct expressions on
/// or off; a run-time error as "MESSAGE at PLACE in RULE".
pub fn call_proc(
    rs: &Ruleset,
    name: &str,
    args: Vec<Value>,
    direct: bool,
) -> Result<Value, String> {
    let idx = rs
        .procs
        .iter()
        .position(|p| p.name == name)
        .unwrap_or_else(|| panic!("no procedure {name}"));
    let mut m = Match::new(rs, 1);
    m.set_direct(direct);
    m.call(idx as u16, args)
        .map_err(|e| format!("{} at {} in {}", e.message, e.place, e.rule))
}

/// Plays a match of `rs` (seed `seed`, set up by `this`) choosing a best-scored option
/// (ties by a number drawn from the seed), and at every decision compares the `prefer`
/// scores of the match with those of a copy that `other` sets up differently (scores kept
/// or not, machine code or closures). Returns how many decisions had scores, or where
/// they differed.
pub fn scores_agree(
    rs: &Ruleset,
    seed: u64,
    this: impl Fn(&mut Match<'_>),
    other: impl Fn(&mut Match<'_>),
) -> Result<usize, String> {
    use fuba_engine::dice::DiceSource;
    use fuba_engine::vm::Status;
    let mut m = Match::new(rs, seed);
    this(&mut m);
    let mut dice = SeededDice::new(seed);
    let mut pick = seed | 1;
    let mut scored = 0;
    loop {
        match m.advance().map_err(|e| e.to_string())? {
            Status::Decision => {
                let hints = m.hints().map_err(|e| e.to_string())?;
                let mut copy = m.clone();
                other(&mut copy);
                let theirs = copy.hints().map_err(|e| e.to_string())?;
                if hints != theirs {
                    return Err(format!(
                        "seed {seed} decision {scored}: {hints:?} against {theirs:?}"
                    ));
                }
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
                m.choose(choice).map_err(|e| e.to_string())?;
            }
            Status::Chance => {
                let c = m.chance().ok_or("a roll is waiting")?;
                let label = rs.symbol(c.label).to_string();
                let rolled = (0..c.count)
                    .map(|_| dice.roll(c.sides, &label))
                    .collect::<Result<Vec<u8>, String>>()?;
                m.roll(&rolled).map_err(|e| e.to_string())?;
            }
            Status::Boundary => {}
            Status::End => return Ok(scored),
        }
    }
}
