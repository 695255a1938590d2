//! The board and a position as they are drawn: where each area goes ([`layout`]) and what
//! stands on it at one moment of a match ([`position`]). Shared by the HTML viewer
//! (`fuba view`) and the terminal's pitch for a human player, both above it.

pub mod layout;
pub mod position;
