//! The machine code of the decisions' `prefer` scores: compiled the first time a match
//! asks for scores ([`ScoreCode`]), and run over an offer's options in one call
//! ([`ScoreCall`]). The programs' translation, inputs and call-backs are the parent
//! module's, shared with the loops.

use fuba_native::Op;

use super::{MatchHost, Once, Translated};
use super::{compile_with, read_counts, translate};
use crate::agent::Opt;
use crate::board::{AreaSet, MAX_AREAS};
use crate::ruleset::Ruleset;
use crate::vm::machine::{Match, Program};
use crate::vm::native_code::{
    Input, MAX_INPUTS, MAX_VARY, Native, NativeFn, ROWS, ScoreBuf, ScoreCode,
};
use crate::vm::word::{K, WordProg};

/// The shortest score (in word instructions) compiled to machine code: the options of an
/// offer are scored in one call ([`ScoreCall::scores`]), so only the shortest scores
/// (a constant, one local) stay closures (`docs/performance.md`, "Machine code for the
/// scores, twelfth round").
const MIN_SCORE_CODE: usize = 8;

/// A score's word program, if it is long enough to be worth machine code.
fn long(w: &Option<WordProg>) -> Option<&WordProg> {
    w.as_ref().filter(|w| w.code.len() >= MIN_SCORE_CODE)
}

/// How many times a program's code may call the match back (a primitive or a state
/// variable that is not an input): what makes one program cost more than another of
/// about the same length.
fn callbacks(ops: &[Op]) -> usize {
    (ops.iter())
        .filter(|op| matches!(op, Op::Prim(..) | Op::Var(..)))
        .count()
}

/// The input that stands for the option in a decision's score code, when the code reads
/// the option as one kind only (the common case): the code is then compiled to run the
/// rows of an offer's options in a loop of its own ([`fuba_native::Compiler::add_rows`]),
/// what no option changes worked out once. `None`: it runs once per option.
fn rows_input(d: &crate::vm::code::DecisionSite, inputs: &[Input]) -> Option<u16> {
    let [Some((slot, _))] = d.prefer[..] else {
        return None;
    };
    let mut reading =
        (inputs.iter().enumerate()).filter(|(_, i)| matches!(i, Input::Local(s, _) if *s == slot));
    match (reading.next(), reading.next()) {
        (Some((n, _)), None) => u16::try_from(n).ok(),
        _ => None,
    }
}

impl ScoreCode {
    /// The scores' machine code of `p` (`None`: none compiled).
    ///
    /// A score whose closures hoist parts has two word programs: one reading those parts
    /// and one working them out itself ([`crate::vm::code::DecisionSite::word_own`]). The
    /// second is compiled where it calls the match back no more often than the first:
    /// then its options cost a few more operations each, and the closures' parts (about
    /// as much each as a call back) are worked out only if the closures score an option.
    pub(crate) fn of(p: &Program, rs: &Ruleset) -> Option<ScoreCode> {
        if p.decisions.iter().all(|d| long(&d.word).is_none()) {
            return None;
        }
        let mut own_parts = vec![false; p.decisions.len()];
        let (native, fns) = compile_with(rs, |tables, leaves| {
            (p.decisions.iter().zip(&mut own_parts))
                .map(|(d, own_parts)| {
                    let read = translate(long(&d.word)?, tables, leaves, Once::Inputs)?;
                    let own = (long(&d.word_own))
                        .and_then(|w| translate(w, tables, leaves, Once::Inputs));
                    let parts = |(_, inputs): &Translated| {
                        (inputs.iter()).any(|i| {
                            matches!(i, Input::Local(s, _) if d.hoist.iter().any(|h| h.0 == *s))
                        })
                    };
                    let chosen = match own {
                        Some(own) if callbacks(&own.0) <= callbacks(&read.0) && !parts(&own) => {
                            *own_parts = true;
                            own
                        }
                        _ => read,
                    };
                    let rows = rows_input(d, &chosen.1);
                    Some((chosen, rows))
                })
                .collect()
        })?;
        Some(ScoreCode {
            native,
            fns,
            own_parts,
        })
    }

    /// Whether decision `site`'s score has machine code that works out the parts the
    /// closures hoist out of it itself (then the closures' parts wait until the closures
    /// score an option).
    pub(crate) fn own_parts(&self, site: u32) -> bool {
        self.own_parts.get(site as usize).copied().unwrap_or(false)
    }

    /// How many decisions' scores have machine code.
    pub(crate) fn len(&self) -> usize {
        self.fns.iter().filter(|f| f.is_some()).count()
    }

    /// The machine code of decision `site`'s score made ready for one offer (`None` when
    /// the site has none, or an input other than the option cannot be read as a word:
    /// the closures score every option then): the inputs other than the option, in frame
    /// local `slot`, and the pieces' counts are read here once, since nothing changes
    /// them while an offer is scored (scores change nothing, and the closures that score
    /// an option the machine code gives up on write only their own `let`s).
    /// The inputs are read into `buf`, the match's buffer kept from offer to offer
    /// ([`ScoreBuf`]).
    pub(crate) fn prepare<'p, 'b>(
        &'p self,
        site: u32,
        m: &Match<'_>,
        base: usize,
        slot: u16,
        buf: &'b mut ScoreBuf,
    ) -> Option<ScoreCall<'p, 'b>> {
        let f = self.fns.get(site as usize)?.as_ref()?;
        let mut call = ScoreCall {
            f,
            native: &self.native,
            buf,
            vary: [0; MAX_VARY],
            kinds: [K::Int; MAX_VARY],
            width: 0,
        };
        let mut bits = f.read_inputs(m, base, slot, &mut call.buf.words)?;
        while bits != 0 {
            let i = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            let (Some(Input::Local(_, k)), true) = (f.inputs.get(i), call.width < MAX_VARY) else {
                return None;
            };
            call.vary[call.width] = i as u16;
            call.kinds[call.width] = *k;
            call.width += 1;
        }
        if f.counts {
            read_counts(m, &mut call.buf.counts)?;
        }
        Some(call)
    }
}

/// A score's machine code ready for the options of one offer ([`ScoreCode::prepare`]).
pub(crate) struct ScoreCall<'p, 'b> {
    f: &'p NativeFn,
    native: &'p Native,
    buf: &'b mut ScoreBuf,
    /// The inputs that read the option, and the kinds they read it as (the first
    /// `width`).
    vary: [u16; MAX_VARY],
    kinds: [K; MAX_VARY],
    width: usize,
}

impl ScoreCall<'_, '_> {
    /// The scores of the options `m.opts[i]` for `i` in `pending`, in order, into
    /// `out[i]`: how many were scored before the machine code gave up on one (it changed
    /// nothing for that one), or met an option not of the kind it reads.
    /// The options run in calls of [`ROWS`]: a call costs about what a score's code does.
    pub(crate) fn scores(&mut self, m: &mut Match<'_>, pending: &[u32], out: &mut [i64]) -> usize {
        let w = self.width;
        let ScoreBuf {
            words: inputs,
            counts,
            rows,
            out: scored,
        } = &mut *self.buf;
        let mut run = RowsRun {
            f: self.f,
            native: self.native,
            inputs,
            counts,
            vary: &self.vary[..w],
        };
        let mut done = 0;
        for chunk in pending.chunks(ROWS) {
            let mut n = 0;
            // Options numbered in a row (`pending` ascends): the options and the scores
            // are read and written as slices, not one by one through their numbers.
            let first = chunk[0] as usize;
            let in_row = chunk[chunk.len() - 1] as usize == first + chunk.len() - 1;
            let ran = if let ([k], true) = (&self.kinds[..w], in_row) {
                // The scores are written where they go.
                let opts = m.opts.get(first..first + chunk.len()).unwrap_or_default();
                n = option_words(opts, *k, rows);
                let to = out.get_mut(first..first + n).unwrap_or_default();
                let ran = run.rows(m, &rows[..to.len()], to);
                done += ran;
                if ran < chunk.len() {
                    break;
                }
                continue;
            } else if let [k] = self.kinds[..w] {
                // The common case, the option read as one kind (measured: 28 k fewer
                // instructions a heuristic match of the original edition than the loop below).
                for (&i, row) in chunk.iter().zip(rows.iter_mut()) {
                    let Some(word) = m.opts.get(i as usize).and_then(|&o| option_word(o, k)) else {
                        break;
                    };
                    *row = word;
                    n += 1;
                }
                run.rows(m, &rows[..n], &mut scored[..n])
            } else {
                'options: for &i in chunk {
                    let Some(&o) = m.opts.get(i as usize) else {
                        break;
                    };
                    for j in 0..w {
                        let Some(word) = option_word(o, self.kinds[j]) else {
                            break 'options;
                        };
                        rows[n * w + j] = word;
                    }
                    n += 1;
                }
                run.rows(m, &rows[..n * w.max(1)], &mut scored[..n])
            };
            for (&i, &x) in chunk.iter().zip(&scored[..ran]) {
                if let Some(o) = out.get_mut(i as usize) {
                    *o = x;
                }
            }
            done += ran;
            if ran < chunk.len() {
                break;
            }
        }
        done
    }
}

/// What one call of a score's machine code over rows of options reads besides the rows.
struct RowsRun<'p, 'b> {
    f: &'p NativeFn,
    native: &'p Native,
    inputs: &'b mut [u64; MAX_INPUTS],
    counts: &'b [u8; 2 * MAX_AREAS],
    vary: &'b [u16],
}

impl RowsRun<'_, '_> {
    /// Runs the machine code once per row of option words.
    fn rows(&mut self, m: &mut Match<'_>, rows: &[u64], out: &mut [i64]) -> usize {
        let f = self.f;
        let mut ops = m.ops;
        let limit = m.limits.ops_per_stage;
        let mut host = MatchHost {
            m,
            leaves: &self.native.leaves,
            found: None,
            undo: None,
        };
        let n = f.inputs.len();
        let done = self.native.code.run_rows(
            f.id,
            &mut host,
            &mut self.inputs[..n],
            self.counts,
            self.vary,
            rows,
            out,
            &mut ops,
            limit,
        );
        host.m.ops = ops;
        done
    }
}

/// The options as words of kind `k` into `rows`, up to the first that is not one: how
/// many were. One loop for each kind (the kind tested once, not for every option).
fn option_words(opts: &[Opt], k: K, rows: &mut [u64]) -> usize {
    fn fill(opts: &[Opt], rows: &mut [u64], word: impl Fn(Opt) -> Option<u64>) -> usize {
        let mut n = 0;
        for (&o, row) in opts.iter().zip(rows.iter_mut()) {
            let Some(w) = word(o) else {
                break;
            };
            *row = w;
            n += 1;
        }
        n
    }
    match k {
        K::Move => fill(opts, rows, |o| match o {
            Opt::Move(mv) => Some(crate::vm::word::move_word(mv)),
            _ => None,
        }),
        K::Area => fill(opts, rows, |o| match o {
            Opt::Area(a) => Some(u64::from(a)),
            _ => None,
        }),
        _ => fill(opts, rows, |o| option_word(o, k)),
    }
}

/// Option `o` as a word of kind `k` ([`crate::vm::word::value_word`] of its value), `None` when it is not
/// one.
#[inline]
fn option_word(o: Opt, k: K) -> Option<u64> {
    Some(match (o, k) {
        (Opt::Area(a), K::Area) => u64::from(a),
        (Opt::Area(a), K::Areas) => u64::from(AreaSet::one(a).0),
        (Opt::Move(mv), K::Move) => crate::vm::word::move_word(mv),
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::value::{Move, Value};
    use crate::vm::word::value_word;

    /// An option's word is its value's, of every kind.
    #[test]
    fn option_words_are_their_values_words() {
        let kinds = [
            K::Int,
            K::Bool,
            K::Team,
            K::Area,
            K::Areas,
            K::Name,
            K::Move,
        ];
        let mut opts: Vec<(Opt, Value)> = (0..32).map(|a| (Opt::Area(a), Value::Area(a))).collect();
        for (from, to, keeper) in [(0, 1, false), (31, 0, true), (7, 7, false)] {
            let m = Move { from, to, keeper };
            opts.push((Opt::Move(m), Value::Move(m)));
        }
        for (o, v) in opts {
            for k in kinds {
                assert_eq!(option_word(o, k), value_word(&v, k), "{o:?} as {k:?}");
            }
        }
    }

    /// The options of an offer as words, kind by kind, are each option's word, up to
    /// the first option that is not a word of the kind.
    #[test]
    fn an_offers_words_are_its_options_words() {
        let mv = |from, to| {
            Opt::Move(Move {
                from,
                to,
                keeper: from == 0,
            })
        };
        let offers = [
            vec![Opt::Area(3), Opt::Area(31), Opt::Area(0)],
            vec![mv(0, 1), mv(4, 9), mv(31, 30)],
            vec![Opt::Area(2), mv(4, 9), Opt::Area(7)],
            vec![mv(4, 9), Opt::Skip(1)],
        ];
        for opts in offers {
            for k in [K::Int, K::Area, K::Areas, K::Move] {
                let mut rows = [0u64; ROWS];
                let n = option_words(&opts, k, &mut rows);
                let want: Vec<u64> = opts.iter().map_while(|&o| option_word(o, k)).collect();
                assert_eq!(rows[..n], want[..], "{opts:?} as {k:?}");
            }
        }
    }
}
