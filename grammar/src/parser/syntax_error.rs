//! pest's error turned into a message a rule writer can act on.

use pest::Parser as _;

use super::keywords::KEYWORDS;
use super::rule_names::rule_name;
use super::{EffectParser, Rule};
use crate::ast::Span;
use crate::error::{Nesting, ParseError};
use crate::limits::MAX_TREE_DEPTH;

/// Turns pest's error into a message a rule writer can act on: what was expected at the
/// place where the parse got furthest, and what was found there. A few common slips get a
/// message of their own (an unterminated string, a keyword used as a name, `&&`, `a < b < c`);
/// a malformed keyword expression whose details pest cannot tell gets the expression's form.
pub(super) fn syntax_error(rule: Rule, text: &str, e: pest::error::Error<Rule>) -> ParseError {
    use pest::error::{ErrorVariant, InputLocation};
    let at = match e.location {
        InputLocation::Pos(p) => p,
        InputLocation::Span((a, _)) => a,
    };
    let positives = match &e.variant {
        // pest's own guard against running out of stack: code nested in a way the bracket
        // count does not see (`if .. else if ..` chains, `roll d6 by roll d6 by ..`).
        ErrorVariant::CustomError { message } if message.ends_with("limit reached") => {
            return ParseError::TooDeep {
                limit: MAX_TREE_DEPTH,
                what: Nesting::ParserStack,
                span: Span::new(at, at),
            };
        }
        ErrorVariant::CustomError { message } => return syntax(message.clone(), at, at),
        ErrorVariant::ParsingError { positives, .. } => positives.clone(),
    };

    if positives.contains(&Rule::string) && text[at..].starts_with('"') {
        let end = text[at..].find('\n').map_or(text.len(), |i| at + i);
        return syntax(
            "unterminated string (a string ends with `\"` on the line where it starts)",
            at,
            end,
        );
    }
    let word = word_at(text, at);
    if positives.contains(&Rule::ident) && KEYWORDS.contains(&word) {
        return syntax(
            format!("expected a name, found `{word}`, which is a keyword"),
            at,
            at + word.len(),
        );
    }

    // The furthest position reached, and the tokens that could have come there.
    let (pos, expected) = match detailed_attempts(rule, text, &e) {
        Some(d) => d,
        None => (at, Vec::new()),
    };
    let pos = skip_blank(text, pos);
    let found = token_at(text, pos);
    let found_span = (pos, pos + found.len());
    let found_text = if found.is_empty() {
        "end of input".to_string()
    } else {
        format!("`{found}`")
    };
    for (wrong, right) in [
        ("&&", "`and`"),
        ("||", "`or`"),
        ("<>", "`!=`"),
        ("=<", "`<=`"),
        ("=>", "`>=`"),
        ("===", "`==`"),
        ("**", "repeated `*`"),
        ("!", "`not`"),
        ("=", "`==`"),
    ] {
        if let Some(start) = occurrence_around(text, pos, wrong)
            && !expected.iter().any(|t| t == wrong)
            && !(wrong == "=" && text[start..].starts_with("=="))
            && !(wrong == "!" && text[start..].starts_with("!="))
        {
            return syntax(
                format!("unknown operator `{wrong}`: write {right}"),
                start,
                start + wrong.len(),
            );
        }
    }
    if found == "(" {
        let before = text[..pos].trim_end();
        let callee = &before[before
            .rfind(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .map_or(0, |i| i + 1)..];
        if KEYWORDS.contains(&callee) {
            return syntax(
                format!("`{callee}` is a keyword, not a function: it cannot be called"),
                pos - (text[..pos].len() - before.len()) - callee.len(),
                pos + 1,
            );
        }
    }
    let is_comparison = matches!(found, "<" | "<=" | ">" | ">=" | "==" | "!=" | "in");
    if is_comparison && !expected.iter().any(|t| t == "==") {
        return syntax(
            format!("comparisons do not chain: write `a {found} b and b {found} c`"),
            found_span.0,
            found_span.1,
        );
    }
    let mut items = describe_expected(&expected);
    if positives.contains(&Rule::EOI) && pos == skip_blank(text, at) {
        items.push("end of input".to_string());
    }
    if !items.is_empty() {
        let items: Vec<&str> = items.iter().map(String::as_str).collect();
        return syntax(
            format!("expected {}, found {found_text}", join_or(&items)),
            found_span.0,
            found_span.1,
        );
    }
    if let Some(form) = usage(word) {
        return syntax(
            format!("malformed `{word}`: the form is {form}"),
            at,
            at + word.len(),
        );
    }

    // Rule names, without the operators that may follow any expression.
    let mut want: Vec<&str> = positives.iter().map(|r| rule_name(*r)).collect();
    want.sort_unstable();
    want.dedup();
    let specific: Vec<&str> = want
        .iter()
        .copied()
        .filter(|w| !CONTINUATIONS.contains(w))
        .collect();
    if !specific.is_empty() {
        want = specific;
    }
    let message = if want.is_empty() {
        "unexpected input".to_string()
    } else {
        format!("expected {}", join_or(&want))
    };
    syntax(message, at, at + word.len())
}

/// Names of the rules that may follow any complete expression (see [`rule_name`]).
const CONTINUATIONS: &[&str] = &[
    "`or`",
    "`and`",
    "a comparison",
    "an operator",
    "`[`",
    "`.field`",
    "arguments `(...)`",
];

/// A syntax error `message` over `start..end`.
fn syntax(message: impl Into<String>, start: usize, end: usize) -> ParseError {
    ParseError::Syntax {
        message: message.into(),
        span: Span::new(start, end),
    }
}

/// pest's detailed account of the furthest position it reached: that position and the
/// tokens it would have accepted there. Collecting it costs a little on every parse, so it
/// is switched on only once an error has been seen (and then stays on: the setting is
/// process-wide, and switching it off could race with another thread's error).
fn detailed_attempts(
    rule: Rule,
    text: &str,
    e: &pest::error::Error<Rule>,
) -> Option<(usize, Vec<String>)> {
    let attempts = match e.parse_attempts() {
        Some(a) => a,
        None => {
            static DETAIL: std::sync::Once = std::sync::Once::new();
            DETAIL.call_once(|| pest::set_error_detail(true));
            EffectParser::parse(rule, text).err()?.parse_attempts()?
        }
    };
    let expected = attempts
        .expected_tokens()
        .iter()
        .map(|t| t.to_string())
        .filter(|t| !matches!(t.as_str(), " " | "\t" | "\r" | "\n" | "#"))
        .collect();
    Some((attempts.max_position, expected))
}

/// What the expected tokens amount to, in words: the punctuation that would close or
/// continue the construct, then a statement, an expression, a name or a string. The
/// operators that may follow any expression are left out unless nothing else is expected.
fn describe_expected(expected: &[String]) -> Vec<String> {
    let has = |t: &str| expected.iter().any(|e| e == t);
    let mut items: Vec<String> = Vec::new();
    let expression_start = has("0..9");
    for p in ["=", "+=", "-=", "=>", ":", "..", ",", ")", "]", "}"] {
        if has(p) {
            items.push(format!("`{p}`"));
        }
    }
    if has("{") && !expression_start {
        items.push("`{`".to_string());
    }
    if has("{") && has("if") && !expression_start {
        // After `else`: a block or another `if`.
        items.push("`if`".to_string());
    } else if has("let") && expression_start {
        items.push("a statement".to_string());
    } else if expression_start {
        items.push("an expression".to_string());
    } else if has("a..z") {
        items.push("a name".to_string());
    } else if has("\"") {
        items.push("a string".to_string());
    }
    if items.is_empty() && has("+") {
        items.push("an operator".to_string());
    }
    items
}

/// How a keyword expression or statement is written, for a malformed one.
fn usage(word: &str) -> Option<&'static str> {
    Some(match word {
        "choose" => {
            "`choose \"kind\" by team from options` or `choose \"kind\" by team { \"label\" => value, ... }`"
        }
        "roll" => "`roll 2d6 [keep highest|lowest n] [by team] [as \"label\"]`",
        "match" => "`match value { pattern | pattern => value, ... }`",
        "modifiers" => "`modifiers \"name\" { \"label\": value when condition, ... }`",
        "count" | "any" | "all" => "`count x in collection where condition` (also `any`, `all`)",
        "hook" => "`hook name(arguments)`",
        "emit" => "`emit \"kind\" { field: value, ... }`",
        "let" => "`let name = value` or `let (a, b) = move`",
        "set" => "`set name = value`, `set name[team] += value`",
        "for" => "`for x in collection { ... }`",
        "repeat" => "`repeat n { ... }`",
        "if" => "`if condition { ... } else { ... }`",
        _ => return None,
    })
}

/// The first position at or after `pos` that is not blank or in a comment.
fn skip_blank(text: &str, mut pos: usize) -> usize {
    let bytes = text.as_bytes();
    while pos < bytes.len() {
        match bytes[pos] {
            b' ' | b'\t' | b'\r' | b'\n' => pos += 1,
            b'#' => {
                while pos < bytes.len() && bytes[pos] != b'\n' {
                    pos += 1;
                }
            }
            _ => break,
        }
    }
    pos
}

/// The name, keyword or number starting at `pos` (empty if none).
fn word_at(text: &str, pos: usize) -> &str {
    let rest = &text[pos.min(text.len())..];
    let end = rest
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .unwrap_or(rest.len());
    &rest[..end]
}

/// The token starting at `pos`: a word, a string, an operator or one character.
fn token_at(text: &str, pos: usize) -> &str {
    let rest = &text[pos.min(text.len())..];
    let word = word_at(text, pos);
    if !word.is_empty() {
        return word;
    }
    if let Some(inside) = rest.strip_prefix('"') {
        let end = inside
            .find(['"', '\n'])
            .map_or(rest.len(), |i| (i + 2).min(rest.len()));
        return &rest[..end];
    }
    for op in [
        "==", "!=", "<=", ">=", "=>", "+=", "-=", "&&", "||", "<>", "**", "..",
    ] {
        if rest.starts_with(op) {
            return &rest[..op.len()];
        }
    }
    rest.chars().next().map_or("", |c| &rest[..c.len_utf8()])
}

/// Where `op` occurs in `text` covering the byte at `pos`, if it does.
fn occurrence_around(text: &str, pos: usize, op: &str) -> Option<usize> {
    (pos.saturating_sub(op.len() - 1)..=pos)
        .find(|&start| text.get(start..).is_some_and(|r| r.starts_with(op)))
}

/// `a, b or c`.
fn join_or(items: &[&str]) -> String {
    match items {
        [] => String::new(),
        [one] => (*one).to_string(),
        [rest @ .., last] => format!("{} or {}", rest.join(", "), last),
    }
}
