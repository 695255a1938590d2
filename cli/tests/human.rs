//! A human at the terminal: the board drawn as a pitch, and again only when it changed;
//! several answers on one line; `auto` for the rest of a decision of one kind.

mod common;

use common::{fuba_with_stdin, stderr};

/// Plays the original edition's seed 1 as home with `input`, the player quitting at its
/// end; gives what the terminal showed.
fn play(input: &str) -> String {
    let o = fuba_with_stdin(
        &["play", "--seed", "1", "--home", "human"],
        input.as_bytes(),
    );
    assert_eq!(
        o.status.code(),
        Some(1),
        "the player quits at the end of input"
    );
    stderr(&o)
}

#[test]
fn the_board_is_a_pitch_drawn_again_only_when_it_changed() {
    let shown = play(&"1\n".repeat(30));
    assert!(
        shown.contains("| N_WEST_CORNER | N_BOX         | N_EAST_CORNER |"),
        "{shown}"
    );
    assert!(
        shown.contains("| S_WEST_CORNER | S_BOX         | S_EAST_CORNER |"),
        "{shown}"
    );
    // Where the rules rate the options (their `prefer` scores), the rating is shown.
    assert!(shown.contains("(rules' rating "), "{shown}");
    assert!(shown.contains("<- rated best"), "{shown}");
    let prompts = shown.matches("to choose:").count();
    let pitches = shown.matches("(H home pieces, A away pieces").count();
    assert!(prompts >= 25, "{prompts} prompts");
    assert!(
        pitches < prompts,
        "{pitches} pitches for {prompts} prompts: unchanged boards are not drawn again"
    );
}

#[test]
fn a_whole_setup_on_one_line_or_left_to_the_rules() {
    // The formation, then all ten pieces of the setup on one line.
    let one_line = play("1\n1, 1, 1, 4, 4, 4, 4, 5, 6, 7\n");
    let prompts = |s: &str| s.matches("Home to choose: setup\n").count();
    assert_eq!(prompts(&one_line), 1, "{one_line}");
    // `auto`: the rules' preferences place the pieces.
    let auto = play("1\nauto\n");
    assert_eq!(prompts(&auto), 1, "{auto}");
    // An answer typed ahead that is not legal for the next decision is asked again.
    let wrong = play("1\n1, 99\n");
    assert_eq!(prompts(&wrong), 2, "{wrong}");
}

#[test]
fn a_mistyped_answer_is_taken_back_before_any_die_is_rolled() {
    let shown = play("1\n1, 1, 1, 4, 4, 4, 4, 5, 6, 7\nback\n");
    assert!(shown.contains("taken back"), "{shown}");
    // The last piece's placement is asked again.
    assert_eq!(
        shown.matches("Home to choose: setup\n").count(),
        2,
        "{shown}"
    );
    assert_eq!(
        shown.matches("Home to choose: setup adjustment").count(),
        1,
        "{shown}"
    );
}

/// The first decision block (the "to choose" line, the prompt and the options) of `kind`.
fn block<'a>(shown: &'a str, kind: &str) -> Vec<&'a str> {
    let head = format!("Home to choose: {kind}");
    shown
        .lines()
        .skip_while(|l| *l != head)
        .take_while(|l| !l.starts_with("choice ["))
        .collect()
}

#[test]
fn the_prompt_says_what_is_being_decided() {
    // The original edition: the setup and the target area, in the rules' words
    // (`choose ... prompt "..."`), with their values filled in.
    let shown = play(&"1\n".repeat(60));
    let mut out = block(&shown, "setup");
    out.push("");
    out.extend(block(&shown, "target area"));
    assert!(
        out.contains(&"  Home: set up for the kick-off: place a player — 8 left to place"),
        "{shown}"
    );
    insta::assert_snapshot!("prompt_original", out.join("\n"));
    // 2024: the action of the action stage, and the setup counting down.
    let o = fuba_with_stdin(
        &["play", "--rules", "2024", "--seed", "1", "--home", "human"],
        "1\n".repeat(60).as_bytes(),
    );
    let shown = stderr(&o);
    let prompts: Vec<&str> = shown
        .lines()
        .filter(|l| l.starts_with("  Home: "))
        .take(14)
        .collect();
    insta::assert_snapshot!("prompt_2024", prompts.join("\n"));
    // Each target with its note: its pass modifiers and the ball value they give.
    let target = block(&shown, "target area");
    assert!(
        target.iter().any(|l| l.contains(" — pass modifiers ")),
        "{shown}"
    );
    insta::assert_snapshot!("prompt_2024_target_area", target.join("\n"));
    // Every prompt of the match could be worked out.
    assert!(
        !shown.contains("(the prompt could not be worked out"),
        "{shown}"
    );
}
