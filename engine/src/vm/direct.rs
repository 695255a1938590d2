//! Plain expressions evaluated directly: a tree of typed closures, built at lowering
//! (`lower/direct.rs`) for an expression of integers, flags, teams, areas, area sets,
//! names and moves made only of locals, constants, roles, state variables, the light
//! primitives and the operators on them. It runs in one instruction ([`super::code::Ins::Direct`],
//! [`super::code::Ins::DirectBranch`]) instead of one per node, and its operands travel
//! as machine words, not as [`Value`]s through the operand stack.
//!
//! A closure gives up (`None`) wherever the stack code would do anything but the plain
//! case — a value of another kind than the checker found, an overflow, a division by
//! zero, a goalkeeper off the board — and the instruction then runs the stack code that
//! follows it, unchanged: the value, or the error and its message, is the same either
//! way. Nothing here changes the state, so giving up half-way leaves nothing to undo.
//!
//! The closures' types ([`Direct`], [`Src`]) are declared with the program in
//! `machine.rs` and their kinds in `kinds.rs`; this module runs them.

use super::code::{DecisionSite, Ins};
use super::kinds::Kind;
use super::machine::{Direct, Match, Src, Wait};
use super::native::score::ScoreCall;
use super::native_code::ScoreCode;
use crate::agent::Opt;
use crate::ir::Scope;
use crate::value::{Team, Value};

impl<T: Kind> Src<T> {
    /// The operand's value.
    #[inline(always)]
    pub(crate) fn get(&self, m: &mut Match<'_>, base: usize) -> Option<T> {
        match self {
            Src::Local(s) => T::of(m.stack.get(base + *s as usize)?),
            Src::Const(k) => Some(*k),
            Src::Fn(f) => f(m, base),
        }
    }
}

impl Direct {
    /// The expression's value as the stack code would leave it, or `None` to run that
    /// code.
    #[inline]
    pub(crate) fn value(&self, m: &mut Match<'_>, base: usize) -> Option<Value> {
        Some(match self {
            Direct::Int(s) => Value::Int(s.get(m, base)?),
            Direct::Bool(s) => Value::Bool(s.get(m, base)?),
            Direct::Team(s) => s.get(m, base)?.value(),
            Direct::Area(s) => s.get(m, base)?.value(),
            Direct::Areas(s) => Value::Areas(s.get(m, base)?),
            Direct::Name(s) => s.get(m, base)?.value(),
            Direct::Move(s) => Value::Move(s.get(m, base)?),
        })
    }

    /// A value no reader of this kind accepts (a hoisted part that gave up: its readers
    /// give up too).
    fn poison(&self) -> Value {
        match self {
            Direct::Int(_) => Value::Bool(false),
            _ => Value::Int(0),
        }
    }

    /// A condition's truth (`true` only for `true`, as the jumps read it), or `None` to
    /// run the stack code.
    #[inline]
    pub(crate) fn truth(&self, m: &mut Match<'_>, base: usize) -> Option<bool> {
        match self {
            Direct::Bool(s) => s.get(m, base),
            _ => None,
        }
    }
}

/// An offer of a `choose ... from` being scored ([`Match::scored_offer`]).
#[derive(Clone, Copy)]
pub(crate) struct Offer {
    /// The frame's base and the option's local in it, and where that is on the stack.
    base: usize,
    slot: u16,
    at: usize,
    /// How many options come before the first arm.
    pub(crate) end: usize,
    /// Where the offer's scores start in the list of scores.
    pub(crate) start: usize,
}

impl Match<'_> {
    /// After a direct expression gave its value: the calls of inlined procedures it made
    /// are counted, as their `CountCall` instructions would have.
    #[inline]
    pub(crate) fn direct_done(&mut self) {
        if !self.direct_calls.is_empty() {
            self.count_direct_calls();
        }
    }

    /// After a direct expression gave up: what it counted is undone, for the stack code
    /// to count it again (`ops`: the operations counted before it started).
    #[cold]
    pub(crate) fn direct_gave_up(&mut self, _at: u32, ops: u64) {
        #[cfg(feature = "vm-profile")]
        super::vmprof::gave_up(_at);
        self.direct_calls.clear();
        self.ops = ops;
    }

    fn count_direct_calls(&mut self) {
        if self.counting {
            for &p in self.direct_calls.iter() {
                if let Some(c) = self.counters.procs.get_mut(usize::from(p)) {
                    *c += 1;
                }
            }
        }
        self.memo.note_calls(&self.direct_calls);
        self.direct_calls.clear();
    }

    /// Works out the waiting decision's hoisted parts if they were left for the closures
    /// ([`Match::unhoisted`]: its score's machine code works them out itself), before
    /// the closures or the stack code score an option. Every way the closures score an
    /// option calls it first ([`Match::score_options`], the rest of [`Match::hints`]):
    /// until then the parts' locals may hold an earlier offer's values.
    pub(crate) fn hoist_due(&mut self, base: usize) {
        if std::mem::take(&mut self.unhoisted)
            && let Wait::Decision { site, .. } = self.wait
        {
            let prog = self.prog;
            self.hoist_scores(&prog.decisions[site as usize].hoist, base);
        }
    }

    /// Before the `prefer` scores of a decision are worked out: the parts of its score
    /// that do not depend on the option, each into its hidden local (`lower/hoist.rs`).
    /// A part that gives up leaves a value its readers refuse, so they give up too and
    /// the score's stack code runs. What the parts count is dropped: nothing is counted
    /// while scores run.
    pub(crate) fn hoist_scores(&mut self, hoist: &[(u16, u16)], base: usize) {
        if !self.direct || hoist.is_empty() {
            return;
        }
        let prog = self.prog;
        for &(slot, d) in hoist {
            let d = &prog.directs[d as usize];
            let v = d.value(self, base).unwrap_or_else(|| d.poison());
            if let Some(x) = self.stack.get_mut(base + slot as usize) {
                *x = v;
            }
        }
        self.direct_calls.clear();
    }

    /// The scores of the waiting `choose ... from` (decision `d`) whose score is one direct
    /// integer expression, every option afresh: by the score's machine code in one call
    /// where it has some, by the closures (the option written into its slot) where it
    /// has none or gave up ([`Match::score_offer`]). Returns how many options it scored
    /// into `out`: it stops at an option whose closures give up (the caller scores that
    /// one and the rest as usual), and scores none when the score is not such an
    /// expression.
    pub(crate) fn direct_scores(
        &mut self,
        site: u32,
        d: &DecisionSite,
        base: usize,
        out: &mut Vec<i64>,
    ) -> usize {
        let prog = self.prog;
        let (true, [Some((slot, e))]) = (self.direct && d.arms.is_empty(), &d.prefer[..]) else {
            return 0;
        };
        let Some(Ins::Direct(di, skip)) = prog.code.get(*e as usize) else {
            return 0;
        };
        let (Some(Ins::EndScore), Some(Direct::Int(src))) = (
            prog.code.get(*skip as usize),
            prog.directs.get(*di as usize),
        ) else {
            return 0;
        };
        // A decision without arms offers no arm: its offer ends with its options.
        let Some(offer) = self.scored_offer_to(base, *slot, out.len(), self.opts.len()) else {
            return 0;
        };
        // The options to score, numbered: all but the skip, which `choose ... from` offers
        // last and only there (`vm/offer.rs`). The numbers 0, 1, 2... are kept from offer
        // to offer (a list that only grows), not written again for each.
        let mut numbers = std::mem::take(&mut self.kept.numbers);
        let end = offer.end;
        out.resize(out.len() + end, 0);
        let plain = match self.opts[..end].last() {
            Some(Opt::Skip(_)) => end - 1,
            _ => end,
        };
        if numbers.len() < plain {
            numbers.extend(numbers.len() as u32..plain as u32);
        }
        let done = self.score_offer(site, (src, *e), &offer, &numbers[..plain], out);
        self.kept.numbers = numbers;
        done
    }

    /// The offer waiting at a `choose ... from` whose option is in frame local `slot`,
    /// its scores to start at `start` in the scores' list (`None`: the local is past the
    /// stack).
    pub(crate) fn scored_offer(&self, base: usize, slot: u16, start: usize) -> Option<Offer> {
        let end = (self.opts.iter())
            .position(|o| matches!(o, Opt::Arm(..)))
            .unwrap_or(self.opts.len());
        self.scored_offer_to(base, slot, start, end)
    }

    /// [`Match::scored_offer`] whose options end at `end` (the first arm), known.
    fn scored_offer_to(&self, base: usize, slot: u16, start: usize, end: usize) -> Option<Offer> {
        let at = base + slot as usize;
        (at < self.stack.len()).then_some(Offer {
            base,
            slot,
            at,
            end,
            start,
        })
    }

    /// Scores the options numbered `pending` of `offer` at decision `site` (its closures
    /// and the score's code: `code`) into `out` (the other options' scores already
    /// there): by machine code where it has some ([`Match::score_options`]). Returns how
    /// many options `out` holds scores of: all before the first arm, or those before an
    /// option whose closures gave up.
    pub(crate) fn score_offer(
        &mut self,
        site: u32,
        code: (&Src<i64>, u32),
        offer: &Offer,
        pending: &[u32],
        out: &mut Vec<i64>,
    ) -> usize {
        let Offer {
            base,
            slot,
            at,
            end,
            start,
        } = *offer;
        let mut buf = self.score_buf.take().unwrap_or_default();
        let mut call = (self.score_code())
            .filter(|_| !pending.is_empty())
            .and_then(|c| c.prepare(site, self, base, slot, &mut buf));
        let r = self.score_options(call.as_mut(), code, at, base, pending, &mut out[start..]);
        self.score_buf = Some(buf);
        match r {
            Ok(()) => end,
            Err(i) => {
                out.truncate(start + i);
                i
            }
        }
    }

    /// The scores of the options numbered `pending`, in order, into `out` (by option
    /// number): by their machine code (`call`, made ready for the offer) where it has
    /// some, else by the closures (`src`, the score's code at `e`), the option written
    /// into its frame local (`at`). `Err(i)`: the closures gave up at option `i` (it and
    /// those after it are not scored).
    pub(crate) fn score_options(
        &mut self,
        mut call: Option<&mut ScoreCall>,
        (src, e): (&Src<i64>, u32),
        at: usize,
        base: usize,
        pending: &[u32],
        out: &mut [i64],
    ) -> Result<(), usize> {
        let mut p = 0;
        while p < pending.len() {
            if let Some(c) = call.as_deref_mut() {
                p += c.scores(self, &pending[p..], out);
                self.direct_done();
                if p == pending.len() {
                    break;
                }
            }
            self.hoist_due(base);
            let i = pending[p] as usize;
            let v = match self.opts[i] {
                Opt::Area(a) => Value::Area(a),
                Opt::Move(m) => Value::Move(m),
                Opt::Skip(_) | Opt::Arm(..) => return Err(i),
            };
            self.stack[at] = v;
            let ops = self.ops;
            match src.get(self, base) {
                Some(x) => {
                    self.direct_done();
                    out[i] = x;
                }
                None => {
                    self.direct_gave_up(e, ops);
                    return Err(i);
                }
            }
            p += 1;
        }
        Ok(())
    }

    /// A `prefer` score that is one direct expression ([`super::code::Ins::Direct`] and
    /// then [`super::code::Ins::EndScore`]), worked out without running the machine
    /// (`None`: run it).
    #[inline]
    pub(crate) fn direct_score(&mut self, entry: u32, base: usize) -> Option<i64> {
        let prog = self.prog;
        if !self.direct {
            return None;
        }
        let Some(Ins::Direct(d, skip)) = prog.code.get(entry as usize) else {
            return None;
        };
        if prog.code.get(*skip as usize) != Some(&Ins::EndScore) {
            return None;
        }
        let ops = self.ops;
        match prog.directs[*d as usize].value(self, base) {
            Some(Value::Int(x)) => {
                self.direct_done();
                Some(x)
            }
            _ => {
                self.direct_gave_up(entry, ops);
                None
            }
        }
    }

    /// A state variable's value (per-team scopes: of team `t`).
    #[inline(always)]
    pub(crate) fn var_at(&self, scope: Scope, i: u16, t: Team) -> Option<&Value> {
        let (i, t) = (i as usize, t as usize);
        match scope {
            Scope::Match => self.st.vars_match.get(i),
            Scope::Team => self.st.vars_team.get(i)?.get(t),
            Scope::Turn => self.st.vars_turn.get(i),
            Scope::TeamTurn => self.st.vars_team_turn.get(i)?.get(t),
        }
    }
}

impl<'a> Match<'a> {
    /// The scores' machine code where this match runs machine code.
    pub(crate) fn score_code(&self) -> Option<&'a ScoreCode> {
        let (prog, rs) = (self.prog, self.rs);
        if self.native {
            prog.score_code(rs)
        } else {
            None
        }
    }
}
