//! The FUBA effect language.
//!
//! Rules of a FUBA edition that are more than a number (stages, set pieces, table entries,
//! skills, weather, events) are written in a small language embedded in the ruleset's TOML
//! file. This crate turns that text into an [`ast`] with spans ([`parse_body`],
//! [`parse_expression`], [`parse_params`]) and back into text ([`print`]). Names and types
//! are checked later, by the engine, when a ruleset is loaded.
//!
//! ```
//! use fuba_grammar::{parse_body, print::print_body};
//! let body = parse_body("let m = modifiers \"x\" { \"a\": +1 when true }").unwrap();
//! let text = print_body(&body);
//! assert_eq!(parse_body(&text).unwrap(), body);
//! ```
#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod ast;
pub mod error;
pub mod limits;
mod parser;
pub mod print;
pub mod report;

pub use error::{Nesting, ParseError};
pub use parser::{KEYWORDS, parse_body, parse_expression, parse_params};
