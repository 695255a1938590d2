//! The state of a match: pieces, ball, clock, score and the ruleset's state variables.

use crate::board::{AreaId, AreaSet, Board, MAX_AREAS, Side};
use crate::ruleset::Ruleset;
use crate::value::{Team, Value};

/// Where a piece is when it is not on the board.
pub const OFF: AreaId = u8::MAX;
/// Where a piece is after it has been sent off.
pub const GONE: AreaId = u8::MAX - 1;

/// The pieces of one team. Index 0 is the goalkeeper.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pieces {
    /// Area of each piece ([`OFF`] when waiting to be placed, [`GONE`] when sent off).
    pub at: Vec<AreaId>,
    /// Moved flags, one bit per piece.
    pub moved: u32,
    /// Pieces per area (goalkeeper included).
    pub count: [u8; MAX_AREAS],
}

impl Pieces {
    fn new(n: usize) -> Self {
        Pieces {
            at: vec![OFF; n],
            moved: 0,
            count: [0; MAX_AREAS],
        }
    }

    /// Areas holding at least one piece.
    pub fn occupied(&self) -> AreaSet {
        let mut s = AreaSet::EMPTY;
        for (a, c) in self.count.iter().enumerate() {
            if *c > 0 {
                s.insert(a as AreaId);
            }
        }
        s
    }

    /// Areas holding a field piece (optionally only unmoved ones).
    pub fn field_areas(&self, unmoved_only: bool) -> AreaSet {
        let mut s = AreaSet::EMPTY;
        for (i, a) in self.at.iter().enumerate().skip(1) {
            if *a < GONE && !(unmoved_only && self.moved & (1 << i) != 0) {
                s.insert(*a);
            }
        }
        s
    }

    /// The goalkeeper's part of a move set that is left when only pieces not yet moved may
    /// move (`unmoved_moves`): kept when the goalkeeper has not moved and is where the
    /// set's goalkeeper moves start. The field moves left are those from
    /// [`Pieces::field_areas`]`(true)`.
    pub fn unmoved_keeper(&self, keeper: Option<(AreaId, AreaSet)>) -> Option<(AreaId, AreaSet)> {
        keeper.filter(|&(k, _)| self.moved & 1 == 0 && k == self.at[0])
    }

    /// Field pieces in an area.
    pub fn field_in(&self, a: AreaId) -> u8 {
        self.count[a as usize] - u8::from(self.at[0] == a)
    }

    /// Pieces on the board.
    pub fn on_board(&self) -> usize {
        self.at.iter().filter(|a| **a < GONE).count()
    }
}

/// The time marker.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Default, serde::Serialize)]
pub struct Clock {
    /// The half being played (1-based).
    pub half: u32,
    /// The minute.
    pub minute: i64,
    /// The added minute in stoppage time (0 before).
    pub added: i64,
}

/// The whole state of a match.
#[derive(Clone, Debug, PartialEq)]
pub struct MatchState {
    /// Pieces of home (0) and away (1).
    pub pieces: [Pieces; 2],
    /// The area of the ball.
    pub ball_area: AreaId,
    /// The ball value.
    pub ball_value: i64,
    /// The team controlling the ball.
    pub ball_owner: Team,
    /// The phasing team (alternating-turn editions).
    pub phasing: Team,
    /// The clock.
    pub clock: Clock,
    /// Turn number within the half.
    pub turn: u32,
    /// Turns played in the match.
    pub turns_total: u32,
    /// Goals.
    pub score: [i64; 2],
    /// Match-scope variables.
    pub vars_match: Vec<Value>,
    /// Team-scope variables: `[var][team]`.
    pub vars_team: Vec<[Value; 2]>,
    /// Turn-scope variables.
    pub vars_turn: Vec<Value>,
    /// Team-and-turn-scope variables.
    pub vars_team_turn: Vec<[Value; 2]>,
}

impl MatchState {
    /// The state before the match starts: no piece placed, variables at their initial
    /// values.
    pub fn new(rs: &Ruleset) -> Self {
        let n = rs.pieces as usize;
        MatchState {
            pieces: [Pieces::new(n), Pieces::new(n)],
            ball_area: 0,
            ball_value: rs.ball_values.0,
            ball_owner: 0,
            phasing: 0,
            clock: Clock {
                half: 1,
                minute: 0,
                added: 0,
            },
            turn: 0,
            turns_total: 0,
            score: [0, 0],
            vars_match: rs.vars[0].iter().map(|v| v.init.clone()).collect(),
            vars_team: rs.vars[1]
                .iter()
                .map(|v| [v.init.clone(), v.init.clone()])
                .collect(),
            vars_turn: rs.vars[2].iter().map(|v| v.init.clone()).collect(),
            vars_team_turn: rs.vars[3]
                .iter()
                .map(|v| [v.init.clone(), v.init.clone()])
                .collect(),
        }
    }

    /// Resets the turn-scope variables.
    pub fn reset_turn_vars(&mut self, rs: &Ruleset) {
        for (v, d) in self.vars_turn.iter_mut().zip(&rs.vars[2]) {
            *v = d.init.clone();
        }
        for (v, d) in self.vars_team_turn.iter_mut().zip(&rs.vars[3]) {
            *v = [d.init.clone(), d.init.clone()];
        }
    }

    /// The side a team defends.
    pub fn side(team: Team) -> Side {
        if team == 0 { Side::South } else { Side::North }
    }

    /// Moves piece `i` of `team` to `to` (or [`OFF`]/[`GONE`]).
    pub fn put(&mut self, team: Team, i: usize, to: AreaId) {
        let p = &mut self.pieces[team as usize];
        let from = p.at[i];
        if from < GONE {
            p.count[from as usize] -= 1;
        }
        if to < GONE {
            p.count[to as usize] += 1;
        }
        p.at[i] = to;
    }

    /// The area of the team's `n`-th lowest piece (1-based), counted from its own goal
    /// line, goalkeeper included.
    pub fn lowest(&self, board: &Board, team: Team, n: usize) -> Option<AreaId> {
        let mut left = n.checked_sub(1)?;
        let counts = &self.pieces[team as usize].count;
        for &a in board.low_order(Self::side(team)) {
            let c = counts[a as usize] as usize;
            if left < c {
                return Some(a);
            }
            left -= c;
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Two field pieces (one moved) and a goalkeeper in area 3.
    fn pieces() -> Pieces {
        let mut p = Pieces::new(3);
        p.at = vec![3, 5, 7];
        p.moved = 1 << 2;
        p
    }

    /// `unmoved_moves` keeps the field moves of the areas of pieces not yet moved, and the
    /// goalkeeper's moves only from where the goalkeeper is, before it has moved.
    #[test]
    fn unmoved_part_of_a_move_set() {
        let mut p = pieces();
        let to = AreaSet(0b11);
        assert_eq!(p.unmoved_keeper(Some((3, to))), Some((3, to)));
        assert_eq!(p.field_areas(true), AreaSet::one(5));
        assert_eq!(p.unmoved_keeper(Some((4, to))), None);
        p.moved |= 1;
        assert_eq!(p.unmoved_keeper(Some((3, to))), None);
        assert_eq!(p.unmoved_keeper(None), None);
        assert_eq!(p.field_areas(true), AreaSet::one(5));
    }
}
