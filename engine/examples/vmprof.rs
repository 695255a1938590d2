//! Where the rules machine's instructions go, by rule, by instruction kind, by primitive and by source
//! line: plays N seeded matches of a ruleset file with random agents (`FUBA_HEURISTIC=1`:
//! heuristic ones; `FUBA_OPTIONS="condition=on,skills=6"`: match options; `FUBA_LIST=RULE`:
//! also that rule's code, instruction by instruction, with how often each ran) and prints
//! the instructions dispatched per match. Needs the feature
//! that counts them (off in every other build):
//!
//! ```sh
//! cargo run --release -p fuba-engine --features vm-profile --example vmprof -- 50 rulesets/original.toml
//! ```
use std::collections::HashMap;

use fuba_engine::agent::{Agent, HeuristicAgent, RandomAgent};
use fuba_engine::dice::SeededDice;
use fuba_engine::game::Game;
use fuba_engine::vm::{Compiled, vmprof};

fn main() {
    let n: u64 = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(50)
        .max(1);
    let Some(path) = std::env::args().nth(2) else {
        eprintln!("usage: vmprof MATCHES RULESET.toml");
        std::process::exit(2);
    };
    // FUBA_OPTIONS="condition=on,skills=6": match options, as `--option` sets them.
    let options = fuba_engine::load::options_from_env();
    let rs = fuba_engine::load::load_file_options(std::path::Path::new(&path), &|_| None, &options)
        .unwrap_or_else(|e| {
            eprintln!("{e}");
            std::process::exit(1)
        });
    let heuristic = std::env::var_os("FUBA_HEURISTIC").is_some();
    let agent = |seed: u64, team: u8| -> Box<dyn Agent> {
        if heuristic {
            Box::new(HeuristicAgent::new(seed, team))
        } else {
            Box::new(RandomAgent::new(seed, team))
        }
    };
    let mut calls = vec![0u64; rs.procs.len()];
    for seed in 0..n {
        let dice = Box::new(SeededDice::new(seed));
        let mut m = Game::new(&rs, seed, dice, agent(seed, 0), agent(seed, 1));
        if let Err(e) = m.play() {
            eprintln!("seed {seed}: {e}");
            std::process::exit(1);
        }
        for (c, k) in calls.iter_mut().zip(&m.m.counters.procs) {
            *c += u64::from(*k);
        }
    }
    let hits = vmprof::take();
    let gave_up = vmprof::take_gave_up();
    let prog = rs.program();
    let total: u64 = hits.iter().sum::<u64>().max(1);
    // A hook's dispatch code (its triggers' conditions, the calls of their bodies) has no
    // place in a file: it is named after the hook, found as the unit whose code holds it.
    let mut entries: Vec<(u32, usize)> = prog
        .units
        .iter()
        .enumerate()
        .map(|(i, u)| (u.entry, i))
        .collect();
    entries.sort_unstable();
    let hook_of = |pc: usize| -> Option<String> {
        let at = entries.partition_point(|(e, _)| *e as usize <= pc);
        let (_, u) = *entries.get(at.checked_sub(1)?)?;
        let h = prog.hooks.iter().position(|&x| x as usize == u)?;
        Some(format!("hook dispatch {}", rs.hooks[h].name))
    };
    let place = |pc: usize| {
        if let Some(h) = hook_of(pc) {
            return (h, 0);
        }
        let loc = prog.locs[pc];
        let rule = rs
            .units
            .get(loc.unit as usize)
            .map_or_else(|| "?".to_string(), |u| u.rule.clone());
        let (line, _) = rs.file.line_col(loc.start as usize);
        (rule, line)
    };
    let mut by_rule: HashMap<String, u64> = HashMap::new();
    let mut by_kind: HashMap<String, u64> = HashMap::new();
    let mut by_line: HashMap<String, u64> = HashMap::new();
    let mut by_prim: HashMap<String, u64> = HashMap::new();
    for (pc, &h) in hits.iter().enumerate().filter(|(_, h)| **h > 0) {
        let (rule, line) = place(pc);
        *by_line.entry(format!("{rule}:{line}")).or_default() += h;
        *by_rule.entry(rule).or_default() += h;
        let kind = format!("{:?}", prog.code[pc]);
        let name = kind.split('(').next().unwrap_or_default().to_string();
        // The primitive an instruction calls: the first name among its operands.
        if name.contains("Prim") {
            let args = kind.split(['(', ')', ',', ' ']).skip(1);
            if let Some(p) = args.into_iter().find(|a| a.starts_with(char::is_uppercase)) {
                *by_prim.entry(p.to_string()).or_default() += h;
            }
        }
        *by_kind.entry(name).or_default() += h;
    }
    let mut machine_calls: HashMap<String, u64> = HashMap::new();
    for (pc, &h) in hits.iter().enumerate().filter(|(_, h)| **h > 0) {
        if let fuba_engine::vm::code::Ins::Call(u) = prog.code[pc] {
            let unit = &prog.units[u as usize];
            let name = match unit.kind {
                fuba_engine::vm::code::UnitKind::Proc(p) => rs.procs[p as usize].name.clone(),
                _ => rs
                    .units
                    .get(unit.rule as usize)
                    .map_or_else(|| "hook".to_string(), |u| u.rule.clone()),
            };
            *machine_calls.entry(name).or_default() += h;
        }
    }
    println!("{} instructions dispatched per match", total / n);
    let show = |title: &str, counts: HashMap<String, u64>| {
        let mut v: Vec<(String, u64)> = counts.into_iter().collect();
        v.sort_by_key(|(k, c)| (std::cmp::Reverse(*c), k.clone()));
        println!("\n== {title} (share, per match)");
        for (k, c) in v.iter().take(40) {
            println!("{:6.2}% {:9} {k}", 100.0 * *c as f64 / total as f64, c / n);
        }
    };
    show("by rule", by_rule);
    let calls: HashMap<String, u64> = rs
        .procs
        .iter()
        .zip(calls)
        .map(|(p, c)| {
            (
                format!(
                    "{} ({})",
                    p.name,
                    if prog.units[prog.procs
                        [rs.procs.iter().position(|q| q.name == p.name).unwrap_or(0)]
                        as usize]
                        .pure
                    {
                        "remembered"
                    } else {
                        "called"
                    }
                ),
                c,
            )
        })
        .collect();
    show(
        "calls of procedures, inlined or not (share of instructions: ignore)",
        calls,
    );
    show(
        "calls the machine made (not inlined; share of instructions: ignore)",
        machine_calls,
    );
    show("by instruction kind", by_kind);
    show("primitives called by the stack code", by_prim);
    show("by source line", by_line);
    let gave: HashMap<String, u64> = gave_up
        .iter()
        .enumerate()
        .filter(|(_, c)| **c > 0)
        .map(|(pc, c)| {
            let (rule, line) = place(pc);
            (format!("{rule}:{line}"), *c)
        })
        .collect();
    // FUBA_LIST=RULE: the code of every instruction placed in that rule, with how often
    // each ran per match (to read what the lowering made of a hot rule).
    if let Ok(rule) = std::env::var("FUBA_LIST") {
        println!("\n== code of {rule} (runs per match, place, instruction)");
        for (pc, ins) in prog.code.iter().enumerate() {
            let (r, line) = place(pc);
            if r == rule || r.ends_with(&format!(".{rule}")) {
                let h = hits.get(pc).copied().unwrap_or(0) / n;
                println!("{pc:6} {h:7} {line:5}  {ins:?}");
            }
        }
    }
    println!(
        "\n{} direct expressions gave up per match (their stack code ran)",
        gave.values().sum::<u64>() / n
    );
    if !gave.is_empty() {
        show("direct expressions that gave up", gave);
    }
}
