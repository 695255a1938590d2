//! From text to [`ast`](crate::ast): pest parses, this module builds the tree.
//!
//! Before pest runs, [`check_nesting`] rejects code whose brackets nest deeper than
//! [`MAX_NESTING`](crate::limits::MAX_NESTING). Nesting that brackets do not show (an
//! `else if` chain, `roll d6 by roll d6 by ...`) is caught by pest's own stack guard,
//! reported as [`ParseError::TooDeep`] too. The builder then counts the depth of the tree
//! it builds (chains of operators included: `a + b + c` is a tree of depth 3) and stops at
//! [`MAX_TREE_DEPTH`](crate::limits::MAX_TREE_DEPTH), so that no later recursive walk over the tree (printing, checking,
//! evaluating, dropping) can exhaust the stack either.

use pest::Parser as _;
use pest::iterators::Pair;

use crate::ast::*;
use crate::error::{Nesting, ParseError};
use crate::limits::{MAX_CODE_BYTES, MAX_NESTING, MAX_TREE_DEPTH};

mod prompt;

pub(crate) use prompt::escape as escape_prompt;

#[derive(pest_derive::Parser)]
#[grammar = "effect.pest"]
struct EffectParser;

/// Parses a sequence of statements (a procedure body, a table entry, a trigger effect).
pub fn parse_body(text: &str) -> Result<Block, ParseError> {
    let top = parse_rule(Rule::body, text)?;
    let mut b = Builder { depth: 0 };
    let span = span_of(&top);
    let stmts = top
        .into_inner()
        .filter(|p| p.as_rule() == Rule::stmt)
        .map(|p| b.stmt(p))
        .collect::<Result<_, _>>()?;
    Ok(Block { stmts, span })
}

/// Parses one expression (a condition).
pub fn parse_expression(text: &str) -> Result<Expr, ParseError> {
    let top = parse_rule(Rule::expression, text)?;
    let mut b = Builder { depth: 0 };
    let inner = first(top)?;
    b.expr(inner)
}

/// Parses a parameter list: `name: type, ...`.
pub fn parse_params(text: &str) -> Result<Vec<Param>, ParseError> {
    let top = parse_rule(Rule::params, text)?;
    top.into_inner()
        .filter(|p| p.as_rule() == Rule::param)
        .map(|p| {
            let mut it = p.into_inner();
            let name = ident(it.next().ok_or_else(internal)?);
            let ty = ident(it.next().ok_or_else(internal)?);
            Ok(Param { name, ty })
        })
        .collect()
}

fn parse_rule(rule: Rule, text: &str) -> Result<Pair<'_, Rule>, ParseError> {
    if text.len() > MAX_CODE_BYTES {
        return Err(ParseError::TooLong {
            limit: MAX_CODE_BYTES,
            span: Span::new(0, text.len()),
        });
    }
    check_nesting(text)?;
    let mut pairs = EffectParser::parse(rule, text).map_err(|e| syntax_error(rule, text, e))?;
    pairs.next().ok_or_else(internal)
}

/// Rejects text whose brackets nest deeper than the limit, skipping strings and comments.
fn check_nesting(text: &str) -> Result<(), ParseError> {
    let mut depth = 0usize;
    let mut in_string = false;
    let mut in_comment = false;
    let mut escaped = false;
    for (i, c) in text.char_indices() {
        if in_comment {
            in_comment = c != '\n';
            continue;
        }
        if in_string {
            match (escaped, c) {
                (true, _) => escaped = false,
                (false, '\\') => escaped = true,
                (false, '"') | (false, '\n') => in_string = false,
                _ => {}
            }
            continue;
        }
        match c {
            '#' => in_comment = true,
            '"' => in_string = true,
            '(' | '[' | '{' => {
                depth += 1;
                if depth > MAX_NESTING {
                    return Err(ParseError::TooDeep {
                        limit: MAX_NESTING,
                        what: Nesting::Brackets,
                        span: Span::new(i, i + 1),
                    });
                }
            }
            ')' | ']' | '}' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    Ok(())
}

fn internal() -> ParseError {
    ParseError::Syntax {
        message: "internal parser error: unexpected parse tree".into(),
        span: Span::default(),
    }
}

/// Turns pest's error into a message a rule writer can act on: what was expected at the
/// place where the parse got furthest, and what was found there. A few common slips get a
/// message of their own (an unterminated string, a keyword used as a name, `&&`, `a < b < c`);
/// a malformed keyword expression whose details pest cannot tell gets the expression's form.
fn syntax_error(rule: Rule, text: &str, e: pest::error::Error<Rule>) -> ParseError {
    use pest::error::{ErrorVariant, InputLocation};
    let at = match e.location {
        InputLocation::Pos(p) => p,
        InputLocation::Span((a, _)) => a,
    };
    let positives = match &e.variant {
        // pest's own guard against running out of stack: code nested in a way the bracket
        // count does not see (`if .. else if ..` chains, `roll d6 by roll d6 by ..`).
        ErrorVariant::CustomError { message } if message.ends_with("limit reached") => {
            return ParseError::TooDeep {
                limit: MAX_TREE_DEPTH,
                what: Nesting::ParserStack,
                span: Span::new(at, at),
            };
        }
        ErrorVariant::CustomError { message } => return syntax(message.clone(), at, at),
        ErrorVariant::ParsingError { positives, .. } => positives.clone(),
    };

    if positives.contains(&Rule::string) && text[at..].starts_with('"') {
        let end = text[at..].find('\n').map_or(text.len(), |i| at + i);
        return syntax(
            "unterminated string (a string ends with `\"` on the line where it starts)",
            at,
            end,
        );
    }
    let word = word_at(text, at);
    if positives.contains(&Rule::ident) && KEYWORDS.contains(&word) {
        return syntax(
            format!("expected a name, found `{word}`, which is a keyword"),
            at,
            at + word.len(),
        );
    }

    // The furthest position reached, and the tokens that could have come there.
    let (pos, expected) = match detailed_attempts(rule, text, &e) {
        Some(d) => d,
        None => (at, Vec::new()),
    };
    let pos = skip_blank(text, pos);
    let found = token_at(text, pos);
    let found_span = (pos, pos + found.len());
    let found_text = if found.is_empty() {
        "end of input".to_string()
    } else {
        format!("`{found}`")
    };
    for (wrong, right) in [
        ("&&", "`and`"),
        ("||", "`or`"),
        ("<>", "`!=`"),
        ("=<", "`<=`"),
        ("=>", "`>=`"),
        ("===", "`==`"),
        ("**", "repeated `*`"),
        ("!", "`not`"),
        ("=", "`==`"),
    ] {
        if let Some(start) = occurrence_around(text, pos, wrong)
            && !expected.iter().any(|t| t == wrong)
            && !(wrong == "=" && text[start..].starts_with("=="))
            && !(wrong == "!" && text[start..].starts_with("!="))
        {
            return syntax(
                format!("unknown operator `{wrong}`: write {right}"),
                start,
                start + wrong.len(),
            );
        }
    }
    if found == "(" {
        let before = text[..pos].trim_end();
        let callee = &before[before
            .rfind(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .map_or(0, |i| i + 1)..];
        if KEYWORDS.contains(&callee) {
            return syntax(
                format!("`{callee}` is a keyword, not a function: it cannot be called"),
                pos - (text[..pos].len() - before.len()) - callee.len(),
                pos + 1,
            );
        }
    }
    let is_comparison = matches!(found, "<" | "<=" | ">" | ">=" | "==" | "!=" | "in");
    if is_comparison && !expected.iter().any(|t| t == "==") {
        return syntax(
            format!("comparisons do not chain: write `a {found} b and b {found} c`"),
            found_span.0,
            found_span.1,
        );
    }
    let mut items = describe_expected(&expected);
    if positives.contains(&Rule::EOI) && pos == skip_blank(text, at) {
        items.push("end of input".to_string());
    }
    if !items.is_empty() {
        let items: Vec<&str> = items.iter().map(String::as_str).collect();
        return syntax(
            format!("expected {}, found {found_text}", join_or(&items)),
            found_span.0,
            found_span.1,
        );
    }
    if let Some(form) = usage(word) {
        return syntax(
            format!("malformed `{word}`: the form is {form}"),
            at,
            at + word.len(),
        );
    }

    // Rule names, without the operators that may follow any expression.
    let mut want: Vec<&str> = positives.iter().map(|r| rule_name(*r)).collect();
    want.sort_unstable();
    want.dedup();
    let specific: Vec<&str> = want
        .iter()
        .copied()
        .filter(|w| !CONTINUATIONS.contains(w))
        .collect();
    if !specific.is_empty() {
        want = specific;
    }
    let message = if want.is_empty() {
        "unexpected input".to_string()
    } else {
        format!("expected {}", join_or(&want))
    };
    syntax(message, at, at + word.len())
}

/// Names of the rules that may follow any complete expression (see [`rule_name`]).
const CONTINUATIONS: &[&str] = &[
    "`or`",
    "`and`",
    "a comparison",
    "an operator",
    "`[`",
    "`.field`",
    "arguments `(...)`",
];

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

fn syntax(message: impl Into<String>, start: usize, end: usize) -> ParseError {
    ParseError::Syntax {
        message: message.into(),
        span: Span::new(start, end),
    }
}

/// pest's detailed account of the furthest position it reached: that position and the
/// tokens it would have accepted there. Collecting it costs a little on every parse, so it
/// is switched on only once an error has been seen (and then stays on: the setting is
/// process-wide, and switching it off could race with another thread's error).
fn detailed_attempts(
    rule: Rule,
    text: &str,
    e: &pest::error::Error<Rule>,
) -> Option<(usize, Vec<String>)> {
    let attempts = match e.parse_attempts() {
        Some(a) => a,
        None => {
            static DETAIL: std::sync::Once = std::sync::Once::new();
            DETAIL.call_once(|| pest::set_error_detail(true));
            EffectParser::parse(rule, text).err()?.parse_attempts()?
        }
    };
    let expected = attempts
        .expected_tokens()
        .iter()
        .map(|t| t.to_string())
        .filter(|t| !matches!(t.as_str(), " " | "\t" | "\r" | "\n" | "#"))
        .collect();
    Some((attempts.max_position, expected))
}

/// What the expected tokens amount to, in words: the punctuation that would close or
/// continue the construct, then a statement, an expression, a name or a string. The
/// operators that may follow any expression are left out unless nothing else is expected.
fn describe_expected(expected: &[String]) -> Vec<String> {
    let has = |t: &str| expected.iter().any(|e| e == t);
    let mut items: Vec<String> = Vec::new();
    let expression_start = has("0..9");
    for p in ["=", "+=", "-=", "=>", ":", "..", ",", ")", "]", "}"] {
        if has(p) {
            items.push(format!("`{p}`"));
        }
    }
    if has("{") && !expression_start {
        items.push("`{`".to_string());
    }
    if has("{") && has("if") && !expression_start {
        // After `else`: a block or another `if`.
        items.push("`if`".to_string());
    } else if has("let") && expression_start {
        items.push("a statement".to_string());
    } else if expression_start {
        items.push("an expression".to_string());
    } else if has("a..z") {
        items.push("a name".to_string());
    } else if has("\"") {
        items.push("a string".to_string());
    }
    if items.is_empty() && has("+") {
        items.push("an operator".to_string());
    }
    items
}

/// How a keyword expression or statement is written, for a malformed one.
fn usage(word: &str) -> Option<&'static str> {
    Some(match word {
        "choose" => {
            "`choose \"kind\" by team from options` or `choose \"kind\" by team { \"label\" => value, ... }`"
        }
        "roll" => "`roll 2d6 [keep highest|lowest n] [by team] [as \"label\"]`",
        "match" => "`match value { pattern | pattern => value, ... }`",
        "modifiers" => "`modifiers \"name\" { \"label\": value when condition, ... }`",
        "count" | "any" | "all" => "`count x in collection where condition` (also `any`, `all`)",
        "hook" => "`hook name(arguments)`",
        "emit" => "`emit \"kind\" { field: value, ... }`",
        "let" => "`let name = value` or `let (a, b) = move`",
        "set" => "`set name = value`, `set name[team] += value`",
        "for" => "`for x in collection { ... }`",
        "repeat" => "`repeat n { ... }`",
        "if" => "`if condition { ... } else { ... }`",
        _ => return None,
    })
}

fn skip_blank(text: &str, mut pos: usize) -> usize {
    let bytes = text.as_bytes();
    while pos < bytes.len() {
        match bytes[pos] {
            b' ' | b'\t' | b'\r' | b'\n' => pos += 1,
            b'#' => {
                while pos < bytes.len() && bytes[pos] != b'\n' {
                    pos += 1;
                }
            }
            _ => break,
        }
    }
    pos
}

/// The name, keyword or number starting at `pos` (empty if none).
fn word_at(text: &str, pos: usize) -> &str {
    let rest = &text[pos.min(text.len())..];
    let end = rest
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .unwrap_or(rest.len());
    &rest[..end]
}

/// The token starting at `pos`: a word, a string, an operator or one character.
fn token_at(text: &str, pos: usize) -> &str {
    let rest = &text[pos.min(text.len())..];
    let word = word_at(text, pos);
    if !word.is_empty() {
        return word;
    }
    if let Some(inside) = rest.strip_prefix('"') {
        let end = inside
            .find(['"', '\n'])
            .map_or(rest.len(), |i| (i + 2).min(rest.len()));
        return &rest[..end];
    }
    for op in [
        "==", "!=", "<=", ">=", "=>", "+=", "-=", "&&", "||", "<>", "**", "..",
    ] {
        if rest.starts_with(op) {
            return &rest[..op.len()];
        }
    }
    rest.chars().next().map_or("", |c| &rest[..c.len_utf8()])
}

/// Where `op` occurs in `text` covering the byte at `pos`, if it does.
fn occurrence_around(text: &str, pos: usize, op: &str) -> Option<usize> {
    (pos.saturating_sub(op.len() - 1)..=pos)
        .find(|&start| text.get(start..).is_some_and(|r| r.starts_with(op)))
}

fn join_or(items: &[&str]) -> String {
    match items {
        [] => String::new(),
        [one] => (*one).to_string(),
        [rest @ .., last] => format!("{} or {}", rest.join(", "), last),
    }
}

/// A readable name for every grammar rule, for error messages. No wildcard arm: a new
/// rule cannot go unnamed.
fn rule_name(rule: Rule) -> &'static str {
    match rule {
        Rule::EOI => "end of input",
        Rule::WHITESPACE => "whitespace",
        Rule::COMMENT => "a comment",
        Rule::body => "statements",
        Rule::expression => "an expression",
        Rule::params => "parameters",
        Rule::param => "a parameter `name: type`",
        Rule::keyword => "a keyword",
        Rule::ident => "a name",
        Rule::ident_char => "a letter, digit or `_`",
        Rule::int => "an integer",
        Rule::string => "a string",
        Rule::str_inner => "string text",
        Rule::str_escape => "an escape (\\\" or \\\\)",
        Rule::dice_spec => "dice like `d6` or `2d6`",
        Rule::block => "a block `{ ... }`",
        Rule::stmt => "a statement",
        Rule::let_stmt => "`let`",
        Rule::let_pattern => "a name or `(a, b)`",
        Rule::set_stmt => "`set`",
        Rule::assign_op => "`=`, `+=` or `-=`",
        Rule::repeat_stmt => "`repeat`",
        Rule::for_stmt => "`for`",
        Rule::set_field => "`.field`",
        Rule::for_where => "`where condition`",
        Rule::each_head => "`for entry in collection`",
        Rule::break_stmt => "`break`",
        Rule::return_stmt => "`return`",
        Rule::emit_stmt => "`emit`",
        Rule::emit_field => "a field `name: value`",
        Rule::expr => "an expression",
        Rule::or_expr => "an expression",
        Rule::and_expr => "an expression",
        Rule::not_expr => "an expression",
        Rule::cmp_expr => "an expression",
        Rule::sum_expr => "an expression",
        Rule::prod_expr => "an expression",
        Rule::unary => "an expression",
        Rule::postfix => "an expression",
        Rule::or_op => "`or`",
        Rule::and_op => "`and`",
        Rule::not_op => "`not`",
        Rule::cmp_op => "a comparison",
        Rule::add_op => "an operator",
        Rule::mul_op => "an operator",
        Rule::neg_op => "`-`",
        Rule::index_op => "`[`",
        Rule::field_op => "`.field`",
        Rule::call_args => "arguments `(...)`",
        Rule::call => "a call",
        Rule::choose_prefer => "`prefer x => score`",
        Rule::choose_guard => "`when condition`",
        Rule::arm_prefer => "`prefer score`",
        Rule::field_name => "a field name",
        Rule::primary => "a value",
        Rule::paren => "`(`",
        Rule::bool_lit => "`true` or `false`",
        Rule::none_lit => "`none`",
        Rule::list_lit => "a list `[...]`",
        Rule::if_expr => "`if`",
        Rule::match_expr => "`match`",
        Rule::match_arm => "a match arm `pattern => value`",
        Rule::pattern => "a pattern",
        Rule::wildcard => "`_`",
        Rule::range_pat => "a range `a..b`",
        Rule::neg_int => "an integer",
        Rule::choose_expr => "`choose`",
        Rule::secret_kw => "`secret`",
        Rule::choose_prompt => "`prompt \"text {value}\"`",
        Rule::prompt_kw => "`prompt`",
        Rule::choose_note => "`note x => \"text {value}\"`",
        Rule::note_kw => "`note`",
        Rule::prompt_text => "a prompt `\"text {value}\"`",
        Rule::prompt_lit => "prompt text",
        Rule::prompt_hole => "a value `{expr}`",
        Rule::choose_from => "`from`",
        Rule::choose_arms => "options `{ \"label\" => value }`",
        Rule::choose_arm => "an option `\"label\" => value`",
        Rule::roll_expr => "`roll`",
        Rule::roll_keep => "`keep`",
        Rule::keep_kind => "`highest` or `lowest`",
        Rule::modifiers_expr => "`modifiers`",
        Rule::mod_row => "a modifier row `\"label\": value when condition`",
        Rule::quant_expr => "`count`, `any` or `all`",
        Rule::quant_kind => "`count`, `any` or `all`",
        Rule::hook_expr => "`hook`",
    }
}

fn span_of(p: &Pair<'_, Rule>) -> Span {
    let s = p.as_span();
    Span::new(s.start(), s.end())
}

fn ident(p: Pair<'_, Rule>) -> Ident {
    Ident {
        name: p.as_str().to_string(),
        span: span_of(&p),
    }
}

fn first(p: Pair<'_, Rule>) -> Result<Pair<'_, Rule>, ParseError> {
    p.into_inner().next().ok_or_else(internal)
}

fn int_value(p: &Pair<'_, Rule>) -> Result<i64, ParseError> {
    p.as_str().parse::<i64>().map_err(|_| ParseError::Number {
        text: p.as_str().to_string(),
        span: span_of(p),
    })
}

fn string_lit(p: Pair<'_, Rule>) -> Result<StrLit, ParseError> {
    let span = span_of(&p);
    let inner = first(p)?;
    let mut value = String::new();
    let mut chars = inner.as_str().chars();
    while let Some(c) = chars.next() {
        if c == '\\' {
            if let Some(n) = chars.next() {
                value.push(n);
            }
        } else {
            value.push(c);
        }
    }
    Ok(StrLit { value, span })
}

struct Builder {
    depth: usize,
}

impl Builder {
    fn enter(&mut self, span: Span) -> Result<(), ParseError> {
        self.depth += 1;
        // A bracket level may cost a few tree levels; allow for that, but stay bounded.
        if self.depth > MAX_TREE_DEPTH {
            return Err(ParseError::TooDeep {
                limit: MAX_TREE_DEPTH,
                what: Nesting::Tree,
                span,
            });
        }
        Ok(())
    }

    fn block(&mut self, p: Pair<'_, Rule>) -> Result<Block, ParseError> {
        let span = span_of(&p);
        self.enter(span)?;
        let stmts = p
            .into_inner()
            .map(|s| self.stmt(s))
            .collect::<Result<_, _>>()?;
        self.depth -= 1;
        Ok(Block { stmts, span })
    }

    fn stmt(&mut self, p: Pair<'_, Rule>) -> Result<Stmt, ParseError> {
        let span = span_of(&p);
        let inner = first(p)?;
        let kind = match inner.as_rule() {
            Rule::let_stmt => {
                let mut it = inner.into_inner();
                let pat = it.next().ok_or_else(internal)?;
                let names: Vec<Ident> = pat.into_inner().map(ident).collect();
                let pattern = match <[Ident; 2]>::try_from(names) {
                    Ok([a, b]) => LetPattern::Pair(a, b),
                    Err(mut v) => LetPattern::Name(v.pop().ok_or_else(internal)?),
                };
                let value = self.expr(it.next().ok_or_else(internal)?)?;
                StmtKind::Let { pattern, value }
            }
            Rule::set_stmt => {
                let mut it = inner.into_inner().peekable();
                let name = ident(it.next().ok_or_else(internal)?);
                let field = match it.peek().map(|p| p.as_rule()) {
                    Some(Rule::set_field) => Some(ident(first(it.next().ok_or_else(internal)?)?)),
                    _ => None,
                };
                let index = match it.peek().map(|p| p.as_rule()) {
                    Some(Rule::expr) => Some(self.expr(it.next().ok_or_else(internal)?)?),
                    _ => None,
                };
                let op = match it.next().ok_or_else(internal)?.as_str() {
                    "+=" => AssignOp::Add,
                    "-=" => AssignOp::Sub,
                    _ => AssignOp::Assign,
                };
                let value = self.expr(it.next().ok_or_else(internal)?)?;
                StmtKind::Set {
                    name,
                    field,
                    index,
                    op,
                    value,
                }
            }
            Rule::repeat_stmt => {
                let mut it = inner.into_inner();
                let count = self.expr(it.next().ok_or_else(internal)?)?;
                let body = self.block(it.next().ok_or_else(internal)?)?;
                StmtKind::Repeat { count, body }
            }
            Rule::for_stmt => {
                let mut it = inner.into_inner();
                let var = ident(it.next().ok_or_else(internal)?);
                let iter = self.expr(it.next().ok_or_else(internal)?)?;
                let mut next = it.next().ok_or_else(internal)?;
                let mut filter = None;
                if next.as_rule() == Rule::for_where {
                    filter = Some(self.expr(first(next)?)?);
                    next = it.next().ok_or_else(internal)?;
                }
                let body = self.block(next)?;
                StmtKind::For {
                    var,
                    iter,
                    filter,
                    body,
                }
            }
            Rule::break_stmt => StmtKind::Break,
            Rule::return_stmt => match inner.into_inner().next() {
                Some(e) => StmtKind::Return(Some(self.expr(e)?)),
                None => StmtKind::Return(None),
            },
            Rule::emit_stmt => {
                let mut it = inner.into_inner();
                let kind = string_lit(it.next().ok_or_else(internal)?)?;
                let mut fields = Vec::new();
                for f in it {
                    let mut fi = f.into_inner();
                    let name = ident(fi.next().ok_or_else(internal)?);
                    let value = self.expr(fi.next().ok_or_else(internal)?)?;
                    fields.push((name, value));
                }
                StmtKind::Emit { kind, fields }
            }
            Rule::expr => StmtKind::Expr(self.expr(inner)?),
            _ => return Err(internal()),
        };
        Ok(Stmt { kind, span })
    }

    /// Builds an expression. Precedence levels that hold a single operand (and
    /// parentheses, which only group) are passed through in a loop, not by recursion, so
    /// the builder recurses once per node of the tree, not once per grammar rule.
    fn expr(&mut self, p: Pair<'_, Rule>) -> Result<Expr, ParseError> {
        let p = skip_single(p);
        let span = span_of(&p);
        self.enter(span)?;
        let e = self.expr_inner(p)?;
        self.depth -= 1;
        Ok(e)
    }

    /// One node. Each kind of node is built by its own function, so that this one, which
    /// is on the stack once per level of nesting, keeps a small stack frame.
    fn expr_inner(&mut self, p: Pair<'_, Rule>) -> Result<Expr, ParseError> {
        match p.as_rule() {
            Rule::or_expr | Rule::and_expr | Rule::sum_expr | Rule::prod_expr | Rule::cmp_expr => {
                self.binary_chain(p)
            }
            Rule::not_expr | Rule::unary => self.unary(p),
            Rule::postfix => self.postfix(p),
            Rule::int | Rule::bool_lit | Rule::none_lit | Rule::string | Rule::ident => literal(p),
            Rule::list_lit => self.list_lit(p),
            Rule::block => self.block_expr(p),
            Rule::if_expr => self.if_expr(p),
            Rule::match_expr => self.match_expr(p),
            Rule::choose_expr => self.choose_expr(p),
            Rule::roll_expr => self.roll_expr(p),
            Rule::modifiers_expr => self.modifiers_expr(p),
            Rule::quant_expr => self.quant_expr(p),
            Rule::hook_expr => self.hook_expr(p),
            Rule::call => {
                let span = span_of(&p);
                let mut it = p.into_inner();
                let name = ident(it.next().ok_or_else(internal)?);
                let args = self.args(it.next().ok_or_else(internal)?)?;
                Ok(Expr {
                    kind: ExprKind::Call { name, args },
                    span,
                })
            }
            _ => Err(internal()),
        }
    }

    /// Goes `extra` levels deeper for the duration of `f`: a chain of `n` operators
    /// (`a + b + c`, `not not x`, `x.a.b`) nests the tree `n` levels deep.
    fn nested<T>(
        &mut self,
        extra: usize,
        span: Span,
        f: impl FnOnce(&mut Self) -> Result<T, ParseError>,
    ) -> Result<T, ParseError> {
        self.depth += extra;
        if self.depth > MAX_TREE_DEPTH {
            return Err(ParseError::TooDeep {
                limit: MAX_TREE_DEPTH,
                what: Nesting::Tree,
                span,
            });
        }
        let r = f(self)?;
        self.depth -= extra;
        Ok(r)
    }

    fn unary(&mut self, p: Pair<'_, Rule>) -> Result<Expr, ParseError> {
        let mut ops = Vec::new();
        let mut operand = None;
        for q in p.into_inner() {
            match q.as_rule() {
                Rule::not_op => ops.push((UnOp::Not, span_of(&q))),
                Rule::neg_op if q.as_str() == "-" => ops.push((UnOp::Neg, span_of(&q))),
                Rule::neg_op => ops.push((UnOp::Plus, span_of(&q))),
                _ => operand = Some(q),
            }
        }
        let operand = operand.ok_or_else(internal)?;
        let mut e = self.nested(ops.len(), span_of(&operand), |b| b.expr(operand))?;
        for (op, op_span) in ops.into_iter().rev() {
            let s = Span::new(op_span.start, e.span.end);
            e = Expr {
                kind: ExprKind::Unary {
                    op,
                    expr: Box::new(e),
                },
                span: s,
            };
        }
        Ok(e)
    }

    fn postfix(&mut self, p: Pair<'_, Rule>) -> Result<Expr, ParseError> {
        let mut it = p.into_inner();
        let base = it.next().ok_or_else(internal)?;
        let ops: Vec<Pair<'_, Rule>> = it.collect();
        // The innermost node of the chain is its base.
        self.nested(ops.len(), span_of(&base), |b| {
            let mut e = b.expr(base)?;
            for op in ops {
                let s = Span::new(e.span.start, op.as_span().end());
                let kind = match op.as_rule() {
                    Rule::index_op => ExprKind::Index {
                        base: Box::new(e),
                        index: Box::new(b.expr(first(op)?)?),
                    },
                    Rule::field_op => ExprKind::Field {
                        base: Box::new(e),
                        field: ident(first(op)?),
                    },
                    _ => return Err(internal()),
                };
                e = Expr { kind, span: s };
            }
            Ok(e)
        })
    }

    fn list_lit(&mut self, p: Pair<'_, Rule>) -> Result<Expr, ParseError> {
        let span = span_of(&p);
        let items = p
            .into_inner()
            .map(|q| self.expr(q))
            .collect::<Result<_, _>>()?;
        Ok(Expr {
            kind: ExprKind::List(items),
            span,
        })
    }

    fn block_expr(&mut self, p: Pair<'_, Rule>) -> Result<Expr, ParseError> {
        let span = span_of(&p);
        Ok(Expr {
            kind: ExprKind::Block(self.block(p)?),
            span,
        })
    }

    fn modifiers_expr(&mut self, p: Pair<'_, Rule>) -> Result<Expr, ParseError> {
        let span = span_of(&p);
        let mut it = p.into_inner();
        let name = string_lit(it.next().ok_or_else(internal)?)?;
        let mut rows = Vec::new();
        for r in it {
            let mut ri = r.into_inner();
            let label = string_lit(ri.next().ok_or_else(internal)?)?;
            let value = self.expr(ri.next().ok_or_else(internal)?)?;
            let when = ri.next().map(|w| self.expr(w)).transpose()?;
            rows.push(ModRow { label, value, when });
        }
        Ok(Expr {
            kind: ExprKind::Modifiers { name, rows },
            span,
        })
    }

    fn quant_expr(&mut self, p: Pair<'_, Rule>) -> Result<Expr, ParseError> {
        let span = span_of(&p);
        let mut it = p.into_inner();
        let quant = match it.next().ok_or_else(internal)?.as_str() {
            "count" => Quant::Count,
            "any" => Quant::Any,
            _ => Quant::All,
        };
        let var = ident(it.next().ok_or_else(internal)?);
        let iter = Box::new(self.expr(it.next().ok_or_else(internal)?)?);
        let filter = it.next().map(|w| self.expr(w).map(Box::new)).transpose()?;
        Ok(Expr {
            kind: ExprKind::Quant {
                quant,
                var,
                iter,
                filter,
            },
            span,
        })
    }

    fn hook_expr(&mut self, p: Pair<'_, Rule>) -> Result<Expr, ParseError> {
        let span = span_of(&p);
        let mut it = p.into_inner();
        let name = ident(it.next().ok_or_else(internal)?);
        let args = self.args(it.next().ok_or_else(internal)?)?;
        Ok(Expr {
            kind: ExprKind::Hook { name, args },
            span,
        })
    }

    fn args(&mut self, p: Pair<'_, Rule>) -> Result<Vec<Expr>, ParseError> {
        p.into_inner().map(|q| self.expr(q)).collect()
    }

    /// Left-associative chains `a op b op c`; comparisons have at most one operator.
    fn binary_chain(&mut self, p: Pair<'_, Rule>) -> Result<Expr, ParseError> {
        let items: Vec<Pair<'_, Rule>> = p.into_inner().collect();
        let n_ops = items.len() / 2;
        // The innermost node of a left-associative chain is its first operand.
        let span = items.first().map(span_of).unwrap_or_default();
        self.nested(n_ops, span, |b| {
            let mut it = items.into_iter();
            let mut lhs = b.expr(it.next().ok_or_else(internal)?)?;
            while let Some(op) = it.next() {
                let op = binop(op.as_str())?;
                let rhs = b.expr(it.next().ok_or_else(internal)?)?;
                let span = Span::new(lhs.span.start, rhs.span.end);
                lhs = Expr {
                    kind: ExprKind::Binary {
                        op,
                        lhs: Box::new(lhs),
                        rhs: Box::new(rhs),
                    },
                    span,
                };
            }
            Ok(lhs)
        })
    }

    fn if_expr(&mut self, p: Pair<'_, Rule>) -> Result<Expr, ParseError> {
        let span = span_of(&p);
        let mut it = p.into_inner();
        let cond = Box::new(self.expr(it.next().ok_or_else(internal)?)?);
        let then = self.block(it.next().ok_or_else(internal)?)?;
        let otherwise = match it.next() {
            None => None,
            Some(q) if q.as_rule() == Rule::block => {
                let b = self.block(q)?;
                Some(Box::new(Expr {
                    span: b.span,
                    kind: ExprKind::Block(b),
                }))
            }
            Some(q) => {
                self.enter(span_of(&q))?;
                let e = self.if_expr(q)?;
                self.depth -= 1;
                Some(Box::new(e))
            }
        };
        Ok(Expr {
            kind: ExprKind::If {
                cond,
                then,
                otherwise,
            },
            span,
        })
    }

    fn match_expr(&mut self, p: Pair<'_, Rule>) -> Result<Expr, ParseError> {
        let span = span_of(&p);
        let mut it = p.into_inner();
        let scrutinee = Box::new(self.expr(it.next().ok_or_else(internal)?)?);
        let mut arms = Vec::new();
        for arm in it {
            let arm_span = span_of(&arm);
            let mut patterns = Vec::new();
            let mut value = None;
            let mut each = None;
            for q in arm.into_inner() {
                match q.as_rule() {
                    Rule::pattern => patterns.push(pattern(first(q)?)?),
                    Rule::each_head => each = Some(each_head(q)?),
                    _ => value = Some(self.expr(q)?),
                }
            }
            arms.push(MatchArm {
                patterns,
                value: value.ok_or_else(internal)?,
                span: arm_span,
                each,
            });
        }
        Ok(Expr {
            kind: ExprKind::Match { scrutinee, arms },
            span,
        })
    }

    fn choose_expr(&mut self, p: Pair<'_, Rule>) -> Result<Expr, ParseError> {
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

    fn roll_expr(&mut self, p: Pair<'_, Rule>) -> Result<Expr, ParseError> {
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

/// `for var in collection` at the head of an arm.
fn each_head(p: Pair<'_, Rule>) -> Result<Each, ParseError> {
    let mut it = p.into_inner();
    let var = ident(it.next().ok_or_else(internal)?);
    let collection = ident(it.next().ok_or_else(internal)?);
    Ok(Each { var, collection })
}

fn pattern(p: Pair<'_, Rule>) -> Result<Pattern, ParseError> {
    Ok(match p.as_rule() {
        Rule::wildcard => Pattern::Wildcard,
        Rule::range_pat => {
            let mut it = p.into_inner();
            let lo = int_value(&it.next().ok_or_else(internal)?)?;
            let hi = int_value(&it.next().ok_or_else(internal)?)?;
            Pattern::Range(lo, hi)
        }
        Rule::neg_int | Rule::int => Pattern::Int(int_value(&p)?),
        Rule::string => Pattern::Str(string_lit(p)?.value),
        Rule::bool_lit => Pattern::Bool(p.as_str() == "true"),
        _ => return Err(internal()),
    })
}

/// Skips the precedence levels that hold a single operand, and parentheses (which only
/// group: the tree keeps no trace of them; the printer puts back those the precedence
/// needs).
fn skip_single(mut p: Pair<'_, Rule>) -> Pair<'_, Rule> {
    loop {
        match p.as_rule() {
            Rule::expr
            | Rule::or_expr
            | Rule::and_expr
            | Rule::not_expr
            | Rule::cmp_expr
            | Rule::sum_expr
            | Rule::prod_expr
            | Rule::unary
            | Rule::postfix
            | Rule::primary
            | Rule::paren => {
                let mut inner = p.clone().into_inner();
                match (inner.next(), inner.next()) {
                    (Some(only), None) => p = only,
                    _ => return p,
                }
            }
            _ => return p,
        }
    }
}

fn literal(p: Pair<'_, Rule>) -> Result<Expr, ParseError> {
    let span = span_of(&p);
    let kind = match p.as_rule() {
        Rule::int => ExprKind::Int(int_value(&p)?),
        Rule::bool_lit => ExprKind::Bool(p.as_str() == "true"),
        Rule::none_lit => ExprKind::None,
        Rule::string => ExprKind::Str(string_lit(p)?.value),
        Rule::ident => ExprKind::Name(ident(p)),
        _ => return Err(internal()),
    };
    Ok(Expr { kind, span })
}

fn binop(s: &str) -> Result<BinOp, ParseError> {
    Ok(match s {
        "or" => BinOp::Or,
        "and" => BinOp::And,
        "==" => BinOp::Eq,
        "!=" => BinOp::Ne,
        "<" => BinOp::Lt,
        "<=" => BinOp::Le,
        ">" => BinOp::Gt,
        ">=" => BinOp::Ge,
        "in" => BinOp::In,
        "+" => BinOp::Add,
        "-" => BinOp::Sub,
        "|" => BinOp::Union,
        "&" => BinOp::Intersect,
        "*" => BinOp::Mul,
        "/" => BinOp::Div,
        "%" => BinOp::Rem,
        _ => return Err(internal()),
    })
}
