//! `fuba play`: one match, narrated.

use std::fs::File;
use std::io::{self, BufWriter, Write};

use clap::Args;
use fuba_engine::dice::SeededDice;
use fuba_engine::game::{Ending, Game};
use fuba_engine::log::{EventKind, narrate};

use crate::{AgentKind, CliError, CliResult, make_agent, seed_or_clock};

/// Options of `fuba play`.
#[derive(Args, Debug)]
pub struct PlayArgs {
    /// The ruleset: a built-in edition name (original, 2015, 2024) or the path of a ruleset file.
    #[arg(
        long,
        short,
        value_name = "EDITION|PATH",
        default_value = "original",
        env = "FUBA_RULES"
    )]
    pub rules: String,
    /// Set a match option of the ruleset (`fuba rules show RULES --options` lists them);
    /// repeatable: `--option weather=off --option skills=4`.
    #[arg(long = "option", value_name = "NAME=VALUE")]
    pub options: Vec<String>,
    /// The match seed (dice and random players). Default: from the clock, printed to stderr.
    #[arg(long, short, value_name = "N")]
    pub seed: Option<u64>,
    /// Who plays the home team: random, heuristic, human (play only), or
    /// mcts[:PASSES | :MSms][:random] (search; docs/agents.md).
    #[arg(long, value_name = "AGENT", default_value = "random")]
    pub home: AgentKind,
    /// Who plays the away team: random, heuristic, human (play only), or
    /// mcts[:PASSES | :MSms][:random] (search; docs/agents.md).
    #[arg(long, value_name = "AGENT", default_value = "random")]
    pub away: AgentKind,
    /// Write the match log as JSON Lines to FILE: the header line, then one event per line.
    /// `-` writes the log to stdout, and the narration to stderr.
    #[arg(long, value_name = "FILE")]
    pub log: Option<String>,
    /// Narrate every die, choice, modifier and move, not only what the ruleset narrates.
    #[arg(long, short)]
    pub verbose: bool,
}

fn write_log(m: &Game<'_>, w: &mut dyn Write) -> io::Result<()> {
    fuba_engine::replay::write_log(&m.header(), m.events(), w)
}

/// Runs `fuba play`.
pub fn run(a: PlayArgs) -> CliResult {
    crate::outputs::check_log(a.log.as_deref())?;
    let rs = crate::editions::load_rules_with(&a.rules, &a.options)?;
    let seed = seed_or_clock(a.seed);
    crate::agents::prepare(&rs, &[a.home, a.away]);
    let home = make_agent(a.home, &rs, seed, 0);
    let away = make_agent(a.away, &rs, seed, 1);
    let mut m = Game::new(&rs, seed, Box::new(SeededDice::new(seed)), home, away).with_log();
    let log_to_stdout = a.log.as_deref() == Some("-");
    // With a human at the terminal the narration is printed as the match goes, between the
    // prompts; otherwise all of it once the match is over.
    let live = a.home == AgentKind::Human || a.away == AgentKind::Human;
    if live {
        let verbose = a.verbose;
        m.on_event = Some(Box::new(move |rs, e| {
            if matches!(e.kind, EventKind::MatchEnd { .. }) {
                return; // replaced by the final score line
            }
            if let Some(line) = narrate(rs, e, verbose) {
                // A failing terminal cannot be reported from here; the match goes on.
                if log_to_stdout {
                    let _ = writeln!(io::stderr(), "{line}");
                } else {
                    let _ = writeln!(io::stdout(), "{line}");
                }
            }
        }));
    }
    let result = m.play();
    match a.log.as_deref() {
        None => {}
        Some("-") => write_log(&m, &mut BufWriter::new(io::stdout().lock()))?,
        Some(path) => {
            let written = File::create(path).and_then(|f| write_log(&m, &mut BufWriter::new(f)));
            if let Err(e) = written {
                return Err(CliError::Failure(format!(
                    "cannot write the log `{path}`: {e}"
                )));
            }
        }
    }

    // The narration goes to stdout, or to stderr when stdout carries the log.
    let mut out: Box<dyn Write> = if log_to_stdout {
        Box::new(io::stderr().lock())
    } else {
        Box::new(BufWriter::new(io::stdout().lock()))
    };
    if !live {
        for e in m.events() {
            if matches!(e.kind, EventKind::MatchEnd { .. }) {
                continue; // replaced by the final score line below
            }
            if let Some(line) = narrate(&rs, e, a.verbose) {
                writeln!(out, "{line}")?;
            }
        }
    }
    match result {
        Ok(o) => {
            let cap = if o.ending == Ending::Runaway {
                " (a half hit the turn limit)"
            } else {
                ""
            };
            writeln!(
                out,
                "Final score: Home {} - {} Away{cap}",
                o.score[0], o.score[1]
            )?;
            out.flush()?;
            Ok(())
        }
        Err(e) => {
            out.flush()?;
            Err(CliError::Failure(format!(
                "the match (seed {seed}) stopped: {e}"
            )))
        }
    }
}
