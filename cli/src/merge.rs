//! `fuba merge`: adds up the JSON results of the shards of a batch.
//!
//! Each `fuba simulate --format json` result carries its exact integer tallies; merging
//! adds them and computes the figures again, so the shards of a batch merge into exactly
//! the figures of the whole batch played at once.

use std::path::{Path, PathBuf};

use clap::Args;

use crate::args::{CoverageArgs, FiguresOutArgs};
use crate::render;
use crate::stats::Tally;
use crate::{CliError, CliResult};

/// Options of `fuba merge`.
#[derive(Args, Debug)]
#[command(mut_arg("format", |a| a.help("How to print the merged figures")))]
#[command(mut_arg("report", |a| a.help("Also write a self-contained HTML page with charts")))]
pub struct MergeArgs {
    /// JSON results of `fuba simulate --shard K/N --format json` (same --seed and --games).
    #[arg(required = true, value_name = "RESULT.json")]
    pub files: Vec<PathBuf>,
    #[command(flatten)]
    pub output: FiguresOutArgs,
    #[command(flatten)]
    pub coverage: CoverageArgs,
}

/// Reads the tallies of one result file.
pub fn read_tally(path: &Path) -> Result<Tally, CliError> {
    let text = fuba_engine::files::read_text(path, fuba_engine::files::FileKind::Result)
        .map_err(|e| CliError::Failure(format!("cannot read {}: {e}", path.display())))?;
    #[derive(serde::Deserialize)]
    struct Result {
        tallies: Option<Tally>,
        /// The figures listed, which record which one converts into goals.
        #[serde(default)]
        figures: Vec<crate::stats::conversion::Listed>,
    }
    // Read straight into the tally (not through a JSON value) so map order is kept.
    let r: Result = serde_json::from_str(&text).map_err(|e| {
        CliError::Failure(format!(
            "{}: not a result of `fuba simulate --format json`: {e}",
            path.display()
        ))
    })?;
    let mut tally = r.tallies.ok_or_else(|| {
        CliError::Failure(format!(
            "{} has no tallies: write it with `fuba simulate --format json`",
            path.display()
        ))
    })?;
    tally.conversion = crate::stats::conversion::Conversion::from_listed(&r.figures);
    Ok(tally)
}

/// Runs `fuba merge`.
pub fn run(a: MergeArgs) -> CliResult {
    a.output.check()?;
    let mut files = a.files.iter();
    let first = files.next().expect("clap requires a file");
    let mut total = read_tally(first)?;
    for f in files {
        let t = read_tally(f)?;
        total
            .merge_shard(t)
            .map_err(|m| CliError::Failure(format!("{}: {m}", f.display())))?;
    }
    let b = &total.batch;
    if (b.shards.len() as u64) < b.shard_count {
        let missing: Vec<String> = (1..=b.shard_count)
            .filter(|k| !b.shards.contains(k))
            .map(|k| format!("{k}/{}", b.shard_count))
            .collect();
        note!(
            "note: shards {} are missing: the figures are of part of the batch",
            missing.join(", ")
        );
    }
    let out = &a.output;
    render::emit(
        &total,
        None,
        out.format,
        out.out.as_ref(),
        a.coverage.coverage,
    )?;
    if let Some(path) = &out.report {
        render::html::write_simulation(path, &total)?;
    }
    crate::batch::failures(&total, &total.batch.ruleset.clone())
}
