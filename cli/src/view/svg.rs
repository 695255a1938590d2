//! The board of one position as SVG: each area from the layout, each team's pieces in it,
//! the goalkeepers and the ball. The page draws the first position this way and the
//! script changes the same elements (by id) as the match is stepped through.

use std::fmt::Write;

use super::layout::Layout;
use super::position::Position;

/// Pixels per column and per row.
pub const COLUMN: f64 = 150.0;
/// Pixels per row.
pub const ROW: f64 = 64.0;
/// Margin around the pitch, in pixels.
pub const MARGIN: f64 = 24.0;

/// Escapes text for XML.
pub fn esc(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// Pixel position of a point in board units.
pub fn px(x: f64, y: f64) -> (f64, f64) {
    (MARGIN + x * COLUMN, MARGIN + y * ROW)
}

/// Where the chip of a team's pieces sits in an area (home low left, away high right),
/// and where its goalkeeper sits (beside it, further out).
pub fn chip(layout: &Layout, area: usize, team: usize, keeper: bool) -> (f64, f64) {
    let r = layout.areas[area];
    let (cx, cy) = r.centre();
    let side = if team == 0 { -1.0 } else { 1.0 };
    let dx = if keeper { 0.4 } else { 0.2 };
    px(cx + side * dx, cy - side * 0.18 * r.h.min(2.0))
}

/// The SVG of `pos` on `layout`, with area names from `names`.
pub fn board(layout: &Layout, names: &[String], pos: &Position) -> String {
    let (w, h) = (
        2.0 * MARGIN + layout.columns * COLUMN,
        2.0 * MARGIN + layout.rows * ROW,
    );
    let mut s = String::new();
    let _ = writeln!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" id="pitch" viewBox="0 0 {w} {h}" width="{w}" height="{h}" role="img" aria-label="the board">"#
    );
    let _ = writeln!(
        s,
        r##"<rect x="0" y="0" width="{w}" height="{h}" fill="#2e7d32"/>"##
    );
    for (i, r) in layout.areas.iter().enumerate() {
        let (x, y) = px(r.x, r.y);
        let (rw, rh) = (r.w * COLUMN, r.h * ROW);
        let name = esc(&names[i]);
        let _ = writeln!(
            s,
            r##"<g class="area" id="area-{i}"><rect x="{x}" y="{y}" width="{rw}" height="{rh}" fill="#43a047" stroke="#e8f5e9" stroke-width="2"/><text x="{tx}" y="{ty}" class="name">{name}</text></g>"##,
            tx = x + 6.0,
            ty = y + 14.0,
        );
    }
    let (x0, y0) = px(0.0, layout.halfway);
    let _ = writeln!(
        s,
        r##"<line x1="{x0}" y1="{y0}" x2="{x1}" y2="{y0}" stroke="#e8f5e9" stroke-width="3" stroke-dasharray="8 6"/>"##,
        x1 = x0 + layout.columns * COLUMN,
    );
    for i in 0..layout.areas.len() {
        for team in 0..2 {
            let (x, y) = chip(layout, i, team, false);
            let n = pos.count(team, i);
            let hidden = if n == 0 {
                r#" visibility="hidden""#
            } else {
                ""
            };
            let _ = writeln!(
                s,
                r#"<g id="t{team}-{i}" class="chip team{team}"{hidden}><circle cx="{x}" cy="{y}" r="13"/><text x="{x}" y="{ty}">{n}</text></g>"#,
                ty = y + 5.0,
            );
        }
    }
    for team in 0..2 {
        let (x, y, hidden) = match pos.keepers[team] {
            Some(a) => {
                let (x, y) = chip(layout, a, team, true);
                (x, y, "")
            }
            None => (0.0, 0.0, r#" visibility="hidden""#),
        };
        let _ = writeln!(
            s,
            r#"<g id="keeper{team}" class="keeper team{team}" transform="translate({x} {y})"{hidden}><rect x="-12" y="-10" width="24" height="20" rx="4"/><text x="0" y="5">GK</text></g>"#
        );
    }
    let (bx, by) = {
        let (cx, cy) = layout.areas[pos.ball_area].centre();
        px(cx, cy)
    };
    let _ = writeln!(
        s,
        r#"<g id="ball" class="ball owner{o}" transform="translate({bx} {by})"><circle r="14"/><text x="0" y="5">{v}</text></g>"#,
        o = pos.owner,
        v = pos.ball_value,
    );
    s.push_str("</svg>\n");
    s
}

#[cfg(test)]
mod tests {
    use super::super::position::{Position, original_seed_7_at};
    use super::*;

    /// The board of the original edition mid-match (seed 7, random players, the 200th
    /// position kept).
    #[test]
    fn a_position_of_the_original_edition() {
        let (rs, st) = original_seed_7_at(200);
        let pos = Position::of(&rs, &st);
        let names: Vec<String> = rs.board.areas.iter().map(|a| a.name.clone()).collect();
        let svg = board(&Layout::of(&rs.board), &names, &pos);
        assert_eq!(svg.matches("class=\"chip").count(), 26);
        insta::assert_snapshot!(svg);
    }
}
