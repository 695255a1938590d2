//! Full matches on one core: every edition (2024 with its basic rules and with every
//! advanced rule on), with random and with heuristic agents.
//!
//! `cargo bench -p fuba-engine` reports matches per second (criterion's throughput);
//! `cargo bench -p fuba-engine -- original` runs one group. The targets of issue 8 and the
//! figures measured are in `docs/performance.md`.

use std::hint::black_box;
use std::path::{Path, PathBuf};

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use fuba_engine::agent::{Agent, HeuristicAgent, RandomAgent};
use fuba_engine::dice::SeededDice;
use fuba_engine::game::Game;
use fuba_engine::ruleset::{Ruleset, load_file, load_str_options};
use fuba_engine::value::{Ty, Value};

fn ruleset_path(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("../rulesets/{name}.toml"))
}

fn edition(name: &str) -> Ruleset {
    load_file(&ruleset_path(name)).unwrap_or_else(|e| panic!("{e}"))
}

/// The 2024 edition with every advanced rule on (six skills).
fn edition_2024_advanced() -> Ruleset {
    let path = ruleset_path("2024");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{e}"));
    let options: Vec<(String, String)> = edition("2024")
        .options
        .iter()
        .map(|o| {
            let on = match (o.ty, &o.default) {
                (Ty::Bool, _) => "on",
                (_, Value::Int(_)) => "6",
                _ => panic!("option {} has a type the bench does not know", o.name),
            };
            (o.name.clone(), on.to_string())
        })
        .collect();
    load_str_options(&path, &text, &|_| None, &options).unwrap_or_else(|e| panic!("{e}"))
}

fn agents(heuristic: bool, seed: u64) -> (Box<dyn Agent>, Box<dyn Agent>) {
    if heuristic {
        (
            Box::new(HeuristicAgent::new(seed, 0)),
            Box::new(HeuristicAgent::new(seed, 1)),
        )
    } else {
        (
            Box::new(RandomAgent::new(seed, 0)),
            Box::new(RandomAgent::new(seed, 1)),
        )
    }
}

fn matches(c: &mut Criterion) {
    let editions = [
        ("original", edition("original")),
        ("2015", edition("2015")),
        ("2024", edition("2024")),
        ("2024 advanced", edition_2024_advanced()),
    ];
    for (name, rs) in &editions {
        let mut g = c.benchmark_group(*name);
        g.throughput(Throughput::Elements(1));
        g.sample_size(20);
        for (label, heuristic) in [("random agents", false), ("heuristic agents", true)] {
            let mut seed = 0u64;
            g.bench_function(format!("match with {label}"), |b| {
                b.iter(|| {
                    seed += 1;
                    let (home, away) = agents(heuristic, seed);
                    let mut m = Game::new(rs, seed, Box::new(SeededDice::new(seed)), home, away);
                    black_box(m.play().map(|o| o.score).unwrap_or_default())
                })
            });
        }
        g.finish();
    }
}

criterion_group!(benches, matches);
criterion_main!(benches);
