//! Tallies of a batch of matches and the figures computed from them.
//!
//! Everything a batch counts is an integer (counts, sums, sums of squares), so tallies
//! added in any order, on any number of threads or machines, are exactly the same; the
//! figures (means, shares, intervals) are computed from the tallies at the end. A tally is
//! written into the JSON output (`tallies`), which is how `fuba merge` adds up shards.
//!
//! For a paired comparison (`fuba compare`) a tally can also keep every match's values by
//! match index ([`Tally::keep_per_match`], [`paired`]); those stay in memory.
//!
//! [`tally`] counts, [`figures`](mod@figures) turns the counts into figures with their
//! intervals, [`dist`] holds the distributions the intervals and tests need.

pub mod balance;
mod batch;
pub mod conversion;
mod dist;
mod figures;
pub mod paired;
mod tally;

pub use batch::{Batch, options_set};
pub use dist::{holm, t_quantile_975, t_two_sided, z_two_sided};
pub use figures::{Figure, Kind, figures, goals_distribution, num, share_figure};
use figures::{engine_label, mean_figure};
pub use tally::Tally;

/// The z value of a two-sided 95% interval.
pub const Z95: f64 = 1.959_963_984_540_054;

/// Goals distribution buckets: 0..=9 and 10 or more.
pub const GOAL_BUCKETS: usize = 11;
