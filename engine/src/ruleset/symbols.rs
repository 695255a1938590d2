//! Interned strings: every string the rules name (event kinds, zones, labels, string
//! values) held once and referred to by a [`Sym`], a number given in the order the strings
//! are first seen. [`AddedSymbols`] adds strings on top of a ruleset's symbols without
//! copying them (what the compiler interns while it only reads the ruleset), and
//! [`SymbolsOver`] does so holding the ruleset's (what a scenario names that the rules do
//! not).

use std::collections::HashMap;

use crate::value::Sym;

/// A table of interned strings.
#[derive(Debug, Clone, Default)]
pub struct Symbols {
    names: Vec<String>,
    index: HashMap<String, Sym>,
}

impl Symbols {
    /// The symbol for a string, interning it.
    pub fn intern(&mut self, s: &str) -> Sym {
        if let Some(&i) = self.index.get(s) {
            return i;
        }
        let i = self.names.len() as Sym;
        self.names.push(s.to_string());
        self.index.insert(s.to_string(), i);
        i
    }

    /// The symbol for a string, if it was interned.
    pub fn get(&self, s: &str) -> Option<Sym> {
        self.index.get(s).copied()
    }

    /// The string of a symbol (`?` for a symbol never given).
    pub fn name(&self, s: Sym) -> &str {
        self.names.get(s as usize).map_or("?", String::as_str)
    }

    /// How many strings are interned.
    pub fn len(&self) -> usize {
        self.names.len()
    }

    /// Whether no string is interned.
    pub fn is_empty(&self) -> bool {
        self.names.is_empty()
    }

    /// The interned strings, in the order of their symbols.
    pub fn names(&self) -> &[String] {
        &self.names
    }
}

/// Strings interned on top of a table that is only read, the table handed in at each
/// call: a string the table holds keeps its symbol, a new one is numbered after the
/// table's last. [`AddedSymbols::names`] gives the new strings in order, so that interning
/// them in the table (or a copy of it) gives the same symbols. The one numbering rule of
/// [`SymbolsOver`] and of the compiler's products.
#[derive(Debug, Clone, Default)]
pub struct AddedSymbols {
    added: Symbols,
}

impl AddedSymbols {
    /// The symbol for a string: `base`'s, or a new one after it.
    pub fn intern(&mut self, base: &Symbols, s: &str) -> Sym {
        match base.get(s) {
            Some(i) => i,
            None => base.len() as Sym + self.added.intern(s),
        }
    }

    /// The string of a symbol given by `base` or by [`AddedSymbols::intern`] over it.
    pub fn name<'a>(&'a self, base: &'a Symbols, s: Sym) -> &'a str {
        match (s as usize).checked_sub(base.len()) {
            Some(i) => self.added.name(i as Sym),
            None => base.name(s),
        }
    }

    /// The strings `base` did not hold, in the order they were first interned.
    pub fn names(&self) -> &[String] {
        self.added.names()
    }
}

/// Strings interned on top of a table that is only read, holding the table
/// ([`AddedSymbols`] with its base kept).
#[derive(Debug)]
pub struct SymbolsOver<'a> {
    base: &'a Symbols,
    added: AddedSymbols,
}

impl<'a> SymbolsOver<'a> {
    /// Nothing added yet over `base`.
    pub fn new(base: &'a Symbols) -> Self {
        SymbolsOver {
            base,
            added: AddedSymbols::default(),
        }
    }

    /// The symbol for a string: the table's, or a new one after it.
    pub fn intern(&mut self, s: &str) -> Sym {
        self.added.intern(self.base, s)
    }

    /// The strings the table did not hold, in the order they were first interned.
    pub fn added(&self) -> &[String] {
        self.added.names()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_string_keeps_its_symbol_and_new_ones_follow_the_table() {
        let mut base = Symbols::default();
        let (a, b) = (base.intern("a"), base.intern("b"));
        assert_eq!((a, b, base.intern("a")), (0, 1, 0));
        assert_eq!(
            (base.name(b), base.name(7), base.get("c")),
            ("b", "?", None)
        );
        let mut over = SymbolsOver::new(&base);
        assert_eq!(
            (over.intern("b"), over.intern("c"), over.intern("c")),
            (1, 2, 2)
        );
        assert_eq!(over.added(), ["c".to_string()]);
        // Interning the added strings in a copy of the table gives the same symbols.
        let mut copy = base.clone();
        let again: Vec<Sym> = over.added().iter().map(|s| copy.intern(s)).collect();
        assert_eq!(again, [2]);
    }
}
