//! Which procedures are pure: their value depends only on their arguments and the match
//! state, and running them changes nothing (no state write, no event, no dice, no choice,
//! no table row or hook, whose uses are counted and logged).
//!
//! The machine remembers the values of pure procedures until the state next changes
//! (see [`crate::memo`]), so rules may ask for the same offside line or legal targets many
//! times a turn at the cost of one evaluation.

use crate::ir::{Block, Node, NodeKind, Stmt, any_in};
use crate::ruleset::Ruleset;

/// Whether each procedure of the ruleset (by index) is pure.
pub fn pure_procs(rs: &Ruleset) -> Vec<bool> {
    // Start from "pure" and strike procedures out until nothing changes: a procedure is
    // impure when its own code has an effect or it calls an impure procedure.
    let mut pure = vec![true; rs.procs.len()];
    loop {
        let mut changed = false;
        for (i, p) in rs.procs.iter().enumerate() {
            if pure[i] && !block_pure(&p.code.body, &pure) {
                pure[i] = false;
                changed = true;
            }
        }
        if !changed {
            return pure;
        }
    }
}

fn block_pure(b: &Block, pure: &[bool]) -> bool {
    !any_in(
        b,
        |s| matches!(s, Stmt::SetVar(..) | Stmt::Emit(..)),
        |n| !node_pure_itself(n, pure),
    )
}

/// Whether the node itself (not its parts) is free of effects: a primitive with no
/// effect, a call of a pure procedure, anything but a table row, a choice, a roll, a
/// modifier list (counted, logged or asking for dice or a choice) or a hook.
fn node_pure_itself(n: &Node, pure: &[bool]) -> bool {
    match &n.kind {
        NodeKind::Prim(p, _) => !p.has_effect(),
        NodeKind::Call(idx, _) => pure[*idx as usize],
        NodeKind::Table(..)
        | NodeKind::ChooseFrom { .. }
        | NodeKind::ChooseArms { .. }
        | NodeKind::Roll { .. }
        | NodeKind::Modifiers { .. }
        | NodeKind::Hook(..) => false,
        _ => true,
    }
}
