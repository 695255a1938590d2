//! `fuba`: play, simulate and check FUBA rulesets from the command line.
//!
//! Data goes to stdout, diagnostics to stderr. Exit codes: 0 success, 1 a failure the
//! command exists to report (rule errors, a match that stopped), 2 a usage error.

/// `eprintln!` that never panics: a failing stderr is ignored.
macro_rules! note {
    ($($t:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stderr(), $($t)*);
    }};
}

/// `eprint!` that never panics.
macro_rules! note_raw {
    ($($t:tt)*) => {{
        use std::io::Write as _;
        let _ = write!(std::io::stderr(), $($t)*);
    }};
}

mod agents;
mod args;
mod batch;
mod board;
mod compare;
mod editions;
mod error;
mod explain;
mod human;
mod merge;
mod odds;
mod outputs;
mod play;
mod render;
mod replay;
mod rules;
mod scenario;
mod simulate;
mod stats;
mod view;

use std::io::{self, Write};
use std::process::ExitCode;

use clap::{CommandFactory, Parser, Subcommand};

pub use agents::{AgentKind, make_agent};
pub use args::{Format, seed_or_clock};
pub use editions::load_rules;
pub use error::{CliError, CliResult};

const EXIT_CODES: &str = "\
Exit codes:
  0  success
  1  a failure the command exists to report: ruleset errors, a match stopped by a rule
     error or a player who quit, a log file that cannot be written
  2  usage error: unknown subcommand or flag, bad value, unknown edition";

const MAIN_EXAMPLES: &str = "\
Examples:
  fuba play --seed 7                        # one match of the original edition, narrated
  fuba play --rules my-rules.toml --verbose # an edited copy of a ruleset, every die shown
  fuba play --home human                    # you play the home team
  fuba simulate --games 2000 --seed 1       # figures over 2000 matches
  fuba play --seed 5 --log m.jsonl          # record a match...
  fuba replay m.jsonl --rules copy.toml     # ...and see where an edited copy plays it differently
  fuba scenario tests/scenarios             # run rule scenarios
  fuba rules check rulesets/*.toml          # check ruleset files
  fuba rules primitives > docs/primitives.md
  fuba completions bash > ~/.local/share/bash-completion/completions/fuba

Exit codes:
  0  success
  1  a failure the command exists to report: ruleset errors, a match stopped by a rule
     error or a player who quit, a log file that cannot be written
  2  usage error: unknown subcommand or flag, bad value, unknown edition";

/// Play, simulate and check FUBA tactical football rulesets.
///
/// Each rulebook edition is a ruleset file (TOML with rules written in the effect
/// language); one engine plays them all. `--rules` takes the name of an edition built into
/// `fuba` (original, 2015, 2024) or the path of a ruleset file, which is read when the command runs: copy
/// a ruleset, change a number, and play or simulate it without rebuilding anything.
///
/// Data (narration, figures, logs, check results) is written to stdout; diagnostics, the
/// chosen seed and progress go to stderr.
#[derive(Parser, Debug)]
#[command(name = "fuba", version, after_help = EXIT_CODES, after_long_help = MAIN_EXAMPLES)]
#[command(propagate_version = true)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Play one match and print its narration and the final score.
    #[command(long_about = PLAY_ABOUT, after_long_help = PLAY_EXAMPLES)]
    Play(play::PlayArgs),
    /// Play many matches and print figures: goals, results, shots, turns, speed.
    #[command(long_about = SIMULATE_ABOUT, after_long_help = SIMULATE_EXAMPLES)]
    Simulate(simulate::SimulateArgs),
    /// Add up the JSON results of the shards of a batch (`simulate --shard K/N`).
    #[command(after_long_help = MERGE_EXAMPLES)]
    Merge(merge::MergeArgs),
    /// The same matches under two or more rulesets: figures side by side, with tests.
    #[command(after_long_help = COMPARE_EXAMPLES)]
    Compare(compare::CompareArgs),
    /// Exact odds of what follows a position, by enumerating every outcome of the dice.
    #[command(long_about = ODDS_ABOUT, after_long_help = ODDS_EXAMPLES)]
    Odds(odds::OddsArgs),
    /// Play a recorded match again and show the first event that differs.
    #[command(long_about = REPLAY_ABOUT, after_long_help = REPLAY_EXAMPLES)]
    Replay(replay::ReplayArgs),
    /// Run scenario files: a pinned position, scripted dice and choices, expectations.
    #[command(long_about = SCENARIO_ABOUT, after_long_help = SCENARIO_EXAMPLES)]
    Scenario(scenario::ScenarioArgs),
    /// Check, show, compare and start ruleset files; list the engine's primitives.
    #[command(subcommand)]
    Rules(rules::RulesCommand),
    /// Explain a logged match: every modifier row, table entry and trigger behind its values.
    #[command(after_long_help = EXPLAIN_EXAMPLES)]
    Explain(explain::ExplainArgs),
    /// Draw a recorded match as one HTML page: the board, stepped event by event.
    ///
    /// Example: fuba play --seed 7 --log match.jsonl && fuba view match.jsonl -o match.html
    View(view::ViewArgs),
    /// Print a shell completion script.
    #[command(after_long_help = COMPLETIONS_EXAMPLES)]
    Completions {
        /// The shell to write the script for.
        #[arg(value_enum)]
        shell: clap_complete::Shell,
    },
}

const PLAY_ABOUT: &str = "\
Play one match and print its narration and the final score.

The narration is the ruleset's own words for what happens ([narration] templates); with
--verbose every die, choice, modifier and move is shown too. Secret choices are shown as
\"(secret)\". The last line is the final score: `Final score: Home 2 - 1 Away`. When a
human plays, the narration is printed as the match goes, between the prompts.

Without --seed a seed is taken from the clock and printed to stderr as `seed: N`, so any
match can be played again exactly with `--seed N`.";

const PLAY_EXAMPLES: &str = "\
Examples:
  fuba play --seed 42
  fuba play --seed 42 --verbose | less
  fuba play --rules ./house-rules.toml --seed 1 --log match.jsonl
  fuba play --seed 3 --log - | jq -c 'select(.event == \"goal\")'
  fuba play --home human --away heuristic
  fuba play --home mcts:400 --away heuristic --seed 1   # search (docs/agents.md)

Exit codes: 0 the match was played; 1 the ruleset has errors, a rule failed during the
match, a human player quit, or the log cannot be written; 2 usage error.";

const SIMULATE_ABOUT: &str = "\
Play many matches and print figures.

Match i (0-based) is played with the seed splitmix64(splitmix64(S) XOR i), where S is
--seed, so `fuba play --seed <that seed>` replays any one of them. Matches run in
parallel, but the figures do not depend on the number of threads: the same --seed and
--games always print the same figures (only the timing differs). `--shard K/N` plays only
the matches with i mod N = K-1; `fuba merge` adds the JSON results of the shards up into
exactly the figures of the whole batch.

Figures, each with a 95% confidence interval: goals per match (mean, sd, Student's t
interval) and their distribution 0..10+, home wins, away wins and draws (Wilson
intervals), the figure the ruleset declares goals a conversion of and that conversion
(goals per event, delta-method interval), possession changes, every figure of the
ruleset's [figures] table, turns, minutes played and stoppage minutes per half, choices
and dice per match. Rules coverage: how often each table row, procedure and trigger
ran, and which never did (--coverage lists every count, and the options picked).

Nothing is logged (the fast path). A match that stops with a rule error is reported with
its seed on stderr; the figures of the other matches are printed, and the exit code is 1.
When the first 10 matches all fail, the batch stops there with one error: the first
match's, with its seed.";

const SIMULATE_EXAMPLES: &str = "\
Examples:
  fuba simulate --games 2000 --seed 1
  fuba simulate --rules ./house-rules.toml --games 500 --seed 1 --format json
  fuba simulate --games 10000 --home heuristic --away random --jobs 4
  fuba simulate --games 200 --seed 1 --home mcts:100 --away heuristic   # search, ~2 s a match
  fuba simulate --games 20000 --seed 1 --coverage --report original.html
  fuba simulate --games 100000 --seed 1 --shard 1/4 --format json --out part1.json

Exit codes: 0 every match was played; 1 the ruleset has errors or a match failed; 2 usage
error.";

const MERGE_EXAMPLES: &str = "\
Examples:
  fuba simulate --games 100000 --seed 7 --shard 1/2 --format json --out a.json
  fuba simulate --games 100000 --seed 7 --shard 2/2 --format json --out b.json
  fuba merge a.json b.json                 # the figures of all 100000 matches
  fuba merge a.json b.json --format json --report batch.html

Exit codes: 0 merged; 1 a file cannot be read, is not of the same batch, or holds a shard
twice; 2 usage error.";

const COMPARE_EXAMPLES: &str = "\
Examples:
  fuba compare original rulesets/examples/home-advantage.toml --games 20000 --seed 1
  fuba compare original 2015 --games 5000 --format json | jq '.figures[] | select(.differences[0].significant)'
  fuba compare original my-rules.toml --games 10000 --report compare.html
  fuba compare 2024 my-2024.toml --option skills=4 --option condition=on   # advanced rules on both
  fuba compare original my-rules.toml --games 100 --seed 1 --home mcts:100 --away mcts:100   # players who adapt

Exit codes: 0 compared; 1 a ruleset has errors, or the first 10 matches of a ruleset all
failed (the batch stops there with the first error and its seed); 2 usage error.";

const ODDS_ABOUT: &str = "\
Exact odds of what follows a position, by enumerating every outcome of the dice.

From the position of a scenario file (--scenario FILE; format: docs/scenarios.md) the
match is copied at every roll for each outcome of the dice, with its exact probability,
and followed to the stop: where the scenario's run ends, or --until STAGE (when that stage
has finished) or --until turn-end; a path also ends at the first event of a kind given by
--stop-at (or the position's [odds] stop_at), before a set piece's setup, say. Decisions
are the scenario's scripted choices where they are legal, the rest the --policy's:
random (every legal option equally likely) or heuristic (the options with the best
`prefer` score, ties equally likely) - both exact - or scripted (none: an error).

What a path ends in is summed up - the team with the ball, its area and value, the goals,
the ruleset's [figures] counted on the way, and the variables asked for with --var - and
identical outcomes are merged. Every probability is a reduced fraction (no rounding; they
sum to exactly 1) with its decimal. More than --max-nodes branches is an error that says
where to stop earlier.

Without --scenario: the chance of every row of every dice table, then the same for the
ruleset's canonical positions, the scenario files in the folder STEM/odds/ beside its
file STEM.toml (or beside the file of a ruleset it extends). docs/odds.md has the
details.";

const ODDS_EXAMPLES: &str = "\
Examples:
  fuba odds original                       # dice tables and the canonical positions
  fuba odds my-rules.toml                  # the same positions under a house rule
  fuba odds 2024 --scenario rulesets/2024/odds/shot.toml
  fuba odds original --scenario my-position.toml --until turn-end --policy random
  fuba odds my-rules.toml --scenario my-position.toml --var my_variable --format csv
  fuba odds original --scenario my-position.toml --stop-at goal --format json | jq '.positions[0].goals'

Exit codes: 0 printed; 1 the ruleset has errors, a position cannot be set up or
enumerated (a rule error, more outcomes than --max-nodes); 2 usage error.";

const REPLAY_ABOUT: &str = "\
Play a recorded match again and show the first event that differs.

The log (written by `fuba play --log`) holds the seed and every event. The match is played
again with the same seed, each team's recorded choices made again in order, under the
ruleset given with --rules (default: the edition named in the log's header), and the events
are compared one by one with the recorded ones.

If every event is the same, it prints `identical: N events, final score Home H - A Away`
and exits 0. Otherwise it prints the first event that differs: when (half, turn, minute),
the stage and rule, and the expected (recorded) and produced event, each as a narration
line and as JSON, and exits 1. A recorded choice the rules no longer offer stops the
replay: that is shown as the divergence, with the reason. When the ruleset's fingerprint
differs from the one in the log, a note says the rules changed since the log was
recorded.";

const REPLAY_EXAMPLES: &str = "\
Examples:
  # record a match, edit a copy of the ruleset, see where the edit changes the match
  fuba play --seed 5 --log m.jsonl
  cp rulesets/original.toml copy.toml     # then change a number in copy.toml
  fuba replay m.jsonl --rules copy.toml

  fuba replay m.jsonl                     # same rules: identical
  fuba replay m.jsonl --rules copy.toml --format json | jq .divergence
  fuba play --seed 5 --log - | fuba replay -

Exit codes: 0 identical; 1 the replay diverged, or the log or ruleset cannot be read; 2
usage error (including a log whose ruleset is not a built-in edition, without --rules).";

const SCENARIO_ABOUT: &str = "\
Run scenario files and say which pass.

A scenario (format: docs/scenarios.md) pins a position, scripts the dice and choices, runs
a stretch of the turn and checks expectations. `rules` in the file is a built-in edition
name or a ruleset path relative to the scenario file. Directories are searched
recursively for *.toml files, in name order.

Each scenario prints `PASS name (file)` or `FAIL name (file)`; a failure is followed by
each expectation that failed (expected and actual) and the narration of what ran, every
die and choice included. A scenario that cannot run (an impossible position, an unknown
area, rules that do not load) prints `ERROR` and the reason. A summary line ends the
output.";

const SCENARIO_EXAMPLES: &str = "\
Examples:
  fuba scenario tests/scenarios
  fuba scenario my-scenario.toml --verbose   # one file, every roll and choice shown

Exit codes: 0 every scenario passed; 1 a scenario failed or could not run; 2 usage error.";

const EXPLAIN_EXAMPLES: &str = "\
Examples:
  fuba play --seed 5 --log m.jsonl
  fuba explain m.jsonl --turn 3            # every roll, modifier row, table entry, trigger of turn 3
  fuba explain m.jsonl --event 61          # one value and what led to it in its stage
  fuba explain m.jsonl --format json | jq '.events[] | select(.event == \"modifiers\")'

Exit codes: 0 explained; 1 the log cannot be read; 2 usage error (no such event or turn).";

const COMPLETIONS_EXAMPLES: &str = "\
Examples:
  fuba completions bash > ~/.local/share/bash-completion/completions/fuba
  fuba completions zsh > ~/.zfunc/_fuba
  fuba completions fish > ~/.config/fish/completions/fuba.fish";

fn completions(shell: clap_complete::Shell) -> CliResult {
    // Generated into memory first: the generator panics on write errors.
    let mut buf = Vec::new();
    clap_complete::generate(shell, &mut Cli::command(), "fuba", &mut buf);
    let mut out = io::stdout().lock();
    out.write_all(&buf)?;
    out.flush()?;
    Ok(())
}

/// `--games 0` would play nothing and print a table of dashes: say so instead.
fn some_games(games: u64) -> Result<(), CliError> {
    if games == 0 {
        return Err(CliError::Usage(
            "--games 0: no match would be played, so there are no figures; give --games 1 or more"
                .into(),
        ));
    }
    Ok(())
}

fn run(cli: Cli) -> CliResult {
    match cli.command {
        Command::Play(a) => play::run(a),
        Command::Simulate(a) => some_games(a.batch.games).and_then(|()| simulate::run(a)),
        Command::Merge(a) => merge::run(a),
        Command::Compare(a) => some_games(a.batch.games).and_then(|()| compare::run(a)),
        Command::Odds(a) => odds::run(a),
        Command::Replay(a) => replay::run(a),
        Command::Scenario(a) => scenario::run(a),
        Command::Rules(r) => rules::run(r),
        Command::Explain(a) => explain::run(a),
        Command::View(a) => view::run(a),
        Command::Completions { shell } => completions(shell),
    }
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(c) => c,
        // Help and version exit 0, usage errors 2 (clap's codes).
        Err(e) => e.exit(),
    };
    match run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(CliError::Reported) => ExitCode::from(1),
        Err(CliError::Failure(m)) => {
            note!("error: {m}");
            ExitCode::from(1)
        }
        Err(CliError::Usage(m)) => {
            note!("error: {m}");
            ExitCode::from(2)
        }
        Err(CliError::Stdout(e)) if e.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(CliError::Stdout(e)) => {
            note!("error: cannot write the output: {e}");
            ExitCode::from(1)
        }
    }
}
