//! Running a scenario and checking its expectations.

use crate::agent::ScriptedAgent;
use crate::dice::ScriptedDice;
use crate::game::Game;
use crate::ir::Scope;
use crate::log::{EventKind, value_json};
use crate::ruleset::Ruleset;
use crate::value::{Team, Value};

use super::{Report, Scenario, ScenarioError};

impl Scenario {
    /// Checks the position and runs the scenario under `rules`.
    pub fn run(&self, rules: &Ruleset) -> Result<Report, ScenarioError> {
        // Strings named by the scenario are interned in a copy of the rules.
        self.check(rules)?;
        let mut rs = rules.clone();
        let dice = ScriptedDice::new(self.run.dice.iter().copied());
        let script =
            |t: &str| ScriptedAgent::new(self.run.choices.get(t).cloned().unwrap_or_default());
        for k in self.run.choices.keys() {
            self.team(k, "run.choices")?;
        }
        // Resolve vars before the match borrows the rules.
        let sets = self.resolve_vars(&mut rs)?;
        let expect_vars: Vec<(String, Scope, u16, Option<Team>, Value)> = {
            let mut out = Vec::new();
            for (name, v) in &self.expect.vars {
                let (var, ty) = rs.var(name).ok_or_else(|| {
                    self.err(format!(
                        "expect.vars: the rules have no state variable `{name}`"
                    ))
                })?;
                match (var.scope, v) {
                    (Scope::Team | Scope::TeamTurn, toml::Value::Table(t)) => {
                        for (team, x) in t {
                            let tm = self.team(team, &format!("expect.vars.{name}"))?;
                            let val =
                                self.value(&mut rs, ty, x, &format!("expect.vars.{name}.{team}"))?;
                            out.push((
                                format!("{name}[{team}]"),
                                var.scope,
                                var.idx,
                                Some(tm),
                                val,
                            ));
                        }
                    }
                    (_, x) => {
                        let val = self.value(&mut rs, ty, x, &format!("expect.vars.{name}"))?;
                        out.push((name.clone(), var.scope, var.idx, None, val));
                    }
                }
            }
            out
        };
        let stop_sym = self.run.stop_at.as_ref().map(|k| rs.intern(k));
        let rs = &rs;
        let mut m = Game::new(
            rs,
            0,
            Box::new(dice),
            Box::new(script("home")),
            Box::new(script("away")),
        )
        .with_log();
        // `expect.offered` compares the options of a decision: the log must keep them.
        m.m.record_options = true;

        // ---- the position
        self.set_position(rs, &mut m.m.st, sets)?;

        // ---- what to run
        m.m.stop_at = stop_sym;
        m.m.set_schedule(self.plan(rs)?);
        let run_error = m.run(&mut |_, _| Ok(())).err().map(|e| e.to_string());
        let half_ended = m.m.half_ended;
        let narration: Vec<String> = m
            .events()
            .iter()
            .filter_map(|e| crate::log::narrate(rs, e, true))
            .collect();
        let mut failures = Vec::new();
        match (&self.expect.error, run_error) {
            (None, Some(e)) => failures.push(format!("the rules stopped with an error: {e}")),
            (Some(want), Some(e)) if !e.contains(want.as_str()) => failures.push(format!(
                "error: expected one containing \"{want}\", got: {e}"
            )),
            (Some(want), None) => failures.push(format!(
                "error: expected one containing \"{want}\", the run ended without error"
            )),
            _ => {}
        }
        for (kind, want) in &self.expect.offered {
            let first = m.events().iter().find_map(|e| match &e.kind {
                EventKind::Choice {
                    decision, offered, ..
                } if decision == kind => Some(offered.clone()),
                _ => None,
            });
            match first {
                None => failures.push(format!("offered \"{kind}\": no such decision was made")),
                Some(mut have) => {
                    let mut want = want.clone();
                    have.sort();
                    want.sort();
                    if have != want {
                        failures.push(format!(
                            "offered \"{kind}\": expected {want:?}, got {have:?}"
                        ));
                    }
                }
            }
        }

        // ---- expectations
        let st = &m.m.st;
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
            check!("half ended", h.to_string(), half_ended.to_string());
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
        for (name, scope, idx, team, val) in &expect_vars {
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
        let kinds: Vec<String> = m
            .events()
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
        for (name, total) in &x.modifiers {
            let last = m.events().iter().rev().find_map(|e| match &e.kind {
                EventKind::Modifiers { name: n, total, .. } if n == name => Some(*total),
                _ => None,
            });
            match last {
                Some(t) => check!(
                    &format!("modifiers \"{name}\""),
                    total.to_string(),
                    t.to_string()
                ),
                None => failures.push(format!(
                    "modifiers \"{name}\": expected {total}, never computed"
                )),
            }
        }
        for (kind, fields) in &x.event_fields {
            let last = m.events().iter().rev().find_map(|e| match &e.kind {
                EventKind::Emit { kind: k, fields } if k == kind => Some(fields.clone()),
                _ => None,
            });
            let Some(have) = last else {
                failures.push(format!(
                    "event \"{kind}\": expected with fields, did not happen"
                ));
                continue;
            };
            for (f, want) in fields {
                let want_json = match want {
                    toml::Value::Integer(i) => serde_json::Value::from(*i),
                    toml::Value::Boolean(b) => serde_json::Value::from(*b),
                    toml::Value::String(s) => serde_json::Value::from(s.clone()),
                    other => serde_json::Value::from(other.to_string()),
                };
                let got = have.get(f).cloned().unwrap_or(serde_json::Value::Null);
                check!(
                    &format!("event \"{kind}\" field {f}"),
                    want_json.to_string(),
                    got.to_string()
                );
            }
        }
        for (team, n) in &x.choices_made {
            let made = m
                .events()
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
            let used_dice: usize = m
                .events()
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
                let made = m
                    .events()
                    .iter()
                    .filter(|e| matches!(&e.kind, EventKind::Choice { team: t, options, .. } if t == team && *options > 1))
                    .count();
                if made < labels.len() {
                    failures.push(format!(
                        "scripted choices for {team}: {} given, {made} used",
                        labels.len()
                    ));
                }
            }
        }
        Ok(Report {
            name: self.name.clone(),
            failures,
            narration,
        })
    }
}
