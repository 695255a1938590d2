//! What a position is worth, learned from the rules by playing them: the goals each team
//! scores in the next few turns from a turn's start, by who has the ball, whose turn it is
//! and where the ball is.
//!
//! A search cannot play every line to the final whistle, so it plays to the end of the
//! turn and adds what the position it reached is worth. The worth is not written by hand:
//! [`PositionValues::learn`] plays matches of the ruleset with heuristic agents on fixed
//! seeds and records, at the start of every turn, the key (ball owner, phasing team, ball
//! area) and the goal difference (home minus away, in the ruleset's own scoring) over the
//! next [`PositionValues::turns`] turns. A house rule that changes what a goal is worth or
//! where goals come from changes the table with it. The same ruleset and the same number
//! of matches give the same table on every machine.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

use crate::agent::{Agent, Decision, HeuristicAgent, View};
use crate::dice::{DiceSource, SeededDice};
use crate::ruleset::Ruleset;
use crate::state::MatchState;
use crate::vm::{Match, RunError, Status};

/// A key's estimate is pulled toward no advantage as if this many more turns had shown
/// none (keys seldom seen stay near 0).
const PRIOR_TURNS: f64 = 4.0;

/// Matches played to learn a ruleset's table for [`PositionValues::for_ruleset`].
pub const LEARN_MATCHES: u32 = 100;

/// Turns ahead a learned value looks, for [`PositionValues::for_ruleset`].
pub const LEARN_TURNS: u32 = 3;

/// Tables already learned in this process, by ruleset fingerprint (which covers every
/// layer's text and the options set).
type Cache = Mutex<HashMap<String, Arc<PositionValues>>>;

fn cache() -> &'static Cache {
    static CACHE: OnceLock<Cache> = OnceLock::new();
    CACHE.get_or_init(|| Mutex::new(HashMap::new()))
}

/// The learned worth of positions (see the module docs).
#[derive(Debug, Clone)]
pub struct PositionValues {
    areas: usize,
    /// Expected home-minus-away goals per key: `((owner * 2 + phasing) * areas + area)`.
    cells: Vec<f64>,
    /// Turn starts seen per key.
    seen: Vec<u32>,
    /// How many turns ahead a value looks.
    turns: u32,
    /// Matches played to learn it.
    matches: u32,
}

impl PositionValues {
    /// No knowledge: every position is worth 0 (a search then counts only goals).
    pub fn flat(rs: &Ruleset) -> Self {
        let areas = rs.board.len().max(1);
        PositionValues {
            areas,
            cells: vec![0.0; 4 * areas],
            seen: vec![0; 4 * areas],
            turns: 0,
            matches: 0,
        }
    }

    /// The table of a ruleset, learned from [`LEARN_MATCHES`] matches looking
    /// [`LEARN_TURNS`] turns ahead on first use in this process, then shared (the same
    /// ruleset and options always give the same table).
    pub fn for_ruleset(rs: &Ruleset) -> Arc<PositionValues> {
        if let Some(v) = cache()
            .lock()
            .ok()
            .and_then(|c| c.get(&rs.fingerprint).cloned())
        {
            return v;
        }
        let v = Arc::new(PositionValues::learn(rs, LEARN_MATCHES, LEARN_TURNS));
        if let Ok(mut c) = cache().lock() {
            return c.entry(rs.fingerprint.clone()).or_insert(v).clone();
        }
        v
    }

    /// Learns the table from `matches` matches of heuristic agents (seeds 0, 1, ...),
    /// looking `turns` turns ahead. A match that stops with a rule error contributes the
    /// turns it played.
    pub fn learn(rs: &Ruleset, matches: u32, turns: u32) -> Self {
        let mut v = PositionValues::flat(rs);
        v.turns = turns.max(1);
        v.matches = matches;
        let mut sums = vec![0.0; v.cells.len()];
        for seed in 0..u64::from(matches) {
            let starts = play_recording(rs, seed);
            for (i, (key, score)) in starts.iter().enumerate() {
                let later = starts
                    .get(i + v.turns as usize)
                    .map_or(*starts.last().map_or(score, |(_, s)| s), |(_, s)| *s);
                let gd = (later[0] - score[0]) - (later[1] - score[1]);
                let k = v.index_of(*key);
                sums[k] += gd as f64;
                v.seen[k] += 1;
            }
        }
        for (k, s) in sums.iter().enumerate() {
            v.cells[k] = s / (f64::from(v.seen[k]) + PRIOR_TURNS);
        }
        v
    }

    /// How many turns ahead the values look (0 for [`PositionValues::flat`]).
    pub fn turns(&self) -> u32 {
        self.turns
    }

    /// How many matches were played to learn the table.
    pub fn matches(&self) -> u32 {
        self.matches
    }

    /// The expected goal difference (home minus away) from this state.
    pub fn home_value(&self, st: &MatchState) -> f64 {
        self.cells[self.index_of(key_of(st))]
    }

    fn index_of(&self, (owner, phasing, area): (u8, u8, u8)) -> usize {
        (usize::from(owner) * 2 + usize::from(phasing)) * self.areas
            + usize::from(area).min(self.areas - 1)
    }
}

/// The key of a state: ball owner, phasing team, ball area.
fn key_of(st: &MatchState) -> (u8, u8, u8) {
    (st.ball_owner.min(1), st.phasing.min(1), st.ball_area)
}

/// Plays one match with heuristic agents, returning the key and the score at the first
/// stop of every turn.
fn play_recording(rs: &Ruleset, seed: u64) -> Vec<((u8, u8, u8), [i64; 2])> {
    let mut m = Match::new(rs, seed);
    let mut dice = SeededDice::new(seed);
    let mut agents = [HeuristicAgent::new(seed, 0), HeuristicAgent::new(seed, 1)];
    let mut starts = Vec::new();
    let mut turn = 0;
    let _ = (|| -> Result<(), RunError> {
        loop {
            let status = m.advance()?;
            if m.st.turns_total != turn {
                turn = m.st.turns_total;
                starts.push((key_of(&m.st), m.st.score));
            }
            match status {
                Status::Decision => {
                    let hints = m.hints()?;
                    let Some(d) = m.decision() else { continue };
                    let team = d.team as usize;
                    let d = Decision { hints: &hints, ..d };
                    let view = View {
                        rules: rs,
                        state: &m.st,
                        search: None,
                    };
                    let i = agents[team].choose(&view, &d).unwrap_or(0);
                    m.choose(i)?;
                }
                Status::Chance => {
                    let Some(c) = m.chance() else { continue };
                    let mut d = [0u8; 8];
                    for x in d.iter_mut().take(c.count as usize) {
                        *x = dice.roll(c.sides, "").unwrap_or(1);
                    }
                    m.roll(&d[..c.count as usize])?;
                }
                Status::Boundary => {}
                Status::End => return Ok(()),
            }
        }
    })();
    starts.push((key_of(&m.st), m.st.score));
    starts
}
