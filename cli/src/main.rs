use fuba_engine::agent::RandomAgent;
use fuba_engine::dice::SeededDice;
use fuba_engine::game::Match;
use fuba_engine::log::narrate;
fn main() {
    let path = std::env::args().nth(1).unwrap();
    let seed: u64 = std::env::args().nth(2).map(|s| s.parse().unwrap()).unwrap_or(1);
    let rs = match fuba_engine::ruleset::load_file(std::path::Path::new(&path)) {
        Ok(r) => r,
        Err(e) => { eprintln!("{e}"); std::process::exit(1) }
    };
    let mut m = Match::new(&rs, seed, Box::new(SeededDice::new(seed)), Box::new(RandomAgent::new(seed, 0)), Box::new(RandomAgent::new(seed, 1))).with_log();
    let r = m.play();
    let verbose = std::env::args().nth(3).is_some();
    for e in m.events() { if let Some(l) = narrate(&rs, e, verbose) { println!("{l}"); } }
    println!("{r:?}");
}
