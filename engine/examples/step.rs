//! Steps one match by hand through the match value's interface (`fuba_engine::vm::Match`),
//! with no `Game`, no agent: `advance` says what the match waits for, `decision` /
//! `chance` show it, `choose` / `roll` answer it. Every decision takes its first option;
//! dice come from the seeded stream of the match seed. At the first decision of the
//! match's third turn the match is cloned, and the copy, fed the same dice and choices,
//! ends with the same score and the same log.
//!
//! ```sh
//! cargo run -p fuba-engine --example step                        # rulesets/original.toml
//! cargo run -p fuba-engine --example step -- rulesets/2015.toml  # any ruleset file
//! ```
//!
//! See docs/architecture.md ("Stepping a match by hand").

use fuba_engine::dice::{DiceSource, SeededDice};
use fuba_engine::log::team_name;
use fuba_engine::vm::{Match, RunError, Status};

/// The match seed (also the dice stream's).
const SEED: u64 = 7;

/// Options printed per decision (the rest are counted).
const SHOWN: usize = 6;

fn main() {
    let path = std::env::args().nth(1).map_or_else(
        || std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../rulesets/original.toml"),
        std::path::PathBuf::from,
    );
    let rs = match fuba_engine::load::load_file(&path) {
        Ok(rs) => rs,
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(2);
        }
    };
    if let Err(e) = run(&rs) {
        eprintln!("error: {e}");
        std::process::exit(1);
    }
}

fn run(rs: &fuba_engine::ruleset::Ruleset) -> Result<(), RunError> {
    let mut m = Match::new(rs, SEED).with_log();
    let mut dice = SeededDice::new(SEED);
    // The copy taken at the first decision of turn 3, with its own copy of the dice stream.
    let mut fork: Option<(Match<'_>, SeededDice)> = None;
    let mut shown_outcomes = false;
    loop {
        let status = m.advance()?;
        if status == Status::Decision && fork.is_none() && m.st.turns_total >= 3 {
            println!(
                "-- cloned at the first decision of turn {} (half {}, turn {})",
                m.st.turns_total, m.st.clock.half, m.st.turn
            );
            fork = Some((m.clone(), dice.clone()));
        }
        if status == Status::Chance && !shown_outcomes {
            if let Some(c) = m.chance() {
                let outcomes = c.outcomes();
                let (first, (num, den)) = &outcomes[0];
                println!(
                    "   (the roll \"{}\" has {} outcomes; {first:?} has probability {num}/{den})",
                    rs.symbol(c.label),
                    outcomes.len()
                );
                shown_outcomes = true;
            }
        }
        if !answer(&mut m, &mut dice, status, true)? {
            break;
        }
    }
    let score = m.outcome().map_or([0, 0], |o| o.score);
    println!("final score: home {} - {} away", score[0], score[1]);

    let Some((mut copy, mut copy_dice)) = fork else {
        println!("the match had fewer than 3 turns: nothing was cloned");
        return Ok(());
    };
    loop {
        let status = copy.advance()?;
        if !answer(&mut copy, &mut copy_dice, status, false)? {
            break;
        }
    }
    let copy_score = copy.outcome().map_or([0, 0], |o| o.score);
    println!(
        "the copy from turn 3: home {} - {} away; {} events, the same log: {}",
        copy_score[0],
        copy_score[1],
        copy.events().len(),
        copy.events() == m.events()
    );
    assert_eq!(score, copy_score, "the two copies of the match diverged");
    assert!(
        copy.events() == m.events(),
        "the two copies logged different events"
    );
    Ok(())
}

/// Answers what the match waits for after `advance` returned `status`: the first option
/// of a decision, dice from the stream for a chance event. `false` once the match is over.
/// With `show`, prints what it answers.
fn answer(
    m: &mut Match<'_>,
    dice: &mut SeededDice,
    status: Status,
    show: bool,
) -> Result<bool, RunError> {
    match status {
        Status::Decision => {
            if show {
                let (half, turn) = (m.st.clock.half, m.st.turn);
                if let Some(d) = m.decision() {
                    let labels: Vec<String> = d
                        .options
                        .iter()
                        .take(SHOWN)
                        .map(|o| o.label(m.rs))
                        .collect();
                    let more = d.options.len().saturating_sub(SHOWN);
                    println!(
                        "{half}.{turn:<3} {} decides \"{}\": {} options [{}{}]",
                        team_name(d.team),
                        d.kind,
                        d.options.len(),
                        labels.join(", "),
                        if more > 0 {
                            format!(", ... {more} more")
                        } else {
                            String::new()
                        },
                    );
                }
            }
            m.choose(0)?;
        }
        Status::Chance => {
            let Some(c) = m.chance() else {
                return Ok(true);
            };
            let label = m.rs.symbol(c.label);
            let mut rolled = Vec::with_capacity(usize::from(c.count));
            for _ in 0..c.count {
                match dice.roll(c.sides, label) {
                    Ok(d) => rolled.push(d),
                    Err(msg) => return Err(m.fail(msg)),
                }
            }
            if show {
                let who = c.team.map_or("", team_name);
                println!(
                    "      roll {who} \"{label}\" {}d{}: {rolled:?}",
                    c.count, c.sides
                );
            }
            m.roll(&rolled)?;
        }
        // Only reported when `pause_at_stages` is set: nothing to answer.
        Status::Boundary => {}
        Status::End => return Ok(false),
    }
    Ok(true)
}
