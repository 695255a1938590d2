//! `fuba scenario`: run scenario files (a pinned position, scripted dice and choices, and
//! expectations) and say which pass.

use std::collections::HashMap;
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};

use clap::Args;
use fuba_engine::ruleset::Ruleset;
use fuba_engine::scenario::Scenario;

use crate::{CliError, CliResult, editions};

/// Options of `fuba scenario`.
#[derive(Args, Debug)]
pub struct ScenarioArgs {
    /// Scenario files, or directories searched (recursively, in name order) for `*.toml`.
    #[arg(value_name = "FILE|DIR", required = true)]
    pub paths: Vec<PathBuf>,
    /// Show the narration of what ran for passing scenarios too (failing ones always show
    /// it).
    #[arg(long, short)]
    pub verbose: bool,
}

/// The scenario files under `dir`, sorted, recursively (other TOML files, a ruleset copied
/// beside its scenarios, are left out: see [`Scenario::not_a_scenario`]).
fn collect(dir: &Path, out: &mut Vec<PathBuf>) -> io::Result<()> {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)?
        .filter_map(Result::ok)
        .map(|e| e.path())
        .collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            collect(&p, out)?;
        } else if p.extension().is_some_and(|e| e == "toml") {
            out.push(p);
        }
    }
    Ok(())
}

/// Loads each ruleset once.
#[derive(Default)]
pub(crate) struct Rules {
    loaded: HashMap<String, Result<Ruleset, String>>,
}

impl Rules {
    /// The ruleset a scenario names: a path (relative to the scenario file) or an edition.
    pub(crate) fn get(&mut self, s: &Scenario) -> Result<&Ruleset, String> {
        self.get_with(s, s.option_pairs())
    }

    /// The ruleset a scenario names, with these match options.
    fn get_with(
        &mut self,
        s: &Scenario,
        options: Vec<(String, String)>,
    ) -> Result<&Ruleset, String> {
        let (key, path) = match s.rules_path() {
            Some(p) => (p.display().to_string(), Some(p)),
            None => (s.rules.clone(), None),
        };
        let key = format!("{key} {options:?}");
        self.loaded
            .entry(key)
            .or_insert_with(|| match path {
                Some(p) => match editions::load_with_options(&p.display().to_string(), &options) {
                    Ok(rs) => Ok(rs),
                    Err(editions::RulesError::Load(e)) => {
                        Err(format!("the ruleset `{}` does not load:\n{e}", p.display()))
                    }
                    Err(editions::RulesError::Unknown(m)) => Err(m),
                },
                None if editions::find(&s.rules).is_some() => {
                    match editions::load_with_options(&s.rules, &options) {
                        Ok(rs) => Ok(rs),
                        Err(editions::RulesError::Load(e)) => Err(format!(
                            "the edition `{}` does not load:\n{e}",
                            s.rules
                        )),
                        Err(editions::RulesError::Unknown(m)) => Err(m),
                    }
                }
                None => Err(format!(
                    "rules = \"{}\" is neither a built-in edition ({}) nor a ruleset path (a path ends in .toml or contains /)",
                    s.rules,
                    editions::names()
                )),
            })
            .as_ref()
            .map_err(Clone::clone)
    }
}

fn indented(out: &mut dyn Write, pad: &str, text: &str) -> io::Result<()> {
    for l in text.lines() {
        writeln!(out, "{pad}{l}")?;
    }
    Ok(())
}

/// Runs `fuba scenario`.
pub fn run(a: ScenarioArgs) -> CliResult {
    let mut out = BufWriter::new(io::stdout().lock());
    let mut files = Vec::new();
    let mut broken = 0usize;
    for p in &a.paths {
        if p.is_dir() {
            if let Err(e) = collect(p, &mut files) {
                writeln!(out, "ERROR {}", p.display())?;
                writeln!(out, "    cannot read the directory: {e}")?;
                broken += 1;
            }
        } else if p.exists() {
            files.push(p.clone());
        } else {
            writeln!(out, "ERROR {}", p.display())?;
            writeln!(out, "    no such file or directory")?;
            broken += 1;
        }
    }
    if files.is_empty() && broken == 0 {
        out.flush()?;
        return Err(CliError::Failure(
            "no scenario files (*.toml) found in the given directories".into(),
        ));
    }

    let mut rules = Rules::default();
    let (mut passed, mut failed, mut skipped) = (0usize, 0usize, 0usize);
    for f in &files {
        let file = f.display();
        // Only files found in a directory are skipped: a file named is run (or refused).
        if !a.paths.contains(f)
            && let Some(why) = Scenario::not_a_scenario(f)
        {
            writeln!(out, "SKIP {file}: {why}")?;
            skipped += 1;
            continue;
        }
        let s = match Scenario::load(f) {
            Ok(s) => s,
            Err(e) => {
                writeln!(out, "ERROR {file}")?;
                indented(&mut out, "    ", &e.located())?;
                broken += 1;
                continue;
            }
        };
        let rs = match rules.get(&s) {
            Ok(rs) => rs,
            Err(m) => {
                writeln!(out, "ERROR {} ({file})", s.name)?;
                // A misspelt option: shown where the scenario writes it.
                let located = match rules.get_with(&s, Vec::new()) {
                    Ok(plain) if !s.options.is_empty() => s.check_options(plain).err(),
                    _ => None,
                };
                let m = located.map_or(m, |e| e.located());
                indented(&mut out, "    ", &m)?;
                broken += 1;
                continue;
            }
        };
        match s.run(rs) {
            Ok(r) if r.passed() => {
                passed += 1;
                writeln!(out, "PASS {} ({file})", r.name)?;
                if a.verbose {
                    writeln!(out, "    what ran:")?;
                    indented(&mut out, "      ", &r.narration.join("\n"))?;
                }
            }
            Ok(r) => {
                failed += 1;
                writeln!(out, "FAIL {} ({file})", r.name)?;
                for fl in &r.failures {
                    indented(&mut out, "    ", fl)?;
                }
                writeln!(out, "    what ran:")?;
                indented(&mut out, "      ", &r.narration.join("\n"))?;
            }
            Err(e) => {
                writeln!(out, "ERROR {} ({file})", s.name)?;
                indented(&mut out, "    ", &e.located())?;
                broken += 1;
            }
        }
    }
    let total = files.len() - skipped;
    writeln!(
        out,
        "{total} scenario{}: {passed} passed, {failed} failed, {broken} could not run{}",
        if total == 1 { "" } else { "s" },
        if skipped > 0 {
            format!(
                " ({skipped} other file{} skipped)",
                if skipped == 1 { "" } else { "s" }
            )
        } else {
            String::new()
        }
    )?;
    out.flush()?;
    if failed + broken > 0 {
        Err(CliError::Reported)
    } else {
        Ok(())
    }
}
