//! The board's geometry on a small board of six areas, rows 0 to 6, halfway line at 3:
//!
//! ```text
//! row 6 +--------+
//!       | N_GOAL |              N_GOAL: the north goal line
//! row 5 +--------+------+
//!       | N_MID  |      |
//! row 3 +--------+ WING |  BENCH (rows 2 to 3, linked to nothing)
//!       | S_MID  |      |
//! row 1 +--------+------+
//!       | S_GOAL |              S_GOAL: the south goal line
//! row 0 +--------+
//! ```
//!
//! Straight links run up the middle; WING touches both middle areas sideways and the
//! south goal area at a corner.

use super::*;

const S_GOAL: AreaId = 0;
const S_MID: AreaId = 1;
const N_MID: AreaId = 2;
const N_GOAL: AreaId = 3;
const WING: AreaId = 4;
const BENCH: AreaId = 5;

fn area(
    name: &str,
    rows: (i32, i32),
    goal: Option<Side>,
    mirror: &str,
    zones: [&str; 2],
) -> AreaSpec {
    (
        name.into(),
        rows.0,
        rows.1,
        goal,
        mirror.into(),
        zones.map(String::from),
    )
}

fn link(a: &str, b: &str, kind: LinkKind) -> (String, String, LinkKind) {
    (a.into(), b.into(), kind)
}

fn spec() -> BoardSpec {
    BoardSpec {
        halfway: 3,
        areas: vec![
            area(
                "S_GOAL",
                (0, 1),
                Some(Side::South),
                "N_GOAL",
                ["own_goal", "their_goal"],
            ),
            area("S_MID", (1, 3), None, "N_MID", ["back", "front"]),
            area("N_MID", (3, 5), None, "S_MID", ["front", "back"]),
            area(
                "N_GOAL",
                (5, 6),
                Some(Side::North),
                "S_GOAL",
                ["their_goal", "own_goal"],
            ),
            area("WING", (1, 5), None, "WING", ["wing", "wing"]),
            area("BENCH", (2, 3), None, "BENCH", ["bench", "bench"]),
        ],
        links: vec![
            link("S_GOAL", "S_MID", LinkKind::Straight),
            link("S_MID", "N_MID", LinkKind::Straight),
            // Written from the higher area: the lower one is still "forward" of it only
            // for the team defending north.
            link("N_GOAL", "N_MID", LinkKind::Straight),
            link("S_MID", "WING", LinkKind::Sideways),
            link("WING", "N_MID", LinkKind::Sideways),
            link("S_GOAL", "WING", LinkKind::Diagonal),
        ],
        marks: vec![("box".into(), vec!["S_GOAL".into()], vec!["N_GOAL".into()])],
        numbers: vec![(
            "depth".into(),
            vec![("S_GOAL".into(), 1), ("S_MID".into(), 2)],
        )],
    }
}

fn board() -> Board {
    Board::new(&spec()).expect("the test board is valid")
}

fn set(areas: &[AreaId]) -> AreaSet {
    let mut s = AreaSet::EMPTY;
    for &a in areas {
        s.insert(a);
    }
    s
}

#[test]
fn an_area_set_holds_areas_as_bits_and_lists_them_in_index_order() {
    let mut s = AreaSet::one(7);
    s.insert(2);
    s.insert(31);
    s.insert(2);
    assert_eq!(s.len(), 3);
    assert!(s.has(2) && s.has(7) && s.has(31) && !s.has(3));
    assert_eq!(s.iter().collect::<Vec<_>>(), [2, 7, 31]);
    assert_eq!(format!("{s:?}"), "{2, 7, 31}");
    assert!(AreaSet::EMPTY.is_empty() && !s.is_empty());
    assert_eq!(AreaSet::EMPTY.iter().count(), 0);
}

#[test]
fn area_sets_combine_as_sets() {
    let (a, b) = (set(&[1, 2, 3]), set(&[3, 4]));
    assert_eq!(a.union(b), set(&[1, 2, 3, 4]));
    assert_eq!(a.inter(b), set(&[3]));
    assert_eq!(a.minus(b), set(&[1, 2]));
    assert_eq!(b.minus(a), set(&[4]));
}

#[test]
fn areas_are_found_by_name_and_named_by_index() {
    let b = board();
    assert_eq!((b.len(), b.is_empty()), (6, false));
    assert_eq!(b.all(), set(&[0, 1, 2, 3, 4, 5]));
    assert_eq!(b.find("WING"), Some(WING));
    assert_eq!(b.find("wing"), None);
    assert_eq!(b.name(N_MID), "N_MID");
    assert_eq!(b.areas[S_GOAL as usize].mirror, N_GOAL);
    assert_eq!(b.links().len(), 6);
    assert_eq!(b.links()[2], (N_GOAL, N_MID, LinkKind::Straight));
}

#[test]
fn adjacency_follows_every_kind_of_link_both_ways() {
    let b = board();
    assert_eq!(b.adjacent(S_MID), set(&[S_GOAL, N_MID, WING]));
    assert_eq!(b.adjacent(S_GOAL), set(&[S_MID, WING]));
    assert_eq!(b.adjacent(BENCH), AreaSet::EMPTY);
    assert_eq!(
        b.adjacent_set(set(&[S_GOAL, N_GOAL])),
        set(&[S_MID, N_MID, WING])
    );
}

#[test]
fn distances_count_links_on_the_shortest_path() {
    let b = board();
    assert_eq!(b.distance(S_GOAL, S_GOAL), 0);
    assert_eq!(b.distance(S_GOAL, WING), 1);
    assert_eq!(b.distance(S_GOAL, N_MID), 2);
    assert_eq!(b.distance(S_GOAL, N_GOAL), 3);
    assert_eq!(b.distance(N_GOAL, S_GOAL), 3);
    assert_eq!(b.distance(S_GOAL, BENCH), u8::MAX, "unreachable");
    assert_eq!(b.between(S_GOAL, N_GOAL), 2);
    assert_eq!(b.between(S_GOAL, S_MID), 0);
    assert_eq!(b.between(S_GOAL, S_GOAL), 0, "never negative");
}

#[test]
fn forward_and_backward_depend_on_the_goal_line_defended() {
    let b = board();
    let one = AreaSet::one;
    assert_eq!(
        b.step(one(S_GOAL), Direction::Forward, Side::South),
        one(S_MID)
    );
    assert_eq!(
        b.step(one(S_GOAL), Direction::Forward, Side::North),
        AreaSet::EMPTY
    );
    assert_eq!(
        b.step(one(S_MID), Direction::Backward, Side::North),
        one(N_MID)
    );
    // The link written from the higher area is oriented by the rows all the same.
    assert_eq!(
        b.step(one(N_MID), Direction::Forward, Side::South),
        one(N_GOAL)
    );
    assert_eq!(
        b.step(one(N_GOAL), Direction::Forward, Side::North),
        one(N_MID)
    );
    assert_eq!(
        b.step(set(&[S_GOAL, N_MID]), Direction::Forward, Side::South),
        set(&[S_MID, N_GOAL])
    );
    assert_eq!(
        b.step(one(WING), Direction::Sideways, Side::South),
        set(&[S_MID, N_MID])
    );
    assert_eq!(
        b.step(one(WING), Direction::Diagonal, Side::North),
        one(S_GOAL)
    );
    assert_eq!(
        b.step(b.all(), Direction::None, Side::South),
        AreaSet::EMPTY
    );
}

#[test]
fn the_direction_of_a_move_is_that_of_its_link() {
    let b = board();
    assert_eq!(b.direction(S_GOAL, S_MID, Side::South), Direction::Forward);
    assert_eq!(b.direction(S_GOAL, S_MID, Side::North), Direction::Backward);
    assert_eq!(b.direction(S_MID, S_GOAL, Side::North), Direction::Forward);
    assert_eq!(b.direction(S_MID, WING, Side::North), Direction::Sideways);
    assert_eq!(b.direction(WING, S_GOAL, Side::South), Direction::Diagonal);
    assert_eq!(b.direction(S_GOAL, N_GOAL, Side::South), Direction::None);
}

#[test]
fn closer_reaching_and_behind_compare_rows_toward_the_attacked_goal_line() {
    let b = board();
    // Starting at or past S_MID's far edge (row 3), for the team attacking north.
    assert_eq!(b.closer(S_MID, Side::South), set(&[N_MID, N_GOAL]));
    // Ending at or before its near edge (row 1), for the team attacking south.
    assert_eq!(b.closer(S_MID, Side::North), set(&[S_GOAL]));
    // Beginning beyond row 1: BENCH and the north areas, not WING (it begins level).
    assert_eq!(b.reaching(S_MID, Side::South), set(&[N_MID, N_GOAL, BENCH]));
    assert_eq!(b.reaching(N_MID, Side::North), set(&[S_GOAL, S_MID, BENCH]));
    // The areas than which N_MID is closer to the north goal line.
    assert_eq!(
        b.behind(AreaSet::one(N_MID), Side::South),
        set(&[S_GOAL, S_MID, BENCH])
    );
    assert_eq!(b.behind(AreaSet::one(S_GOAL), Side::South), AreaSet::EMPTY);
}

#[test]
fn areas_at_the_same_level_overlap_on_more_than_a_row_edge() {
    let b = board();
    assert_eq!(b.same_level(WING), set(&[S_MID, N_MID, WING, BENCH]));
    assert_eq!(b.same_level(S_GOAL), set(&[S_GOAL]));
}

#[test]
fn halves_and_goal_lines_are_read_from_the_rows() {
    let b = board();
    assert_eq!(
        b.half_areas(Side::South),
        set(&[S_GOAL, S_MID, WING, BENCH])
    );
    assert_eq!(b.half_areas(Side::North), set(&[N_MID, N_GOAL, WING]));
    assert!(b.entirely_in_half(BENCH, Side::South));
    assert!(!b.entirely_in_half(WING, Side::South));
    assert!(b.partly_in_half(WING, Side::North));
    assert!(!b.partly_in_half(S_MID, Side::North));
    assert!(b.entirely_in_half(N_MID, Side::North));
    assert_eq!(b.goal_line_areas(Some(Side::South)), set(&[S_GOAL]));
    assert_eq!(b.goal_line_areas(Some(Side::North)), set(&[N_GOAL]));
    assert_eq!(b.goal_line_areas(None), set(&[S_GOAL, N_GOAL]));
}

#[test]
fn areas_rank_from_the_goal_line_defended() {
    let b = board();
    assert_eq!(b.lowness(S_MID, Side::South), (3, 1));
    assert_eq!(b.lowness(S_MID, Side::North), (-1, -3));
    // Far edge first, then near edge, then index.
    assert_eq!(
        b.low_order(Side::South),
        [S_GOAL, S_MID, BENCH, WING, N_MID, N_GOAL]
    );
    assert_eq!(
        b.low_order(Side::North),
        [N_GOAL, N_MID, BENCH, WING, S_MID, S_GOAL]
    );
}

#[test]
fn zones_marks_and_numbers_are_seen_from_each_side() {
    let b = board();
    assert_eq!(b.zone(S_GOAL, Side::South), "own_goal");
    assert_eq!(b.zone(S_GOAL, Side::North), "their_goal");
    assert_eq!(b.marks["box"], [set(&[S_GOAL]), set(&[N_GOAL])]);
    assert_eq!(b.number("depth", S_MID, Side::South), Some(2));
    // The team defending north reads the mirror image.
    assert_eq!(b.number("depth", N_MID, Side::North), Some(2));
    assert_eq!(b.number("depth", N_MID, Side::South), None);
    assert_eq!(b.number("width", S_MID, Side::South), None);
}

/// The error of a board built from the test board's spec after `change`.
fn error_after(change: impl FnOnce(&mut BoardSpec)) -> BoardError {
    let mut s = spec();
    change(&mut s);
    Board::new(&s).expect_err("the changed board is refused")
}

#[test]
fn a_board_has_one_to_max_areas() {
    let e = error_after(|s| s.areas.clear());
    assert_eq!(e.key, "board.areas");
    assert_eq!(e.message, "a board has 1 to 32 areas, found 0");
    let e = error_after(|s| {
        s.areas = (0..=MAX_AREAS)
            .map(|i| area(&format!("A{i}"), (0, 1), None, "A0", ["z", "z"]))
            .collect();
        s.links.clear();
        s.marks.clear();
        s.numbers.clear();
    });
    assert_eq!(e.message, "a board has 1 to 32 areas, found 33");
}

#[test]
fn rows_go_from_low_to_high() {
    let e = error_after(|s| s.areas[1].2 = 1);
    assert_eq!(e.key, "board.areas.S_MID.rows");
    assert_eq!(e.message, "rows must go from low to high, found 1..1");
}

#[test]
fn rows_and_the_halfway_line_stay_within_max_row() {
    let e = error_after(|s| s.areas[1].2 = i32::MAX);
    assert_eq!(e.key, "board.areas.S_MID.rows");
    assert_eq!(e.message, "rows are -10000 to 10000, found 1..2147483647");
    let e = error_after(|s| s.areas[0].1 = -MAX_ROW - 1);
    assert_eq!(e.key, "board.areas.S_GOAL.rows");
    let e = error_after(|s| s.halfway = MAX_ROW + 1);
    assert_eq!(e.key, "board.halfway");
    assert_eq!(e.message, "the halfway row is -10000 to 10000, found 10001");
    // The largest rows allowed still build a board.
    let mut s = spec();
    let last = s.areas.len() - 1;
    s.areas[last].2 = MAX_ROW;
    Board::new(&s).expect("rows up to MAX_ROW are accepted");
}

#[test]
fn every_area_named_must_exist() {
    let e = error_after(|s| s.areas[4].4 = "NOWHERE".into());
    assert_eq!(
        (e.key.as_str(), e.message.as_str()),
        ("board.areas.WING.mirror", "unknown area `NOWHERE`")
    );
    let e = error_after(|s| s.links[3].1 = "NOWHERE".into());
    assert_eq!(e.key, "board.links[3]");
    let e = error_after(|s| s.marks[0].2.push("NOWHERE".into()));
    assert_eq!(e.key, "board.marks.box");
    let e = error_after(|s| s.numbers[0].1.push(("NOWHERE".into(), 3)));
    assert_eq!(e.key, "board.numbers.depth");
}

#[test]
fn a_link_joins_two_different_areas_once() {
    let e = error_after(|s| s.links.push(link("WING", "WING", LinkKind::Sideways)));
    assert_eq!(e.key, "board.links[6]");
    assert_eq!(e.message, "a link joins two different areas, once");
    // The same pair again, written the other way round.
    let e = error_after(|s| s.links.push(link("S_MID", "S_GOAL", LinkKind::Diagonal)));
    assert_eq!(e.key, "board.links[6]");
}
