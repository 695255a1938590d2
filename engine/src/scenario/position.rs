//! The position: names resolved against the ruleset, impossible positions refused, the
//! state written.

use crate::board::AreaId;
use crate::ir::Scope;
use crate::ruleset::{Ruleset, SymbolsOver};
use crate::state::{GONE, MatchState};
use crate::value::{Team, Ty, Value};

use super::{Scenario, ScenarioError};

/// A state variable the position sets: scope, index, team (per-team ones), value.
pub(super) type VarSet = (Scope, u16, Option<Team>, Value);

/// The team a name means: `home` or `away`.
pub(super) fn team_of(s: &str) -> Option<Team> {
    match s {
        "home" => Some(0),
        "away" => Some(1),
        _ => None,
    }
}

impl Scenario {
    pub(super) fn area(
        &self,
        rs: &Ruleset,
        name: &str,
        what: &str,
    ) -> Result<AreaId, ScenarioError> {
        rs.board.find(name).ok_or_else(|| {
            self.err(format!(
                "{what}: unknown area `{name}` (the board has {})",
                rs.board
                    .areas
                    .iter()
                    .map(|a| a.name.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            ))
        })
    }

    pub(super) fn team(&self, name: &str, what: &str) -> Result<Team, ScenarioError> {
        team_of(name)
            .ok_or_else(|| self.err(format!("{what}: `{name}` is not \"home\" or \"away\"")))
    }

    /// The value `v` written for something of type `ty` (`what`, for messages); a string
    /// is interned in `syms`.
    pub(super) fn value(
        &self,
        rs: &Ruleset,
        syms: &mut SymbolsOver<'_>,
        ty: Ty,
        v: &toml::Value,
        what: &str,
    ) -> Result<Value, ScenarioError> {
        let bad = || self.err(format!("{what}: {v} is not a {ty}"));
        Ok(match (ty, v) {
            (Ty::Int, toml::Value::Integer(i)) => Value::Int(*i),
            (Ty::Bool, toml::Value::Boolean(b)) => Value::Bool(*b),
            (Ty::Str, toml::Value::String(s)) => Value::Str(syms.intern(s)),
            (Ty::Team, toml::Value::String(s)) => Value::Team(self.team(s, what)?),
            (Ty::Area, toml::Value::String(s)) => Value::Area(self.area(rs, s, what)?),
            (Ty::Areas, toml::Value::Array(items)) => {
                let mut set = crate::board::AreaSet::EMPTY;
                for it in items {
                    set.insert(self.area(rs, it.as_str().ok_or_else(bad)?, what)?);
                }
                Value::Areas(set)
            }
            (Ty::List, toml::Value::Array(items)) => Value::List(
                items
                    .iter()
                    .map(|x| x.as_integer().ok_or_else(bad))
                    .collect::<Result<Vec<_>, _>>()?
                    .into(),
            ),
            _ => return Err(bad()),
        })
    }

    /// The state variables the position sets, resolved (strings interned in `syms`).
    pub(super) fn resolve_vars(
        &self,
        rs: &Ruleset,
        syms: &mut SymbolsOver<'_>,
    ) -> Result<Vec<VarSet>, ScenarioError> {
        let mut sets: Vec<VarSet> = Vec::new();
        for (name, v) in &self.position.vars {
            let (var, ty) = rs.var(name).ok_or_else(|| {
                self.err(format!(
                    "position.vars: the rules have no state variable `{name}`"
                ))
            })?;
            match (var.scope, v) {
                (Scope::Team | Scope::TeamTurn, toml::Value::Table(t)) => {
                    for (team, x) in t {
                        let tm = self.team(team, &format!("position.vars.{name}"))?;
                        let val =
                            self.value(rs, syms, ty, x, &format!("position.vars.{name}.{team}"))?;
                        sets.push((var.scope, var.idx, Some(tm), val));
                    }
                }
                (Scope::Team | Scope::TeamTurn, _) => {
                    return Err(self.err(format!(
                        "position.vars.{name} is held per team: write {{ home = ..., away = ... }}"
                    )));
                }
                (_, x) => {
                    let val = self.value(rs, syms, ty, x, &format!("position.vars.{name}"))?;
                    sets.push((var.scope, var.idx, None, val));
                }
            }
        }
        Ok(sets)
    }

    /// Writes the position into a new match's state (checked: impossible positions are
    /// refused), then the state variables.
    pub(super) fn set_position(
        &self,
        rs: &Ruleset,
        st: &mut MatchState,
        sets: Vec<VarSet>,
    ) -> Result<(), ScenarioError> {
        for (t, tp) in [(0u8, &self.position.home), (1u8, &self.position.away)] {
            let team_name = if t == 0 { "home" } else { "away" };
            let field: u32 =
                tp.pieces.values().map(|n| u32::from(*n)).sum::<u32>() + u32::from(tp.sent_off);
            let max = u32::from(rs.pieces) - 1;
            if field > max {
                return Err(self.err(format!("position.{team_name}: {field} field pieces (sent off included), but a team has {max}")));
            }
            if tp.keeper.is_none() && !tp.pieces.is_empty() {
                return Err(self.err(format!(
                    "position.{team_name}: the goalkeeper's area is missing (keeper = \"AREA\")"
                )));
            }
            if let Some(k) = &tp.keeper {
                let a = self.area(rs, k, &format!("position.{team_name}.keeper"))?;
                st.put(t, 0, a);
            }
            let mut i = 1;
            for (area, n) in &tp.pieces {
                let a = self.area(rs, area, &format!("position.{team_name}.pieces"))?;
                for _ in 0..*n {
                    st.put(t, i, a);
                    i += 1;
                }
            }
            for _ in 0..tp.sent_off {
                st.put(t, i, GONE);
                i += 1;
            }
            // Pieces not placed stay off the board only if the position gave none at all.
            if tp.keeper.is_some() && i < rs.pieces as usize {
                {
                    return Err(self.err(format!(
                        "position.{team_name}: {} field pieces placed and {} sent off; a team has {} (place them all)",
                        field - u32::from(tp.sent_off),
                        tp.sent_off,
                        max
                    )));
                }
            }
        }
        if let Some(c) = &self.position.controlling {
            st.ball_owner = self.team(c, "position.controlling")?;
        }
        if let Some(p) = &self.position.phasing {
            st.phasing = self.team(p, "position.phasing")?;
        }
        if let Some(b) = &self.position.ball {
            st.ball_area = self.area(rs, &b.area, "position.ball.area")?;
            let (lo, hi) = rs.ball_values;
            if b.value < lo || b.value > hi {
                return Err(self.err(format!(
                    "position.ball.value: {} is outside {lo}..{hi}",
                    b.value
                )));
            }
            st.ball_value = b.value;
        }
        if let Some(c) = &self.position.clock {
            if c.half == 0 || c.half > rs.halves {
                return Err(self.err(format!(
                    "position.clock.half: {} (the rules have {} halves)",
                    c.half, rs.halves
                )));
            }
            st.clock.half = c.half;
            st.clock.minute = c.minute;
            st.clock.added = c.added;
        }
        if let Some(s) = self.position.score {
            st.score = s;
        }
        st.turn = 1;
        st.reset_turn_vars(rs);
        for (scope, idx, team, val) in sets {
            let i = idx as usize;
            let t = team.unwrap_or(0) as usize;
            match scope {
                Scope::Match => st.vars_match[i] = val,
                Scope::Team => st.vars_team[i][t] = val,
                Scope::Turn => st.vars_turn[i] = val,
                Scope::TeamTurn => st.vars_team_turn[i][t] = val,
            }
        }

        Ok(())
    }
}
