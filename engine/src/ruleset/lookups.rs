//! Symbols the machine would otherwise find by name on every use: the zone of each
//! area, the names of directions, the board's marks by their symbol. Built once when a
//! ruleset is loaded.

use std::collections::HashMap;

use super::symbols::Symbols;
use crate::board::{AreaSet, Board, Direction, Side};
use crate::value::Sym;

/// Look-ups by symbol, built by [`Lookups::build`]. Empty (every look-up `None`) until then;
/// callers fall back to finding the name.
#[derive(Debug, Clone, Default)]
pub struct Lookups {
    /// The zone symbol of each area, for the team defending south and north.
    zones: Vec<[Option<Sym>; 2]>,
    /// The symbols of "forward", "backward", "sideways", "diagonal", "none".
    directions: [Option<Sym>; 5],
    /// A board mark by the symbol of its name.
    marks: HashMap<Sym, [AreaSet; 2]>,
}

/// The name of a direction, as rules compare it.
pub fn direction_name(d: Direction) -> &'static str {
    match d {
        Direction::Forward => "forward",
        Direction::Backward => "backward",
        Direction::Sideways => "sideways",
        Direction::Diagonal => "diagonal",
        Direction::None => "none",
    }
}

fn direction_index(d: Direction) -> usize {
    match d {
        Direction::Forward => 0,
        Direction::Backward => 1,
        Direction::Sideways => 2,
        Direction::Diagonal => 3,
        Direction::None => 4,
    }
}

impl Lookups {
    /// The look-ups of a loaded ruleset's board (for the symbols interned so far).
    pub fn build(b: &Board, symbols: &Symbols) -> Lookups {
        let zones = (0..b.areas.len())
            .map(|a| [Side::South, Side::North].map(|s| symbols.get(b.zone(a as u8, s))))
            .collect();
        let directions = [
            Direction::Forward,
            Direction::Backward,
            Direction::Sideways,
            Direction::Diagonal,
            Direction::None,
        ]
        .map(|d| symbols.get(direction_name(d)));
        let marks = b
            .marks
            .iter()
            .filter_map(|(name, sets)| Some((symbols.get(name)?, *sets)))
            .collect();
        Lookups {
            zones,
            directions,
            marks,
        }
    }

    /// The zone symbol of area `a` for the team defending `side`.
    pub fn zone(&self, a: u8, side: Side) -> Option<Sym> {
        self.zones.get(a as usize).and_then(|z| z[side.index()])
    }

    /// The symbol of a direction's name.
    pub fn direction(&self, d: Direction) -> Option<Sym> {
        self.directions[direction_index(d)]
    }

    /// A board mark by the symbol of its name.
    pub fn mark(&self, name: Sym) -> Option<&[AreaSet; 2]> {
        self.marks.get(&name)
    }
}
