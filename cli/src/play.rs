//! `fuba play`: one match, narrated.

use std::cell::RefCell;
use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::rc::Rc;

use clap::Args;
use fuba_engine::dice::SeededDice;
use fuba_engine::game::{Ending, Game};
use fuba_engine::log::{Event, EventKind, narrate};
use fuba_engine::ruleset::Ruleset;
use fuba_engine::ruleset::diag::Paint;
use fuba_engine::run_report::render_run_error;

use crate::args::{PlayersArgs, RulesetArgs};
use crate::{AgentKind, CliError, CliResult, make_agent, seed_or_clock};

/// Options of `fuba play`.
#[derive(Args, Debug)]
pub struct PlayArgs {
    #[command(flatten)]
    pub ruleset: RulesetArgs,
    /// The match seed (dice and random players). Default: from the clock, printed to stderr.
    #[arg(long, short, value_name = "N")]
    pub seed: Option<u64>,
    #[command(flatten)]
    pub players: PlayersArgs,
    /// Write the match log as JSON Lines to FILE: the header line, then one event per line.
    /// `-` writes the log to stdout, and the narration to stderr.
    #[arg(long, value_name = "FILE")]
    pub log: Option<String>,
    /// Narrate every die, choice, modifier and move, not only what the ruleset narrates.
    #[arg(long, short)]
    pub verbose: bool,
}

/// Where a match's events go as they are logged: each event's line to the log (the file,
/// or stdout), its narration to the narration's writer. Nothing is kept: a long match
/// holds one pause's events at a time. The first failure to write the log is kept and
/// stops further log writing.
struct Sink {
    log: Option<Box<dyn Write>>,
    narration: Box<dyn Write>,
    verbose: bool,
    log_error: Option<io::Error>,
    narration_error: Option<io::Error>,
}

impl Sink {
    fn event_to_log(&mut self, e: &Event) {
        if let (Some(w), None) = (&mut self.log, &self.log_error) {
            let written = serde_json::to_string(e)
                .map_err(io::Error::other)
                .and_then(|line| writeln!(w, "{line}"));
            if let Err(err) = written {
                self.log_error = Some(err);
            }
        }
    }

    fn event(&mut self, rs: &Ruleset, e: &Event) {
        self.event_to_log(e);
        if matches!(e.kind, EventKind::MatchEnd { .. }) || self.narration_error.is_some() {
            return; // the match end is replaced by the final score line
        }
        if let Some(line) = narrate(rs, e, self.verbose) {
            if let Err(err) = writeln!(self.narration, "{line}") {
                self.narration_error = Some(err);
            }
        }
    }
}

/// Runs `fuba play`.
pub fn run(a: PlayArgs) -> CliResult {
    crate::outputs::check_log(a.log.as_deref())?;
    let rs = a.ruleset.load()?;
    let seed = seed_or_clock(a.seed);
    crate::agents::prepare(&rs, &[a.players.home, a.players.away]);
    let home = make_agent(a.players.home, &rs, seed, 0);
    let away = make_agent(a.players.away, &rs, seed, 1);
    let m = Game::new(&rs, seed, Box::new(SeededDice::new(seed)), home, away);
    let log_to_stdout = a.log.as_deref() == Some("-");
    // With a human at the terminal each line is shown at once, between the prompts. A
    // human may take an answer back, which takes back the events since: the log is then
    // kept (bounded by `events_per_match`) and written once the match is over; otherwise
    // each event is written as it comes and none is kept.
    let live = a.players.home == AgentKind::Human || a.players.away == AgentKind::Human;
    let mut m = if live {
        m.with_log()
    } else {
        m.with_streamed_log()
    };
    let shown = |path: &str| {
        if path == "-" {
            "<stdout>".to_string()
        } else {
            format!("`{path}`")
        }
    };
    let mut log: Option<Box<dyn Write>> = match a.log.as_deref() {
        None => None,
        Some("-") => Some(Box::new(BufWriter::new(io::stdout()))),
        Some(path) => match File::create(path) {
            Ok(f) => Some(Box::new(BufWriter::new(f))),
            Err(e) => {
                return Err(CliError::Failure(format!(
                    "cannot write the log `{path}`: {e}"
                )));
            }
        },
    };
    if let Some(w) = &mut log {
        let header = serde_json::to_string(&m.header()).map_err(io::Error::other)?;
        writeln!(w, "{header}")?;
    }
    // The narration goes to stdout, or to stderr when stdout carries the log.
    let narration: Box<dyn Write> = match (log_to_stdout, live) {
        (true, _) => Box::new(io::stderr()),
        (false, true) => Box::new(io::stdout()),
        (false, false) => Box::new(BufWriter::new(io::stdout())),
    };
    let (log, log_after) = if live { (None, log) } else { (log, None) };
    let sink = Rc::new(RefCell::new(Sink {
        log,
        narration,
        verbose: a.verbose,
        log_error: None,
        narration_error: None,
    }));
    let to_sink = Rc::clone(&sink);
    m.on_event = Some(Box::new(move |rs, e| to_sink.borrow_mut().event(rs, e)));
    let result = m.play();
    m.on_event = None;
    let mut sink = sink.borrow_mut();
    if let Some(w) = log_after {
        sink.log = Some(w);
        for e in m.events() {
            sink.event_to_log(e);
        }
    }
    let flushed = match &mut sink.log {
        Some(w) => w.flush(),
        None => Ok(()),
    };
    if let Some(e) = sink.log_error.take().or(flushed.err()) {
        return Err(CliError::Failure(format!(
            "cannot write the log {}: {e}",
            shown(a.log.as_deref().unwrap_or("-"))
        )));
    }
    if let Some(e) = sink.narration_error.take() {
        return Err(e.into());
    }
    let out = &mut sink.narration;
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
            let title = format!("the match (seed {seed}) stopped: {}", e.message);
            let file = Some(&rs.file);
            note_raw!(
                "{}",
                render_run_error(&e, &title, file, Paint::for_stderr())
            );
            Err(CliError::Reported)
        }
    }
}
