//! The host's answers kept for the rest of a run: a primitive's or a state variable's
//! callback ([`crate::Op::Prim`], [`crate::Op::Var`]) inside a loop of the program whose
//! operands the loop does not change is made once for the same operands, its word then
//! taken from variables of the site. Nothing changes what the host answers while a
//! program runs ([`crate::Host`]), so the same operands give the same word; an answer
//! that gave up ended the run.

use std::collections::HashMap;

use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::types::I64;
use cranelift_codegen::ir::{InstBuilder, Value};
use cranelift_frontend::{FunctionBuilder, Variable};

use crate::Op;

/// A site's kept answer: whether there is one, the word, and the operands it was for
/// (by register, each register once).
struct Kept {
    flag: Variable,
    word: Variable,
    operands: Vec<(u8, Variable)>,
}

/// The sites of a program whose answers are kept, by operation index.
pub(crate) struct Memos(HashMap<usize, Kept>);

impl Memos {
    /// The kept answers of `prog`'s callbacks that run again with the same operands: in a
    /// loop of the program that writes none of their registers (none in a rows function:
    /// the engine makes its zero-operand leaves inputs already). Their variables are declared and
    /// set to none in the current block (the entry's, before anything else runs). A
    /// callback whose operands change from round to round is not kept: its checks cost
    /// more than they save (2015's loops).
    /// `none`: no answer is kept (a rows function, or a compiler not asked to keep them).
    pub(crate) fn new(b: &mut FunctionBuilder, prog: &[Op], none: bool, zero: Value) -> Memos {
        let mut sites = HashMap::new();
        for (pc, op) in prog.iter().enumerate() {
            let regs: Vec<u8> = match op {
                Op::Prim(_, _, xs) => xs.to_vec(),
                Op::Var(_, _, t) => t.iter().copied().collect(),
                _ => continue,
            };
            if none || !invariant(prog, pc, &regs) {
                continue;
            }
            let mut operands: Vec<(u8, Variable)> = Vec::new();
            for x in regs {
                if operands.iter().all(|(r, _)| *r != x) {
                    let v = b.declare_var(I64);
                    b.def_var(v, zero);
                    operands.push((x, v));
                }
            }
            let (flag, word) = (b.declare_var(I64), b.declare_var(I64));
            b.def_var(flag, zero);
            b.def_var(word, zero);
            sites.insert(
                pc,
                Kept {
                    flag,
                    word,
                    operands,
                },
            );
        }
        Memos(sites)
    }

    /// The answer of the callback at `pc`: the kept word when the operands (registers
    /// `vars`) are those it was kept for, else `ask`'s, kept.
    pub(crate) fn answer(
        &self,
        b: &mut FunctionBuilder,
        pc: usize,
        vars: &[Variable],
        ask: impl FnOnce(&mut FunctionBuilder) -> Value,
    ) -> Value {
        let Some(k) = self.0.get(&pc) else {
            return ask(b);
        };
        let flag = b.use_var(k.flag);
        let mut same = b.ins().icmp_imm_s(IntCC::NotEqual, flag, 0);
        for &(x, kept) in &k.operands {
            let (x, kept) = (b.use_var(vars[usize::from(x)]), b.use_var(kept));
            let e = b.ins().icmp(IntCC::Equal, x, kept);
            same = b.ins().band(same, e);
        }
        let (miss, join) = (b.create_block(), b.create_block());
        b.ins().brif(same, join, &[], miss, &[]);
        b.switch_to_block(miss);
        let w = ask(b);
        b.def_var(k.word, w);
        for &(x, kept) in &k.operands {
            let x = b.use_var(vars[usize::from(x)]);
            b.def_var(kept, x);
        }
        let one = b.ins().iconst(I64, 1);
        b.def_var(k.flag, one);
        b.ins().jump(join, &[]);
        b.switch_to_block(join);
        b.use_var(k.word)
    }
}

/// Whether operation `pc` lies inside a loop of the program (a jump at or after it
/// going back to it or before) none of whose operations, in the innermost such loop,
/// writes one of the registers `regs`.
fn invariant(prog: &[Op], pc: usize, regs: &[u8]) -> bool {
    let around = (prog.iter().enumerate().skip(pc))
        .filter_map(|(at, op)| match op {
            Op::Jump(t) | Op::JumpIfNot(_, t) | Op::UnlessAny(_, _, t) | Op::NextArea(_, _, t)
                if usize::from(*t) <= pc =>
            {
                Some((usize::from(*t), at))
            }
            _ => None,
        })
        .max_by_key(|&(from, at)| (from, std::cmp::Reverse(at)));
    let Some((from, to)) = around else {
        return false;
    };
    prog[from..=to]
        .iter()
        .all(|op| writes(op).iter().flatten().all(|w| !regs.contains(w)))
}

/// The registers an operation writes.
fn writes(op: &Op) -> [Option<u8>; 2] {
    match *op {
        Op::Const(a, _)
        | Op::Input(a, _)
        | Op::Var(a, _, _)
        | Op::Not(a, _)
        | Op::Neg(a, _)
        | Op::Bin(_, a, _, _)
        | Op::Copy(a, _)
        | Op::ToSet(a, _)
        | Op::Prim(a, _, _)
        | Op::MoveEnd(a, _, _)
        | Op::MoveKeeper(a, _)
        | Op::Call(a, _, _)
        | Op::Spread(a, _, _, _)
        | Op::Entry(a, _, _, _)
        | Op::Pair(a, _, _, _)
        | Op::CountIn(a, _, _, _)
        | Op::Size(a, _)
        | Op::Other(a, _) => [Some(a), None],
        Op::NextArea(v, s, _) => [Some(v), Some(s)],
        Op::Jump(_)
        | Op::JumpIfNot(..)
        | Op::UnlessAny(..)
        | Op::Count(_)
        | Op::Tick
        | Op::AddMoves(..)
        | Op::GiveUp
        | Op::Ret(_) => [None, None],
    }
}

#[cfg(test)]
mod tests {
    use crate::{BinOp, Compiler, Host, Op};

    /// Answers a word of the operands and notes every question.
    #[derive(Default)]
    struct Asking(Vec<(u32, u64)>);

    impl Host for Asking {
        fn prim(&mut self, p: u32, args: [u64; 5]) -> Option<u64> {
            self.0.push((p, args[0]));
            Some(args[0] * 3 + u64::from(p))
        }
        fn var(&mut self, v: u32, team: u64) -> Option<u64> {
            self.0.push((100 + v, team));
            Some(team + 10)
        }
        fn count(&mut self, _: u32) {}
        fn add_moves(&mut self, _: u8, _: u64, _: u64, _: u64) -> Option<()> {
            Some(())
        }
    }

    /// A loop over the areas of input 0 summing, per round, a primitive of input 1 (kept),
    /// a variable of team input 1 (kept) and a primitive of the round's area (asked each
    /// round).
    fn prog() -> Vec<Op> {
        vec![
            Op::Input(0, 0),
            Op::Input(1, 1),
            Op::Const(2, 0),
            Op::NextArea(3, 0, 11),
            Op::Prim(4, 7, [1, 1, 1, 1, 1]),
            Op::Var(5, 2, Some(1)),
            Op::Prim(6, 8, [3, 1, 1, 1, 1]),
            Op::Bin(BinOp::Add, 2, 2, 4),
            Op::Bin(BinOp::Add, 2, 2, 5),
            Op::Bin(BinOp::Add, 2, 2, 6),
            Op::Jump(3),
            Op::Ret(2),
        ]
    }

    #[test]
    fn answers_of_operands_a_loop_keeps_are_asked_once() {
        let run = |keep: bool| {
            let mut c = Compiler::new().unwrap();
            c.keep_answers(keep);
            let f = c.add(&prog()).unwrap();
            let code = c.finish().unwrap();
            let mut host = Asking::default();
            let mut ops = 0;
            let w = code.run(f, &mut host, &[0b1011, 5], &mut ops, 100);
            (w, ops, host.0)
        };
        let (w, ops, asked) = run(false);
        let (w2, ops2, asked2) = run(true);
        assert_eq!((w, ops), (w2, ops2));
        // Rounds of areas 0, 1 and 3: (3 * 5 + 7) + (5 + 10) + (3 * area + 8) each.
        assert_eq!(w, Some(22 + 15 + 8 + 22 + 15 + 11 + 22 + 15 + 17));
        assert_eq!(asked.len(), 9);
        assert_eq!(asked2, [(7, 5), (102, 5), (8, 0), (8, 1), (8, 3)]);
    }
}
