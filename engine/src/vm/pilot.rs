//! Answers given inside the machine: a driver whose agents take only a decision's options
//! (and perhaps their scores) and whose dice only roll lends them to the match
//! ([`Pilot`]), and the match asks them where it would have paused, then runs on.
//!
//! Nothing an agent or a die sees or does changes: the same decision, the same scores, the
//! same view of the state, the same answer taken ([`Match::picked`], [`Match::roll`]) and
//! the same error, at the same place, when an answer cannot be taken. What goes is the
//! round trip through the driver at every decision and roll (the machine's loop left and
//! entered again, the driver's steps around the answer): about 170 k host instructions an
//! original match of some 700 decisions (`docs/performance.md`, "Answers inside the
//! machine, twenty-second round"). A match with a pilot pauses only where a driver must
//! act (a stage's end when asked, the end), or where a bound on the log was crossed (the
//! pause reports it, as without a pilot).

use crate::agent::Agent;
use crate::dice::DiceSource;

/// The agents and dice a driver lends to a match while it runs it
/// ([`crate::game::Game::run`]): given back when the run ends. A copy of the match has
/// none.
pub(crate) struct Pilot<'a> {
    /// Home and away agents.
    pub(crate) agents: [Box<dyn Agent + 'a>; 2],
    /// Whether each agent is given the options' scores.
    pub(crate) hints: [bool; 2],
    /// Where dice come from.
    pub(crate) dice: Box<dyn DiceSource + 'a>,
    /// The scores' room, reused from decision to decision.
    pub(crate) scores: Vec<i64>,
}
