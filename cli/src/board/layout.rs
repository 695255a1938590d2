//! Where each area of a ruleset's board is drawn, from the board data alone.
//!
//! Rows come from each area's row span (north at the top). Columns come from the links:
//! areas joined by straight links (along the pitch) form one column; a sideways link
//! puts two columns side by side. Columns are placed outward from the longest one, each
//! next to the column it is linked sideways to, on the first side where it overlaps no
//! column already there (by rows); the side tried first is the left one, for the column
//! whose areas come first in the file. So the original board is three columns (west
//! wing, centre, east wing), and a board with corner-kick spots beyond the corners gets
//! them as narrow columns outside.

use fuba_engine::board::{Board, LinkKind};

/// One area's rectangle, in board units (one column wide, one row high).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Rect {
    /// Left edge, in columns.
    pub x: f64,
    /// Top edge, in rows from the top (north).
    pub y: f64,
    /// Width, in columns.
    pub w: f64,
    /// Height, in rows.
    pub h: f64,
}

impl Rect {
    /// The centre point.
    pub fn centre(&self) -> (f64, f64) {
        (self.x + self.w / 2.0, self.y + self.h / 2.0)
    }
}

/// The board as drawn: a rectangle per area (by area index) and the whole size.
#[derive(Debug, Clone)]
pub struct Layout {
    /// Each area's rectangle.
    pub areas: Vec<Rect>,
    /// Columns in all.
    pub columns: f64,
    /// Rows in all.
    pub rows: f64,
    /// The halfway line, in rows from the top.
    pub halfway: f64,
}

/// Finds the set of `x` in a union-find forest.
fn root(parent: &mut [usize], mut x: usize) -> usize {
    while parent[x] != x {
        parent[x] = parent[parent[x]];
        x = parent[x];
    }
    x
}

/// Whether two row spans overlap on more than a point.
fn overlap(a: (i32, i32), b: (i32, i32)) -> bool {
    a.0.max(b.0) < a.1.min(b.1)
}

impl Layout {
    /// Lays out `board`.
    pub fn of(board: &Board) -> Layout {
        let n = board.areas.len();
        let mut parent: Vec<usize> = (0..n).collect();
        for &(a, b, kind) in board.links() {
            if kind == LinkKind::Straight {
                let (ra, rb) = (root(&mut parent, a as usize), root(&mut parent, b as usize));
                parent[ra.max(rb)] = ra.min(rb);
            }
        }
        // Columns, by their first area; each with its areas' row spans.
        let mut columns: Vec<usize> = Vec::new();
        let mut column_of = vec![0usize; n];
        for (a, c) in column_of.iter_mut().enumerate() {
            let r = root(&mut parent, a);
            *c = match columns.iter().position(|&x| x == r) {
                Some(i) => i,
                None => {
                    columns.push(r);
                    columns.len() - 1
                }
            };
        }
        let spans: Vec<Vec<(i32, i32)>> = (0..columns.len())
            .map(|c| {
                let areas = board.areas.iter().enumerate();
                areas
                    .filter(|(a, _)| column_of[*a] == c)
                    .map(|(_, ar)| (ar.from, ar.to))
                    .collect()
            })
            .collect();
        // Sideways neighbours of each column, in the order of the areas.
        let mut next_to: Vec<Vec<usize>> = vec![Vec::new(); columns.len()];
        for &(a, b, kind) in board.links() {
            if kind == LinkKind::Sideways {
                let (ca, cb) = (column_of[a as usize], column_of[b as usize]);
                if ca != cb {
                    for (x, y) in [(ca, cb), (cb, ca)] {
                        if !next_to[x].contains(&y) {
                            next_to[x].push(y);
                        }
                    }
                }
            }
        }
        for v in &mut next_to {
            v.sort_unstable();
        }
        // Place columns outward from the longest (the first of the longest).
        let length = |c: usize| spans[c].iter().map(|s| s.1 - s.0).sum::<i32>();
        let start = (0..columns.len())
            .max_by_key(|&c| (length(c), std::cmp::Reverse(c)))
            .unwrap_or(0);
        let mut x: Vec<Option<i32>> = vec![None; columns.len()];
        let free = |x: &[Option<i32>], c: usize, at: i32| {
            (0..x.len()).all(|o| {
                x[o] != Some(at)
                    || !spans[o]
                        .iter()
                        .any(|a| spans[c].iter().any(|b| overlap(*a, *b)))
            })
        };
        let mut queue = std::collections::VecDeque::new();
        for first in std::iter::once(start).chain(0..columns.len()) {
            if x[first].is_some() {
                continue;
            }
            // A column linked to nothing placed goes right of everything.
            let right = x.iter().flatten().max().map_or(0, |m| m + 1);
            x[first] = Some(right);
            queue.push_back(first);
            while let Some(c) = queue.pop_front() {
                let at = x[c].unwrap_or(0);
                for &d in &next_to[c] {
                    if x[d].is_some() {
                        continue;
                    }
                    let side = [at - 1, at + 1].into_iter().find(|s| free(&x, d, *s));
                    x[d] =
                        Some(side.unwrap_or_else(|| x.iter().flatten().max().map_or(0, |m| m + 1)));
                    queue.push_back(d);
                }
            }
        }
        let min_x = x.iter().flatten().min().copied().unwrap_or(0);
        let max_x = x.iter().flatten().max().copied().unwrap_or(0);
        let top = board.areas.iter().map(|a| a.to).max().unwrap_or(1);
        let bottom = board.areas.iter().map(|a| a.from).min().unwrap_or(0);
        let areas = board
            .areas
            .iter()
            .enumerate()
            .map(|(a, ar)| Rect {
                x: f64::from(x[column_of[a]].unwrap_or(0) - min_x),
                y: f64::from(top - ar.to),
                w: 1.0,
                h: f64::from((ar.to - ar.from).max(1)),
            })
            .collect();
        Layout {
            areas,
            columns: f64::from(max_x - min_x + 1),
            rows: f64::from((top - bottom).max(1)),
            halfway: f64::from(top - board.halfway),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn layout(edition: &str) -> (Board, Layout) {
        let rs = crate::editions::load_rules_with(edition, &[]).expect("an edition");
        let l = Layout::of(&rs.board);
        (rs.board.clone(), l)
    }

    /// The drawing of a board, one line per row, area names by column.
    fn picture(board: &Board, l: &Layout) -> String {
        let mut lines = Vec::new();
        for row in 0..l.rows as usize {
            let mut cells = vec![String::from("."); l.columns as usize];
            for (a, r) in l.areas.iter().enumerate() {
                let y = row as f64 + 0.5;
                if r.y < y && y < r.y + r.h {
                    cells[r.x as usize] = board.name(a as u8).to_string();
                }
            }
            lines.push(
                cells
                    .iter()
                    .map(|c| format!("{c:14}"))
                    .collect::<String>()
                    .trim_end()
                    .to_string(),
            );
        }
        lines.join("\n")
    }

    #[test]
    fn the_thirteen_areas_are_three_columns_west_to_east() {
        let (b, l) = layout("original");
        assert_eq!((l.columns, l.rows, l.halfway), (3.0, 8.0, 4.0));
        insta::assert_snapshot!(picture(&b, &l));
    }

    #[test]
    fn corner_kick_spots_are_drawn_beyond_the_corners() {
        let (b, l) = layout("2024");
        assert_eq!(l.columns, 5.0);
        insta::assert_snapshot!(picture(&b, &l));
    }
}
