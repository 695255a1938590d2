//! Whether the run reached the end of what it lists: a rule that ends the turn or the half,
//! or `stop_at`, cuts a list of procedures short, and a scenario that lists them says so.

use crate::ruleset::Ruleset;
use crate::vm::Schedule;

use super::Scenario;
use super::course::Until;
use super::expect::Ran;

impl Scenario {
    /// How the run was cut short, when a procedure (or stage) it lists did not run because
    /// an earlier one ended the turn or the half or reached `stop_at`: `ended in X
    /// (procedure 2 of 4): a rule ended the turn; not run: Y, Z`. `None` for a run that
    /// stopped with an error, or of whole turns.
    pub(super) fn cut_short(
        &self,
        rs: &Ruleset,
        ran: &Ran<'_>,
        plan: &Schedule,
        done: u32,
    ) -> Option<String> {
        let Schedule::Procs(list) = plan else {
            return None;
        };
        let done = (done as usize).min(list.len());
        // Every listed procedure ran: the last one may end the turn or the half.
        if ran.error.is_some() || done + 1 >= list.len() {
            return None;
        }
        let name = |i: usize| rs.procs[list[i] as usize].name.as_str();
        let why = if ran.stopped {
            format!(
                "stop_at `{}` was reached",
                self.run.stop_at.as_deref().unwrap_or("")
            )
        } else if ran.half_ended {
            "a rule ended the half".to_string()
        } else {
            "a rule ended the turn".to_string()
        };
        let rest: Vec<&str> = (done + 1..list.len()).map(name).collect();
        Some(format!(
            "the run ended in `{}` (procedure {} of {}): {why}; not run: {}",
            name(done),
            done + 1,
            list.len(),
            rest.join(", ")
        ))
    }

    /// The failures about where the run ended: `expect.completed`, or by default (a run of
    /// `run.procedures`, with no `stop_at` and no expected error) that every listed
    /// procedure ran (the last one may end the turn or the half: nothing listed is left).
    pub(super) fn ending(&self, ran: &Ran<'_>, plan: &Schedule, cut: Option<&str>) -> Vec<String> {
        // A run of procedures, or until an end without a number of turns, must get there.
        let listing =
            !self.run.procedures.is_empty() || (self.run.until.is_some() && self.run.turns == 0);
        let want = self.expect.completed.or_else(|| {
            (listing && self.run.stop_at.is_none() && self.expect.error.is_none()).then_some(true)
        });
        let (Some(want), None) = (want, &ran.error) else {
            return Vec::new();
        };
        let until = self.until();
        let completed = match (until, plan) {
            (Some(Until::HalfEnd), _) => ran.half_ended,
            (Some(Until::MatchEnd), _) => ran.match_ended,
            // Whole turns: all of them unless the half ended.
            (None, Schedule::Turns(_)) => !ran.half_ended,
            _ => cut.is_none(),
        };
        match (want, cut) {
            (true, Some(c)) => vec![format!(
                "completed: expected every listed procedure to run; {c}"
            )],
            (false, _) if completed => vec![
                "completed: expected the run to end before its last procedure, but all of them ran"
                    .to_string(),
            ],
            (true, None) if !completed => vec![match until {
                Some(u) => format!(
                    "completed: expected the run to reach the end of the {}, it stopped at half {} {}+{}{}",
                    if u == Until::HalfEnd { "half" } else { "match" },
                    ran.st.clock.half,
                    ran.st.clock.minute,
                    ran.st.clock.added,
                    if ran.stopped {
                        " (stop_at)"
                    } else if self.run.turns > 0 {
                        " (run.turns ran out)"
                    } else {
                        " (the half reached the rules' cap on turns)"
                    }
                ),
                None => "completed: expected every turn to run, but the half ended".to_string(),
            }],
            _ => Vec::new(),
        }
    }
}
