//! `roll`: dice, what is kept of them, who rolls and the label.

use pest::iterators::Pair;

use super::Rule;
use super::builder::Builder;
use super::pairs::{int_value, internal, span_of, string_lit};
use crate::ast::{Expr, ExprKind, Keep};
use crate::error::ParseError;

impl Builder {
    /// `roll 2d6 [keep highest|lowest n] [by team] [as "label"]`: at most 8 dice of 2
    /// to 100 sides, keeping between 1 and all of them.
    pub(super) fn roll_expr(&mut self, p: Pair<'_, Rule>) -> Result<Expr, ParseError> {
        let span = span_of(&p);
        let mut it = p.into_inner();
        let spec = it.next().ok_or_else(internal)?;
        let (n, s) = spec.as_str().split_once('d').ok_or_else(internal)?;
        let bad = || ParseError::Number {
            text: spec.as_str().to_string(),
            span: span_of(&spec),
        };
        let count: u32 = if n.is_empty() {
            1
        } else {
            n.parse().map_err(|_| bad())?
        };
        let sides: u32 = s.parse().map_err(|_| bad())?;
        if !(1..=8).contains(&count) || !(2..=100).contains(&sides) {
            return Err(bad());
        }
        let mut keep = None;
        let mut by = None;
        let mut label = None;
        for q in it {
            match q.as_rule() {
                Rule::roll_keep => {
                    let mut ki = q.into_inner();
                    let kind = match ki.next().ok_or_else(internal)?.as_str() {
                        "highest" => Keep::Highest,
                        _ => Keep::Lowest,
                    };
                    let kp = ki.next().ok_or_else(internal)?;
                    let k = int_value(&kp)?;
                    if k < 1 || k > i64::from(count) {
                        return Err(ParseError::Number {
                            text: kp.as_str().to_string(),
                            span: span_of(&kp),
                        });
                    }
                    keep = Some((kind, k as u32));
                }
                Rule::string => label = Some(string_lit(q)?),
                _ => by = Some(Box::new(self.expr(q)?)),
            }
        }
        Ok(Expr {
            kind: ExprKind::Roll {
                count,
                sides,
                keep,
                by,
                label,
            },
            span,
        })
    }
}
