//! From text to [`ast`](crate::ast): pest parses, this module builds the tree.
//!
//! Before pest runs, [`check_nesting`] rejects code whose brackets nest deeper than
//! [`MAX_NESTING`](crate::limits::MAX_NESTING). Nesting that brackets do not show (an
//! `else if` chain, `roll d6 by roll d6 by ...`) is caught by pest's own stack guard,
//! reported as [`ParseError::TooDeep`] too. The builder then counts the depth of the tree
//! it builds (chains of operators included: `a + b + c` is a tree of depth 3) and stops at
//! `4 * MAX_NESTING`, so that no later recursive walk over the tree (printing, checking,
//! evaluating, dropping) can exhaust the stack either.

use pest::Parser as _;
#[cfg(test)]
use pest::error::ErrorVariant;
use pest::iterators::Pair;

use crate::ast::*;
use crate::error::ParseError;
use crate::limits::{MAX_CODE_BYTES, MAX_NESTING};

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
    let mut pairs = EffectParser::parse(rule, text).map_err(syntax_error)?;
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

fn syntax_error(e: pest::error::Error<Rule>) -> ParseError {
    use pest::error::{ErrorVariant, InputLocation};
    let span = match e.location {
        InputLocation::Pos(p) => Span::new(p, p),
        InputLocation::Span((a, b)) => Span::new(a, b),
    };
    let message = match &e.variant {
        // pest's own guard against running out of stack: code nested in a way the bracket
        // count does not see (`if .. else if ..` chains, `roll d6 by roll d6 by ..`).
        ErrorVariant::CustomError { message } if message.ends_with("limit reached") => {
            return ParseError::TooDeep {
                limit: MAX_NESTING,
                span,
            };
        }
        ErrorVariant::ParsingError {
            positives,
            negatives,
        } => {
            let mut want: Vec<&str> = positives.iter().map(|r| rule_name(*r)).collect();
            want.sort_unstable();
            want.dedup();
            let mut unwanted: Vec<&str> = negatives.iter().map(|r| rule_name(*r)).collect();
            unwanted.sort_unstable();
            unwanted.dedup();
            match (want.is_empty(), unwanted.is_empty()) {
                (false, _) => format!("expected {}", join_or(&want)),
                (true, false) => format!("unexpected {}", join_or(&unwanted)),
                (true, true) => "unexpected input".to_string(),
            }
        }
        ErrorVariant::CustomError { message } => message.clone(),
    };
    ParseError::Syntax { message, span }
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
        if self.depth > MAX_NESTING * 4 {
            return Err(ParseError::TooDeep {
                limit: MAX_NESTING,
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
                let body = self.block(it.next().ok_or_else(internal)?)?;
                StmtKind::For { var, iter, body }
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
        if self.depth > MAX_NESTING * 4 {
            return Err(ParseError::TooDeep {
                limit: MAX_NESTING,
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
                    Rule::call_args => {
                        let name = match e.kind {
                            ExprKind::Name(id) => id,
                            _ => {
                                return Err(ParseError::Syntax {
                                    message: "only a name can be called".into(),
                                    span: span_of(&op),
                                });
                            }
                        };
                        ExprKind::Call {
                            name,
                            args: b.args(op)?,
                        }
                    }
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
            for q in arm.into_inner() {
                match q.as_rule() {
                    Rule::pattern => patterns.push(pattern(first(q)?)?),
                    _ => value = Some(self.expr(q)?),
                }
            }
            arms.push(MatchArm {
                patterns,
                value: value.ok_or_else(internal)?,
                span: arm_span,
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
        let opts = it.next().ok_or_else(internal)?;
        let options = match opts.as_rule() {
            Rule::choose_from => {
                let mut oi = opts.into_inner();
                let options = Box::new(self.expr(oi.next().ok_or_else(internal)?)?);
                let skip = oi.next().map(string_lit).transpose()?;
                ChooseOptions::From { options, skip }
            }
            _ => {
                let mut arms = Vec::new();
                for arm in opts.into_inner() {
                    let mut ai: Vec<Pair<'_, Rule>> = arm.into_inner().collect();
                    let value = self.expr(ai.pop().ok_or_else(internal)?)?;
                    let guard = if ai.len() == 2 {
                        Some(self.expr(ai.pop().ok_or_else(internal)?)?)
                    } else {
                        None
                    };
                    let label = string_lit(ai.pop().ok_or_else(internal)?)?;
                    arms.push(ChooseArm {
                        label,
                        guard,
                        value,
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

#[cfg(test)]
mod probe {
    use super::*;
    #[test]
    fn attempts() {
        pest::set_error_detail(true);
        for entry in std::fs::read_dir("tests/fixtures/invalid").unwrap() {
            let path = entry.unwrap().path();
            let text = std::fs::read_to_string(&path).unwrap();
            if let Err(e) = EffectParser::parse(Rule::body, &text) {
                let a = e.parse_attempts().unwrap();
                println!("=== {} pos {:?} max {}", path.display(), e.location, a.max_position);
                println!("  expected {:?}", a.expected_tokens().iter().map(|t| t.to_string()).collect::<Vec<_>>());
                println!("  unexpected {:?}", a.unexpected_tokens().iter().map(|t| t.to_string()).collect::<Vec<_>>());
                println!("  stacks {:?}", a.call_stacks().iter().map(|c| (c.deepest.get_rule().copied(), c.parent)).collect::<Vec<_>>());
                if let ErrorVariant::ParsingError { positives, negatives } = &e.variant { println!("  pos {positives:?} neg {negatives:?}"); }
            }
        }
    }
}
