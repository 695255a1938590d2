//! A decision's prompt: `prompt "text {value} text"` in a `choose`, built into
//! [`Prompt`]. The values are expressions, parsed where they are written, so an error in one
//! is located at its place in the file like any other.

use pest::iterators::Pair;

use super::Rule;
use super::builder::Builder;
use super::pairs::{first, ident, internal, span_of};
use crate::ast::{Ident, Prompt, PromptPart};
use crate::error::ParseError;

impl Builder {
    /// `note x => "..."` (a `choose_note` pair): the name the option is bound to, and the
    /// text.
    pub(super) fn note(&mut self, p: Pair<'_, Rule>) -> Result<Box<(Ident, Prompt)>, ParseError> {
        let mut it = p.into_inner().filter(|q| q.as_rule() != Rule::note_kw);
        let var = ident(it.next().ok_or_else(internal)?);
        let text = self.prompt_text(it.next().ok_or_else(internal)?)?;
        Ok(Box::new((var, text)))
    }

    /// `prompt "..."` (a `choose_prompt` pair).
    pub(super) fn prompt(&mut self, p: Pair<'_, Rule>) -> Result<Box<Prompt>, ParseError> {
        let text = p
            .into_inner()
            .find(|q| q.as_rule() == Rule::prompt_text)
            .ok_or_else(internal)?;
        self.prompt_text(text).map(Box::new)
    }

    /// The text of a prompt or note (a `prompt_text` pair).
    fn prompt_text(&mut self, text: Pair<'_, Rule>) -> Result<Prompt, ParseError> {
        let span = span_of(&text);
        let mut parts: Vec<PromptPart> = Vec::new();
        for q in text.into_inner() {
            match q.as_rule() {
                Rule::prompt_hole => {
                    parts.push(PromptPart::Value(Box::new(self.expr(first(q)?)?)));
                }
                _ => {
                    let t = unescape(q.as_str());
                    match parts.last_mut() {
                        Some(PromptPart::Text(prev)) => prev.push_str(&t),
                        _ => parts.push(PromptPart::Text(t)),
                    }
                }
            }
        }
        Ok(Prompt { parts, span })
    }
}

/// Prompt text as written to its value: `{{` and `}}` are braces, `\"` and `\\` escapes.
fn unescape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\\' => {
                if let Some(n) = chars.next() {
                    out.push(n);
                }
            }
            '{' | '}' if chars.peek() == Some(&c) => {
                chars.next();
                out.push(c);
            }
            _ => out.push(c),
        }
    }
    out
}

/// Prompt text as it is written back: braces doubled, quotes and backslashes escaped.
pub(crate) fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '{' => out.push_str("{{"),
            '}' => out.push_str("}}"),
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            _ => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::{escape, unescape};
    use crate::ast::{ChooseOptions, ExprKind, PromptPart, StmtKind};
    use crate::parse_body;

    #[test]
    fn text_and_values_in_order_with_escaped_braces() {
        let b = parse_body(
            r#"choose "setup" by t prompt "place your {role} {{{left} of {n + 1}}}: \"ok\"" from s"#,
        )
        .expect("parses");
        let StmtKind::Expr(e) = &b.stmts[0].kind else {
            panic!("an expression")
        };
        let ExprKind::Choose {
            prompt: Some(p), ..
        } = &e.kind
        else {
            panic!("a choice with a prompt: {e:?}")
        };
        let shape: Vec<String> = p
            .parts
            .iter()
            .map(|x| match x {
                PromptPart::Text(t) => format!("text {t:?}"),
                PromptPart::Value(v) => format!("value at {}..{}", v.span.start, v.span.end),
            })
            .collect();
        assert_eq!(
            shape,
            [
                "text \"place your \"",
                "value at 40..44",
                "text \" {\"",
                "value at 49..53",
                "text \" of \"",
                "value at 59..64",
                "text \"}: \\\"ok\\\"\"",
            ]
        );
        assert_eq!(unescape(&escape("a {b} \"c\" \\")), "a {b} \"c\" \\");
    }

    #[test]
    fn prompt_and_note_are_no_keywords() {
        assert!(parse_body("let prompt = 1\nlet note = prompt + 1").is_ok());
    }

    #[test]
    fn a_note_binds_each_option() {
        let b = parse_body(r#"choose "target" by t from s note a => "{a}: {f(a)}" prefer a => 1"#)
            .expect("parses");
        let StmtKind::Expr(e) = &b.stmts[0].kind else {
            panic!("an expression")
        };
        let ExprKind::Choose {
            options:
                ChooseOptions::From {
                    note: Some(note),
                    prefer: Some(_),
                    ..
                },
            ..
        } = &e.kind
        else {
            panic!("a choice with a note and a preference: {e:?}")
        };
        let (var, text) = &**note;
        assert_eq!(var.name, "a");
        assert_eq!(text.parts.len(), 3);
    }
}
