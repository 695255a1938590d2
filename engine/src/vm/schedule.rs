//! What a match runs ([`Schedule`]: a whole match, or for scenarios a list of procedures
//! or a number of turns from a set position), where its course is ([`Phase`]), and what
//! it waits for after `advance` ([`Status`], [`Chance`]); the course itself is
//! `course.rs`.

use crate::value::{Sym, Team, Value};

/// What a match runs.
#[derive(Debug, Clone, PartialEq)]
pub enum Schedule {
    /// A whole match.
    Match,
    /// These procedures in order, stopping when one ends the turn or half (scenarios).
    Procs(Vec<u16>),
    /// This many turns of stages and turn end, from the position as set (scenarios).
    Turns(u32),
    /// One procedure with arguments, from the position as set; ending the turn or half
    /// ends it too.
    Call(u16, Vec<Value>),
}

/// Where the course of the match is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Phase {
    Begin,
    HalfBegin(u32),
    TurnCheck,
    Stage(u32),
    TurnEnd {
        half_over: bool,
    },
    HalfEnd {
        runaway: bool,
    },
    MatchEnd,
    /// Scenario: procedure `i` of the list.
    Proc(u32),
    /// Scenario: turn `n` (counted from 0), stage `i` (`stages.len()`: the turn end).
    Turn(u32, u32),
    /// The one procedure of [`Schedule::Call`] (started or not).
    Call(bool),
    Over,
}

/// What the match waits for after [`Match::advance`](crate::vm::Match::advance).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Status {
    /// A team's decision: see [`Match::decision`](crate::vm::Match::decision), answer with [`Match::choose`](crate::vm::Match::choose).
    Decision,
    /// Dice: see [`Match::chance`](crate::vm::Match::chance), answer with [`Match::roll`](crate::vm::Match::roll).
    Chance,
    /// A stage ended (only when [`Match::pause_at_stages`](crate::vm::Match::pause_at_stages) is set); advance again.
    Boundary,
    /// The match (or the scenario's run) is over: see [`Match::outcome`](crate::vm::Match::outcome).
    End,
}

/// A chance event: the dice the rules roll now.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Chance {
    /// The team rolling, when the rule names one.
    pub team: Option<Team>,
    /// Dice rolled.
    pub count: u8,
    /// Sides of each die.
    pub sides: u8,
    /// The roll's name.
    pub label: Sym,
}

impl Chance {
    /// Every outcome (the dice in the order rolled) with its exact probability as a
    /// fraction `(numerator, denominator)`; the fractions sum to 1.
    pub fn outcomes(&self) -> Vec<(Vec<u8>, (u64, u64))> {
        let n = u32::from(self.count);
        let sides = u64::from(self.sides.max(1));
        let total = sides.pow(n);
        (0..total)
            .map(|mut k| {
                let mut dice = vec![0u8; n as usize];
                for d in dice.iter_mut().rev() {
                    *d = (k % sides) as u8 + 1;
                    k /= sides;
                }
                (dice, (1, total))
            })
            .collect()
    }
}
