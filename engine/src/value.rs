//! Values and types of the effect language at run time.

use std::fmt;
use std::sync::Arc;

use crate::board::{AreaId, AreaSet, MAX_AREAS};

/// A team: 0 is home (defends the south goal line), 1 is away.
pub type Team = u8;

/// A string interned in the ruleset's symbol table.
pub type Sym = u32;

/// The dice of one roll, in the order rolled.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Dice {
    /// How many dice.
    pub n: u8,
    /// Their results.
    pub d: [u8; 8],
}

impl Dice {
    /// The results as a slice.
    pub fn as_slice(&self) -> &[u8] {
        &self.d[..self.n as usize]
    }
    /// The sum of the dice.
    pub fn sum(&self) -> i64 {
        self.as_slice().iter().map(|&x| i64::from(x)).sum()
    }
}

impl fmt::Debug for Dice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:?}", self.as_slice())
    }
}

/// One move of a piece: from an area to another, a goalkeeper or a field piece.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Move {
    /// The area the piece leaves.
    pub from: AreaId,
    /// The area it reaches.
    pub to: AreaId,
    /// Whether the piece is the goalkeeper.
    pub keeper: bool,
}

/// A set of moves of one team: for each start area, the areas a field piece may reach,
/// and the goalkeeper's destinations.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct MoveSet {
    /// Destinations of a field piece by start area.
    pub field: [AreaSet; MAX_AREAS],
    /// The goalkeeper's start area and destinations.
    pub keeper: Option<(AreaId, AreaSet)>,
}

impl Default for MoveSet {
    fn default() -> Self {
        MoveSet {
            field: [AreaSet::EMPTY; MAX_AREAS],
            keeper: None,
        }
    }
}

impl MoveSet {
    /// The moves, in a fixed order: goalkeeper first, then by start and end area.
    pub fn iter(&self) -> impl Iterator<Item = Move> + '_ {
        let k = self.keeper.into_iter().flat_map(|(from, to)| {
            to.iter().map(move |t| Move {
                from,
                to: t,
                keeper: true,
            })
        });
        let f = self.field.iter().enumerate().flat_map(|(from, to)| {
            to.iter().map(move |t| Move {
                from: from as AreaId,
                to: t,
                keeper: false,
            })
        });
        k.chain(f)
    }
    /// How many moves.
    pub fn len(&self) -> usize {
        self.field.iter().map(|s| s.len() as usize).sum::<usize>()
            + self.keeper.map_or(0, |(_, s)| s.len() as usize)
    }
    /// Whether there is no move.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// Adds the moves of `o` to this set.
    pub fn union_with(&mut self, o: &MoveSet) {
        for (a, b) in self.field.iter_mut().zip(o.field.iter()) {
            *a = a.union(*b);
        }
        self.keeper = match (self.keeper, o.keeper) {
            (Some((a, s)), Some((_, t))) => Some((a, s.union(t))),
            (x, None) | (None, x) => x,
        };
    }
    /// Whether the set holds `m`.
    pub fn has(&self, m: Move) -> bool {
        if m.keeper {
            matches!(self.keeper, Some((a, s)) if a == m.from && s.has(m.to))
        } else {
            self.field[m.from as usize].has(m.to)
        }
    }
}

/// A run-time value.
///
/// Two words (checked below): a 32-bit tag, then the payload — the 32-bit kinds right
/// after the tag, an integer or a pointer in the second word (a list is a thin `Arc` for
/// that). A two-word value is copied in two moves and passed and returned in registers;
/// at three words (a full-word tag and a fat list pointer) the rules machine ran 4% more
/// instructions per match. A one-byte tag made the old tree-walking interpreter stall on
/// unaligned payloads.
#[derive(Clone, PartialEq, Debug, Default)]
#[repr(u32)]
pub enum Value {
    /// No value.
    #[default]
    None,
    /// An integer.
    Int(i64),
    /// A boolean.
    Bool(bool),
    /// A string (interned).
    Str(Sym),
    /// A team.
    Team(Team),
    /// An area.
    Area(AreaId),
    /// A set of areas.
    Areas(AreaSet),
    /// The dice of one roll.
    Dice(Dice),
    /// One move.
    Move(Move),
    /// A set of moves.
    Moves(Arc<MoveSet>),
    /// A list of integers.
    List(Arc<Vec<i64>>),
}

/// Static types, checked when a ruleset is loaded.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum Ty {
    /// Any type (where the checker cannot know, or does not care).
    Any,
    /// No value (statements, `none`).
    None,
    /// `int`.
    Int,
    /// `bool`.
    Bool,
    /// `str`.
    Str,
    /// `team`.
    Team,
    /// `area`.
    Area,
    /// `areas`.
    Areas,
    /// `dice`.
    Dice,
    /// `move`.
    Move,
    /// `moves`.
    Moves,
    /// `list`.
    List,
}

impl Ty {
    /// The type named in a parameter list.
    pub fn from_name(s: &str) -> Option<Ty> {
        Some(match s {
            "int" => Ty::Int,
            "bool" => Ty::Bool,
            "str" => Ty::Str,
            "team" => Ty::Team,
            "area" => Ty::Area,
            "areas" => Ty::Areas,
            "dice" => Ty::Dice,
            "move" => Ty::Move,
            "moves" => Ty::Moves,
            "list" => Ty::List,
            "any" => Ty::Any,
            _ => return None,
        })
    }

    /// Whether a value of type `self` may be used where `want` is expected.
    pub fn fits(self, want: Ty) -> bool {
        self == want
            || want == Ty::Any
            || self == Ty::Any
            || (self == Ty::Area && want == Ty::Areas)
    }
}

impl fmt::Display for Ty {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Ty::Any => "any",
            Ty::None => "none",
            Ty::Int => "int",
            Ty::Bool => "bool",
            Ty::Str => "str",
            Ty::Team => "team",
            Ty::Area => "area",
            Ty::Areas => "areas",
            Ty::Dice => "dice",
            Ty::Move => "move",
            Ty::Moves => "moves",
            Ty::List => "list",
        })
    }
}
// The rules machine moves values in two registers.
const _: () = assert!(std::mem::size_of::<Value>() == 16);

#[cfg(test)]
mod tests {
    use super::*;

    fn field(from: AreaId, to: AreaId) -> Move {
        Move {
            from,
            to,
            keeper: false,
        }
    }

    fn keeper(from: AreaId, to: AreaId) -> Move {
        Move {
            from,
            to,
            keeper: true,
        }
    }

    /// Field moves 3 -> {1, 4} and 0 -> {2}; the goalkeeper 5 -> {6, 5}.
    fn some_moves() -> MoveSet {
        let mut m = MoveSet::default();
        m.field[3] = AreaSet(0b1_0010);
        m.field[0] = AreaSet::one(2);
        m.keeper = Some((5, AreaSet(0b110_0000)));
        m
    }

    #[test]
    fn dice_show_the_dice_rolled_in_order() {
        let d = Dice {
            n: 3,
            d: [6, 1, 4, 9, 9, 9, 9, 9],
        };
        assert_eq!(d.as_slice(), [6, 1, 4]);
        assert_eq!(d.sum(), 11);
        assert_eq!(format!("{d:?}"), "[6, 1, 4]");
        assert_eq!(Dice::default().sum(), 0);
        assert!(Dice::default().as_slice().is_empty());
    }

    #[test]
    fn a_move_set_lists_the_goalkeeper_first_then_by_start_and_end() {
        let m = some_moves();
        assert_eq!(
            m.iter().collect::<Vec<_>>(),
            [
                keeper(5, 5),
                keeper(5, 6),
                field(0, 2),
                field(3, 1),
                field(3, 4)
            ]
        );
        assert_eq!(m.len(), 5);
        assert!(!m.is_empty());
        assert!(MoveSet::default().is_empty());
        assert_eq!(MoveSet::default().iter().count(), 0);
    }

    #[test]
    fn a_move_set_holds_a_move_only_for_the_right_piece() {
        let m = some_moves();
        assert!(m.has(field(3, 4)));
        assert!(!m.has(field(3, 2)));
        assert!(m.has(keeper(5, 6)));
        // The goalkeeper's destinations are not a field piece's, nor from another area.
        assert!(!m.has(field(5, 6)));
        assert!(!m.has(keeper(3, 4)));
        assert!(!m.has(keeper(4, 6)));
    }

    #[test]
    fn a_union_of_move_sets_adds_every_move() {
        let mut a = some_moves();
        let mut b = MoveSet::default();
        b.field[3] = AreaSet::one(7);
        b.field[9] = AreaSet::one(8);
        b.keeper = Some((5, AreaSet::one(4)));
        a.union_with(&b);
        assert_eq!(a.len(), 8);
        assert!(a.has(field(3, 1)) && a.has(field(3, 7)) && a.has(field(9, 8)));
        assert!(a.has(keeper(5, 4)) && a.has(keeper(5, 6)));
        // A set without a goalkeeper's moves keeps the other's.
        let mut c = MoveSet::default();
        c.union_with(&some_moves());
        assert_eq!(c, some_moves());
        let mut d = some_moves();
        d.union_with(&MoveSet::default());
        assert_eq!(d, some_moves());
    }

    #[test]
    fn every_type_is_named_as_rules_write_it() {
        use Ty::*;
        for t in [
            Any, None, Int, Bool, Str, Team, Area, Areas, Dice, Move, Moves, List,
        ] {
            let name = t.to_string();
            let back = Ty::from_name(&name);
            // `none` is the type of statements, never written in a parameter list.
            if t == None {
                assert_eq!(back, Option::None);
            } else {
                assert_eq!(back, Some(t), "{name}");
            }
        }
        assert_eq!(Ty::from_name("integer"), Option::None);
    }

    #[test]
    fn an_area_fits_where_areas_are_wanted_and_any_fits_everywhere() {
        assert!(Ty::Area.fits(Ty::Areas));
        assert!(!Ty::Areas.fits(Ty::Area));
        assert!(Ty::Int.fits(Ty::Any) && Ty::Any.fits(Ty::Int));
        assert!(Ty::Bool.fits(Ty::Bool));
        assert!(!Ty::Bool.fits(Ty::Int) && !Ty::Int.fits(Ty::Bool));
        assert!(!Ty::Move.fits(Ty::Moves));
    }

    #[test]
    fn the_default_value_is_none() {
        assert_eq!(Value::default(), Value::None);
        assert_ne!(Value::Int(1), Value::Bool(true));
        assert_ne!(Value::Team(1), Value::Area(1));
    }
}
