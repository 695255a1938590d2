//! `fuba replay`: play a recorded match again and show the first event that differs.

use std::io::{self, BufWriter, Write};

use clap::Args;
use fuba_engine::log::{Event, LogHeader, narrate, time_text};
use fuba_engine::replay::{Divergence, ReplayReport, Verdict, read_log, replay};
use fuba_engine::ruleset::Ruleset;
use serde::Serialize;

use crate::{CliError, CliResult, Format, editions};

/// Options of `fuba replay`.
#[derive(Args, Debug)]
pub struct ReplayArgs {
    /// The match log (JSON Lines, as written by `fuba play --log`); `-` reads stdin.
    #[arg(value_name = "LOG")]
    pub log: String,
    /// The ruleset to replay under: a built-in edition name or the path of a ruleset file.
    /// Default: the edition named in the log's header.
    #[arg(long, short, value_name = "EDITION|PATH")]
    pub rules: Option<String>,
    /// How to print the result: `table` for people, `json` (with "schema": 1) for programs.
    #[arg(long, short, value_enum, default_value_t = Format::Table)]
    pub format: Format,
}

/// The log's text: a regular file (or stdin) within the log size limit (docs/limits.md).
fn read_text(path: &str) -> Result<String, CliError> {
    use fuba_engine::files::{FileKind, read_from};
    if path == "-" {
        read_from(io::stdin().lock(), FileKind::Log)
            .map_err(|e| CliError::Failure(format!("cannot read the log from stdin: {e}")))
    } else {
        fuba_engine::files::read_text(std::path::Path::new(path), FileKind::Log)
            .map_err(|e| CliError::Failure(format!("cannot read the log `{path}`: {e}")))
    }
}

/// The ruleset to replay a log under: `--rules` when given, else the built-in edition its
/// header names (a log of a house rule needs its file named).
pub(crate) fn rules_for_log(rules: Option<&str>, header: &LogHeader) -> Result<String, CliError> {
    match rules {
        Some(r) => Ok(r.to_string()),
        None if editions::find(&header.ruleset).is_some() => Ok(header.ruleset.clone()),
        None => Err(CliError::Usage(format!(
            "the log was recorded with the ruleset `{}`, which is not a built-in edition ({}): give its ruleset file with --rules PATH",
            header.ruleset,
            editions::names()
        ))),
    }
}

/// The ruleset to replay a log under ([`rules_for_log`]) with the match options its header
/// records set again, and the name it was given by.
pub(crate) fn ruleset_for_log(
    rules: Option<&str>,
    header: &LogHeader,
) -> Result<(String, Ruleset), CliError> {
    let arg = rules_for_log(rules, header)?;
    let rs = crate::editions::load_rules_with(&arg, &header.options).map_err(|e| match e {
        CliError::Failure(m) if !header.options.is_empty() => CliError::Failure(format!(
            "{m}: the log was played with the match options {} (its header records them), \
             which the rules it is replayed under must offer",
            header.options.join(", ")
        )),
        e => e,
    })?;
    Ok((arg, rs))
}

/// Runs `fuba replay`.
pub fn run(a: ReplayArgs) -> CliResult {
    let text = read_text(&a.log)?;
    let shown = if a.log == "-" { "<stdin>" } else { &a.log };
    let (header, events) =
        read_log(&text).map_err(|m| CliError::Failure(format!("{shown}: {m}")))?;
    let (rules_arg, rs) = ruleset_for_log(a.rules.as_deref(), &header)?;
    let report = replay(&rs, &header, &events);

    let mut out = BufWriter::new(io::stdout().lock());
    match a.format {
        Format::Json => {
            let j = to_json(&rs, shown, &rules_arg, &header.fingerprint, &report);
            let s = serde_json::to_string_pretty(&j).map_err(io::Error::other)?;
            writeln!(out, "{s}")?;
        }
        Format::Table => write_text(&mut out, &rs, &report)?,
    }
    out.flush()?;
    if report.identical() {
        Ok(())
    } else {
        Err(CliError::Reported)
    }
}

fn indent_rest(s: &str, pad: &str) -> String {
    s.lines().collect::<Vec<_>>().join(&format!("\n{pad}"))
}

fn line_of(rs: &Ruleset, e: &Event) -> String {
    narrate(rs, e, true)
        .unwrap_or_default()
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

fn json_of(e: &Event) -> String {
    serde_json::to_string(e).unwrap_or_default()
}

fn write_text(out: &mut dyn Write, rs: &Ruleset, r: &ReplayReport) -> io::Result<()> {
    if let Some(n) = r.rules_note() {
        writeln!(out, "note: {n}")?;
    }
    match &r.verdict {
        Verdict::Identical => {
            match r.score {
                Some([h, w]) => writeln!(
                    out,
                    "identical: {} events, final score Home {h} - {w} Away",
                    r.produced
                )?,
                None => writeln!(out, "identical: {} events (no final score)", r.produced)?,
            }
            if let Some(m) = &r.stopped {
                writeln!(
                    out,
                    "  the match stopped where the recording stops: {}",
                    indent_rest(m, "  ")
                )?;
            }
        }
        Verdict::Diverged(d) => write_divergence(out, rs, r, d)?,
    }
    Ok(())
}

fn write_divergence(
    out: &mut dyn Write,
    rs: &Ruleset,
    r: &ReplayReport,
    d: &Divergence,
) -> io::Result<()> {
    let time = d
        .expected
        .as_ref()
        .or(d.produced.as_ref())
        .map(time_text)
        .unwrap_or_default();
    let turn = if d.turn == 0 {
        "before the first turn".to_string()
    } else {
        format!("turn {}", d.turn)
    };
    writeln!(
        out,
        "diverged at event {} ({} recorded, {} replayed)",
        d.index, r.recorded, r.produced
    )?;
    writeln!(out, "  when:     half {}, {turn}, {time}", d.half)?;
    if !d.stage.is_empty() {
        writeln!(out, "  stage:    {}", d.stage)?;
    }
    writeln!(out, "  rule:     {}", d.rule)?;
    let pad = "            ";
    match &d.expected {
        Some(e) => {
            writeln!(out, "  expected: {}", line_of(rs, e))?;
            writeln!(out, "{pad}{}", json_of(e))?;
        }
        None => writeln!(out, "  expected: nothing more (the recording ends here)")?,
    }
    match (&d.produced, &d.message) {
        (Some(e), _) => {
            writeln!(out, "  produced: {}", line_of(rs, e))?;
            writeln!(out, "{pad}{}", json_of(e))?;
        }
        (None, Some(m)) => writeln!(
            out,
            "  produced: nothing: the replay stopped: {}",
            indent_rest(m, pad)
        )?,
        (None, None) => writeln!(out, "  produced: nothing more (the replay ends here)")?,
    }
    if let (Some(_), Some(m)) = (&d.produced, &r.stopped) {
        writeln!(
            out,
            "  later, the replay stopped after {} events: {}",
            r.produced,
            m.lines().next().unwrap_or_default()
        )?;
    }
    Ok(())
}

#[derive(Serialize)]
struct JsonReport<'r> {
    schema: u32,
    log: &'r str,
    rules: &'r str,
    ruleset: &'r str,
    rulebook: &'r str,
    fingerprint: &'r str,
    recorded_ruleset: &'r str,
    recorded_rulebook: &'r str,
    recorded_fingerprint: &'r str,
    rules_changed: bool,
    note: Option<String>,
    identical: bool,
    recorded: usize,
    produced: usize,
    score: Option<[i64; 2]>,
    stopped: Option<&'r str>,
    divergence: Option<JsonDivergence<'r>>,
}

#[derive(Serialize)]
struct JsonDivergence<'r> {
    index: usize,
    half: u32,
    turn: u32,
    minute: i64,
    added: i64,
    stage: &'r str,
    rule: &'r str,
    expected: Option<&'r Event>,
    produced: Option<&'r Event>,
    expected_text: Option<String>,
    produced_text: Option<String>,
    message: Option<&'r str>,
}

fn to_json<'r>(
    rs: &'r Ruleset,
    log: &'r str,
    rules: &'r str,
    recorded_fingerprint: &'r str,
    r: &'r ReplayReport,
) -> JsonReport<'r> {
    let divergence = match &r.verdict {
        Verdict::Identical => None,
        Verdict::Diverged(d) => Some(JsonDivergence {
            index: d.index,
            half: d.half,
            turn: d.turn,
            minute: d.minute,
            added: d.added,
            stage: &d.stage,
            rule: &d.rule,
            expected: d.expected.as_ref(),
            produced: d.produced.as_ref(),
            expected_text: d.expected.as_ref().map(|e| line_of(rs, e)),
            produced_text: d.produced.as_ref().map(|e| line_of(rs, e)),
            message: d.message.as_deref(),
        }),
    };
    JsonReport {
        schema: 1,
        log,
        rules,
        ruleset: &rs.name,
        rulebook: &rs.source,
        fingerprint: &rs.fingerprint,
        recorded_ruleset: &r.recorded_rules.ruleset,
        recorded_rulebook: &r.recorded_rules.rulebook,
        recorded_fingerprint,
        rules_changed: r.rules_changed,
        note: r.rules_note(),
        identical: r.identical(),
        recorded: r.recorded,
        produced: r.produced,
        score: r.score,
        stopped: r.stopped.as_deref(),
        divergence,
    }
}
