//! The frequent pure primitives of plain operands (teams, areas, area sets, integers):
//! worked out in a small function that reads its operands in place and leaves a value that
//! needs no drop, before the full primitive path ([`Match::prim`]) with its large frame,
//! its `Result` and its argument checks that can fail. Chosen by counting the primitives
//! run in seeded matches of every edition; in the original edition they are about two
//! thirds of those run.

use super::kinds::areas;
use super::machine::Match;
use crate::board::Direction;
use crate::prims::Prim;
use crate::state::{GONE, MatchState};
use crate::value::Value;

/// `size` of a value: the areas, moves, dice or numbers it holds (an area is one).
pub(super) fn size(v: &Value) -> i64 {
    match v {
        Value::Areas(s) => i64::from(s.len()),
        Value::Area(_) => 1,
        Value::Moves(m) => m.len() as i64,
        Value::Dice(d) => i64::from(d.n),
        Value::List(l) => l.len() as i64,
        _ => 0,
    }
}

/// Whether `p` is one of the light primitives.
pub(super) fn is_light(p: Prim) -> bool {
    matches!(
        p,
        Prim::BallArea
            | Prim::BallValue
            | Prim::Other
            | Prim::Adjacent
            | Prim::SameLevel
            | Prim::FieldAreas
            | Prim::Unmoved
            | Prim::KeeperArea
            | Prim::Count
            | Prim::CountField
            | Prim::Forward
            | Prim::Backward
            | Prim::Behind
            | Prim::Closer
            | Prim::Between
            | Prim::Max
            | Prim::Min
            | Prim::Occupied
            | Prim::KeeperMoved
            | Prim::NthLowest
            | Prim::GoalLineAreas
            | Prim::OwnGoalLine
            | Prim::HalfAreas
            | Prim::Size
            | Prim::Only
            | Prim::Abs
            | Prim::Die
            | Prim::Zone
            | Prim::Mark
            | Prim::Score
            | Prim::Minute
            | Prim::Added
            | Prim::Half
            | Prim::Turn
            | Prim::IsHome
            | Prim::OnBoard
            | Prim::Distance
            | Prim::Reaching
            | Prim::EntirelyInHalf
            | Prim::PartlyInHalf
    )
}

impl Match<'_> {
    /// The value of `p` when it is one of the light primitives and its operands, on top
    /// of the stack, have the kinds it expects; `None` otherwise (the full path then runs
    /// it, and reports a wrong operand).
    #[inline]
    pub(super) fn light_prim(&self, p: Prim) -> Option<Value> {
        let s = &self.stack[..];
        let n = s.len();
        self.light_with(p, s.get(n.wrapping_sub(2)), s.get(n.wrapping_sub(1)))
    }

    /// [`Match::light_prim`] of the operands given: `one` the last, `two` the one before.
    #[inline(always)]
    pub(super) fn light_with(
        &self,
        p: Prim,
        two: Option<&Value>,
        one: Option<&Value>,
    ) -> Option<Value> {
        let board = &self.rs.board;
        let side = MatchState::side;
        let one = || one;
        let two = || two;
        Some(match p {
            Prim::BallArea => Value::Area(self.st.ball_area),
            Prim::BallValue => Value::Int(self.st.ball_value),
            Prim::Other => match one()? {
                Value::Team(t) => Value::Team(1 - t),
                _ => return None,
            },
            Prim::Adjacent => Value::Areas(board.adjacent_set(areas(one()?)?)),
            Prim::SameLevel => match one()? {
                Value::Area(a) => Value::Areas(board.same_level(*a)),
                _ => return None,
            },
            Prim::FieldAreas | Prim::Unmoved => match one()? {
                Value::Team(t) => {
                    Value::Areas(self.st.pieces[*t as usize].field_areas(p == Prim::Unmoved))
                }
                _ => return None,
            },
            Prim::KeeperArea => match one()? {
                Value::Team(t) => match self.st.pieces[*t as usize].at[0] {
                    a if a < GONE => Value::Area(a),
                    _ => return None,
                },
                _ => return None,
            },
            Prim::Count | Prim::CountField => match (two()?, areas(one()?)?) {
                (Value::Team(t), s) => Value::Int(self.count_in(*t, s, p == Prim::CountField)),
                _ => return None,
            },
            Prim::Forward | Prim::Backward => match (areas(two()?)?, one()?) {
                (s, Value::Team(t)) => {
                    let d = if p == Prim::Forward {
                        Direction::Forward
                    } else {
                        Direction::Backward
                    };
                    Value::Areas(board.step(s, d, side(*t)))
                }
                _ => return None,
            },
            Prim::Behind => match (areas(two()?)?, one()?) {
                (s, Value::Team(t)) => Value::Areas(board.behind(s, side(*t))),
                _ => return None,
            },
            Prim::Closer => match (two()?, one()?) {
                (Value::Area(a), Value::Team(t)) => Value::Areas(board.closer(*a, side(*t))),
                _ => return None,
            },
            Prim::Between => match (two()?, one()?) {
                (Value::Area(a), Value::Area(b)) => Value::Int(board.between(*a, *b)),
                _ => return None,
            },
            Prim::Max | Prim::Min => match (two()?, one()?) {
                (Value::Int(a), Value::Int(b)) => {
                    Value::Int(if p == Prim::Max { *a.max(b) } else { *a.min(b) })
                }
                _ => return None,
            },
            Prim::Occupied => match one()? {
                Value::Team(t) => Value::Areas(self.st.pieces[*t as usize].occupied()),
                _ => return None,
            },
            Prim::KeeperMoved => match one()? {
                Value::Team(t) => Value::Bool(self.st.pieces[*t as usize].moved & 1 != 0),
                _ => return None,
            },
            Prim::OnBoard => match one()? {
                Value::Team(t) => Value::Int(self.st.pieces[*t as usize].on_board() as i64),
                _ => return None,
            },
            Prim::IsHome => match one()? {
                Value::Team(t) => Value::Bool(*t == 0),
                _ => return None,
            },
            Prim::Score => match one()? {
                Value::Team(t) => Value::Int(self.st.score[*t as usize]),
                _ => return None,
            },
            Prim::NthLowest => match (two()?, one()?) {
                (Value::Team(t), Value::Int(n)) => {
                    Value::Area(self.st.lowest(board, *t, (*n).max(0) as usize)?)
                }
                _ => return None,
            },
            Prim::GoalLineAreas => Value::Areas(board.goal_line_areas(None)),
            Prim::OwnGoalLine => match one()? {
                Value::Team(t) => Value::Areas(board.goal_line_areas(Some(side(*t)))),
                _ => return None,
            },
            Prim::HalfAreas => match one()? {
                Value::Team(t) => Value::Areas(board.half_areas(side(*t))),
                _ => return None,
            },
            Prim::Size => Value::Int(size(one()?)),
            Prim::Only => {
                let s = areas(one()?)?;
                if s.len() != 1 {
                    return None;
                }
                Value::Area(s.0.trailing_zeros() as u8)
            }
            Prim::Abs => match one()? {
                Value::Int(i) => Value::Int(i.saturating_abs()),
                _ => return None,
            },
            Prim::Die => match (two()?, one()?) {
                (Value::Dice(d), Value::Int(i)) => Value::Int(i64::from(
                    *usize::try_from(*i - 1)
                        .ok()
                        .and_then(|i| d.as_slice().get(i))?,
                )),
                _ => return None,
            },
            Prim::Zone => match (two()?, one()?) {
                (Value::Area(a), Value::Team(t)) => {
                    let rs = self.rs;
                    match rs
                        .lookups
                        .zone(*a, side(*t))
                        .or_else(|| rs.sym(board.zone(*a, side(*t))))
                    {
                        Some(s) => Value::Str(s),
                        None => Value::None,
                    }
                }
                _ => return None,
            },
            Prim::Mark => match (two()?, one()?) {
                (Value::Str(s), Value::Team(t)) => {
                    let rs = self.rs;
                    let sets = rs
                        .lookups
                        .mark(*s)
                        .or_else(|| board.marks.get(rs.symbol(*s)))?;
                    Value::Areas(sets[side(*t).index()])
                }
                _ => return None,
            },
            Prim::Minute => Value::Int(self.st.clock.minute),
            Prim::Added => Value::Int(self.st.clock.added),
            Prim::Half => Value::Int(i64::from(self.st.clock.half)),
            Prim::Turn => Value::Int(i64::from(self.st.turn)),
            Prim::Distance => match (two()?, one()?) {
                (Value::Area(a), Value::Area(b)) => Value::Int(i64::from(board.distance(*a, *b))),
                _ => return None,
            },
            Prim::Reaching => match (two()?, one()?) {
                (Value::Area(a), Value::Team(t)) => Value::Areas(board.reaching(*a, side(*t))),
                _ => return None,
            },
            Prim::EntirelyInHalf | Prim::PartlyInHalf => match (two()?, one()?) {
                (Value::Area(a), Value::Team(t)) => Value::Bool(if p == Prim::EntirelyInHalf {
                    board.entirely_in_half(*a, side(*t))
                } else {
                    board.partly_in_half(*a, side(*t))
                }),
                _ => return None,
            },
            _ => return None,
        })
    }
}
