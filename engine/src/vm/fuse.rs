//! Superinstructions: the rules' most frequent short sequences (two locals pushed, a local
//! as an operand, a comparison and its branch) fused into one instruction.
//!
//! A fused instruction replaces the first of its sequence and then skips the rest, which
//! stay in place: every address is kept, so a jump into the middle of a sequence still
//! runs the original instructions from there.

use super::code::{Ins, Program};

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
}
