//! Argument groups that several commands take, each declared once and flattened into the
//! commands that use it (`#[command(flatten)]`): the ruleset and its match options, the
//! two players, the batch (size, seed, threads), where the figures go and the coverage
//! list.
//!
//! A command whose meaning of an argument is narrower says so in its own help with
//! `#[command(mut_arg(...))]` on its options (`fuba compare` plays `--games` matches
//! per ruleset, 2000 by default), so each command's `--help` stays its own.

use std::path::PathBuf;

use clap::{Args, ValueEnum};
use fuba_engine::ruleset::Ruleset;

use crate::agents::AgentKind;
use crate::error::CliError;
use crate::render::StatsFormat;

/// `--rules` and `--option`: the ruleset a command plays, with its match options.
#[derive(Args, Debug)]
pub struct RulesetArgs {
    /// The ruleset: a built-in edition name (original, 2015, 2024) or the path of a ruleset file.
    #[arg(
        long,
        short,
        value_name = "EDITION|PATH",
        default_value = "original",
        env = "FUBA_RULES"
    )]
    pub rules: String,
    /// Set a match option of the ruleset (`fuba rules show RULES --options` lists them);
    /// repeatable: `--option weather=off --option skills=4`.
    #[arg(long = "option", value_name = "NAME=VALUE")]
    pub options: Vec<String>,
}

impl RulesetArgs {
    /// Loads the ruleset with its match options, reporting errors on stderr.
    pub fn load(&self) -> Result<Ruleset, CliError> {
        crate::editions::load_rules_with(&self.rules, &self.options)
    }
}

/// `--home` and `--away`: who plays each team.
#[derive(Args, Debug)]
pub struct PlayersArgs {
    /// Who plays the home team: random, heuristic, human (play only), or
    /// mcts[:PASSES | :MSms][:random] (search; docs/agents.md).
    #[arg(long, value_name = "AGENT", default_value = "random")]
    pub home: AgentKind,
    /// Who plays the away team: random, heuristic, human (play only), or
    /// mcts[:PASSES | :MSms][:random] (search; docs/agents.md).
    #[arg(long, value_name = "AGENT", default_value = "random")]
    pub away: AgentKind,
}

/// `--games` and `--seed`: the matches of a batch.
#[derive(Args, Debug)]
pub struct BatchArgs {
    /// How many matches to play (the whole batch, when split into shards).
    #[arg(long, short = 'n', value_name = "N", default_value_t = 1000)]
    pub games: u64,
    /// The batch seed S; match i is played with seed splitmix64(splitmix64(S) XOR i).
    /// Default: from the clock, printed to stderr.
    #[arg(long, short, value_name = "S")]
    pub seed: Option<u64>,
}

/// `--jobs`: the threads a batch is played on.
#[derive(Args, Debug)]
pub struct JobsArgs {
    /// Threads to play on. Default: one per CPU. The figures do not depend on it.
    #[arg(long, short, value_name = "N", value_parser = clap::value_parser!(u16).range(1..))]
    pub jobs: Option<u16>,
}

/// `--format`, `--out` and `--report`: how and where the figures are written.
#[derive(Args, Debug)]
pub struct FiguresOutArgs {
    /// How to print the figures.
    #[arg(long, short, value_enum, default_value_t = StatsFormat::Table)]
    pub format: StatsFormat,
    /// Write the figures to FILE instead of stdout.
    #[arg(long, short, value_name = "FILE")]
    pub out: Option<PathBuf>,
    /// Also write a self-contained HTML page with charts (goals, figures, rules coverage).
    #[arg(long, value_name = "FILE.html")]
    pub report: Option<PathBuf>,
}

impl FiguresOutArgs {
    /// Checks, before anything is played, that the output files can be written.
    pub fn check(&self) -> Result<(), CliError> {
        crate::outputs::check(&[self.out.as_deref(), self.report.as_deref()])
    }
}

/// `--coverage`: list every coverage count.
#[derive(Args, Debug)]
pub struct CoverageArgs {
    /// List how often every table row, procedure, trigger and option ran (table format).
    #[arg(long)]
    pub coverage: bool,
}

/// `--format`.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Format {
    /// Text for people.
    #[default]
    Table,
    /// JSON for programs.
    Json,
}

/// A seed from the clock, printed to stderr so the match can be replayed.
pub fn seed_or_clock(seed: Option<u64>) -> u64 {
    seed.unwrap_or_else(|| {
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos());
        let s = (nanos % 10_000_000_000) as u64;
        note!("seed: {s}");
        s
    })
}

#[cfg(test)]
mod tests {
    use clap::Parser;

    use crate::{Cli, Command};

    fn parse(args: &[&str]) -> Command {
        Cli::try_parse_from(args).expect("parses").command
    }

    #[test]
    fn a_command_keeps_its_own_defaults_for_a_shared_group() {
        let Command::Simulate(s) = parse(&["fuba", "simulate"]) else {
            panic!("simulate")
        };
        assert_eq!((s.batch.games, s.ruleset.options.len()), (1000, 0));
        let Command::Compare(c) = parse(&["fuba", "compare", "a.toml", "b.toml"]) else {
            panic!("compare")
        };
        assert_eq!(c.batch.games, 2000);
        let Command::Compare(c) = parse(&["fuba", "compare", "a.toml", "b.toml", "-n", "7"]) else {
            panic!("compare")
        };
        assert_eq!(
            (c.batch.games, c.players.home.label()),
            (7, "random".into())
        );
    }
}
