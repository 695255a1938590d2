//! Conversion: goals per event of the figure a ruleset declares goals a conversion of
//! (`conversion = "goals per shot"` on a `[figures]` entry, docs/ruleset-format.md), the
//! ratio of two per-match sums with a delta-method interval ([`super::figures`]).
//!
//! The command line names no figure: it asks the ruleset which figure converts
//! ([`Conversion::of`]), or, for a JSON result it reads back, the figures the result lists
//! ([`Conversion::from_listed`]). The converting figure is listed right before its
//! conversion, which is how a result records it.

use fuba_engine::ruleset::Ruleset;
use serde::Deserialize;

/// The id of the conversion figure.
pub const ID: &str = "conversion";

/// Goals as a conversion of one of the ruleset's figures.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Conversion {
    /// The name of the figure whose events convert into goals.
    pub figure: String,
    /// The conversion's label (`conversion (goals per shot)`).
    pub label: String,
}

/// A figure as a JSON result lists it: its id and label, the rest left unread.
#[derive(Debug, Deserialize)]
pub struct Listed {
    /// Its id (`figures.NAME`, `conversion`).
    pub id: String,
    /// Its label.
    pub label: String,
}

impl Conversion {
    /// The conversion the ruleset declares, if one of its figures does.
    pub fn of(rs: &Ruleset) -> Option<Self> {
        rs.figures.iter().find_map(|f| {
            let per_event = f.conversion.as_ref()?;
            Some(Conversion {
                figure: f.name.clone(),
                label: format!("{ID} ({per_event})"),
            })
        })
    }

    /// The conversion a result's list of figures holds: the figure listed right before
    /// the conversion figure is the one converted.
    pub fn from_listed(figures: &[Listed]) -> Option<Self> {
        let i = figures.iter().position(|f| f.id == ID)?;
        let figure = figures
            .get(i.checked_sub(1)?)?
            .id
            .strip_prefix("figures.")?;
        Some(Conversion {
            figure: figure.to_string(),
            label: figures[i].label.clone(),
        })
    }

    /// The id of the converted figure among a tally's figures (`figures.NAME`).
    pub fn figure_id(&self) -> String {
        format!("figures.{}", self.figure)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn listed(ids: &[(&str, &str)]) -> Vec<Listed> {
        ids.iter()
            .map(|(id, label)| Listed {
                id: id.to_string(),
                label: label.to_string(),
            })
            .collect()
    }

    #[test]
    fn a_result_records_the_conversion_by_the_figure_before_it() {
        let c = Conversion::from_listed(&listed(&[
            ("goals", "goals"),
            ("figures.attempts", "attempts"),
            (ID, "conversion (goals per attempt)"),
            ("figures.fouls", "fouls"),
        ]));
        assert_eq!(
            c,
            Some(Conversion {
                figure: "attempts".into(),
                label: "conversion (goals per attempt)".into(),
            })
        );
        assert_eq!(c.unwrap().figure_id(), "figures.attempts");
        let none = listed(&[("goals", "goals"), ("figures.fouls", "fouls")]);
        assert_eq!(Conversion::from_listed(&none), None);
        let first = listed(&[(ID, "conversion (goals per attempt)")]);
        assert_eq!(Conversion::from_listed(&first), None);
    }
}
