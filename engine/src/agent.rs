//! Agents: whoever decides for a team. Each decision offers a finite list of legal,
//! labelled options; the agent picks one by index.
//!
//! An agent sees only what its team may see: the public match state ([`View`]) and the
//! decision. The opponent's secret choices live in the rule being run until the rule
//! reveals them, so no agent can read them.

use crate::board::AreaId;
use crate::dice::Stream;
use crate::ruleset::Ruleset;
use crate::search::SearchView;
use crate::state::MatchState;
use crate::value::{Move, Sym, Team};

/// One option of a decision.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Opt {
    /// An area.
    Area(AreaId),
    /// A move.
    Move(Move),
    /// A labelled arm (index into the arms, its label).
    Arm(u16, Sym),
    /// The `skip` option.
    Skip(Sym),
}

impl Opt {
    /// The option's stable label.
    pub fn label(&self, rs: &Ruleset) -> String {
        match self {
            Opt::Area(a) => rs.board.name(*a).to_string(),
            Opt::Move(m) => format!(
                "{}{}->{}",
                if m.keeper { "GK " } else { "" },
                rs.board.name(m.from),
                rs.board.name(m.to)
            ),
            Opt::Arm(_, s) | Opt::Skip(s) => rs.symbol(*s).to_string(),
        }
    }
}

/// A decision put to an agent.
#[derive(Debug)]
pub struct Decision<'a> {
    /// The team deciding.
    pub team: Team,
    /// The decision's name (`target area`).
    pub kind: &'a str,
    /// The legal options, in a fixed order.
    pub options: &'a [Opt],
    /// Whether the choice is hidden from the other team.
    pub secret: bool,
    /// The ruleset's `prefer` score of each option (empty unless the agent asked for
    /// them and the rule gives them).
    pub hints: &'a [i64],
    /// What is being decided, in the rule's words with its values filled in (`choose ...
    /// prompt "..."`): empty unless the agent asked for it ([`Agent::wants_prompt`]) and
    /// the rule gives one. Never logged.
    pub prompt: &'a str,
    /// What the rule says about each option (`note x => "..."`), in the order of the
    /// options: empty unless the agent asked for it ([`Agent::wants_prompt`]) and the rule
    /// gives one. Never logged.
    pub notes: &'a [String],
}

/// What an agent may look at.
pub struct View<'a> {
    /// The rules.
    pub rules: &'a Ruleset,
    /// The public state.
    pub state: &'a MatchState,
    /// For an agent that searches ([`Agent::wants_worlds`]): the matches its team cannot
    /// tell apart from the true one, and the answers so far as it saw them.
    pub search: Option<&'a SearchView<'a>>,
}

/// Decides for a team.
pub trait Agent {
    /// Picks an option: an index into `d.options`. `Err` with a message stops the match
    /// (a scripted agent without the label asked for, a human who quit).
    fn choose(&mut self, view: &View<'_>, d: &Decision<'_>) -> Result<usize, String>;
    /// A short name for logs.
    fn name(&self) -> String;
    // The four below are asked once when a match starts running ([`crate::game::Game::run`]),
    // not at every decision: an agent's answers must not change while it plays.
    /// Whether the agent uses the rules' `prefer` scores (computing them costs time).
    fn wants_hints(&self) -> bool {
        false
    }
    /// Whether the agent shows decisions to a person and wants their prompt and the notes
    /// on their options ([`Decision::prompt`], [`Decision::notes`]; working them out costs
    /// time).
    fn wants_prompt(&self) -> bool {
        false
    }
    /// Whether the agent searches and so needs [`View::search`] (keeping it costs time).
    fn wants_worlds(&self) -> bool {
        false
    }
    /// Whether the agent may answer [`TAKE_BACK`] (a person who mistyped): the match is
    /// then kept as it was before each of its decisions, until dice are rolled.
    fn may_take_back(&self) -> bool {
        false
    }
}

/// What an agent answers ([`Agent::choose`]) to take back its previous answer: the match
/// goes back to the decision before it, provided no die was rolled since (then the
/// answer stands and the agent is asked again). Only for agents that
/// [`Agent::may_take_back`].
pub const TAKE_BACK: usize = usize::MAX;

/// Plays like a sensible person, as far as the ruleset tells what is sensible: takes the
/// option with the best `prefer` score the rule gives (passes with good odds toward goal,
/// shots with good odds, a compact shape), breaking ties at random.
#[derive(Debug, Clone)]
pub struct HeuristicAgent {
    rng: Stream,
}

impl HeuristicAgent {
    /// A heuristic agent with its own stream, derived from the match seed and the team.
    pub fn new(seed: u64, team: Team) -> Self {
        HeuristicAgent {
            rng: Stream::new(seed, 3 + u64::from(team)),
        }
    }
}

impl Agent for HeuristicAgent {
    fn choose(&mut self, _: &View<'_>, d: &Decision<'_>) -> Result<usize, String> {
        if d.hints.len() != d.options.len() {
            return Ok(self.rng.below(d.options.len() as u32) as usize);
        }
        // The best score, how many options have it and the first of them, in one pass.
        let (mut best, mut ties, mut first) = (i64::MIN, 0u32, 0usize);
        // (One test for the options below the best so far, the most of them.)
        for (i, &h) in d.hints.iter().enumerate() {
            if h >= best {
                if h > best {
                    (best, ties, first) = (h, 0, i);
                }
                ties += 1;
            }
        }
        // The k-th of the options scored best: the first is known; a later one is found
        // again rather than listed at every decision. The same draw picks the same option.
        let k = self.rng.below(ties) as usize;
        if k == 0 {
            return Ok(first);
        }
        Ok(d.hints
            .iter()
            .enumerate()
            .skip(first + 1)
            .filter(|(_, h)| **h == best)
            .nth(k - 1)
            .map_or(0, |(i, _)| i))
    }
    fn name(&self) -> String {
        "heuristic".into()
    }
    fn wants_hints(&self) -> bool {
        true
    }
}

/// Picks uniformly at random from the legal options.
#[derive(Debug, Clone)]
pub struct RandomAgent {
    rng: Stream,
}

impl RandomAgent {
    /// A random agent with its own stream, derived from the match seed and the team.
    pub fn new(seed: u64, team: Team) -> Self {
        RandomAgent {
            rng: Stream::new(seed, 1 + u64::from(team)),
        }
    }
}

impl Agent for RandomAgent {
    fn choose(&mut self, _: &View<'_>, d: &Decision<'_>) -> Result<usize, String> {
        Ok(self.rng.below(d.options.len() as u32) as usize)
    }
    fn name(&self) -> String {
        "random".into()
    }
}

/// Picks options by label, in order (scenarios, replays, tests).
#[derive(Debug, Clone, Default)]
pub struct ScriptedAgent {
    /// Labels still to use.
    pub script: std::collections::VecDeque<String>,
    /// What to do when the script runs out: `None` fails, `Some(agent)` hands over.
    pub fallback: Option<RandomAgent>,
}

impl ScriptedAgent {
    /// A script of labels.
    pub fn new(labels: impl IntoIterator<Item = String>) -> Self {
        ScriptedAgent {
            script: labels.into_iter().collect(),
            fallback: None,
        }
    }
}

impl Agent for ScriptedAgent {
    fn choose(&mut self, view: &View<'_>, d: &Decision<'_>) -> Result<usize, String> {
        let Some(want) = self.script.pop_front() else {
            return match &mut self.fallback {
                Some(f) => f.choose(view, d),
                None => Err(format!(
                    "the script has no choice left for \"{}\"; legal: {}",
                    d.kind,
                    legal_labels(view.rules, d)
                )),
            };
        };
        d.options
            .iter()
            .position(|o| o.label(view.rules) == want)
            .ok_or_else(|| {
                format!(
                    "scripted choice \"{want}\" is not legal for \"{}\"; legal: {}",
                    d.kind,
                    legal_labels(view.rules, d)
                )
            })
    }
    fn name(&self) -> String {
        "scripted".into()
    }
}

/// The legal labels of a decision, for messages.
pub fn legal_labels(rs: &Ruleset, d: &Decision<'_>) -> String {
    d.options
        .iter()
        .map(|o| format!("\"{}\"", o.label(rs)))
        .collect::<Vec<_>>()
        .join(", ")
}
