//! Full original-edition matches with random agents, on one core.
//!
//! `cargo bench -p fuba-engine` reports matches per second (criterion's throughput).

use std::hint::black_box;
use std::path::Path;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use fuba_engine::agent::RandomAgent;
use fuba_engine::dice::SeededDice;
use fuba_engine::game::Match;
use fuba_engine::ruleset::load_file;

fn matches(c: &mut Criterion) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../rulesets/original.toml");
    let rs = load_file(&path).unwrap_or_else(|e| panic!("{e}"));
    let mut g = c.benchmark_group("original");
    g.throughput(Throughput::Elements(1));
    let mut seed = 0u64;
    g.bench_function("match with random agents", |b| {
        b.iter(|| {
            seed += 1;
            let mut m = Match::new(
                &rs,
                seed,
                Box::new(SeededDice::new(seed)),
                Box::new(RandomAgent::new(seed, 0)),
                Box::new(RandomAgent::new(seed, 1)),
            );
            black_box(m.play().map(|o| o.score).unwrap_or_default())
        })
    });
    g.finish();
}

criterion_group!(benches, matches);
criterion_main!(benches);
