//! One position of a match as the viewer shows it: pieces per area, goalkeepers, ball,
//! score, clock and the state variables of the match and of each team.

use fuba_engine::log::value_json;
use fuba_engine::ruleset::Ruleset;
use fuba_engine::state::{GONE, MatchState, OFF};
use fuba_engine::value::Value;
use serde::Serialize;

/// A position, as the page's script reads it (short keys keep a long match's page small).
#[derive(Serialize, Debug, Clone, PartialEq)]
pub struct Position {
    /// Each team's pieces per area, goalkeeper not counted.
    #[serde(rename = "n")]
    pub counts: [Vec<u8>; 2],
    /// Each team's goalkeeper's area, if it is on the board.
    #[serde(rename = "k")]
    pub keepers: [Option<usize>; 2],
    /// Each team's pieces waiting to be placed.
    #[serde(rename = "w")]
    pub waiting: [usize; 2],
    /// Each team's pieces that left the match.
    #[serde(rename = "g")]
    pub gone: [usize; 2],
    /// The ball's area.
    #[serde(rename = "b")]
    pub ball_area: usize,
    /// The ball value.
    #[serde(rename = "v")]
    pub ball_value: i64,
    /// The team controlling the ball (0 home, 1 away).
    #[serde(rename = "o")]
    pub owner: usize,
    /// The score.
    #[serde(rename = "s")]
    pub score: [i64; 2],
    /// The clock: half and minute.
    #[serde(rename = "c")]
    pub clock: String,
    /// The values of the match's variables, in the order of the ruleset.
    #[serde(rename = "m")]
    pub match_vars: Vec<String>,
    /// The values of each team's variables: `[var][team]`.
    #[serde(rename = "t")]
    pub team_vars: Vec<[String; 2]>,
}

fn text(rs: &Ruleset, v: &Value) -> String {
    match value_json(rs, v) {
        serde_json::Value::String(s) => s,
        other => other.to_string(),
    }
}

impl Position {
    /// The position of `st`.
    pub fn of(rs: &Ruleset, st: &MatchState) -> Position {
        let areas = rs.board.areas.len();
        let mut counts = [vec![0u8; areas], vec![0u8; areas]];
        let mut keepers = [None, None];
        let (mut waiting, mut gone) = ([0, 0], [0, 0]);
        for t in 0..2 {
            for (i, &a) in st.pieces[t].at.iter().enumerate() {
                match a {
                    OFF => waiting[t] += 1,
                    GONE => gone[t] += 1,
                    a if (a as usize) < areas => {
                        if i == 0 {
                            keepers[t] = Some(a as usize);
                        } else {
                            counts[t][a as usize] += 1;
                        }
                    }
                    _ => {}
                }
            }
        }
        let c = &st.clock;
        let minute = if c.added > 0 {
            format!("{}+{}'", c.minute, c.added)
        } else {
            format!("{}'", c.minute)
        };
        Position {
            counts,
            keepers,
            waiting,
            gone,
            ball_area: usize::from(st.ball_area).min(areas.saturating_sub(1)),
            ball_value: st.ball_value,
            owner: usize::from(st.ball_owner),
            score: st.score,
            clock: format!("half {}, {minute}", c.half),
            match_vars: st.vars_match.iter().map(|v| text(rs, v)).collect(),
            team_vars: st
                .vars_team
                .iter()
                .map(|[h, a]| [text(rs, h), text(rs, a)])
                .collect(),
        }
    }

    /// Team `team`'s pieces in area `area`, goalkeeper not counted.
    pub fn count(&self, team: usize, area: usize) -> u8 {
        self.counts[team].get(area).copied().unwrap_or(0)
    }
}

/// The original edition and its state at pause `pause` of seed 7 with random players: a
/// position mid-match for the drawings' snapshots.
#[cfg(test)]
pub(crate) fn original_seed_7_at(pause: usize) -> (Ruleset, MatchState) {
    use fuba_engine::agent::RandomAgent;
    use fuba_engine::dice::SeededDice;
    use fuba_engine::game::Game;
    let rs = crate::editions::load_rules_with("original", &[]).expect("original");
    let st = {
        let mut g = Game::new(
            &rs,
            7,
            Box::new(SeededDice::new(7)),
            Box::new(RandomAgent::new(7, 0)),
            Box::new(RandomAgent::new(7, 1)),
        )
        .with_states();
        g.play().expect("the match plays");
        g.states()[pause].1.clone()
    };
    (rs, st)
}
