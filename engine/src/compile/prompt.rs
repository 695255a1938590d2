//! A decision's prompt (`choose "kind" by t prompt "text {value}" ...`): each value is
//! checked and compiled in the scope of the `choose`, like any expression there. The
//! values are worked out only when a driver asks for the prompt
//! ([`crate::vm::Match::prompt`]), never while a match is played, and never logged.

use fuba_grammar::ast;

use super::{Compiler, R};
use crate::ir::{NodeKind, PromptSeg, Search};
use crate::value::Ty;

impl Compiler<'_> {
    /// The note of each option of a `choose ... from` (`note x => "..."`), compiled with
    /// the option, of type `ty`, bound to `x`: the slot and the text.
    pub(super) fn note(
        &mut self,
        note: Option<&(ast::Ident, ast::Prompt)>,
        ty: Ty,
    ) -> R<Option<(u16, Box<[PromptSeg]>)>> {
        let Some((var, text)) = note else {
            return Ok(None);
        };
        let saved = self.next_slot;
        self.push_scope();
        let slot = self.declare(&var.name, ty);
        let segs = self.prompt(Some(text));
        self.pop_scope(saved);
        Ok(segs?.map(|s| (slot, s)))
    }

    /// The prompt of a `choose`, compiled.
    pub(super) fn prompt(&mut self, p: Option<&ast::Prompt>) -> R<Option<Box<[PromptSeg]>>> {
        let Some(p) = p else {
            return Ok(None);
        };
        let mut out = Vec::with_capacity(p.parts.len());
        for part in &p.parts {
            out.push(match part {
                ast::PromptPart::Text(t) => PromptSeg::Text(t.as_str().into()),
                ast::PromptPart::Value(e) => {
                    let n = self.expr(e)?.0;
                    let asks = Search {
                        stmt: &mut |_| false,
                        node: &mut |n| {
                            matches!(
                                n.kind,
                                NodeKind::ChooseFrom { .. }
                                    | NodeKind::ChooseArms { .. }
                                    | NodeKind::Roll { .. }
                            )
                        },
                    }
                    .in_node(&n);
                    if asks {
                        return Err(self.err(
                            e.span,
                            "a prompt's value may not ask for a choice or roll dice: it is worked out only to be shown",
                        ));
                    }
                    PromptSeg::Value(n)
                }
            });
        }
        Ok(Some(out.into_boxed_slice()))
    }
}
