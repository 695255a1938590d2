//! Property tests of the stepping interface ([`Match`] as a value), for every edition and
//! for 2024 with every advanced rule on:
//!
//! - a match cloned at a random step goes on exactly like the original given the same
//!   choices and dice (log, counters, final state, outcome);
//! - every chance event lists each outcome once with an exact probability, the
//!   probabilities sum to exactly 1, and `roll` takes every outcome listed (and no die out
//!   of range);
//! - a team's observation hides the other team's secret choices, which the full log
//!   records, and shows a pending decision only to the team deciding;
//! - a match played by [`Game`] (random agents, seeded dice) is replayed exactly by
//!   stepping a fresh match with the choices and dice of its log.
//!
//! Matches are stepped by hand: choices and dice come from [`Stream`]s seeded by proptest.
//! Every failure names the edition and the seed.

use std::sync::OnceLock;

use fuba_engine::dice::{SeededDice, Stream};
use fuba_engine::game::{Game, Outcome};
use fuba_engine::log::{Event, EventKind, team_name};
use fuba_engine::ruleset::Ruleset;
use fuba_engine::value::Team;
use fuba_engine::vm::observe::{HIDDEN, is_hidden_from};
use fuba_engine::vm::{Match, Status};
use fuba_tests::{Agents, edition, every_2024_option};
use proptest::prelude::*;
use proptest::test_runner::TestCaseError;

/// The editions stepped, by the name failures give them.
const EDITIONS: [&str; 4] = ["original", "2015", "2024", "2024 with every option"];

/// The rulesets of [`EDITIONS`], loaded once for every test of this file.
fn rulesets() -> &'static [Ruleset; 4] {
    static RS: OnceLock<[Ruleset; 4]> = OnceLock::new();
    RS.get_or_init(|| {
        [
            edition("original"),
            edition("2015"),
            edition("2024"),
            every_2024_option(),
        ]
    })
}

/// An edition of [`EDITIONS`] by name.
fn ruleset(name: &str) -> &'static Ruleset {
    let i = EDITIONS
        .iter()
        .position(|e| *e == name)
        .unwrap_or_else(|| panic!("no edition {name}"));
    &rulesets()[i]
}

/// Where a stepped match's choices and dice come from.
#[derive(Clone, Debug)]
struct Inputs {
    picks: Stream,
    dice: Stream,
}

impl Inputs {
    fn new(seed: u64) -> Self {
        Inputs {
            picks: Stream::new(seed, 11),
            dice: Stream::new(seed, 12),
        }
    }
}

/// What one step of a stepped match did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Step {
    /// Answered a decision (the deciding team, whether secret).
    Chose(Team, bool),
    /// Rolled dice.
    Rolled,
    /// A stage ended.
    Boundary,
    /// The match is over.
    End,
}

/// Advances `m` and answers what it waits for from `inp`.
fn step(m: &mut Match<'_>, inp: &mut Inputs, ctx: &str) -> Result<Step, TestCaseError> {
    let status = m
        .advance()
        .map_err(|e| TestCaseError::fail(format!("{ctx}: {e}")))?;
    answer(m, status, inp, ctx)
}

/// Answers what `m` waits for (`status`, from [`Match::advance`]) from `inp`.
fn answer(
    m: &mut Match<'_>,
    status: Status,
    inp: &mut Inputs,
    ctx: &str,
) -> Result<Step, TestCaseError> {
    let fail = |e: fuba_engine::vm::RunError| TestCaseError::fail(format!("{ctx}: {e}"));
    Ok(match status {
        Status::Decision => {
            let Some(d) = m.decision() else {
                return Err(TestCaseError::fail(format!("{ctx}: no decision waits")));
            };
            prop_assert!(d.options.len() >= 2, "{ctx}: offered {:?}", d.options);
            let (team, secret, n) = (d.team, d.secret, d.options.len() as u32);
            m.choose(inp.picks.below(n) as usize).map_err(fail)?;
            Step::Chose(team, secret)
        }
        Status::Chance => {
            let Some(c) = m.chance() else {
                return Err(TestCaseError::fail(format!("{ctx}: no chance waits")));
            };
            let dice: Vec<u8> = (0..c.count)
                .map(|_| inp.dice.below(u32::from(c.sides)) as u8 + 1)
                .collect();
            m.roll(&dice).map_err(fail)?;
            Step::Rolled
        }
        Status::Boundary => Step::Boundary,
        Status::End => Step::End,
    })
}

/// Steps `m` to its end.
fn run_to_end(m: &mut Match<'_>, inp: &mut Inputs, ctx: &str) -> Result<u64, TestCaseError> {
    let mut steps = 0;
    while step(m, inp, ctx)? != Step::End {
        steps += 1;
    }
    Ok(steps)
}

/// The first event where two logs differ, for failure messages.
fn first_difference(a: &[Event], b: &[Event]) -> Option<String> {
    let i = (0..a.len().max(b.len())).find(|i| a.get(*i) != b.get(*i))?;
    Some(format!(
        "event {i} differs (lengths {} and {}):\n  one:   {:?}\n  other: {:?}",
        a.len(),
        b.len(),
        a.get(i),
        b.get(i)
    ))
}

/// Compares two finished matches: log, counters, final state and outcome.
fn same_match(a: &Match<'_>, b: &Match<'_>, ctx: &str) -> Result<(), TestCaseError> {
    if let Some(d) = first_difference(a.events(), b.events()) {
        return Err(TestCaseError::fail(format!("{ctx}: {d}")));
    }
    let (x, y) = (&a.counters, &b.counters);
    prop_assert_eq!(&x.procs, &y.procs, "{}: procedure counts", ctx);
    prop_assert_eq!(&x.rows, &y.rows, "{}: table row counts", ctx);
    prop_assert_eq!(&x.emits, &y.emits, "{}: emitted event counts", ctx);
    prop_assert_eq!(&x.triggers, &y.triggers, "{}: trigger counts", ctx);
    prop_assert_eq!(x.choices, y.choices, "{}: choices", ctx);
    prop_assert_eq!(x.dice, y.dice, "{}: dice", ctx);
    prop_assert_eq!(
        x.control_changes,
        y.control_changes,
        "{}: ball control",
        ctx
    );
    prop_assert_eq!(&x.arms, &y.arms, "{}: options picked", ctx);
    prop_assert_eq!(&x.by_field, &y.by_field, "{}: breakdown figures", ctx);
    prop_assert_eq!(
        format!("{:?}", a.st),
        format!("{:?}", b.st),
        "{}: final state",
        ctx
    );
    same_outcome(a.outcome(), b.outcome(), ctx)
}

fn same_outcome(a: Option<&Outcome>, b: Option<&Outcome>, ctx: &str) -> Result<(), TestCaseError> {
    let (Some(a), Some(b)) = (a, b) else {
        return Err(TestCaseError::fail(format!(
            "{ctx}: outcomes {a:?} and {b:?}"
        )));
    };
    prop_assert_eq!(a.score, b.score, "{}: score", ctx);
    prop_assert_eq!(&a.turns, &b.turns, "{}: turns", ctx);
    prop_assert_eq!(&a.ending, &b.ending, "{}: ending", ctx);
    prop_assert_eq!(&a.clocks, &b.clocks, "{}: clocks", ctx);
    Ok(())
}

// ---------------------------------------------------------------------------- a. clone

/// Steps a match (pausing at stage ends too) to its end, keeping a copy (with its
/// inputs) taken where the match waited at a step drawn uniformly from all its steps
/// (reservoir sampling), then steps the copy to its end: both must be the same match.
fn clone_goes_on_identically(name: &str, seed: u64) -> Result<(), TestCaseError> {
    let rs = ruleset(name);
    let mut m = Match::new(rs, seed).with_log();
    m.pause_at_stages = true;
    let mut inp = Inputs::new(seed);
    let mut pick = Stream::new(seed, 13);
    let mut kept: Option<(u32, Status, Match<'_>, Inputs)> = None;
    let mut steps = 0u32;
    loop {
        steps += 1;
        let ctx = format!("{name}, seed {seed}, step {steps}");
        let status = m
            .advance()
            .map_err(|e| TestCaseError::fail(format!("{ctx}: {e}")))?;
        if pick.below(steps) == 0 {
            kept = Some((steps, status, m.clone(), inp.clone()));
        }
        if answer(&mut m, status, &mut inp, &ctx)? == Step::End {
            break;
        }
    }
    let Some((at, status, mut copy, mut copy_inp)) = kept else {
        return Err(TestCaseError::fail(format!("{name}, seed {seed}: no copy")));
    };
    let ctx = format!("{name}, seed {seed}, copy taken at step {at} of {steps} ({status:?})");
    run_to_end(&mut copy, &mut copy_inp, &ctx)?;
    same_match(&m, &copy, &ctx)
}

// ---------------------------------------------------------------------------- b. chance

fn gcd(a: u128, b: u128) -> u128 {
    if b == 0 { a } else { gcd(b, a % b) }
}

/// Checks the chance event `m` waits for: distinct outcomes of the right shape, exact
/// probabilities summing to 1, each taken by `roll`, a die out of range refused.
fn check_chance(m: &Match<'_>, ctx: &str) -> Result<(), TestCaseError> {
    let Some(c) = m.chance() else {
        return Err(TestCaseError::fail(format!("{ctx}: no chance waits")));
    };
    let label = m.rs.symbol(c.label).to_string();
    let ctx = format!("{ctx}, roll \"{label}\" ({}d{})", c.count, c.sides);
    let outcomes = c.outcomes();
    let expected = u128::from(c.sides).pow(u32::from(c.count));
    prop_assert_eq!(outcomes.len() as u128, expected, "{}: outcome count", &ctx);
    let mut seen = std::collections::HashSet::new();
    let mut lcm: u128 = 1;
    for (dice, (num, den)) in &outcomes {
        prop_assert!(*den > 0, "{ctx}: {dice:?} has denominator 0");
        prop_assert!(*num > 0, "{ctx}: {dice:?} has probability 0");
        prop_assert_eq!(dice.len(), usize::from(c.count), "{}: {:?}", &ctx, dice);
        prop_assert!(
            dice.iter().all(|d| (1..=c.sides).contains(d)),
            "{ctx}: die out of range in {dice:?}"
        );
        prop_assert!(seen.insert(dice.clone()), "{ctx}: {dice:?} listed twice");
        let den = u128::from(*den);
        lcm = lcm / gcd(lcm, den) * den;
    }
    let total: u128 = outcomes
        .iter()
        .map(|(_, (num, den))| u128::from(*num) * (lcm / u128::from(*den)))
        .sum();
    prop_assert_eq!(
        total,
        lcm,
        "{}: probabilities sum to {}/{}",
        &ctx,
        total,
        lcm
    );
    for (dice, _) in &outcomes {
        let mut copy = m.clone();
        if let Err(e) = copy.roll(dice) {
            return Err(TestCaseError::fail(format!("{ctx}: {dice:?} refused: {e}")));
        }
        prop_assert!(copy.chance().is_none(), "{ctx}: still waits after {dice:?}");
    }
    let mut wrong = outcomes[0].0.clone();
    wrong[0] = c.sides + 1;
    prop_assert!(m.clone().roll(&wrong).is_err(), "{ctx}: {wrong:?} taken");
    prop_assert!(
        m.clone().roll(&[]).is_err() || c.count == 0,
        "{ctx}: no dice taken"
    );
    Ok(())
}

/// Steps a match (no log) and checks every chance event on the way.
fn chances_are_exact(name: &str, seed: u64) -> Result<(), TestCaseError> {
    let rs = ruleset(name);
    let mut m = Match::new(rs, seed);
    let mut inp = Inputs::new(seed);
    let mut chances = 0u32;
    loop {
        let ctx = format!("{name}, seed {seed}, chance {chances}");
        let status = m
            .advance()
            .map_err(|e| TestCaseError::fail(format!("{ctx}: {e}")))?;
        if status == Status::Chance {
            check_chance(&m, &ctx)?;
            chances += 1;
        }
        // Advancing again returns the same wait: `step` answers it.
        if step(&mut m, &mut inp, &ctx)? == Step::End {
            break;
        }
    }
    prop_assert!(chances > 0, "{name}, seed {seed}: no chance event");
    Ok(())
}

// ---------------------------------------------------------------------------- c. secrets

/// Checks a team's observation against the full log: the same events, except that every
/// secret choice of the other team shows [`HIDDEN`] for its label and offered options,
/// while the full log records the label. Returns how many choices it hid.
fn check_observation(m: &Match<'_>, team: Team, ctx: &str) -> Result<usize, TestCaseError> {
    let obs = m.observation(team);
    let full = m.events();
    let ctx = format!("{ctx}, observed by {}", team_name(team));
    prop_assert_eq!(obs.team, team);
    prop_assert_eq!(obs.score, m.st.score, "{}: score", &ctx);
    prop_assert_eq!(obs.clock, m.st.clock, "{}: clock", &ctx);
    prop_assert_eq!(obs.events.len(), full.len(), "{}: event count", &ctx);
    let mut hidden = 0;
    for (seen, real) in obs.events.iter().zip(full) {
        let EventKind::Choice {
            team: chooser,
            label,
            secret,
            offered,
            ..
        } = &real.kind
        else {
            prop_assert_eq!(seen, real, "{}: an event other than a choice changed", &ctx);
            continue;
        };
        if *secret && chooser != team_name(team) {
            prop_assert!(is_hidden_from(real, team));
            prop_assert_ne!(label.as_str(), HIDDEN, "{}: the full log hides it", &ctx);
            prop_assert!(!offered.is_empty(), "{ctx}: no offered options recorded");
            let EventKind::Choice {
                label: shown,
                offered: shown_offered,
                ..
            } = &seen.kind
            else {
                return Err(TestCaseError::fail(format!("{ctx}: {seen:?} for {real:?}")));
            };
            prop_assert_eq!(
                shown.as_str(),
                HIDDEN,
                "{}: secret shown in {:?}",
                &ctx,
                seen
            );
            prop_assert_eq!(shown_offered.len(), offered.len(), "{}: {:?}", &ctx, seen);
            prop_assert!(
                shown_offered.iter().all(|o| o == HIDDEN),
                "{ctx}: offered options shown in {seen:?}"
            );
            let text = format!("{:?}", seen.kind);
            prop_assert!(
                !text.contains(&format!("{label:?}")),
                "{ctx}: the label {label:?} appears in {text}"
            );
            hidden += 1;
        } else {
            prop_assert_eq!(seen, real, "{}: a visible choice changed", &ctx);
        }
    }
    prop_assert_eq!(obs.hidden_choices_of(1 - team).count(), hidden, "{}", &ctx);
    Ok(hidden)
}

/// Checks the pending decision as each team observes it: the deciding team sees every
/// option's label, the other team nothing.
fn check_pending(m: &Match<'_>, ctx: &str) -> Result<(), TestCaseError> {
    let Some(d) = m.decision() else {
        return Ok(());
    };
    let labels: Vec<String> = d.options.iter().map(|o| o.label(m.rs)).collect();
    let own = m.observation(d.team).decision;
    let own = own.ok_or_else(|| TestCaseError::fail(format!("{ctx}: own decision not seen")))?;
    prop_assert_eq!(own.kind.as_str(), d.kind, "{}", ctx);
    prop_assert_eq!(&own.options, &labels, "{}", ctx);
    prop_assert_eq!(own.secret, d.secret, "{}", ctx);
    prop_assert!(
        m.observation(1 - d.team).decision.is_none(),
        "{ctx}: the other team sees the decision"
    );
    Ok(())
}

/// Steps a logged match; after every secret choice, after a sample of the other steps
/// and at the end, checks what each team observes. Each team must have seen at least one
/// secret choice of the other team hidden.
fn secrets_stay_hidden(name: &str, seed: u64) -> Result<(), TestCaseError> {
    let rs = ruleset(name);
    let mut m = Match::new(rs, seed).with_log();
    m.record_options = true;
    let mut inp = Inputs::new(seed);
    let mut sample = Stream::new(seed, 14);
    let mut hidden = [0usize; 2];
    let mut steps = 0u32;
    loop {
        steps += 1;
        let ctx = format!("{name}, seed {seed}, step {steps}");
        let status = m
            .advance()
            .map_err(|e| TestCaseError::fail(format!("{ctx}: {e}")))?;
        let sampled = sample.below(64) == 0;
        if status == Status::Decision && (sampled || m.decision().is_some_and(|d| d.secret)) {
            check_pending(&m, &ctx)?;
        }
        let s = step(&mut m, &mut inp, &ctx)?;
        if s == Step::End {
            break;
        }
        if let Step::Chose(team, true) = s {
            let other = 1 - team;
            hidden[usize::from(other)] = check_observation(&m, other, &ctx)?;
            check_observation(&m, team, &ctx)?;
        } else if sampled {
            check_observation(&m, 0, &ctx)?;
            check_observation(&m, 1, &ctx)?;
        }
    }
    let ctx = format!("{name}, seed {seed}, at the end");
    for team in [0, 1] {
        hidden[usize::from(team)] = check_observation(&m, team, &ctx)?;
    }
    prop_assert!(
        hidden.iter().all(|h| *h > 0),
        "{ctx}: secret choices hidden from home and away: {hidden:?} (the test saw none)"
    );
    Ok(())
}

// ---------------------------------------------------------------------------- d. replay

/// Plays a match with [`Game`] (random agents, seeded dice, logged), then steps a fresh
/// match answering each decision with the label of the next choice of the log (choices
/// with one option are taken by the machine) and each chance event with the dice of the
/// next roll of the log; the logs must be identical.
fn game_log_replays_by_stepping(name: &str, seed: u64) -> Result<(), TestCaseError> {
    let rs = ruleset(name);
    let (home, away) = Agents::Random.build(seed);
    let mut game = Game::new(rs, seed, Box::new(SeededDice::new(seed)), home, away).with_log();
    let played = game
        .play()
        .map_err(|e| TestCaseError::fail(format!("{name}, seed {seed}: {e}")))?;
    let log = game.events();
    let mut choices = log.iter().filter_map(|e| match &e.kind {
        EventKind::Choice {
            team,
            decision,
            label,
            options,
            ..
        } if *options > 1 => Some((e.seq, team, decision, label)),
        _ => None,
    });
    let mut rolls = log.iter().filter_map(|e| match &e.kind {
        EventKind::Roll { label, dice, .. } => Some((e.seq, label, dice)),
        _ => None,
    });
    let mut m = Match::new(rs, seed).with_log();
    loop {
        let ctx = format!("{name}, seed {seed}, replay at event {}", m.events().len());
        let status = m
            .advance()
            .map_err(|e| TestCaseError::fail(format!("{ctx}: {e}")))?;
        match status {
            Status::Decision => {
                let Some(d) = m.decision() else {
                    return Err(TestCaseError::fail(format!("{ctx}: no decision waits")));
                };
                let Some((seq, team, kind, label)) = choices.next() else {
                    return Err(TestCaseError::fail(format!(
                        "{ctx}: the log has no choice left"
                    )));
                };
                prop_assert_eq!(team.as_str(), team_name(d.team), "{}: event {}", &ctx, seq);
                prop_assert_eq!(kind.as_str(), d.kind, "{}: event {}", &ctx, seq);
                let i = d.options.iter().position(|o| o.label(rs) == *label);
                let Some(i) = i else {
                    return Err(TestCaseError::fail(format!(
                        "{ctx}: event {seq}: no option labelled {label:?}"
                    )));
                };
                m.choose(i)
                    .map_err(|e| TestCaseError::fail(format!("{ctx}: {e}")))?;
            }
            Status::Chance => {
                let Some(c) = m.chance() else {
                    return Err(TestCaseError::fail(format!("{ctx}: no chance waits")));
                };
                let Some((seq, label, dice)) = rolls.next() else {
                    return Err(TestCaseError::fail(format!(
                        "{ctx}: the log has no roll left"
                    )));
                };
                prop_assert_eq!(
                    label.as_str(),
                    rs.symbol(c.label),
                    "{}: event {}",
                    &ctx,
                    seq
                );
                m.roll(dice)
                    .map_err(|e| TestCaseError::fail(format!("{ctx}: {e}")))?;
            }
            Status::Boundary => {}
            Status::End => break,
        }
    }
    let ctx = format!("{name}, seed {seed}, replayed");
    prop_assert!(
        choices.next().is_none(),
        "{ctx}: choices of the log left over"
    );
    prop_assert!(rolls.next().is_none(), "{ctx}: rolls of the log left over");
    if let Some(d) = first_difference(log, m.events()) {
        return Err(TestCaseError::fail(format!("{ctx}: {d}")));
    }
    same_outcome(Some(&played), m.outcome(), &ctx)
}

// ---------------------------------------------------------------------------- the tests

/// One module of the four properties per edition.
macro_rules! stepping_properties {
    ($module:ident, $name:literal, $cases:literal) => {
        mod $module {
            use super::*;

            proptest! {
                #![proptest_config(ProptestConfig {
                    cases: $cases,
                    max_shrink_iters: 0,
                    ..ProptestConfig::default()
                })]

                #[test]
                fn a_copy_goes_on_like_the_original(seed in any::<u64>()) {
                    clone_goes_on_identically($name, seed)?;
                }

                #[test]
                fn b_chance_outcomes_are_exact_and_taken(seed in any::<u64>()) {
                    chances_are_exact($name, seed)?;
                }

                #[test]
                fn c_secret_choices_stay_hidden(seed in any::<u64>()) {
                    secrets_stay_hidden($name, seed)?;
                }

                #[test]
                fn d_game_logs_replay_by_stepping(seed in any::<u64>()) {
                    game_log_replays_by_stepping($name, seed)?;
                }
            }
        }
    };
}

stepping_properties!(original, "original", 8);
stepping_properties!(edition_2015, "2015", 8);
stepping_properties!(edition_2024, "2024", 8);
stepping_properties!(edition_2024_every_option, "2024 with every option", 8);

#[test]
fn every_edition_is_stepped() {
    assert_eq!(rulesets().len(), EDITIONS.len());
    let advanced = ruleset("2024 with every option");
    assert!(
        advanced.options.iter().all(|o| o.value != o.default),
        "an advanced option is still off"
    );
}
