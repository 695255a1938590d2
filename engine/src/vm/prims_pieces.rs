//! Moving pieces at run time: the field piece of a team in an area, a move of a field
//! piece or of the goalkeeper, and its event (for the primitives `apply_move`, `move_one`
//! and the like in [`super::prims`]).

use super::machine::Match;
use super::run_error::Halt;
use crate::board::AreaId;
use crate::log::{EventKind, team_name};
use crate::state::GONE;
use crate::value::Team;

impl Match<'_> {
    /// A field piece of `t` in `a`: the first that has not moved when there is one, else
    /// the first (in one pass over the pieces).
    pub(super) fn field_piece_in(&self, t: Team, a: AreaId, at: u32) -> Result<usize, Halt> {
        let pc = &self.st.pieces[t as usize];
        let mut first = None;
        for (i, &x) in pc.at.iter().enumerate().skip(1) {
            if x == a {
                if pc.moved & (1 << i) == 0 {
                    return Ok(i);
                }
                if first.is_none() {
                    first = Some(i);
                }
            }
        }
        first.ok_or_else(|| self.no_piece_in(t, a, at))
    }

    #[cold]
    #[inline(never)]
    fn no_piece_in(&self, t: Team, a: AreaId, at: u32) -> Halt {
        self.error(
            at,
            format!(
                "no field piece of {} in {}",
                team_name(t),
                self.rs.board.name(a)
            ),
        )
    }

    pub(super) fn move_field(
        &mut self,
        t: Team,
        from: AreaId,
        to: AreaId,
        at: u32,
    ) -> Result<(), Halt> {
        let i = self.field_piece_in(t, from, at)?;
        self.st.put(t, i, to);
        self.st.pieces[t as usize].moved |= 1 << i;
        self.log_move(t, from, to, false, at);
        Ok(())
    }

    /// Logs a move of a piece of `t` made at instruction `at`.
    fn log_move(&mut self, t: Team, from: AreaId, to: AreaId, keeper: bool, at: u32) {
        if self.logging() {
            self.emit_event_at(
                at,
                EventKind::Move {
                    team: team_name(t).into(),
                    from: self.rs.board.name(from).into(),
                    to: self.rs.board.name(to).into(),
                    keeper,
                },
            );
        }
    }

    pub(super) fn move_keeper(&mut self, t: Team, to: AreaId, at: u32) -> Result<(), Halt> {
        let from = self.st.pieces[t as usize].at[0];
        if from >= GONE {
            return Err(self.error(at, "the goalkeeper is not on the board"));
        }
        self.st.put(t, 0, to);
        self.st.pieces[t as usize].moved |= 1;
        self.log_move(t, from, to, true, at);
        Ok(())
    }
}
