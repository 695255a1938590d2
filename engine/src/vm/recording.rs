//! Recording events: their numbering, and the bounds on how many a turn and a match may
//! record ([`Limits::events_per_turn`](super::budget::Limits::events_per_turn),
//! [`Limits::events_per_match`](super::budget::Limits::events_per_match)).
//!
//! Only the logging path comes here: a match that does not log (a simulation, a search)
//! records nothing and counts nothing. The first event over a bound is not recorded, nor
//! is any after it; the match stops with a [`RunError`] of kind [`ErrorKind::Limit`]
//! naming the rule that emitted it, when it next pauses (`advance` returns it).

use crate::log::{Event, EventKind};

use super::machine::Match;
use super::run_error::{ErrorKind, RunError};

impl Match<'_> {
    /// Records an event made by `rule` (a code unit, `None` for the match itself) with the
    /// names of its rule and section, unless a bound has been crossed.
    pub(crate) fn record(&mut self, rule: Option<u32>, kind: EventKind) {
        if self.book.over.is_some() {
            return;
        }
        let n = self.book.recorded;
        if matches!(kind, EventKind::TurnStart) {
            self.book.turn_first = n;
        }
        let (rule_name, section) = match rule.and_then(|u| self.rs.units.get(u as usize)) {
            Some(unit) => (unit.rule.clone(), unit.section.clone()),
            None => ("match".to_string(), String::new()),
        };
        let in_turn = n - self.book.turn_first;
        if in_turn >= u64::from(self.limits.events_per_turn)
            || n >= u64::from(self.limits.events_per_match)
        {
            self.book.over = Some(Box::new(self.over_log_limit(&rule_name, in_turn)));
            return;
        }
        let stage = self
            .stage
            .map_or_else(String::new, |s| self.rs.procs[s as usize].name.clone());
        let st = &self.st;
        if let Some(log) = &mut self.log {
            log.push(Event {
                seq: n as u32,
                half: st.clock.half,
                turn: st.turn,
                minute: st.clock.minute,
                added: st.clock.added,
                stage,
                rule: rule_name,
                section,
                kind,
            });
            self.book.recorded += 1;
        }
    }

    /// The error for the first event over a bound, made by `rule`.
    #[cold]
    #[inline(never)]
    fn over_log_limit(&self, rule: &str, in_turn: u64) -> RunError {
        let message = if in_turn >= u64::from(self.limits.events_per_turn) {
            format!(
                "event limit reached: {rule} would record more than {} events in one turn \
                 (events_per_turn; a runaway rule?)",
                self.limits.events_per_turn
            )
        } else {
            format!(
                "event limit reached: {rule} would record more than {} events in the match \
                 (events_per_match)",
                self.limits.events_per_match
            )
        };
        let mut e = match self.error(self.pc, message) {
            super::run_error::Halt::Error(e) => *e,
            _ => RunError::host(ErrorKind::Limit, "event limit reached"),
        };
        e.kind = ErrorKind::Limit;
        if rule != "match" {
            e.rule = rule.to_string();
        }
        e
    }

    /// The error of a crossed event bound, once: `advance` stops the match with it.
    pub(crate) fn log_bound_crossed(&mut self) -> Option<RunError> {
        self.book.over.take().map(|e| *e)
    }

    /// Whether a bound on the log was crossed and the match has not yet paused to report
    /// it.
    pub(crate) fn log_bound_pending(&self) -> bool {
        self.book.over.is_some()
    }

    /// How many events the match has recorded (the log may hold fewer: a reader can take
    /// them as they come, [`Match::take_events`]).
    pub fn recorded_events(&self) -> u64 {
        self.book.recorded
    }

    /// Takes the events recorded since the last call (or since the match began), leaving
    /// the log empty but on: the numbering and the bounds go on counting. A driver that
    /// streams the log to a file keeps only one pause's events in memory.
    pub fn take_events(&mut self) -> Vec<Event> {
        self.log.as_mut().map(std::mem::take).unwrap_or_default()
    }
}
