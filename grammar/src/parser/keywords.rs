//! The words of the language that cannot be names.
//!
//! The grammar's `keyword` rule (`effect.pest`) is what keeps them from being names;
//! [`KEYWORDS`] lists the same words for messages and for the tools that generate code.
//! A test reads the rule's alternatives out of the grammar and checks that the two agree.

/// The words that cannot be names: the `keyword` rule of the grammar. A keyword with
/// more after it (`notx`, `in_`, `true1`) is a name.
pub const KEYWORDS: &[&str] = &[
    "let",
    "set",
    "if",
    "else",
    "match",
    "repeat",
    "for",
    "in",
    "break",
    "return",
    "emit",
    "hook",
    "choose",
    "by",
    "from",
    "secret",
    "skip",
    "prefer",
    "roll",
    "keep",
    "as",
    "modifiers",
    "when",
    "where",
    "and",
    "or",
    "not",
    "true",
    "false",
    "none",
];

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    use pest::Parser as _;

    use super::KEYWORDS;
    use crate::parser::{EffectParser, Rule};

    /// The quoted words of the grammar's `keyword` rule, read from `effect.pest`: the text
    /// from `keyword = @{` to the `~ !ident_char` that ends the alternatives.
    fn grammar_keywords() -> Vec<String> {
        let grammar = include_str!("../effect.pest");
        let start = grammar
            .find("\nkeyword = @{")
            .expect("effect.pest has a `keyword` rule");
        let rule = &grammar[start..];
        let end = rule
            .find("~ !ident_char")
            .expect("the `keyword` rule ends its alternatives with `~ !ident_char`");
        rule[..end]
            .split('"')
            .skip(1)
            .step_by(2)
            .map(str::to_string)
            .collect()
    }

    #[test]
    fn keywords_are_the_grammars_keyword_rule() {
        let from_grammar = grammar_keywords();
        assert!(
            from_grammar.len() >= 20,
            "too few words read from the `keyword` rule: {from_grammar:?}"
        );
        let grammar: BTreeSet<&str> = from_grammar.iter().map(String::as_str).collect();
        let listed: BTreeSet<&str> = KEYWORDS.iter().copied().collect();
        assert_eq!(listed.len(), KEYWORDS.len(), "KEYWORDS lists a word twice");
        assert_eq!(
            listed.difference(&grammar).collect::<Vec<_>>(),
            Vec::<&&str>::new(),
            "in KEYWORDS but not in the grammar's `keyword` rule"
        );
        assert_eq!(
            grammar.difference(&listed).collect::<Vec<_>>(),
            Vec::<&&str>::new(),
            "in the grammar's `keyword` rule but not in KEYWORDS"
        );
    }

    /// The parser agrees: each keyword is the whole of a `keyword`, and never a name.
    #[test]
    fn every_keyword_is_a_keyword_and_no_name() {
        for k in KEYWORDS {
            let parsed = EffectParser::parse(Rule::keyword, k)
                .unwrap_or_else(|e| panic!("`{k}` is not a keyword to the parser: {e}"));
            assert_eq!(parsed.as_str(), *k);
            assert!(
                EffectParser::parse(Rule::ident, k).is_err(),
                "`{k}` parses as a name"
            );
            let longer = format!("{k}_x");
            assert!(
                EffectParser::parse(Rule::ident, &longer).is_ok(),
                "`{longer}` is not a name"
            );
        }
    }
}
