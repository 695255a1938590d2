//! The reference the machine code is checked against: an evaluator written from the
//! documentation of [`Op`] and [`BinOp`], a recording host, the tables, grid and state
//! every program here may read, and running a program both ways.
// Each test crate uses a part of it.
#![allow(dead_code, unused_imports)]

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::OnceLock;

pub use fuba_native::{BinOp, Code, Compiler, Grid, Host, Op, Table};

/// A call into the host, as recorded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Asked {
    Prim(u32, [u64; 5]),
    Var(u32, u64),
    Count(u32),
    Moves(u8, u64, u64, u64),
    Unit(u32, [u64; 5]),
}

/// A deterministic host: primitives, variables and units hash their arguments, refusing
/// some ids (primitives `p % 5 == 4`, variables `v % 7 == 6`, gathering set 7, units
/// `f % 4 == 3`; a unit counts `f % 3` operations); every call is
/// recorded; any callback whose id is `panic_id` panics.
pub struct Mock {
    pub calls: Vec<Asked>,
    panic_id: Option<u32>,
}

pub fn mix(h: u64, w: u64) -> u64 {
    let mut z = (h ^ w).wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

impl Mock {
    pub fn new(panic_id: Option<u32>) -> Mock {
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
        self.calls.push(Asked::Prim(p, args));
        self.boom(p);
        let h = args.iter().fold(u64::from(p), |h, &a| mix(h, a));
        (p % 5 != 4).then_some(if p % 2 == 0 { h % 40 } else { h })
    }
    fn var(&mut self, v: u32, team: u64) -> Option<u64> {
        self.calls.push(Asked::Var(v, team));
        self.boom(v);
        (v % 7 != 6).then_some(mix(u64::from(v), team) % 100)
    }
    fn count(&mut self, p: u32) {
        self.calls.push(Asked::Count(p));
        self.boom(p);
    }
    fn add_moves(&mut self, acc: u8, team: u64, from: u64, dests: u64) -> Option<()> {
        self.calls.push(Asked::Moves(acc, team, from, dests));
        self.boom(u32::from(acc));
        (acc != 7).then_some(())
    }
    fn call(&mut self, f: u32, args: [u64; 5], ops: &mut u64) -> Option<u64> {
        self.calls.push(Asked::Unit(f, args));
        self.boom(f);
        *ops += u64::from(f % 3);
        let h = args.iter().fold(u64::from(f) + 7, |h, &a| mix(h, a));
        (f % 4 != 3).then_some(h % 1000)
    }
}

/// The grid every program here may use (table number 2, after [`tables`]).
pub fn grid() -> &'static Grid {
    static GRID: OnceLock<Grid> = OnceLock::new();
    GRID.get_or_init(|| std::array::from_fn(|i| mix(i as u64, 2) as u32))
}

/// The state bytes every program here is run with.
pub fn state() -> &'static [u8; 64] {
    static STATE: OnceLock<[u8; 64]> = OnceLock::new();
    STATE.get_or_init(|| std::array::from_fn(|i| (mix(i as u64, 3) % 200) as u8))
}

/// The tables every program here may use.
pub fn tables() -> [Table; 2] {
    [
        std::array::from_fn(|i| mix(i as u64, 1) as u32),
        std::array::from_fn(|i| (1 << ((i * 7) % 32)) | (1 << (i % 32))),
    ]
}

/// A callback as the machine code makes it: a panic is a refusal.
pub fn guard<T>(f: impl FnOnce() -> Option<T>) -> Option<T> {
    catch_unwind(AssertUnwindSafe(f)).ok().flatten()
}

/// `o` as documented on [`BinOp`].
pub fn bin(o: BinOp, x: u64, y: u64) -> Option<u64> {
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
pub fn eval(
    prog: &[Op],
    tabs: &[Table],
    host: &mut dyn Host,
    inputs: &[u64],
    ops: &mut u64,
    limit: u64,
) -> Option<u64> {
    let mut kept = Vec::new();
    let w = eval_keeping(prog, tabs, host, inputs, ops, limit, &mut kept);
    // The calls counted and kept are told when the run ends, given up or not.
    let told = tell(host, &mut kept);
    w.filter(|_| told.is_some())
}

/// The most counted calls the machine code keeps before telling the host.
const KEPT: usize = 32;

/// Tells the host the counted calls kept, in order (`None`: it panicked).
fn tell(host: &mut dyn Host, kept: &mut Vec<u32>) -> Option<()> {
    let calls = std::mem::take(kept);
    guard(|| {
        for p in calls {
            host.count(p);
        }
        Some(())
    })
}

/// [`eval`], the counted calls kept in `kept` as the machine code keeps them (told
/// before a unit's call, and when there is no room, before the next one).
#[allow(clippy::too_many_arguments)]
fn eval_keeping(
    prog: &[Op],
    tabs: &[Table],
    host: &mut dyn Host,
    inputs: &[u64],
    ops: &mut u64,
    limit: u64,
    kept: &mut Vec<u32>,
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
            Op::Call(a, f, xs) => {
                tell(host, kept)?;
                let args = xs.map(|x| r[x as usize]);
                let mut n = *ops;
                let w = guard(|| host.call(f, args, &mut n));
                *ops = n;
                Some((a, w?))
            }
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
            Op::Count(p) if kept.len() < KEPT => {
                kept.push(p);
                None
            }
            Op::Count(p) => {
                tell(host, kept)?;
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
pub fn jump(next: &mut usize, cond: bool, t: u16) -> Option<(u8, u64)> {
    if cond {
        *next = t as usize;
    }
    None
}

/// A run's value, operation count and host calls.
pub type Outcome = (Option<u64>, u64, Vec<Asked>);

/// `prog` run through the machine code and through the evaluator.
pub fn run_both(
    prog: &[Op],
    inputs: &[u64],
    ops0: u64,
    limit: u64,
    panic_id: Option<u32>,
) -> [Outcome; 2] {
    let (code, f) = compiled(prog);
    let (mut h, mut ops) = (Mock::new(panic_id), ops0);
    let got = code.run_with(f, &mut h, inputs, state(), &mut ops, limit);
    let jit = (got, ops, h.calls);
    let (mut h, mut ops) = (Mock::new(panic_id), ops0);
    let want = eval(prog, &tables(), &mut h, inputs, &mut ops, limit);
    [jit, (want, ops, h.calls)]
}

/// `prog` compiled with the test tables and grid: the code and the program's number.
pub fn compiled(prog: &[Op]) -> (Code, usize) {
    let (code, [f, _]) = compiled_both(prog, 0);
    (code, f)
}

/// `prog` compiled twice: as a plain program, and as a rows function whose rows stand
/// for input `rows` ([`Compiler::add_rows`]).
pub fn compiled_both(prog: &[Op], rows: u16) -> (Code, [usize; 2]) {
    let mut c = Compiler::new().unwrap();
    for t in tables() {
        c.table(t);
    }
    c.grid(grid());
    let f = c.add(prog).unwrap();
    let r = c.add_rows(prog, rows).unwrap();
    (c.finish().unwrap(), [f, r])
}

/// `prog`'s outcome, checked to be the evaluator's.
pub fn outcome(prog: &[Op], inputs: &[u64], ops0: u64, limit: u64) -> Outcome {
    let [jit, reference] = run_both(prog, inputs, ops0, limit, None);
    assert_eq!(jit, reference, "program {prog:?} inputs {inputs:?}");
    jit
}

/// `prog`'s value, checked to be the evaluator's.
pub fn value(prog: &[Op], inputs: &[u64]) -> Option<u64> {
    outcome(prog, inputs, 0, 100).0
}

/// `op` over inputs 0 and 1 in registers 0 and 1, returning register 2.
pub fn io2(op: Op) -> Vec<Op> {
    vec![Op::Input(0, 0), Op::Input(1, 1), op, Op::Ret(2)]
}

pub const M: u64 = i64::MIN as u64;
pub const X: u64 = i64::MAX as u64;
pub const LOW: u64 = 0xffff_ffff;
pub const fn n(v: i64) -> u64 {
    v as u64
}

pub const ALL_BIN: [BinOp; 17] = {
    use BinOp::*;
    [
        Add, Sub, Mul, Div, Rem, Lt, Le, Gt, Ge, Eq, Ne, Union, Inter, Diff, In, Max, Min,
    ]
};
