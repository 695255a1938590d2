//! Checks the machine code of `fuba_native` against a reference evaluator written here
//! from the documentation of [`Op`] and [`BinOp`]: hand-written programs for every
//! operation and its edge cases (overflow, bad divisors, areas 0 and 31, the operation
//! budget, callbacks refusing or panicking, bad calls of `Code::run`, ill-formed programs),
//! then random well-formed programs whose value (or give-up), operation count and calls
//! into the [`Host`] must be the evaluator's.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::OnceLock;

use fuba_native::{BinOp, Code, Compiler, Grid, Host, Op, Table};
use proptest::prelude::*;

/// A call into the host, as recorded.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Call {
    Prim(u32, [u64; 5]),
    Var(u32, u64),
    Count(u32),
    Moves(u8, u64, u64, u64),
}

/// A deterministic host: primitives and variables hash their arguments, refusing some
/// ids (primitives `p % 5 == 4`, variables `v % 7 == 6`, gathering set 7); every call is
/// recorded; any callback whose id is `panic_id` panics.
struct Mock {
    calls: Vec<Call>,
    panic_id: Option<u32>,
}

fn mix(h: u64, w: u64) -> u64 {
    let mut z = (h ^ w).wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

impl Mock {
    fn new(panic_id: Option<u32>) -> Mock {
        Mock {
            panic_id,
            calls: Vec::new(),
        }
    }
    fn boom(&self, id: u32) {
        if self.panic_id == Some(id) {
            panic!("host callback {id} panics (on purpose)");
        }
    }
}

impl Host for Mock {
    fn prim(&mut self, p: u32, args: [u64; 5]) -> Option<u64> {
        self.calls.push(Call::Prim(p, args));
        self.boom(p);
        let h = args.iter().fold(u64::from(p), |h, &a| mix(h, a));
        (p % 5 != 4).then_some(if p % 2 == 0 { h % 40 } else { h })
    }
    fn var(&mut self, v: u32, team: u64) -> Option<u64> {
        self.calls.push(Call::Var(v, team));
        self.boom(v);
        (v % 7 != 6).then_some(mix(u64::from(v), team) % 100)
    }
    fn count(&mut self, p: u32) {
        self.calls.push(Call::Count(p));
        self.boom(p);
    }
    fn add_moves(&mut self, acc: u8, team: u64, from: u64, dests: u64) -> Option<()> {
        self.calls.push(Call::Moves(acc, team, from, dests));
        self.boom(u32::from(acc));
        (acc != 7).then_some(())
    }
}

/// The grid every program here may use (table number 2, after [`tables`]).
fn grid() -> &'static Grid {
    static GRID: OnceLock<Grid> = OnceLock::new();
    GRID.get_or_init(|| std::array::from_fn(|i| mix(i as u64, 2) as u32))
}

/// The state bytes every program here is run with.
fn state() -> &'static [u8; 64] {
    static STATE: OnceLock<[u8; 64]> = OnceLock::new();
    STATE.get_or_init(|| std::array::from_fn(|i| (mix(i as u64, 3) % 200) as u8))
}

/// The tables every program here may use.
fn tables() -> [Table; 2] {
    [
        std::array::from_fn(|i| mix(i as u64, 1) as u32),
        std::array::from_fn(|i| (1 << ((i * 7) % 32)) | (1 << (i % 32))),
    ]
}

/// A callback as the machine code makes it: a panic is a refusal.
fn guard<T>(f: impl FnOnce() -> Option<T>) -> Option<T> {
    catch_unwind(AssertUnwindSafe(f)).ok().flatten()
}

/// `o` as documented on [`BinOp`].
fn bin(o: BinOp, x: u64, y: u64) -> Option<u64> {
    let (a, b) = (x as i64, y as i64);
    Some(match o {
        BinOp::Add => a.checked_add(b)? as u64,
        BinOp::Sub => a.checked_sub(b)? as u64,
        BinOp::Mul => a.checked_mul(b)? as u64,
        BinOp::Div => a.checked_div(b)? as u64,
        BinOp::Rem => a.checked_rem(b)? as u64,
        BinOp::Lt => u64::from(a < b),
        BinOp::Le => u64::from(a <= b),
        BinOp::Gt => u64::from(a > b),
        BinOp::Ge => u64::from(a >= b),
        BinOp::Eq => u64::from(x == y),
        BinOp::Ne => u64::from(x != y),
        BinOp::Union => x | y,
        BinOp::Inter => x & y,
        BinOp::Diff => x & !y,
        BinOp::In => u64::from(((y as u32) >> (x & 31)) & 1),
        BinOp::Max => a.max(b) as u64,
        BinOp::Min => a.min(b) as u64,
    })
}

/// The reference evaluator: `prog` as documented on [`Op`].
fn eval(
    prog: &[Op],
    tabs: &[Table],
    host: &mut dyn Host,
    inputs: &[u64],
    ops: &mut u64,
    limit: u64,
) -> Option<u64> {
    let mut r = [0u64; 256];
    let mut pc = 0;
    for _ in 0..1_000_000 {
        let mut next = pc + 1;
        let side = |r: &[u64; 256], t: Option<u8>| match t {
            Some(t) if r[t as usize] != 0 => 32,
            _ => 0,
        };
        let w = match prog[pc] {
            Op::Const(a, w) => Some((a, w)),
            Op::Input(a, i) => Some((a, inputs[i as usize])),
            Op::Var(a, v, t) => {
                let team = t.map_or(0, |t| r[t as usize]);
                Some((a, guard(|| host.var(v, team))?))
            }
            Op::Not(a, x) => Some((a, u64::from(r[x as usize] == 0))),
            Op::Neg(a, x) => Some((a, (r[x as usize] as i64).checked_neg()? as u64)),
            Op::Bin(o, a, x, y) => Some((a, bin(o, r[x as usize], r[y as usize])?)),
            Op::Copy(a, x) => Some((a, r[x as usize])),
            Op::ToSet(a, x) => Some((a, 1 << (r[x as usize] & 31))),
            Op::Prim(a, p, xs) => Some((a, guard(|| host.prim(p, xs.map(|x| r[x as usize])))?)),
            Op::MoveEnd(a, x, from) => {
                Some((a, (r[x as usize] >> if from { 0 } else { 8 }) & 0xff))
            }
            Op::MoveKeeper(a, x) => Some((a, (r[x as usize] >> 16) & 1)),
            Op::Size(a, x) => Some((a, u64::from((r[x as usize] as u32).count_ones()))),
            Op::Other(a, x) => Some((a, 1u64.wrapping_sub(r[x as usize]))),
            Op::Spread(a, t, x, team) => {
                let (set, s) = (r[x as usize] as u32, side(&r, team));
                let all = (0..32).filter(|i| set >> i & 1 == 1);
                Some((
                    a,
                    all.fold(0, |acc, i| acc | u64::from(tabs[t as usize][s + i])),
                ))
            }
            Op::Entry(a, t, x, team) => {
                let i = side(&r, team) + (r[x as usize] & 31) as usize;
                Some((a, u64::from(tabs[t as usize][i])))
            }
            Op::CountIn(a, t, x, max) => {
                let (set, half) = (r[x as usize] as u32, side(&r, Some(t)));
                let all = (0..32).filter(|i| set >> i & 1 == 1);
                let sum: u64 = all.map(|i| u64::from(state()[half + i])).sum();
                Some((a, sum.min(max)))
            }
            Op::Pair(a, _, x, y) => {
                let i = (r[x as usize] & 31) * 32 + (r[y as usize] & 31);
                Some((a, u64::from(grid()[i as usize])))
            }
            Op::Count(p) => {
                guard(|| {
                    host.count(p);
                    Some(())
                })?;
                None
            }
            Op::AddMoves(acc, [t, f, d]) => {
                let (t, f, d) = (r[t as usize], r[f as usize], r[d as usize]);
                guard(|| host.add_moves(acc, t, f, d))?;
                None
            }
            Op::Jump(t) => jump(&mut next, true, t),
            Op::JumpIfNot(c, t) => jump(&mut next, r[c as usize] == 0, t),
            Op::UnlessAny(c, ref ws, t) => jump(&mut next, !ws.contains(&r[c as usize]), t),
            Op::NextArea(v, s, t) => {
                let set = r[s as usize];
                if set == 0 {
                    next = t as usize;
                } else {
                    // The area first, then the rest of the set (as the machine code).
                    r[v as usize] = u64::from(set.trailing_zeros());
                    r[s as usize] = set & (set - 1);
                    *ops += 1;
                    if *ops > limit {
                        return None;
                    }
                }
                None
            }
            Op::Tick => {
                *ops += 1;
                if *ops > limit {
                    return None;
                }
                None
            }
            Op::GiveUp => return None,
            Op::Ret(a) => return Some(r[a as usize]),
        };
        if let Some((a, v)) = w {
            r[a as usize] = v;
        }
        pc = next;
    }
    panic!("the reference evaluator ran too long");
}

/// Goes on at `t` when `cond`; no register written.
fn jump(next: &mut usize, cond: bool, t: u16) -> Option<(u8, u64)> {
    if cond {
        *next = t as usize;
    }
    None
}

/// A run's value, operation count and host calls.
type Outcome = (Option<u64>, u64, Vec<Call>);

/// `prog` run through the machine code and through the evaluator.
fn run_both(
    prog: &[Op],
    inputs: &[u64],
    ops0: u64,
    limit: u64,
    panic_id: Option<u32>,
) -> [Outcome; 2] {
    let mut c = Compiler::new().unwrap();
    for t in tables() {
        c.table(t);
    }
    c.grid(grid());
    let f = c.add(prog).unwrap();
    let code = c.finish().unwrap();
    let (mut h, mut ops) = (Mock::new(panic_id), ops0);
    let got = code.run_with(f, &mut h, inputs, state(), &mut ops, limit);
    let jit = (got, ops, h.calls);
    let (mut h, mut ops) = (Mock::new(panic_id), ops0);
    let want = eval(prog, &tables(), &mut h, inputs, &mut ops, limit);
    [jit, (want, ops, h.calls)]
}

/// `prog`'s outcome, checked to be the evaluator's.
fn outcome(prog: &[Op], inputs: &[u64], ops0: u64, limit: u64) -> Outcome {
    let [jit, reference] = run_both(prog, inputs, ops0, limit, None);
    assert_eq!(jit, reference, "program {prog:?} inputs {inputs:?}");
    jit
}

/// `prog`'s value, checked to be the evaluator's.
fn value(prog: &[Op], inputs: &[u64]) -> Option<u64> {
    outcome(prog, inputs, 0, 100).0
}

/// `op` over inputs 0 and 1 in registers 0 and 1, returning register 2.
fn io2(op: Op) -> Vec<Op> {
    vec![Op::Input(0, 0), Op::Input(1, 1), op, Op::Ret(2)]
}

const M: u64 = i64::MIN as u64;
const X: u64 = i64::MAX as u64;
const LOW: u64 = 0xffff_ffff;
const fn n(v: i64) -> u64 {
    v as u64
}

const ALL_BIN: [BinOp; 17] = {
    use BinOp::*;
    [
        Add, Sub, Mul, Div, Rem, Lt, Le, Gt, Ge, Eq, Ne, Union, Inter, Diff, In, Max, Min,
    ]
};

#[test]
fn every_binop_with_edge_cases() {
    use BinOp::*;
    #[rustfmt::skip]
    let cases: &[(BinOp, u64, u64, Option<u64>)] = &[
        (Add, 1, 2, Some(3)), (Add, n(-5), 3, Some(n(-2))), (Add, X, 1, None), (Add, M, n(-1), None),
        (Sub, 3, 5, Some(n(-2))), (Sub, M, 1, None), (Sub, 0, M, None),
        (Mul, n(-3), 4, Some(n(-12))), (Mul, X, 2, None), (Mul, M, n(-1), None),
        (Mul, 1 << 32, 1 << 31, None),
        (Div, 7, 2, Some(3)), (Div, n(-7), 2, Some(n(-3))), (Div, 7, 0, None), (Div, 0, 0, None),
        (Div, M, n(-1), None), (Div, M, 1, Some(M)),
        (Rem, n(-7), 2, Some(n(-1))), (Rem, 7, 0, None), (Rem, M, n(-1), None), (Rem, M, 2, Some(0)),
        (Lt, n(-1), 0, Some(1)), (Lt, 0, n(-1), Some(0)), (Le, 3, 3, Some(1)), (Le, 4, 3, Some(0)),
        (Gt, 0, n(-1), Some(1)), (Ge, n(-1), 0, Some(0)), (Ge, M, M, Some(1)),
        (Eq, u64::MAX, u64::MAX, Some(1)), (Eq, 1 << 40, 0, Some(0)),
        (Ne, 1 << 40, 0, Some(1)), (Ne, 5, 5, Some(0)),
        (Union, 0b1100, 0b1010, Some(0b1110)), (Inter, 0b1100, 0b1010, Some(0b1000)),
        (Diff, 0b1100, 0b1010, Some(0b0100)), (Diff, u64::MAX, 1, Some(u64::MAX - 1)),
        (In, 0, 1, Some(1)), (In, 0, 2, Some(0)), (In, 31, 1 << 31, Some(1)), (In, 31, 1 << 30, Some(0)),
        (In, 32, 1, Some(1)), (In, 0, 1 << 32, Some(0)), (In, 63, 1 << 31, Some(1)),
        (Max, n(-1), 1, Some(1)), (Max, M, X, Some(X)), (Min, n(-1), 1, Some(n(-1))), (Min, M, X, Some(M)),
    ];
    for &(o, x, y, want) in cases {
        assert_eq!(
            value(&io2(Op::Bin(o, 2, 0, 1)), &[x, y]),
            want,
            "{o:?} {x:#x} {y:#x}"
        );
    }
    for o in ALL_BIN {
        assert!(cases.iter().any(|c| c.0 == o), "{o:?} untested");
    }
    // The first operand may also be the destination and the second.
    let prog = [Op::Input(0, 0), Op::Bin(Mul, 0, 0, 0), Op::Ret(0)];
    assert_eq!(value(&prog, &[n(-9)]), Some(81));
}

/// An operation of one register into another.
type Unary = fn(u8, u8) -> Op;

#[test]
fn unary_ops_consts_and_inputs() {
    use Op::*;
    let from = |a, x| MoveEnd(a, x, true);
    let to = |a, x| MoveEnd(a, x, false);
    #[rustfmt::skip]
    let cases: [(Unary, u64, Option<u64>); 20] = [
        (Not, 0, Some(1)), (Not, 5, Some(0)), (Not, 1 << 63, Some(0)),
        (Neg, 5, Some(n(-5))), (Neg, 0, Some(0)), (Neg, X, Some(M + 1)), (Neg, M, None),
        (Copy, 0xdead_beef_0000_0001, Some(0xdead_beef_0000_0001)),
        (ToSet, 0, Some(1)), (ToSet, 31, Some(1 << 31)), (ToSet, 33, Some(2)),
        (from, 0x1_2345, Some(0x45)), (to, 0x1_2345, Some(0x23)),
        (MoveKeeper, 0x1_2345, Some(1)), (MoveKeeper, 0x2_2345, Some(0)),
        (Size, 0b1011, Some(3)), (Size, u64::MAX, Some(32)),
        (Other, 0, Some(1)), (Other, 1, Some(0)), (Other, 5, Some(n(-4))),
    ];
    for (i, (op, x, want)) in cases.into_iter().enumerate() {
        assert_eq!(
            value(&[Input(1, 0), op(2, 1), Ret(2)], &[x]),
            want,
            "case {i}"
        );
    }
    // Registers start at 0; the highest register and input work.
    assert_eq!(value(&[Ret(200)], &[]), Some(0));
    let prog = [
        Const(255, u64::MAX),
        Input(254, 9),
        Bin(BinOp::Diff, 0, 255, 254),
        Ret(0),
    ];
    let mut inputs = [0; 10];
    inputs[9] = 0xff;
    assert_eq!(value(&prog, &inputs), Some(!0xff));
}

#[test]
fn tables_by_side() {
    use Op::*;
    let t = tables();
    let spread = |tab, set, team: Option<u64>| {
        value(
            &io2(Spread(2, tab, 0, team.map(|_| 1))),
            &[set, team.unwrap_or(9)],
        )
    };
    let entry = |tab, area, team: Option<u64>| {
        value(
            &io2(Entry(2, tab, 0, team.map(|_| 1))),
            &[area, team.unwrap_or(9)],
        )
    };
    let or = |tab: usize, idx: &[usize]| Some(idx.iter().fold(0, |a, &i| a | u64::from(t[tab][i])));
    assert_eq!(spread(0, 0b1001, None), or(0, &[0, 3]));
    assert_eq!(spread(0, 0b1001, Some(0)), or(0, &[0, 3]));
    assert_eq!(spread(0, 0b1001, Some(1)), or(0, &[32, 35]));
    assert_eq!(
        spread(1, (1 << 31) | (1 << 40), Some(u64::MAX)),
        or(1, &[63])
    );
    assert_eq!(spread(1, 0, Some(1)), Some(0));
    assert_eq!(entry(0, 5, None), or(0, &[5]));
    assert_eq!(entry(0, 31, Some(0)), or(0, &[31]));
    assert_eq!(entry(1, 31, Some(7)), or(1, &[63]));
    assert_eq!(entry(0, 33, Some(1)), or(0, &[33]));
}

#[test]
fn grid_pairs() {
    use Op::*;
    let pair = |x: u64, y: u64| value(&io2(Pair(2, 2, 0, 1)), &[x, y]);
    let at = |i: usize| Some(u64::from(grid()[i]));
    assert_eq!(pair(0, 0), at(0));
    assert_eq!(pair(3, 5), at(3 * 32 + 5));
    assert_eq!(pair(31, 31), at(1023));
    // Only the low five bits of each area count.
    assert_eq!(pair(33, 64 + 2), at(32 + 2));
}

#[test]
fn count_in_sums_the_state_bytes_of_a_set() {
    use Op::*;
    let count = |team: u64, set: u64, max: u64| value(&io2(CountIn(2, 0, 1, max)), &[team, set]);
    let sum = |idx: &[usize]| idx.iter().map(|&i| u64::from(state()[i])).sum::<u64>();
    assert_eq!(count(0, 0, u64::MAX), Some(0));
    assert_eq!(count(0, 0b101, u64::MAX), Some(sum(&[0, 2])));
    assert_eq!(count(1, 0b101, u64::MAX), Some(sum(&[32, 34])));
    assert_eq!(count(7, 1 << 31, u64::MAX), Some(sum(&[63])));
    // Only the low 32 bits of the set count; the sum is capped.
    assert_eq!(count(0, (1 << 40) | 1, u64::MAX), Some(sum(&[0])));
    assert_eq!(count(0, 0b111, 2), Some(sum(&[0, 1, 2]).min(2)));
    // A program that reads the state needs all 64 bytes of it.
    let mut c = Compiler::new().unwrap();
    let f = c.add(&io2(CountIn(2, 0, 1, 9))).unwrap();
    let code = c.finish().unwrap();
    let mut h = Mock::new(None);
    let run = |h: &mut Mock, st: &[u8]| code.run_with(f, h, &[0, 1], st, &mut 0, 0);
    assert_eq!(run(&mut h, &state()[..63]), None);
    assert_eq!(run(&mut h, &[]), None);
    assert_eq!(run(&mut h, state()), Some(u64::from(state()[0]).min(9)));
}

#[test]
fn jumps_give_up_and_unreachable_code() {
    use Op::*;
    let k = |v| Const(1, v);
    // JumpIfNot: 0 jumps, anything else goes on.
    let prog = [Input(0, 0), k(10), JumpIfNot(0, 4), k(20), Ret(1)];
    assert_eq!(value(&prog, &[0]), Some(10));
    assert_eq!(value(&prog, &[1 << 63]), Some(20));
    // UnlessAny: a listed word goes on, any other jumps; an empty list always jumps.
    let prog = [
        Input(0, 0),
        k(10),
        UnlessAny(0, vec![3, u64::MAX].into(), 4),
        k(20),
        Ret(1),
    ];
    assert_eq!(value(&prog, &[3]), Some(20));
    assert_eq!(value(&prog, &[u64::MAX]), Some(20));
    assert_eq!(value(&prog, &[4]), Some(10));
    let prog = [k(10), UnlessAny(1, Box::new([]), 3), k(20), Ret(1)];
    assert_eq!(value(&prog, &[]), Some(10));
    // Jump over a give-up, and code after a Ret that nothing reaches.
    let prog = [k(1), Jump(3), GiveUp, Ret(1), k(2), Ret(1)];
    assert_eq!(value(&prog, &[]), Some(1));
    assert_eq!(value(&[k(1), GiveUp], &[]), None);
    // A branch joining two paths that define the register differently.
    let prog = [Input(0, 0), JumpIfNot(0, 4), k(7), Jump(5), k(8), Ret(1)];
    assert_eq!(value(&prog, &[1]), Some(7));
    assert_eq!(value(&prog, &[0]), Some(8));
}

#[test]
fn next_area_loop_and_budget() {
    use Op::*;
    // Sums the areas of the set in input 0.
    const SUM: [Op; 6] = [
        Input(1, 0),
        Const(2, 0),
        NextArea(3, 1, 5),
        Bin(BinOp::Add, 2, 2, 3),
        Jump(2),
        Ret(2),
    ];
    let set = (1 << 1) | (1 << 4) | (1 << 9);
    assert_eq!(outcome(&SUM, &[set], 0, 3), (Some(14), 3, vec![]));
    assert_eq!(outcome(&SUM, &[set], 5, 8), (Some(14), 8, vec![]));
    // One past the budget gives up, having counted that one.
    assert_eq!(outcome(&SUM, &[set], 0, 2), (None, 3, vec![]));
    assert_eq!(outcome(&SUM, &[set], 7, 8), (None, 9, vec![]));
    assert_eq!(outcome(&SUM, &[0], 4, 4), (Some(0), 4, vec![]));
    // The whole word counts, not only the low 32 bits.
    assert_eq!(
        outcome(&SUM, &[(1 << 63) | 1], 0, u64::MAX),
        (Some(63), 2, vec![])
    );
    assert_eq!(outcome(&SUM, &[u64::MAX], 0, 64), (Some(2016), 64, vec![]));
    assert_eq!(outcome(&SUM, &[u64::MAX], 0, 63).0, None);
}

#[test]
fn tick_counts_one_operation_against_the_budget() {
    use Op::*;
    const TWO: [Op; 4] = [Const(1, 7), Tick, Tick, Ret(1)];
    assert_eq!(outcome(&TWO, &[], 0, 2), (Some(7), 2, vec![]));
    assert_eq!(outcome(&TWO, &[], 3, 10), (Some(7), 5, vec![]));
    // Past the budget it gives up, having counted the one past it.
    assert_eq!(outcome(&TWO, &[], 0, 1), (None, 2, vec![]));
    assert_eq!(outcome(&TWO, &[], 5, 5), (None, 6, vec![]));
}

#[test]
fn callbacks_in_order_and_refusals() {
    use Op::*;
    let prog = [
        Input(0, 0),
        Const(1, 1),
        Var(2, 3, Some(1)),
        Var(3, 3, None),
        Prim(4, 2, [0, 1, 2, 3, 0]),
        Count(11),
        AddMoves(5, [1, 0, 4]),
        Prim(5, 0, [4, 4, 4, 4, 4]),
        Bin(BinOp::Add, 0, 5, 2),
        Ret(0),
    ];
    let (v, _, calls) = outcome(&prog, &[77], 0, 0);
    assert!(v.is_some());
    assert!(matches!(
        calls[..],
        [
            Call::Var(3, 1),
            Call::Var(3, 0),
            Call::Prim(2, [77, 1, _, _, 77]),
            Call::Count(11),
            Call::Moves(5, 1, 77, _),
            Call::Prim(0, _),
        ]
    ));
    // Each refusal gives up at once: nothing after it is called.
    for op in [Prim(4, 9, [0; 5]), Var(2, 13, None), AddMoves(7, [0; 3])] {
        let prog = [Count(1), Count(2), op, Count(3), Ret(0)];
        let (v, _, calls) = outcome(&prog, &[], 0, 0);
        assert_eq!((v, calls.len()), (None, 3), "{:?}", prog[2]);
    }
}

#[test]
fn a_panicking_callback_gives_up() {
    use Op::*;
    // Id 3 panics: primitive 3, variable 3, count 3, gathering set 3.
    for op in [
        Prim(0, 3, [0; 5]),
        Var(0, 3, None),
        Count(3),
        AddMoves(3, [0; 3]),
    ] {
        let prog = [Count(1), op.clone(), Count(2), Ret(0)];
        let [jit, reference] = run_both(&prog, &[], 0, 0, Some(3));
        assert_eq!(jit, reference);
        assert_eq!((jit.0, jit.2.len()), (None, 2), "{op:?}");
    }
    // The same code runs again after a panic.
    let mut c = Compiler::new().unwrap();
    let f = c.add(&[Prim(0, 3, [0; 5]), Ret(0)]).unwrap();
    let code = c.finish().unwrap();
    let mut ops = 0;
    assert_eq!(code.run(f, &mut Mock::new(Some(3)), &[], &mut ops, 0), None);
    assert!(
        code.run(f, &mut Mock::new(None), &[], &mut ops, 0)
            .is_some()
    );
}

#[test]
fn run_with_bad_calls() {
    use Op::*;
    let mut c = Compiler::new().unwrap();
    let f = c.add(&[Count(1), Input(0, 2), Ret(0)]).unwrap();
    let g = c.add(&[Const(0, 5), Ret(0)]).unwrap();
    let code = c.finish().unwrap();
    assert_eq!((code.len(), code.is_empty()), (2, false));
    let (mut h, mut ops) = (Mock::new(None), 3);
    assert_eq!(code.run(f, &mut h, &[1, 2], &mut ops, 10), None);
    assert_eq!(code.run(2, &mut h, &[1, 2, 3], &mut ops, 10), None);
    assert_eq!(code.run(usize::MAX, &mut h, &[], &mut ops, 10), None);
    assert_eq!((ops, h.calls.len()), (3, 0));
    assert_eq!(code.run(f, &mut h, &[1, 2, 3, 4], &mut ops, 10), Some(3));
    assert_eq!(code.run(g, &mut h, &[], &mut ops, 10), Some(5));
    assert_eq!(h.calls, [Call::Count(1)]);
}

#[test]
fn add_rejects_ill_formed_programs() {
    use Op::*;
    let bad: Vec<Vec<Op>> = vec![
        vec![],
        vec![Const(0, 1)],
        vec![Jump(2), Ret(0)],
        vec![JumpIfNot(0, 9), Ret(0)],
        vec![UnlessAny(0, Box::new([1]), 2), Ret(0)],
        vec![NextArea(0, 1, 5), Ret(0)],
        vec![Ret(0), Const(0, 1)],
        vec![Const(0, 0), JumpIfNot(0, 0)],
        vec![Const(0, 0), NextArea(0, 1, 0)],
        vec![Spread(0, 5, 0, None), Ret(0)],
        vec![Entry(0, 2, 0, None), Ret(0)],
        vec![Pair(0, 0, 0, 0), Ret(0)],
        vec![Pair(0, 2, 0, 0), Ret(0)],
    ];
    for prog in bad {
        let mut c = Compiler::new().unwrap();
        c.table([0; 64]);
        c.table([0; 64]);
        let got = catch_unwind(AssertUnwindSafe(|| c.add(&prog).map(|_| ())));
        assert!(matches!(got, Ok(Err(_))), "{prog:?}: {got:?}");
    }
}

/// After `add` refused a program, the compiler must still compile the next one.
#[test]
fn add_after_a_refused_table() {
    use Op::*;
    let mut c = Compiler::new().unwrap();
    assert!(c.add(&[Spread(0, 0, 0, None), Ret(0)]).is_err());
    let f = c.add(&[Const(0, 42), Ret(0)]).unwrap();
    let code = c.finish().unwrap();
    assert_eq!(code.run(f, &mut Mock::new(None), &[], &mut 0, 0), Some(42));
}

// Random programs.

const NREG: u8 = 8;

fn reg() -> impl Strategy<Value = u8> {
    0..NREG
}

fn word() -> impl Strategy<Value = u64> {
    prop_oneof![
        any::<u64>(),
        (-4i64..40).prop_map(n),
        prop::sample::select(vec![0, 1, u64::MAX, M, X, 1 << 31, 1 << 32, LOW, 0x1_0203]),
    ]
}

/// A straight-line operation over the first registers.
fn plain() -> impl Strategy<Value = Op> {
    let team = || prop::option::of(reg());
    prop_oneof![
        2 => (reg(), word()).prop_map(|(a, w)| Op::Const(a, w)),
        8 => (prop::sample::select(ALL_BIN.to_vec()), reg(), reg(), reg())
            .prop_map(|(o, a, x, y)| Op::Bin(o, a, x, y)),
        1 => (reg(), reg()).prop_map(|(a, x)| Op::Not(a, x)),
        1 => (reg(), reg()).prop_map(|(a, x)| Op::Neg(a, x)),
        1 => (reg(), reg()).prop_map(|(a, x)| Op::Copy(a, x)),
        1 => (reg(), reg()).prop_map(|(a, x)| Op::ToSet(a, x)),
        1 => (reg(), reg(), any::<bool>()).prop_map(|(a, x, f)| Op::MoveEnd(a, x, f)),
        1 => (reg(), reg()).prop_map(|(a, x)| Op::MoveKeeper(a, x)),
        1 => (reg(), reg()).prop_map(|(a, x)| Op::Size(a, x)),
        1 => (reg(), reg()).prop_map(|(a, x)| Op::Other(a, x)),
        1 => (reg(), 0..2u32, reg(), team()).prop_map(|(a, t, x, s)| Op::Spread(a, t, x, s)),
        1 => (reg(), 0..2u32, reg(), team()).prop_map(|(a, t, x, s)| Op::Entry(a, t, x, s)),
        1 => (reg(), reg(), reg()).prop_map(|(a, x, y)| Op::Pair(a, 2, x, y)),
        1 => (reg(), reg(), reg(), word()).prop_map(|(a, t, x, m)| Op::CountIn(a, t, x, m)),
        1 => (reg(), 0..10u32, [reg(), reg(), reg(), reg(), reg()])
            .prop_map(|(a, p, xs)| Op::Prim(a, p, xs)),
        1 => (reg(), 0..10u32, team()).prop_map(|(a, v, t)| Op::Var(a, v, t)),
        1 => (0..4u32).prop_map(Op::Count),
        1 => Just(Op::Tick),
        1 => (0..9u8, [reg(), reg(), reg()]).prop_map(|(acc, xs)| Op::AddMoves(acc, xs)),
    ]
}

/// An operation of the main body: jump targets are forward distances, made targets by
/// [`build`].
fn item() -> impl Strategy<Value = Op> {
    let d = || 1..8u16;
    prop_oneof![
        20 => plain(),
        1 => d().prop_map(Op::Jump),
        3 => (reg(), d()).prop_map(|(c, d)| Op::JumpIfNot(c, d)),
        2 => (reg(), prop::collection::vec(word(), 0..3), d())
            .prop_map(|(c, ws, d)| Op::UnlessAny(c, ws.into(), d)),
        1 => Just(Op::GiveUp),
        1 => reg().prop_map(Op::Ret),
    ]
}

/// A NextArea loop: the register its set is copied from, the register the area is
/// copied to at the start of each round, and the rest of the round.
type Loop = (u8, u8, Vec<Op>);

/// A program: inputs 0–3 into registers 0–3, the constants into 4–7, the items, the
/// loop (area in register 8, set in 9, which no other operation writes), two primitive
/// calls that show every register to the host, a Ret.
fn build(consts: &[u64; 4], items: &[Op], lp: &Option<Loop>, ret: u8) -> Vec<Op> {
    let mut prog: Vec<Op> = (0..4).map(|r| Op::Input(r, u16::from(r))).collect();
    prog.extend((0..4).map(|i| Op::Const(4 + i as u8, consts[i])));
    let end = (prog.len() + items.len()) as u16;
    for op in items {
        let (mut op, at) = (op.clone(), prog.len() as u16);
        if let Op::Jump(t) | Op::JumpIfNot(_, t) | Op::UnlessAny(_, _, t) = &mut op {
            *t = (at + *t).min(end);
        }
        prog.push(op);
    }
    if let Some((src, dst, body)) = lp {
        prog.push(Op::Copy(9, *src));
        let head = prog.len() as u16;
        let exit = head + 3 + body.len() as u16;
        prog.push(Op::NextArea(8, 9, exit));
        prog.push(Op::Copy(*dst, 8));
        prog.extend(body.iter().cloned());
        prog.push(Op::Jump(head));
    }
    // Every register shows in the host's calls.
    prog.push(Op::Prim(10, 1, [0, 1, 2, 3, 4]));
    prog.push(Op::Prim(10, 1, [5, 6, 7, 8, 9]));
    prog.push(Op::Ret(ret));
    prog
}

/// Programs of each unary operation and each [`BinOp`] over inputs 0 and 1, built once.
fn small_code() -> &'static (Code, Vec<Vec<Op>>) {
    static CODE: OnceLock<(Code, Vec<Vec<Op>>)> = OnceLock::new();
    CODE.get_or_init(|| {
        let mut mid: Vec<Op> = ALL_BIN.iter().map(|&o| Op::Bin(o, 2, 0, 1)).collect();
        use Op::*;
        for f in [Not, Neg, ToSet, MoveKeeper, Size, Other] {
            mid.push(f(2, 0));
        }
        mid.push(Op::MoveEnd(2, 0, true));
        mid.push(Op::MoveEnd(2, 0, false));
        mid.push(Op::Spread(2, 0, 0, Some(1)));
        mid.push(Op::Entry(2, 1, 0, Some(1)));
        mid.push(Op::Pair(2, 2, 0, 1));
        mid.push(Op::CountIn(2, 1, 0, 300));
        mid.push(Op::CountIn(2, 0, 1, 17));
        let mut c = Compiler::new().unwrap();
        for t in tables() {
            c.table(t);
        }
        c.grid(grid());
        let progs: Vec<Vec<Op>> = mid.into_iter().map(io2).collect();
        for (i, p) in progs.iter().enumerate() {
            assert_eq!(c.add(p).unwrap(), i);
        }
        (c.finish().unwrap(), progs)
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2048))]

    /// Each operation of one or two words, on random words.
    #[test]
    fn small_ops_match_reference(x in word(), y in word(), which in any::<prop::sample::Index>()) {
        let (code, progs) = small_code();
        let f = which.index(progs.len());
        let mut ops = 0;
        let got = code.run_with(f, &mut Mock::new(None), &[x, y], state(), &mut ops, 0);
        let want = eval(&progs[f], &tables(), &mut Mock::new(None), &[x, y], &mut 0, 0);
        prop_assert_eq!(got, want, "{:?} {:#x} {:#x}", progs[f][2], x, y);
    }
}

fn lp() -> impl Strategy<Value = Option<Loop>> {
    prop::option::of((reg(), reg(), prop::collection::vec(plain(), 0..5)))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// Random programs: same value or give-up, operation count and host calls.
    #[test]
    fn programs_match_reference(
        consts in [word(), word(), word(), word()],
        items in prop::collection::vec(item(), 0..24),
        lp in lp(),
        ret in reg(),
        inputs in [word(), word(), word(), word()],
        ops0 in 0..10u64,
        limit in prop_oneof![0..60u64, Just(u64::MAX)],
    ) {
        let prog = build(&consts, &items, &lp, ret);
        let [jit, reference] = run_both(&prog, &inputs, ops0, limit, None);
        prop_assert_eq!(jit, reference, "program {:?}", prog);
    }
}
