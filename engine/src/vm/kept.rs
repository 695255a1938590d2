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
//! are scored afresh in one call of the machine code ([`super::native_code::ScoreCode`]), which
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

use crate::agent::Opt;
use crate::value::Value;

/// The most scores and entries (sets of values) kept at once: past it, everything kept
/// is dropped (a match of the original edition with heuristic agents keeps about 1,000
/// scores).
pub(super) const MAX_SCORES: usize = 1 << 14;

/// No entry.
const NONE: u32 = u32::MAX;

/// The scores kept.
#[derive(Default)]
pub(crate) struct Kept {
    /// Whether scores are kept (on by default).
    pub(crate) on: bool,
    /// The first entry of each hash of a site and its values.
    index: HashMap<u64, u32, BuildHasherDefault<KeyHasher>>,
    pub(super) entries: Vec<Entry>,
    /// Per decision site, the entry it used last (`NONE`: none), tried first.
    last: Vec<u32>,
    /// How many scores are kept in all.
    pub(super) total: usize,
    /// Spare buffers, reused: the values of the offer being scored, and the scores worked
    /// out at it.
    pub(super) key: Vec<Value>,
    pub(super) added: Vec<(u32, i64)>,
    /// Spare buffer: the options of an offer left to score.
    pub(crate) pending: Vec<u32>,
    /// The option numbers 0, 1, 2... as far as an offer has needed them: the options of
    /// an offer scored whole ([`Match::direct_scores`](crate::vm::machine::Match)).
    pub(crate) numbers: Vec<u32>,
}

/// The scores of one decision site worked out with the same values.
pub(super) struct Entry {
    site: u32,
    key: Box<[Value]>,
    /// Each option's score, by [`rank`].
    pub(super) scores: Vec<(u32, i64)>,
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
    pub(super) fn entry(&mut self, site: u32) -> usize {
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
    pub(super) fn clear(&mut self) {
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
pub(super) fn rank(o: Opt) -> u32 {
    match o {
        Opt::Move(m) => (u32::from(!m.keeper) << 16) | (u32::from(m.from) << 8) | u32::from(m.to),
        Opt::Area(a) => (1 << 24) | u32::from(a),
        Opt::Arm(..) | Opt::Skip(_) => u32::MAX,
    }
}
