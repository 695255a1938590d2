//! What compiling adds beside the code: the strings it interns that the ruleset does not
//! hold yet, and the type of each field an `emit` writes. The compiler reads the ruleset
//! and writes these into [`Products`]; the loader stores them in the ruleset it builds.

use std::collections::HashMap;

use crate::ruleset::Ruleset;
use crate::ruleset::symbols::{AddedSymbols, Symbols};
use crate::value::{Sym, Ty};

/// The products of one or more compilations over a ruleset that is only read.
#[derive(Debug, Default)]
pub(crate) struct Products {
    /// Strings interned on top of the ruleset's symbols, numbered after its last.
    added: AddedSymbols,
    /// The type of each field of an event kind met in an `emit`, for the pairs the ruleset
    /// does not hold yet: the first `emit` met sets it.
    emit_fields: HashMap<(Sym, Sym), Ty>,
}

impl Products {
    /// The symbol for a string: the ruleset's, or a new one after it.
    pub(crate) fn intern(&mut self, base: &Symbols, s: &str) -> Sym {
        self.added.intern(base, s)
    }

    /// The string of a symbol given by the ruleset or by [`Products::intern`].
    pub(crate) fn name<'a>(&'a self, base: &'a Symbols, s: Sym) -> &'a str {
        self.added.name(base, s)
    }

    /// Notes the type of a field `emit` writes, unless `rs` or an earlier `emit` set it.
    pub(crate) fn emit_field(&mut self, rs: &Ruleset, key: (Sym, Sym), ty: Ty) {
        if !rs.emit_fields.contains_key(&key) {
            self.emit_fields.entry(key).or_insert(ty);
        }
    }

    /// Stores the products in `rs`: the new strings interned in order (so they keep the
    /// symbols they were given), the new fields' types.
    pub(crate) fn store(self, rs: &mut Ruleset) {
        for s in self.added.names() {
            rs.intern(s);
        }
        rs.emit_fields.extend(self.emit_fields);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn new_strings_follow_the_rulesets_and_keep_their_symbols_when_stored() {
        let mut base = Symbols::default();
        base.intern("goal");
        let mut out = Products::default();
        let (goal, shot, again) = (
            out.intern(&base, "goal"),
            out.intern(&base, "shot"),
            out.intern(&base, "shot"),
        );
        assert_eq!((goal, shot, again), (0, 1, 1));
        assert_eq!((out.name(&base, 0), out.name(&base, 1)), ("goal", "shot"));
        // Interning the added strings after the ruleset's gives the same symbols.
        let mut stored = base.clone();
        let symbols: Vec<Sym> = out.added.names().iter().map(|s| stored.intern(s)).collect();
        assert_eq!(symbols, [shot]);
    }
}
