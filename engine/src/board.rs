//! The board: areas, their row spans, links with directions, zones, marks and per-area
//! numbers, all read from the ruleset's `[board]` table (see `docs/ruleset-format.md`).
//!
//! Geometry that rules ask for again and again (adjacency, distances, "closer to a goal
//! line", same level, halves) is computed once here, as bit sets.

use std::collections::BTreeMap;
use std::fmt;

/// The largest number of areas a board may have.
pub const MAX_AREAS: usize = 32;

mod rows;
pub use rows::MAX_ROW;

/// An area of the board, by index.
pub type AreaId = u8;

/// A set of areas, as bits.
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct AreaSet(pub u32);

impl AreaSet {
    /// No area.
    pub const EMPTY: AreaSet = AreaSet(0);
    /// The set holding one area.
    pub fn one(a: AreaId) -> AreaSet {
        AreaSet(1 << a)
    }
    /// Whether `a` is in the set.
    pub fn has(self, a: AreaId) -> bool {
        self.0 & (1 << a) != 0
    }
    /// Adds `a`.
    pub fn insert(&mut self, a: AreaId) {
        self.0 |= 1 << a;
    }
    /// Whether the set is empty.
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }
    /// Number of areas in the set.
    pub fn len(self) -> u32 {
        self.0.count_ones()
    }
    /// The areas, in index order.
    pub fn iter(self) -> impl Iterator<Item = AreaId> {
        let mut bits = self.0;
        std::iter::from_fn(move || {
            if bits == 0 {
                None
            } else {
                let a = bits.trailing_zeros() as AreaId;
                bits &= bits - 1;
                Some(a)
            }
        })
    }
    /// Union.
    pub fn union(self, o: AreaSet) -> AreaSet {
        AreaSet(self.0 | o.0)
    }
    /// Intersection.
    pub fn inter(self, o: AreaSet) -> AreaSet {
        AreaSet(self.0 & o.0)
    }
    /// Difference.
    pub fn minus(self, o: AreaSet) -> AreaSet {
        AreaSet(self.0 & !o.0)
    }
}

impl fmt::Debug for AreaSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_set().entries(self.iter()).finish()
    }
}

/// The two goal lines. A team defends one of them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Side {
    /// The goal line at row 0.
    South,
    /// The goal line at the top row.
    North,
}

impl Side {
    /// Index 0 for south, 1 for north.
    pub fn index(self) -> usize {
        match self {
            Side::South => 0,
            Side::North => 1,
        }
    }
}

/// How two linked areas touch, seen by a team attacking north.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LinkKind {
    /// Along the length of the pitch (a straight forward/backward move).
    Straight,
    /// Across the pitch.
    Sideways,
    /// Touching only at a corner point.
    Diagonal,
}

/// Direction of a move relative to the team making it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Direction {
    /// Straight toward the opponent's goal line.
    Forward,
    /// Straight toward the team's own goal line.
    Backward,
    /// Across the pitch.
    Sideways,
    /// Through a corner point.
    Diagonal,
    /// The two areas are not linked.
    None,
}

/// One area of the board.
#[derive(Clone, Debug)]
pub struct Area {
    /// Its name, as rules write it (`S_BOX`).
    pub name: String,
    /// First row of its span.
    pub from: i32,
    /// Last row of its span.
    pub to: i32,
    /// The goal line it touches, if any.
    pub goal_line: Option<Side>,
    /// The same area seen from the other end (mirror image).
    pub mirror: AreaId,
    /// Zone names, for the team defending south and north.
    pub zone: [String; 2],
}

/// The board: areas and their geometry.
#[derive(Clone, Debug)]
pub struct Board {
    /// Areas by index.
    pub areas: Vec<Area>,
    /// The row of the halfway line.
    pub halfway: i32,
    links: Vec<(AreaId, AreaId, LinkKind)>,
    adjacent: Vec<AreaSet>,
    distance: Vec<Vec<u8>>,
    /// `straight[side][a]`: areas straight forward of `a` for the team defending `side`.
    forward: [Vec<AreaSet>; 2],
    backward: [Vec<AreaSet>; 2],
    sideways: Vec<AreaSet>,
    diagonal: Vec<AreaSet>,
    /// `closer[side][a]`: areas closer to the goal line the team defending `side` attacks.
    closer: [Vec<AreaSet>; 2],
    same_level: Vec<AreaSet>,
    /// `reaching[side][a]`: areas starting beyond `a` toward the attacked goal line.
    reaching: [Vec<AreaSet>; 2],
    /// `behind[side][a]`: areas than which `a` is closer to the goal line attacked by the
    /// team defending `side`.
    behind: [Vec<AreaSet>; 2],
    /// Areas from the lowest to the highest, for the team defending each side.
    low_order: [Vec<AreaId>; 2],
    /// Areas touching the goal line of each side, then of either.
    goal_lines: [AreaSet; 3],
    /// Areas at least partly in the half of the team defending each side.
    halves: [AreaSet; 2],
    /// Named area sets per side (`box`, `corner`, `kickoff`...).
    pub marks: BTreeMap<String, [AreaSet; 2]>,
    /// Named per-area numbers, as seen by the team attacking north.
    pub numbers: BTreeMap<String, Vec<Option<i64>>>,
}

/// A board description that cannot be used, with the key it concerns.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BoardError {
    /// Path of the offending key (`board.links[3]`).
    pub key: String,
    /// What is wrong.
    pub message: String,
}

/// One area as written: name, first and last row, goal line, mirror name, zones (for
/// the team defending south, north).
pub type AreaSpec = (String, i32, i32, Option<Side>, String, [String; 2]);

/// Raw board data, as read from TOML, before it is checked.
#[derive(Clone, Debug, Default)]
pub struct BoardSpec {
    /// Row of the halfway line.
    pub halfway: i32,
    /// Areas.
    pub areas: Vec<AreaSpec>,
    /// Links: two area names and a kind.
    pub links: Vec<(String, String, LinkKind)>,
    /// Marks: name, area names for the south side, for the north side.
    pub marks: Vec<(String, Vec<String>, Vec<String>)>,
    /// Numbers: name, (area name, value) as seen attacking north.
    pub numbers: Vec<(String, Vec<(String, i64)>)>,
}

/// The rank of an area counted from the goal line of `side`: (far edge, near edge).
fn lowness(ar: &Area, side: Side) -> (i32, i32) {
    match side {
        Side::South => (ar.to, ar.from),
        Side::North => (-ar.from, -ar.to),
    }
}

impl Board {
    /// Builds and checks a board.
    pub fn new(spec: &BoardSpec) -> Result<Board, BoardError> {
        let err = |key: String, message: String| BoardError { key, message };
        if spec.areas.is_empty() || spec.areas.len() > MAX_AREAS {
            return Err(err(
                "board.areas".into(),
                format!(
                    "a board has 1 to {MAX_AREAS} areas, found {}",
                    spec.areas.len()
                ),
            ));
        }
        let index: BTreeMap<&str, AreaId> = spec
            .areas
            .iter()
            .enumerate()
            .map(|(i, a)| (a.0.as_str(), i as AreaId))
            .collect();
        let find = |key: String, name: &str| -> Result<AreaId, BoardError> {
            index
                .get(name)
                .copied()
                .ok_or_else(|| err(key, format!("unknown area `{name}`")))
        };
        rows::check(spec)?;
        let mut areas = Vec::new();
        for (name, from, to, goal, mirror, zone) in &spec.areas {
            areas.push(Area {
                name: name.clone(),
                from: *from,
                to: *to,
                goal_line: *goal,
                mirror: find(format!("board.areas.{name}.mirror"), mirror)?,
                zone: zone.clone(),
            });
        }
        let n = areas.len();
        let mut links = Vec::new();
        let mut adjacent = vec![AreaSet::EMPTY; n];
        for (i, (a, b, k)) in spec.links.iter().enumerate() {
            let a = find(format!("board.links[{i}]"), a)?;
            let b = find(format!("board.links[{i}]"), b)?;
            if a == b || adjacent[a as usize].has(b) {
                return Err(err(
                    format!("board.links[{i}]"),
                    "a link joins two different areas, once".into(),
                ));
            }
            adjacent[a as usize].insert(b);
            adjacent[b as usize].insert(a);
            links.push((a, b, *k));
        }
        // Shortest paths in links (breadth first from every area).
        let mut distance = vec![vec![u8::MAX; n]; n];
        for (s, row) in distance.iter_mut().enumerate() {
            row[s] = 0;
            let mut frontier = AreaSet::one(s as AreaId);
            let mut seen = frontier;
            let mut d = 0u8;
            while !frontier.is_empty() {
                d += 1;
                let mut next = AreaSet::EMPTY;
                for a in frontier.iter() {
                    next = next.union(adjacent[a as usize]);
                }
                next = next.minus(seen);
                for a in next.iter() {
                    row[a as usize] = d;
                }
                seen = seen.union(next);
                frontier = next;
            }
        }
        let mut forward = [vec![AreaSet::EMPTY; n], vec![AreaSet::EMPTY; n]];
        let mut backward = [vec![AreaSet::EMPTY; n], vec![AreaSet::EMPTY; n]];
        let mut sideways = vec![AreaSet::EMPTY; n];
        let mut diagonal = vec![AreaSet::EMPTY; n];
        for &(a, b, k) in &links {
            let (ai, bi) = (a as usize, b as usize);
            match k {
                LinkKind::Straight => {
                    // For the team defending south, "forward" is toward higher rows.
                    let (lo, hi) = if areas[ai].from + areas[ai].to < areas[bi].from + areas[bi].to
                    {
                        (a, b)
                    } else {
                        (b, a)
                    };
                    forward[0][lo as usize].insert(hi);
                    backward[0][hi as usize].insert(lo);
                    forward[1][hi as usize].insert(lo);
                    backward[1][lo as usize].insert(hi);
                }
                LinkKind::Sideways => {
                    sideways[ai].insert(b);
                    sideways[bi].insert(a);
                }
                LinkKind::Diagonal => {
                    diagonal[ai].insert(b);
                    diagonal[bi].insert(a);
                }
            }
        }
        let mut closer = [vec![AreaSet::EMPTY; n], vec![AreaSet::EMPTY; n]];
        let mut same_level = vec![AreaSet::EMPTY; n];
        for i in 0..n {
            for j in 0..n {
                let (x, y) = (&areas[i], &areas[j]);
                // j is closer to the north goal line than i.
                if y.from >= x.to {
                    closer[0][i].insert(j as AreaId);
                }
                if y.to <= x.from {
                    closer[1][i].insert(j as AreaId);
                }
                if x.from.max(y.from) < x.to.min(y.to) {
                    same_level[i].insert(j as AreaId);
                }
            }
        }
        // `reaching[side][i]`: areas whose edge toward the own goal line of the team
        // defending `side` lies farther from that line than area i's does.
        let mut reaching = [vec![AreaSet::EMPTY; n], vec![AreaSet::EMPTY; n]];
        for i in 0..n {
            for j in 0..n {
                let (x, y) = (&areas[i], &areas[j]);
                if y.from > x.from {
                    reaching[0][i].insert(j as AreaId);
                }
                if y.to < x.to {
                    reaching[1][i].insert(j as AreaId);
                }
            }
        }
        let mut behind = [vec![AreaSet::EMPTY; n], vec![AreaSet::EMPTY; n]];
        for (b, c) in behind.iter_mut().zip(&closer) {
            for (d, ahead) in c.iter().enumerate() {
                for a in ahead.iter() {
                    b[a as usize].insert(d as AreaId);
                }
            }
        }
        let mut low_order: [Vec<AreaId>; 2] =
            [(0..n as AreaId).collect(), (0..n as AreaId).collect()];
        for (side, order) in [Side::South, Side::North]
            .into_iter()
            .zip(low_order.iter_mut())
        {
            order.sort_by_key(|a| (lowness(&areas[*a as usize], side), *a));
        }
        let mut marks = BTreeMap::new();
        for (name, south, north) in &spec.marks {
            let mut sets = [AreaSet::EMPTY; 2];
            for (side, names) in [south, north].into_iter().enumerate() {
                for a in names {
                    sets[side].insert(find(format!("board.marks.{name}"), a)?);
                }
            }
            marks.insert(name.clone(), sets);
        }
        let mut numbers = BTreeMap::new();
        for (name, values) in &spec.numbers {
            let mut v = vec![None; n];
            for (a, x) in values {
                v[find(format!("board.numbers.{name}"), a)? as usize] = Some(*x);
            }
            numbers.insert(name.clone(), v);
        }
        let mut goal_lines = [AreaSet::EMPTY; 3];
        let mut halves = [AreaSet::EMPTY; 2];
        for (i, ar) in areas.iter().enumerate() {
            if let Some(side) = ar.goal_line {
                goal_lines[side.index()].insert(i as AreaId);
                goal_lines[2].insert(i as AreaId);
            }
            if ar.from < spec.halfway {
                halves[Side::South.index()].insert(i as AreaId);
            }
            if ar.to > spec.halfway {
                halves[Side::North.index()].insert(i as AreaId);
            }
        }
        Ok(Board {
            areas,
            goal_lines,
            halves,
            halfway: spec.halfway,
            links,
            adjacent,
            distance,
            forward,
            backward,
            sideways,
            diagonal,
            closer,
            same_level,
            reaching,
            behind,
            low_order,
            marks,
            numbers,
        })
    }

    /// Number of areas.
    pub fn len(&self) -> usize {
        self.areas.len()
    }

    /// Whether the board has no areas (never true for a checked board).
    pub fn is_empty(&self) -> bool {
        self.areas.is_empty()
    }

    /// Every area.
    pub fn all(&self) -> AreaSet {
        AreaSet(((1u64 << self.areas.len()) - 1) as u32)
    }

    /// The area with this name.
    pub fn find(&self, name: &str) -> Option<AreaId> {
        self.areas
            .iter()
            .position(|a| a.name == name)
            .map(|i| i as AreaId)
    }

    /// The name of an area.
    pub fn name(&self, a: AreaId) -> &str {
        &self.areas[a as usize].name
    }

    /// Areas sharing a border or a corner with `a`.
    pub fn adjacent(&self, a: AreaId) -> AreaSet {
        self.adjacent[a as usize]
    }

    /// Areas adjacent to any area of `s`.
    pub fn adjacent_set(&self, s: AreaSet) -> AreaSet {
        s.iter().fold(AreaSet::EMPTY, |acc, a| {
            acc.union(self.adjacent[a as usize])
        })
    }

    /// Links on the shortest path from `a` to `b` (255 when unreachable).
    pub fn distance(&self, a: AreaId, b: AreaId) -> u8 {
        self.distance[a as usize][b as usize]
    }

    /// Areas between `a` and `b`: the shortest path in links, less one, never negative.
    pub fn between(&self, a: AreaId, b: AreaId) -> i64 {
        (i64::from(self.distance(a, b)) - 1).max(0)
    }

    /// Neighbours of the areas of `s` in one direction, for the team defending `side`.
    pub fn step(&self, s: AreaSet, dir: Direction, side: Side) -> AreaSet {
        let table: &[AreaSet] = match dir {
            Direction::Forward => &self.forward[side.index()],
            Direction::Backward => &self.backward[side.index()],
            Direction::Sideways => &self.sideways,
            Direction::Diagonal => &self.diagonal,
            Direction::None => return AreaSet::EMPTY,
        };
        s.iter()
            .fold(AreaSet::EMPTY, |acc, a| acc.union(table[a as usize]))
    }

    /// The direction of a one-link move from `a` to `b` for the team defending `side`.
    pub fn direction(&self, a: AreaId, b: AreaId, side: Side) -> Direction {
        let one = AreaSet::one(a);
        for d in [
            Direction::Forward,
            Direction::Backward,
            Direction::Sideways,
            Direction::Diagonal,
        ] {
            if self.step(one, d, side).has(b) {
                return d;
            }
        }
        Direction::None
    }

    /// Areas closer than `a` to the goal line attacked by the team defending `side`.
    pub fn closer(&self, a: AreaId, side: Side) -> AreaSet {
        self.closer[side.index()][a as usize]
    }

    /// Areas that begin farther from the own goal line of the team defending `side` than
    /// `a` begins: they reach toward the goal line it attacks beyond `a`, level or not.
    pub fn reaching(&self, a: AreaId, side: Side) -> AreaSet {
        self.reaching[side.index()][a as usize]
    }

    /// Areas farther than some area of `s` from the goal line attacked by the team
    /// defending `side`.
    pub fn behind(&self, s: AreaSet, side: Side) -> AreaSet {
        s.iter().fold(AreaSet::EMPTY, |acc, a| {
            acc.union(self.behind[side.index()][a as usize])
        })
    }

    /// Areas at least partly at the same level as `a` (overlapping on more than a point).
    pub fn same_level(&self, a: AreaId) -> AreaSet {
        self.same_level[a as usize]
    }

    /// Whether `a` lies entirely in the half of the team defending `side`.
    pub fn entirely_in_half(&self, a: AreaId, side: Side) -> bool {
        let ar = &self.areas[a as usize];
        match side {
            Side::South => ar.to <= self.halfway,
            Side::North => ar.from >= self.halfway,
        }
    }

    /// Whether `a` lies at least partly in the half of the team defending `side`.
    pub fn partly_in_half(&self, a: AreaId, side: Side) -> bool {
        let ar = &self.areas[a as usize];
        match side {
            Side::South => ar.from < self.halfway,
            Side::North => ar.to > self.halfway,
        }
    }

    /// Areas touching the goal line of `side` (`None`: either goal line).
    #[inline]
    pub fn goal_line_areas(&self, side: Option<Side>) -> AreaSet {
        self.goal_lines[side.map_or(2, Side::index)]
    }

    /// Areas at least partly in the half of the team defending `side`
    /// ([`Board::partly_in_half`] of every area).
    #[inline]
    pub fn half_areas(&self, side: Side) -> AreaSet {
        self.halves[side.index()]
    }

    /// The rank of `a` counted from the goal line of `side`: (far edge, near edge),
    /// smaller is lower.
    pub fn lowness(&self, a: AreaId, side: Side) -> (i32, i32) {
        lowness(&self.areas[a as usize], side)
    }

    /// Every area, from the lowest to the highest for the team defending `side` (ties by
    /// index).
    pub fn low_order(&self, side: Side) -> &[AreaId] {
        &self.low_order[side.index()]
    }

    /// The zone name of `a` for the team defending `side`.
    pub fn zone(&self, a: AreaId, side: Side) -> &str {
        &self.areas[a as usize].zone[side.index()]
    }

    /// A named per-area number for a team attacking away from `side` (the data is written
    /// for the team defending south; the other team reads the mirror image).
    pub fn number(&self, name: &str, a: AreaId, side: Side) -> Option<i64> {
        let v = self.numbers.get(name)?;
        let a = match side {
            Side::South => a,
            Side::North => self.areas[a as usize].mirror,
        };
        v[a as usize]
    }

    /// The links, for tools that draw or list the board.
    pub fn links(&self) -> &[(AreaId, AreaId, LinkKind)] {
        &self.links
    }
}

#[cfg(test)]
mod tests;
