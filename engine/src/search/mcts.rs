//! The search agent: Monte Carlo tree search over the match value, for any ruleset.
//!
//! Every pass of the search takes one of the worlds the team cannot tell apart from the
//! truth ([`super::Worlds`]; the other team's unrevealed secret choices are not peeked
//! at), copies it, and plays on: down the tree by the UCB rule while every option of a
//! node has been tried, one new node, then a rollout (random or heuristic answers) to the
//! end of the turn — or `horizon` turns on. Dice are drawn from the agent's own stream,
//! so every outcome comes with its exact chance. The pass is worth the goals scored on
//! the way (in the ruleset's own scoring) plus what the position reached is worth
//! ([`super::PositionValues`], learned from the same rules). The option tried most
//! often at the root is played; the tree below it is kept for the next decision.
//!
//! With a budget in passes the agent is deterministic for a given seed; with a budget in
//! milliseconds it depends on the machine's speed.

use std::sync::Arc;
use std::time::{Duration, Instant};

use super::tree::{NodeId, Tree};
use super::values::PositionValues;
use super::worlds::Played;
use crate::agent::{Agent, Decision, View};
use crate::dice::splitmix64;
use crate::value::Team;
use crate::vm::{Match, Status};

/// How much a search may do per decision.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Budget {
    /// This many passes (deterministic).
    Passes(u32),
    /// Passes until this many milliseconds are spent (depends on the machine).
    Millis(u32),
}

/// How rollouts answer decisions.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Rollout {
    /// Uniformly at random.
    Random,
    /// The best `prefer` score, ties at random (slower).
    Heuristic,
}

/// The settings of a search agent.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct MctsConfig {
    /// Work per decision.
    pub budget: Budget,
    /// Turns a pass looks ahead: 1 plays to the end of the current turn.
    pub horizon: u32,
    /// How rollouts answer.
    pub rollout: Rollout,
    /// The UCB exploration constant, in goals.
    pub explore: f64,
    /// Keep the tree between decisions.
    pub reuse: bool,
    /// Weight of the heuristic policy (the rules' `prefer` scores) in the prior of every
    /// answer, against a uniform prior: 0 searches with no knowledge of the rules' hints.
    pub prior: f64,
    /// The same weight at the root, the decision being made: lower than [`MctsConfig::prior`]
    /// so every answer of the decision is tried often enough to be judged on its own.
    pub root_prior: f64,
}

impl Default for MctsConfig {
    fn default() -> Self {
        MctsConfig {
            budget: Budget::Passes(DEFAULT_PASSES),
            horizon: 2,
            rollout: Rollout::Heuristic,
            explore: 1.0,
            reuse: true,
            prior: 0.9,
            root_prior: 0.5,
        }
    }
}

/// Passes per decision when none is given.
pub const DEFAULT_PASSES: u32 = 400;

/// A pass stops after this many steps (answers and rolls) even before its horizon.
const MAX_PASS_STEPS: u32 = 2_000;

/// A tree larger than this stops growing (passes still run).
const MAX_NODES: usize = 1 << 20;

/// Counts of the agent's work, for figures.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct SearchStats {
    /// Decisions searched (more than one option).
    pub decisions: u64,
    /// Passes run.
    pub passes: u64,
    /// Passes that ended in a rule error (not counted in the tree).
    pub failed: u64,
    /// Time spent searching.
    pub seconds: f64,
}

/// The search agent (see the module docs).
pub struct MctsAgent {
    cfg: MctsConfig,
    values: Arc<PositionValues>,
    rng: u64,
    tree: Tree,
    /// The tree's root and how many answers the trail had when it was the root.
    at: Option<usize>,
    /// Work done so far.
    pub stats: SearchStats,
}

impl MctsAgent {
    /// A search agent for `team` with its own random stream from the match seed, valuing
    /// positions with `values`.
    pub fn new(cfg: MctsConfig, values: Arc<PositionValues>, seed: u64, team: Team) -> Self {
        MctsAgent {
            cfg,
            values,
            rng: splitmix64(seed ^ (0x5eac_4000 + u64::from(team))),
            tree: Tree::new(),
            at: None,
            stats: SearchStats::default(),
        }
    }

    fn below(&mut self, n: usize) -> usize {
        self.rng = splitmix64(self.rng);
        (((self.rng >> 32) * n as u64) >> 32) as usize
    }

    /// Moves the root down the answers given since the last decision, or starts afresh.
    fn reroot(&mut self, played: &[Played]) {
        let reused = self.cfg.reuse
            && self.at.is_some_and(|from| {
                let mut node = 0;
                for p in played.get(from..).unwrap_or(&[]) {
                    let Some(opt) = p.opt else { return false };
                    match self.tree.child(node, p.team, opt) {
                        Some(c) => node = c,
                        None => return false,
                    }
                }
                self.tree = self.tree.subtree(node);
                true
            });
        if !reused {
            self.tree = Tree::new();
        }
        self.at = Some(played.len());
    }

    /// One pass from a copy of `world`. `None` when a rule error ended it.
    fn pass(&mut self, world: &Match<'_>) -> Option<()> {
        let mut m = world.fork();
        let gd0 = m.st.score[0] - m.st.score[1];
        let last_turn = m.st.turns_total + self.cfg.horizon;
        let mut path: Vec<NodeId> = Vec::with_capacity(16);
        let mut node: NodeId = 0;
        let mut in_tree = true;
        let mut status = Status::Decision;
        let mut steps = 0;
        loop {
            match status {
                Status::Decision => {
                    let i = if in_tree {
                        let (i, child, new) = self.select(&mut m, node)?;
                        path.push(child);
                        node = child;
                        in_tree = !new;
                        i
                    } else {
                        self.rollout_choice(&mut m)?
                    };
                    m.choose(i).ok()?;
                }
                Status::Chance => {
                    let c = m.chance()?;
                    let mut d = [0u8; 8];
                    for x in d.iter_mut().take(c.count as usize) {
                        *x = self.below(usize::from(c.sides.max(1))) as u8 + 1;
                    }
                    m.roll(&d[..c.count as usize]).ok()?;
                }
                Status::Boundary => {}
                Status::End => break,
            }
            status = m.advance().ok()?;
            steps += 1;
            if m.st.turns_total >= last_turn || steps > MAX_PASS_STEPS {
                break;
            }
        }
        let ended = m.outcome().is_some();
        let gd = (m.st.score[0] - m.st.score[1] - gd0) as f64;
        let home = gd
            + if ended {
                0.0
            } else {
                self.values.home_value(&m.st)
            };
        let root = &mut self.tree.nodes[0];
        root.visits += 1;
        for id in path {
            let n = &mut self.tree.nodes[id as usize];
            n.visits += 1;
            n.total += if n.team == 0 { home } else { -home };
        }
        Some(())
    }

    /// Picks an option at a tree node by the PUCT rule: the mean worth of an answer plus
    /// an exploration bonus that grows with its prior and shrinks with its tries. The
    /// first time a node is reached, a child is made for every legal answer, with the
    /// prior of the heuristic policy (the rules' `prefer` scores) mixed with a uniform one;
    /// answers seen later in other passes join with a uniform prior. Returns the answer,
    /// the child and whether the child was never tried (the pass then rolls out).
    fn select(&mut self, m: &mut Match<'_>, node: NodeId) -> Option<(usize, NodeId, bool)> {
        if self.tree.nodes[node as usize].children.is_empty() && self.tree.len() < MAX_NODES {
            self.expand(m, node)?;
        }
        let d = m.decision()?;
        let team = d.team;
        let n = d.options.len();
        let mut best: Option<(f64, usize, NodeId)> = None;
        for (i, o) in d.options.iter().enumerate() {
            let c = match self.tree.child(node, team, *o) {
                Some(c) => c,
                None if self.tree.len() < MAX_NODES => {
                    self.tree.add(node, team, *o, 1.0 / n as f64)
                }
                None => continue,
            };
            let ch = &mut self.tree.nodes[c as usize];
            ch.avail += 1;
            let q = if ch.visits == 0 {
                0.0
            } else {
                ch.total / f64::from(ch.visits)
            };
            let u = self.cfg.explore * ch.prior * f64::from(ch.avail).sqrt()
                / (1.0 + f64::from(ch.visits));
            if best.is_none_or(|(b, _, _)| q + u > b) {
                best = Some((q + u, i, c));
            }
        }
        match best {
            Some((_, i, c)) => Some((i, c, self.tree.nodes[c as usize].visits == 0)),
            // The tree is full: answer at random, off the tree.
            None => Some((self.below(n), node, true)),
        }
    }

    /// Makes a child for every legal answer at `node`, with its prior.
    fn expand(&mut self, m: &mut Match<'_>, node: NodeId) -> Option<()> {
        let weight = if node == 0 {
            self.cfg.root_prior
        } else {
            self.cfg.prior
        };
        let hints = if weight > 0.0 {
            m.hints().ok()?
        } else {
            Vec::new()
        };
        let d = m.decision()?;
        let n = d.options.len();
        let uniform = 1.0 / n as f64;
        let best = hints.iter().copied().max();
        let ties = hints.iter().filter(|h| Some(**h) == best).count().max(1);
        for (i, o) in d.options.iter().enumerate() {
            let prior = if hints.len() == n {
                let h = if Some(hints[i]) == best {
                    1.0 / ties as f64
                } else {
                    0.0
                };
                weight * h + (1.0 - weight) * uniform
            } else {
                uniform
            };
            self.tree.add(node, d.team, *o, prior);
        }
        Some(())
    }

    /// Whether the answer most tried at the root leads the next one by more than `left`
    /// passes: no pass left can change which answer is played, so the search stops early.
    fn settled(&self, d: &Decision<'_>, left: u32) -> bool {
        let (mut first, mut second) = (0, 0);
        for o in d.options {
            if let Some(c) = self.tree.child(0, d.team, *o) {
                let v = self.tree.nodes[c as usize].visits;
                if v > first {
                    second = first;
                    first = v;
                } else if v > second {
                    second = v;
                }
            }
        }
        first > second + left
    }

    /// A rollout's answer.
    fn rollout_choice(&mut self, m: &mut Match<'_>) -> Option<usize> {
        let n = m.decision()?.options.len();
        if self.cfg.rollout == Rollout::Heuristic {
            let hints = m.hints().ok()?;
            if hints.len() == n {
                let best = hints.iter().copied().max()?;
                let ties: Vec<usize> = (0..n).filter(|i| hints[*i] == best).collect();
                return Some(ties[self.below(ties.len())]);
            }
        }
        Some(self.below(n))
    }
}

impl Agent for MctsAgent {
    fn choose(&mut self, view: &View<'_>, d: &Decision<'_>) -> Result<usize, String> {
        let Some(search) = view.search else {
            return Err("the search agent needs the match to search (play it in a game)".into());
        };
        self.reroot(search.played);
        if d.options.len() < 2 {
            return Ok(0);
        }
        let start = Instant::now();
        let worlds = &search.worlds;
        let mut passes = 0u32;
        loop {
            let done = match self.cfg.budget {
                Budget::Passes(n) => {
                    passes >= n || (passes % 16 == 0 && self.settled(d, n - passes))
                }
                Budget::Millis(ms) => {
                    passes > 0
                        && passes % 8 == 0
                        && start.elapsed() >= Duration::from_millis(u64::from(ms))
                }
            };
            if done {
                break;
            }
            let w = worlds[self.below(worlds.len())];
            if self.pass(w).is_none() {
                self.stats.failed += 1;
            }
            passes += 1;
        }
        self.stats.decisions += 1;
        self.stats.passes += u64::from(passes);
        self.stats.seconds += start.elapsed().as_secs_f64();
        // The most tried legal option; ties to the better mean, then to the first.
        let mut best: Option<(u32, f64, usize)> = None;
        for (i, o) in d.options.iter().enumerate() {
            if let Some(c) = self.tree.child(0, d.team, *o) {
                let n = &self.tree.nodes[c as usize];
                let mean = n.total / f64::from(n.visits.max(1));
                if best.is_none_or(|(v, q, _)| (n.visits, mean) > (v, q)) {
                    best = Some((n.visits, mean, i));
                }
            }
        }
        Ok(best.map_or(0, |(_, _, i)| i))
    }

    fn name(&self) -> String {
        match self.cfg.budget {
            Budget::Passes(n) => format!("mcts:{n}"),
            Budget::Millis(ms) => format!("mcts:{ms}ms"),
        }
    }

    fn wants_worlds(&self) -> bool {
        true
    }
}
