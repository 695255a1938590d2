//! Word programs ([`super::word`]) as machine code, through `fuba-native` (Cranelift).
//!
//! When the rules are compiled, every word program is translated into the native
//! crate's register form ([`fuba_native::Op`]) and compiled into one [`Native`] shared
//! by the program. A run reads the program's frame locals and roles into an array of
//! words (its inputs), calls the machine code, and answers its callbacks — primitives,
//! state variables, counted calls, moves found — from the match, exactly as the word
//! interpreter works them out. It gives up where the word code does, and the stack code
//! then runs; a program the native crate refuses keeps running as word code.
//!
//! `FUBA_NO_NATIVE=1` (read when the rules are compiled) leaves every program to the
//! word code, to compare the two.

use fuba_native::{BinOp, Compiler, Grid, Host, Op};

pub(super) mod score;

use super::found::{Found, MAX_FOUND, push_found};
use super::machine::{Match, Program};
use super::native_code::{Input, Leaf, MAX_INPUTS, Native, NativeFn};
use super::word::{K, W, WOp, WordProg, value, value_word, word_signature};
use crate::board::{AreaId, AreaSet, Board, Direction, MAX_AREAS, Side};
use crate::prims::Prim;
use crate::ruleset::Ruleset;
use crate::state::{GONE, MatchState};

/// Compiles the loops' word programs in `p` to machine code (unless `FUBA_NO_NATIVE` is
/// set or the machine has no code generator: then the loops run as closures). Each word
/// program is taken: it is only the lowering's step toward machine code. The scores' are
/// kept for [`ScoreCode`](super::native_code::ScoreCode), compiled when a match first asks for scores.
pub(crate) fn attach(p: &mut Program, rs: &Ruleset) {
    let loops: Vec<Option<WordProg>> = p.moves_loops.iter_mut().map(|l| l.word.take()).collect();
    let words: Vec<Option<&WordProg>> = loops.iter().map(Option::as_ref).collect();
    if let Some((native, fns)) = compile(&words, rs) {
        for (l, f) in p.moves_loops.iter_mut().zip(fns) {
            l.native = f;
        }
        p.native = Some(std::sync::Arc::new(native));
    }
}

/// The machine code of word programs and each one's function (`None` where the native
/// crate refused it); `None` when nothing is compiled (`FUBA_NO_NATIVE`, no code
/// generator, a board of more than 32 areas, no program).
fn compile(words: &[Option<&WordProg>], rs: &Ruleset) -> Option<(Native, Vec<Option<NativeFn>>)> {
    if words.iter().all(Option::is_none) {
        return None;
    }
    compile_with(rs, |tables, leaves| {
        (words.iter())
            .map(|w| Some((translate(w.as_ref()?, tables, leaves, Once::Calls)?, None)))
            .collect()
    })
}

/// A program in the native crate's form: its operations and the inputs it reads.
type Translated = (Vec<Op>, Vec<Input>);

/// The machine code of the programs `translate` gives (in the native crate's form, with
/// the leaves they call back for), as [`compile`] makes it. A program given with an input
/// is compiled to run once per row of words standing for that input
/// ([`fuba_native::Compiler::add_rows`]).
fn compile_with(
    rs: &Ruleset,
    translate: impl FnOnce(&Tables, &mut Vec<Leaf>) -> Vec<Option<(Translated, Option<u16>)>>,
) -> Option<(Native, Vec<Option<NativeFn>>)> {
    let board = &rs.board;
    if std::env::var_os("FUBA_NO_NATIVE").is_some() || board.len() > 32 {
        return None;
    }
    let mut c = Compiler::new().ok()?;
    // The match answers the same for a whole run: a loop's callbacks of operands it does
    // not change (a team's state variable, a side's goal line read in every round) are
    // made once a run.
    c.keep_answers(true);
    // A loop's moves found are kept by the code and told once, when it ends (a callback
    // per move cost about 45 instructions).
    c.keep_moves(true);
    let tables = Tables::new(board, rs.count_cap, &mut c);
    let mut leaves = Vec::new();
    let fns = (translate(&tables, &mut leaves).into_iter())
        .map(|t| {
            let ((ops, inputs), rows) = t?;
            let id = match rows {
                Some(input) => c.add_rows(&ops, input),
                None => c.add(&ops),
            }
            .ok()?;
            Some(NativeFn {
                id,
                inputs: inputs.into(),
                counts: ops.iter().any(|op| matches!(op, Op::CountIn(..))),
            })
        })
        .collect();
    let code = c.finish().ok()?;
    Some((Native { code, leaves }, fns))
}

/// The board's tables the machine code reads in place, by their numbers in the compiler.
struct Tables {
    adjacent: u32,
    forward: u32,
    backward: u32,
    behind: u32,
    same_level: u32,
    closer: u32,
    entirely_in_half: u32,
    partly_in_half: u32,
    /// Grids: an entry for every two areas.
    distance: u32,
    between: u32,
    /// The most `count` gives (`u64::MAX`: no cap).
    count_cap: u64,
}

impl Tables {
    fn new(board: &Board, count_cap: i64, c: &mut Compiler) -> Tables {
        let n = board.len() as u8;
        let mut table = |f: &dyn Fn(AreaId, Side) -> AreaSet| {
            let mut t = [0u32; 64];
            for (side, half) in [Side::South, Side::North].into_iter().zip(t.chunks_mut(32)) {
                for a in 0..n {
                    half[a as usize] = f(a, side).0;
                }
            }
            c.table(t)
        };
        let one = AreaSet::one;
        let half = |whole: bool| {
            move |a, s| {
                let inside = if whole {
                    board.entirely_in_half(a, s)
                } else {
                    board.partly_in_half(a, s)
                };
                AreaSet(u32::from(inside))
            }
        };
        let adjacent = table(&|a, _| board.adjacent(a));
        let forward = table(&|a, s| board.step(one(a), Direction::Forward, s));
        let backward = table(&|a, s| board.step(one(a), Direction::Backward, s));
        let behind = table(&|a, s| board.behind(one(a), s));
        let same_level = table(&|a, _| board.same_level(a));
        let closer = table(&|a, s| board.closer(a, s));
        let entirely_in_half = table(&half(true));
        let partly_in_half = table(&half(false));
        Tables {
            adjacent,
            forward,
            backward,
            behind,
            same_level,
            closer,
            entirely_in_half,
            partly_in_half,
            distance: c.grid(&grid(n, &|a, b| u32::from(board.distance(a, b)))),
            between: c.grid(&grid(n, &|a, b| board.between(a, b) as u32)),
            count_cap: if count_cap > 0 {
                count_cap as u64
            } else {
                u64::MAX
            },
        }
    }

    /// A primitive as an operation on the tables or the words, where it is one.
    fn op(&self, p: Prim, a: u8, [x, y, ..]: [u8; 5]) -> Option<Op> {
        Some(match p {
            Prim::Adjacent => Op::Spread(a, self.adjacent, x, None),
            Prim::Forward => Op::Spread(a, self.forward, x, Some(y)),
            Prim::Backward => Op::Spread(a, self.backward, x, Some(y)),
            Prim::Behind => Op::Spread(a, self.behind, x, Some(y)),
            Prim::SameLevel => Op::Entry(a, self.same_level, x, None),
            Prim::Closer => Op::Entry(a, self.closer, x, Some(y)),
            Prim::EntirelyInHalf => Op::Entry(a, self.entirely_in_half, x, Some(y)),
            Prim::PartlyInHalf => Op::Entry(a, self.partly_in_half, x, Some(y)),
            Prim::Distance => Op::Pair(a, self.distance, x, y),
            Prim::Count => Op::CountIn(a, x, y, self.count_cap),
            Prim::Between => Op::Pair(a, self.between, x, y),
            Prim::Other => Op::Other(a, x),
            Prim::Size => Op::Size(a, x),
            Prim::IsHome => Op::Not(a, x),
            _ => return None,
        })
    }
}

/// A grid of the board's `n` areas, `f(a, b)` at `a * 32 + b` (0 past the board's
/// areas, as in the tables).
fn grid(n: u8, f: &dyn Fn(AreaId, AreaId) -> u32) -> Box<Grid> {
    let mut g = Box::new([0u32; 1024]);
    for a in 0..n {
        for b in 0..n {
            g[usize::from(a) * 32 + usize::from(b)] = f(a, b);
        }
    }
    g
}

/// How a program reads the primitives of no operands and the state variables it needs.
#[derive(Clone, Copy, PartialEq)]
enum Once {
    /// As inputs, read before it runs: for a score, run once per option of an offer and
    /// prepared once for them all ([`ScoreCode::prepare`](super::native_code::ScoreCode::prepare)).
    Inputs,
    /// By calling the match back where the code reads them: for a loop, run once, which
    /// may not read them all.
    Calls,
}

/// A word program in the native crate's form, with the inputs it reads.
fn translate(
    w: &WordProg,
    tables: &Tables,
    leaves: &mut Vec<Leaf>,
    once: Once,
) -> Option<(Vec<Op>, Vec<Input>)> {
    let mut inputs: Vec<Input> = Vec::new();
    // An input read twice (a local or a role read by several inlined procedures, a
    // loop's setup roles) is read once: nothing changes it while the program runs.
    let mut input = |i: Input| -> Option<u16> {
        let n = inputs.iter().position(|x| *x == i);
        let n = n.unwrap_or_else(|| {
            inputs.push(i);
            inputs.len() - 1
        });
        (n < MAX_INPUTS).then_some(n as u16)
    };
    let mut leaf = |l: Leaf| -> u32 {
        leaves.push(l);
        leaves.len() as u32 - 1
    };
    let mut ops = Vec::with_capacity(w.code.len());
    for ins in w.code.iter() {
        ops.push(match *ins {
            W::Const(a, k) => Op::Const(a, *w.consts.get(k as usize)?),
            W::Local(a, s, k) => Op::Input(a, input(Input::Local(s, k))?),
            W::Role(a, r) => Op::Input(a, input(Input::Role(r))?),
            W::Var(a, scope, i, k) if once == Once::Inputs => {
                Op::Input(a, input(Input::Var(scope, i, k))?)
            }
            W::Var(a, scope, i, k) => Op::Var(a, leaf(Leaf::Var(scope, i, k)), None),
            W::TeamVar(a, scope, i, k, t) => Op::Var(a, leaf(Leaf::Var(scope, i, k)), Some(t)),
            W::Not(a, b) => Op::Not(a, b),
            W::Neg(a, b) => Op::Neg(a, b),
            W::Bin(o, a, b, c) => Op::Bin(bin(o), a, b, c),
            W::Copy(a, b) => Op::Copy(a, b),
            W::ToSet(a, b) => Op::ToSet(a, b),
            W::Prim(p, a, _)
                if once == Once::Inputs && p.arity() == 0 && word_signature(p).is_some() =>
            {
                Op::Input(a, input(Input::Prim(p))?)
            }
            W::Prim(p, a, xs) => match tables.op(p, a, xs) {
                Some(op) => op,
                None if word_signature(p).is_some() => Op::Prim(a, leaf(Leaf::Prim(p)), xs),
                None => {
                    let mut kinds = [K::Int; 5];
                    for (k, t) in kinds.iter_mut().zip(p.params()) {
                        *k = K::of(*t)?;
                    }
                    Op::Prim(a, leaf(Leaf::Values(p, kinds, K::of(p.ret())?)), xs)
                }
            },
            W::MoveEnd(a, b, from) => Op::MoveEnd(a, b, from),
            W::MoveKeeper(a, b) => Op::MoveKeeper(a, b),
            W::Jump(t) => Op::Jump(t),
            W::JumpIfNot(c, t) => Op::JumpIfNot(c, t),
            W::UnlessName(c, at, n, t) => {
                let names = w.names.get(at as usize..at as usize + n as usize)?;
                Op::UnlessAny(c, names.iter().map(|s| u64::from(*s)).collect(), t)
            }
            W::Count(p) => Op::Count(u32::from(p)),
            W::Call(a, p, xs) => Op::Call(a, leaf(Leaf::Call(p)), xs),
            W::Tick => Op::Tick,
            W::NextArea(v, s, t) => Op::NextArea(v, s, t),
            W::AddMoves(acc, xs) => Op::AddMoves(acc, xs),
            W::GiveUp => Op::GiveUp,
            W::Ret(a) => Op::Ret(a),
        });
    }
    Some((ops, inputs))
}

fn bin(o: WOp) -> BinOp {
    match o {
        WOp::Add => BinOp::Add,
        WOp::Sub => BinOp::Sub,
        WOp::Mul => BinOp::Mul,
        WOp::Div => BinOp::Div,
        WOp::Rem => BinOp::Rem,
        WOp::Lt => BinOp::Lt,
        WOp::Le => BinOp::Le,
        WOp::Gt => BinOp::Gt,
        WOp::Ge => BinOp::Ge,
        WOp::Eq => BinOp::Eq,
        WOp::Ne => BinOp::Ne,
        WOp::Union => BinOp::Union,
        WOp::Inter => BinOp::Inter,
        WOp::Diff => BinOp::Diff,
        WOp::In => BinOp::In,
        WOp::Max => BinOp::Max,
        WOp::Min => BinOp::Min,
    }
}

/// The match as the machine code's callbacks see it.
struct MatchHost<'a, 'm> {
    m: &'a mut Match<'m>,
    leaves: &'a [Leaf],
    /// The moves found so far, at most [`super::found::MAX_FOUND`]; `None` for a
    /// score, which finds none.
    found: Option<&'a mut Vec<Found>>,
    /// What to take back if the code gives up after calling a procedure.
    undo: Option<Box<super::call_pure::CallUndo>>,
}

impl Host for MatchHost<'_, '_> {
    fn prim(&mut self, p: u32, [x, y, z, u, v]: [u64; 5]) -> Option<u64> {
        match *self.leaves.get(p as usize)? {
            Leaf::Prim(p) => prim(self.m, p, x, y, z),
            Leaf::Values(p, kinds, out) => {
                let words = [x, y, z, u, v];
                let args = (words.iter().zip(kinds).take(p.arity())).map(|(w, k)| value(*w, k));
                value_word(&self.m.prim_of_values(p, args)?, out)
            }
            Leaf::Var(..) | Leaf::Call(..) => None,
        }
    }

    fn var(&mut self, v: u32, team: u64) -> Option<u64> {
        match *self.leaves.get(v as usize)? {
            Leaf::Var(scope, i, k) => value_word(self.m.var_at(scope, i, team as u8)?, k),
            Leaf::Prim(_) | Leaf::Values(..) | Leaf::Call(..) => None,
        }
    }

    fn count(&mut self, p: u32) {
        self.m.direct_calls.push(p as u16);
    }

    fn counts(&mut self, ps: &[u32]) {
        self.m.direct_calls.extend(ps.iter().map(|&p| p as u16));
    }

    fn add_moves(&mut self, acc: u8, team: u64, from: u64, dests: u64) -> Option<()> {
        let f = (acc, team as u8, from as u8, AreaSet(dests as u32));
        push_found(self.found.as_deref_mut()?, f)
    }

    fn moves(&mut self, words: &[u64]) -> Option<()> {
        let found = self.found.as_deref_mut()?;
        let f = |w: u64| {
            (
                w as u8,
                (w >> 8) as u8,
                (w >> 16) as u8,
                AreaSet((w >> 32) as u32),
            )
        };
        if found.len() + words.len() <= MAX_FOUND {
            // All of them fit: one reservation, no test per move.
            found.extend(words.iter().map(|&w| f(w)));
            return Some(());
        }
        words.iter().try_for_each(|&w| push_found(found, f(w)))
    }

    fn call(&mut self, f: u32, words: [u64; 5], ops: &mut u64) -> Option<u64> {
        let Leaf::Call(p) = *self.leaves.get(f as usize)? else {
            return None;
        };
        // Only a loop's code calls (a score's never runs the stack machine).
        self.found.as_ref()?;
        if self.undo.is_none() {
            self.undo = Some(Box::new(self.m.call_undo()));
        }
        let proc = self.m.rs.procs.get(usize::from(p))?;
        // The lowering made every parameter's and the value's type a word's.
        let args = (words.iter().zip(&proc.params)).map(|(w, (_, ty))| value(*w, kind(*ty)));
        self.m.ops = *ops;
        let v = self.m.call_pure(p, args);
        *ops = self.m.ops;
        value_word(&v?, kind(proc.ret))
    }
}

impl NativeFn {
    /// Reads the inputs other than those of frame local `skip` (`u16::MAX`: none) into
    /// `words`: which inputs read `skip` (bit `i`: input `i`), `None` when an input is
    /// not a word of its kind.
    fn read_inputs(&self, m: &Match<'_>, base: usize, skip: u16, words: &mut [u64]) -> Option<u32> {
        let mut skipped = 0;
        let frame = m.stack.get(base..)?;
        for (n, (w, i)) in words.iter_mut().zip(self.inputs.iter()).enumerate() {
            *w = match *i {
                Input::Local(s, k) => {
                    if s == skip {
                        skipped |= 1 << n;
                        continue;
                    }
                    local_word(frame.get(usize::from(s))?, k)?
                }
                Input::Role(r) => u64::from(m.role(r)),
                Input::Prim(..) | Input::Var(..) => read_once(m, *i)?,
            };
        }
        Some(skipped)
    }

    /// Runs the machine code of a loop's word program, the moves it finds pushed onto
    /// `found`; `None` when it gave up.
    pub(crate) fn run(
        &self,
        native: &Native,
        m: &mut Match<'_>,
        base: usize,
        found: &mut Vec<Found>,
    ) -> Option<()> {
        let mut counts = [0u8; 2 * MAX_AREAS];
        if self.counts {
            read_counts(m, &mut counts)?;
        }
        // Most loops read a few inputs: 64 bytes cleared for them, not 256.
        let (mut few, mut all) = ([0u64; FEW_INPUTS], None);
        let words: &mut [u64] = if self.inputs.len() <= FEW_INPUTS {
            &mut few
        } else {
            all.insert([0u64; MAX_INPUTS])
        };
        self.read_inputs(m, base, u16::MAX, words)?;
        let words = &words[..self.inputs.len()];
        let mut ops = m.ops;
        let limit = m.limits.ops_per_stage;
        let mut host = MatchHost {
            m,
            leaves: &native.leaves,
            found: Some(found),
            undo: None,
        };
        let w = native
            .code
            .run_with(self.id, &mut host, words, &counts, &mut ops, limit);
        host.m.ops = ops;
        if let (None, Some(undo)) = (w, host.undo.take()) {
            host.m.take_back_calls(*undo);
        }
        w.map(|_| ())
    }
}

/// The inputs a loop's words are read into without clearing [`MAX_INPUTS`] of them.
const FEW_INPUTS: usize = 8;

/// A local's word: [`value_word`] with the kinds loops read most tested first.
#[inline(always)]
fn local_word(v: &crate::value::Value, k: K) -> Option<u64> {
    use crate::value::Value;
    match (v, k) {
        (Value::Areas(s), K::Areas) => Some(u64::from(s.0)),
        (Value::Team(t), K::Team) => Some(u64::from(*t)),
        _ => value_word(v, k),
    }
}

/// The word kind of a type the lowering found to be a word's.
fn kind(ty: crate::value::Ty) -> K {
    K::of(ty).unwrap_or(K::Int)
}

/// A score's input read once before its code runs ([`Once::Inputs`]): out of line,
/// leaving the loops' reading of their locals as small as it was.
#[inline(never)]
fn read_once(m: &Match<'_>, i: Input) -> Option<u64> {
    match i {
        Input::Prim(p) => prim(m, p, 0, 0, 0),
        Input::Var(scope, i, k) => value_word(m.var_at(scope, i, 0)?, k),
        Input::Local(..) | Input::Role(_) => None,
    }
}

/// The pieces per area of both teams, read in place by the code's counts.
fn read_counts(m: &Match<'_>, counts: &mut [u8; 2 * MAX_AREAS]) -> Option<()> {
    let [home, away] = &m.st.pieces[..] else {
        return None;
    };
    counts[..MAX_AREAS].copy_from_slice(&home.count);
    counts[MAX_AREAS..].copy_from_slice(&away.count);
    Some(())
}

/// A primitive of words (kinds as [`word_signature`] gives them).
pub(crate) fn prim(m: &Match<'_>, p: Prim, x: u64, y: u64, z: u64) -> Option<u64> {
    use crate::board::Direction;
    let side = |t: u64| MatchState::side(t as u8);
    let set = |w: u64| AreaSet(w as u32);
    let b = &m.rs.board;
    Some(match p {
        Prim::BallArea => u64::from(m.st.ball_area),
        Prim::BallValue => m.st.ball_value as u64,
        Prim::Other => 1 - x,
        Prim::Adjacent => u64::from(b.adjacent_set(set(x)).0),
        Prim::SameLevel => u64::from(b.same_level(x as u8).0),
        Prim::FieldAreas | Prim::Unmoved => u64::from(
            m.st.pieces[x as usize % 2]
                .field_areas(p == Prim::Unmoved)
                .0,
        ),
        Prim::KeeperArea => match m.st.pieces[x as usize % 2].at[0] {
            a if a < GONE => u64::from(a),
            _ => return None,
        },
        Prim::Count | Prim::CountField => m.count_in(x as u8, set(y), p == Prim::CountField) as u64,
        Prim::Forward => u64::from(b.step(set(x), Direction::Forward, side(y)).0),
        Prim::Backward => u64::from(b.step(set(x), Direction::Backward, side(y)).0),
        Prim::Behind => u64::from(b.behind(set(x), side(y)).0),
        Prim::Closer => u64::from(b.closer(x as u8, side(y)).0),
        Prim::Distance => u64::from(b.distance(x as u8, y as u8)),
        Prim::EntirelyInHalf => u64::from(b.entirely_in_half(x as u8, side(y))),
        Prim::PartlyInHalf => u64::from(b.partly_in_half(x as u8, side(y))),
        Prim::Size => u64::from(set(x).len()),
        Prim::Between => b.between(x as u8, y as u8) as u64,
        Prim::Clamp => (x as i64).max(y as i64).min(z as i64) as u64,
        Prim::Abs => (x as i64).saturating_abs() as u64,
        Prim::GoalLineAreas => u64::from(b.goal_line_areas(None).0),
        Prim::OwnGoalLine => u64::from(b.goal_line_areas(Some(side(x))).0),
        Prim::HalfAreas => u64::from(b.half_areas(side(x)).0),
        Prim::Occupied => u64::from(m.st.pieces.get(x as usize)?.occupied().0),
        Prim::KeeperMoved => u64::from(m.st.pieces.get(x as usize)?.moved & 1 != 0),
        Prim::IsHome => u64::from(x == 0),
        _ => return None,
    })
}
