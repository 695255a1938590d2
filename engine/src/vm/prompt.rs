//! A decision's prompt, worked out on request: the text of `choose ... prompt "text
//! {value}"` with each value computed in the frame of the waiting `choose`, as a `prefer`
//! score is. Only a driver that shows decisions to a person asks for it (the human player
//! at the terminal); nothing of it is counted or logged, and the match goes on exactly as
//! if it had not been asked: its state, log, counters and operation budget are put back.

use super::Match;
use super::code::PromptCode;
use super::exec::Exit;
use super::machine::{Frame, Wait};
use super::notes::value_text;
use crate::value::Value;

impl Match<'_> {
    /// The prompt of the waiting decision, its values filled in: `None` when no decision
    /// waits or its rule gives no prompt; `Err` with a message when a value could not be
    /// worked out (the match is not affected).
    pub fn prompt(&mut self) -> Option<Result<String, String>> {
        let Wait::Decision { site, .. } = self.wait else {
            return None;
        };
        let prog = self.prog;
        let d = &prog.decisions[site as usize];
        if d.prompt.is_empty() {
            return None;
        }
        let saved = self.st.clone();
        let log = self.log.take();
        let (counting, wait, pc, ops) = (self.counting, self.wait, self.pc, self.ops);
        self.counting = false;
        self.scoring = true;
        let base = self.frames.last().map_or(0, |f| f.base);
        let unit = self.frames.last().map_or(0, |f| f.unit);
        let depth = self.frames.len();
        let mut text = String::new();
        let mut result = Ok(());
        for part in d.prompt.iter() {
            let entry = match part {
                PromptCode::Text(t) => {
                    text.push_str(t);
                    continue;
                }
                PromptCode::Value(e) => *e,
            };
            let sp = self.stack.len();
            self.frames.push(Frame {
                ret: u32::MAX,
                base,
                unit,
                memo: 0,
                score: true,
                nested: false,
            });
            self.pc = entry;
            self.wait = Wait::Run;
            let r = self.run();
            self.stack.truncate(sp);
            self.frames.truncate(depth);
            match r {
                Ok(Exit::Returned(v)) => text.push_str(&shown(self, &v)),
                Ok(Exit::Suspended) => {
                    result = Err("a prompt's value asked for a choice or dice".to_string());
                    break;
                }
                Err(super::Halt::Error(e)) => {
                    result = Err(e.message.clone());
                    break;
                }
                Err(_) => {
                    result = Err("a prompt's value ended the turn".to_string());
                    break;
                }
            }
        }
        self.scoring = false;
        self.counting = counting;
        self.wait = wait;
        self.pc = pc;
        self.ops = ops;
        self.log = log;
        self.st = saved;
        self.touch();
        Some(result.map(|()| text))
    }
}

/// A value in a prompt: as an argument is shown (areas by name, teams as `Home`/`Away`),
/// but a string as it is, without quotes.
fn shown(m: &Match<'_>, v: &Value) -> String {
    match v {
        Value::Str(s) => m.rs.symbol(*s).to_string(),
        other => value_text(m.rs, other),
    }
}
