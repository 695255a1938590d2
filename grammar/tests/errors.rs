//! Parse errors: what they say and where they point, and the parser's limits.
//!
//! Every file in `fixtures/invalid/` is a broken piece of code; its error, rendered as a
//! user sees it (message, `line:column`, the offending line with carets), is a snapshot.

use fuba_grammar::limits::{MAX_CODE_BYTES, MAX_NESTING};
use fuba_grammar::report::{Excerpt, Paint, Place, Report};
use fuba_grammar::{ParseError, parse_body, parse_expression};

/// Renders an error of the code in the file `path` the way a ruleset loader shows it
/// ([`fuba_grammar::report`], plain): the message, then `path:line:column` (1-based,
/// columns in characters) and the line with carets under the error's span.
fn render(path: &str, text: &str, err: &ParseError) -> String {
    let message = err.to_string();
    let span = err.span();
    Report {
        place: Some(Place::Source(Excerpt {
            path,
            text,
            span: span.start..span.end,
            labels: Vec::new(),
        })),
        ..Report::error(&message)
    }
    .render(Paint::Plain)
}

#[test]
fn invalid_inputs() {
    insta::glob!("fixtures/invalid/*.fuba", |path| {
        let text = std::fs::read_to_string(path).expect("fixture is readable");
        let err = match parse_body(&text) {
            Ok(b) => panic!("{} parsed, but it is meant to fail: {b:?}", path.display()),
            Err(e) => e,
        };
        let name = path
            .file_name()
            .map_or(String::new(), |n| n.to_string_lossy().into_owned());
        insta::assert_snapshot!(render(&name, &text, &err));
    });
}

#[test]
fn render_points_at_the_right_place() {
    let text = "let a = 1\nlet b 2\n";
    let err = parse_body(text).unwrap_err();
    let shown = render("code.fuba", text, &err);
    assert!(shown.contains("--> code.fuba:2:7"), "{shown}");
    assert!(shown.contains("2 | let b 2\n  |       ^"), "{shown}");
}

// ------------------------------------------------------------------ nesting limit

fn nested(open: &str, close: &str, n: usize) -> String {
    format!("{}1{}", open.repeat(n), close.repeat(n))
}

/// The ways code nests with brackets, each level adding one bracket.
fn bracket_forms(n: usize) -> Vec<(&'static str, String)> {
    vec![
        ("parentheses", nested("(", ")", n)),
        ("blocks", nested("{", "}", n)),
        ("lists", nested("[", "]", n)),
        ("calls", nested("f(", ")", n)),
        ("indexes", format!("{}1{}", "x[".repeat(n), "]".repeat(n))),
        ("hooks", nested("hook h(", ")", n)),
        (
            "if blocks",
            format!("{}1{}", "if c { ".repeat(n), " }".repeat(n)),
        ),
        (
            "match arms",
            format!("{}1{}", "match x { _ => ".repeat(n), " }".repeat(n)),
        ),
        (
            "choose arms",
            format!(
                "{}1{}",
                "choose \"k\" by ct { \"a\" => ".repeat(n),
                " }".repeat(n)
            ),
        ),
        (
            "modifier rows",
            format!(
                "{}1{}",
                "modifiers \"m\" { \"a\": ".repeat(n),
                " }".repeat(n)
            ),
        ),
        (
            "loops",
            format!(
                "{}break{}",
                "repeat 2 { for a in s { ".repeat(n / 2),
                " } }".repeat(n / 2)
            ),
        ),
        (
            "operators in parentheses",
            format!("{}x{}", "(-a * (b + ".repeat(n / 2), "))".repeat(n / 2)),
        ),
        (
            "mixed",
            format!("{}x{}", "f([{(-x + ".repeat(n / 4), ")}])".repeat(n / 4)),
        ),
    ]
}

#[test]
fn exactly_max_nesting_parses() {
    for (what, code) in bracket_forms(MAX_NESTING) {
        if let Err(e) = parse_body(&code) {
            panic!("{what} nested {MAX_NESTING} deep should parse: {e:?}\n{code}");
        }
    }
    assert!(parse_expression(&nested("(", ")", MAX_NESTING)).is_ok());
}

#[test]
fn one_level_more_is_too_deep() {
    for (what, code) in bracket_forms(MAX_NESTING + 1) {
        // The two-bracket forms above add a level per two brackets: take one more.
        let code = if matches!(what, "loops" | "operators in parentheses") {
            bracket_forms(MAX_NESTING + 2)
                .into_iter()
                .find(|(w, _)| *w == what)
                .map(|(_, c)| c)
                .unwrap_or(code)
        } else if what == "mixed" {
            bracket_forms(MAX_NESTING + 4)
                .into_iter()
                .find(|(w, _)| *w == what)
                .map(|(_, c)| c)
                .unwrap_or(code)
        } else {
            code
        };
        match parse_body(&code) {
            Err(ParseError::TooDeep { limit, span, .. }) => {
                assert_eq!(limit, MAX_NESTING, "{what}");
                // The error points at the bracket that goes one level too deep.
                assert!(
                    matches!(&code[span.start..span.end], "(" | "[" | "{"),
                    "{what}: points at {:?}",
                    &code[span.start..span.end]
                );
            }
            other => panic!("{what} nested {} deep: {other:?}", MAX_NESTING + 1),
        }
    }
    assert!(matches!(
        parse_expression(&nested("(", ")", MAX_NESTING + 1)),
        Err(ParseError::TooDeep { .. })
    ));
}

#[test]
fn brackets_in_strings_and_comments_do_not_count() {
    let code = format!(
        "emit \"{}\" # {}\nlet x = 1",
        "(".repeat(100),
        "[".repeat(100)
    );
    assert!(parse_body(&code).is_ok());
}

// ------------------------------------------------------------------ length limit

#[test]
fn code_of_max_length_parses() {
    let code = format!("let x = 1 #{}", "-".repeat(MAX_CODE_BYTES - 11));
    assert_eq!(code.len(), MAX_CODE_BYTES);
    assert!(parse_body(&code).is_ok());
}

#[test]
fn longer_code_is_too_long() {
    let code = format!("let x = 1 #{}", "-".repeat(MAX_CODE_BYTES - 10));
    assert_eq!(code.len(), MAX_CODE_BYTES + 1);
    match parse_body(&code) {
        Err(ParseError::TooLong { limit, span }) => {
            assert_eq!(limit, MAX_CODE_BYTES);
            assert_eq!((span.start, span.end), (0, code.len()));
        }
        other => panic!("{other:?}"),
    }
    assert!(matches!(
        parse_expression(&format!("1{}", " ".repeat(MAX_CODE_BYTES))),
        Err(ParseError::TooLong { .. })
    ));
}

// ------------------------------------------------------------------ no stack overflow
//
// Nesting that brackets do not show. Each of these must come back (accepted, or refused
// as too deep or too long) on a test thread's ordinary stack, in a debug build.

fn returns(what: &str, code: &str) -> Result<(), ParseError> {
    let r = parse_body(code).map(|_| ());
    match &r {
        Ok(()) | Err(ParseError::TooDeep { .. }) | Err(ParseError::TooLong { .. }) => {}
        Err(e) => panic!("{what}: unexpected {e:?}"),
    }
    r
}

#[test]
fn hundred_thousand_nots() {
    let code = format!("{}x", "not ".repeat(100_000));
    assert!(matches!(
        returns("100,000 not", &code),
        Err(ParseError::TooLong { .. })
    ));
    // As many as fit in the length limit.
    let code = format!("{}x", "not ".repeat((MAX_CODE_BYTES - 1) / 4));
    assert!(matches!(
        returns("16,383 not", &code),
        Err(ParseError::TooDeep { .. })
    ));
    assert!(returns("100 not", &format!("{}x", "not ".repeat(100))).is_ok());
}

#[test]
fn hundred_thousand_minuses() {
    for sep in ["", " "] {
        let minus = format!("-{sep}");
        let code = format!("{}x", minus.repeat(100_000));
        assert!(matches!(
            returns("100,000 -", &code),
            Err(ParseError::TooLong { .. })
        ));
        let code = format!("{}x", minus.repeat((MAX_CODE_BYTES - 1) / minus.len()));
        assert!(matches!(
            returns("- up to the limit", &code),
            Err(ParseError::TooDeep { .. })
        ));
    }
}

#[test]
fn long_else_if_chain() {
    let code = format!("if a {{ }}{}", " else if a { }".repeat(2000));
    assert!(matches!(
        returns("2000 else if", &code),
        Err(ParseError::TooDeep { .. })
    ));
    // A realistic chain is fine.
    let code = format!("if a {{ }}{} else {{ }}", " else if a { }".repeat(20));
    assert!(returns("20 else if", &code).is_ok());
}

#[test]
fn long_operator_chains() {
    // Left-associative chains nest the tree as deep as they are long.
    for (what, unit) in [
        ("+", "+1"),
        ("and", " and a"),
        ("field", ".a"),
        ("index", "[1]"),
        ("call", "(1)"),
    ] {
        let n = (MAX_CODE_BYTES - 10) / unit.len();
        let code = format!("x{}", unit.repeat(n));
        let r = returns(what, &code);
        if what == "call" {
            // `f(1)(1)` is refused outright: only a name can be called.
            continue;
        }
        assert!(matches!(r, Err(ParseError::TooDeep { .. })), "{what}");
        assert!(
            returns(what, &format!("x{}", unit.repeat(20))).is_ok(),
            "{what}"
        );
    }
}

#[test]
fn keyword_expressions_nested_without_brackets() {
    for (what, open, inner, close) in [
        ("roll by", "roll d6 by ", "ct", ""),
        ("choose by", "choose \"k\" by ", "ct", " from s"),
        ("count in", "count d in ", "r", ""),
        ("if cond", "if ", "c", " { }"),
        ("match scrutinee", "match ", "x", " { }"),
    ] {
        let deep = |n: usize| format!("{}{inner}{}", open.repeat(n), close.repeat(n));
        assert!(
            matches!(returns(what, &deep(3000)), Err(ParseError::TooDeep { .. })),
            "{what}"
        );
        assert!(returns(what, &deep(3)).is_ok(), "{what}");
    }
}
