//! Plays N matches (original edition, or the ruleset file given second) with random agents
//! on one thread and prints matches per second (`FUBA_OPTIONS="weather=on,skills=6"`:
//! with match options). Cachegrind on it counts work independent of machine load.
use fuba_engine::agent::{Agent, HeuristicAgent, RandomAgent};
use fuba_engine::dice::SeededDice;
use fuba_engine::game::Game;
fn main() {
    let n: u64 = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(500);
    let path = std::env::args().nth(2).map_or_else(
        || std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../rulesets/original.toml"),
        std::path::PathBuf::from,
    );
    // FUBA_OPTIONS="condition=on,skills=6": match options, as `--option` sets them.
    let options = fuba_engine::load::options_from_env();
    let rs = fuba_engine::load::load_file_options(&path, &|_| None, &options)
        .unwrap_or_else(|e| panic!("{e}"));
    // FUBA_HEURISTIC=1: heuristic agents instead of random ones.
    let heuristic = std::env::var_os("FUBA_HEURISTIC").is_some();
    // FUBA_NO_MEMO=1: compute pure procedures every time (to measure what remembering saves).
    let no_memo = std::env::var_os("FUBA_NO_MEMO").is_some();
    // FUBA_NO_KEEP=1: work out every `prefer` score at every offer (none kept).
    let no_keep = std::env::var_os("FUBA_NO_KEEP").is_some();
    let t = std::time::Instant::now();
    let mut goals = 0;
    for seed in 0..n {
        let mut m = Game::new(
            &rs,
            seed,
            Box::new(SeededDice::new(seed)),
            agent(heuristic, seed, 0),
            agent(heuristic, seed, 1),
        );
        if no_memo {
            m.m.set_memoize(false);
        }
        if no_keep {
            m.m.set_keep_scores(false);
        }
        let o = m.play().unwrap_or_else(|e| panic!("{e}"));
        goals += o.score[0] + o.score[1];
    }
    let s = t.elapsed().as_secs_f64();
    println!(
        "{n} matches in {s:.2} s: {:.0} matches/s (goals {goals})",
        n as f64 / s
    );
}

fn agent(heuristic: bool, seed: u64, team: u8) -> Box<dyn Agent> {
    if heuristic {
        Box::new(HeuristicAgent::new(seed, team))
    } else {
        Box::new(RandomAgent::new(seed, team))
    }
}
