//! `fuba odds`: exact probabilities by enumerating the dice, never by sampling.
//!
//! From a position (`--scenario FILE`, a scenario file: docs/scenarios.md) every outcome of
//! every roll is followed to the stop asked for, decisions taken by the scenario's script
//! or by a policy, and the distribution of what follows is printed exactly
//! ([`fuba_engine::odds`], docs/odds.md). Without `--scenario`, every dice table of the
//! ruleset is read from its domain (d6: six faces, 2d6: the 36 ordered pairs summed, d66:
//! the 36 ordered pairs; each row's chance is the outcomes it covers over all outcomes),
//! then the ruleset's canonical positions are enumerated the same way: the scenario files
//! in the folder `STEM/odds/` beside the ruleset file `STEM.toml`, or beside a ruleset it
//! extends (see [`position_files`]).

#[path = "odds_show.rs"]
mod show;

use std::path::{Path, PathBuf};

use clap::{Args, ValueEnum};
use fuba_engine::odds::{self, Cut, OddsError, Policy, Settings, Until};
use fuba_engine::ruleset::{Domain, Ruleset};
use fuba_engine::scenario::Scenario;
use serde::Serialize;

use crate::render::{self, StatsFormat};
use crate::{CliError, CliResult, editions};

/// Options of `fuba odds`.
#[derive(Args, Debug)]
pub struct OddsArgs {
    /// The ruleset: a built-in edition name or the path of a ruleset file. With
    /// `--scenario` it may be left out: the scenario's own `rules` are used.
    #[arg(value_name = "EDITION|PATH", required_unless_present = "scenario")]
    pub rules: Option<String>,
    /// The position: a scenario file (docs/scenarios.md). Its position and run are used;
    /// its scripted choices are taken where they are legal, its dice are not (every roll
    /// is enumerated) and its expectations are not checked.
    #[arg(long, value_name = "FILE")]
    pub scenario: Option<PathBuf>,
    /// Where to stop: when this stage (or procedure of the run) has finished, or at
    /// `turn-end` (the turn's last stage, or a rule ending the turn). Default: the
    /// position's `[odds] until`, else where the scenario's run ends.
    #[arg(long, value_name = "STAGE|turn-end")]
    pub until: Option<String>,
    /// Also end a path at the first event of this kind (an `emit` kind of the rules, or
    /// `goal`), besides the position's `[odds] stop_at`; repeatable.
    #[arg(long, value_name = "KIND")]
    pub stop_at: Vec<String>,
    /// Make this state variable's value at the end part of each outcome (the position's
    /// `[odds] vars` too); repeatable.
    #[arg(long = "var", value_name = "NAME")]
    pub vars: Vec<String>,
    /// Who decides what the scenario does not script. Default: the position's
    /// `[odds] policy`, else heuristic.
    #[arg(long, value_enum)]
    pub policy: Option<PolicyArg>,
    /// The most branches (roll outcomes and policy options) to walk from one position.
    #[arg(long, value_name = "N", default_value_t = odds::MAX_NODES)]
    pub max_nodes: u64,
    /// Set a match option of the ruleset (after the scenario's own `options`); repeatable.
    #[arg(long = "option", value_name = "NAME=VALUE")]
    pub options: Vec<String>,
    /// How to print the odds (csv: one line per probability).
    #[arg(long, short, value_enum, default_value_t = StatsFormat::Table)]
    pub format: StatsFormat,
    /// Write to FILE instead of stdout.
    #[arg(long, short, value_name = "FILE")]
    pub out: Option<PathBuf>,
}

/// `--policy`.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum PolicyArg {
    /// Only the scenario's scripted choices: a decision it does not answer is an error.
    Scripted,
    /// Every legal option equally likely (the random player, exactly).
    Random,
    /// The options with the best `prefer` score, ties equally likely (the heuristic
    /// player, exactly).
    Heuristic,
}

impl PolicyArg {
    fn policy(self) -> Policy {
        match self {
            PolicyArg::Scripted => Policy::Scripted,
            PolicyArg::Random => Policy::Random,
            PolicyArg::Heuristic => Policy::Heuristic,
        }
    }
}

/// How one position is enumerated: the command line's choices over the position's own
/// `[odds]` settings.
pub struct Plan {
    /// Where to stop, the stop events and the variables read.
    pub cut: Cut,
    /// Who decides.
    pub policy: Policy,
}

/// `first` then the items of `more` not in it.
fn joined(first: &[String], more: &[String]) -> Vec<String> {
    let mut out = first.to_vec();
    for k in more {
        if !out.contains(k) {
            out.push(k.clone());
        }
    }
    out
}

impl Plan {
    fn of(a: &OddsArgs, sc: &Scenario) -> Plan {
        let until = a.until.as_deref().or(sc.odds.until.as_deref());
        Plan {
            cut: Cut {
                until: until.map(Until::parse),
                stops: joined(&sc.odds.stop_at, &a.stop_at),
                vars: joined(&sc.odds.vars, &a.vars),
            },
            policy: a
                .policy
                .map(PolicyArg::policy)
                .or(sc.odds.policy)
                .unwrap_or(Policy::Heuristic),
        }
    }
}

/// An exact probability of a dice table's row: `num / den`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Chance {
    /// Favourable outcomes.
    pub num: u64,
    /// All outcomes.
    pub den: u64,
}

impl Chance {
    fn new(num: u64, den: u64) -> Self {
        let g = gcd(num, den).max(1);
        Chance {
            num: num / g,
            den: den / g,
        }
    }
    /// As a float.
    pub fn value(self) -> f64 {
        self.num as f64 / self.den.max(1) as f64
    }
    fn text(self) -> String {
        if self.num == 0 {
            "0".into()
        } else if self.num == self.den {
            "1".into()
        } else {
            format!("{}/{} ({:.4})", self.num, self.den, self.value())
        }
    }
}

fn gcd(a: u64, b: u64) -> u64 {
    if b == 0 { a } else { gcd(b, a % b) }
}

/// One row of a dice table.
#[derive(Debug, Serialize)]
pub struct RowOdds {
    /// The row's key as written.
    pub key: String,
    /// Its label.
    pub label: String,
    /// Its chance per roll on the table.
    pub chance: Chance,
    /// As a float.
    pub p: f64,
}

/// A dice table.
#[derive(Debug, Serialize)]
pub struct TableOdds {
    /// The table's name.
    pub table: String,
    /// Its dice.
    pub dice: &'static str,
    /// Its rows.
    pub rows: Vec<RowOdds>,
    /// Outcomes no row covers.
    pub uncovered: Chance,
}

/// The outcomes of a domain, as slot indices with their number of ways.
fn slot_ways(d: Domain) -> (Vec<u64>, u64) {
    match d {
        Domain::D6 => (vec![1; 6], 6),
        Domain::TwoD6 => {
            let mut w = vec![0; 11];
            for a in 1..=6 {
                for b in 1..=6 {
                    w[a + b - 2] += 1;
                }
            }
            (w, 36)
        }
        Domain::D66 => (vec![1; 36], 36),
        Domain::Labels => (Vec::new(), 1),
    }
}

/// The chance of every row of every dice table.
pub fn tables(rs: &Ruleset) -> Vec<TableOdds> {
    rs.tables
        .iter()
        .filter(|t| t.domain != Domain::Labels)
        .map(|t| {
            let (ways, den) = slot_ways(t.domain);
            let mut per_row = vec![0u64; t.rows.len()];
            let mut uncovered = 0;
            for (slot, w) in t.slots.iter().zip(&ways) {
                match per_row.get_mut(*slot as usize) {
                    Some(n) => *n += w,
                    None => uncovered += w,
                }
            }
            TableOdds {
                table: t.name.clone(),
                dice: t.domain.name(),
                rows: t
                    .rows
                    .iter()
                    .zip(per_row)
                    .map(|(r, n)| {
                        let c = Chance::new(n, den);
                        RowOdds {
                            key: r.key.clone(),
                            label: r.label.clone(),
                            chance: c,
                            p: c.value(),
                        }
                    })
                    .collect(),
                uncovered: Chance::new(uncovered, den),
            }
        })
        .collect()
}

/// The dice tables as text.
pub fn tables_text(tabs: &[TableOdds]) -> String {
    use std::fmt::Write as _;
    let mut s = String::new();
    for t in tabs {
        let _ = writeln!(s, "table {} ({}): chance per roll", t.table, t.dice);
        for r in &t.rows {
            let _ = writeln!(s, "  {:>6}  {:<18} {}", r.key, r.chance.text(), r.label);
        }
        if t.uncovered.num > 0 {
            let _ = writeln!(s, "  (no row) {}", t.uncovered.text());
        }
        s.push('\n');
    }
    s
}

/// The folders that may hold a ruleset's canonical odds positions, most specific first:
/// for the file of each layer of the ruleset, top layer first, `DIR/STEM/odds/` beside
/// `DIR/STEM.toml`. A built-in edition's layer is looked for at its file in the
/// repository: from the current directory, then from the workspace `fuba` was built in.
/// So a house rule with no positions of its own gets those of the ruleset it extends.
pub fn position_dirs(rs: &Ruleset) -> Vec<PathBuf> {
    let built_in = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut out = Vec::new();
    for (layer, _) in rs.file.layers.iter().rev() {
        let text = layer.to_string_lossy();
        let files: Vec<PathBuf> = match text.strip_prefix('<').and_then(|t| t.strip_suffix('>')) {
            Some(file) => match editions::EDITIONS.iter().find(|e| e.file == file) {
                Some(e) => vec![PathBuf::from(e.file), built_in.join(e.file)],
                None => Vec::new(),
            },
            None => vec![layer.clone()],
        };
        for f in files {
            let (Some(dir), Some(stem)) = (f.parent(), f.file_stem()) else {
                continue;
            };
            let d = dir.join(stem).join("odds");
            if !out.contains(&d) {
                out.push(d);
            }
        }
    }
    out
}

/// The canonical positions of a ruleset: the scenario files (`*.toml`, in name order) of
/// the first folder of [`position_dirs`] that holds any, with the folders looked at.
pub fn position_files(rs: &Ruleset) -> (Vec<PathBuf>, Vec<PathBuf>) {
    let dirs = position_dirs(rs);
    for d in &dirs {
        let Ok(entries) = std::fs::read_dir(d) else {
            continue;
        };
        let mut files: Vec<PathBuf> = entries
            .filter_map(Result::ok)
            .map(|e| e.path())
            .filter(|p| p.is_file() && p.extension().is_some_and(|x| x == "toml"))
            .collect();
        if !files.is_empty() {
            files.sort();
            return (files, dirs);
        }
    }
    (Vec::new(), dirs)
}

/// The options to load a position's rules with: the scenario's, then the command line's
/// (the last value given for an option wins).
fn option_args(sc: &Scenario, cli: &[String]) -> Vec<String> {
    sc.option_pairs()
        .into_iter()
        .map(|(k, v)| format!("{k}={v}"))
        .chain(cli.iter().cloned())
        .collect()
}

/// The ruleset named on the command line, or else the one the scenario names.
fn scenario_rules(a: &OddsArgs, sc: &Scenario) -> Result<Ruleset, CliError> {
    let options = option_args(sc, &a.options);
    match (&a.rules, sc.rules_path()) {
        (Some(r), _) => editions::load_rules_with(r, &options),
        (None, Some(p)) => editions::load_rules_with(&p.display().to_string(), &options),
        (None, None) if editions::find(&sc.rules).is_some() => {
            editions::load_rules_with(&sc.rules, &options)
        }
        (None, None) => Err(CliError::Usage(format!(
            "{}: rules = \"{}\" is neither a built-in edition ({}) nor a ruleset path; name the ruleset on the command line",
            sc.path.display(),
            sc.rules,
            editions::names()
        ))),
    }
}

/// A position enumerated.
pub struct Done {
    /// What ran (the procedures in order).
    pub plan: String,
    /// Scripted dice of the scenario, not used.
    pub ignored_dice: usize,
    /// The distribution.
    pub dist: odds::Distribution,
    /// Each event seen: name, chance of at least one, expected number.
    pub events: Vec<(String, odds::Frac, odds::Frac)>,
}

/// The result of one position.
pub struct Worked {
    /// The scenario file.
    pub file: PathBuf,
    /// The scenario.
    pub scenario: Scenario,
    /// The name of the ruleset it ran under.
    pub ruleset: String,
    /// How it was enumerated.
    pub plan: Plan,
    /// The distribution, or why there is none.
    pub result: Result<Done, String>,
}

/// Enumerates one position under `rules` (a copy is made for the scenario's strings).
fn work(a: &OddsArgs, file: &Path, sc: Scenario, rules: &Ruleset) -> Worked {
    let plan = Plan::of(a, &sc);
    let settings = Settings {
        policy: plan.policy,
        max_nodes: a.max_nodes,
    };
    let mut rs = rules.clone();
    let result = odds::position(&sc, &mut rs, &plan.cut)
        .and_then(|pos| {
            let dist = odds::enumerate(&pos, &settings)?;
            let events = dist.events(pos.m.rs);
            Ok(Done {
                plan: pos.plan.clone(),
                ignored_dice: pos.ignored_dice,
                dist,
                events,
            })
        })
        .map_err(|e| explain(&e, &plan, rules));
    Worked {
        file: file.to_path_buf(),
        scenario: sc,
        ruleset: rules.name.clone(),
        plan,
        result,
    }
}

/// An enumeration error in the command line's words.
fn explain(e: &OddsError, plan: &Plan, rs: &Ruleset) -> String {
    let stages: Vec<&str> = rs
        .stages
        .iter()
        .map(|s| rs.procs[*s as usize].name.as_str())
        .collect();
    match e {
        OddsError::TooLarge { limit } => format!(
            "more than {limit} outcomes to enumerate from this position; stop earlier with --until STAGE (the stages: {}) or --stop-at KIND, script more choices{}, or raise --max-nodes",
            stages.join(", "),
            if plan.policy == Policy::Random {
                ", use --policy heuristic"
            } else {
                ""
            }
        ),
        OddsError::Script { .. } => format!(
            "{e}\n  (--policy random or --policy heuristic lets a policy decide where the script does not)"
        ),
        other => other.to_string(),
    }
}

/// Runs `fuba odds`.
pub fn run(a: OddsArgs) -> CliResult {
    crate::outputs::check(&[a.out.as_deref()])?;
    let mut worked = Vec::new();
    let mut header = None;
    if let Some(file) = &a.scenario {
        let sc = Scenario::load(file).map_err(|e| CliError::Failure(e.to_string()))?;
        let rs = scenario_rules(&a, &sc)?;
        let w = work(&a, file, sc, &rs);
        if let Err(e) = w.result {
            return Err(CliError::Failure(format!("{}: {e}", file.display())));
        }
        worked.push(w);
    } else {
        let Some(r) = &a.rules else {
            return Err(CliError::Usage(
                "name a ruleset (fuba odds EDITION|PATH) or give --scenario FILE".into(),
            ));
        };
        let rs = editions::load_rules_with(r, &a.options)?;
        let (files, dirs) = position_files(&rs);
        for f in files {
            let sc = match Scenario::load(&f) {
                Ok(sc) => sc,
                Err(e) => return Err(CliError::Failure(e.to_string())),
            };
            let w = if sc.options.is_empty() {
                work(&a, &f, sc, &rs)
            } else {
                let with = editions::load_rules_with(r, &option_args(&sc, &a.options))?;
                work(&a, &f, sc, &with)
            };
            worked.push(w);
        }
        header = Some((rs.name.clone(), rs.title.clone(), tables(&rs), dirs));
    }
    let failed = worked.iter().filter(|w| w.result.is_err()).count();
    let mut out = render::output(a.out.as_ref())?;
    show::write(&mut out, a.format, header.as_ref(), &worked)?;
    out.flush()?;
    if failed > 0 {
        return Err(CliError::Failure(format!(
            "{failed} of the positions could not be enumerated (see above)"
        )));
    }
    Ok(())
}
