//! Random well-formed programs (straight-line operations, branches, a loop over a set's
//! areas, host calls) whose value (or give-up), operation count and calls into the
//! [`Host`] must be the reference evaluator's (`reference/`).

use std::sync::OnceLock;

use proptest::prelude::*;

mod reference;
use reference::*;

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
        1 => (reg(), 0..8u32, [reg(), reg(), reg(), reg(), reg()])
            .prop_map(|(a, f, xs)| Op::Call(a, f, xs)),
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

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    /// `run_rows` is `run_with` once per row, stopping at the first give-up: the same
    /// values, how many ran, operation count (a give-up's own operations not kept) and
    /// host calls.
    #[test]
    fn rows_run_as_one_run_each(
        consts in [word(), word(), word(), word()],
        items in prop::collection::vec(item(), 0..24),
        lp in lp(),
        ret in reg(),
        inputs in [word(), word(), word(), word()],
        vary in prop::sample::select(vec![vec![1u16], vec![0, 2], vec![3, 0, 1]]),
        rows in prop::collection::vec(word(), 0..18),
        limit in prop_oneof![0..60u64, Just(u64::MAX)],
    ) {
        let prog = build(&consts, &items, &lp, ret);
        let (code, f) = compiled(&prog);
        let width = vary.len();
        let n = rows.len() / width;
        // One call.
        let (mut h, mut ops, mut words) = (Mock::new(None), 0, inputs);
        let mut out = vec![0; n];
        let done = code.run_rows(f, &mut h, &mut words, state(), &vary, &rows[..n * width], &mut out, &mut ops, limit);
        // A call per row.
        let (mut h2, mut ops2, mut words2) = (Mock::new(None), 0, inputs);
        let mut want = Vec::new();
        for row in rows[..n * width].chunks_exact(width) {
            for (&v, &w) in vary.iter().zip(row) {
                words2[usize::from(v)] = w;
            }
            let before = ops2;
            match code.run_with(f, &mut h2, &words2, state(), &mut ops2, limit) {
                Some(w) => want.push(w as i64),
                None => {
                    ops2 = before;
                    break;
                }
            }
        }
        prop_assert_eq!(done, want.len());
        prop_assert_eq!(&out[..done], &want[..]);
        prop_assert_eq!(ops, ops2);
        prop_assert_eq!(h.calls, h2.calls);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    /// A rows function ([`Compiler::add_rows`]) runs the rows in its own loop as
    /// `run_rows` runs the plain program once per row: the same values, how many ran,
    /// operation count and host calls (the counted calls in their order, which a plain
    /// program may tell later than a rows function: `Host::count`); it runs nothing for
    /// any other input, and has no plain entry.
    #[test]
    fn a_rows_function_runs_as_the_plain_program_row_by_row(
        consts in [word(), word(), word(), word()],
        items in prop::collection::vec(item(), 0..24),
        lp in lp(),
        ret in reg(),
        inputs in [word(), word(), word(), word()],
        vary in 0..4u16,
        rows in prop::collection::vec(word(), 0..18),
        ops0 in 0..10u64,
        limit in prop_oneof![0..60u64, Just(u64::MAX)],
    ) {
        let prog = build(&consts, &items, &lp, ret);
        let (code, [plain, each]) = compiled_both(&prog, vary);
        let run = |f: usize, vary: &[u16]| {
            let (mut h, mut ops, mut words) = (Mock::new(None), ops0, inputs);
            let mut out = vec![0; rows.len()];
            let done = code.run_rows(f, &mut h, &mut words, state(), vary, &rows, &mut out, &mut ops, limit);
            out.truncate(done);
            let (counted, other): (Vec<Asked>, Vec<Asked>) =
                h.calls.into_iter().partition(|c| matches!(c, Asked::Count(_)));
            (out, ops, other, counted)
        };
        prop_assert_eq!(run(each, &[vary]), run(plain, &[vary]), "program {:?}", prog);
        if !rows.is_empty() {
            prop_assert_eq!(run(each, &[(vary + 1) % 4]).0.len(), 0);
        }
        let mut ops = 0;
        prop_assert_eq!(code.run_with(each, &mut Mock::new(None), &inputs, state(), &mut ops, limit), None);
    }
}

/// A program whose first straight run holds every operation a rows function may work out
/// once before its rows (`hoist.rs`), between operations that read the row, one that can
/// give up, a register read before it is written and one written twice, then a branch.
fn hoisting_program(row: u16) -> Vec<Op> {
    use Op::*;
    let r = row as u8;
    vec![
        Input(r, row),
        Input(1, 1 - row.min(1)),
        Const(2, 5),
        Input(3, 2),
        Not(10, 3),
        Copy(11, 1),
        ToSet(12, 3),
        MoveEnd(13, 1, true),
        MoveEnd(14, 1, false),
        MoveKeeper(15, 1),
        Size(16, 12),
        Other(17, 15),
        Spread(18, 1, 12, Some(17)),
        Entry(19, 0, 14, Some(15)),
        Pair(20, 2, 13, 14),
        CountIn(21, 15, 18, 3),
        Bin(BinOp::Lt, 22, 20, 21),
        Bin(BinOp::In, 23, 13, 18),
        Bin(BinOp::Add, 24, 2, 16),   // may give up: per row
        Bin(BinOp::Union, 25, r, 18), // reads the row: per row
        Copy(26, 27),                 // reads 27 before it is written
        Const(27, 9),
        Const(28, 1), // written twice
        JumpIfNot(22, 26),
        Const(28, 2),
        Bin(BinOp::Sub, 29, 21, 1),
        Bin(BinOp::Mul, 30, 19, 29),
        Bin(BinOp::Diff, 31, 25, 23),
        Bin(BinOp::Max, 32, 31, 30),
        Bin(BinOp::Add, 33, 32, 24),
        Bin(BinOp::Add, 34, 33, 26),
        Bin(BinOp::Add, 35, 34, 28),
        Ret(35),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// A rows function that works out the first straight run's operations no row changes
    /// once, before its rows, gives what the plain program gives row by row: the same
    /// values, how many ran, operation count and host calls.
    #[test]
    fn what_a_rows_function_works_out_once_is_what_each_row_would(
        row in 0..2u16,
        inputs in [word(), word(), word()],
        rows in prop::collection::vec(word(), 0..12),
        ops0 in 0..10u64,
        limit in prop_oneof![0..60u64, Just(u64::MAX)],
    ) {
        let prog = hoisting_program(row);
        let (code, [plain, each]) = compiled_both(&prog, row);
        let run = |f: usize| {
            let (mut h, mut ops, mut words) = (Mock::new(None), ops0, inputs);
            let mut out = vec![0; rows.len()];
            let done = code.run_rows(f, &mut h, &mut words, state(), &[row], &rows, &mut out, &mut ops, limit);
            out.truncate(done);
            (out, ops, h.calls)
        };
        prop_assert_eq!(run(each), run(plain), "row input {}", row);
    }
}
