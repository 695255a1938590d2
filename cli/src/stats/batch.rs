//! A batch's identity: who played, under which rules and options, which matches.

use fuba_engine::ruleset::Ruleset;
use serde::{Deserialize, Serialize};

/// Who played, under which rules, which matches: a batch's identity. Tallies merge only
/// when these agree (shards aside).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Batch {
    /// The ruleset's name.
    pub ruleset: String,
    /// Its title.
    pub title: String,
    /// Its fingerprint.
    pub fingerprint: String,
    /// The batch seed.
    pub seed: u64,
    /// The home agent.
    pub home: String,
    /// The away agent.
    pub away: String,
    /// Matches in the whole batch (all shards).
    pub games: u64,
    /// Into how many shards the batch is split (1: not split).
    pub shard_count: u64,
    /// The shards (1-based) this tally holds.
    pub shards: Vec<u64>,
    /// The match options set to something other than their default (`skills=4`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub options: Vec<String>,
}

/// The match options of `rs` set to something other than their default, as `name=value`
/// (a flag as `on`/`off`, as the command line takes it).
pub fn options_set(rs: &Ruleset) -> Vec<String> {
    fuba_engine::log::options_set(rs)
}

impl Batch {
    /// The match indices of shard `k` (1-based) of `n`: every index `i` of the batch with
    /// `i % n == k - 1`.
    pub fn indices(games: u64, k: u64, n: u64) -> impl Iterator<Item = u64> {
        (k - 1..games).step_by(n as usize)
    }

    /// The shard(s) a tally holds, as text (`2/4`, `1,3/4`), or None for a whole batch.
    pub fn shard_text(&self) -> Option<String> {
        if self.shard_count == 1 || self.shards.len() as u64 == self.shard_count {
            return None;
        }
        let ks: Vec<String> = self.shards.iter().map(u64::to_string).collect();
        Some(format!("{}/{}", ks.join(","), self.shard_count))
    }
}
