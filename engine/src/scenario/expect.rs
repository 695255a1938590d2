//! Expectations on the state after the run, and the bookkeeping of the script.

use crate::ir::Scope;
use crate::log::{Event, EventKind, value_json};
use crate::ruleset::Ruleset;
use crate::state::MatchState;
use crate::value::{Team, Value};

use super::{Scenario, ScenarioError, expect_log};

/// A state variable an expectation names, resolved: its name as shown, scope, index,
/// team (per-team ones) and value.
pub(super) type ExpectVar = (String, Scope, u16, Option<Team>, Value);

/// What a run left: its log and state, and how it ended.
pub(super) struct Ran<'a> {
    /// Every event, in order.
    pub events: &'a [Event],
    /// The state at the end.
    pub st: &'a MatchState,
    /// Whether a rule ended the half.
    pub half_ended: bool,
    /// The run's error, if it stopped with one.
    pub error: Option<String>,
    /// Whether the match ended: the run went on to the end of its last half, or a rule
    /// ended the last half.
    pub match_ended: bool,
    /// Whether it stopped at `run.stop_at`.
    pub stopped: bool,
    /// How many scripted labels each team used, home first.
    pub labels_used: [usize; 2],
}

impl Scenario {
    /// Every expectation that did not hold, as `what: expected X, got Y`.
    pub(super) fn expectations(
        &self,
        rs: &Ruleset,
        expect_vars: &[ExpectVar],
        ran: &Ran<'_>,
    ) -> Result<Vec<String>, ScenarioError> {
        let mut failures = Vec::new();
        match (&self.expect.error, ran.error.clone()) {
            (None, Some(e)) => failures.push(format!("the rules stopped with an error: {e}")),
            (Some(want), Some(e)) if !e.contains(want.as_str()) => failures.push(format!(
                "error: expected one containing \"{want}\", got: {e}"
            )),
            (Some(want), None) => failures.push(format!(
                "error: expected one containing \"{want}\", the run ended without error"
            )),
            _ => {}
        }
        for (kind, checks) in &self.expect.offered {
            for spec in &checks.0 {
                expect_log::offered(ran.events, kind, spec, &mut failures);
            }
        }

        // ---- expectations
        let st = ran.st;
        let x = &self.expect;
        fn check_in(failures: &mut Vec<String>, what: &str, expected: String, actual: String) {
            if expected != actual {
                failures.push(format!("{what}: expected {expected}, got {actual}"));
            }
        }
        macro_rules! check {
            ($what:expr, $e:expr, $a:expr) => {
                check_in(&mut failures, $what, $e, $a)
            };
        }
        if let Some(b) = &x.ball {
            check!(
                "ball.area",
                b.area.clone(),
                rs.board.name(st.ball_area).to_string()
            );
            check!("ball.value", b.value.to_string(), st.ball_value.to_string());
        }
        if let Some(v) = x.ball_value {
            check!("ball value", v.to_string(), st.ball_value.to_string());
        }
        if let Some(a) = &x.ball_area {
            check!(
                "ball area",
                a.clone(),
                rs.board.name(st.ball_area).to_string()
            );
        }
        if let Some(c) = &x.controlling {
            check!(
                "controlling team",
                c.clone(),
                crate::log::team_name(st.ball_owner).to_string()
            );
        }
        if let Some(s) = x.score {
            check!(
                "score",
                format!("{} - {}", s[0], s[1]),
                format!("{} - {}", st.score[0], st.score[1])
            );
        }
        if let Some(c) = &x.clock {
            check!(
                "clock",
                format!("half {} {}+{}", c.half, c.minute, c.added),
                format!(
                    "half {} {}+{}",
                    st.clock.half, st.clock.minute, st.clock.added
                )
            );
        }
        if let Some(h) = x.half_ended {
            check!("half ended", h.to_string(), ran.half_ended.to_string());
        }
        for (team, areas) in &x.pieces {
            let t = self.team(team, "expect.pieces")?;
            for (area, n) in areas {
                let a = self.area(rs, area, "expect.pieces")?;
                let have = st.pieces[t as usize].count[a as usize];
                check!(
                    &format!("{team} pieces in {area}"),
                    n.to_string(),
                    have.to_string()
                );
            }
        }
        for (name, scope, idx, team, val) in expect_vars {
            let i = *idx as usize;
            let t = team.unwrap_or(0) as usize;
            let have = match scope {
                Scope::Match => &st.vars_match[i],
                Scope::Team => &st.vars_team[i][t],
                Scope::Turn => &st.vars_turn[i],
                Scope::TeamTurn => &st.vars_team_turn[i][t],
            };
            check!(
                &format!("variable {name}"),
                value_json(rs, val).to_string(),
                value_json(rs, have).to_string()
            );
        }
        let kinds: Vec<String> = ran
            .events
            .iter()
            .filter_map(|e| match &e.kind {
                EventKind::Emit { kind, .. } => Some(kind.clone()),
                EventKind::Goal { .. } => Some("goal".into()),
                EventKind::Table { table, row, .. } => Some(format!("table:{table}[{row}]")),
                _ => None,
            })
            .collect();
        for k in &x.events {
            if !kinds.contains(k) {
                failures.push(format!(
                    "event \"{k}\": expected, did not happen (events: {})",
                    kinds.join(", ")
                ));
            }
        }
        for k in &x.no_events {
            if kinds.contains(k) {
                failures.push(format!("event \"{k}\": happened, expected not to"));
            }
        }
        for (name, spec) in &x.modifiers {
            expect_log::modifiers(ran.events, name, spec, &mut failures);
        }
        for (kind, checks) in &x.event_fields {
            for spec in &checks.0 {
                expect_log::event_fields(ran.events, kind, spec, &mut failures);
            }
        }
        for (team, n) in &x.choices_made {
            let made = ran
                .events
                .iter()
                .filter(|e| matches!(&e.kind, EventKind::Choice { team: t, options, .. } if t == team && *options > 1))
                .count();
            check!(
                &format!("choices made by {team}"),
                n.to_string(),
                made.to_string()
            );
        }
        if x.all_used.unwrap_or(x.error.is_none()) {
            // The scripted dice and agents report what is left through the log: count used.
            let used_dice: usize = ran
                .events
                .iter()
                .map(|e| match &e.kind {
                    EventKind::Roll { dice, .. } => dice.len(),
                    _ => 0,
                })
                .sum();
            if used_dice < self.run.dice.len() {
                failures.push(format!(
                    "scripted dice: {} given, {used_dice} used (the rules rolled fewer dice than the script)",
                    self.run.dice.len()
                ));
            }
            for (team, labels) in &self.run.choices {
                let made = ran.labels_used[usize::from(team == "away")];
                if made < labels.len() {
                    failures.push(format!(
                        "scripted choices for {team}: {} given, {made} used",
                        labels.len()
                    ));
                }
            }
        }
        if let Some(t) = &x.moved_first {
            match expect_log::moved_first(ran.events) {
                Some(have) => check!("moved first", t.clone(), have.to_string()),
                None => failures.push(format!("moved first: expected {t}, no piece moved")),
            }
        }
        if let Some(want) = x.match_over {
            // Over: the match-end event, or the rules ended the last half.
            let over = ran
                .events
                .iter()
                .any(|e| matches!(e.kind, EventKind::MatchEnd { .. }))
                || ran.match_ended;
            check!("match over", want.to_string(), over.to_string());
        }
        Ok(failures)
    }
}
