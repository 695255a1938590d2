//! `choose`: a decision, its options given `from` a set or as labelled arms.

use pest::iterators::Pair;

use super::Rule;
use super::builder::Builder;
use super::pairs::{each_head, first, ident, internal, span_of, string_lit};
use crate::ast::{ChooseArm, ChooseOptions, Expr, ExprKind, StrLit};
use crate::error::ParseError;

impl Builder {
    /// `choose "kind" by team [secret] [prompt "..."]`, then the options: `from set
    /// [skip "label"] [note x => "..."] [prefer x => score]`, or arms `{ "label" [when
    /// condition] [prefer score] => value, ... }`.
    pub(super) fn choose_expr(&mut self, p: Pair<'_, Rule>) -> Result<Expr, ParseError> {
        let span = span_of(&p);
        let mut it = p.into_inner().peekable();
        let kind = string_lit(it.next().ok_or_else(internal)?)?;
        let by = Box::new(self.expr(it.next().ok_or_else(internal)?)?);
        let secret = it.peek().map(|q| q.as_rule()) == Some(Rule::secret_kw);
        if secret {
            it.next();
        }
        let prompt = match it.peek().map(|q| q.as_rule()) {
            Some(Rule::choose_prompt) => Some(self.prompt(it.next().ok_or_else(internal)?)?),
            _ => None,
        };
        let opts = it.next().ok_or_else(internal)?;
        let options = match opts.as_rule() {
            Rule::choose_from => {
                let mut oi = opts.into_inner();
                let options = Box::new(self.expr(oi.next().ok_or_else(internal)?)?);
                let mut skip = None;
                let mut prefer = None;
                let mut note = None;
                for q in oi {
                    if q.as_rule() == Rule::choose_note {
                        note = Some(self.note(q)?);
                    } else if q.as_rule() == Rule::choose_prefer {
                        let mut pi = q.into_inner();
                        let var = ident(pi.next().ok_or_else(internal)?);
                        let score = self.expr(pi.next().ok_or_else(internal)?)?;
                        prefer = Some((var, Box::new(score)));
                    } else {
                        skip = Some(string_lit(q)?);
                    }
                }
                ChooseOptions::From {
                    options,
                    skip,
                    note,
                    prefer,
                }
            }
            _ => {
                let mut arms = Vec::new();
                for arm in opts.into_inner() {
                    let mut ai = arm.into_inner();
                    let head = ai.next().ok_or_else(internal)?;
                    let (label, each) = if head.as_rule() == Rule::each_head {
                        let at = span_of(&head);
                        let label = StrLit {
                            value: String::new(),
                            span: at,
                        };
                        (label, Some(each_head(head)?))
                    } else {
                        (string_lit(head)?, None)
                    };
                    let mut guard = None;
                    let mut prefer = None;
                    let mut value = None;
                    for q in ai {
                        match q.as_rule() {
                            Rule::choose_guard => guard = Some(self.expr(first(q)?)?),
                            Rule::arm_prefer => prefer = Some(self.expr(first(q)?)?),
                            _ => value = Some(self.expr(q)?),
                        }
                    }
                    arms.push(ChooseArm {
                        label,
                        guard,
                        prefer,
                        value: value.ok_or_else(internal)?,
                        each,
                    });
                }
                ChooseOptions::Arms(arms)
            }
        };
        Ok(Expr {
            kind: ExprKind::Choose {
                kind,
                by,
                secret,
                prompt,
                options,
            },
            span,
        })
    }
}
