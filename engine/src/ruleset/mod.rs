//! A ruleset: one edition (or house rule) loaded from its TOML file, every reference
//! resolved and every rule checked, ready to run.
//!
//! This folder is the model, at the bottom of the engine: the loaded ruleset ([`model`]),
//! its interned strings ([`symbols`]), its look-ups by symbol ([`lookups`]), the file as
//! written ([`raw`]) and the diagnostics of a load ([`diag`]). It imports nothing above it.
//! The loader ([`crate::load`]), which reads the files, checks and compiles the rules and
//! fills the model in, sits above the compiler, the lints and the machine.

pub mod diag;
pub mod lookups;
pub mod model;
pub mod raw;
pub mod symbols;

pub use model::{
    Breakdown, Domain, Figure, FigureTest, Hook, MatchOption, Procedure, Row, Ruleset, Table,
    Trigger, Unit, VarDecl,
};
pub use symbols::{AddedSymbols, Symbols, SymbolsOver};
