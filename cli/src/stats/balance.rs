//! The balance figures a designer reads first: is there a home advantage, an advantage in
//! kicking off first, and how long do matches last.
//!
//! - **Home advantage**: the home team's goals minus the away team's, per match (a mean
//!   with its t interval); the home win share is the `home_win` figure.
//! - **Kick-off advantage**: the goals of the *kick-off team* — the team controlling the
//!   ball when the first turn of the match began — minus the other team's, per match, and
//!   the kick-off team's win and loss shares (Wilson intervals).
//! - **Match length**: turns per match over all halves (a mean with its t interval) and
//!   its quantiles, each with a distribution-free 95% interval from the order statistics.
//!
//! All are computed from the tally's integers, so shards merge into exactly the figures of
//! the whole batch.

use std::collections::BTreeMap;

use serde::Serialize;

use super::{Figure, Tally, Z95, engine_label, mean_figure, share_figure};

/// The quantiles of the match length reported.
pub const QUANTILES: [f64; 5] = [0.1, 0.25, 0.5, 0.75, 0.9];

/// The balance figures of a tally: home advantage, kick-off advantage, the kick-off
/// team's wins and losses, match length.
pub fn figures(t: &Tally) -> Vec<Figure> {
    let eng = |k: &str| t.engine.get(k).copied().unwrap_or_default();
    let mean = |k: &str| mean_figure(k.into(), engine_label(k), &eng(k));
    let [won, lost, _] = t.kickoff_results;
    vec![
        mean("home_advantage"),
        mean("kickoff_advantage"),
        share_figure(
            "kickoff_win".into(),
            "kick-off team wins".into(),
            won,
            t.games,
        ),
        share_figure(
            "kickoff_loss".into(),
            "kick-off team loses".into(),
            lost,
            t.games,
        ),
        mean("turns"),
    ]
}

/// A quantile of the match length, with its 95% interval.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Quantile {
    /// Which quantile (0.5: the median).
    pub p: f64,
    /// The match length in turns at that quantile (None for no matches).
    pub turns: Option<u32>,
    /// 95% interval: the order statistics whose ranks bound the quantile's rank.
    pub ci95: [Option<u32>; 2],
}

impl Quantile {
    /// `50%` for the median.
    pub fn label(&self) -> String {
        format!("{}%", (self.p * 100.0).round())
    }
}

/// The value of rank `r` (1-based) in the sorted values a histogram counts.
fn at_rank(hist: &BTreeMap<u32, u64>, r: u64) -> Option<u32> {
    let mut seen = 0;
    for (v, k) in hist {
        seen += k;
        if seen >= r {
            return Some(*v);
        }
    }
    None
}

/// The quantiles [`QUANTILES`] of the values a histogram counts. A quantile is the value
/// of rank ⌈np⌉; its interval runs between the values of ranks ⌊np − z√(np(1−p))⌋ and
/// ⌈np + z√(np(1−p))⌉ + 1 (the binomial ranks, normal approximation), clamped to 1..n.
pub fn quantiles(hist: &BTreeMap<u32, u64>) -> Vec<Quantile> {
    let n: u64 = hist.values().sum();
    QUANTILES
        .iter()
        .map(|&p| {
            if n == 0 {
                return Quantile {
                    p,
                    turns: None,
                    ci95: [None, None],
                };
            }
            let np = n as f64 * p;
            let h = Z95 * (np * (1.0 - p)).sqrt();
            let rank = |x: f64| (x.max(1.0) as u64).clamp(1, n);
            Quantile {
                p,
                turns: at_rank(hist, rank(np.ceil())),
                ci95: [
                    at_rank(hist, rank((np - h).floor())),
                    at_rank(hist, rank((np + h).ceil() + 1.0)),
                ],
            }
        })
        .collect()
}

/// The match length quantiles of a tally.
pub fn match_length(t: &Tally) -> Vec<Quantile> {
    quantiles(&t.turns_hist)
}

/// Quantiles as one line of text: `10%: 52 (51-53)  25%: ...`.
pub fn quantiles_text(q: &[Quantile]) -> String {
    let show = |x: Option<u32>| x.map_or_else(|| "-".into(), |v| v.to_string());
    q.iter()
        .map(|q| {
            format!(
                "{}: {} ({}-{})",
                q.label(),
                show(q.turns),
                show(q.ci95[0]),
                show(q.ci95[1])
            )
        })
        .collect::<Vec<_>>()
        .join("  ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quantiles_of_a_known_sample() {
        // 1..=100 once each: the median is 50, its interval the ranks 40 and 61.
        let hist: BTreeMap<u32, u64> = (1..=100).map(|v| (v, 1)).collect();
        let q = quantiles(&hist);
        let median = q.iter().find(|q| q.p == 0.5).expect("median");
        assert_eq!(median.turns, Some(50));
        assert_eq!(median.ci95, [Some(40), Some(61)]);
        let q10 = &q[0];
        assert_eq!(q10.turns, Some(10));
        assert!(q10.ci95[0] <= q10.turns && q10.turns <= q10.ci95[1]);
        assert_eq!(q10.label(), "10%");
        // Every match the same length: a zero-width interval.
        let same: BTreeMap<u32, u64> = [(60, 500)].into_iter().collect();
        for q in quantiles(&same) {
            assert_eq!((q.turns, q.ci95), (Some(60), [Some(60), Some(60)]));
        }
        // No matches: nothing, and no panic.
        assert!(
            quantiles(&BTreeMap::new())
                .iter()
                .all(|q| q.turns.is_none())
        );
    }
}

#[cfg(test)]
mod kickoff {
    use fuba_engine::dice::SeededDice;
    use fuba_engine::game::Game;

    use crate::{AgentKind, make_agent};

    /// The engine's `first_owner` is the team seen controlling the ball between the first
    /// half's start procedure and its first turn, and both teams kick off in some match.
    #[test]
    fn the_kick_off_team_controls_the_ball_when_the_first_turn_begins() {
        let rs = crate::editions::load_rules_with("original", &[]).expect("original");
        let mut teams = [0; 2];
        for seed in 0..16u64 {
            let mut g = Game::new(
                &rs,
                seed,
                Box::new(SeededDice::new(seed)),
                make_agent(AgentKind::Random, &rs, seed, 0),
                make_agent(AgentKind::Random, &rs, seed, 1),
            );
            let mut before_first_turn = None;
            let o = g
                .play_observed(&mut |st, _| {
                    if st.turns_total == 0 {
                        before_first_turn = Some(st.ball_owner);
                    }
                    Ok(())
                })
                .expect("played");
            let owner = o.first_owner.expect("a turn was played");
            assert_eq!(Some(owner), before_first_turn, "seed {seed}");
            teams[usize::from(owner)] += 1;
        }
        assert!(teams[0] > 0 && teams[1] > 0, "{teams:?}");
    }
}
