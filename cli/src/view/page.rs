//! The viewer's page: the board's SVG, the film as JSON and the script that steps through
//! it, in one HTML file with nothing fetched from elsewhere.

use fuba_engine::ruleset::Ruleset;

use super::layout::Layout;
use super::scenario::Check;
use super::svg::{self, esc};
use super::{Film, Position};

/// Where the script moves the movable pieces: for each area, the ball's point and each
/// team's goalkeeper's point.
#[derive(serde::Serialize)]
struct Geometry {
    ball: Vec<(f64, f64)>,
    keeper: [Vec<(f64, f64)>; 2],
}

fn geometry(layout: &Layout) -> Geometry {
    let n = layout.areas.len();
    let ball = (0..n)
        .map(|a| {
            let (cx, cy) = layout.areas[a].centre();
            svg::px(cx, cy)
        })
        .collect();
    let keeper = [0, 1].map(|t| (0..n).map(|a| svg::chip(layout, a, t, true)).collect());
    Geometry { ball, keeper }
}

/// JSON that can sit inside a `<script>` element.
fn script_json<T: serde::Serialize>(v: &T) -> String {
    serde_json::to_string(v)
        .unwrap_or_else(|_| "null".into())
        .replace('<', "\\u003c")
}

/// The expectations of a scenario, each marked held or failed.
fn checks_html(checks: &[Check]) -> String {
    if checks.is_empty() {
        return String::new();
    }
    let mut s = String::from("<section id=\"checks\"><h2>Expectations</h2><ul>");
    for c in checks {
        let (class, mark) = if c.held {
            ("held", "✓")
        } else {
            ("failed", "✗")
        };
        s.push_str(&format!(
            "<li class=\"{class}\"><span class=\"mark\">{mark}</span> <code>{}</code>",
            esc(&c.what)
        ));
        for f in &c.failures {
            s.push_str(&format!("<div class=\"why\">{}</div>", esc(f)));
        }
        s.push_str("</li>");
    }
    s.push_str("</ul></section>");
    s
}

/// The page for `film` under `rs`, with a scenario's `checks` (none for a match).
pub fn html(rs: &Ruleset, film: &Film, checks: &[Check]) -> String {
    let layout = Layout::of(&rs.board);
    let first = film
        .steps
        .first()
        .and_then(|s| film.positions.get(s.position))
        .or(film.positions.first());
    let empty = Position::of(rs, &fuba_engine::state::MatchState::new(rs));
    let board = svg::board(&layout, &film.areas, first.unwrap_or(&empty));
    let data = script_json(&serde_json::json!({
        "areas": film.areas,
        "matchVars": film.match_vars,
        "teamVars": film.team_vars,
        "positions": film.positions,
        "steps": film.steps,
        "geo": geometry(&layout),
    }));
    let last = film.steps.len().saturating_sub(1);
    PAGE.replace("{{TITLE}}", &esc(&film.title))
        .replace("{{ABOUT}}", &esc(&film.about))
        .replace("{{BOARD}}", &board)
        .replace("{{CHECKS}}", &checks_html(checks))
        .replace("{{LAST}}", &last.to_string())
        .replace("{{DATA}}", &data)
        .replace("{{STYLE}}", STYLE)
        .replace("{{SCRIPT}}", SCRIPT)
}

const PAGE: &str = r##"<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{TITLE}} — fuba view</title>
<style>{{STYLE}}</style>
</head>
<body>
<header><h1>{{TITLE}}</h1><p id="about">{{ABOUT}}</p></header>
<main>
<div id="board">{{BOARD}}</div>
<aside>
<div id="score"><span class="team0">Home</span> <b id="goals0">0</b> – <b id="goals1">0</b> <span class="team1">Away</span></div>
<div id="clock"></div>
<div id="ball-info"></div>
<div id="event"><div id="time"></div><div id="text"></div><div id="dice"></div><div id="rule"></div></div>
{{CHECKS}}
<table id="vars"></table>
<ol id="recent"></ol>
</aside>
</main>
<nav>
<button id="first" title="first event (Home)">«</button>
<button id="prev" title="previous event (←)">◀</button>
<button id="next" title="next event (→)">▶</button>
<button id="last" title="last event (End)">»</button>
<input id="slider" type="range" min="0" max="{{LAST}}" value="0" aria-label="event">
<span id="where"></span>
</nav>
<script type="application/json" id="data">{{DATA}}</script>
<script>{{SCRIPT}}</script>
</body>
</html>
"##;

const STYLE: &str = r##"
body { font: 14px/1.4 system-ui, sans-serif; margin: 0; background: #f4f6f4; color: #1b1b1b; }
header { padding: 8px 16px; background: #1b5e20; color: #fff; }
header h1 { font-size: 18px; margin: 0; }
header p { margin: 2px 0 0; opacity: .85; }
main { display: flex; gap: 16px; padding: 12px 16px; align-items: flex-start; }
#board svg { max-width: 100%; height: auto; }
aside { flex: 1; min-width: 280px; }
#score { font-size: 22px; }
#clock, #ball-info { color: #444; }
#event { margin: 10px 0; padding: 8px; background: #fff; border-left: 4px solid #1b5e20; }
#text { font-size: 16px; }
#dice { font-family: ui-monospace, monospace; }
#rule { color: #666; font-size: 12px; }
#vars { border-collapse: collapse; font-size: 12px; }
#vars td, #vars th { border-bottom: 1px solid #ddd; padding: 2px 6px; text-align: left; }
#recent { font-size: 12px; color: #555; padding-left: 20px; }
#recent li.now { color: #000; font-weight: bold; }
nav { position: sticky; bottom: 0; background: #fff; padding: 8px 16px; display: flex; gap: 8px; align-items: center; border-top: 1px solid #ccc; }
#slider { flex: 1; }
.name { fill: #e8f5e9; font-size: 11px; }
.chip text, .keeper text, .ball text { text-anchor: middle; font-weight: bold; font-size: 14px; fill: #fff; }
.team0 circle, .keeper.team0 rect { fill: #1565c0; stroke: #fff; stroke-width: 2; }
.team1 circle, .keeper.team1 rect { fill: #c62828; stroke: #fff; stroke-width: 2; }
.keeper text { font-size: 11px; }
.ball circle { fill: #fff; stroke: #111; stroke-width: 2; }
.ball text { fill: #111; }
.ball.owner0 circle { stroke: #1565c0; stroke-width: 4; }
.ball.owner1 circle { stroke: #c62828; stroke-width: 4; }
span.team0 { color: #1565c0; } span.team1 { color: #c62828; }
.area.has-ball rect { fill: #66bb6a; }
#checks h2 { font-size: 15px; margin: 8px 0 4px; }
#checks ul { list-style: none; padding: 0; margin: 0 0 8px; }
#checks li { padding: 2px 0; }
#checks .held .mark { color: #2e7d32; font-weight: bold; }
#checks .failed .mark { color: #c62828; font-weight: bold; }
#checks .why { color: #c62828; font-size: 12px; margin-left: 18px; }
"##;

const SCRIPT: &str = r##"
"use strict";
const D = JSON.parse(document.getElementById("data").textContent);
const $ = (id) => document.getElementById(id);
const last = D.steps.length - 1;
let now = 0;
function setText(id, s) { $(id).textContent = s; }
function draw(p) {
  for (let a = 0; a < D.areas.length; a++) {
    for (let t = 0; t < 2; t++) {
      const g = $("t" + t + "-" + a), n = p.n[t][a];
      g.setAttribute("visibility", n > 0 ? "visible" : "hidden");
      g.querySelector("text").textContent = n;
    }
    $("area-" + a).classList.toggle("has-ball", a === p.b);
  }
  for (let t = 0; t < 2; t++) {
    const k = $("keeper" + t), at = p.k[t];
    if (at === null) { k.setAttribute("visibility", "hidden"); continue; }
    const [x, y] = D.geo.keeper[t][at];
    k.setAttribute("visibility", "visible");
    k.setAttribute("transform", "translate(" + x + " " + y + ")");
  }
  const ball = $("ball"), [bx, by] = D.geo.ball[p.b];
  ball.setAttribute("transform", "translate(" + bx + " " + by + ")");
  ball.setAttribute("class", "ball owner" + p.o);
  ball.querySelector("text").textContent = p.v;
  setText("goals0", p.s[0]); setText("goals1", p.s[1]);
  setText("clock", p.c);
  setText("ball-info", "ball " + p.v + " in " + D.areas[p.b] + ", " + (p.o === 0 ? "home" : "away") + " in control"
    + (p.w[0] + p.w[1] > 0 ? "; waiting to be placed: " + p.w[0] + " home, " + p.w[1] + " away" : "")
    + (p.g[0] + p.g[1] > 0 ? "; left the match: " + p.g[0] + " home, " + p.g[1] + " away" : ""));
  const rows = ["<tr><th></th><th>home</th><th>away</th></tr>"];
  const esc = (s) => String(s).replace(/&/g, "&amp;").replace(/</g, "&lt;");
  for (const [i, name] of D.teamVars) rows.push("<tr><td>" + esc(name) + "</td><td>" + esc(p.t[i][0]) + "</td><td>" + esc(p.t[i][1]) + "</td></tr>");
  for (const [i, name] of D.matchVars) rows.push("<tr><td>" + esc(name) + "</td><td colspan=2>" + esc(p.m[i]) + "</td></tr>");
  $("vars").innerHTML = rows.length > 1 ? rows.join("") : "";
}
function show(i) {
  if (last < 0) { setText("where", "the log has no events"); return; }
  now = Math.max(0, Math.min(last, i));
  const s = D.steps[now];
  draw(D.positions[s.p]);
  setText("time", s.c + " · " + s.g);
  setText("text", s.t);
  setText("dice", s.d ? "dice: " + s.d : "");
  setText("rule", s.r + (s.x ? " (" + s.x + ")" : ""));
  setText("where", "event " + (now + 1) + " of " + (last + 1));
  $("slider").value = now;
  const list = $("recent");
  list.innerHTML = "";
  for (let k = Math.max(0, now - 6); k <= Math.min(last, now + 3); k++) {
    const li = document.createElement("li");
    li.value = k + 1;
    li.textContent = D.steps[k].t;
    if (k === now) li.className = "now";
    list.appendChild(li);
  }
  history.replaceState(null, "", "#step=" + (now + 1));
}
$("first").onclick = () => show(0);
$("prev").onclick = () => show(now - 1);
$("next").onclick = () => show(now + 1);
$("last").onclick = () => show(last);
$("slider").oninput = (e) => show(Number(e.target.value));
document.addEventListener("keydown", (e) => {
  const go = { ArrowRight: 1, ArrowLeft: -1, PageDown: 10, PageUp: -10 }[e.key];
  if (go) { show(now + go); e.preventDefault(); }
  if (e.key === "Home") show(0);
  if (e.key === "End") show(last);
});
const m = /step=(\d+)/.exec(location.hash);
show(m ? Number(m[1]) - 1 : 0);
"##;
