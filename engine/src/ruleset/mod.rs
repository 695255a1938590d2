//! A ruleset: one edition (or house rule) loaded from its TOML file, every reference
//! resolved and every rule checked, ready to run.
//!
//! At the bottom, the model: the loaded ruleset ([`model`]), its interned strings
//! ([`symbols`]), its look-ups by symbol ([`lookups`]), the file as written ([`raw`]) and
//! the diagnostics of a load ([`diag`]). Above them, the loader (`load/`), which reads the
//! files, checks and compiles the rules, and fills the model in.

pub mod diag;
mod load;
pub mod lookups;
pub mod model;
pub mod raw;
pub mod symbols;

pub use load::{
    EditionLookup, collections, expand, figures, load_file, load_file_options, load_file_with,
    load_str, load_str_options, load_str_with, needs, options_from_env,
};
pub use model::{
    Breakdown, Domain, Figure, FigureTest, Hook, MatchOption, Procedure, Row, Ruleset, Table,
    Trigger, Unit, VarDecl,
};
pub use symbols::{Symbols, SymbolsOver};
