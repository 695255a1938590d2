//! The engine's primitives at run time: the pieces, the ball, the board's geometry, the
//! dice, the clock and the score (see [`crate::prims`] for their names and types). Each
//! takes its arguments from the operand stack and leaves its value there.

use super::checked::as_bool;
use super::machine::Match;
use super::run_error::Halt;
use crate::board::{AreaSet, Direction};
use crate::log::{EventKind, team_name};
use crate::prims::Prim;
use crate::ruleset::lookups::direction_name;
use crate::state::{GONE, MatchState, OFF};
use crate::value::{Team, Value};

impl Match<'_> {
    /// How many of `team`'s pieces stand in `s` (the goalkeeper left out when
    /// `field_only`), at most the ruleset's count cap when it has one.
    pub(super) fn count_in(&self, team: Team, s: AreaSet, field_only: bool) -> i64 {
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

    /// Runs a primitive: pops its arguments, pushes its value (written over the first
    /// argument's slot).
    pub(crate) fn prim(&mut self, p: Prim, at: u32) -> Result<(), Halt> {
        let base = self.stack.len() - p.arity();
        if let Some(v) = self.light_prim(p) {
            self.put_value(base, v);
            return Ok(());
        }
        let v = self.prim_value(p, base, at)?;
        if p.has_effect() {
            // After the change (arguments may have used the state before it).
            self.touch();
        }
        self.put_value(base, v);
        Ok(())
    }

    /// The value of a primitive without an effect for these arguments (`None` where the
    /// primitive stops the match with an error: the caller's stack code then meets it).
    /// The arguments are pushed above the frames and taken off again.
    pub(crate) fn prim_of_values(
        &mut self,
        p: Prim,
        args: impl Iterator<Item = Value>,
    ) -> Option<Value> {
        let base = self.stack.len();
        self.stack.extend(args);
        let v = self.prim_value(p, base, 0).ok();
        self.stack.truncate(base);
        v
    }

    /// A primitive's value in place of its arguments, from `base`.
    #[inline(always)]
    fn put_value(&mut self, base: usize, v: Value) {
        if base < self.stack.len() {
            self.stack.truncate(base + 1);
            self.stack[base] = v;
        } else {
            self.stack.push(v);
        }
    }

    #[inline(never)]
    fn prim_value(&mut self, p: Prim, base: usize, at: u32) -> Result<Value, Halt> {
        let rs = self.rs;
        let board = &rs.board;
        let side = MatchState::side;
        Ok(match p {
            Prim::Other => Value::Team(1 - self.team_v(&self.stack[base], at)?),
            Prim::IsHome => Value::Bool(self.team_v(&self.stack[base], at)? == 0),
            Prim::Count | Prim::CountField => {
                let t = self.team_v(&self.stack[base], at)?;
                let s = self.areas_v(&self.stack[base + 1], at)?;
                Value::Int(self.count_in(t, s, p == Prim::CountField))
            }
            Prim::Occupied => {
                let t = self.team_v(&self.stack[base], at)?;
                Value::Areas(self.st.pieces[t as usize].occupied())
            }
            Prim::FieldAreas | Prim::Unmoved => {
                let t = self.team_v(&self.stack[base], at)?;
                Value::Areas(self.st.pieces[t as usize].field_areas(p == Prim::Unmoved))
            }
            Prim::KeeperArea => {
                let t = self.team_v(&self.stack[base], at)?;
                match self.st.pieces[t as usize].at[0] {
                    a if a < GONE => Value::Area(a),
                    _ => return Err(self.error(at, "the goalkeeper is not on the board")),
                }
            }
            Prim::KeeperMoved => {
                let t = self.team_v(&self.stack[base], at)?;
                Value::Bool(self.st.pieces[t as usize].moved & 1 != 0)
            }
            Prim::OnBoard => {
                let t = self.team_v(&self.stack[base], at)?;
                Value::Int(self.st.pieces[t as usize].on_board() as i64)
            }
            Prim::Unplaced => {
                let t = self.team_v(&self.stack[base], at)?;
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
                let t = self.team_v(&self.stack[base], at)?;
                let n = self.int_v(&self.stack[base + 1], at)?;
                match self.st.lowest(board, t, n.max(0) as usize) {
                    Some(a) => Value::Area(a),
                    None => {
                        return Err(self.error(
                            at,
                            format!("the team has fewer than {n} pieces on the board"),
                        ));
                    }
                }
            }
            Prim::Closest => {
                let t = self.team_v(&self.stack[base], at)?;
                let a = self.area_v(&self.stack[base + 1], at)?;
                let keeper = as_bool(&self.stack[base + 2].clone());
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
                let t = self.team_v(&self.stack[base], at)?;
                let from = self.area_v(&self.stack[base + 1], at)?;
                let to = self.area_v(&self.stack[base + 2], at)?;
                self.move_field(t, from, to, at)?;
                Value::None
            }
            Prim::MoveKeeper => {
                let t = self.team_v(&self.stack[base], at)?;
                let to = self.area_v(&self.stack[base + 1], at)?;
                self.move_keeper(t, to, at)?;
                Value::None
            }
            Prim::ApplyMove => {
                let t = self.team_v(&self.stack[base], at)?;
                match self.stack[base + 1].clone() {
                    Value::Move(m) if m.keeper => self.move_keeper(t, m.to, at)?,
                    Value::Move(m) => self.move_field(t, m.from, m.to, at)?,
                    other => {
                        return Err(self.error(at, format!("expected a move, found {other:?}")));
                    }
                }
                Value::None
            }
            Prim::ResetMoved => {
                let t = self.team_v(&self.stack[base], at)?;
                self.st.pieces[t as usize].moved = 0;
                Value::None
            }
            Prim::ClearPieces => {
                let t = self.team_v(&self.stack[base], at)?;
                for i in 0..self.st.pieces[t as usize].at.len() {
                    if self.st.pieces[t as usize].at[i] != GONE {
                        self.st.put(t, i, OFF);
                    }
                }
                if self.logging() {
                    self.emit_event_at(
                        at,
                        EventKind::Clear {
                            team: team_name(t).into(),
                        },
                    );
                }
                Value::None
            }
            Prim::Place | Prim::PlaceKeeper => {
                let t = self.team_v(&self.stack[base], at)?;
                let a = self.area_v(&self.stack[base + 1], at)?;
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
                        None => return Err(self.error(at, "no field piece left to place")),
                    }
                };
                self.st.put(t, i, a);
                if self.logging() {
                    self.emit_event_at(
                        at,
                        EventKind::Place {
                            team: team_name(t).into(),
                            area: board.name(a).into(),
                            keeper: i == 0,
                        },
                    );
                }
                Value::None
            }
            Prim::RemovePiece | Prim::TakeOff => {
                let t = self.team_v(&self.stack[base], at)?;
                let a = self.area_v(&self.stack[base + 1], at)?;
                let i = self.field_piece_in(t, a, at)?;
                // Sent off for good, or off the board until placed again.
                self.st
                    .put(t, i, if p == Prim::RemovePiece { GONE } else { OFF });
                if self.logging() {
                    self.emit_event_at(
                        at,
                        EventKind::Remove {
                            team: team_name(t).into(),
                            area: board.name(a).into(),
                        },
                    );
                }
                Value::None
            }
            Prim::ReturnPiece => {
                let t = self.team_v(&self.stack[base], at)?;
                let a = self.area_v(&self.stack[base + 1], at)?;
                let i = self.st.pieces[t as usize]
                    .at
                    .iter()
                    .skip(1)
                    .position(|x| *x == GONE);
                match i {
                    Some(i) => self.st.put(t, i + 1, a),
                    None => return Err(self.error(at, "no field piece of the team is off")),
                }
                if self.logging() {
                    self.emit_event_at(
                        at,
                        EventKind::Place {
                            team: team_name(t).into(),
                            area: board.name(a).into(),
                            keeper: false,
                        },
                    );
                }
                Value::None
            }
            Prim::Moves
            | Prim::KeeperMoves
            | Prim::NoMoves
            | Prim::UnmovedMoves
            | Prim::MovesFrom
            | Prim::MovesTo
            | Prim::Outnumbered
            | Prim::Slide => self.move_prim(p, base, at)?,
            Prim::BallArea => Value::Area(self.st.ball_area),
            Prim::BallValue => Value::Int(self.st.ball_value),
            Prim::SetBall => {
                let a = self.area_v(&self.stack[base], at)?;
                self.st.ball_area = a;
                if self.logging() {
                    self.emit_event_at(
                        at,
                        EventKind::Ball {
                            area: board.name(a).into(),
                        },
                    );
                }
                Value::None
            }
            Prim::SetBallValue => {
                let v = self.int_v(&self.stack[base], at)?;
                let (lo, hi) = rs.ball_values;
                if v < lo || v > hi {
                    return Err(self.error(at, format!("ball value {v} is outside {lo}..{hi}")));
                }
                self.st.ball_value = v;
                if self.logging() {
                    self.emit_event_at(at, EventKind::BallValue { value: v });
                }
                Value::None
            }
            Prim::GiveBall => {
                let t = self.team_v(&self.stack[base], at)?;
                if self.st.ball_owner != t {
                    self.st.ball_owner = t;
                    if self.counting {
                        self.counters.control_changes += 1;
                    }
                    if self.logging() {
                        self.emit_event_at(
                            at,
                            EventKind::Control {
                                team: team_name(t).into(),
                            },
                        );
                    }
                }
                Value::None
            }
            Prim::SetPhasing => {
                let t = self.team_v(&self.stack[base], at)?;
                self.st.phasing = t;
                if self.logging() {
                    self.emit_event_at(
                        at,
                        EventKind::Phasing {
                            team: team_name(t).into(),
                        },
                    );
                }
                Value::None
            }
            Prim::AllAreas => Value::Areas(board.all()),
            Prim::Adjacent => {
                Value::Areas(board.adjacent_set(self.areas_v(&self.stack[base], at)?))
            }
            Prim::Forward | Prim::Backward => {
                let s = self.areas_v(&self.stack[base], at)?;
                let t = self.team_v(&self.stack[base + 1], at)?;
                let d = if p == Prim::Forward {
                    Direction::Forward
                } else {
                    Direction::Backward
                };
                Value::Areas(board.step(s, d, side(t)))
            }
            Prim::Sideways | Prim::Diagonal => {
                let s = self.areas_v(&self.stack[base], at)?;
                let d = if p == Prim::Sideways {
                    Direction::Sideways
                } else {
                    Direction::Diagonal
                };
                Value::Areas(board.step(s, d, side(0)))
            }
            Prim::Direction => {
                let a = self.area_v(&self.stack[base], at)?;
                let b = self.area_v(&self.stack[base + 1], at)?;
                let t = self.team_v(&self.stack[base + 2], at)?;
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
                let a = self.area_v(&self.stack[base], at)?;
                let b = self.area_v(&self.stack[base + 1], at)?;
                Value::Int(board.between(a, b))
            }
            Prim::Distance => {
                let a = self.area_v(&self.stack[base], at)?;
                let b = self.area_v(&self.stack[base + 1], at)?;
                Value::Int(i64::from(board.distance(a, b)))
            }
            Prim::Closer => {
                let a = self.area_v(&self.stack[base], at)?;
                let t = self.team_v(&self.stack[base + 1], at)?;
                Value::Areas(board.closer(a, side(t)))
            }
            Prim::Behind => {
                let s = self.areas_v(&self.stack[base], at)?;
                let t = self.team_v(&self.stack[base + 1], at)?;
                Value::Areas(board.behind(s, side(t)))
            }
            Prim::Reaching => {
                let a = self.area_v(&self.stack[base], at)?;
                let t = self.team_v(&self.stack[base + 1], at)?;
                Value::Areas(board.reaching(a, side(t)))
            }
            Prim::SameLevel => Value::Areas(board.same_level(self.area_v(&self.stack[base], at)?)),
            Prim::EntirelyInHalf | Prim::PartlyInHalf => {
                let a = self.area_v(&self.stack[base], at)?;
                let t = self.team_v(&self.stack[base + 1], at)?;
                Value::Bool(if p == Prim::EntirelyInHalf {
                    board.entirely_in_half(a, side(t))
                } else {
                    board.partly_in_half(a, side(t))
                })
            }
            Prim::HalfAreas => {
                let t = self.team_v(&self.stack[base], at)?;
                Value::Areas(board.half_areas(side(t)))
            }
            Prim::GoalLineAreas => Value::Areas(board.goal_line_areas(None)),
            Prim::OwnGoalLine => {
                let t = self.team_v(&self.stack[base], at)?;
                Value::Areas(board.goal_line_areas(Some(side(t))))
            }
            Prim::Mark => {
                let name = self.stack[base].clone();
                let t = self.team_v(&self.stack[base + 1], at)?;
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
                    None => return Err(self.error(at, format!("the board has no mark `{key}`"))),
                }
            }
            Prim::Number | Prim::HasNumber => {
                let name = self.stack[base].clone();
                let a = self.area_v(&self.stack[base + 1], at)?;
                let t = self.team_v(&self.stack[base + 2], at)?;
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
                                at,
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
                let a = self.area_v(&self.stack[base], at)?;
                let t = self.team_v(&self.stack[base + 1], at)?;
                let z = rs.lookups.zone(a, side(t));
                match z.or_else(|| rs.sym(board.zone(a, side(t)))) {
                    Some(s) => Value::Str(s),
                    None => Value::None,
                }
            }
            Prim::Only => {
                let s = self.areas_v(&self.stack[base], at)?;
                if s.len() != 1 {
                    return Err(self.error(
                        at,
                        format!("`only` needs exactly one area, found {}", s.len()),
                    ));
                }
                Value::Area(s.iter().next().unwrap_or(0))
            }
            Prim::Size => Value::Int(super::light::size(&self.stack[base])),
            Prim::Min => Value::Int(
                self.int_v(&self.stack[base], at)?
                    .min(self.int_v(&self.stack[base + 1], at)?),
            ),
            Prim::Max => Value::Int(
                self.int_v(&self.stack[base], at)?
                    .max(self.int_v(&self.stack[base + 1], at)?),
            ),
            Prim::Abs => Value::Int(self.int_v(&self.stack[base], at)?.saturating_abs()),
            Prim::Clamp => {
                let v = self.int_v(&self.stack[base], at)?;
                let lo = self.int_v(&self.stack[base + 1], at)?;
                let hi = self.int_v(&self.stack[base + 2], at)?;
                Value::Int(v.max(lo).min(hi))
            }
            Prim::Sum => Value::Int(self.dice_v(&self.stack[base], at)?.sum()),
            Prim::Highest => Value::Int(
                self.dice_v(&self.stack[base], at)?
                    .as_slice()
                    .iter()
                    .copied()
                    .max()
                    .map_or(0, i64::from),
            ),
            Prim::Lowest => Value::Int(
                self.dice_v(&self.stack[base], at)?
                    .as_slice()
                    .iter()
                    .copied()
                    .min()
                    .map_or(0, i64::from),
            ),
            Prim::Die => {
                let d = self.dice_v(&self.stack[base], at)?;
                let i = self.int_v(&self.stack[base + 1], at)?;
                match usize::try_from(i - 1)
                    .ok()
                    .and_then(|i| d.as_slice().get(i))
                {
                    Some(x) => Value::Int(i64::from(*x)),
                    None => return Err(self.error(at, format!("die {i} of a roll of {}", d.n))),
                }
            }
            Prim::IsDouble => {
                let d = self.dice_v(&self.stack[base], at)?;
                Value::Bool(d.as_slice().windows(2).all(|w| w[0] == w[1]))
            }
            Prim::Minute => Value::Int(self.st.clock.minute),
            Prim::Added => Value::Int(self.st.clock.added),
            Prim::SetClock => {
                let m = self.int_v(&self.stack[base], at)?;
                let a = self.int_v(&self.stack[base + 1], at)?;
                let c = &self.st.clock;
                if (m, a) < (c.minute, c.added) {
                    return Err(self.error(
                        at,
                        format!(
                            "the clock cannot go back from {}+{} to {m}+{a}",
                            c.minute, c.added
                        ),
                    ));
                }
                if self.logging() {
                    self.emit_event_at(
                        at,
                        EventKind::Clock {
                            to_minute: m,
                            to_added: a,
                        },
                    );
                }
                self.st.clock.minute = m;
                self.st.clock.added = a;
                Value::None
            }
            Prim::Half => Value::Int(i64::from(self.st.clock.half)),
            Prim::Turn => Value::Int(i64::from(self.st.turn)),
            Prim::Score => Value::Int(self.st.score[self.team_v(&self.stack[base], at)? as usize]),
            Prim::Goal => {
                let t = self.team_v(&self.stack[base], at)?;
                self.st.score[t as usize] += 1;
                let score = self.st.score;
                if self.logging() {
                    self.emit_event_at(
                        at,
                        EventKind::Goal {
                            team: team_name(t).into(),
                            score,
                        },
                    );
                }
                if self.stop_at.is_some() && self.stop_at == rs.sym("goal") {
                    self.stopped = true;
                    return Err(Halt::Stop);
                }
                Value::None
            }
            Prim::EndTurn => return Err(Halt::EndTurn),
            Prim::EndHalf => return Err(Halt::EndHalf),
        })
    }
}
