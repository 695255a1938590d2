//! `fuba odds RULES`: exact probabilities by enumerating the dice, not by sampling.
//!
//! Every dice table of the ruleset is read from its domain (d6: six faces, 2d6: the 36
//! ordered pairs summed, d66: the 36 ordered pairs) and each row's chance is the number of
//! outcomes it covers over the number of outcomes. Two grids are computed for a single d6
//! against a threshold, the way the original rulebook's checks are made (the assumption
//! is printed with them): the control check (keep when d + modifier > ball value, a tie
//! when equal) and the goal attempt (score when the die reaches the required result; a
//! required result above 6 is a difficult attempt that needs 6 then 6).

use std::fmt::Write as _;

use clap::Args;
use fuba_engine::ruleset::{Domain, Ruleset};
use serde::Serialize;

use crate::simulate::{self, StatsFormat};
use crate::{CliResult, load_rules};

/// Options of `fuba odds`.
#[derive(Args, Debug)]
pub struct OddsArgs {
    /// The ruleset: a built-in edition name or the path of a ruleset file.
    #[arg(value_name = "EDITION|PATH", default_value = "original")]
    pub rules: String,
    /// The table rolled on a tie of the control check (per-turn chance of each entry).
    #[arg(long, value_name = "TABLE", default_value = "special_event")]
    pub on_tie: String,
    /// How to print the odds (csv: one line per probability).
    #[arg(long, short, value_enum, default_value_t = StatsFormat::Table)]
    pub format: StatsFormat,
    /// Write to FILE instead of stdout.
    #[arg(long, short, value_name = "FILE")]
    pub out: Option<std::path::PathBuf>,
}

/// An exact probability: `num / den`.
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
    fn times(self, o: Chance) -> Chance {
        Chance::new(self.num * o.num, self.den * o.den)
    }
    /// As a float.
    pub fn value(self) -> f64 {
        self.num as f64 / self.den as f64
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

/// Chances of a single d6 plus a modifier against a ball value.
#[derive(Debug, Serialize)]
pub struct Check {
    /// The ball value.
    pub ball: i64,
    /// The modifier.
    pub modifier: i64,
    /// d + m > ball.
    pub keep: Chance,
    /// d + m == ball.
    pub tie: Chance,
    /// d + m < ball.
    pub lose: Chance,
}

/// The control-check grid: ball values of the ruleset, modifiers -6..=6.
pub fn control_grid(rs: &Ruleset) -> Vec<Check> {
    let (lo, hi) = rs.ball_values;
    let mut out = Vec::new();
    for ball in lo..=hi {
        for modifier in -6..=6i64 {
            let count = |f: &dyn Fn(i64) -> bool| (1..=6).filter(|d| f(d + modifier)).count();
            out.push(Check {
                ball,
                modifier,
                keep: Chance::new(count(&|v| v > ball) as u64, 6),
                tie: Chance::new(count(&|v| v == ball) as u64, 6),
                lose: Chance::new(count(&|v| v < ball) as u64, 6),
            });
        }
    }
    out
}

/// A goal attempt needing the die to reach `need`.
#[derive(Debug, Serialize)]
pub struct Shot {
    /// The result needed (ball value - modifier + 1).
    pub need: i64,
    /// Whether it is a difficult attempt (need above 6: 6, then 6 again).
    pub difficult: bool,
    /// The chance to score.
    pub score: Chance,
    /// The chance of a save for a corner (the die one short of the need; not on a
    /// difficult attempt).
    pub corner: Chance,
}

/// Goal attempts for required results 1..=7 (7 and above: difficult).
pub fn shot_grid() -> Vec<Shot> {
    (1..=7)
        .map(|need: i64| {
            if need > 6 {
                Shot {
                    need,
                    difficult: true,
                    score: Chance::new(1, 36),
                    corner: Chance::new(0, 1),
                }
            } else {
                Shot {
                    need,
                    difficult: false,
                    score: Chance::new((7 - need) as u64, 6),
                    corner: Chance::new(u64::from(need >= 2), 6),
                }
            }
        })
        .collect()
}

/// An entry of the tie table, per turn, given a ball value and modifier.
#[derive(Debug, Serialize)]
pub struct TieEntry {
    /// The row's key.
    pub key: String,
    /// Its label.
    pub label: String,
    /// Its chance per roll on the table.
    pub per_roll: Chance,
    /// Its chance per turn when a tie is possible (ball value - modifier in 1..=6):
    /// 1/6 × per_roll; 0 otherwise.
    pub per_turn: Chance,
}

#[derive(Serialize)]
struct Json<'a> {
    schema: u32,
    ruleset: &'a str,
    method: &'static str,
    assumptions: &'static [&'static str],
    tables: &'a [TableOdds],
    tie_table: Option<&'a str>,
    tie_entries: &'a [TieEntry],
    control_check: &'a [Check],
    goal_attempt: &'a [Shot],
}

const ASSUMPTIONS: &[&str] = &[
    "control check: one d6 plus the modifier against the ball value; more keeps the ball, equal is a tie (a roll on the tie table), less loses it",
    "goal attempt: one d6 must reach the required result (ball value - modifier + 1); one short is saved for a corner; a required result above 6 is a difficult attempt: 6, then 6 again (1/36), no corner",
    "dice tables: every face (d6), every ordered pair summed (2d6) or every ordered pair (d66) equally likely",
];

/// Runs `fuba odds`.
pub fn run(a: OddsArgs) -> CliResult {
    let rs = load_rules(&a.rules)?;
    let tabs = tables(&rs);
    let grid = control_grid(&rs);
    let shots = shot_grid();
    let tie = tabs.iter().find(|t| t.table == a.on_tie);
    let entries: Vec<TieEntry> = tie
        .map(|t| {
            t.rows
                .iter()
                .map(|r| TieEntry {
                    key: r.key.clone(),
                    label: r.label.clone(),
                    per_roll: r.chance,
                    per_turn: r.chance.times(Chance::new(1, 6)),
                })
                .collect()
        })
        .unwrap_or_default();
    let mut w = simulate::output(a.out.as_ref())?;
    match a.format {
        StatsFormat::Json => {
            let j = Json {
                schema: 1,
                ruleset: &rs.name,
                method: "exact enumeration of the dice",
                assumptions: ASSUMPTIONS,
                tables: &tabs,
                tie_table: tie.map(|t| t.table.as_str()),
                tie_entries: &entries,
                control_check: &grid,
                goal_attempt: &shots,
            };
            let text = serde_json::to_string_pretty(&j).map_err(std::io::Error::other)?;
            writeln!(w, "{text}")?;
        }
        StatsFormat::Csv => {
            writeln!(w, "what,key,num,den,p")?;
            for t in &tabs {
                for r in &t.rows {
                    writeln!(
                        w,
                        "tables.{}[{}],{},{},{},{}",
                        t.table, r.key, r.key, r.chance.num, r.chance.den, r.p
                    )?;
                }
            }
            for c in &grid {
                for (what, ch) in [("keep", c.keep), ("tie", c.tie)] {
                    writeln!(
                        w,
                        "control_check.{what},ball {} modifier {},{},{},{}",
                        c.ball,
                        c.modifier,
                        ch.num,
                        ch.den,
                        ch.value()
                    )?;
                }
            }
            for s in &shots {
                writeln!(
                    w,
                    "goal_attempt.score,need {},{},{},{}",
                    s.need,
                    s.score.num,
                    s.score.den,
                    s.score.value()
                )?;
            }
        }
        StatsFormat::Table => write!(w, "{}", text(&rs, &tabs, tie, &entries, &grid, &shots))?,
    }
    w.flush()?;
    Ok(())
}

fn text(
    rs: &Ruleset,
    tabs: &[TableOdds],
    tie: Option<&TableOdds>,
    entries: &[TieEntry],
    grid: &[Check],
    shots: &[Shot],
) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "Exact odds for {} ({}), by enumerating the dice.\n",
        rs.name, rs.title
    );
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
    let _ = writeln!(s, "Assumptions of the grids below:");
    for a in ASSUMPTIONS.iter().take(2) {
        let _ = writeln!(s, "  - {a}");
    }
    s.push('\n');
    let (lo, hi) = rs.ball_values;
    let mods: Vec<i64> = (-6..=6).collect();
    let header: String = mods.iter().map(|m| format!("{m:>6}")).collect();
    for (title, pick) in [
        (
            "control check: chance to keep the ball (sixths)",
            (|c: &Check| c.keep) as fn(&Check) -> Chance,
        ),
        ("control check: chance of a tie (sixths)", |c: &Check| c.tie),
    ] {
        let _ = writeln!(s, "{title}\n  ball \\ modifier{header}");
        for ball in lo..=hi {
            let cells: String = grid
                .iter()
                .filter(|c| c.ball == ball)
                .map(|c| {
                    let ch = pick(c);
                    format!("{:>6}", format!("{}/6", ch.num * 6 / ch.den))
                })
                .collect();
            let _ = writeln!(s, "  {ball:>14} {cells}");
        }
        s.push('\n');
    }
    if let Some(t) = tie {
        let _ = writeln!(
            s,
            "{} entries per turn, when a tie is possible (1 <= ball value - modifier <= 6; tie 1/6 × entry):",
            t.table
        );
        for e in entries {
            let _ = writeln!(s, "  {:>6}  {:<18} {}", e.key, e.per_turn.text(), e.label);
        }
        s.push('\n');
    }
    let _ = writeln!(s, "goal attempt: chance to score by the result needed");
    for sh in shots {
        let need = if sh.difficult {
            format!("{}+ (difficult)", sh.need)
        } else {
            sh.need.to_string()
        };
        let _ = writeln!(
            s,
            "  need {need:<15} score {:<16} corner {}",
            sh.score.text(),
            sh.corner.text()
        );
    }
    s
}
