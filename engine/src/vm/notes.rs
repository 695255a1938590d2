//! Notes kept beside the log, never in it: for each `modifiers` event, the parameters of the
//! code unit that computed the list — the candidate it was computed for, when a rule works
//! out the modifiers of every option before a choice (`pass_modifiers(s, t, kick)` for each
//! target). `fuba explain` replays a log with notes on to label each list
//! ([`crate::replay::replay_noting`]); the log itself is the same with notes on or off.

use crate::log::{team_name, value_json};
use crate::ruleset::Ruleset;
use crate::value::Value;

/// The arguments of the code unit that computed one modifier list.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ModifierArgs {
    /// The `seq` of the `modifiers` event.
    pub seq: u32,
    /// The rule that computed it (`procedures.NAME`, `triggers.NAME`, `tables.NAME[KEY]`).
    pub rule: String,
    /// Each parameter's name and value, as narration shows values: areas by name, teams
    /// as `Home`/`Away`, strings in quotes. Empty for a unit without parameters.
    pub args: Vec<(String, String)>,
}

/// A value as an argument is shown: areas by name, teams as `Home`/`Away`, strings quoted,
/// area sets and lists as `[A, B]`.
pub fn value_text(rs: &Ruleset, v: &Value) -> String {
    match v {
        Value::Team(t) => {
            let n = team_name(*t);
            let mut c = n.chars();
            c.next()
                .map(|f| f.to_uppercase().chain(c).collect())
                .unwrap_or_default()
        }
        Value::Str(s) => format!("\"{}\"", rs.symbol(*s)),
        Value::None => "none".into(),
        other => match value_json(rs, other) {
            serde_json::Value::String(s) => s,
            serde_json::Value::Array(a) => {
                let items: Vec<String> = a
                    .iter()
                    .map(|x| match x {
                        serde_json::Value::String(s) => s.clone(),
                        y => y.to_string(),
                    })
                    .collect();
                format!("[{}]", items.join(", "))
            }
            j => j.to_string(),
        },
    }
}
