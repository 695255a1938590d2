//! Conversion: goals per event of one of the ruleset's figures, the ratio of two
//! per-match sums with a delta-method interval.
//!
//! Which figure converts into goals is a convention of the ruleset format
//! (docs/ruleset-format.md, `[figures]`: "a figure named `shots` also gives conversion").
//! A ruleset cannot declare it yet: that needs the loader to read a property of a figure
//! (issue 17). Until then this module is the one place in the command line that names the
//! figure; every other module asks it ([`CONVERTED`], [`is_converted`], [`figure_id`]),
//! and treats every figure alike. It depends on nothing: the tally and the figures
//! ([`super::figures`], which computes the ratio and its interval) depend on it.

/// The converted figure's name as a literal, for help texts built with `concat!`.
macro_rules! converted_figure {
    () => {
        "shots"
    };
}
pub(crate) use converted_figure;

/// The name of the figure whose events convert into goals.
pub const CONVERTED: &str = converted_figure!();

/// Whether the ruleset figure `name` is the converted one.
pub fn is_converted(name: &str) -> bool {
    name == CONVERTED
}

/// The id of the converted figure among a tally's figures (`figures.NAME`).
pub fn figure_id() -> String {
    format!("figures.{CONVERTED}")
}

/// The label of the conversion figure.
pub const LABEL: &str = "conversion (goals per shot)";
