//! Search over the match value: agents that look ahead by playing the rules on copies of
//! the match, for any ruleset, with no code of any edition.
//!
//! ```text
//! Game ──(each decision of a searching team)──> View { search: SearchView { worlds, played } }
//!   worlds: the matches the team cannot tell apart from the truth (worlds.rs)
//!   MctsAgent: passes over copies of the worlds (mcts.rs) in an open-loop tree (tree.rs),
//!              each worth its goals plus the learned worth of where it ends (values.rs)
//! ```

mod mcts;
mod tree;
mod values;
mod worlds;

pub use mcts::{Budget, DEFAULT_PASSES, MctsAgent, MctsConfig, Rollout, SearchStats};
pub use tree::{Node, NodeId, Tree};
pub use values::{LEARN_MATCHES, LEARN_TURNS, PositionValues};
pub use worlds::{MAX_WORLDS, Played, Worlds};

use crate::vm::Match;

/// What a searching agent is given beside the public state: the worlds its team cannot
/// tell apart from the true match, and every answer of the match so far as its team saw
/// them (the other team's secret answers hidden).
pub struct SearchView<'a> {
    /// Matches to search from; the true one is among them, unmarked.
    pub worlds: Vec<&'a Match<'a>>,
    /// The answers so far, in order.
    pub played: &'a [Played],
}
