//! The engine's primitives at run time: the pieces, the ball, the board's geometry, the
//! dice, the clock and the score (see [`crate::prims`] for their names and types).

use std::sync::Arc;

use super::{Flow, Interp, R, as_bool};
use crate::board::{AreaId, AreaSet, Direction};
use crate::ir::{Loc, Node};
use crate::log::{EventKind, team_name};
use crate::prims::Prim;
use crate::ruleset::lookups::direction_name;
use crate::state::{GONE, MatchState, OFF};
use crate::value::{MoveSet, Team, Value};

impl<'a> Interp<'a> {
    fn count_in(&self, team: Team, s: AreaSet, field_only: bool) -> i64 {
        let p = &self.st.pieces[team as usize];
        let mut n: i64 = s.iter().map(|a| i64::from(p.count[a as usize])).sum();
        if field_only && p.at[0] < GONE && s.has(p.at[0]) {
            n -= 1;
        }
        if self.rs.count_cap > 0 {
            n = n.min(self.rs.count_cap);
        }
        n
    }

    pub(super) fn prim(&mut self, p: Prim, args: &'a [Node], base: usize, loc: Loc) -> R<Value> {
        let r = self.prim_value(p, args, base, loc);
        if p.has_effect() {
            // After the change (arguments may have used the state before it).
            self.touch();
        }
        r
    }

    #[inline(never)]
    fn prim_value(&mut self, p: Prim, args: &'a [Node], base: usize, loc: Loc) -> R<Value> {
        let rs = self.rs;
        let board = &rs.board;
        let side = MatchState::side;
        Ok(match p {
            Prim::Other => Value::Team(1 - self.team(&args[0], base)?),
            Prim::IsHome => Value::Bool(self.team(&args[0], base)? == 0),
            Prim::Count | Prim::CountField => {
                let t = self.team(&args[0], base)?;
                let s = self.areas(&args[1], base)?;
                Value::Int(self.count_in(t, s, p == Prim::CountField))
            }
            Prim::Occupied => {
                let t = self.team(&args[0], base)?;
                Value::Areas(self.st.pieces[t as usize].occupied())
            }
            Prim::FieldAreas | Prim::Unmoved => {
                let t = self.team(&args[0], base)?;
                Value::Areas(self.st.pieces[t as usize].field_areas(p == Prim::Unmoved))
            }
            Prim::KeeperArea => {
                let t = self.team(&args[0], base)?;
                match self.st.pieces[t as usize].at[0] {
                    a if a < GONE => Value::Area(a),
                    _ => return Err(self.error(loc, "the goalkeeper is not on the board")),
                }
            }
            Prim::KeeperMoved => {
                let t = self.team(&args[0], base)?;
                Value::Bool(self.st.pieces[t as usize].moved & 1 != 0)
            }
            Prim::OnBoard => {
                let t = self.team(&args[0], base)?;
                Value::Int(self.st.pieces[t as usize].on_board() as i64)
            }
            Prim::Unplaced => {
                let t = self.team(&args[0], base)?;
                Value::Int(
                    self.st.pieces[t as usize]
                        .at
                        .iter()
                        .skip(1)
                        .filter(|a| **a == OFF)
                        .count() as i64,
                )
            }
            Prim::NthLowest => {
                let t = self.team(&args[0], base)?;
                let n = self.int(&args[1], base)?;
                match self.st.lowest(board, t, n.max(0) as usize) {
                    Some(a) => Value::Area(a),
                    None => {
                        return Err(self.error(
                            loc,
                            format!("the team has fewer than {n} pieces on the board"),
                        ));
                    }
                }
            }
            Prim::Closest => {
                let t = self.team(&args[0], base)?;
                let a = self.area(&args[1], base)?;
                let keeper = as_bool(&self.eval(&args[2], base)?);
                let pieces = &self.st.pieces[t as usize];
                let cands = if keeper {
                    pieces.occupied()
                } else {
                    pieces.field_areas(false)
                };
                let best = cands.iter().map(|x| board.distance(x, a)).min();
                let mut s = AreaSet::EMPTY;
                if let Some(b) = best {
                    for x in cands.iter().filter(|x| board.distance(*x, a) == b) {
                        s.insert(x);
                    }
                }
                Value::Areas(s)
            }
            Prim::MovePiece => {
                let t = self.team(&args[0], base)?;
                let from = self.area(&args[1], base)?;
                let to = self.area(&args[2], base)?;
                self.move_field(t, from, to, loc)?;
                Value::None
            }
            Prim::MoveKeeper => {
                let t = self.team(&args[0], base)?;
                let to = self.area(&args[1], base)?;
                self.move_keeper(t, to, loc)?;
                Value::None
            }
            Prim::ApplyMove => {
                let t = self.team(&args[0], base)?;
                match self.eval(&args[1], base)? {
                    Value::Move(m) if m.keeper => self.move_keeper(t, m.to, loc)?,
                    Value::Move(m) => self.move_field(t, m.from, m.to, loc)?,
                    other => {
                        return Err(self.error(loc, format!("expected a move, found {other:?}")));
                    }
                }
                Value::None
            }
            Prim::ResetMoved => {
                let t = self.team(&args[0], base)?;
                self.st.pieces[t as usize].moved = 0;
                Value::None
            }
            Prim::ClearPieces => {
                let t = self.team(&args[0], base)?;
                for i in 0..self.st.pieces[t as usize].at.len() {
                    if self.st.pieces[t as usize].at[i] != GONE {
                        self.st.put(t, i, OFF);
                    }
                }
                self.emit_event(EventKind::Clear {
                    team: team_name(t).into(),
                });
                Value::None
            }
            Prim::Place | Prim::PlaceKeeper => {
                let t = self.team(&args[0], base)?;
                let a = self.area(&args[1], base)?;
                let i = if p == Prim::PlaceKeeper {
                    0
                } else {
                    match self.st.pieces[t as usize]
                        .at
                        .iter()
                        .skip(1)
                        .position(|x| *x == OFF)
                    {
                        Some(i) => i + 1,
                        None => return Err(self.error(loc, "no field piece left to place")),
                    }
                };
                self.st.put(t, i, a);
                self.emit_event(EventKind::Place {
                    team: team_name(t).into(),
                    area: board.name(a).into(),
                    keeper: i == 0,
                });
                Value::None
            }
            Prim::RemovePiece | Prim::TakeOff => {
                let t = self.team(&args[0], base)?;
                let a = self.area(&args[1], base)?;
                let i = self.field_piece_in(t, a, loc)?;
                // Sent off for good, or off the board until placed again.
                self.st
                    .put(t, i, if p == Prim::RemovePiece { GONE } else { OFF });
                self.emit_event(EventKind::Remove {
                    team: team_name(t).into(),
                    area: board.name(a).into(),
                });
                Value::None
            }
            Prim::ReturnPiece => {
                let t = self.team(&args[0], base)?;
                let a = self.area(&args[1], base)?;
                let i = self.st.pieces[t as usize]
                    .at
                    .iter()
                    .skip(1)
                    .position(|x| *x == GONE);
                match i {
                    Some(i) => self.st.put(t, i + 1, a),
                    None => return Err(self.error(loc, "no field piece of the team is off")),
                }
                self.emit_event(EventKind::Place {
                    team: team_name(t).into(),
                    area: board.name(a).into(),
                    keeper: false,
                });
                Value::None
            }
            Prim::Moves => {
                let t = self.team(&args[0], base)?;
                let from = self.area(&args[1], base)?;
                let to = self.areas(&args[2], base)?;
                let mut ms = MoveSet::default();
                if self.st.pieces[t as usize].field_areas(true).has(from) {
                    ms.field[from as usize] = to.minus(AreaSet::one(from));
                }
                Value::Moves(Arc::new(ms))
            }
            Prim::KeeperMoves => {
                let t = self.team(&args[0], base)?;
                let to = self.areas(&args[1], base)?;
                let pc = &self.st.pieces[t as usize];
                let mut ms = MoveSet::default();
                if pc.at[0] < GONE && pc.moved & 1 == 0 {
                    ms.keeper = Some((pc.at[0], to.minus(AreaSet::one(pc.at[0]))));
                }
                Value::Moves(Arc::new(ms))
            }
            Prim::NoMoves => Value::Moves(Arc::new(MoveSet::default())),
            Prim::UnmovedMoves => {
                let ms = self.eval(&args[0], base)?;
                let t = self.team(&args[1], base)?;
                let Value::Moves(ms) = ms else {
                    return Err(self.error(loc, "expected a move set"));
                };
                let pc = &self.st.pieces[t as usize];
                let live = pc.field_areas(true);
                let mut out = (*ms).clone();
                for (a, dests) in out.field.iter_mut().enumerate() {
                    if !live.has(a as AreaId) {
                        *dests = AreaSet::EMPTY;
                    }
                }
                if pc.moved & 1 != 0 || out.keeper.is_some_and(|(k, _)| k != pc.at[0]) {
                    out.keeper = None;
                }
                Value::Moves(Arc::new(out))
            }
            Prim::BallArea => Value::Area(self.st.ball_area),
            Prim::BallValue => Value::Int(self.st.ball_value),
            Prim::SetBall => {
                let a = self.area(&args[0], base)?;
                self.st.ball_area = a;
                self.emit_event(EventKind::Ball {
                    area: board.name(a).into(),
                });
                Value::None
            }
            Prim::SetBallValue => {
                let v = self.int(&args[0], base)?;
                let (lo, hi) = rs.ball_values;
                if v < lo || v > hi {
                    return Err(self.error(loc, format!("ball value {v} is outside {lo}..{hi}")));
                }
                self.st.ball_value = v;
                self.emit_event(EventKind::BallValue { value: v });
                Value::None
            }
            Prim::GiveBall => {
                let t = self.team(&args[0], base)?;
                if self.st.ball_owner != t {
                    self.st.ball_owner = t;
                    self.counters.control_changes += 1;
                    self.emit_event(EventKind::Control {
                        team: team_name(t).into(),
                    });
                }
                Value::None
            }
            Prim::SetPhasing => {
                let t = self.team(&args[0], base)?;
                self.st.phasing = t;
                self.emit_event(EventKind::Phasing {
                    team: team_name(t).into(),
                });
                Value::None
            }
            Prim::AllAreas => Value::Areas(board.all()),
            Prim::Adjacent => Value::Areas(board.adjacent_set(self.areas(&args[0], base)?)),
            Prim::Forward | Prim::Backward => {
                let s = self.areas(&args[0], base)?;
                let t = self.team(&args[1], base)?;
                let d = if p == Prim::Forward {
                    Direction::Forward
                } else {
                    Direction::Backward
                };
                Value::Areas(board.step(s, d, side(t)))
            }
            Prim::Sideways | Prim::Diagonal => {
                let s = self.areas(&args[0], base)?;
                let d = if p == Prim::Sideways {
                    Direction::Sideways
                } else {
                    Direction::Diagonal
                };
                Value::Areas(board.step(s, d, side(0)))
            }
            Prim::Direction => {
                let a = self.area(&args[0], base)?;
                let b = self.area(&args[1], base)?;
                let t = self.team(&args[2], base)?;
                let d = board.direction(a, b, side(t));
                match rs
                    .lookups
                    .direction(d)
                    .or_else(|| rs.sym(direction_name(d)))
                {
                    Some(s) => Value::Str(s),
                    None => Value::None,
                }
            }
            Prim::Between => {
                let a = self.area(&args[0], base)?;
                let b = self.area(&args[1], base)?;
                Value::Int(board.between(a, b))
            }
            Prim::Distance => {
                let a = self.area(&args[0], base)?;
                let b = self.area(&args[1], base)?;
                Value::Int(i64::from(board.distance(a, b)))
            }
            Prim::Closer => {
                let a = self.area(&args[0], base)?;
                let t = self.team(&args[1], base)?;
                Value::Areas(board.closer(a, side(t)))
            }
            Prim::Behind => {
                let s = self.areas(&args[0], base)?;
                let t = self.team(&args[1], base)?;
                Value::Areas(board.behind(s, side(t)))
            }
            Prim::Reaching => {
                let a = self.area(&args[0], base)?;
                let t = self.team(&args[1], base)?;
                Value::Areas(board.reaching(a, side(t)))
            }
            Prim::SameLevel => Value::Areas(board.same_level(self.area(&args[0], base)?)),
            Prim::EntirelyInHalf | Prim::PartlyInHalf => {
                let a = self.area(&args[0], base)?;
                let t = self.team(&args[1], base)?;
                Value::Bool(if p == Prim::EntirelyInHalf {
                    board.entirely_in_half(a, side(t))
                } else {
                    board.partly_in_half(a, side(t))
                })
            }
            Prim::HalfAreas => {
                let t = self.team(&args[0], base)?;
                let mut s = AreaSet::EMPTY;
                for a in board
                    .all()
                    .iter()
                    .filter(|a| board.partly_in_half(*a, side(t)))
                {
                    s.insert(a);
                }
                Value::Areas(s)
            }
            Prim::GoalLineAreas | Prim::OwnGoalLine => {
                let t = if p == Prim::OwnGoalLine {
                    Some(side(self.team(&args[0], base)?))
                } else {
                    None
                };
                let mut s = AreaSet::EMPTY;
                for (i, a) in board.areas.iter().enumerate() {
                    if a.goal_line.is_some() && (t.is_none() || a.goal_line == t) {
                        s.insert(i as AreaId);
                    }
                }
                Value::Areas(s)
            }
            Prim::Mark => {
                let name = self.eval(&args[0], base)?;
                let t = self.team(&args[1], base)?;
                let found = match name {
                    Value::Str(s) => rs.lookups.mark(s),
                    _ => None,
                };
                let key = match name {
                    Value::Str(s) => rs.symbol(s),
                    _ => "",
                };
                match found.or_else(|| board.marks.get(key)) {
                    Some(sets) => Value::Areas(sets[side(t).index()]),
                    None => return Err(self.error(loc, format!("the board has no mark `{key}`"))),
                }
            }
            Prim::Number | Prim::HasNumber => {
                let name = self.eval(&args[0], base)?;
                let a = self.area(&args[1], base)?;
                let t = self.team(&args[2], base)?;
                let key = match name {
                    Value::Str(s) => rs.symbol(s),
                    _ => "",
                };
                let v = board.number(key, a, side(t));
                if p == Prim::HasNumber {
                    Value::Bool(v.is_some())
                } else {
                    match v {
                        Some(x) => Value::Int(x),
                        None => {
                            return Err(self.error(
                                loc,
                                format!(
                                    "the board's number `{key}` is not given for {}",
                                    board.name(a)
                                ),
                            ));
                        }
                    }
                }
            }
            Prim::Zone => {
                let a = self.area(&args[0], base)?;
                let t = self.team(&args[1], base)?;
                let z = rs.lookups.zone(a, side(t));
                match z.or_else(|| rs.sym(board.zone(a, side(t)))) {
                    Some(s) => Value::Str(s),
                    None => Value::None,
                }
            }
            Prim::Only => {
                let s = self.areas(&args[0], base)?;
                if s.len() != 1 {
                    return Err(self.error(
                        loc,
                        format!("`only` needs exactly one area, found {}", s.len()),
                    ));
                }
                Value::Area(s.iter().next().unwrap_or(0))
            }
            Prim::Size => Value::Int(match self.eval(&args[0], base)? {
                Value::Areas(s) => i64::from(s.len()),
                Value::Area(_) => 1,
                Value::Moves(m) => m.len() as i64,
                Value::Dice(d) => i64::from(d.n),
                Value::List(l) => l.len() as i64,
                _ => 0,
            }),
            Prim::Min => Value::Int(self.int(&args[0], base)?.min(self.int(&args[1], base)?)),
            Prim::Max => Value::Int(self.int(&args[0], base)?.max(self.int(&args[1], base)?)),
            Prim::Abs => Value::Int(self.int(&args[0], base)?.saturating_abs()),
            Prim::Clamp => {
                let v = self.int(&args[0], base)?;
                let lo = self.int(&args[1], base)?;
                let hi = self.int(&args[2], base)?;
                Value::Int(v.max(lo).min(hi))
            }
            Prim::Sum => Value::Int(self.dice_of(&args[0], base)?.sum()),
            Prim::Highest => Value::Int(
                self.dice_of(&args[0], base)?
                    .as_slice()
                    .iter()
                    .copied()
                    .max()
                    .map_or(0, i64::from),
            ),
            Prim::Lowest => Value::Int(
                self.dice_of(&args[0], base)?
                    .as_slice()
                    .iter()
                    .copied()
                    .min()
                    .map_or(0, i64::from),
            ),
            Prim::Die => {
                let d = self.dice_of(&args[0], base)?;
                let i = self.int(&args[1], base)?;
                match usize::try_from(i - 1)
                    .ok()
                    .and_then(|i| d.as_slice().get(i))
                {
                    Some(x) => Value::Int(i64::from(*x)),
                    None => return Err(self.error(loc, format!("die {i} of a roll of {}", d.n))),
                }
            }
            Prim::IsDouble => {
                let d = self.dice_of(&args[0], base)?;
                Value::Bool(d.as_slice().windows(2).all(|w| w[0] == w[1]))
            }
            Prim::Minute => Value::Int(self.st.clock.minute),
            Prim::Added => Value::Int(self.st.clock.added),
            Prim::SetClock => {
                let m = self.int(&args[0], base)?;
                let a = self.int(&args[1], base)?;
                let c = &self.st.clock;
                if (m, a) < (c.minute, c.added) {
                    return Err(self.error(
                        loc,
                        format!(
                            "the clock cannot go back from {}+{} to {m}+{a}",
                            c.minute, c.added
                        ),
                    ));
                }
                self.emit_event(EventKind::Clock {
                    to_minute: m,
                    to_added: a,
                });
                self.st.clock.minute = m;
                self.st.clock.added = a;
                Value::None
            }
            Prim::Half => Value::Int(i64::from(self.st.clock.half)),
            Prim::Turn => Value::Int(i64::from(self.st.turn)),
            Prim::Score => Value::Int(self.st.score[self.team(&args[0], base)? as usize]),
            Prim::Goal => {
                let t = self.team(&args[0], base)?;
                self.st.score[t as usize] += 1;
                let score = self.st.score;
                self.emit_event(EventKind::Goal {
                    team: team_name(t).into(),
                    score,
                });
                if self.stop_at.is_some() && self.stop_at == rs.sym("goal") {
                    self.stopped = true;
                    return Err(Flow::Stop);
                }
                Value::None
            }
            Prim::EndTurn => return Err(Flow::EndTurn),
            Prim::EndHalf => return Err(Flow::EndHalf),
        })
    }

    /// A field piece of `t` in `a`: one that has not moved when there is one.
    fn field_piece_in(&self, t: Team, a: AreaId, loc: Loc) -> R<usize> {
        let pc = &self.st.pieces[t as usize];
        (1..pc.at.len())
            .filter(|i| pc.at[*i] == a)
            .min_by_key(|i| pc.moved & (1 << i) != 0)
            .ok_or_else(|| {
                self.error(
                    loc,
                    format!(
                        "no field piece of {} in {}",
                        team_name(t),
                        self.rs.board.name(a)
                    ),
                )
            })
    }

    fn move_field(&mut self, t: Team, from: AreaId, to: AreaId, loc: Loc) -> R<()> {
        let i = self.field_piece_in(t, from, loc)?;
        self.st.put(t, i, to);
        self.st.pieces[t as usize].moved |= 1 << i;
        self.emit_event(EventKind::Move {
            team: team_name(t).into(),
            from: self.rs.board.name(from).into(),
            to: self.rs.board.name(to).into(),
            keeper: false,
        });
        Ok(())
    }

    fn move_keeper(&mut self, t: Team, to: AreaId, loc: Loc) -> R<()> {
        let from = self.st.pieces[t as usize].at[0];
        if from >= GONE {
            return Err(self.error(loc, "the goalkeeper is not on the board"));
        }
        self.st.put(t, 0, to);
        self.st.pieces[t as usize].moved |= 1;
        self.emit_event(EventKind::Move {
            team: team_name(t).into(),
            from: self.rs.board.name(from).into(),
            to: self.rs.board.name(to).into(),
            keeper: true,
        });
        Ok(())
    }
}
