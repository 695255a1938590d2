//! The loop around a rows function's program ([`crate::Compiler::add_rows`]).

use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::types::I64;
use cranelift_codegen::ir::{Block, InstBuilder, MemFlagsData, Value};
use cranelift_frontend::{FunctionBuilder, Variable};

use crate::callbacks::OPS;

/// A function that runs its program once per row ([`crate::Compiler::add_rows`]): the
/// input the rows stand for, and the variables of the loop around the program.
pub(crate) struct Rows {
    /// The input each row's word stands for.
    pub(crate) input: u16,
    /// The row being run.
    pub(crate) i: Variable,
    /// Its word.
    pub(crate) word: Variable,
    /// The operations counted before it (restored when it gives up).
    pub(crate) before: Variable,
    /// Where the values go.
    pub(crate) out: Value,
    /// The loop's head, where a `Ret` goes on with the next row.
    pub(crate) head: Block,
}

impl Rows {
    /// The loop around the program, from the function's entry block (current in `b`,
    /// with the rows, their number and `out` as its third to fifth parameters):
    /// the head takes the next row or returns how many ran; a run zeroes the registers'
    /// variables `vars` (all but those worked out once before the rows, `crate::hoist`),
    /// puts the row's word in its variable, notes the operations counted so far, and
    /// goes on at the program's first block `start`.
    pub(crate) fn open(
        b: &mut FunctionBuilder,
        input: u16,
        (entry, ctx, zero, start): (Block, Value, Value, Block),
        vars: &[Variable],
        flags: (MemFlagsData, MemFlagsData),
    ) -> Rows {
        let p = b.block_params(entry);
        let (rows, n, out) = (p[2], p[3], p[4]);
        let (i, word, before) = (b.declare_var(I64), b.declare_var(I64), b.declare_var(I64));
        b.def_var(i, zero);
        b.def_var(word, zero);
        b.def_var(before, zero);
        let (head, run, all) = (b.create_block(), b.create_block(), b.create_block());
        b.ins().jump(head, &[]);
        b.switch_to_block(head);
        let at = b.use_var(i);
        let left = b.ins().icmp(IntCC::UnsignedLessThan, at, n);
        b.ins().brif(left, run, &[], all, &[]);
        b.switch_to_block(all);
        let ran = b.use_var(i);
        b.ins().return_(&[ran]);
        b.switch_to_block(run);
        for v in vars {
            b.def_var(*v, zero);
        }
        let at = b.use_var(i);
        let off = b.ins().ishl_imm_u(at, 3);
        let at = b.ins().iadd(rows, off);
        let w = b.ins().load(I64, flags.1, at, 0);
        b.def_var(word, w);
        let ops = b.ins().load(I64, flags.0, ctx, OPS);
        b.def_var(before, ops);
        b.ins().jump(start, &[]);
        Rows {
            input,
            i,
            word,
            before,
            out,
            head,
        }
    }
}
