//! The generic FUBA turn engine.
//!
//! A ruleset file (one edition, or a house rule) is loaded and checked into a
//! [`ruleset::Ruleset`]; a [`vm::Match`] runs it, a value stepped by [`game::Game`] with dice from a
//! [`dice::DiceSource`] and decisions from [`agent::Agent`]s, recording every event in the [`log`]. The engine knows
//! areas, teams, pieces, dice, the ball, the clock, choices and hooks; every rule of every
//! edition lives in `rulesets/`.
#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod agent;
pub mod board;
pub(crate) mod compile;
pub mod dice;
pub mod files;
pub mod game;
pub mod ir;
mod ir_walk;
pub mod limits;
pub mod lint;
pub mod lint_narration;
pub mod load;
pub mod log;
pub mod memo;
pub mod odds;
pub mod prims;
pub mod purity;
pub mod replay;
pub mod ruleset;
pub mod run_report;
pub mod scenario;
pub mod search;
pub mod state;
pub mod value;
pub mod vm;

pub use compile::edit_distance;
