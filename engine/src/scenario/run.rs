//! Running a scenario and checking its expectations.

use crate::dice::ScriptedDice;
use crate::game::Game;
use crate::ir::Scope;
use crate::ruleset::{Ruleset, SymbolsOver};

use super::expect::{ExpectVar, Ran};
use super::script::Script;
use super::{Report, Scenario, ScenarioError};

impl Scenario {
    /// Checks the position and runs the scenario under `rules`.
    pub fn run(&self, rules: &Ruleset) -> Result<Report, ScenarioError> {
        self.run_keeping(rules, false).map(|(report, _)| report)
    }

    /// [`Scenario::run`], keeping what a viewer shows: the events, and the state at every
    /// pause after how many events (the first is the scenario's position), as
    /// [`Game::with_states`] keeps them.
    pub fn run_with_states(&self, rules: &Ruleset) -> Result<(Report, Kept), ScenarioError> {
        self.run_keeping(rules, true)
    }

    fn run_keeping(&self, rules: &Ruleset, keep: bool) -> Result<(Report, Kept), ScenarioError> {
        self.check(rules)?;
        // Strings named by the scenario are interned over the rules' own.
        let mut syms = SymbolsOver::new(&rules.symbols);
        let dice = ScriptedDice::new(self.run.dice.iter().copied());
        let script =
            |t: &'static str| Script::new(t, self.run.choices.get(t).cloned().unwrap_or_default());
        let (home, home_used) = script("home");
        let (away, away_used) = script("away");
        let (home, away) = (
            self.placing(rules, "home", home),
            self.placing(rules, "away", away),
        );
        for k in self.run.choices.keys() {
            self.team(k, "run.choices")?;
        }
        // Resolve vars before the match borrows the rules.
        let sets = self.resolve_vars(rules, &mut syms)?;
        let tail = self.tail_call(rules, &mut syms)?;
        let expect_vars: Vec<ExpectVar> = {
            let mut out = Vec::new();
            for (name, v) in &self.expect.vars {
                let (var, ty) = rules.var(name).ok_or_else(|| {
                    self.err(format!(
                        "expect.vars: the rules have no state variable `{name}`"
                    ))
                })?;
                match (var.scope, v) {
                    (Scope::Team | Scope::TeamTurn, toml::Value::Table(t)) => {
                        for (team, x) in t {
                            let tm = self.team(team, &format!("expect.vars.{name}"))?;
                            let what = format!("expect.vars.{name}.{team}");
                            let val = self.value(rules, &mut syms, ty, x, &what)?;
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
                        let what = format!("expect.vars.{name}");
                        let val = self.value(rules, &mut syms, ty, x, &what)?;
                        out.push((name.clone(), var.scope, var.idx, None, val));
                    }
                }
            }
            out
        };
        let stop_sym = self.run.stop_at.as_ref().map(|k| syms.intern(k));
        // The match runs under the rules themselves, or under a copy of them that holds the
        // strings the scenario names and the rules do not.
        let extended;
        let rs = if syms.added().is_empty() {
            rules
        } else {
            let mut copy = rules.clone();
            for s in syms.added() {
                copy.intern(s);
            }
            extended = copy;
            &extended
        };
        let mut m = Game::new(rs, 0, Box::new(dice), Box::new(home), Box::new(away)).with_log();
        // `expect.offered` compares the options of a decision: the log must keep them.
        m.m.record_options = true;
        // A script may give the label of a decision with a single legal option.
        m.m.ask_single = true;

        // ---- the position
        self.set_position(rs, &mut m.m.st, sets)?;
        let derived = self.derive(rs, &mut m.m.st)?;
        if keep {
            m = m.with_states();
        }

        // ---- what to run
        m.m.stop_at = stop_sym;
        let plan = self.plan(rs)?;
        let listed = self.listed(&plan, tail.as_ref());
        self.check_required(rs, &listed)?;
        let course = self.run_course(rs, &mut m, plan, tail);
        let mut narration: Vec<String> = derived
            .into_iter()
            .chain(
                m.events()
                    .iter()
                    .filter_map(|e| crate::log::narrate(rs, e, true)),
            )
            .collect();
        let ran = Ran {
            events: m.events(),
            st: &m.m.st,
            half_ended: course.half_ended,
            match_ended: course.match_ended || (m.m.half_ended && m.m.st.clock.half >= rs.halves),
            error: course.error,
            stopped: m.m.stopped,
            labels_used: [home_used.get(), away_used.get()],
        };
        let mut failures = self.expectations(rs, &expect_vars, &ran)?;
        let cut = self.cut_short(rs, &ran, &listed, course.done);
        failures.extend(self.ending(&ran, &listed, cut.as_deref()));
        if let Some(c) = cut {
            narration.push(format!("({c})"));
        }
        let kept = if keep {
            (m.events().to_vec(), m.states().to_vec())
        } else {
            Kept::default()
        };
        Ok((
            Report {
                name: self.name.clone(),
                failures,
                narration,
            },
            kept,
        ))
    }
}

/// What [`Scenario::run_with_states`] keeps: the events, and each state with the number of
/// events logged by then.
pub type Kept = (
    Vec<crate::log::Event>,
    Vec<(usize, crate::state::MatchState)>,
);
