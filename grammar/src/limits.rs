//! Limits on what the parser accepts. All in one place, on in every build.

/// Deepest nesting of brackets accepted in a piece of code: each `(`, `[` or `{` not yet
/// closed counts one level.
pub const MAX_NESTING: usize = 32;

/// Deepest syntax tree accepted in a piece of code, counted while it is built: each
/// operator of a chain (`a + b + c` counts two), each `not`, `-` or `.field`, each
/// `else if`, each block and each bracket counts one level. Four tree levels per bracket
/// level; it keeps every later walk over the tree (checking, compiling, printing,
/// dropping) off the end of the stack.
pub const MAX_TREE_DEPTH: usize = 4 * MAX_NESTING;

/// Largest piece of code accepted, in bytes.
pub const MAX_CODE_BYTES: usize = 64 * 1024;
