//! Who decides for a team: the `--home` / `--away` argument of `play`, `simulate` and
//! `compare`, and the agent it makes for each match.

use std::fmt;
use std::str::FromStr;

use fuba_engine::agent::{Agent, HeuristicAgent, RandomAgent};
use fuba_engine::ruleset::Ruleset;
use fuba_engine::search::{Budget, DEFAULT_PASSES, MctsAgent, MctsConfig, PositionValues, Rollout};
use fuba_engine::value::Team;

use crate::human;

/// The largest search budget accepted, in passes per decision.
pub const MAX_PASSES: u32 = 1_000_000;

/// The largest search budget accepted, in milliseconds per decision.
pub const MAX_MILLIS: u32 = 600_000;

/// Who decides for a team (`random`, `heuristic`, `human`, `mcts[:BUDGET][:ROLLOUTS]`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AgentKind {
    /// Picks uniformly among the legal options.
    Random,
    /// Takes the option the ruleset's `prefer` scores rate best (ties broken at random).
    Heuristic,
    /// You, at the terminal: the board is shown on stderr, choices are read from stdin.
    Human,
    /// Monte Carlo tree search over the match (docs/agents.md), with this budget per
    /// decision and these rollouts.
    Mcts(Budget, Rollout),
}

/// What `--home` / `--away` accept, for help and error messages.
pub const AGENT_HELP: &str = "random | heuristic | human | mcts[:PASSES | :MSms][:random] \
(search, default 400 passes per decision with heuristic rollouts; e.g. mcts:100, mcts:50ms, \
mcts:100:random)";

impl FromStr for AgentKind {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, String> {
        let mut parts = s.split(':');
        let name = parts.next().unwrap_or("").trim().to_ascii_lowercase();
        let rest: Vec<&str> = parts.collect();
        let plain = match name.as_str() {
            "random" => Some(AgentKind::Random),
            "heuristic" => Some(AgentKind::Heuristic),
            "human" => Some(AgentKind::Human),
            "mcts" => None,
            _ => return Err(format!("unknown agent `{s}`; expected {AGENT_HELP}")),
        };
        if let Some(kind) = plain {
            return match rest.is_empty() {
                true => Ok(kind),
                false => Err(format!(
                    "`{name}` takes no budget; only mcts does (mcts:400)"
                )),
            };
        }
        let mut budget = Budget::Passes(DEFAULT_PASSES);
        let mut rollout = Rollout::Heuristic;
        match rest.as_slice() {
            [] => {}
            [one] if is_rollout(one) => {
                rollout = parse_rollout(one).map_err(|_| {
                    format!(
                        "`{}` is neither a search budget (400, 50ms) nor rollouts (random, heuristic)",
                        one.trim()
                    )
                })?;
            }
            [b] => budget = parse_budget(b)?,
            [b, r] => {
                budget = parse_budget(b)?;
                rollout = parse_rollout(r)?;
            }
            _ => return Err(format!("`{s}` has too many parts; expected {AGENT_HELP}")),
        }
        Ok(AgentKind::Mcts(budget, rollout))
    }
}

fn is_rollout(s: &str) -> bool {
    !s.trim().starts_with(|c: char| c.is_ascii_digit())
}

/// `random` or `heuristic` rollouts.
fn parse_rollout(s: &str) -> Result<Rollout, String> {
    match s.trim() {
        "random" => Ok(Rollout::Random),
        "heuristic" => Ok(Rollout::Heuristic),
        other => Err(format!(
            "the rollouts `{other}` are not random or heuristic (mcts:100:random)"
        )),
    }
}

/// `400` (passes) or `50ms` (milliseconds), within the limits.
fn parse_budget(b: &str) -> Result<Budget, String> {
    let b = b.trim();
    let (digits, millis) = match b.strip_suffix("ms") {
        Some(d) => (d, true),
        None => (b, false),
    };
    let n: u32 = digits.parse().map_err(|_| {
        format!("the search budget `{b}` is not a number of passes (400) or milliseconds (50ms)")
    })?;
    let max = if millis { MAX_MILLIS } else { MAX_PASSES };
    if n == 0 || n > max {
        let unit = if millis { "milliseconds" } else { "passes" };
        return Err(format!(
            "the search budget must be 1 to {max} {unit}, not {n}"
        ));
    }
    Ok(if millis {
        Budget::Millis(n)
    } else {
        Budget::Passes(n)
    })
}

impl fmt::Display for AgentKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AgentKind::Random => f.write_str("random"),
            AgentKind::Heuristic => f.write_str("heuristic"),
            AgentKind::Human => f.write_str("human"),
            AgentKind::Mcts(budget, rollout) => {
                match budget {
                    Budget::Passes(n) => write!(f, "mcts:{n}")?,
                    Budget::Millis(ms) => write!(f, "mcts:{ms}ms")?,
                }
                match rollout {
                    Rollout::Heuristic => Ok(()),
                    Rollout::Random => f.write_str(":random"),
                }
            }
        }
    }
}

impl AgentKind {
    /// The name used in logs and tallies (`mcts:400`).
    pub fn label(self) -> String {
        self.to_string()
    }

    /// Whether the agent searches (its first match under a ruleset learns the ruleset's
    /// position values first).
    pub fn searches(self) -> bool {
        matches!(self, AgentKind::Mcts(..))
    }
}

/// Learns the position values a search agent needs before a batch starts, saying so on
/// stderr, so the first match does not seem to hang.
pub fn prepare(rs: &Ruleset, kinds: &[AgentKind]) {
    if kinds.iter().any(|k| k.searches()) {
        note!(
            "learning what positions are worth under {} ({} matches of heuristic play)...",
            rs.name,
            fuba_engine::search::LEARN_MATCHES
        );
        let _ = PositionValues::for_ruleset(rs);
    }
}

/// The agent for a team. `human` reads stdin and prompts on stderr.
pub fn make_agent(kind: AgentKind, rs: &Ruleset, seed: u64, team: Team) -> Box<dyn Agent> {
    match kind {
        AgentKind::Random => Box::new(RandomAgent::new(seed, team)),
        AgentKind::Heuristic => Box::new(HeuristicAgent::new(seed, team)),
        AgentKind::Human => Box::new(human::HumanAgent::stdio(team)),
        AgentKind::Mcts(budget, rollout) => {
            let cfg = MctsConfig {
                budget,
                rollout,
                ..MctsConfig::default()
            };
            Box::new(MctsAgent::new(
                cfg,
                PositionValues::for_ruleset(rs),
                seed,
                team,
            ))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn agents_parse_with_and_without_a_budget() {
        assert_eq!("random".parse(), Ok(AgentKind::Random));
        let h = Rollout::Heuristic;
        assert_eq!("mcts".parse(), Ok(AgentKind::Mcts(Budget::Passes(400), h)));
        assert_eq!(
            "mcts:50".parse(),
            Ok(AgentKind::Mcts(Budget::Passes(50), h))
        );
        assert_eq!(
            "mcts:20ms".parse(),
            Ok(AgentKind::Mcts(Budget::Millis(20), h))
        );
        let r = AgentKind::Mcts(Budget::Passes(100), Rollout::Random);
        assert_eq!("mcts:100:random".parse(), Ok(r));
        assert_eq!(r.label(), "mcts:100:random");
        assert_eq!(AgentKind::Mcts(Budget::Millis(20), h).label(), "mcts:20ms");
        assert_eq!(
            "mcts:random".parse(),
            Ok(AgentKind::Mcts(Budget::Passes(400), Rollout::Random))
        );
    }

    #[test]
    fn bad_agents_say_what_is_expected() {
        let e = "mcts:0".parse::<AgentKind>().unwrap_err();
        assert_eq!(e, "the search budget must be 1 to 1000000 passes, not 0");
        let e = "mcts:fast".parse::<AgentKind>().unwrap_err();
        assert!(e.contains("neither a search budget"), "{e}");
        let e = "mcts:12x".parse::<AgentKind>().unwrap_err();
        assert!(e.contains("not a number of passes"), "{e}");
        let e = "heuristic:3".parse::<AgentKind>().unwrap_err();
        assert!(e.contains("only mcts does"), "{e}");
        let e = "mcts:100:clever".parse::<AgentKind>().unwrap_err();
        assert!(e.contains("not random or heuristic"), "{e}");
        let e = "alphazero".parse::<AgentKind>().unwrap_err();
        assert!(
            e.starts_with("unknown agent `alphazero`; expected random | heuristic"),
            "{e}"
        );
    }
}
