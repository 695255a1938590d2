//! `fuba rules`: check ruleset files, list the engine's primitives.

use std::io::{self, BufWriter, Write};
use std::path::Path;

use clap::Subcommand;
use fuba_engine::prims::Prim;
use fuba_engine::ruleset::diag::{LoadErrors, Paint};

use crate::{CliError, CliResult, Format, editions};

#[path = "rules_diff.rs"]
mod diff;
#[path = "rules_new.rs"]
mod new;
#[path = "rules_show.rs"]
mod show;

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
    /// Show a ruleset's tables and lists as aligned text: a table row by row (the
    /// rulebook's words for each result), constants, procedures, triggers by hook.
    ///
    /// Without a flag: an overview (layers, match settings, the tables and how many of
    /// everything there is).
    #[command(after_long_help = SHOW_EXAMPLES)]
    Show {
        /// A built-in edition's name or a ruleset file.
        #[arg(value_name = "RULES")]
        rules: String,
        /// One table, row by row: the result and what it says.
        #[arg(long, value_name = "NAME", group = "what")]
        table: Option<String>,
        /// Every constant with its value and type.
        #[arg(long, group = "what")]
        constants: bool,
        /// Every procedure with its rulebook section and parameters.
        #[arg(long, group = "what")]
        procedures: bool,
        /// The skills: each with its cost and other fields, when it can be played and what
        /// it does (the rulebook's words); with --verbose also where each is played and
        /// every trigger (skills, weather, house rules) grouped by the hook it attaches to.
        #[arg(long, group = "what")]
        skills: bool,
        /// The options a match can be played with.
        #[arg(long, group = "what")]
        options: bool,
        /// Every decision with the labels a scenario's script answers it with (the word
        /// for declining included: `done`, `no`, `none`...).
        #[arg(long, group = "what")]
        decisions: bool,
        /// With --skills: also where each skill is played and every trigger by hook.
        #[arg(long, requires = "skills")]
        verbose: bool,
        /// `table`: aligned text; `json`: the same as data.
        #[arg(long, short, value_enum, default_value_t = Format::Table)]
        format: Format,
    },
    /// List what differs between two rulesets, entry by entry.
    ///
    /// Meta, constants (old → new), state variables, match settings, the board (areas,
    /// links, marks, numbers), procedures (a short unified diff of the changed code),
    /// tables (rows added, removed, or with a changed label or code), hooks, triggers,
    /// match options, narration and figures. Sections with no difference are left out.
    /// `--summary` gives per section counts and names only (how one edition evolved into
    /// another, at a glance).
    #[command(after_long_help = DIFF_EXAMPLES)]
    Diff {
        /// The ruleset compared from (an edition name or a file).
        #[arg(value_name = "A")]
        a: String,
        /// The ruleset compared to.
        #[arg(value_name = "B")]
        b: String,
        /// `table`: a readable summary; `json`: every change as data.
        #[arg(long, short, value_enum, default_value_t = Format::Table)]
        format: Format,
        /// Per section: how many entries were changed, added and removed, and their names
        /// (no code, no field values).
        #[arg(long)]
        summary: bool,
    },
    /// Print a commented starter file for a house rule that extends an edition.
    ///
    /// The file extends the edition and holds commented examples of what a layer can do:
    /// change a constant, replace a table row or a procedure, add a trigger, remove an
    /// entry. As printed, it checks clean (`fuba rules check`).
    #[command(after_long_help = NEW_EXAMPLES)]
    New {
        /// The edition (or ruleset file) the house rule builds on.
        #[arg(long, value_name = "EDITION", default_value = "original")]
        extends: String,
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

const SHOW_EXAMPLES: &str = "\
Examples:
  fuba rules show original
  fuba rules show original --table special_event
  fuba rules show rulesets/examples/cautious-referee.toml --table special_event
  fuba rules show 2015 --constants
  fuba rules show 2024 --skills
  fuba rules show 2024 --skills --verbose
  fuba rules show original --procedures --format json | jq '.[].name'

Exit codes: 0 shown; 1 the ruleset has errors; 2 usage error (including an unknown table).";

const DIFF_EXAMPLES: &str = "\
Examples:
  fuba rules diff original rulesets/examples/gentle-long-pass.toml
  fuba rules diff original 2015
  fuba rules diff 2015 2024 --summary
  fuba rules diff original my-rules.toml --format json | jq '.changes[].entry'

Exit codes: 0 compared (whether or not they differ); 1 a ruleset has errors; 2 usage error.";

const NEW_EXAMPLES: &str = "\
Examples:
  fuba rules new --extends original > my-rules.toml
  fuba rules check my-rules.toml

Exit codes: 0 printed; 1 the edition has errors; 2 usage error.";

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
        RulesCommand::Show {
            rules,
            table,
            constants,
            procedures,
            skills,
            options,
            decisions,
            verbose,
            format,
        } => {
            let what = match table {
                Some(t) => show::What::Table(t),
                None if constants => show::What::Constants,
                None if procedures => show::What::Procedures,
                None if skills => show::What::Skills { verbose },
                None if options => show::What::Options,
                None if decisions => show::What::Decisions,
                None => show::What::Overview,
            };
            show::run(&rules, &what, format)
        }
        RulesCommand::Diff {
            a,
            b,
            format,
            summary,
        } => diff::run(&a, &b, format, summary),
        RulesCommand::New { extends } => new::run(&extends),
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
                            let paint = Paint::for_stderr();
                            for d in &rs.warnings {
                                note!("{}", d.render(paint));
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
                        note_raw!("{}", e.render(Paint::for_stderr()));
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
