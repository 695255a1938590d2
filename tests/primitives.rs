//! The board and move-set primitives that replace loops in the rules (`slide`,
//! `outnumbered`, `moves_from`, `moves_to`), called on a match built in the test: what each gives on
//! the original board, its edge cases included.

use fuba_engine::ruleset::Ruleset;
use fuba_engine::value::Value;
use fuba_tests::{call_proc, layer};

/// A layer of the original edition with procedures that call the primitives.
fn primitives_layer() -> Ruleset {
    let text = r#"
[meta]
extends = "original.toml"

[procedures.t_slide]
params = "a: area, fwd: bool, n: int, stop: areas"
do = "slide(a, home, fwd, n, stop)"

[procedures.t_outnumbered]
params = "a: area, b: area, c: area"
do = '''
# Away: two in a, one in b, one in c; home: one in a, one in b.
place(away, a)
place(away, a)
place(away, b)
place(away, c)
place(home, a)
place(home, b)
[size(outnumbered(home)), size(outnumbered(away)), count(away, a) - count(home, a)]
'''

[procedures.t_moves_from]
params = "a: area, b: area"
do = '''
place(home, a)
place(home, b)
let all = moves(home, a, adjacent(a)) | moves(home, b, adjacent(b))
[size(all), size(moves_from(all, a)), size(moves_from(all, b)), size(moves_from(all, [])),
 size(moves_from(all, [a, b]))]
'''

[procedures.t_moves_to]
params = "a: area, b: area, k: area, c: area"
do = '''
place(home, a)
place(home, b)
place_keeper(home, k)
let all = moves(home, a, adjacent(a)) | moves(home, b, adjacent(b)) | keeper_moves(home, adjacent(k))
let keeper = keeper_moves(home, adjacent(k))
[size(all), size(moves_to(all, all_areas())), size(moves_to(all, [])), size(moves_to(all, c)),
 size(moves_to(all, a)), size(moves_to(keeper, a)), size(moves_to(keeper, c)),
 size(moves_to(moves_from(all, b), c))]
'''
"#;
    layer("primitives-layer", text)
}

fn call(rs: &Ruleset, name: &str, args: Vec<Value>) -> Value {
    call_proc(rs, name, args, true).unwrap_or_else(|e| panic!("{name}: {e}"))
}

fn area(rs: &Ruleset, name: &str) -> Value {
    Value::Area(
        rs.board
            .find(name)
            .unwrap_or_else(|| panic!("no area {name}")),
    )
}

fn names(rs: &Ruleset, v: &Value) -> Vec<String> {
    let Value::Areas(s) = v else {
        panic!("expected areas, found {v:?}")
    };
    let mut out: Vec<String> = s.iter().map(|a| rs.board.name(a).to_string()).collect();
    out.sort();
    out
}

#[test]
fn slide_goes_straight_until_the_board_ends_the_links_run_out_or_a_stop_area() {
    let rs = primitives_layer();
    let slide = |from: &str, fwd: bool, n: i64, stop: &[&str]| {
        let mut set = fuba_engine::board::AreaSet::EMPTY;
        for s in stop {
            set.insert(rs.board.find(s).unwrap());
        }
        let v = call(
            &rs,
            "t_slide",
            vec![
                area(&rs, from),
                Value::Bool(fwd),
                Value::Int(n),
                Value::Areas(set),
            ],
        );
        names(&rs, &v)
    };
    // Home attacks north: from its penalty area straight up the middle to the other end.
    let all = slide("S_BOX", true, 8, &[]);
    assert_eq!(all, ["CENTRE", "N_BOX", "N_FRONT", "S_FRONT"]);
    // At most two links.
    assert_eq!(slide("S_BOX", true, 2, &[]), ["CENTRE", "S_FRONT"]);
    // The first stop area is included, nothing beyond it.
    assert_eq!(slide("S_BOX", true, 8, &["CENTRE"]), ["CENTRE", "S_FRONT"]);
    // Backward from the centre: toward home's own goal line.
    assert_eq!(slide("CENTRE", false, 8, &[]), ["S_BOX", "S_FRONT"]);
    // No link that way, no links allowed, or a negative number: nothing.
    assert!(slide("N_BOX", true, 8, &[]).is_empty());
    assert!(slide("S_BOX", true, 0, &[]).is_empty());
    assert!(slide("S_BOX", true, -3, &[]).is_empty());
}

#[test]
fn outnumbered_lists_the_areas_where_the_other_team_has_more_pieces() {
    let rs = primitives_layer();
    let v = call(
        &rs,
        "t_outnumbered",
        vec![
            area(&rs, "CENTRE"),
            area(&rs, "N_FRONT"),
            area(&rs, "S_FRONT"),
        ],
    );
    // Home is outnumbered in CENTRE (2 to 1) and S_FRONT (1 to 0), not in N_FRONT (1 to 1);
    // away nowhere.
    assert_eq!(v, Value::List(vec![2, 0, 1].into()));
}

#[test]
fn moves_from_keeps_the_moves_that_start_in_the_areas() {
    let rs = primitives_layer();
    let v = call(
        &rs,
        "t_moves_from",
        vec![area(&rs, "CENTRE"), area(&rs, "S_BOX")],
    );
    let Value::List(l) = v else {
        panic!("expected a list, found {v:?}")
    };
    let (all, a, b, none, both) = (l[0], l[1], l[2], l[3], l[4]);
    assert!(a > 0 && b > 0, "{l:?}");
    assert_eq!(a + b, all);
    assert_eq!(none, 0);
    assert_eq!(both, all);
}

#[test]
fn moves_to_keeps_the_moves_that_end_in_the_areas() {
    let rs = primitives_layer();
    let v = call(
        &rs,
        "t_moves_to",
        vec![
            area(&rs, "CENTRE"),
            area(&rs, "S_BOX"),
            area(&rs, "S_FRONT"),
            area(&rs, "S_WEST_WING"),
        ],
    );
    let Value::List(l) = v else {
        panic!("expected a list, found {v:?}")
    };
    let (all, every, none, wing, centre) = (l[0], l[1], l[2], l[3], l[4]);
    let (keeper_centre, keeper_wing, from_box_wing) = (l[5], l[6], l[7]);
    assert!(all > 0, "{l:?}");
    // Every area keeps every move; no area keeps none.
    assert_eq!(every, all);
    assert_eq!(none, 0);
    // S_WEST_WING is one link from CENTRE (sideways), S_BOX (diagonal) and the goalkeeper's
    // S_FRONT (sideways): three moves end there, the goalkeeper's among them.
    assert_eq!(wing, 3, "{l:?}");
    assert_eq!(keeper_wing, 1);
    // CENTRE: from S_FRONT (the goalkeeper, straight) only; a piece never moves to where it
    // stands, and S_BOX is not next to CENTRE.
    assert_eq!(centre, 1, "{l:?}");
    assert_eq!(keeper_centre, 1);
    // Narrowed by start and by end: S_BOX to S_WEST_WING.
    assert_eq!(from_box_wing, 1);
}

/// `choose ... from unmoved_moves(set, t)` reads a set held in a local in place and takes
/// any other set from the stack: a layer whose free movements offer `all | no_moves()`
/// (the same set, not a local) plays every seeded match as the edition does.
#[test]
fn a_decision_offers_the_same_unmoved_moves_from_a_local_as_from_an_expression() {
    let edition = fuba_tests::edition("original");
    let text = fuba_tests::original_text().replace(
        "from unmoved_moves(all, t) skip \"done\" prefer m => move_preference(t, m)\n  if m == none { break }\n  apply_move(t, m)",
        "from unmoved_moves(all | no_moves(), t) skip \"done\" prefer m => move_preference(t, m)\n  if m == none { break }\n  apply_move(t, m)",
    );
    assert_ne!(
        text,
        fuba_tests::original_text(),
        "the free movements' offer was not found"
    );
    let rs = layer("unmoved-from-an-expression", &text);
    plays_as(&edition, &rs);
}

/// `moves_from` (and `unmoved_moves`, `moves_to`) read a move set held in a local in place
/// and take any other set from the stack: a layer of 2024 whose move sets are given as
/// expressions (`set | no_moves()`, the same set, not a local) plays every seeded match as
/// the edition does.
#[test]
fn move_primitives_give_the_same_moves_from_a_local_as_from_an_expression() {
    let edition = fuba_tests::edition("2024");
    let original = std::fs::read_to_string(fuba_tests::ruleset_path("2024")).expect("2024");
    let mut text = original.clone();
    for (from, to) in [
        (
            "moves_from(all, (field_areas(t) | k)",
            "moves_from(all | no_moves(), (field_areas(t) | k)",
        ),
        (
            "moves_from(out_moves, free & more) | moves_from(line_moves, free)",
            "moves_from(out_moves | no_moves(), free & more) | moves_from(line_moves | no_moves(), free)",
        ),
        (
            "moves_from(field, field_areas(t) - held) | moves_from(keeper, keeper_area(t) - held)",
            "moves_from(field | no_moves(), field_areas(t) - held) | moves_from(keeper | no_moves(), keeper_area(t) - held)",
        ),
    ] {
        assert!(text.contains(from), "not found in 2024.toml: {from}");
        text = text.replace(from, to);
    }
    let rs = layer("moves-from-expressions", &text);
    plays_as(&edition, &rs);
}

/// Asserts that `rs` plays seeded matches 0..4 with random and with heuristic agents as
/// `edition` does: the same log and score.
fn plays_as(edition: &Ruleset, rs: &Ruleset) {
    for agents in [fuba_tests::Agents::Random, fuba_tests::Agents::Heuristic] {
        for seed in 0..4 {
            let (a, la) = fuba_tests::play(edition, seed, agents);
            let (b, lb) = fuba_tests::play(rs, seed, agents);
            assert_eq!(la, lb, "seed {seed} {agents:?}");
            assert_eq!(a.score, b.score);
        }
    }
}
