//! Limits on what the parser accepts. All in one place, on in every build.

/// Deepest nesting of brackets, blocks and sub-expressions accepted in a piece of code.
pub const MAX_NESTING: usize = 32;

/// Largest piece of code accepted, in bytes.
pub const MAX_CODE_BYTES: usize = 64 * 1024;
