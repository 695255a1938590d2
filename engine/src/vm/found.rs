//! Moves a loop that only gathers moves found ([`Found`]), kept aside until every round
//! has run, and how they are added to a move set ([`add_moves`], as `moves(t, from, to)`
//! gives them).

use crate::board::{AreaId, AreaSet};
use crate::state::Pieces;
use crate::value::{MoveSet, Team};

/// The most moves a loop keeps aside before adding them: every area of a board times two
/// gathering sets is far below it; a loop that finds more gives up to its stack code.
pub(crate) const MAX_FOUND: usize = 128;

/// Moves found: which set, the team, the start area and the destinations.
pub(crate) type Found = (u8, Team, AreaId, AreaSet);

/// Keeps a move found aside; `None` (the loop gives up) past [`MAX_FOUND`].
pub(crate) fn push_found(found: &mut Vec<Found>, f: Found) -> Option<()> {
    if found.len() >= MAX_FOUND {
        return None;
    }
    found.push(f);
    Some(())
}

/// Adds the moves of the field piece in `from` to `ms`, as `moves(t, from, to)` gives
/// them: an unmoved field piece of the team must stand there, and it may not stay where
/// it is.
pub(crate) fn add_moves(pieces: &Pieces, ms: &mut MoveSet, from: AreaId, to: AreaSet) {
    add_moves_of(pieces.field_areas(true), ms, from, to);
}

/// [`add_moves`] given the areas of the team's unmoved field pieces
/// ([`Pieces::field_areas`]`(true)`), worked out once for all the moves a loop found
/// (a search of the pieces for each move found cost about 2% of an original match's
/// time, most of it in its unpredictable exit).
pub(super) fn add_moves_of(unmoved: AreaSet, ms: &mut MoveSet, from: AreaId, to: AreaSet) {
    if usize::from(from) < ms.field.len() && unmoved.has(from) {
        let f = &mut ms.field[from as usize];
        *f = f.union(to.minus(AreaSet::one(from)));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::state::{GONE, OFF};

    /// A field piece not yet moved gives its moves (not staying where it is); a moved
    /// piece, the goalkeeper, a piece off the board or an empty area give none.
    #[test]
    fn moves_are_added_for_unmoved_field_pieces_only() {
        let pieces = Pieces {
            at: vec![3, 5, 7, OFF, GONE, 7],
            moved: 1 << 1 | 1 << 5,
            count: [0; crate::board::MAX_AREAS],
        };
        let to = AreaSet(1 << 7 | 1 << 8 | 1 << 3);
        for from in 0..32 {
            let mut ms = MoveSet::default();
            add_moves(&pieces, &mut ms, from, to);
            // Brute force: some field piece stands there and has not moved.
            let live =
                (1..pieces.at.len()).any(|i| pieces.at[i] == from && pieces.moved & (1 << i) == 0);
            let want = if live {
                to.minus(AreaSet::one(from))
            } else {
                AreaSet::EMPTY
            };
            assert_eq!(ms.field[from as usize], want, "from {from}");
        }
        let mut ms = MoveSet::default();
        add_moves(&pieces, &mut ms, 7, to);
        assert_eq!(ms.field[7], AreaSet(1 << 8 | 1 << 3));
    }
}
