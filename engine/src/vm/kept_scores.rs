//! Scoring an offer with the scores kept from the decision's earlier offers (`kept.rs`
//! says when they are kept and why it stays exact).

use super::code::{DecisionSite, Ins};
use super::kept::{MAX_SCORES, rank};
use super::machine::Direct;
use super::machine::Match;
use crate::agent::Opt;
use crate::value::Value;

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
