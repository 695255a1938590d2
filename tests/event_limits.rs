//! Bounds on the events a logged match records (issue 15, item 1): a ruleset that passes
//! the checks can emit 64 x 64 x 64 = 262,144 events in a turn within the operation
//! budget; logged, the match stops with a limit error naming the rule, having kept at most
//! the bound. A streamed log gives every event to its reader and keeps none.

use std::cell::RefCell;
use std::path::Path;
use std::rc::Rc;

use fuba_engine::game::Game;
use fuba_engine::load::load_str;
use fuba_engine::log::Event;
use fuba_engine::ruleset::Ruleset;
use fuba_engine::vm::{ErrorKind, Limits};
use fuba_tests::{Agents, edition, original_text, seeded_match};

/// The original edition with a first stage, `flood`, that emits 262,144 events a turn.
fn flood() -> Ruleset {
    let text = original_text();
    let turn = "turn = [\"target_area\",";
    assert!(text.contains(turn), "original.toml's turn list changed");
    let text = text.replacen(turn, "turn = [\"flood\", \"target_area\",", 1)
        + "\n[procedures.flood]\ndo = '''\nrepeat 64 {\n  repeat 64 {\n    repeat 64 {\n      emit \"ripple\" { team: ct }\n    }\n  }\n}\n'''\n";
    load_str(Path::new("flood.toml"), &text).unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn a_turn_that_records_too_many_events_stops_the_match_naming_the_rule() {
    let rs = flood();
    let per_turn = Limits::default().events_per_turn as usize;
    let mut m = seeded_match(&rs, 1, Agents::Random).with_log();
    let e = m.play().expect_err("the flood is bounded");
    assert_eq!(e.kind, ErrorKind::Limit, "{e}");
    assert_eq!(e.rule, "procedures.flood", "{e}");
    assert!(
        e.message.starts_with(&format!(
            "event limit reached: procedures.flood would record more than {per_turn} events in \
             one turn"
        )),
        "{e}"
    );
    assert!(e.place.starts_with("flood.toml:"), "{e:?}");
    // The log holds what came before the first turn and the turn's first `per_turn` events.
    let events = m.events();
    let turn = events.iter().filter(|e| e.turn == 1 && e.half == 1).count();
    assert_eq!(turn, per_turn);
    assert!(events.len() < per_turn + 100, "{}", events.len());
    assert!(events.iter().enumerate().all(|(i, e)| e.seq as usize == i));
}

#[test]
fn a_match_that_records_too_many_events_stops() {
    let rs = edition("original");
    let mut m = seeded_match(&rs, 1, Agents::Random).with_log();
    m.m.limits.events_per_match = 500;
    let e = m.play().expect_err("a match records more than 500 events");
    assert_eq!(e.kind, ErrorKind::Limit, "{e}");
    assert!(
        e.message
            .contains("would record more than 500 events in the match (events_per_match)"),
        "{e}"
    );
    assert_eq!(m.events().len(), 500);
    assert_eq!(m.m.recorded_events(), 500);
}

#[test]
fn unlogged_matches_count_no_events() {
    // Without a log nothing is recorded, so nothing is bounded: the match plays on.
    let rs = edition("original");
    let mut m = seeded_match(&rs, 1, Agents::Random);
    m.m.limits.events_per_turn = 1;
    m.m.limits.events_per_match = 1;
    m.play().expect("an unlogged match has no event bound");
    assert_eq!(m.m.recorded_events(), 0);
}

#[test]
fn a_streamed_log_gives_every_event_and_keeps_none() {
    let rs = edition("original");
    let mut kept = seeded_match(&rs, 7, Agents::Random).with_log();
    kept.play().expect("the match plays");
    let seen: Rc<RefCell<Vec<Event>>> = Rc::default();
    let into = Rc::clone(&seen);
    let mut streamed: Game<'_> = seeded_match(&rs, 7, Agents::Random).with_streamed_log();
    streamed.on_event = Some(Box::new(move |_, e| into.borrow_mut().push(e.clone())));
    streamed.play().expect("the match plays");
    assert!(streamed.events().is_empty());
    assert_eq!(streamed.m.recorded_events() as usize, kept.events().len());
    assert_eq!(seen.borrow().as_slice(), kept.events());
}
