//! Typed instructions: operations the checker's types allow to run on the frame's locals in
//! place, without moving their values through the operand stack. Each keeps a fall-back to
//! the full operation, so a value of another kind than the checker found gives the same
//! result (or error) as the untyped code.

use super::Halt;
use super::as_bool;
use super::binop::fast_bin;
use super::machine::Match;
use crate::ir::Op;
use crate::prims::Prim;
use crate::value::Value;

/// An integer comparison (`None`: not a comparison).
#[inline(always)]
fn int_cmp(op: Op, a: i64, b: i64) -> Option<bool> {
    Some(match op {
        Op::Eq => a == b,
        Op::Ne => a != b,
        Op::Lt => a < b,
        Op::Le => a <= b,
        Op::Gt => a > b,
        Op::Ge => a >= b,
        _ => return None,
    })
}

/// The comparison true exactly when `op` is false (`None`: not a comparison).
pub(crate) fn negate(op: Op) -> Option<Op> {
    Some(match op {
        Op::Eq => Op::Ne,
        Op::Ne => Op::Eq,
        Op::Lt => Op::Ge,
        Op::Le => Op::Gt,
        Op::Gt => Op::Le,
        Op::Ge => Op::Lt,
        _ => return None,
    })
}

/// The comparison with its operands swapped (`None`: not a comparison).
pub(crate) fn mirror(op: Op) -> Option<Op> {
    Some(match op {
        Op::Lt => Op::Gt,
        Op::Le => Op::Ge,
        Op::Gt => Op::Lt,
        Op::Ge => Op::Le,
        Op::Eq | Op::Ne => op,
        _ => return None,
    })
}

impl Match<'_> {
    /// `local op k`, the local read in place.
    #[inline(always)]
    pub(super) fn cmp_lk(&self, op: Op, i: usize, k: i32, at: u32) -> Result<bool, Halt> {
        if let Value::Int(x) = &self.stack[i] {
            if let Some(r) = int_cmp(op, *x, i64::from(k)) {
                return Ok(r);
            }
        }
        self.cmp_slow(op, self.stack[i].clone(), Value::Int(i64::from(k)), at)
    }

    /// `local op local`, both read in place.
    #[inline(always)]
    pub(super) fn cmp_ll(&self, op: Op, i: usize, j: usize, at: u32) -> Result<bool, Halt> {
        let (x, y) = (&self.stack[i], &self.stack[j]);
        if let (Value::Int(a), Value::Int(b)) = (x, y) {
            if let Some(r) = int_cmp(op, *a, *b) {
                return Ok(r);
            }
        }
        match fast_bin(op, x, y) {
            Some(r) => Ok(as_bool(&r)),
            None => self.cmp_slow(op, x.clone(), y.clone(), at),
        }
    }

    #[cold]
    #[inline(never)]
    fn cmp_slow(&self, op: Op, x: Value, y: Value, at: u32) -> Result<bool, Halt> {
        Ok(as_bool(&self.binop(op, x, y, at)?))
    }

    /// A light primitive of one local read in place (the full path when it does not
    /// apply).
    #[inline(always)]
    pub(super) fn prim_l(&mut self, p: Prim, i: usize, at: u32) -> Result<(), Halt> {
        match self.light_with(p, None, Some(&self.stack[i])) {
            Some(v) => {
                self.stack.push(v);
                Ok(())
            }
            None => self.prim_pushed(p, &[i], at),
        }
    }

    /// A light primitive of two locals read in place.
    #[inline(always)]
    pub(super) fn prim_ll(&mut self, p: Prim, i: usize, j: usize, at: u32) -> Result<(), Halt> {
        match self.light_with(p, Some(&self.stack[i]), Some(&self.stack[j])) {
            Some(v) => {
                self.stack.push(v);
                Ok(())
            }
            None => self.prim_pushed(p, &[i, j], at),
        }
    }

    /// The full path: the locals pushed, then the primitive.
    #[cold]
    #[inline(never)]
    fn prim_pushed(&mut self, p: Prim, locals: &[usize], at: u32) -> Result<(), Halt> {
        for &i in locals {
            let v = self.stack[i].clone();
            self.stack.push(v);
        }
        self.prim(p, at)
    }
}
