//! `fuba view LOG|SCENARIO [-o page.html]`: one self-contained HTML page that draws the
//! board from the ruleset's board data and steps through a recorded match (or a
//! scenario's run) event by event; a scenario's expectations are listed, each marked held
//! or failed ([`scenario`]).
//!
//! The match is played again from its log (the same seed and choices, as `fuba replay`
//! does), keeping the state at every pause ([`fuba_engine::game::Game::with_states`]): an
//! event is shown with the board as it stood at the first pause after it. The page holds
//! everything (no scripts, fonts or images from elsewhere): the board as SVG, the
//! positions and events as JSON, and a small script for the buttons, the slider and the
//! arrow keys.

use std::path::{Path, PathBuf};

use clap::Args;
use fuba_engine::agent::ScriptedAgent;
use fuba_engine::dice::SeededDice;
use fuba_engine::game::Game;
use fuba_engine::log::{Event, EventKind, LogHeader, narrate, time_text};
use fuba_engine::replay::{read_log, scripts};
use fuba_engine::ruleset::Ruleset;
use serde::Serialize;

use crate::{CliError, CliResult};

mod page;
mod scenario;
pub mod svg;

use crate::board::layout;
use crate::board::position::{self, Position};

/// Options of `fuba view`.
#[derive(Args, Debug)]
pub struct ViewArgs {
    /// The match log to show (JSON Lines, as written by `fuba play --log FILE`), or a
    /// scenario file (`.toml`): its position, its run and its expectations.
    #[arg(value_name = "LOG|SCENARIO")]
    pub input: PathBuf,
    /// The ruleset the match was played under: a built-in edition name or a ruleset file.
    /// Default: the edition named in the log's header (a scenario names its own).
    #[arg(long, short, value_name = "EDITION|PATH")]
    pub rules: Option<String>,
    /// Write the page to FILE. Default: the log's name with `.html`.
    #[arg(long, short, value_name = "FILE.html")]
    pub out: Option<PathBuf>,
}

/// One event as the page shows it.
#[derive(Serialize, Debug)]
pub struct Step {
    /// The narration line (or the event's kind and fields).
    #[serde(rename = "t")]
    pub text: String,
    /// The clock, `12'` or `45+2'`.
    #[serde(rename = "c")]
    pub time: String,
    /// The rule that caused it (`procedures.pass`, `tables.shot[5]`).
    #[serde(rename = "r")]
    pub rule: String,
    /// The rulebook section of that rule, if recorded.
    #[serde(rename = "x")]
    pub section: String,
    /// The stage it happened in.
    #[serde(rename = "g")]
    pub stage: String,
    /// The dice, for a roll: `control check: 3 5`.
    #[serde(rename = "d")]
    pub dice: String,
    /// The position it left the board in (an index into the positions).
    #[serde(rename = "p")]
    pub position: usize,
}

/// A whole match to show: its positions and its events.
#[derive(Serialize, Debug)]
pub struct Film {
    /// The page's title.
    pub title: String,
    /// What it shows, in a line: ruleset, seed, players, final score.
    pub about: String,
    /// The area names, by index.
    pub areas: Vec<String>,
    /// The names of the match's and the teams' variables shown (those that change).
    pub match_vars: Vec<(usize, String)>,
    /// The teams' variables shown.
    pub team_vars: Vec<(usize, String)>,
    /// The distinct positions, in order.
    pub positions: Vec<Position>,
    /// The events.
    pub steps: Vec<Step>,
}

/// The text of an event: its narration, or its kind and fields.
fn event_text(rs: &Ruleset, e: &Event) -> String {
    if let Some(t) = narrate(rs, e, true) {
        // The time is shown beside it.
        let time = format!("{} ", time_text(e));
        return t.strip_prefix(&time).unwrap_or(&t).to_string();
    }
    match &e.kind {
        EventKind::Emit { kind, fields } => {
            let f: Vec<String> = fields.iter().map(|(k, v)| format!("{k} {v}")).collect();
            format!("{kind}: {}", f.join(", "))
        }
        other => serde_json::to_value(other)
            .ok()
            .and_then(|v| v.get("event").and_then(|k| k.as_str()).map(str::to_string))
            .unwrap_or_default(),
    }
}

fn dice_text(e: &Event) -> String {
    match &e.kind {
        EventKind::Roll {
            label, dice, kept, ..
        } => {
            let all: Vec<String> = dice.iter().map(u8::to_string).collect();
            let mut s = format!("{label}: {}", all.join(" "));
            if kept != dice {
                let k: Vec<String> = kept.iter().map(u8::to_string).collect();
                s.push_str(&format!(" (kept {})", k.join(" ")));
            }
            s
        }
        _ => String::new(),
    }
}

impl Film {
    /// The film of `events` and the states kept while they were played: `states[i] =
    /// (n, st)` is the state after the first `n` events.
    pub fn new(
        rs: &Ruleset,
        title: String,
        about: String,
        events: &[Event],
        states: &[(usize, fuba_engine::state::MatchState)],
    ) -> Film {
        let mut positions: Vec<Position> = Vec::new();
        let mut after: Vec<(usize, usize)> = Vec::new(); // (events before, position)
        for (n, st) in states {
            let p = Position::of(rs, st);
            if positions.last() != Some(&p) {
                positions.push(p);
            }
            after.push((*n, positions.len() - 1));
        }
        if positions.is_empty() {
            positions.push(Position::of(rs, &fuba_engine::state::MatchState::new(rs)));
        }
        let mut k = 0;
        let steps = events
            .iter()
            .enumerate()
            .map(|(i, e)| {
                while k + 1 < after.len() && after[k].0 <= i {
                    k += 1;
                }
                Step {
                    text: event_text(rs, e),
                    time: time_text(e),
                    rule: e.rule.clone(),
                    section: e.section.clone(),
                    stage: e.stage.clone(),
                    dice: dice_text(e),
                    position: after.get(k).map_or(0, |a| a.1),
                }
            })
            .collect();
        // Show the variables that change during the match.
        let changes = |get: &dyn Fn(&Position) -> String| {
            positions.windows(2).any(|w| get(&w[0]) != get(&w[1]))
        };
        let match_vars = rs.vars[0]
            .iter()
            .enumerate()
            .filter(|(i, _)| changes(&|p: &Position| p.match_vars[*i].clone()))
            .map(|(i, v)| (i, v.name.clone()))
            .collect();
        let entries = entry_vars(rs);
        let team_vars = rs.vars[1]
            .iter()
            .enumerate()
            .filter(|(i, _)| changes(&|p: &Position| p.team_vars[*i].join("|")))
            .map(|(i, v)| {
                let name = match entries.iter().find(|(var, _)| *var == v.name) {
                    Some((_, entry)) => format!("{} ({entry})", v.name),
                    None => v.name.clone(),
                };
                (i, name)
            })
            .collect();
        Film {
            title,
            about,
            areas: rs.board.areas.iter().map(|a| a.name.clone()).collect(),
            match_vars,
            team_vars,
            positions,
            steps,
        }
    }
}

/// The team variables that hold a collection entry's team state (`KEY_7`: entry 7 of the
/// collection, in declaration order, as docs/ruleset-format.md says), with the entry's
/// name, so that the page names the entry beside the variable.
fn entry_vars(rs: &Ruleset) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for (coll, decl) in &rs.raw.collections {
        let Some(entries) = rs.raw.entries.get(coll) else {
            continue;
        };
        for key in decl.team_state.keys() {
            for (i, name) in entries.keys().enumerate() {
                out.push((format!("{key}_{}", i + 1), name.clone()));
            }
        }
    }
    out
}

/// Plays the logged match again, keeping its states.
fn replay_film(rs: &Ruleset, header: &LogHeader, events: &[Event]) -> Result<Film, CliError> {
    let [home, away] = scripts(events);
    let mut g = Game::new(
        rs,
        header.seed,
        Box::new(SeededDice::new(header.seed)),
        Box::new(ScriptedAgent::new(home)),
        Box::new(ScriptedAgent::new(away)),
    )
    .with_states();
    let result = g.play();
    let produced = g.events();
    if produced != events {
        let why = match result {
            Err(e) => e.to_string(),
            Ok(_) => "the rules play it differently".to_string(),
        };
        return Err(CliError::Failure(format!(
            "the log does not replay under {} ({why}); `fuba replay` shows where it differs",
            rs.name
        )));
    }
    let score = g.m.st.score;
    let options = if header.options.is_empty() {
        String::new()
    } else {
        format!(" ({})", header.options.join(", "))
    };
    let about = format!(
        "{}{options} · seed {} · home {} vs away {} · {}–{}",
        rs.name, header.seed, header.home, header.away, score[0], score[1]
    );
    Ok(Film::new(rs, rs.title.clone(), about, events, g.states()))
}

fn default_out(input: &Path) -> PathBuf {
    input.with_extension("html")
}

/// Runs `fuba view`.
pub fn run(a: ViewArgs) -> CliResult {
    if a.input.extension().is_some_and(|e| e == "toml") {
        if a.rules.is_some() {
            return Err(CliError::Usage(
                "a scenario names its own rules (`rules = ...` in the file): leave out --rules"
                    .into(),
            ));
        }
        let out = a.out.clone().unwrap_or_else(|| default_out(&a.input));
        crate::outputs::check(&[Some(out.as_path())])?;
        let (rs, film, checks) = scenario::film(&a.input)?;
        return write_page(&out, &page::html(&rs, &film, &checks), &film);
    }
    let shown = a.input.display().to_string();
    let text = fuba_engine::files::read_text(&a.input, fuba_engine::files::FileKind::Log)
        .map_err(|e| CliError::Failure(format!("cannot read the log `{shown}`: {e}")))?;
    let out = a.out.clone().unwrap_or_else(|| default_out(&a.input));
    crate::outputs::check(&[Some(out.as_path())])?;
    let (header, events) =
        read_log(&text).map_err(|m| CliError::Failure(format!("{shown}: {m}")))?;
    let (_, rs) = crate::replay::ruleset_for_log(a.rules.as_deref(), &header)?;
    let film = replay_film(&rs, &header, &events)?;
    write_page(&out, &page::html(&rs, &film, &[]), &film)
}

fn write_page(out: &Path, html: &str, film: &Film) -> CliResult {
    std::fs::write(out, html)
        .map_err(|e| CliError::Failure(format!("cannot write {}: {e}", out.display())))?;
    note!(
        "wrote {} ({} events, {} positions): open it in a browser",
        out.display(),
        film.steps.len(),
        film.positions.len()
    );
    Ok(())
}
