//! One path from a position, played with seeded dice and a seeded pick for each decision
//! the way the random and the heuristic players pick: the Monte Carlo counterpart of
//! [`super::enumerate`], to check the exact odds against frequencies. It walks one path
//! with no fractions at all, so it shares nothing with the enumeration but the stops.

use super::{Leaf, OddsError, Policy, Position};
use crate::dice::{DiceSource, SeededDice, Stream};
use crate::vm::{RunError, Status};

/// Plays the position's run once: dice from `seed`, each decision by the scenario's script
/// where it has a legal label for it (as [`super::enumerate`] does), else as the policy's
/// player would (random: any legal option; heuristic: one of the options with the best
/// `prefer` score, or any when the rule gives none), picked with a stream seeded from
/// `seed`.
pub fn sample(pos: &Position<'_>, policy: Policy, seed: u64) -> Result<Leaf, OddsError> {
    let mut m = pos.m.clone();
    let rs = m.rs;
    let mut dice = SeededDice::new(seed);
    let mut picks = [Stream::new(seed, 1), Stream::new(seed, 2)];
    // The next scripted label of each team; `None` once the script did not fit.
    let mut script: [Option<usize>; 2] = [Some(0), Some(0)];
    let failed = |error: RunError| OddsError::Rule {
        error: Box::new(error),
        path: format!("sampled with seed {seed}"),
    };
    loop {
        let status = m.advance().map_err(failed)?;
        let stop = match status {
            Status::Decision | Status::Chance => pos.before.stopped(&m, &pos.stops),
            _ => None,
        };
        if status == Status::End || stop.is_some() {
            return Ok(pos
                .before
                .leaf(&m, stop.and_then(|i| pos.stops.get(i)), &pos.vars));
        }
        match status {
            Status::Chance => {
                let Some(c) = m.chance() else { continue };
                let label = rs.symbol(c.label);
                let mut rolled = Vec::with_capacity(usize::from(c.count));
                for _ in 0..c.count {
                    let d = dice.roll(c.sides, label).map_err(|e| failed(m.fail(e)))?;
                    rolled.push(d);
                }
                m.roll(&rolled).map_err(failed)?;
            }
            Status::Decision => {
                let Some(d) = m.decision() else { continue };
                let t = usize::from(d.team);
                let scripted = script[t].and_then(|i| {
                    let want = pos.scripts[t].get(i)?;
                    d.options.iter().position(|o| o.label(rs) == *want)
                });
                if let Some(i) = scripted {
                    script[t] = script[t].map(|k| k + 1);
                    m.choose(i).map_err(failed)?;
                    continue;
                }
                if script[t].is_some_and(|i| i < pos.scripts[t].len()) {
                    script[t] = None;
                }
                let n = d.options.len();
                let kind = d.kind.to_string();
                let i = match policy {
                    Policy::Scripted => {
                        return Err(OddsError::Script {
                            message: format!("the script does not answer \"{kind}\""),
                            path: format!("sampled with seed {seed}"),
                        });
                    }
                    Policy::Random => picks[t].below(n as u32) as usize,
                    Policy::Heuristic => {
                        let hints = m.hints().map_err(failed)?;
                        let best = hints.iter().copied().max().unwrap_or(0);
                        let ties: Vec<usize> = if hints.len() == n {
                            (0..n).filter(|i| hints[*i] == best).collect()
                        } else {
                            (0..n).collect()
                        };
                        let k = picks[t].below(ties.len() as u32) as usize;
                        ties.get(k).copied().unwrap_or(0)
                    }
                };
                m.choose(i).map_err(failed)?;
            }
            Status::Boundary | Status::End => {}
        }
    }
}
