//! A primitive's operands read as the type the checker gave them: a team, an integer, an
//! area, a set of areas or dice (an area reads as the set of it, `none` as the empty set,
//! an integer as one die), or a run-time error at the instruction for anything else.

use super::machine::Match;
use super::run_error::Halt;
use crate::board::{AreaId, AreaSet};
use crate::value::{Dice, Team, Value};

impl Match<'_> {
    /// A team operand.
    pub(super) fn team_v(&self, v: &Value, at: u32) -> Result<Team, Halt> {
        match v {
            Value::Team(t) => Ok(*t),
            other => Err(self.error(at, format!("expected a team, found {other:?}"))),
        }
    }

    /// An integer operand.
    pub(super) fn int_v(&self, v: &Value, at: u32) -> Result<i64, Halt> {
        match v {
            Value::Int(i) => Ok(*i),
            other => Err(self.error(at, format!("expected an integer, found {other:?}"))),
        }
    }

    /// An area operand (`none`, an unset variable, is an error).
    pub(super) fn area_v(&self, v: &Value, at: u32) -> Result<AreaId, Halt> {
        match v {
            Value::Area(a) => Ok(*a),
            Value::None => Err(self.error(at, "expected an area, found none (an unset variable?)")),
            other => Err(self.error(at, format!("expected an area, found {other:?}"))),
        }
    }

    /// A set of areas: an area reads as the set of it, `none` as the empty set.
    pub(super) fn areas_v(&self, v: &Value, at: u32) -> Result<AreaSet, Halt> {
        match v {
            Value::Areas(s) => Ok(*s),
            Value::Area(a) => Ok(AreaSet::one(*a)),
            Value::None => Ok(AreaSet::EMPTY),
            other => Err(self.error(at, format!("expected areas, found {other:?}"))),
        }
    }

    /// Dice: one integer reads as one die (clamped to 0..=255).
    pub(super) fn dice_v(&self, v: &Value, at: u32) -> Result<Dice, Halt> {
        match v {
            Value::Dice(d) => Ok(*d),
            Value::Int(i) => Ok(Dice {
                n: 1,
                d: [(*i).clamp(0, 255) as u8, 0, 0, 0, 0, 0, 0, 0],
            }),
            other => Err(self.error(at, format!("expected dice, found {other:?}"))),
        }
    }
}
