//! What one team cannot see, kept as a set of worlds: matches that differ from the true one
//! only in the other team's secret choices that nothing has revealed yet.
//!
//! When the other team answers a secret decision, every option it could have taken starts
//! a world (a copy of the match answered with that option). Each world is then given every
//! later answer and roll the true match is given, and is dropped as soon as it shows the
//! observer anything the true match does not: a different state of the board and the
//! rules' variables, or a different decision, roll or end. Once a world's machine is at
//! rest (no rule running) with the same state as the true match, nothing of the secret is
//! left in it and it merges back. The worlds left are exactly the ones the observer cannot
//! tell apart from the truth, so a search agent that samples them does not peek.
//!
//! ```text
//! other team's secret choice ──> worlds: one per option (the true one included, unmarked)
//! every later answer / roll  ──> given to each world; a world that shows something else dies
//! no rule running, same state ─> the world merges back
//! ```

use crate::agent::Opt;
use crate::value::Team;
use crate::vm::{Match, Status};

/// At most this many worlds are kept for one observer (products of several open secrets
/// are thinned evenly, deterministically).
pub const MAX_WORLDS: usize = 64;

/// One answer in the match, as the observer may see it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Played {
    /// The deciding team.
    pub team: Team,
    /// The option taken; `None` when it was the other team's secret.
    pub opt: Option<Opt>,
}

/// The worlds one team cannot tell apart from the true match (see the module docs).
#[derive(Clone, Default)]
pub struct Worlds<'a> {
    /// Every world in a fixed order, the true match as `None` (it lives with the host).
    /// Empty when no secret of the other team is open.
    list: Vec<Option<Match<'a>>>,
}

impl<'a> Worlds<'a> {
    /// No open secret.
    pub fn new() -> Self {
        Worlds { list: Vec::new() }
    }

    /// Whether a secret of the other team is open.
    pub fn is_open(&self) -> bool {
        self.list.len() > 1
    }

    /// The worlds, the true match among them (in the position of the option the other
    /// team actually took), for an agent to sample.
    pub fn all<'w>(&'w self, truth: &'w Match<'a>) -> Vec<&'w Match<'a>> {
        if self.list.is_empty() {
            return vec![truth];
        }
        self.list
            .iter()
            .map(|w| w.as_ref().unwrap_or(truth))
            .collect()
    }

    /// The true match `before` waited for the other team's secret decision and was answered
    /// with option `chosen`: every world branches into one per option.
    pub(crate) fn branch(&mut self, before: &Match<'a>, chosen: usize) {
        let n = before.opts.len();
        let mut next = Vec::new();
        let old = std::mem::take(&mut self.list);
        let old = if old.is_empty() { vec![None] } else { old };
        for w in old {
            for j in 0..n {
                match &w {
                    None if j == chosen => next.push(None),
                    None => {
                        let mut c = before.fork();
                        if c.choose(j).is_ok() {
                            next.push(Some(c));
                        }
                    }
                    Some(m) if m.opts.len() == n => {
                        let mut c = m.fork();
                        if c.choose(j).is_ok() {
                            next.push(Some(c));
                        }
                    }
                    Some(_) => {}
                }
            }
        }
        self.list = thin(next);
    }

    /// Gives every world the answer the true match was given.
    pub(crate) fn choose(&mut self, i: usize) {
        self.list
            .retain_mut(|w| w.as_mut().is_none_or(|m| m.choose(i).is_ok()));
    }

    /// Gives every world the dice the true match was given.
    pub(crate) fn roll(&mut self, dice: &[u8]) {
        self.list
            .retain_mut(|w| w.as_mut().is_none_or(|m| m.roll(dice).is_ok()));
    }

    /// The true match advanced to `status`: every world advances too, and the ones that
    /// show something else are dropped; the ones at rest in the same state merge back.
    pub(crate) fn follow(&mut self, truth: &Match<'a>, status: Status) {
        if self.list.is_empty() {
            return;
        }
        self.list.retain_mut(|w| match w {
            None => true,
            Some(m) => matches!(m.advance(), Ok(s) if s == status) && looks_same(m, truth),
        });
        self.list
            .retain(|w| w.as_ref().is_none_or(|m| !merged(m, truth)));
        if self.list.len() < 2 {
            self.list.clear();
        }
    }
}

/// Whether the observer sees the same in both: the state, and what the match waits for.
fn looks_same(a: &Match<'_>, b: &Match<'_>) -> bool {
    a.st == b.st
        && a.phase == b.phase
        && match (a.decision(), b.decision()) {
            (Some(x), Some(y)) => x.team == y.team && x.kind == y.kind && x.options == y.options,
            (None, None) => a.chance() == b.chance(),
            _ => false,
        }
}

/// Whether nothing of a secret is left in `a`: no rule is running in either, and they look
/// the same.
fn merged(a: &Match<'_>, b: &Match<'_>) -> bool {
    a.frames.is_empty()
        && b.frames.is_empty()
        && a.stack == b.stack
        && a.outcome.is_some() == b.outcome.is_some()
}

/// Keeps at most [`MAX_WORLDS`], evenly spaced, the true match always among them.
fn thin<'a>(list: Vec<Option<Match<'a>>>) -> Vec<Option<Match<'a>>> {
    if list.len() <= MAX_WORLDS {
        return list;
    }
    let step = list.len() as f64 / MAX_WORLDS as f64;
    let keep: Vec<usize> = (0..MAX_WORLDS)
        .map(|k| (k as f64 * step) as usize)
        .collect();
    list.into_iter()
        .enumerate()
        .filter(|(i, w)| w.is_none() || keep.contains(i))
        .map(|(_, w)| w)
        .collect()
}
