//! `prefer` scores kept from one offer of a decision to the next.
//!
//! A movement's decision is offered again after every move (`repeat { let m = choose
//! "move" ... from unmoved_moves(all, t) prefer m => move_preference(t, m) }`), and most
//! options come back with the same score. When the lowering proves a decision's score a
//! function of the option and a few values (`lower/hoist.rs`: the score is one direct
//! expression whose closures, outside the parts hoisted out of it, read nothing of the
//! match but the board: [`super::code::DecisionSite::keep`]), the scores of one offer are
//! kept with those values — the hoisted parts' locals, worked out afresh at every offer,
//! and the frame's locals the score reads — and an option offered again while the values
//! are equal takes its kept score instead of being scored again.
//!
//! Scores are kept per decision site and values (a movement's values come back: the same
//! ball area, team and counts later in the match), found by a hash of both and then
//! compared in full, and within them per option, sorted (an option is found by moving on
//! from the one found before it, options being offered in that order). A hoisted
//! part read only behind another ([`super::code::ScoreKey::guards`]: `t == ct and ... and
//! count(t, b) == 1`) is left out of the values where that one is false: no closure
//! reads it then, and which parts are left out is itself one of the values.
//!
//! Scores are kept only in a match without machine code for the scores
//! (`FUBA_NO_NATIVE`, a machine without a code generator, a board past 32 areas): there
//! they save 13% of a heuristic match of the original edition. With it, an offer's options
//! are scored afresh in one call of the machine code ([`super::native::ScoreCode`]), which
//! costs less than the values' key and the look-ups, and the few scores left to the
//! closures (a constant) cost less than looking them up (`docs/performance.md`, "Machine
//! code for the scores, twelfth round").
//!
//! It stays exact this way: a kept score was given by the closures themselves (a score
//! whose closures gave up, and every option after it, is scored as usual and not kept),
//! and the closures, given equal values, the same option and the same board, give the
//! same score. Nothing else is kept from an offer, so nothing else could differ; a copy
//! of the match starts with nothing kept, and past [`MAX_SCORES`] scores everything kept
//! is dropped. `Match::set_keep_scores(false)` scores every option every time
//! (`tests/kept.rs` compares the logs).

use std::collections::HashMap;
use std::hash::BuildHasherDefault;

use crate::memo::{KeyHasher, mix_value};

use super::code::{DecisionSite, Ins};
use super::direct::Direct;
use super::machine::Match;
use crate::agent::Opt;
use crate::value::Value;

/// The most scores and entries (sets of values) kept at once: past it, everything kept
/// is dropped (a match of the original edition with heuristic agents keeps about 1,000
/// scores).
const MAX_SCORES: usize = 1 << 14;

/// No entry.
const NONE: u32 = u32::MAX;

/// The scores kept.
#[derive(Default)]
pub(crate) struct Kept {
    /// Whether scores are kept (on by default).
    pub(crate) on: bool,
    /// The first entry of each hash of a site and its values.
    index: HashMap<u64, u32, BuildHasherDefault<KeyHasher>>,
    entries: Vec<Entry>,
    /// Per decision site, the entry it used last (`NONE`: none), tried first.
    last: Vec<u32>,
    /// How many scores are kept in all.
    total: usize,
    /// Spare buffers, reused: the values of the offer being scored, and the scores worked
    /// out at it.
    key: Vec<Value>,
    added: Vec<(u32, i64)>,
    /// Spare buffer: the options of an offer left to score.
    pub(crate) pending: Vec<u32>,
}

/// The scores of one decision site worked out with the same values.
struct Entry {
    site: u32,
    key: Box<[Value]>,
    /// Each option's score, by [`rank`].
    scores: Vec<(u32, i64)>,
    /// The previous entry with the same hash (`NONE`: none).
    next: u32,
}

impl Kept {
    /// Nothing kept (a new match, or a copy: kept scores would only be worked out again).
    pub(crate) fn fresh(on: bool) -> Kept {
        Kept {
            on,
            ..Kept::default()
        }
    }

    /// The entry of `site` with the values in `self.key`, made if there is none.
    fn entry(&mut self, site: u32) -> usize {
        let s = site as usize;
        if let Some(&i) = self.last.get(s)
            && i != NONE
            && *self.entries[i as usize].key == self.key[..]
        {
            return i as usize;
        }
        let i = self.find(site);
        if self.last.len() <= s {
            self.last.resize(s + 1, NONE);
        }
        self.last[s] = i as u32;
        i
    }

    /// The entry of `site` with the values in `self.key` found by their hash, made if
    /// there is none.
    fn find(&mut self, site: u32) -> usize {
        let h = hash(site, &self.key);
        let head = self.index.get(&h).copied().unwrap_or(NONE);
        let mut i = head;
        while i != NONE {
            let e = &self.entries[i as usize];
            if e.site == site && *e.key == self.key[..] {
                return i as usize;
            }
            i = e.next;
        }
        let i = self.entries.len();
        self.entries.push(Entry {
            site,
            key: self.key.as_slice().into(),
            scores: Vec::new(),
            next: head,
        });
        self.index.insert(h, i as u32);
        i
    }

    /// Everything kept dropped.
    fn clear(&mut self) {
        self.index.clear();
        self.entries.clear();
        self.last.clear();
        self.total = 0;
    }
}

/// A hash of a site and values: equal values give equal hashes (entries are still
/// compared in full, so a collision costs only time).
fn hash(site: u32, key: &[Value]) -> u64 {
    key.iter().fold(u64::from(site), mix_value)
}

/// An option's place in the order its entry keeps scores in: one number per option
/// (a move: goalkeeper first, then by start and end area; then the areas by number).
/// No two moves or areas share one (an area is a byte), so the number stands for the
/// option where a kept score is looked up.
#[inline(always)]
fn rank(o: Opt) -> u32 {
    match o {
        Opt::Move(m) => (u32::from(!m.keeper) << 16) | (u32::from(m.from) << 8) | u32::from(m.to),
        Opt::Area(a) => (1 << 24) | u32::from(a),
        Opt::Arm(..) | Opt::Skip(_) => u32::MAX,
    }
}

impl Match<'_> {
    /// The scores of the waiting `choose ... from` (decision `site`, `d`) whose scores are
    /// kept ([`DecisionSite::keep`]), option after option: a kept score where the option
    /// was scored before with the same values, the closures run otherwise. Returns how many
    /// options it scored into `out`, as [`Match::direct_scores`] does: it stops at an
    /// option whose closures give up (the caller scores that one and the rest as usual).
    pub(crate) fn kept_scores(
        &mut self,
        site: u32,
        d: &DecisionSite,
        base: usize,
        out: &mut Vec<i64>,
    ) -> usize {
        let prog = self.prog;
        let (true, Some(sk), [Some((slot, e))]) = (self.direct, &d.keep, &d.prefer[..]) else {
            return 0;
        };
        let Some(Ins::Direct(di, _)) = prog.code.get(*e as usize) else {
            return 0;
        };
        let Some(Direct::Int(src)) = prog.directs.get(*di as usize) else {
            return 0;
        };
        // The values the scores depend on besides the option.
        self.kept.key.clear();
        for s in d.hoist.iter().map(|h| h.0).chain(sk.reads.iter().copied()) {
            let Some(v) = self.stack.get(base + s as usize) else {
                return 0;
            };
            self.kept.key.push(v.clone());
        }
        // A hoisted part read only where another is true is not compared where that one is
        // false (no score read it); which parts those are is part of the key.
        if !sk.guards.is_empty() {
            let key = &mut self.kept.key;
            let mut unread: u64 = 0;
            for &(p, g) in sk.guards.iter() {
                if key.get(g as usize) == Some(&Value::Bool(false)) {
                    unread |= 1 << p;
                }
            }
            for (i, v) in key.iter_mut().enumerate().take(64) {
                if unread & (1 << i) != 0 {
                    *v = Value::None;
                }
            }
            key.push(Value::Int(unread as i64));
        }
        if self.kept.total + self.kept.entries.len() >= MAX_SCORES {
            self.kept.clear();
        }
        let entry = self.kept.entry(site);
        let Some(offer) = self.scored_offer(base, *slot, out.len()) else {
            return 0;
        };
        let start = offer.start;
        // The kept scores, and which options have none.
        let mut pending = std::mem::take(&mut self.kept.pending);
        pending.clear();
        // Where the previous option was looked for: options come in the order scores are
        // kept in, so the next one is found by moving on from there.
        let mut j = 0;
        let scores = &self.kept.entries[entry].scores;
        for (i, &o) in self.opts[..offer.end].iter().enumerate() {
            out.push(0);
            if matches!(o, Opt::Skip(_)) {
                continue;
            }
            let r = rank(o);
            if j > 0 && scores.get(j - 1).is_some_and(|s| s.0 >= r) {
                j = scores.partition_point(|s| s.0 < r);
            }
            while scores.get(j).is_some_and(|s| s.0 < r) {
                j += 1;
            }
            match scores.get(j) {
                Some(&(k, x)) if k == r => {
                    out[start + i] = x;
                    j += 1;
                }
                _ => pending.push(i as u32),
            }
        }
        let done = self.score_offer(site, (src, *e), &offer, &pending, out);
        let mut added = std::mem::take(&mut self.kept.added);
        added.clear();
        for &i in pending.iter().take_while(|&&i| (i as usize) < done) {
            added.push((rank(self.opts[i as usize]), out[start + i as usize]));
        }
        self.kept.pending = pending;
        if !added.is_empty() {
            self.kept.total += added.len();
            let scores = &mut self.kept.entries[entry].scores;
            scores.extend_from_slice(&added);
            scores.sort_unstable_by_key(|s| s.0);
        }
        self.kept.added = added;
        done
    }
}
