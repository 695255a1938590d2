//! Plays matches between two agents and prints the goal difference (first minus second,
//! alternating home and away) with its 99% interval and the time per match.
//!
//! ```sh
//! cargo run --release -p fuba-engine --example duel -- rulesets/original.toml mcts:100 heuristic 20
//! ```
//!
//! Agents: `random`, `heuristic`, `mcts[:PASSES]`. Matches use seeds 1.., the first agent
//! plays home in odd matches and away in even ones.

use std::sync::Arc;
use std::time::Instant;

use fuba_engine::agent::{Agent, HeuristicAgent, RandomAgent};
use fuba_engine::dice::SeededDice;
use fuba_engine::game::Game;
use fuba_engine::search::{Budget, MctsAgent, MctsConfig, PositionValues};
use fuba_engine::value::Team;

/// Times the decisions with more than one option of the agent it wraps.
struct Timed {
    inner: Box<dyn Agent>,
    clock: std::rc::Rc<std::cell::Cell<(f64, u64)>>,
}

impl Agent for Timed {
    fn choose(
        &mut self,
        view: &fuba_engine::agent::View<'_>,
        d: &fuba_engine::agent::Decision<'_>,
    ) -> Result<usize, String> {
        let t = Instant::now();
        let i = self.inner.choose(view, d);
        if d.options.len() > 1 {
            let (s, n) = self.clock.get();
            self.clock.set((s + t.elapsed().as_secs_f64(), n + 1));
        }
        i
    }
    fn name(&self) -> String {
        self.inner.name()
    }
    fn wants_hints(&self) -> bool {
        self.inner.wants_hints()
    }
    fn wants_worlds(&self) -> bool {
        self.inner.wants_worlds()
    }
}

fn agent(spec: &str, values: &Arc<PositionValues>, seed: u64, team: Team) -> Box<dyn Agent> {
    match spec
        .split_once(':')
        .map_or((spec, None), |(a, b)| (a, Some(b)))
    {
        ("random", _) => Box::new(RandomAgent::new(seed, team)),
        ("heuristic", _) => Box::new(HeuristicAgent::new(seed, team)),
        ("mcts", n) => {
            let passes = n.and_then(|n| n.parse().ok()).unwrap_or(400);
            let mut cfg = MctsConfig {
                budget: Budget::Passes(passes),
                ..MctsConfig::default()
            };
            if let Ok(h) = std::env::var("FUBA_HORIZON") {
                cfg.horizon = h.parse().unwrap_or(1);
            }
            if let Ok(c) = std::env::var("FUBA_EXPLORE") {
                cfg.explore = c.parse().unwrap_or(0.5);
            }
            if let Ok(c) = std::env::var("FUBA_PRIOR") {
                cfg.prior = c.parse().unwrap_or(0.75);
            }
            if let Ok(c) = std::env::var("FUBA_ROOT_PRIOR") {
                cfg.root_prior = c.parse().unwrap_or(0.5);
            }
            if std::env::var("FUBA_RANDOM_ROLLOUT").is_ok() {
                cfg.rollout = fuba_engine::search::Rollout::Random;
            }
            Box::new(MctsAgent::new(cfg, values.clone(), seed, team))
        }
        _ => panic!("unknown agent {spec}"),
    }
}

/// The ruleset; with `FUBA_ALL_OPTIONS` set, every option on (flags on, numbers at 6).
fn load(path: &str) -> fuba_engine::ruleset::Ruleset {
    let path = std::path::Path::new(path);
    let rs = fuba_engine::load::load_file(path).expect("ruleset");
    if std::env::var("FUBA_ALL_OPTIONS").is_err() {
        return rs;
    }
    let options: Vec<(String, String)> = rs
        .options
        .iter()
        .map(|o| {
            let on = if o.ty == fuba_engine::value::Ty::Bool {
                "on"
            } else {
                "6"
            };
            (o.name.clone(), on.to_string())
        })
        .collect();
    let text = std::fs::read_to_string(path).expect("ruleset");
    fuba_engine::load::load_str_options(path, &text, &|_| None, &options).expect("options")
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let path = &args[0];
    let (a, b) = (&args[1], &args[2]);
    let n: u64 = args.get(3).and_then(|x| x.parse().ok()).unwrap_or(10);
    let rs = load(path);
    let t = Instant::now();
    let learn: u32 = std::env::var("FUBA_VALUE_MATCHES")
        .ok()
        .and_then(|x| x.parse().ok())
        .unwrap_or(100);
    let values = Arc::new(if learn == 0 {
        PositionValues::flat(&rs)
    } else {
        PositionValues::learn(&rs, learn, 3)
    });
    eprintln!("values learned in {:.2}s", t.elapsed().as_secs_f64());
    let mut diffs = Vec::new();
    let clock = std::rc::Rc::new(std::cell::Cell::new((0.0, 0u64)));
    let t = Instant::now();
    for seed in 1..=n {
        let first_home = seed % 2 == 1;
        let (h, w) = if first_home { (a, b) } else { (b, a) };
        let timed = |a: Box<dyn Agent>, first: bool| -> Box<dyn Agent> {
            if first {
                Box::new(Timed {
                    inner: a,
                    clock: clock.clone(),
                })
            } else {
                a
            }
        };
        let home = timed(agent(h, &values, seed, 0), first_home);
        let away = timed(agent(w, &values, seed, 1), !first_home);
        let mut g = Game::new(&rs, seed, Box::new(SeededDice::new(seed)), home, away);
        match g.play() {
            Ok(o) => {
                let d = o.score[0] - o.score[1];
                let d = if first_home { d } else { -d };
                eprintln!(
                    "match {seed}: {} {}-{} {} ({d:+})",
                    h, o.score[0], o.score[1], w
                );
                diffs.push(d as f64);
            }
            Err(e) => eprintln!("match {seed}: error {e}"),
        }
    }
    let k = diffs.len() as f64;
    let mean = diffs.iter().sum::<f64>() / k;
    let var = diffs.iter().map(|d| (d - mean).powi(2)).sum::<f64>() / (k - 1.0).max(1.0);
    let half = 2.576 * (var / k).sqrt();
    let wins = diffs.iter().filter(|d| **d > 0.0).count();
    let losses = diffs.iter().filter(|d| **d < 0.0).count();
    let (secs, decisions) = clock.get();
    println!(
        "{a} vs {b}: goal difference {mean:+.2} ± {half:.2} (99%), won {wins} lost {losses} of {k} \
         (win share {:.0}%); {:.2}s per match; {a}: {:.1} ms per decision with a choice ({:.0} per match)",
        100.0 * wins as f64 / k,
        t.elapsed().as_secs_f64() / k,
        1000.0 * secs / decisions.max(1) as f64,
        decisions as f64 / k
    );
}
