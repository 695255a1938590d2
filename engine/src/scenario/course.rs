//! The run's course beyond one schedule: a procedure with arguments after the listed ones
//! (`name(home)`), and whole turns through half time to the end of the half or the
//! match (`run.until`), the half's end and the next half's start as a match runs them.

use crate::game::Game;
use crate::log::EventKind;
use crate::ruleset::Ruleset;
use crate::value::Value;
use crate::vm::Schedule;

use super::spans::Step::Key;
use super::{Scenario, ScenarioError};

/// Where `run.until` ends a run of whole turns.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Until {
    /// When the half ends.
    HalfEnd,
    /// When the last half ends, through every half time.
    MatchEnd,
}

/// The words `run.until` takes.
const UNTIL: [&str; 2] = ["half end", "match end"];

/// What the course ran, for the expectations.
#[derive(Debug, Default)]
pub(super) struct Course {
    /// The rule error that stopped it.
    pub error: Option<String>,
    /// Listed procedures that ran to their end (the tail call included).
    pub done: u32,
    /// Whether a half ended during the run (one passed at half time included).
    pub half_ended: bool,
    /// Whether the match ended (`until = "match end"`).
    pub match_ended: bool,
}

impl Scenario {
    /// `run.until`, read.
    pub(super) fn until(&self) -> Option<Until> {
        match self.run.until.as_deref() {
            Some("half end") => Some(Until::HalfEnd),
            Some("match end") => Some(Until::MatchEnd),
            _ => None,
        }
    }

    /// Checks `run.until`: one of its words, and a run of whole turns (not of procedures or
    /// stages).
    pub(super) fn check_until(&self) -> Result<(), ScenarioError> {
        let Some(u) = &self.run.until else {
            return Ok(());
        };
        let at = |m: String| self.err_at(&[Key("run"), Key("until")], false, m);
        if !UNTIL.contains(&u.as_str()) {
            return Err(at(format!(
                "run.until: `{u}` is not \"half end\" or \"match end\"{}",
                super::names::hint(u, UNTIL.iter().copied())
            )));
        }
        if !self.run.procedures.is_empty() || self.run.from.is_some() || self.run.to.is_some() {
            return Err(at(
                "run.until runs whole turns: give it without procedures, from or to (with \
                 `turns` for at most that many)"
                    .to_string(),
            ));
        }
        Ok(())
    }

    /// Runs `plan` on `g`, then what it leaves to the course: the tail call, or the turns
    /// through half time.
    pub(super) fn run_course(
        &self,
        rs: &Ruleset,
        g: &mut Game<'_>,
        plan: Schedule,
        tail: Option<(u16, Vec<Value>)>,
    ) -> Course {
        let mut c = Course::default();
        let listed = match &plan {
            Schedule::Procs(l) => l.len() as u32,
            _ => 0,
        };
        let until = self.until();
        if let (Some(u), Schedule::Turns(n)) = (until, &plan) {
            self.through_halves(rs, g, u, *n, &mut c);
            return c;
        }
        g.m.set_schedule(plan);
        c.error = g.run(&mut |_, _| Ok(())).err().map(|e| e.to_string());
        c.done = g.m.procs_done;
        if let Some((p, args)) = tail
            && c.error.is_none()
            && c.done == listed
            && !g.m.stopped
            && !g.m.half_ended
        {
            g.m.set_schedule(Schedule::Call(p, args));
            c.error = g.run(&mut |_, _| Ok(())).err().map(|e| e.to_string());
            if c.error.is_none() {
                c.done += 1;
            }
        }
        c.half_ended = g.m.half_ended;
        c
    }

    /// Whole turns, at most `turns`, until the half ends or, passing every half time (the
    /// half's end, the next half's `half_start`), until the match ends.
    fn through_halves(
        &self,
        rs: &Ruleset,
        g: &mut Game<'_>,
        until: Until,
        turns: u32,
        c: &mut Course,
    ) {
        let mut left = turns;
        loop {
            let first = g.m.st.turn;
            g.m.half_ended = false;
            g.m.set_schedule(Schedule::Turns(left.min(rs.max_turns_per_half)));
            if let Err(e) = g.run(&mut |_, _| Ok(())) {
                c.error = Some(e.to_string());
                return;
            }
            let ended = g.m.half_ended;
            let ran = g.m.st.turn.saturating_sub(first) + u32::from(ended);
            left = left.saturating_sub(ran.max(1));
            if !ended || g.m.stopped {
                return;
            }
            c.half_ended = true;
            g.m.stage = None;
            g.m.emit_event(EventKind::HalfEnd {
                reason: "rules".into(),
            });
            if g.m.st.clock.half >= rs.halves {
                let score = g.m.st.score;
                g.m.emit_event(EventKind::MatchEnd { score });
                c.match_ended = true;
                return;
            }
            if until == Until::HalfEnd || left == 0 {
                return;
            }
            // Half time, as a match runs it: the next half begins with its half start.
            g.m.half_ended = false;
            g.m.st.clock.half += 1;
            g.m.st.clock.added = 0;
            g.m.st.turn = 0;
            if let Some(hs) = rs.half_start {
                g.m.set_schedule(Schedule::Procs(vec![hs]));
                if let Err(e) = g.run(&mut |_, _| Ok(())) {
                    c.error = Some(e.to_string());
                    return;
                }
                if g.m.stopped {
                    return;
                }
            }
            g.m.st.turn = 1;
        }
    }
}
