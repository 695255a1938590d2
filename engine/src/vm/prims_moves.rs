//! The primitives of moves and runs at run time: move sets (`moves`, `keeper_moves`,
//! `no_moves`, `unmoved_moves`, `moves_from`, `moves_to`) and the straight runs a piece may make
//! (`slide`, over the areas a team is `outnumbered` in). See [`crate::prims`] for their
//! names and types; [`Match::prim`] hands them here.

use super::checked::as_bool;
use super::found::add_moves;
use super::machine::Match;
use super::run_error::Halt;
use crate::board::{AreaSet, Direction};
use crate::prims::Prim;
use crate::state::{GONE, MatchState};
use crate::value::{MoveSet, Value};

impl Match<'_> {
    /// The value of move and run primitive `p`, its arguments from `base` on the stack.
    pub(super) fn move_prim(&mut self, p: Prim, base: usize, at: u32) -> Result<Value, Halt> {
        let board = &self.rs.board;
        let side = MatchState::side;
        Ok(match p {
            Prim::Moves => {
                let t = self.team_v(&self.stack[base], at)?;
                let from = self.area_v(&self.stack[base + 1], at)?;
                let to = self.areas_v(&self.stack[base + 2], at)?;
                let mut ms = MoveSet::default();
                add_moves(&self.st.pieces[t as usize], &mut ms, from, to);
                self.new_moves(ms)
            }
            Prim::KeeperMoves => {
                let t = self.team_v(&self.stack[base], at)?;
                let to = self.areas_v(&self.stack[base + 1], at)?;
                let pc = &self.st.pieces[t as usize];
                let mut ms = MoveSet::default();
                if pc.at[0] < GONE && pc.moved & 1 == 0 {
                    ms.keeper = Some((pc.at[0], to.minus(AreaSet::one(pc.at[0]))));
                }
                self.new_moves(ms)
            }
            Prim::NoMoves => self.new_moves(MoveSet::default()),
            Prim::UnmovedMoves | Prim::MovesFrom | Prim::MovesTo => {
                self.moves_of(p, base, base + 1, at)?
            }
            Prim::Outnumbered => {
                let t = self.team_v(&self.stack[base], at)?;
                let o = 1 - t;
                let mut out = AreaSet::EMPTY;
                for a in self.st.pieces[o as usize].occupied().iter() {
                    let one = AreaSet::one(a);
                    if self.count_in(o, one, false) > self.count_in(t, one, false) {
                        out = out.union(one);
                    }
                }
                Value::Areas(out)
            }
            Prim::Slide => {
                let mut cur = AreaSet::one(self.area_v(&self.stack[base], at)?);
                let t = self.team_v(&self.stack[base + 1], at)?;
                let d = if as_bool(&self.stack[base + 2]) {
                    Direction::Forward
                } else {
                    Direction::Backward
                };
                let n = self.int_v(&self.stack[base + 3], at)?;
                let stop = self.areas_v(&self.stack[base + 4], at)?;
                let mut out = AreaSet::EMPTY;
                for _ in 0..n.max(0) {
                    let next = board.step(cur, d, side(t));
                    out = out.union(next);
                    cur = next.minus(stop);
                    if cur.is_empty() {
                        break;
                    }
                }
                Value::Areas(out)
            }
            _ => return Err(self.error(at, format!("{} is not a move primitive", p.name()))),
        })
    }
}

impl Match<'_> {
    /// The value of `unmoved_moves`, `moves_from` or `moves_to` (`p`), the move set in
    /// stack slot `set` (the operands pushed, or a frame local read in place:
    /// [`super::code::Ins::MovesOfLocal`]) and the other operand in slot `rest`.
    pub(super) fn moves_of(
        &mut self,
        p: Prim,
        set: usize,
        rest: usize,
        at: u32,
    ) -> Result<Value, Halt> {
        Ok(match p {
            Prim::UnmovedMoves => {
                let t = self.team_v(&self.stack[rest], at)?;
                let pc = &self.st.pieces[t as usize];
                let mut out = self.moves_from_arg(set, pc.field_areas(true), at)?;
                out.keeper = pc.unmoved_keeper(out.keeper);
                self.new_moves(out)
            }
            Prim::MovesFrom => {
                let from = self.areas_v(&self.stack[rest], at)?;
                let mut out = self.moves_from_arg(set, from, at)?;
                if out.keeper.is_some_and(|(k, _)| !from.has(k)) {
                    out.keeper = None;
                }
                self.new_moves(out)
            }
            Prim::MovesTo => {
                let mut out = self.moves_arg(set, at)?;
                let to = self.areas_v(&self.stack[rest], at)?;
                for dests in out.field.iter_mut() {
                    *dests = dests.inter(to);
                }
                if let Some((_, dests)) = &mut out.keeper {
                    *dests = dests.inter(to);
                }
                self.new_moves(out)
            }
            _ => return Err(self.error(at, format!("{} is not a move set's primitive", p.name()))),
        })
    }

    /// The field moves of the move set in stack slot `slot` that start in one of the
    /// areas `from` (and its goalkeeper's, for the caller to narrow): copied area by area
    /// of `from` (a handful) rather than the whole set copied and every other area cleared.
    fn moves_from_arg(&self, slot: usize, from: AreaSet, at: u32) -> Result<MoveSet, Halt> {
        let Value::Moves(ms) = &self.stack[slot] else {
            return Err(self.error(at, "expected a move set"));
        };
        let mut out = MoveSet {
            keeper: ms.keeper,
            ..MoveSet::default()
        };
        for a in from.iter() {
            if let (Some(o), Some(d)) = (out.field.get_mut(a as usize), ms.field.get(a as usize)) {
                *o = *d;
            }
        }
        Ok(out)
    }

    /// The move set in stack slot `slot`, copied to be narrowed.
    fn moves_arg(&self, slot: usize, at: u32) -> Result<MoveSet, Halt> {
        match &self.stack[slot] {
            Value::Moves(ms) => Ok((**ms).clone()),
            _ => Err(self.error(at, "expected a move set")),
        }
    }
}
