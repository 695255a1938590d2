//! Lowering a decision's prompt (`choose ... prompt "text {value}"`): each value becomes a
//! small piece of code placed after its unit's code, like a `prefer` score, that runs in
//! the frame of the waiting `choose` and hands its value to the host
//! ([`crate::vm::Match::prompt`]). Nothing of it runs while a match is played.

use super::Lower;
use crate::ir::PromptSeg;
use crate::vm::code::PromptCode;

impl<'r> Lower<'r> {
    /// The prompt (`note`: the note on each option) of decision `site`, its values' code
    /// to be placed after the unit's.
    pub(super) fn prompt_site(
        &mut self,
        prompt: Option<&'r [PromptSeg]>,
        site: usize,
        note: bool,
    ) -> Box<[PromptCode]> {
        let Some(segs) = prompt else {
            return Box::new([]);
        };
        segs.iter()
            .enumerate()
            .map(|(i, s)| match s {
                PromptSeg::Text(t) => PromptCode::Text(t.clone()),
                PromptSeg::Value(n) => {
                    let place = self.place_of();
                    self.prompts
                        .push((n, site, note, i, self.next_hidden, place));
                    PromptCode::Value(0)
                }
            })
            .collect()
    }

    /// Places the code of the prompt values met in the unit just lowered.
    pub(super) fn prompt_values(&mut self) {
        while let Some((n, site, note, idx, live, place)) = self.prompts.pop() {
            let at = self.at_place(place, |l| l.waiting_value(n, live));
            let d = &mut self.p.decisions[site];
            let codes = if note {
                d.note.as_mut().map(|(_, c)| c)
            } else {
                Some(&mut d.prompt)
            };
            if let Some(PromptCode::Value(e)) = codes.and_then(|c| c.get_mut(idx)) {
                *e = at;
            }
        }
    }
}
