//! A decision's prompt and its options' notes, worked out on request: the text of `choose
//! ... prompt "text {value}"` (and of `note x => "text {value}"` for each option of a
//! `choose ... from`) with each value computed in the frame of the waiting `choose`, as a
//! `prefer` score is. Only a driver that shows decisions to a person asks for them (the
//! human player at the terminal); nothing of it is counted or logged, and the match goes on
//! exactly as if they had not been asked: its state, log, counters and operation budget are
//! put back.

use super::code::PromptCode;
use super::exec::Exit;
use super::machine::Match;
use super::machine::Wait;
use super::notes::value_text;
use crate::agent::Opt;
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
        Some(self.aside(|m| m.fill(&d.prompt, None)))
    }

    /// The note on each option of the waiting decision (`note x => "..."`), in the order
    /// of the options (empty text for the `skip` option): `None` when no decision waits or
    /// its rule gives no note; `Err` as for [`Match::prompt`].
    pub fn option_notes(&mut self) -> Option<Result<Vec<String>, String>> {
        let Wait::Decision { site, .. } = self.wait else {
            return None;
        };
        let prog = self.prog;
        let (slot, codes) = prog.decisions[site as usize].note.as_ref()?;
        Some(self.aside(|m| {
            let mut out = Vec::with_capacity(m.opts.len());
            for i in 0..m.opts.len() {
                let v = match m.opts[i] {
                    Opt::Area(a) => Value::Area(a),
                    Opt::Move(mv) => Value::Move(mv),
                    Opt::Arm(..) | Opt::Skip(_) => {
                        out.push(String::new());
                        continue;
                    }
                };
                out.push(m.fill(codes, Some((*slot, v)))?);
            }
            Ok(out)
        }))
    }

    /// Runs `f` with the log set aside and nothing counted, then puts back the state, the
    /// log, the counters' switch and the operation budget.
    fn aside<T>(&mut self, f: impl FnOnce(&mut Self) -> T) -> T {
        let saved = self.st.clone();
        let log = self.log.take();
        let (counting, wait, pc, ops) = (self.counting, self.wait, self.pc, self.ops);
        let base = self.frames.last().map_or(0, |f| f.base) as usize;
        let unit_slots = self.stack.len();
        let locals: Vec<Value> = self.stack[base..unit_slots].to_vec();
        self.counting = false;
        self.scoring = true;
        let r = f(self);
        self.scoring = false;
        self.counting = counting;
        self.wait = wait;
        self.pc = pc;
        self.ops = ops;
        self.log = log;
        self.st = saved;
        self.stack.truncate(base);
        self.stack.extend(locals);
        self.touch();
        r
    }

    /// The text of a prompt or note, each value run in the frame of the waiting `choose`
    /// (with `bind`: the option written into its slot first).
    fn fill(&mut self, codes: &[PromptCode], bind: Option<(u16, Value)>) -> Result<String, String> {
        let base = self.frames.last().map_or(0, |f| f.base);
        if let Some((slot, v)) = bind {
            self.stack[base as usize + slot as usize] = v;
        }
        let mut text = String::new();
        for part in codes {
            let entry = match part {
                PromptCode::Text(t) => {
                    text.push_str(t);
                    continue;
                }
                PromptCode::Value(e) => *e,
            };
            match self.run_waiting(entry) {
                Ok(Exit::Returned(v)) => text.push_str(&shown(self, &v)),
                Ok(Exit::Suspended) => {
                    return Err("a prompt's value asked for a choice or dice".to_string());
                }
                Err(super::run_error::Halt::Error(e)) => return Err(e.message.clone()),
                Err(_) => return Err("a prompt's value ended the turn".to_string()),
            }
        }
        Ok(text)
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
