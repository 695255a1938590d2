//! `run.placements`: a setup's placement given as a position (field pieces per area, per
//! team) instead of one scripted label per piece. The rules name the decision that places
//! a piece (`[scenario] placement`); the team's script answers it from the placement.

use crate::ruleset::Ruleset;

use super::position::team_of;
use super::script::Script;
use super::spans::Step::Key;
use super::{Scenario, ScenarioError};

impl Scenario {
    /// Checks `run.placements`: the rules name their placement decision, the keys are
    /// teams, the areas are the board's, and a team is given no more field pieces than it
    /// has (less those the position sends off).
    pub(super) fn check_placements(&self, rs: &Ruleset) -> Result<(), ScenarioError> {
        if self.run.placements.is_empty() {
            return Ok(());
        }
        let at = |path: &[super::spans::Step<'_>], m: String| self.err_at(path, true, m);
        if rs.scenario_placement.is_none() {
            return Err(at(
                &[Key("run"), Key("placements")],
                "run.placements: the rules name no placement decision ([scenario] placement = \
                 \"DECISION\" in the ruleset): script the placements in run.choices"
                    .to_string(),
            ));
        }
        for (team, areas) in &self.run.placements {
            let Some(t) = team_of(team) else {
                return Err(at(
                    &[Key("run"), Key("placements"), Key(team)],
                    format!("run.placements: `{team}` is not \"home\" or \"away\""),
                ));
            };
            for area in areas.keys() {
                if rs.board.find(area).is_none() {
                    let all = rs.board.areas.iter().map(|a| a.name.as_str());
                    return Err(at(
                        &[Key("run"), Key("placements"), Key(team), Key(area)],
                        format!(
                            "run.placements.{team}: unknown area `{area}`{}",
                            super::names::hint(area, all)
                        ),
                    ));
                }
            }
            let sent_off = if t == 0 {
                self.position.home.sent_off
            } else {
                self.position.away.sent_off
            };
            let field = u32::from(rs.pieces).saturating_sub(1 + u32::from(sent_off));
            let given: u32 = areas.values().map(|n| u32::from(*n)).sum();
            if given > field {
                return Err(at(
                    &[Key("run"), Key("placements"), Key(team)],
                    format!(
                        "run.placements.{team}: {given} field pieces, but the team has {field} \
                         to place"
                    ),
                ));
            }
        }
        Ok(())
    }

    /// `team`'s script, answering the rules' placement decision from `run.placements`
    /// when the scenario gives the team a placement (checked by
    /// [`Scenario::check_placements`]).
    pub(super) fn placing(&self, rs: &Ruleset, team: &str, s: Script) -> Script {
        match (self.run.placements.get(team), &rs.scenario_placement) {
            (Some(areas), Some(decision)) => s.placing(
                decision.clone(),
                areas
                    .iter()
                    .filter_map(|(a, n)| rs.board.find(a).map(|a| (a, *n)))
                    .collect(),
            ),
            _ => s,
        }
    }
}
