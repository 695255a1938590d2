//! The board as text for a player at the terminal, laid out as the viewer lays it out
//! ([`crate::board::layout`]): north at the top, each area in its column and rows, with
//! each team's pieces in it (`H3` home, `A2` away, `+GK` with the goalkeeper) and the ball.

use fuba_engine::ruleset::Ruleset;
use fuba_engine::state::MatchState;

use crate::board::layout::Layout;
use crate::board::position::Position;

/// Characters per column.
const WIDTH: usize = 16;

/// What area `a` shows on its second line: pieces and the ball.
fn contents(p: &Position, a: usize) -> String {
    let mut parts = Vec::new();
    for (t, letter) in [(0, 'H'), (1, 'A')] {
        let n = p.count(t, a);
        let gk = p.keepers[t] == Some(a);
        match (n, gk) {
            (0, false) => {}
            (0, true) => parts.push(format!("{letter}GK")),
            (n, false) => parts.push(format!("{letter}{n}")),
            (n, true) => parts.push(format!("{letter}{n}+GK")),
        }
    }
    if p.ball_area == a {
        parts.push(format!("*{}", p.ball_value));
    }
    parts.join(" ")
}

/// The pitch of `st` under `rs`, one line per text row.
pub fn pitch(rs: &Ruleset, layout: &Layout, st: &MatchState) -> String {
    let p = Position::of(rs, st);
    let columns = layout.columns as usize;
    let rows = layout.rows as usize;
    // The area covering (row, column), and whether it starts at that row.
    let at = |row: usize, col: usize| {
        layout.areas.iter().enumerate().find(|(_, r)| {
            r.x as usize == col && (r.y as usize) <= row && row < (r.y + r.h) as usize
        })
    };
    // Whether an area covers (row, column); out of the board is no area.
    let has = |row: Option<usize>, col: Option<usize>| match (row, col) {
        (Some(r), Some(c)) if r < rows && c < columns => at(r, c).is_some(),
        _ => false,
    };
    let mut out = String::new();
    for row in 0..=rows {
        // The border above this row: a line where an area starts (or the pitch ends).
        let up = row.checked_sub(1);
        let segment: Vec<bool> = (0..columns)
            .map(|col| {
                let above = up.and_then(|r| at(r, col)).map(|x| x.0);
                let here = (row < rows).then(|| at(row, col)).flatten().map(|x| x.0);
                above != here && (above.is_some() || here.is_some())
            })
            .collect();
        let mut border = String::new();
        for col in 0..=columns {
            let left = col.checked_sub(1);
            let joins = left.is_some_and(|l| segment[l]) || segment.get(col) == Some(&true);
            let edge = has(up, left)
                || has(up, Some(col))
                || has(Some(row), left)
                || has(Some(row), Some(col));
            border.push(match (joins, edge) {
                (true, _) => '+',
                (false, true) => '|',
                _ => ' ',
            });
            if col < columns {
                let fill = if segment[col] { "-" } else { " " };
                border.push_str(&fill.repeat(WIDTH - 1));
            }
        }
        out.push_str(border.trim_end());
        out.push('\n');
        if row == rows {
            break;
        }
        let starts = (0..columns).any(|c| at(row, c).is_some_and(|(_, r)| r.y as usize == row));
        let lines: &[usize] = if starts { &[0, 1] } else { &[2] };
        for &which in lines {
            let mut line = String::new();
            for col in 0..=columns {
                let bar = has(Some(row), col.checked_sub(1)) || has(Some(row), Some(col));
                line.push(if bar { '|' } else { ' ' });
                if col == columns {
                    break;
                }
                let cell = match at(row, col) {
                    Some((a, r)) if r.y as usize == row => match which {
                        0 => rs.board.name(a as u8).to_string(),
                        _ => contents(&p, a),
                    },
                    _ => String::new(),
                };
                let cell: String = cell.chars().take(WIDTH - 2).collect();
                line.push_str(&format!(" {cell:<w$}", w = WIDTH - 2));
            }
            out.push_str(line.trim_end());
            out.push('\n');
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_original_pitch_mid_match() {
        let (rs, st) = crate::board::position::original_seed_7_at(200);
        insta::assert_snapshot!(pitch(&rs, &Layout::of(&rs.board), &st));
    }
}
