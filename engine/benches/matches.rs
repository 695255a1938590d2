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
use fuba_engine::load::{load_file, load_str_options};
use fuba_engine::ruleset::Ruleset;
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

/// A 2024 match with every advanced rule on, stepped with random choices and dice to the
/// first decision of turn 10 of the first half (in the middle of a turn, frames live).
fn mid_turn_2024(rs: &Ruleset) -> fuba_engine::vm::Match<'_> {
    use fuba_engine::dice::{DiceSource, Stream};
    use fuba_engine::vm::{Match, Status};
    let mut m = Match::new(rs, 3);
    let mut dice = SeededDice::new(3);
    let mut pick = Stream::new(3, 9);
    loop {
        match m.advance().unwrap_or_else(|e| panic!("{e}")) {
            Status::Decision => {
                if m.st.turn >= 10 {
                    return m;
                }
                let n = m.decision().map_or(1, |d| d.options.len());
                m.choose(pick.below(n as u32) as usize)
                    .unwrap_or_else(|e| panic!("{e}"));
            }
            Status::Chance => {
                let c = m.chance().unwrap_or_else(|| panic!("no chance event"));
                let d: Vec<u8> = (0..c.count)
                    .map(|_| dice.roll(c.sides, "").unwrap_or(1))
                    .collect();
                m.roll(&d).unwrap_or_else(|e| panic!("{e}"));
            }
            Status::Boundary => {}
            Status::End => panic!("the match ended before turn 10"),
        }
    }
}

/// Cloning a match in the middle of a turn (what a search does at every node).
fn clone(c: &mut Criterion) {
    let rs = edition_2024_advanced();
    let m = mid_turn_2024(&rs);
    c.bench_function("clone a 2024 match mid-turn (every advanced rule)", |b| {
        b.iter(|| black_box(m.clone()))
    });
}

criterion_group!(benches, matches, clone);
criterion_main!(benches);
