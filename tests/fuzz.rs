//! A fuzz target for the parser and the loader that runs on stable Rust, driven by
//! proptest.
//!
//! - **Parser**: token soup drawn from the language's own words and signs, arbitrary
//!   text, and deep or unbalanced brackets go through `parse_body`, `parse_expression`
//!   and `parse_params`. Nothing may panic or overflow the stack; an error's span lies
//!   inside the text, on character boundaries; a body that parses prints back to text
//!   that parses to the same tree.
//! - **Loader**: code generated from the language's grammar, with the engine's own
//!   primitives (mostly well typed, sometimes not), is put in a trigger of the original
//!   edition's file, which is then loaded and, when it loads, played for a short match
//!   with random choices and dice. Nothing may panic; every error about the new trigger
//!   points at a place in the file.
//!
//! A failing case is shrunk and kept by proptest in `tests/fuzz.proptest-regressions`
//! (commit it: it is tried first from then on); inputs it once found are kept as
//! regression cases at the end of this file. The suite runs `FUBA_FUZZ` cases per target:
//! 64 by default (a debug build, the README's `cargo test --workspace`). For a longer hunt,
//! in a release build:
//!
//! ```sh
//! FUBA_FUZZ=50000 cargo test --release -p fuba-tests --test fuzz
//! ```

use std::path::Path;

use fuba_engine::load::load_str;
use fuba_engine::prims::Prim;
use fuba_engine::value::Ty;
use fuba_grammar::print::print_body;
use fuba_grammar::{KEYWORDS, ParseError, parse_body, parse_expression, parse_params};
use proptest::prelude::*;

fn cases() -> u32 {
    std::env::var("FUBA_FUZZ")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(64)
}

// ------------------------------------------------------------------------ the parser

/// Words and signs of the language, and a few that are not.
fn token() -> impl Strategy<Value = String> {
    let signs = [
        "+", "-", "*", "/", "%", "|", "&", "==", "!=", "<", "<=", ">", ">=", "=", "+=", "-=", "=>",
        "..", ".", ",", ";", ":", "(", ")", "[", "]", "{", "}", "_", "!", "?", "@", "\\",
    ];
    let words = [
        "team",
        "x",
        "a_1",
        "home",
        "away",
        "count",
        "any",
        "all",
        "highest",
        "lowest",
        "d6",
        "2d6",
        "3d6",
        "0d0",
        "99999999999999999999",
        "0",
        "7",
        "-3",
        "\"s\"",
        "\"\"",
        "\"a \\\" b\"",
        "\"open",
        "# note\n",
        "\n",
        "\t",
        " ",
        "é",
        "\u{0}",
        "\u{feff}",
    ];
    prop_oneof![
        4 => prop::sample::select(KEYWORDS.to_vec()).prop_map(str::to_string),
        4 => prop::sample::select(signs.to_vec()).prop_map(str::to_string),
        3 => prop::sample::select(words.to_vec()).prop_map(str::to_string),
        1 => "[a-z_]{1,6}",
    ]
}

/// A run of tokens, joined with or without spaces.
fn soup() -> impl Strategy<Value = String> {
    prop::collection::vec((token(), any::<bool>()), 0..40).prop_map(|ts| {
        let mut s = String::new();
        for (t, space) in ts {
            s.push_str(&t);
            if space {
                s.push(' ');
            }
        }
        s
    })
}

/// Brackets nested up to a few hundred deep, balanced or not.
fn nesting() -> impl Strategy<Value = String> {
    (
        prop::collection::vec(
            prop::sample::select(vec!["(", "[", "{", "if x {", "-", "not "]),
            0..300,
        ),
        prop::sample::select(vec!["1", "x", "", "f(", "1 +"]),
        any::<bool>(),
    )
        .prop_map(|(open, inner, balance)| {
            let mut s: String = open.concat();
            s.push_str(inner);
            if balance {
                for o in open.iter().rev() {
                    s.push_str(match *o {
                        "(" => ")",
                        "[" => "]",
                        "{" | "if x {" => "}",
                        _ => "",
                    });
                }
            }
            s
        })
}

fn text() -> impl Strategy<Value = String> {
    prop_oneof![4 => soup(), 2 => nesting(), 1 => any::<String>(), 2 => code()]
}

/// An error's span lies inside `text`, on character boundaries.
fn located(text: &str, e: &ParseError) -> Result<(), TestCaseError> {
    let s = e.span();
    prop_assert!(
        s.start <= s.end && s.end <= text.len(),
        "span {s:?} of {e} outside the text"
    );
    prop_assert!(
        text.is_char_boundary(s.start) && text.is_char_boundary(s.end),
        "span {s:?} of {e} inside a character"
    );
    Ok(())
}

/// Parses `text` every way the loader does.
fn parse_every_way(text: &str) -> Result<(), TestCaseError> {
    match parse_body(text) {
        Ok(body) => {
            let printed = print_body(&body);
            match parse_body(&printed) {
                Ok(again) => prop_assert_eq!(again, body, "printed as {}", printed),
                Err(e) => prop_assert!(false, "printed as {printed:?}, which fails: {e}"),
            }
        }
        Err(e) => located(text, &e)?,
    }
    if let Err(e) = parse_expression(text) {
        located(text, &e)?;
    }
    if let Err(e) = parse_params(text) {
        located(text, &e)?;
    }
    Ok(())
}

// ------------------------------------------------------------------------ generated code

/// The types the generator writes code of.
const TYPES: [Ty; 5] = [Ty::Int, Ty::Bool, Ty::Team, Ty::Area, Ty::Str];

/// Calls of the engine's primitives that take and return only the types above.
fn calls(ret: Ty) -> Vec<Prim> {
    Prim::all()
        .iter()
        .copied()
        .filter(|p| p.ret() == ret && p.params().iter().all(|t| TYPES.contains(t)))
        .collect()
}

/// A leaf of type `ty`: a literal, a parameter of the hook, a constant or state of the
/// original edition.
fn leaf(ty: Ty) -> BoxedStrategy<String> {
    match ty {
        Ty::Int => prop_oneof![
            (-9i64..99).prop_map(|n| n.to_string()),
            prop::sample::select(vec![
                "half_minutes",
                "kickoff_ball",
                "yellow[team]",
                "minute()"
            ])
            .prop_map(str::to_string),
        ]
        .boxed(),
        Ty::Bool => prop::sample::select(vec!["true", "false", "finish_half", "no_moves[team]"])
            .prop_map(str::to_string)
            .boxed(),
        Ty::Team => {
            prop::sample::select(vec!["team", "home", "away", "other(team)", "first_kickoff"])
                .prop_map(str::to_string)
                .boxed()
        }
        Ty::Area => prop::sample::select(vec!["area", "start", "target"])
            .prop_map(str::to_string)
            .boxed(),
        _ => prop::sample::select(vec!["\"box\"", "\"kept\"", "set_piece", "\"\""])
            .prop_map(str::to_string)
            .boxed(),
    }
}

/// An expression of type `ty` (sometimes of another: the checker must say so).
fn typed(ty: Ty, depth: u32) -> BoxedStrategy<String> {
    if depth == 0 {
        return leaf(ty);
    }
    let d = depth - 1;
    let mut arms: Vec<(u32, BoxedStrategy<String>)> = vec![(3, leaf(ty))];
    let prims = calls(ty);
    if !prims.is_empty() {
        let call = prop::sample::select(prims)
            .prop_flat_map(move |p| {
                let args: Vec<BoxedStrategy<String>> =
                    p.params().iter().map(|t| typed(*t, d)).collect();
                args.prop_map(move |a| format!("{}({})", p.name(), a.join(", ")))
            })
            .boxed();
        arms.push((3, call));
    }
    arms.push((
        1,
        (typed(Ty::Bool, d), typed(ty, d), typed(ty, d))
            .prop_map(|(c, a, b)| format!("if {c} {{ {a} }} else {{ {b} }}"))
            .boxed(),
    ));
    match ty {
        Ty::Int => {
            let op = prop::sample::select(vec!["+", "-", "*", "/", "%"]);
            arms.push((
                2,
                (typed(Ty::Int, d), op, typed(Ty::Int, d))
                    .prop_map(|(a, o, b)| format!("({a} {o} {b})"))
                    .boxed(),
            ));
            arms.push((1, Just("roll 1d6".to_string()).boxed()));
            arms.push((
                1,
                (typed(Ty::Int, d), typed(Ty::Int, d))
                    .prop_map(|(a, b)| format!("match {a} {{ 1 => {b}, 2..4 => 2, _ => 0 }}"))
                    .boxed(),
            ));
            arms.push((
                1,
                (typed(Ty::Int, d), typed(Ty::Int, d))
                    .prop_map(|(a, b)| {
                        format!("choose \"fuzz\" by team {{ \"a\" prefer 1 => {a}, \"b\" => {b} }}")
                    })
                    .boxed(),
            ));
        }
        Ty::Bool => {
            let cmp = prop::sample::select(vec!["==", "!=", "<", "<=", ">", ">="]);
            arms.push((
                2,
                (typed(Ty::Int, d), cmp, typed(Ty::Int, d))
                    .prop_map(|(a, c, b)| format!("{a} {c} {b}"))
                    .boxed(),
            ));
            let logic = prop::sample::select(vec!["and", "or"]);
            arms.push((
                2,
                (typed(Ty::Bool, d), logic, typed(Ty::Bool, d))
                    .prop_map(|(a, l, b)| format!("({a} {l} {b})"))
                    .boxed(),
            ));
            arms.push((
                1,
                typed(Ty::Bool, d).prop_map(|b| format!("not {b}")).boxed(),
            ));
            arms.push((
                1,
                (typed(Ty::Team, d), typed(Ty::Team, d))
                    .prop_map(|(a, b)| format!("{a} == {b}"))
                    .boxed(),
            ));
        }
        _ => {}
    }
    // Now and then a value of another type.
    let other = prop::sample::select(TYPES.to_vec())
        .prop_flat_map(leaf)
        .boxed();
    arms.push((1, other));
    prop::strategy::Union::new_weighted(arms).boxed()
}

/// A statement.
fn statement(depth: u32) -> BoxedStrategy<String> {
    let d = depth.saturating_sub(1);
    let mut arms: Vec<(u32, BoxedStrategy<String>)> = vec![
        (
            3,
            typed(Ty::Int, depth)
                .prop_map(|e| format!("let n = {e}"))
                .boxed(),
        ),
        (
            2,
            typed(Ty::Int, depth)
                .prop_map(|e| format!("set yellow[team] += {e}"))
                .boxed(),
        ),
        (
            1,
            typed(Ty::Bool, depth)
                .prop_map(|e| format!("set finish_half = {e}"))
                .boxed(),
        ),
        (
            1,
            typed(Ty::Int, depth)
                .prop_map(|e| format!("emit \"fuzz\" {{ team: team, n: {e} }}"))
                .boxed(),
        ),
    ];
    if depth > 0 {
        arms.push((
            2,
            (typed(Ty::Bool, d), body(d), body(d))
                .prop_map(|(c, a, b)| format!("if {c} {{\n{a}\n}} else {{\n{b}\n}}"))
                .boxed(),
        ));
        arms.push((
            1,
            ((0i64..4), body(d), typed(Ty::Bool, d))
                .prop_map(|(n, b, c)| format!("repeat {n} {{\n{b}\nif {c} {{ break }}\n}}"))
                .boxed(),
        ));
    }
    prop::strategy::Union::new_weighted(arms).boxed()
}

fn body(depth: u32) -> BoxedStrategy<String> {
    prop::collection::vec(statement(depth), 0..4)
        .prop_map(|s| s.join("\n"))
        .boxed()
}

/// A trigger's body: statements, then the integer the hook adds up.
fn code() -> impl Strategy<Value = String> {
    // Now and then a name nothing declares.
    let value = prop_oneof![
        19 => typed(Ty::Int, 2),
        1 => Just("nowhere_declared".to_string()),
    ];
    (body(2), value).prop_map(|(b, v)| format!("{b}\n{v}"))
}

/// The original edition with one more trigger.
fn with_trigger(when: &str, code: &str) -> String {
    let original = fuba_tests::original_text();
    format!(
        "{original}\n[triggers.fuzz]\nhook = \"goal_attempt_modifier\"\nwhen = '''{when}'''\ndo = '''\n{code}\n'''\n"
    )
}

/// Loads the original edition with the trigger and plays a short match when it loads.
fn load_and_play(when: &str, code: &str, seed: u64) -> Result<(), TestCaseError> {
    let text = with_trigger(when, code);
    let path = fuba_tests::ruleset_path("original");
    match load_str(Path::new(&path), &text) {
        Ok(rs) => fuba_tests::short_match(&rs, seed, 3_000),
        Err(errors) => {
            for d in &errors.0 {
                if d.rule.as_deref() != Some("triggers.fuzz") {
                    continue;
                }
                let Some((s, e)) = d.span else {
                    return Err(TestCaseError::fail(format!("not located: {}", d.message)));
                };
                prop_assert!(
                    s <= e && e <= text.len(),
                    "span {s}..{e} outside the file: {}",
                    d.message
                );
            }
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(cases()))]

    #[test]
    fn the_parser_takes_any_text_without_crashing(t in text()) {
        parse_every_way(&t)?;
    }

    #[test]
    fn the_loader_checks_generated_code_without_crashing(
        when in typed(Ty::Bool, 2),
        code in code(),
        seed in any::<u64>(),
    ) {
        load_and_play(&when, &code, seed)?;
    }
}

// ------------------------------------------------------------------------ found inputs

/// Inputs the fuzz target found once; each must stay handled.
#[test]
fn inputs_found_once_stay_handled() {
    let found: &[&str] = &[
        // The printer wrapped a block operand in brackets it did not need, taking the
        // printed text past the nesting limit (fixed in grammar/src/print.rs).
        "[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[-{1}]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]",
        "[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[-if x { 1 } else { 2 }]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]",
    ];
    for t in found {
        parse_every_way(t).unwrap_or_else(|e| panic!("{t:?}: {e}"));
    }
}
