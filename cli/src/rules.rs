//! `fuba rules`: check ruleset files, list the engine's primitives.

use std::io::{self, BufWriter, Write};
use std::path::Path;

use clap::Subcommand;
use fuba_engine::prims::Prim;
use fuba_engine::ruleset::diag::LoadErrors;

use crate::{CliError, CliResult, Format, editions};

/// `fuba rules ...`.
#[derive(Subcommand, Debug)]
pub enum RulesCommand {
    /// Load and check ruleset files: every reference resolved, every rule type-checked,
    /// then linted.
    ///
    /// Prints `ok: PATH (ruleset NAME)` for each good file on stdout, and the diagnostics of
    /// each file on stderr: file:line:col, the line with a caret under the problem, and a
    /// hint. Errors make a ruleset unusable; warnings (lints) point at what is likely a
    /// mistake: a procedure, table or hook nothing reaches, a trigger that never fires, a
    /// labels-table row no rule looks up, a `match` arm never reached, an option offered
    /// `when false`, a number outside what it can be. With `--format json`, stdout gets one
    /// JSON array of every diagnostic instead (`severity` is "error" or "warning", `lint`
    /// names the lint). A built-in edition's name (original) checks the copy built into
    /// `fuba`.
    #[command(after_long_help = CHECK_EXAMPLES)]
    Check {
        /// Ruleset files (or built-in edition names).
        #[arg(value_name = "PATH", required = true)]
        paths: Vec<String>,
        /// `table`: ok lines and readable diagnostics; `json`: an array of diagnostics.
        #[arg(long, short, value_enum, default_value_t = Format::Table)]
        format: Format,
        /// `--deny warnings`: a ruleset with warnings fails the check (exit 1).
        #[arg(long, value_enum, value_name = "WHAT")]
        deny: Option<Deny>,
    },
    /// Print every engine primitive (name, parameter types, result type, what it does)
    /// as a Markdown table: the source of docs/primitives.md.
    #[command(after_long_help = PRIMITIVES_EXAMPLES)]
    Primitives,
}

const CHECK_EXAMPLES: &str = "\
Examples:
  fuba rules check rulesets/original.toml
  fuba rules check rulesets/*.toml my-house-rules.toml
  fuba rules check --format json broken.toml | jq '.[].message'

  fuba rules check --deny warnings rulesets/examples/*.toml

Exit codes: 0 every file is a valid ruleset (warnings allowed); 1 at least one has errors,
or warnings under --deny warnings; 2 usage error.";

const PRIMITIVES_EXAMPLES: &str = "\
Examples:
  fuba rules primitives > docs/primitives.md

Exit codes: 0 success; 2 usage error.";

/// Runs `fuba rules ...`.
pub fn run(c: RulesCommand) -> CliResult {
    match c {
        RulesCommand::Check {
            paths,
            format,
            deny,
        } => check(&paths, format, deny.is_some()),
        RulesCommand::Primitives => primitives(),
    }
}

fn load_any(arg: &str) -> Result<fuba_engine::ruleset::Ruleset, LoadErrors> {
    match editions::EDITIONS.iter().find(|e| e.name == arg) {
        Some(e) => editions::load_edition(e),
        None => editions::load_path(Path::new(arg)),
    }
}

/// What `--deny` makes fail a check.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Deny {
    /// Warnings (lints) fail the check.
    Warnings,
}

fn json_diag(d: &fuba_engine::ruleset::diag::Diagnostic, p: &str) -> serde_json::Value {
    let mut j = d.to_json();
    if let Some(obj) = j.as_object_mut() {
        if obj.get("file").is_none_or(serde_json::Value::is_null) {
            obj.insert("file".into(), p.into());
        }
    }
    j
}

fn check(paths: &[String], format: Format, deny_warnings: bool) -> CliResult {
    let mut out = BufWriter::new(io::stdout().lock());
    let mut failed = 0usize;
    let mut all = Vec::new();
    for p in paths {
        match load_any(p) {
            Ok(rs) => {
                let w = rs.warnings.len();
                match format {
                    Format::Table => {
                        if w > 0 {
                            out.flush()?;
                            for d in &rs.warnings {
                                note!("{d}");
                            }
                        }
                        if w > 0 && deny_warnings {
                            failed += 1;
                            note!(
                                "failed: {p} ({w} warning{}, denied by --deny warnings)\n",
                                plural(w)
                            );
                        } else if w > 0 {
                            writeln!(
                                out,
                                "ok: {p} (ruleset {}), {w} warning{}",
                                rs.name,
                                plural(w)
                            )?;
                        } else {
                            writeln!(out, "ok: {p} (ruleset {})", rs.name)?;
                        }
                    }
                    Format::Json => {
                        all.extend(rs.warnings.iter().map(|d| json_diag(d, p)));
                        if w > 0 && deny_warnings {
                            failed += 1;
                        }
                    }
                }
            }
            Err(e) => {
                failed += 1;
                match format {
                    Format::Table => {
                        out.flush()?;
                        note_raw!("{e}");
                        note!("failed: {p} ({} error{})\n", e.0.len(), plural(e.0.len()));
                    }
                    Format::Json => all.extend(e.0.iter().map(|d| json_diag(d, p))),
                }
            }
        }
    }
    if format == Format::Json {
        let text = serde_json::to_string_pretty(&all).map_err(io::Error::other)?;
        writeln!(out, "{text}")?;
    }
    out.flush()?;
    if failed == 0 {
        Ok(())
    } else if format == Format::Json {
        Err(CliError::Reported)
    } else {
        Err(CliError::Failure(format!(
            "{failed} of {} ruleset{} failed the check",
            paths.len(),
            plural(paths.len())
        )))
    }
}

fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}

/// Escapes a table cell.
fn cell(s: &str) -> String {
    s.replace('|', "\\|").replace('\n', " ")
}

fn primitives() -> CliResult {
    let mut out = BufWriter::new(io::stdout().lock());
    writeln!(
        out,
        "<!-- Generated by `fuba rules primitives`; do not edit by hand. -->"
    )?;
    writeln!(out)?;
    writeln!(out, "# Engine primitives")?;
    writeln!(out)?;
    writeln!(
        out,
        "The general operations rules call (docs/effect-language.md). They speak of areas, teams,"
    )?;
    writeln!(
        out,
        "pieces, dice, the ball, the clock and the score, never of an edition's rules."
    )?;
    writeln!(out)?;
    writeln!(out, "| primitive | parameters | result | what it does |")?;
    writeln!(out, "| --- | --- | --- | --- |")?;
    for p in Prim::all() {
        let params: Vec<String> = p.params().iter().map(ToString::to_string).collect();
        writeln!(
            out,
            "| `{}` | {} | {} | {} |",
            p.name(),
            if params.is_empty() {
                "-".to_string()
            } else {
                params.join(", ")
            },
            p.ret(),
            cell(p.doc())
        )?;
    }
    out.flush()?;
    Ok(())
}
