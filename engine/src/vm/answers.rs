//! The stepping interface's answers: what the match waits for (a decision, dice), the
//! answer taken ([`Match::choose`], [`Match::roll`]) or refused with an error at the
//! match's place, and the rules' `prefer` scores of a decision's options
//! ([`Match::hints`]), worked out with no lasting effect.

use fuba_grammar::ast::Keep;

use super::exec::Exit;
use super::machine::{Frame, Match, Wait};
use super::outcome::Outcome;
use super::run_error::{ErrorKind, Halt, RunError};
use super::schedule::{Chance, Phase};
use crate::agent::{Decision, Opt};
use crate::log::{EventKind, team_name};
use crate::value::{Dice, Value};

impl Match<'_> {
    /// The decision the match waits for (the hints and the prompt are empty: see
    /// [`Match::hints`] and [`Match::prompt`]).
    pub fn decision(&self) -> Option<Decision<'_>> {
        let Wait::Decision { site, team, .. } = self.wait else {
            return None;
        };
        let d = &self.prog.decisions[site as usize];
        Some(Decision {
            team,
            kind: self.rs.symbol(d.kind),
            options: &self.opts,
            secret: d.secret,
            hints: &[],
            prompt: "",
            notes: &[],
        })
    }

    /// The chance event the match waits for.
    pub fn chance(&self) -> Option<Chance> {
        let Wait::Chance { site, team, .. } = self.wait else {
            return None;
        };
        let r = &self.prog.rolls[site as usize];
        Some(Chance {
            team,
            count: r.count,
            sides: r.sides,
            label: r.label,
        })
    }

    /// How the match ended, once it has.
    pub fn outcome(&self) -> Option<&Outcome> {
        self.outcome.as_ref()
    }

    /// An error at the place the match waits at (an agent or the dice could not answer).
    pub fn fail(&mut self, message: impl Into<String>) -> RunError {
        let at = match self.wait {
            Wait::Decision { at, .. } | Wait::Chance { at, .. } => at,
            Wait::Run => self.pc,
        };
        match self.input_error(at, message) {
            Halt::Error(e) => self.fail_with(*e),
            _ => self.fail_with(RunError::host(ErrorKind::Input, "an error with no place")),
        }
    }

    /// The error of an answer the match cannot take (an agent's error, an option or a
    /// die that is not there), placed at instruction `at`: what [`Match::fail`] ends the
    /// match with, and what the pilot returns from inside the machine.
    pub(super) fn input_error(&self, at: u32, message: impl Into<String>) -> Halt {
        self.error(at, message).of_kind(ErrorKind::Input)
    }

    /// Ends the match with an error.
    pub(super) fn fail_with(&mut self, e: RunError) -> RunError {
        self.unwind();
        self.failed = Some(e.clone());
        self.phase = Phase::Over;
        e
    }

    /// Answers the waiting decision with option `i`.
    pub fn choose(&mut self, i: usize) -> Result<(), RunError> {
        if matches!(self.wait, Wait::Decision { .. }) && i < self.opts.len() {
            self.picked(i);
            return Ok(());
        }
        let msg = self.bad_pick(i);
        Err(self.fail(msg))
    }

    /// The error of an agent's answer that is no option of the waiting decision.
    pub(super) fn bad_pick(&self, i: usize) -> String {
        let Wait::Decision { site, .. } = self.wait else {
            return "no decision is waiting".into();
        };
        let kind = self.rs.symbol(self.prog.decisions[site as usize].kind);
        let n = self.opts.len();
        format!("agent picked option {i} of {n} for \"{kind}\"")
    }

    /// The error of dice that do not answer the waiting roll (`None`: they do).
    pub(super) fn bad_roll(&self, dice: &[u8]) -> Option<String> {
        let Wait::Chance { site, .. } = self.wait else {
            return Some("no roll is waiting".into());
        };
        let r = self.prog.rolls[site as usize];
        (dice.len() != r.count as usize || dice.iter().any(|d| *d < 1 || *d > r.sides)).then(|| {
            format!(
                "the roll \"{}\" takes {} d{}, given {dice:?}",
                self.rs.symbol(r.label),
                r.count,
                r.sides
            )
        })
    }

    /// Answers the waiting chance event with the dice, in the order rolled.
    pub fn roll(&mut self, dice: &[u8]) -> Result<(), RunError> {
        if let Some(msg) = self.bad_roll(dice) {
            return Err(self.fail(msg));
        }
        self.take_roll(dice);
        Ok(())
    }

    /// Takes dice that answer the waiting roll ([`Match::bad_roll`] found none wrong):
    /// counts, logs, pushes their value.
    pub(super) fn take_roll(&mut self, dice: &[u8]) {
        let Wait::Chance { site, team, at, .. } = self.wait else {
            return;
        };
        let r = self.prog.rolls[site as usize];
        self.wait = Wait::Run;
        let mut d = Dice {
            n: r.count,
            d: [0; 8],
        };
        d.d[..dice.len()].copy_from_slice(dice);
        self.counters.dice += u32::from(r.count);
        let kept = match r.keep {
            None => d,
            Some((k, m)) => {
                let mut v: Vec<u8> = d.as_slice().to_vec();
                v.sort_unstable();
                if k == Keep::Highest {
                    v.reverse();
                }
                let mut out = Dice { n: m, d: [0; 8] };
                out.d[..m as usize].copy_from_slice(&v[..m as usize]);
                out
            }
        };
        if self.logging() {
            self.emit_event_at(
                at,
                EventKind::Roll {
                    team: team.map(|t| team_name(t).to_string()),
                    label: self.rs.symbol(r.label).to_string(),
                    dice: d.as_slice().to_vec(),
                    kept: kept.as_slice().to_vec(),
                },
            );
        }
        self.stack.push(if kept.n == 1 {
            Value::Int(i64::from(kept.d[0]))
        } else {
            Value::Dice(kept)
        });
    }

    /// The rules' `prefer` score of every option of the waiting decision (empty when the
    /// rule gives none or there is no decision). Worked out with no lasting effect: nothing
    /// is logged or counted, and a score that could change the state runs on a copy.
    pub fn hints(&mut self) -> Result<Vec<i64>, RunError> {
        let mut out = Vec::new();
        self.hints_into(&mut out)?;
        Ok(out)
    }

    /// [`Match::hints`] into `out` (cleared first), whose room a driver asking at every
    /// decision reuses.
    pub fn hints_into(&mut self, out: &mut Vec<i64>) -> Result<(), RunError> {
        let at = match self.wait {
            Wait::Decision { at, .. } => at,
            _ => self.pc,
        };
        match self.scores_into(out, at) {
            Ok(()) => Ok(()),
            Err(Halt::Error(e)) => Err(self.fail_with(*e)),
            Err(_) => Err(self.fail("a `prefer` score ended the turn")),
        }
    }

    /// [`Match::hints_into`] for the machine itself ([`super::pilot`]): an error is
    /// returned as the machine's, not yet ending the match; a score that ended the turn is
    /// the error [`Match::hints_into`] gives, at the decision's place `at`.
    pub(super) fn scores_into(&mut self, out: &mut Vec<i64>, at: u32) -> Result<(), Halt> {
        out.clear();
        let Wait::Decision { site, .. } = self.wait else {
            return Ok(());
        };
        let prog = self.prog;
        let d = &prog.decisions[site as usize];
        if d.prefer.iter().all(Option::is_none) || self.opts.len() < 2 {
            return Ok(());
        }
        let saved = (!d.pure_prefer).then(|| self.st.clone());
        let log = self.log.take();
        let (counting, wait, pc) = (self.counting, self.wait, self.pc);
        self.counting = false;
        self.scoring = true;
        let base = self.frames.last().map_or(0, |f| f.base);
        if self.score_code().is_some_and(|c| c.own_parts(site)) {
            self.unhoisted = true;
        } else {
            self.hoist_scores(&d.hoist, base as usize);
        }
        out.reserve(self.opts.len());
        let mut result = Ok(());
        // Scores are kept where there is no machine code for them: it scores an offer's
        // options for less than keeping them costs (`vm/kept.rs`).
        let first = if d.keep.is_some() && self.kept.on && self.score_code().is_none() {
            self.kept_scores(site, d, base as usize, out)
        } else {
            self.direct_scores(site, d, base as usize, out)
        };
        if first < self.opts.len() {
            self.hoist_due(base as usize);
        }
        self.unhoisted = false;
        for i in first..self.opts.len() {
            let entry = match self.opts[i] {
                Opt::Area(a) => d.prefer[0].map(|(slot, e)| (slot, e, Value::Area(a))),
                Opt::Move(m) => d.prefer[0].map(|(slot, e)| (slot, e, Value::Move(m))),
                Opt::Arm(k, _) => d.prefer[k as usize].map(|(_, e)| (u16::MAX, e, Value::None)),
                Opt::Skip(_) => None,
            };
            let Some((slot, e, v)) = entry else {
                out.push(0);
                continue;
            };
            if slot != u16::MAX {
                self.stack[base as usize + slot as usize] = v;
            }
            if let Some(x) = self.direct_score(e, base as usize) {
                out.push(x);
                continue;
            }
            match self.run_waiting(e) {
                Ok(Exit::Returned(Value::Int(x))) => out.push(x),
                Ok(Exit::Returned(other)) => {
                    result = Err(self.error(e, format!("expected an integer, found {other:?}")));
                    break;
                }
                Ok(Exit::Suspended) => {
                    result = Err(self.error(e, "a `prefer` score may not ask for a choice"));
                    break;
                }
                Err(h) => {
                    result = Err(h);
                    break;
                }
            }
        }
        self.scoring = false;
        self.counting = counting;
        self.wait = wait;
        self.pc = pc;
        self.log = log;
        if let Some(st) = saved {
            self.st = st;
            self.touch();
        }
        match result {
            Err(Halt::EndTurn | Halt::EndHalf | Halt::Stop) => Err(self
                .error(at, "a `prefer` score ended the turn")
                .of_kind(ErrorKind::Input)),
            r => r,
        }
    }

    /// Runs the code at `entry` (a `prefer` score, a prompt's value: it ends with
    /// `EndScore`) in the frame of the decision the match waits at, and leaves the frames
    /// and the operand stack as they were. The caller puts back `wait` and `pc`.
    pub(super) fn run_waiting(&mut self, entry: u32) -> Result<Exit, Halt> {
        let (base, unit) = self.frames.last().map_or((0, 0), |f| (f.base, f.unit));
        let (sp, depth) = (self.stack.len(), self.frames.len());
        self.frames.push(Frame {
            ret: u32::MAX,
            base,
            unit,
            memo: 0,
            score: true,
            nested: false,
            // The score's instructions carry the rule mark of the `choose` they score.
            mark: 0,
        });
        self.pc = entry;
        self.wait = Wait::Run;
        let r = self.run();
        self.stack.truncate(sp);
        self.frames.truncate(depth);
        r
    }
}
