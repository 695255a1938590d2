//! The match asking its [`Pilot`]'s agents and dice where it would have paused
//! (`pilot.rs` says why and what stays the same).

use super::machine::{Match, Wait};
use super::pilot::Pilot;
use super::run_error::Halt;
use crate::agent::View;

impl Match<'_> {
    /// The waiting decision answered by the pilot's agent (`Ok(false)`: answered, the
    /// machine runs on), or left for the driver (`Ok(true)`).
    pub(super) fn pilot_decides(&mut self, at: u32) -> Result<bool, Halt> {
        // A crossed bound on the log pauses the match: the pause reports it.
        if self.log_bound_pending() {
            return Ok(true);
        }
        let Some(mut p) = self.pilot.take() else {
            return Ok(true);
        };
        let paused = self.pilot_answer(&mut p, at);
        self.pilot = Some(p);
        paused
    }

    /// The pilot's agent asked and its answer taken (`Ok(false)`), or no decision to ask
    /// it (`Ok(true)`: the match pauses).
    fn pilot_answer(&mut self, p: &mut Pilot<'_>, at: u32) -> Result<bool, Halt> {
        let Wait::Decision { team, .. } = self.wait else {
            return Ok(true);
        };
        let hints = p.hints[team as usize % 2];
        p.scores.clear();
        if hints {
            self.scores_into(&mut p.scores, at)?;
        }
        let Some(d) = self.decision() else {
            return Ok(true);
        };
        let d = crate::agent::Decision {
            hints: if hints { &p.scores } else { &[] },
            ..d
        };
        let view = View {
            rules: self.rs,
            state: &self.st,
            search: None,
        };
        match p.agents[team as usize % 2].choose(&view, &d) {
            Ok(i) if i < self.opts.len() => {
                self.picked(i);
                Ok(false)
            }
            Ok(i) => {
                let msg = self.bad_pick(i);
                Err(self.input_error(at, msg))
            }
            Err(msg) => Err(self.input_error(at, msg)),
        }
    }

    /// The waiting roll rolled by the pilot's dice (`Ok(false)`: rolled, the machine
    /// runs on), or left for the driver (`Ok(true)`).
    pub(super) fn pilot_rolls(&mut self, at: u32) -> Result<bool, Halt> {
        if self.log_bound_pending() || self.pilot.is_none() {
            return Ok(true);
        }
        let Some(c) = self.chance() else {
            return Ok(true);
        };
        let Some(mut p) = self.pilot.take() else {
            return Ok(true);
        };
        let label = self.rs.symbol(c.label);
        let mut dice = [0u8; 8];
        let mut rolled = Ok(());
        for d in dice.iter_mut().take(c.count as usize) {
            match p.dice.roll(c.sides, label) {
                Ok(x) => *d = x,
                Err(msg) => {
                    rolled = Err(msg);
                    break;
                }
            }
        }
        self.pilot = Some(p);
        let dice = &dice[..c.count as usize];
        let wrong = rolled.err().or_else(|| self.bad_roll(dice));
        if let Some(msg) = wrong {
            return Err(self.input_error(at, msg));
        }
        self.take_roll(dice);
        Ok(false)
    }
}
