//! A name in an expression: a local, a constant, a state variable, an area or a role,
//! or an error with the closest known name as a hint.

use fuba_grammar::ast;

use super::{Compiler, R, closest_name};
use crate::ir::*;
use crate::value::{Ty, Value};

impl Compiler<'_> {
    /// A name read in an expression.
    pub(super) fn name(&mut self, id: &ast::Ident) -> R<(Node, Ty)> {
        let sp = id.span;
        let n = id.name.as_str();
        if let Some(l) = self.lookup_local(n) {
            return Ok((self.node(NodeKind::Local(l.slot), sp), l.ty));
        }
        if let Some((v, t)) = self.rs.constant(n) {
            return Ok((self.node(NodeKind::Const(v), sp), t));
        }
        if let Some((var, t)) = self.rs.var(n) {
            if matches!(var.scope, Scope::Team | Scope::TeamTurn) {
                return Err(self.err(sp, format!("`{n}` is held per team: write `{n}[team]`")));
            }
            return Ok((self.node(NodeKind::Var(var), sp), t));
        }
        if let Some(a) = self.rs.board.find(n) {
            return Ok((self.node(NodeKind::Const(Value::Area(a)), sp), Ty::Area));
        }
        let role = match n {
            "ct" => Some(NodeKind::Role(Role::Controlling)),
            "pt" => Some(NodeKind::Role(Role::Passive)),
            "phasing" => Some(NodeKind::Role(Role::Phasing)),
            "nonphasing" => Some(NodeKind::Role(Role::NonPhasing)),
            "home" => Some(NodeKind::Const(Value::Team(0))),
            "away" => Some(NodeKind::Const(Value::Team(1))),
            _ => None,
        };
        if let Some(k) = role {
            return Ok((self.node(k, sp), Ty::Team));
        }
        for key in [format!("tables.{n}"), format!("constants.{n}")] {
            if let Some(h) = self.removed_hint(&key) {
                let d = self
                    .err(
                        sp,
                        format!("`{n}` was removed by a layer but is still used here"),
                    )
                    .hint(h);
                return Ok(self.removed_use(d, &[], sp));
            }
        }
        let mut known: Vec<String> = self.scopes.iter().flat_map(|s| s.keys().cloned()).collect();
        known.extend(self.rs.constants.iter().map(|c| c.0.clone()));
        known.extend(self.rs.var_names().map(str::to_string));
        known.extend(self.rs.board.areas.iter().map(|a| a.name.clone()));
        known.extend(self.rs.tables.iter().map(|t| t.name.clone()));
        let hint = closest_name(n, known.iter().map(String::as_str)).map(str::to_string);
        let looks_like_area = n
            .chars()
            .all(|c| c.is_ascii_uppercase() || c == '_' || c.is_ascii_digit());
        let msg = if looks_like_area {
            format!("unknown area `{n}`")
        } else {
            format!("unknown name `{n}`")
        };
        let d = self.err(sp, msg);
        Err(match hint {
            Some(h) => d.hint(format!("did you mean `{h}`?")),
            None if looks_like_area => d.hint(format!(
                "the board's areas are: {}",
                self.rs.board.areas.iter().map(|a| a.name.as_str()).collect::<Vec<_>>().join(", ")
            )),
            None => d.hint("a name is a local (`let`), a parameter, a constant, a state variable, an area, or ct/pt/phasing/nonphasing/home/away"),
        })
    }
}
