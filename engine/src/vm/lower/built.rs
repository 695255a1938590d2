//! A direct expression as the lowering builds it ([`Built`]): the closures, their size and
//! whether the value is exact. Shared by the closures' builders (`direct.rs`, `fused.rs`,
//! `hoist.rs`, `direct_hook.rs`, `direct_match.rs`), below all of them.

use super::super::machine::Direct;

/// A direct expression as built: its closures, its size in nodes, and whether its value
/// is exactly the one the stack code leaves (an area-set local may hold an area or none,
/// which an area-set operand reads as a set: such a leaf is not exact on its own).
pub(super) struct Built {
    pub(super) d: Direct,
    pub(super) k: u32,
    pub(super) exact: bool,
}

/// A direct expression built from closures of `k` nodes, exact.
pub(super) fn built(d: Direct, k: u32) -> Option<Built> {
    Some(Built { d, k, exact: true })
}

impl Built {
    /// The closures reading a hoisted part's local (`hoist.rs`), for a part of `k` nodes.
    pub(super) fn hoisted(d: Direct, k: u32) -> Built {
        Built { d, k, exact: true }
    }
}
