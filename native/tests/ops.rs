//! Checks the machine code of `fuba_native` against the reference evaluator
//! (`reference/`) with hand-written programs for every operation and its edge cases
//! (overflow, bad divisors, areas 0 and 31, the operation budget, callbacks refusing or
//! panicking, bad calls of `Code::run`, ill-formed programs). `random_programs.rs` runs
//! random well-formed programs the same way.

use std::panic::{AssertUnwindSafe, catch_unwind};

mod reference;
use reference::*;

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
    // The counted call is kept by the code and told when the run ends.
    assert!(matches!(
        calls[..],
        [
            Asked::Var(3, 1),
            Asked::Var(3, 0),
            Asked::Prim(2, [77, 1, _, _, 77]),
            Asked::Moves(5, 1, 77, _),
            Asked::Prim(0, _),
            Asked::Count(11),
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
fn a_call_adds_its_operations_and_a_refusal_gives_up() {
    use Op::*;
    // Unit 5 counts 2 operations (the mock: `f % 3`), unit 3 refuses (`f % 4 == 3`).
    let prog = [Input(0, 0), Tick, Call(1, 5, [0, 0, 0, 0, 0]), Tick, Ret(1)];
    let (v, ops, calls) = outcome(&prog, &[9], 10, 100);
    assert!(v.is_some_and(|w| w < 1000));
    assert_eq!((ops, &calls[..]), (14, &[Asked::Unit(5, [9; 5])][..]));
    // The same arguments give the same word (the host's units are plain functions here).
    assert_eq!(outcome(&prog, &[9], 0, 100).0, v);
    // The operations the call counted count against the budget of the ticks after it.
    assert_eq!(outcome(&prog, &[9], 0, 3), (None, 4, calls));
    let refused = [Count(1), Call(0, 3, [0; 5]), Count(2), Ret(0)];
    let (v, ops, calls) = outcome(&refused, &[], 0, 100);
    assert_eq!((v, ops, calls.len()), (None, 0, 2));
}

#[test]
fn a_panicking_callback_gives_up() {
    use Op::*;
    // Id 3 panics: primitive 3, variable 3, count 3, gathering set 3, unit 3.
    for op in [
        Prim(0, 3, [0; 5]),
        Call(0, 3, [0; 5]),
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
    assert_eq!(h.calls, [Asked::Count(1)]);
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

/// Counted calls are kept by the code and told in order: before a unit's call, when there
/// is no more room for them (a call past the room is told at once), and when the run
/// ends, given up or not.
#[test]
fn counted_calls_are_told_in_order_before_a_call_and_at_the_end() {
    use Op::*;
    let mut prog: Vec<Op> = (0..40).map(Count).collect();
    prog.extend([
        Const(1, 5),
        Call(2, 0, [1, 1, 1, 1, 1]),
        Count(99),
        Count(98),
        Ret(2),
    ]);
    let (v, _, calls) = outcome(&prog, &[], 0, 100);
    assert!(v.is_some());
    let counts: Vec<u32> = (calls.iter())
        .filter_map(|c| match c {
            Asked::Count(p) => Some(*p),
            _ => None,
        })
        .collect();
    let mut want: Vec<u32> = (0..40).collect();
    want.extend([99, 98]);
    assert_eq!(counts, want);
    // All 40 before the call, the last two after it.
    let unit = calls.iter().position(|c| matches!(c, Asked::Unit(..)));
    assert_eq!(unit, Some(40));
    // A run that gives up still tells what it counted.
    let gives_up = [Count(3), Count(4), GiveUp];
    let (v, _, calls) = outcome(&gives_up, &[], 0, 100);
    assert_eq!(v, None);
    assert!(matches!(calls[..], [Asked::Count(3), Asked::Count(4)]));
}
