//! Superinstructions: the rules' most frequent short sequences (two locals pushed, a local
//! as an operand, a comparison and its branch, a local handed to a primitive, a constant
//! operand, a constant returned) fused into one instruction.
//!
//! A fused instruction replaces the first of its sequence and then skips the rest, which
//! stay in place: every address is kept, so a jump into the middle of a sequence still
//! runs the original instructions from there.

use super::code::Ins;
use super::machine::Program;
use crate::ir::Op;

/// Fuses the program's sequences in place.
pub fn fuse(p: &mut Program) {
    let code = &mut p.code;
    for i in 0..code.len() {
        let at = |k: usize| code.get(i + k).copied();
        let fused = match (at(0), at(1), at(2)) {
            (Some(Ins::Local(a)), Some(Ins::Local(b)), Some(Ins::Bin(op))) => {
                Some(Ins::BinLL(op, a, b))
            }
            (Some(Ins::Local(a)), Some(Ins::Local(b)), _) => Some(Ins::Local2(a, b)),
            (Some(Ins::Local(a)), Some(Ins::Bin(op)), _) => Some(Ins::BinL(op, a)),
            (Some(Ins::Local(a)), Some(Ins::JumpIfFalse(t)), _) => {
                Some(Ins::LocalJumpIfFalse(a, t))
            }
            (Some(Ins::Store(a)), Some(Ins::Local(b)), _) => Some(Ins::StoreLocal(a, b)),
            (Some(Ins::Bin(op)), Some(Ins::JumpIfFalse(t)), _) => Some(Ins::BinJumpIfFalse(op, t)),
            _ => None,
        };
        if let Some(f) = fused {
            code[i] = f;
        }
    }
    pairs(code);
    branches(code);
    stores(code);
}

/// A direct expression whose value is stored into a local at once (`let x = e`, `set x =
/// e`): stored by the direct instruction itself ([`Ins::DirectTo`]), the `Store` kept in
/// place for the stack code. A `StoreLocal` (the store and the push of the next local) only
/// when the instruction after it pushes locals and cannot fail or jump: going on there
/// then does what the `StoreLocal`'s path does.
fn stores(code: &mut [Ins]) {
    for i in 0..code.len() {
        let Ins::Direct(d, skip) = code[i] else {
            continue;
        };
        let plain = |k: usize| {
            matches!(
                code.get(k),
                Some(Ins::Local(_) | Ins::Local2(..) | Ins::LocalInt(..) | Ins::LocalRole(..))
            )
        };
        let to = skip as usize;
        match code.get(to) {
            Some(Ins::Store(s)) => code[i] = Ins::DirectTo(d, *s, skip + 1),
            Some(Ins::StoreLocal(s, _)) if plain(to + 1) => {
                code[i] = Ins::DirectTo(d, *s, skip + 1);
            }
            _ => {}
        }
    }
}

/// A boolean made only to be jumped with to a `JumpIfFalse` (the value of `a and b` used as
/// a condition): the branch is taken at once, where the value is made. Forward jumps only,
/// so no operation is counted on the way.
fn branches(code: &mut [Ins]) {
    for i in 0..code.len() {
        let target = |t: u32| match code.get(t as usize) {
            Some(Ins::JumpIfFalse(x)) if t as usize > i + 1 && *x > t => Some((t + 1, *x)),
            _ => None,
        };
        let fused = match (code[i], code.get(i + 1).copied()) {
            (Ins::Bin(op), Some(Ins::ToBoolJump(t))) => {
                target(t).map(|(y, n)| Ins::BinBranch(op, y, n))
            }
            (Ins::ToBoolJump(t), _) => target(t).map(|(y, n)| Ins::Branch(y, n)),
            _ => None,
        };
        if let Some(f) = fused {
            code[i] = f;
        }
    }
}

/// A second pass over the fused code: pairs of an instruction and the one after it (which
/// may itself be a superinstruction of the first pass; the pair then does its work too).
/// Pairs found frequent by counting the instructions run in seeded matches of every
/// edition.
fn pairs(code: &mut [Ins]) {
    for i in 0..code.len() {
        let Some(&next) = code.get(i + 1) else {
            break;
        };
        // Forward past the pair: no operation is counted, so the jump may start at `i`.
        let fwd = |t: u32| t as usize > i + 1;
        let fused = match (code[i], next, code.get(i + 2).copied()) {
            (Ins::Unit, Ins::Pop, Some(Ins::Jump(t))) => Ins::UnitPopJump(t),
            // A value pushed and dropped: nothing to do (a forward jump counts nothing).
            (Ins::Unit, Ins::Pop, _) => Ins::Jump(i as u32 + 2),
            (Ins::Unit, Ins::BinJumpIfFalse(op @ (Op::Eq | Op::Ne), t), _) => {
                Ins::NoneJumpIfFalse(op == Op::Eq, t)
            }
            (Ins::Local(s), Ins::Prim(p), _) => Ins::LocalPrim(s, p),
            (Ins::Local(s), Ins::Int(k), _) => Ins::LocalInt(s, k),
            (Ins::Local(s), Ins::Role(r), _) => Ins::LocalRole(s, r),
            (Ins::Role(r), Ins::Local(s), _) => Ins::RoleLocal(r, s),
            (Ins::CountCall(p), Ins::Local(s), _) => Ins::CountCallLocal(p, s),
            (Ins::Const(c), Ins::Bin(op), _) => Ins::BinK(op, c),
            (Ins::Role(r), Ins::Bin(op), _) => Ins::BinRole(op, r),
            (Ins::Int(k), Ins::BinJumpIfFalse(op, t), _) => Ins::IntBinJumpIfFalse(op, k, t),
            (Ins::Bin(op), Ins::JumpIfTrue(t), _) => Ins::BinJumpIfTrue(op, t),
            (Ins::Bool(true), Ins::JumpIfFalse(_), _) => Ins::Jump(i as u32 + 2),
            (Ins::Bool(false), Ins::JumpIfFalse(t), _) if fwd(t) => Ins::Jump(t),
            (Ins::ToBool, Ins::Jump(t), _) if fwd(t) => Ins::ToBoolJump(t),
            (Ins::Pop, Ins::Jump(t), _) => Ins::PopJump(t),
            (Ins::Prim(p), Ins::Pop, _) => Ins::PrimPop(p),
            (Ins::Prim(p), Ins::Store(s), _) => Ins::PrimStore(p, s),
            (Ins::Unit, Ins::Ret, _) => Ins::RetUnit,
            (Ins::Bool(b), Ins::Ret, _) => Ins::RetBool(b),
            _ => continue,
        };
        code[i] = fused;
    }
}
