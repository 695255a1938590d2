//! How the figures of a batch are written: the format chosen with `--format` and the
//! file chosen with `--out`, as a text table ([`text`]), CSV ([`csv`]) or JSON
//! ([`json`]), and the HTML page of `--report` ([`html`]).
//!
//! The renderers read a [`Tally`] and the figures computed from it, nothing else: a
//! tally merged from shards renders exactly as the whole batch's.

use std::io::{self, BufWriter, Write};
use std::path::PathBuf;

use clap::ValueEnum;
use serde::Serialize;

use crate::error::{CliError, CliResult};
use crate::stats::Tally;

mod csv;
pub mod html;
mod json;
mod text;

/// `--format` of the figure commands.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum StatsFormat {
    /// Text for people.
    #[default]
    Table,
    /// JSON for programs (with "schema": 1 and the exact tallies `fuba merge` adds up).
    Json,
    /// One line per figure, comma-separated, with a header line.
    Csv,
}

/// Opens `--out FILE` or stdout.
pub fn output(out: Option<&PathBuf>) -> Result<Box<dyn Write>, CliError> {
    Ok(match out {
        Some(p) => Box::new(BufWriter::new(std::fs::File::create(p).map_err(|e| {
            CliError::Failure(format!("cannot write {}: {e}", p.display()))
        })?)),
        None => Box::new(BufWriter::new(io::stdout().lock())),
    })
}

/// Writes a tally's figures in the chosen format.
pub fn emit(
    t: &Tally,
    timing: Option<Timing>,
    format: StatsFormat,
    out: Option<&PathBuf>,
    coverage: bool,
) -> CliResult {
    let mut w = output(out)?;
    match format {
        StatsFormat::Json => {
            let text = json::to_json(t, timing)?;
            writeln!(w, "{text}")?;
        }
        StatsFormat::Csv => csv::write_csv(&mut w, t)?,
        StatsFormat::Table => text::write_table(&mut w, t, timing.as_ref(), coverage)?,
    }
    w.flush()?;
    Ok(())
}

/// How long a batch took.
#[derive(Serialize, Clone, Debug)]
pub struct Timing {
    /// Wall-clock seconds.
    pub seconds: Option<f64>,
    /// Matches per second.
    pub matches_per_second: Option<f64>,
    /// Threads.
    pub jobs: usize,
}
