//! The match's course — the start procedure, then each half's start and turns, each turn the
//! ruleset's stages in order — as a state machine over the match value, written once; and
//! the stepping interface's `advance` (what the match waits for, and the answers to it,
//! are `answers.rs`).
//!
//! A [`Schedule`] says what is run: a whole match, or (for scenarios) a list of procedures
//! or a number of turns from a set position.

use std::sync::Arc;

use super::exec::Exit;
use super::machine::{Match, Wait};
use super::outcome::{Ending, Outcome};
use super::run_error::{ErrorKind, Halt, RunError};
use super::schedule::{Phase, Schedule, Status};
use crate::log::EventKind;
use crate::value::Value;

enum Ran {
    Done,
    EndTurn,
    EndHalf,
    Stop,
}

impl<'a> Match<'a> {
    /// Sets what the match runs (before the first [`Match::advance`]).
    pub fn set_schedule(&mut self, s: Schedule) {
        self.phase = match s {
            Schedule::Match => Phase::Begin,
            Schedule::Procs(_) => Phase::Proc(0),
            Schedule::Turns(_) => Phase::Turn(0, 0),
            Schedule::Call(..) => Phase::Call(false),
        };
        self.first_owner = None;
        self.schedule = Arc::new(s);
    }

    /// Runs until the match waits for a decision or dice, a stage ends (when pausing at
    /// stages), or it is over. A rule error ends the match and is returned (again on every
    /// later call).
    pub fn advance(&mut self) -> Result<Status, RunError> {
        if let Some(e) = &self.failed {
            return Err(e.clone());
        }
        let ran = self.advance_inner();
        // A bound on the log crossed while running (logbook.rs) stops the match here.
        let ran = match self.log_bound_crossed() {
            Some(e) if ran.is_ok() => Err(e),
            _ => ran,
        };
        match ran {
            Ok(s) => Ok(s),
            Err(e) => {
                self.unwind();
                self.failed = Some(e.clone());
                self.phase = Phase::Over;
                Err(e)
            }
        }
    }

    fn advance_inner(&mut self) -> Result<Status, RunError> {
        loop {
            match self.wait {
                Wait::Decision { .. } => return Ok(Status::Decision),
                Wait::Chance { .. } => return Ok(Status::Chance),
                Wait::Run => {}
            }
            if !self.frames.is_empty() || self.running_root {
                let r = match self.run() {
                    Ok(Exit::Suspended) => continue,
                    Ok(Exit::Returned(_)) => Ran::Done,
                    Err(Halt::EndTurn) => Ran::EndTurn,
                    Err(Halt::EndHalf) => Ran::EndHalf,
                    Err(Halt::Stop) => Ran::Stop,
                    Err(Halt::Error(e)) => return Err(*e),
                };
                self.running_root = false;
                self.unwind();
                if self.finish(r) {
                    return Ok(Status::Boundary);
                }
                continue;
            }
            if self.phase == Phase::Over {
                return Ok(Status::End);
            }
            self.step_phase().map_err(|h| match h {
                Halt::Error(e) => *e,
                _ => RunError::host(ErrorKind::Rule, "the match's course stopped unexpectedly"),
            })?;
        }
    }

    /// Starts a procedure of the course as a stage.
    fn stage_proc(&mut self, idx: u16) -> Result<(), Halt> {
        self.stage_call(idx, Vec::new())
    }

    /// Starts a procedure of the course as a stage, with arguments.
    fn stage_call(&mut self, idx: u16, args: Vec<Value>) -> Result<(), Halt> {
        self.reset_budget();
        self.stage = Some(idx);
        self.running_root = true;
        self.start_proc(idx, args)
    }

    /// Moves the course on where no code runs; may start a procedure.
    fn step_phase(&mut self) -> Result<(), Halt> {
        let rs = self.rs;
        match self.phase {
            Phase::Begin => match rs.start {
                Some(s) => self.stage_proc(s)?,
                None => self.phase = Phase::HalfBegin(1),
            },
            Phase::HalfBegin(h) => {
                if h > rs.halves {
                    self.phase = Phase::MatchEnd;
                    return Ok(());
                }
                self.st.clock.half = h;
                self.st.clock.added = 0;
                self.st.turn = 0;
                match rs.half_start {
                    Some(p) => self.stage_proc(p)?,
                    None => {
                        self.begun = self.st.clock;
                        self.phase = Phase::TurnCheck;
                    }
                }
            }
            Phase::TurnCheck => {
                if self.st.turn >= rs.max_turns_per_half {
                    self.phase = Phase::HalfEnd { runaway: true };
                    return Ok(());
                }
                self.st.turn += 1;
                self.st.turns_total += 1;
                if self.first_owner.is_none() {
                    self.first_owner = Some(self.st.ball_owner);
                }
                self.st.reset_turn_vars(rs);
                self.stage = None;
                self.emit_event(EventKind::TurnStart);
                self.phase = Phase::Stage(0);
            }
            Phase::Stage(i) => match rs.stages.get(i as usize) {
                Some(&s) => self.stage_proc(s)?,
                None => self.phase = Phase::TurnEnd { half_over: false },
            },
            Phase::TurnEnd { half_over } => match rs.turn_end {
                Some(te) if !half_over => self.stage_proc(te)?,
                _ => self.end_turn(half_over),
            },
            Phase::HalfEnd { runaway } => {
                self.turns.push(self.st.turn);
                self.clocks.push([self.begun, self.st.clock]);
                self.stage = None;
                self.emit_event(EventKind::HalfEnd {
                    reason: if runaway { "runaway" } else { "rules" }.into(),
                });
                if runaway {
                    self.runaway = true;
                }
                self.phase = Phase::HalfBegin(self.st.clock.half + 1);
            }
            Phase::MatchEnd => {
                let score = self.st.score;
                self.emit_event(EventKind::MatchEnd { score });
                self.end(score);
            }
            Phase::Proc(i) => {
                let plan = self.schedule.clone();
                match &*plan {
                    Schedule::Procs(list) if (i as usize) < list.len() => {
                        self.stage_proc(list[i as usize])?
                    }
                    _ => self.end(self.st.score),
                }
            }
            Phase::Turn(n, i) => {
                let Schedule::Turns(total) = *self.schedule else {
                    self.end(self.st.score);
                    return Ok(());
                };
                if n >= total {
                    self.end(self.st.score);
                    return Ok(());
                }
                if i == 0 {
                    if self.first_owner.is_none() {
                        self.first_owner = Some(self.st.ball_owner);
                    }
                    self.st.reset_turn_vars(rs);
                }
                match rs.stages.get(i as usize) {
                    Some(&s) => self.stage_proc(s)?,
                    None => match rs.turn_end {
                        Some(te) if i as usize == rs.stages.len() => self.stage_proc(te)?,
                        _ => self.next_scenario_turn(n),
                    },
                }
            }
            Phase::Call(started) => {
                let plan = self.schedule.clone();
                match &*plan {
                    Schedule::Call(p, args) if !started => {
                        self.phase = Phase::Call(true);
                        self.stage_call(*p, args.clone())?;
                    }
                    _ => self.end(self.st.score),
                }
            }
            Phase::Over => {}
        }
        Ok(())
    }

    fn next_scenario_turn(&mut self, n: u32) {
        if self.stopped || self.half_ended {
            self.end(self.st.score);
        } else {
            self.st.turn += 1;
            self.phase = Phase::Turn(n + 1, 0);
        }
    }

    fn end_turn(&mut self, half_over: bool) {
        self.phase = if half_over {
            Phase::HalfEnd { runaway: false }
        } else {
            Phase::TurnCheck
        };
    }

    fn end(&mut self, score: [i64; 2]) {
        self.outcome = Some(Outcome {
            score,
            turns: self.turns.clone(),
            ending: if self.runaway {
                Ending::Runaway
            } else {
                Ending::FullTime
            },
            clocks: self.clocks.clone(),
            first_owner: self.first_owner,
        });
        self.stage = None;
        self.phase = Phase::Over;
    }

    /// A procedure of the course ended: what comes next. Returns whether to report a
    /// boundary (a stage ended normally, and the caller pauses at stages).
    fn finish(&mut self, r: Ran) -> bool {
        let rs = self.rs;
        let pause = self.pause_at_stages;
        match self.phase {
            Phase::Begin => {
                self.phase = Phase::HalfBegin(1);
                false
            }
            Phase::HalfBegin(_) => {
                self.begun = self.st.clock;
                self.phase = Phase::TurnCheck;
                pause
            }
            Phase::Stage(i) => match r {
                Ran::Done => {
                    self.phase = Phase::Stage(i + 1);
                    pause
                }
                Ran::EndTurn | Ran::Stop => {
                    self.phase = Phase::TurnEnd { half_over: false };
                    false
                }
                Ran::EndHalf => {
                    self.phase = Phase::TurnEnd { half_over: true };
                    false
                }
            },
            Phase::TurnEnd { .. } => {
                self.end_turn(matches!(r, Ran::EndHalf));
                pause
            }
            Phase::Proc(i) => {
                if matches!(r, Ran::Done) {
                    self.procs_done = i + 1;
                }
                let go_on = match r {
                    Ran::Done => !self.stopped,
                    Ran::EndHalf => {
                        self.half_ended = true;
                        false
                    }
                    Ran::EndTurn | Ran::Stop => false,
                };
                if go_on {
                    self.phase = Phase::Proc(i + 1);
                } else {
                    self.end(self.st.score);
                }
                false
            }
            Phase::Turn(n, i) => {
                if matches!(r, Ran::EndHalf) {
                    self.half_ended = true;
                }
                if i as usize >= rs.stages.len() {
                    // The turn end ran.
                    self.next_scenario_turn(n);
                } else if !matches!(r, Ran::Done) {
                    // The turn ended: its turn end still runs.
                    self.phase = Phase::Turn(n, rs.stages.len() as u32);
                } else if self.stopped || self.half_ended {
                    self.end(self.st.score);
                } else {
                    self.phase = Phase::Turn(n, i + 1);
                }
                false
            }
            Phase::Call(_) => {
                if matches!(r, Ran::EndHalf) {
                    self.half_ended = true;
                }
                self.end(self.st.score);
                false
            }
            _ => false,
        }
    }

    /// Runs procedure `idx` with arguments to its end, outside any match course (the
    /// rules' tables and procedures shown by `fuba rules show`). A procedure that asks for
    /// a decision or dice is an error.
    pub fn call(&mut self, idx: u16, args: Vec<Value>) -> Result<Value, RunError> {
        self.reset_budget();
        let r = self.start_proc(idx, args).and_then(|()| self.run());
        let out = match r {
            Ok(Exit::Returned(v)) => Ok(v),
            Ok(Exit::Suspended) => Err(self.fail("the procedure asks for a decision or dice")),
            Err(Halt::Error(e)) => Err(*e),
            Err(_) => Ok(Value::None),
        };
        self.unwind();
        out
    }
}
