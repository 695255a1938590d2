//! A program ([`Op`]s) as a Cranelift function: registers as variables, a block where
//! each jump lands, callbacks through [`crate::callbacks`], and one block that gives up.

use std::collections::BTreeSet;

use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::types::I64;
use cranelift_codegen::ir::{Block, InstBuilder, MemFlagsData, Signature, Value};
use cranelift_frontend::{FunctionBuilder, Variable};

use crate::callbacks::{
    CALLS, CALLS_CAP, Callback, FAIL, LIMIT, MOVES, MOVES_CAP, NCALLS, NMOVES, OPS, STATE, cb_call,
    cb_count, cb_moves, cb_prim, cb_var,
};
use crate::hoist::{hoisted, zeroed_per_run};
use crate::memo::Memos;
use crate::rows::Rows;
use crate::{BinOp, Error, Op};

/// The state bytes a program reading them needs ([`Op::CountIn`]).
const STATE_BYTES: usize = 64;

/// Checks the jump targets and tables of a program; the inputs and state bytes it reads.
pub(crate) fn check(prog: &[Op], tables: &[usize]) -> Result<(usize, usize), Error> {
    let len = prog.len();
    let mut inputs = 0;
    let mut bytes = 0;
    if !matches!(prog.last(), Some(Op::Jump(_) | Op::GiveUp | Op::Ret(_))) {
        return Err(Error::Program("the last operation goes on"));
    }
    for op in prog {
        let target = match op {
            Op::Jump(t) | Op::JumpIfNot(_, t) | Op::UnlessAny(_, _, t) | Op::NextArea(_, _, t) => {
                Some(*t)
            }
            Op::Input(_, i) => {
                inputs = inputs.max(*i as usize + 1);
                None
            }
            Op::CountIn(..) => {
                bytes = STATE_BYTES;
                None
            }
            Op::Spread(_, t, _, _) | Op::Entry(_, t, _, _)
                if tables.get(*t as usize) != Some(&64) =>
            {
                return Err(Error::Program("no such table"));
            }
            Op::Pair(_, g, _, _) if tables.get(*g as usize) != Some(&1024) => {
                return Err(Error::Program("no such grid"));
            }
            _ => None,
        };
        if target.is_some_and(|t| t as usize >= len) {
            return Err(Error::Program("a jump past the end"));
        }
    }
    Ok((inputs, bytes))
}

/// Where blocks start: the entry, every target and every operation after a branch.
fn leaders(prog: &[Op]) -> BTreeSet<usize> {
    let mut at = BTreeSet::from([0]);
    for (pc, op) in prog.iter().enumerate() {
        match op {
            Op::Jump(t) | Op::JumpIfNot(_, t) | Op::UnlessAny(_, _, t) | Op::NextArea(_, _, t) => {
                at.insert(*t as usize);
                at.insert(pc + 1);
            }
            Op::GiveUp | Op::Ret(_) | Op::Tick => {
                at.insert(pc + 1);
            }
            _ => {}
        }
    }
    at.retain(|&pc| pc < prog.len());
    at
}

/// The function of a program, in `b`: `fn(ctx, inputs) -> value`, or with `rows` (the
/// input its rows stand for) `fn(ctx, inputs, rows, n, out) -> runs`, which runs the
/// program once per row, its values into `out`, until one gives up, and returns how many
/// ran to the end; the operations a run that gave up counted are dropped. Each run starts
/// from zeroed registers, as a call of the plain function does, so the two give the same;
/// what no row changes is worked out once, before the loop ([`crate::hoist`]).
pub(crate) fn translate<'a>(
    mut b: FunctionBuilder<'a>,
    prog: &[Op],
    cb_sig: Signature,
    tables: &[usize],
    rows: Option<u16>,
    (keep, keep_moves): (bool, bool),
) -> Result<FunctionBuilder<'a>, Error> {
    let regs = 256;
    let vars: Vec<Variable> = (0..regs).map(|_| b.declare_var(I64)).collect();
    let entry = b.create_block();
    b.append_block_params_for_function_params(entry);
    let starts = leaders(prog);
    let blocks: std::collections::HashMap<usize, Block> =
        starts.iter().map(|&pc| (pc, b.create_block())).collect();
    let give_up = b.create_block();
    b.switch_to_block(entry);
    let ctx = b.block_params(entry)[0];
    let input = b.block_params(entry)[1];
    let zero = b.ins().iconst(I64, 0);
    let flags = MemFlagsData::trusted();
    // What a run only reads (its inputs, the board's tables, the pieces' counts, the
    // rows): nothing writes it while the code runs, so Cranelift may move such a load to
    // where its value is used, or share it (it did not take them out of the rows' loop:
    // `crate::hoist` does).
    let fixed = flags.with_readonly().with_can_move();
    let memos = Memos::new(&mut b, prog, !keep || rows.is_some(), zero);
    // A rows function works out what no row changes once, in its entry block, before
    // the rows' loop opens (`crate::hoist`); the registers it writes keep their words
    // from row to row.
    let once = match rows {
        Some(r) => hoisted(prog, r),
        None => vec![false; prog.len()],
    };
    let row_input = rows;
    let mut rows: Option<Rows> = None;
    let sig = b.import_signature(cb_sig);
    let mut open = false;
    let order = (prog.iter().enumerate())
        .filter(|&(pc, _)| once[pc])
        .map(Some)
        .chain([None])
        .chain(
            (prog.iter().enumerate())
                .filter(|&(pc, _)| !once[pc])
                .map(Some),
        );
    for step in order {
        let Some((pc, op)) = step else {
            // What is worked out once is in; the runs start.
            match row_input {
                Some(r) => {
                    let zeroed = zeroed_per_run(&vars, prog, &once);
                    let at = (entry, ctx, zero, blocks[&0]);
                    rows = Some(Rows::open(&mut b, r, at, &zeroed, (flags, fixed)));
                }
                None => {
                    for v in &vars {
                        b.def_var(*v, zero);
                    }
                    b.ins().jump(blocks[&0], &[]);
                }
            }
            // The program's first block, where a run starts.
            b.switch_to_block(blocks[&0]);
            open = true;
            continue;
        };
        if !once[pc] && pc > 0 {
            if let Some(&blk) = blocks.get(&pc) {
                if open {
                    b.ins().jump(blk, &[]);
                }
                b.switch_to_block(blk);
                open = true;
            }
            if !open {
                // Unreachable code (after a jump, not a target).
                continue;
            }
        }
        let r = |b: &mut FunctionBuilder, i: u8| b.use_var(vars[i as usize]);
        let next = || blocks.get(&(pc + 1)).copied();
        macro_rules! set {
            ($a:expr, $v:expr) => {{
                let v = $v;
                b.def_var(vars[*$a as usize], v);
            }};
        }
        // One operation counted against the budget: past it, give up, else go on at `go`.
        let tick = |b: &mut FunctionBuilder, go: Block| {
            let ops = b.ins().load(I64, flags, ctx, OPS);
            let ops = b.ins().iadd_imm_s(ops, 1);
            b.ins().store(flags, ops, ctx, OPS);
            let limit = b.ins().load(I64, flags, ctx, LIMIT);
            let over = b.ins().icmp(IntCC::UnsignedGreaterThan, ops, limit);
            b.ins().brif(over, give_up, &[], go, &[]);
        };
        // A callback, then a give-up when it set the flag.
        let call = |b: &mut FunctionBuilder, f: Callback, args: [Value; 6]| -> Value {
            let addr = b.ins().iconst(I64, f as usize as i64);
            let [x0, x1, x2, x3, x4, x5] = args;
            let c = b
                .ins()
                .call_indirect(sig, addr, &[ctx, x0, x1, x2, x3, x4, x5]);
            let out = b.inst_results(c)[0];
            let fail = b.ins().load(I64, flags, ctx, FAIL);
            let ok = b.create_block();
            b.ins().brif(fail, give_up, &[], ok, &[]);
            b.switch_to_block(ok);
            out
        };
        let k = |b: &mut FunctionBuilder, w: u64| b.ins().iconst(I64, w as i64);
        match op {
            Op::Const(a, w) => set!(a, k(&mut b, *w)),
            Op::Input(a, i) => match &rows {
                Some(l) if l.input == *i => set!(a, b.use_var(l.word)),
                _ => set!(a, b.ins().load(I64, fixed, input, i32::from(*i) * 8)),
            },
            Op::Var(a, v, t) => {
                let w = memos.answer(&mut b, pc, &vars, |b| {
                    let v = k(b, u64::from(*v));
                    let t = match t {
                        Some(t) => r(b, *t),
                        None => zero,
                    };
                    call(b, cb_var, [v, t, zero, zero, zero, zero])
                });
                set!(a, w);
            }
            Op::Not(a, x) => {
                let x = r(&mut b, *x);
                let c = b.ins().icmp_imm_s(IntCC::Equal, x, 0);
                set!(a, b.ins().uextend(I64, c));
            }
            Op::Neg(a, x) => {
                let x = r(&mut b, *x);
                let (v, of) = b.ins().ssub_overflow(zero, x);
                let ok = b.create_block();
                b.ins().brif(of, give_up, &[], ok, &[]);
                b.switch_to_block(ok);
                set!(a, v);
            }
            Op::Bin(o, a, x, y) => {
                let (x, y) = (r(&mut b, *x), r(&mut b, *y));
                let v = bin(&mut b, *o, x, y, give_up);
                set!(a, v);
            }
            Op::Copy(a, x) => set!(a, r(&mut b, *x)),
            Op::ToSet(a, x) => {
                let x = r(&mut b, *x);
                let x = b.ins().band_imm_u(x, 31);
                let one = k(&mut b, 1);
                set!(a, b.ins().ishl(one, x));
            }
            Op::Prim(a, p, xs) => {
                let w = memos.answer(&mut b, pc, &vars, |b| {
                    let p = k(b, u64::from(*p));
                    let [x0, x1, x2, x3, x4] = xs.map(|x| r(b, x));
                    call(b, cb_prim, [p, x0, x1, x2, x3, x4])
                });
                set!(a, w);
            }
            Op::MoveEnd(a, x, from) => {
                let x = r(&mut b, *x);
                let x = if *from { x } else { b.ins().ushr_imm_u(x, 8) };
                set!(a, b.ins().band_imm_u(x, 0xff));
            }
            Op::MoveKeeper(a, x) => {
                let x = r(&mut b, *x);
                let x = b.ins().ushr_imm_u(x, 16);
                set!(a, b.ins().band_imm_u(x, 1));
            }
            Op::Jump(t) => {
                b.ins().jump(blocks[&(*t as usize)], &[]);
                open = false;
            }
            Op::JumpIfNot(c, t) => {
                let c = r(&mut b, *c);
                let on = next().ok_or(Error::Program("a branch at the end"))?;
                b.ins().brif(c, on, &[], blocks[&(*t as usize)], &[]);
                open = false;
            }
            Op::UnlessAny(c, words, t) => {
                let c = r(&mut b, *c);
                let on = next().ok_or(Error::Program("a branch at the end"))?;
                let mut any = b.ins().iconst(cranelift_codegen::ir::types::I8, 0);
                for w in words.iter() {
                    let e = b.ins().icmp_imm_s(IntCC::Equal, c, *w as i64);
                    any = b.ins().bor(any, e);
                }
                b.ins().brif(any, on, &[], blocks[&(*t as usize)], &[]);
                open = false;
            }
            // A rows function calls back for each (its runs end inside the code, where
            // nothing tells the host what a run kept).
            Op::Count(p) if rows.is_some() => {
                let p = k(&mut b, u64::from(*p));
                call(&mut b, cb_count, [p, zero, zero, zero, zero, zero]);
            }
            Op::Count(p) => {
                // Kept in the context while there is room (told to the host later, in
                // order: `Ctx::calls`), else called back for.
                let n = b.ins().load(I64, flags, ctx, NCALLS);
                let full =
                    b.ins()
                        .icmp_imm_u(IntCC::UnsignedGreaterThanOrEqual, n, CALLS_CAP as i64);
                let (keep, back, done) = (b.create_block(), b.create_block(), b.create_block());
                b.ins().brif(full, back, &[], keep, &[]);
                b.switch_to_block(keep);
                let at = b.ins().ishl_imm_u(n, 2);
                let at = b.ins().iadd(ctx, at);
                let word = b
                    .ins()
                    .iconst(cranelift_codegen::ir::types::I32, i64::from(*p));
                b.ins().store(flags, word, at, CALLS);
                let n = b.ins().iadd_imm_s(n, 1);
                b.ins().store(flags, n, ctx, NCALLS);
                b.ins().jump(done, &[]);
                b.switch_to_block(back);
                let p = k(&mut b, u64::from(*p));
                call(&mut b, cb_count, [p, zero, zero, zero, zero, zero]);
                b.ins().jump(done, &[]);
                b.switch_to_block(done);
            }
            Op::Call(a, f, xs) => {
                let f = k(&mut b, u64::from(*f));
                let [x0, x1, x2, x3, x4] = xs.map(|x| r(&mut b, x));
                set!(a, call(&mut b, cb_call, [f, x0, x1, x2, x3, x4]));
            }
            Op::NextArea(v, s, t) => {
                let set = r(&mut b, *s);
                let on = b.create_block();
                b.ins().brif(set, on, &[], blocks[&(*t as usize)], &[]);
                b.switch_to_block(on);
                let low = b.ins().ctz(set);
                b.def_var(vars[*v as usize], low);
                let less = b.ins().iadd_imm_s(set, -1);
                let rest = b.ins().band(set, less);
                b.def_var(vars[*s as usize], rest);
                let go = next().ok_or(Error::Program("a loop at the end"))?;
                tick(&mut b, go);
                open = false;
            }
            Op::Tick => {
                let go = next().ok_or(Error::Program("a count at the end"))?;
                tick(&mut b, go);
                open = false;
            }
            Op::AddMoves(acc, [t, from, dests]) if keep_moves && rows.is_none() => {
                // Kept in the context while there is room (told to the host when the run
                // ends: `Ctx::moves`), else called back for.
                let (t, from, dests) = (r(&mut b, *t), r(&mut b, *from), r(&mut b, *dests));
                let word = moves_word(&mut b, *acc, t, from, dests);
                let n = b.ins().load(I64, flags, ctx, NMOVES);
                let full =
                    b.ins()
                        .icmp_imm_u(IntCC::UnsignedGreaterThanOrEqual, n, MOVES_CAP as i64);
                let (keep, back, done) = (b.create_block(), b.create_block(), b.create_block());
                b.ins().brif(full, back, &[], keep, &[]);
                b.switch_to_block(keep);
                let at = b.ins().ishl_imm_u(n, 3);
                let at = b.ins().iadd(ctx, at);
                b.ins().store(flags, word, at, MOVES);
                let n = b.ins().iadd_imm_s(n, 1);
                b.ins().store(flags, n, ctx, NMOVES);
                b.ins().jump(done, &[]);
                b.switch_to_block(back);
                let acc = k(&mut b, u64::from(*acc));
                call(&mut b, cb_moves, [acc, t, from, dests, zero, zero]);
                b.ins().jump(done, &[]);
                b.switch_to_block(done);
            }
            Op::AddMoves(acc, [t, from, dests]) => {
                let acc = k(&mut b, u64::from(*acc));
                let (t, from, dests) = (r(&mut b, *t), r(&mut b, *from), r(&mut b, *dests));
                call(&mut b, cb_moves, [acc, t, from, dests, zero, zero]);
            }
            Op::Spread(a, t, x, side) | Op::Entry(a, t, x, side) => {
                let base = *tables
                    .get(*t as usize)
                    .ok_or(Error::Program("no such table"))?;
                let base = k(&mut b, base as u64);
                let base = match side {
                    Some(side) => {
                        let side = r(&mut b, *side);
                        let north = b.ins().icmp_imm_s(IntCC::NotEqual, side, 0);
                        let north = b.ins().uextend(I64, north);
                        let off = b.ins().ishl_imm_u(north, 7);
                        b.ins().iadd(base, off)
                    }
                    None => base,
                };
                let x = r(&mut b, *x);
                let v = if matches!(op, Op::Entry(..)) {
                    let i = b.ins().band_imm_u(x, 31);
                    let off = b.ins().ishl_imm_u(i, 2);
                    let at = b.ins().iadd(base, off);
                    b.ins().uload32(fixed, at, 0)
                } else {
                    spread(&mut b, base, x, fixed)
                };
                set!(a, v);
            }
            Op::CountIn(a, t, x, max) => {
                // A loop over the set's areas, its sum and rest in variables of their own.
                let (rest, sum) = (b.declare_var(I64), b.declare_var(I64));
                let x = r(&mut b, *x);
                let set = b.ins().band_imm_u(x, 0xffff_ffff);
                b.def_var(rest, set);
                b.def_var(sum, zero);
                let t = r(&mut b, *t);
                let other = b.ins().icmp_imm_s(IntCC::NotEqual, t, 0);
                let other = b.ins().uextend(I64, other);
                let half = b.ins().ishl_imm_u(other, 5);
                let state = b.ins().load(I64, flags, ctx, STATE);
                let base = b.ins().iadd(state, half);
                let (head, body, done) = (b.create_block(), b.create_block(), b.create_block());
                b.ins().jump(head, &[]);
                b.switch_to_block(head);
                let left = b.use_var(rest);
                b.ins().brif(left, body, &[], done, &[]);
                b.switch_to_block(body);
                let left = b.use_var(rest);
                let area = b.ins().ctz(left);
                let at = b.ins().iadd(base, area);
                let byte = b.ins().uload8(I64, fixed, at, 0);
                let acc = b.use_var(sum);
                let acc = b.ins().iadd(acc, byte);
                b.def_var(sum, acc);
                let less = b.ins().iadd_imm_s(left, -1);
                let left = b.ins().band(left, less);
                b.def_var(rest, left);
                b.ins().jump(head, &[]);
                b.switch_to_block(done);
                let total = b.use_var(sum);
                let max = k(&mut b, *max);
                set!(a, b.ins().umin(total, max));
            }
            Op::Pair(a, g, x, y) => {
                let base = *tables
                    .get(*g as usize)
                    .ok_or(Error::Program("no such grid"))?;
                let base = k(&mut b, base as u64);
                let (x, y) = (r(&mut b, *x), r(&mut b, *y));
                let x = b.ins().band_imm_u(x, 31);
                let y = b.ins().band_imm_u(y, 31);
                let row = b.ins().ishl_imm_u(x, 5);
                let i = b.ins().bor(row, y);
                let off = b.ins().ishl_imm_u(i, 2);
                let at = b.ins().iadd(base, off);
                set!(a, b.ins().uload32(fixed, at, 0));
            }
            Op::Size(a, x) => {
                let x = r(&mut b, *x);
                let low = b.ins().band_imm_u(x, 0xffff_ffff);
                set!(a, b.ins().popcnt(low));
            }
            Op::Other(a, x) => {
                let x = r(&mut b, *x);
                let one = k(&mut b, 1);
                set!(a, b.ins().isub(one, x));
            }
            Op::GiveUp => {
                b.ins().jump(give_up, &[]);
                open = false;
            }
            Op::Ret(a) => {
                let v = r(&mut b, *a);
                match &rows {
                    None => {
                        b.ins().return_(&[v]);
                    }
                    Some(l) => {
                        let i = b.use_var(l.i);
                        let off = b.ins().ishl_imm_u(i, 3);
                        let at = b.ins().iadd(l.out, off);
                        b.ins().store(flags, v, at, 0);
                        let next = b.ins().iadd_imm_s(i, 1);
                        b.def_var(l.i, next);
                        b.ins().jump(l.head, &[]);
                    }
                }
                open = false;
            }
        }
    }
    if open {
        return Err(Error::Program("the last operation goes on"));
    }
    b.switch_to_block(give_up);
    let one = b.ins().iconst(I64, 1);
    b.ins().store(flags, one, ctx, FAIL);
    match &rows {
        None => {
            b.ins().return_(&[zero]);
        }
        Some(l) => {
            // The run that gave up counts no operations; the rows before it ran.
            let before = b.use_var(l.before);
            b.ins().store(flags, before, ctx, OPS);
            let i = b.use_var(l.i);
            b.ins().return_(&[i]);
        }
    }
    b.seal_all_blocks();
    Ok(b)
}

/// The union of the table entries at `base` for the areas of the set `x` (low 32 bits).
fn spread(b: &mut FunctionBuilder, base: Value, x: Value, flags: MemFlagsData) -> Value {
    let head = b.create_block();
    let body = b.create_block();
    let done = b.create_block();
    b.append_block_param(head, I64);
    b.append_block_param(head, I64);
    b.append_block_param(done, I64);
    let low = b.ins().band_imm_u(x, 0xffff_ffff);
    let zero = b.ins().iconst(I64, 0);
    b.ins().jump(head, &[low.into(), zero.into()]);
    b.switch_to_block(head);
    let (s, acc) = (b.block_params(head)[0], b.block_params(head)[1]);
    b.ins().brif(s, body, &[], done, &[acc.into()]);
    b.switch_to_block(body);
    let i = b.ins().ctz(s);
    let off = b.ins().ishl_imm_u(i, 2);
    let at = b.ins().iadd(base, off);
    let e = b.ins().uload32(flags, at, 0);
    let acc = b.ins().bor(acc, e);
    let less = b.ins().iadd_imm_s(s, -1);
    let rest = b.ins().band(s, less);
    b.ins().jump(head, &[rest.into(), acc.into()]);
    b.switch_to_block(done);
    b.block_params(done)[0]
}

/// Two operands; overflow and bad divisors branch to `give_up`.
fn bin(b: &mut FunctionBuilder, o: BinOp, x: Value, y: Value, give_up: Block) -> Value {
    let flag = |b: &mut FunctionBuilder, cc: IntCC| {
        let c = b.ins().icmp(cc, x, y);
        b.ins().uextend(I64, c)
    };
    let checked = |b: &mut FunctionBuilder, (v, of): (Value, Value)| {
        let ok = b.create_block();
        b.ins().brif(of, give_up, &[], ok, &[]);
        b.switch_to_block(ok);
        v
    };
    match o {
        BinOp::Add => {
            let r = b.ins().sadd_overflow(x, y);
            checked(b, r)
        }
        BinOp::Sub => {
            let r = b.ins().ssub_overflow(x, y);
            checked(b, r)
        }
        BinOp::Mul => {
            let r = b.ins().smul_overflow(x, y);
            checked(b, r)
        }
        BinOp::Div | BinOp::Rem => {
            // `checked_div`: no zero divisor, no `i64::MIN / -1`.
            let zero = b.ins().icmp_imm_s(IntCC::Equal, y, 0);
            let min = b.ins().icmp_imm_s(IntCC::Equal, x, i64::MIN);
            let neg = b.ins().icmp_imm_s(IntCC::Equal, y, -1);
            let both = b.ins().band(min, neg);
            let bad = b.ins().bor(zero, both);
            let ok = b.create_block();
            b.ins().brif(bad, give_up, &[], ok, &[]);
            b.switch_to_block(ok);
            if o == BinOp::Div {
                b.ins().sdiv(x, y)
            } else {
                b.ins().srem(x, y)
            }
        }
        BinOp::Lt => flag(b, IntCC::SignedLessThan),
        BinOp::Le => flag(b, IntCC::SignedLessThanOrEqual),
        BinOp::Gt => flag(b, IntCC::SignedGreaterThan),
        BinOp::Ge => flag(b, IntCC::SignedGreaterThanOrEqual),
        BinOp::Eq => flag(b, IntCC::Equal),
        BinOp::Ne => flag(b, IntCC::NotEqual),
        BinOp::Union => b.ins().bor(x, y),
        BinOp::Inter => b.ins().band(x, y),
        BinOp::Diff => b.ins().band_not(x, y),
        BinOp::In => {
            let s = b.ins().band_imm_u(x, 31);
            let bit = b.ins().ushr(y, s);
            let bit = b.ins().band_imm_u(bit, 1);
            // `AreaSet(y as u32)`: only the low 32 bits count.
            let low = b.ins().icmp_imm_s(IntCC::UnsignedLessThan, s, 32);
            let low = b.ins().uextend(I64, low);
            b.ins().band(bit, low)
        }
        BinOp::Max => b.ins().smax(x, y),
        BinOp::Min => b.ins().smin(x, y),
    }
}

/// A move found as the word [`crate::Host::moves`] reads: `acc | team << 8 | from << 16 |
/// dests << 32` (team and start cut to 8 bits, destinations to 32, as the host reads
/// them from [`crate::Host::add_moves`]'s words).
fn moves_word(b: &mut FunctionBuilder, acc: u8, t: Value, from: Value, dests: Value) -> Value {
    let t = b.ins().band_imm_u(t, 0xff);
    let t = b.ins().ishl_imm_u(t, 8);
    let from = b.ins().band_imm_u(from, 0xff);
    let from = b.ins().ishl_imm_u(from, 16);
    let dests = b.ins().ishl_imm_u(dests, 32);
    let w = b.ins().bor(t, from);
    let w = b.ins().bor(w, dests);
    b.ins().bor_imm_u(w, i64::from(acc))
}
