//! Prints where a seeded original-edition match spends its operations.
use fuba_engine::agent::{HeuristicAgent, RandomAgent};
use fuba_engine::dice::SeededDice;
use fuba_engine::game::Game;
fn main() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../rulesets/original.toml");
    let rs = fuba_engine::load::load_file(&path).unwrap_or_else(|e| panic!("{e}"));
    let mut total = 0;
    let mut procs = vec![0u64; rs.procs.len()];
    let mut choices = 0;

    for seed in 0..200 {
        let mut m = Game::new(
            &rs,
            seed,
            Box::new(SeededDice::new(seed)),
            Box::new(RandomAgent::new(seed, 0)),
            Box::new(RandomAgent::new(seed, 1)),
        );
        m.play().unwrap_or_else(|e| panic!("{e}"));
        m.m.reset_budget();
        total += m.m.counters.ops;
        choices += m.m.counters.choices;

        for (i, c) in m.m.counters.procs.iter().enumerate() {
            procs[i] += u64::from(*c);
        }
    }
    let (mut gd, mut n) = (0i64, 0);
    for seed in 0..1000u64 {
        let (h, a): (
            Box<dyn fuba_engine::agent::Agent>,
            Box<dyn fuba_engine::agent::Agent>,
        ) = if seed % 2 == 0 {
            (
                Box::new(HeuristicAgent::new(seed, 0)),
                Box::new(RandomAgent::new(seed, 1)),
            )
        } else {
            (
                Box::new(RandomAgent::new(seed, 0)),
                Box::new(HeuristicAgent::new(seed, 1)),
            )
        };
        let mut m = Game::new(&rs, seed, Box::new(SeededDice::new(seed)), h, a);
        let o = m.play().unwrap_or_else(|e| panic!("{e}"));
        let d = o.score[0] - o.score[1];
        gd += if seed % 2 == 0 { d } else { -d };
        n += 1;
    }
    println!(
        "heuristic goal difference per match vs random: {:.3}",
        gd as f64 / n as f64
    );
    println!(
        "ops per match {} choices per match {}",
        total / 200,
        choices / 200
    );
    let mut v: Vec<_> = rs
        .procs
        .iter()
        .zip(procs)
        .map(|(p, c)| (c / 200, p.name.clone()))
        .collect();
    v.sort();
    v.reverse();
    for (c, n) in v.iter().take(12) {
        println!("{c:8} {n}");
    }
}

/// Heuristic (home) against random (away) over many seeds: goal difference.
#[allow(dead_code)]
pub fn duel() {}
