//! Typed instructions: operations the checker's types allow to run on the frame's locals in
//! place, without moving their values through the operand stack. Each keeps a fall-back to
//! the full operation, so a value of another kind than the checker found gives the same
//! result (or error) as the untyped code.

use super::binop::fast_bin;
use super::checked::as_bool;
use super::code::{NO_OPD, opd_role};
use super::machine::Match;
use super::run_error::Halt;
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

    /// `local op operand`, both read in place.
    #[inline(always)]
    pub(super) fn cmp_ll(
        &self,
        op: Op,
        base: usize,
        a: u16,
        b: u16,
        at: u32,
    ) -> Result<bool, Halt> {
        let ty;
        let x = &self.stack[base + a as usize];
        let y = match opd_role(b) {
            None => &self.stack[base + b as usize],
            Some(r) => {
                ty = Value::Team(self.role(r));
                &ty
            }
        };
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

    /// An operand of a typed instruction: a local's value in place, or a role's team.
    #[inline(always)]
    fn opd<'a>(&'a self, base: usize, o: u16, tmp: &'a mut Value) -> &'a Value {
        match opd_role(o) {
            None => &self.stack[base + o as usize],
            Some(r) => {
                *tmp = Value::Team(self.role(r));
                tmp
            }
        }
    }

    /// A light primitive of one operand read in place (the full path when it does not
    /// apply).
    #[inline(always)]
    pub(super) fn prim_l(&mut self, p: Prim, base: usize, a: u16, at: u32) -> Result<(), Halt> {
        let mut t = Value::None;
        let x = self.opd(base, a, &mut t);
        match self.light_with(p, None, Some(x)) {
            Some(v) => {
                self.stack.push(v);
                Ok(())
            }
            None => self.prim_pushed(p, base, &[a], at),
        }
    }

    /// A light primitive of two operands read in place.
    #[inline(always)]
    pub(super) fn prim_ll(
        &mut self,
        p: Prim,
        base: usize,
        a: u16,
        b: u16,
        at: u32,
    ) -> Result<(), Halt> {
        let (mut t, mut u) = (Value::None, Value::None);
        let x = self.opd(base, a, &mut t);
        let y = self.opd(base, b, &mut u);
        match self.light_with(p, Some(x), Some(y)) {
            Some(v) => {
                self.stack.push(v);
                Ok(())
            }
            None => self.prim_pushed(p, base, &[a, b], at),
        }
    }

    /// The full path: the operands pushed, then the primitive.
    #[cold]
    #[inline(never)]
    fn prim_pushed(&mut self, p: Prim, base: usize, opds: &[u16], at: u32) -> Result<(), Halt> {
        for &o in opds {
            let mut t = Value::None;
            let v = self.opd(base, o, &mut t).clone();
            self.stack.push(v);
        }
        self.prim(p, at)
    }

    /// A light primitive of one or two operands read in place, its result stored into the
    /// local `d`.
    #[inline(always)]
    pub(super) fn prim_to(
        &mut self,
        p: Prim,
        base: usize,
        [a, b]: [u16; 2],
        d: u16,
        at: u32,
    ) -> Result<(), Halt> {
        let (mut t, mut u) = (Value::None, Value::None);
        let x = self.opd(base, a, &mut t);
        let light = if b == NO_OPD {
            self.light_with(p, None, Some(x))
        } else {
            let y = self.opd(base, b, &mut u);
            self.light_with(p, Some(x), Some(y))
        };
        let v = match light {
            Some(v) => v,
            None => {
                let opds = if b == NO_OPD { &[a][..] } else { &[a, b][..] };
                self.prim_pushed(p, base, opds, at)?;
                self.pop()
            }
        };
        self.stack[base + d as usize] = v;
        Ok(())
    }
}
