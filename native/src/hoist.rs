//! What a rows function ([`crate::Compiler::add_rows`]) works out once, before its rows:
//! the operations of the program's first straight run (before its first branch, jump
//! target or count) that no row changes.
//!
//! Cranelift does not move the loads of the inputs, the tables' entries and the loops
//! over the pieces' counts out of the rows' loop by itself (measured: a heuristic match's
//! scores reloaded every input and counted every set again for every option), so the
//! translation puts them before the loop ([`hoisted`]). An operation is worked out once
//! only where that cannot be told from running it per row:
//!
//! - it is pure and cannot give up (no callback, no arithmetic that checks overflow, no
//!   count of operations), so running it once, even for no row, changes nothing else;
//! - it reads only registers never written or written by operations worked out once
//!   before it, and not the input the rows stand for;
//! - the register it writes is written by no other operation and read by none before it
//!   in the program (each run starts from zeroed registers: a read before the write would
//!   see zero), so it holds the same word for the whole of every run.

use cranelift_frontend::Variable;

use crate::{BinOp, Op};

/// The registers an operation reads and writes (at most five and two).
fn regs(op: &Op) -> (Vec<u8>, Vec<u8>) {
    match op {
        Op::Const(a, _) | Op::Input(a, _) => (vec![], vec![*a]),
        Op::Var(a, _, t) => (t.iter().copied().collect(), vec![*a]),
        Op::Not(a, x)
        | Op::Neg(a, x)
        | Op::Copy(a, x)
        | Op::ToSet(a, x)
        | Op::MoveEnd(a, x, _)
        | Op::MoveKeeper(a, x)
        | Op::Size(a, x)
        | Op::Other(a, x) => (vec![*x], vec![*a]),
        Op::Bin(_, a, x, y) => (vec![*x, *y], vec![*a]),
        Op::Prim(a, _, xs) | Op::Call(a, _, xs) => (xs.to_vec(), vec![*a]),
        Op::Jump(_) | Op::Count(_) | Op::Tick | Op::GiveUp => (vec![], vec![]),
        Op::JumpIfNot(c, _) | Op::UnlessAny(c, _, _) | Op::Ret(c) => (vec![*c], vec![]),
        Op::NextArea(v, s, _) => (vec![*s], vec![*v, *s]),
        Op::AddMoves(_, xs) => (xs.to_vec(), vec![]),
        Op::Spread(a, _, x, side) | Op::Entry(a, _, x, side) => {
            let mut r = vec![*x];
            r.extend(side);
            (r, vec![*a])
        }
        Op::Pair(a, _, x, y) => (vec![*x, *y], vec![*a]),
        Op::CountIn(a, t, x, _) => (vec![*t, *x], vec![*a]),
    }
}

/// The registers' variables each run starts from zero: all but those written by the
/// operations worked out once (`once`, [`hoisted`]), which keep their words.
pub(crate) fn zeroed_per_run(vars: &[Variable], prog: &[Op], once: &[bool]) -> Vec<Variable> {
    let mut kept = vec![false; vars.len()];
    for (op, _) in prog.iter().zip(once).filter(|(_, o)| **o) {
        if let Some(k) = (regs(op).1.first()).and_then(|&a| kept.get_mut(a as usize)) {
            *k = true;
        }
    }
    (vars.iter().zip(&kept))
        .filter(|(_, k)| !**k)
        .map(|(v, _)| *v)
        .collect()
}

/// Whether an operation is pure and cannot give up: worth working out once where its
/// operands are the same for every row.
fn pure(op: &Op, row_input: u16) -> bool {
    match op {
        Op::Const(..)
        | Op::Not(..)
        | Op::Copy(..)
        | Op::ToSet(..)
        | Op::MoveEnd(..)
        | Op::MoveKeeper(..)
        | Op::Size(..)
        | Op::Other(..)
        | Op::Spread(..)
        | Op::Entry(..)
        | Op::Pair(..)
        | Op::CountIn(..) => true,
        Op::Input(_, i) => *i != row_input,
        Op::Bin(o, ..) => !matches!(
            o,
            BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::Div | BinOp::Rem
        ),
        _ => false,
    }
}

/// For each operation of `prog`, a rows function's for input `row_input`, whether it is
/// worked out once before the rows (see the module's documentation).
pub(crate) fn hoisted(prog: &[Op], row_input: u16) -> Vec<bool> {
    let mut once = vec![false; prog.len()];
    let mut writes = [0u32; 256];
    for op in prog {
        for a in regs(op).1 {
            writes[a as usize] += 1;
        }
    }
    // Registers read so far in the program, and those worked out once.
    let mut read = [false; 256];
    let mut fixed = [false; 256];
    let targets: std::collections::BTreeSet<usize> = targets(prog).collect();
    for (pc, op) in prog.iter().enumerate() {
        let straight = !matches!(
            op,
            Op::Jump(_)
                | Op::JumpIfNot(..)
                | Op::UnlessAny(..)
                | Op::NextArea(..)
                | Op::Tick
                | Op::GiveUp
                | Op::Ret(_)
        );
        if !straight || (pc > 0 && targets.contains(&pc)) {
            break;
        }
        let (reads, dests) = regs(op);
        let operands_fixed = (reads.iter()).all(|&x| fixed[x as usize] || writes[x as usize] == 0);
        let dest_alone = match dests[..] {
            [a] => writes[a as usize] == 1 && !read[a as usize],
            _ => false,
        };
        if pure(op, row_input) && operands_fixed && dest_alone {
            once[pc] = true;
            fixed[dests[0] as usize] = true;
        }
        for x in reads {
            read[x as usize] = true;
        }
    }
    once
}

/// The places jumps go to.
fn targets(prog: &[Op]) -> impl Iterator<Item = usize> + '_ {
    prog.iter().filter_map(|op| match op {
        Op::Jump(t) | Op::JumpIfNot(_, t) | Op::UnlessAny(_, _, t) | Op::NextArea(_, _, t) => {
            Some(*t as usize)
        }
        _ => None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What no row changes is worked out once; the row's input, what reads it, what can
    /// give up, a register written twice or read before it is written, and everything
    /// after the first branch are not.
    #[test]
    fn only_what_no_row_changes_is_worked_out_once() {
        let prog = [
            Op::Input(0, 0),              // the row: no
            Op::Input(1, 1),              // yes
            Op::Const(2, 7),              // yes
            Op::Bin(BinOp::Lt, 3, 1, 2),  // yes: both operands fixed
            Op::Bin(BinOp::Add, 4, 1, 2), // no: may give up
            Op::Bin(BinOp::Eq, 5, 0, 1),  // no: reads the row
            Op::Copy(6, 7),               // yes: register 7 is never written (zero)
            Op::Copy(8, 9),               // no: reads 9 before it is written
            Op::Const(9, 1),              // no: 9 was read before
            Op::Const(10, 1),             // no: 10 is written twice
            Op::JumpIfNot(3, 13),
            Op::Const(10, 2),
            Op::Const(11, 3), // no: after a branch
            Op::Ret(5),
        ];
        let once = hoisted(&prog, 0);
        let want = [
            false, true, true, true, false, false, true, false, false, false, false, false, false,
            false,
        ];
        assert_eq!(once, want);
    }

    /// A jump target ends the straight run at its place.
    #[test]
    fn a_jump_target_ends_the_straight_run() {
        let prog = [
            Op::Const(0, 1),
            Op::Const(1, 2), // a target of the jump below: no
            Op::JumpIfNot(0, 1),
            Op::Ret(1),
        ];
        assert_eq!(hoisted(&prog, 5), [true, false, false, false]);
    }
}
