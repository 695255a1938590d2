//! From [`ast`](crate::ast) back to text.
//!
//! The printer writes parentheses wherever precedence needs them (the tree has none), ends
//! every statement with `;`, and indents blocks by two spaces. Parsing what it prints gives
//! back an equal tree (spans aside).

use crate::ast::*;

/// Prints a sequence of statements, as a procedure body.
pub fn print_body(b: &Block) -> String {
    let mut p = Printer::default();
    for (i, s) in b.stmts.iter().enumerate() {
        if i > 0 {
            p.line();
        }
        p.stmt(s);
    }
    p.out
}

/// Prints one expression.
pub fn print_expr(e: &Expr) -> String {
    let mut p = Printer::default();
    p.expr(e, 0);
    p.out
}

/// Quotes a string for the effect language.
pub fn quote(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        if c == '"' || c == '\\' {
            out.push('\\');
        }
        out.push(c);
    }
    out.push('"');
    out
}

#[derive(Default)]
struct Printer {
    out: String,
    indent: usize,
}

/// Precedence of unary `not` (between `and` and comparisons) and of unary `-`/`+`.
const NOT_PREC: u8 = 3;
const NEG_PREC: u8 = 7;
const ATOM: u8 = 9;

fn prec(e: &Expr) -> u8 {
    match &e.kind {
        ExprKind::Binary { op, .. } => op.precedence(),
        ExprKind::Unary { op: UnOp::Not, .. } => NOT_PREC,
        ExprKind::Unary { .. } => NEG_PREC,
        // Keyword expressions that end in an open expression (`roll 2d6 by t`, `count x in
        // s where c`, `choose ... from s prefer x => e`) are grouped as operands. Those that
        // end in a closing brace (`if`, `match`, `modifiers`, a block) are not: a bracket
        // the text did not have could take the nesting past its limit, and the printed
        // text would no longer parse.
        ExprKind::Choose { .. } | ExprKind::Roll { .. } | ExprKind::Quant { .. } => 0,
        _ => ATOM,
    }
}

impl Printer {
    fn line(&mut self) {
        self.out.push('\n');
        for _ in 0..self.indent {
            self.out.push_str("  ");
        }
    }

    fn block(&mut self, b: &Block) {
        if b.stmts.is_empty() {
            self.out.push_str("{ }");
            return;
        }
        self.out.push('{');
        self.indent += 1;
        for s in &b.stmts {
            self.line();
            self.stmt(s);
        }
        self.indent -= 1;
        self.line();
        self.out.push('}');
    }

    fn stmt(&mut self, s: &Stmt) {
        match &s.kind {
            StmtKind::Let { pattern, value } => {
                self.out.push_str("let ");
                match pattern {
                    LetPattern::Name(n) => self.out.push_str(&n.name),
                    LetPattern::Pair(a, b) => {
                        self.out.push_str(&format!("({}, {})", a.name, b.name));
                    }
                }
                self.out.push_str(" = ");
                self.expr(value, 0);
            }
            StmtKind::Set {
                name,
                field,
                index,
                op,
                value,
            } => {
                self.out.push_str("set ");
                self.out.push_str(&name.name);
                if let Some(f) = field {
                    self.out.push('.');
                    self.out.push_str(&f.name);
                }
                if let Some(i) = index {
                    self.out.push('[');
                    self.expr(i, 0);
                    self.out.push(']');
                }
                self.out.push_str(match op {
                    AssignOp::Assign => " = ",
                    AssignOp::Add => " += ",
                    AssignOp::Sub => " -= ",
                });
                self.expr(value, 0);
            }
            StmtKind::Repeat { count, body } => {
                self.out.push_str("repeat ");
                self.expr(count, 0);
                self.out.push(' ');
                self.block(body);
            }
            StmtKind::For {
                var,
                iter,
                filter,
                body,
            } => {
                self.out.push_str(&format!("for {} in ", var.name));
                // `any x in c` would take the loop's `where` as its own.
                let quant = matches!(iter.kind, ExprKind::Quant { .. });
                if filter.is_some() && quant {
                    self.out.push('(');
                }
                self.expr(iter, 0);
                if filter.is_some() && quant {
                    self.out.push(')');
                }
                if let Some(f) = filter {
                    self.out.push_str(" where ");
                    self.expr(f, 0);
                }
                self.out.push(' ');
                self.block(body);
            }
            StmtKind::Break => self.out.push_str("break"),
            StmtKind::Return(v) => {
                self.out.push_str("return");
                if let Some(v) = v {
                    self.out.push(' ');
                    self.expr(v, 0);
                }
            }
            StmtKind::Emit { kind, fields } => {
                self.out.push_str("emit ");
                self.out.push_str(&quote(&kind.value));
                if !fields.is_empty() {
                    self.out.push_str(" { ");
                    for (i, (n, v)) in fields.iter().enumerate() {
                        if i > 0 {
                            self.out.push_str(", ");
                        }
                        self.out.push_str(&n.name);
                        self.out.push_str(": ");
                        self.expr(v, 0);
                    }
                    self.out.push_str(" }");
                }
            }
            StmtKind::Expr(e) => self.expr(e, 0),
        }
        self.out.push(';');
    }

    /// Prints `e`, in parentheses when it binds looser than `min`.
    /// A prompt's or note's text, quoted: `"text {value}"`.
    fn prompt_text(&mut self, p: &crate::ast::Prompt) {
        self.out.push('"');
        for part in &p.parts {
            match part {
                crate::ast::PromptPart::Text(t) => {
                    self.out.push_str(&crate::parser::escape_prompt(t));
                }
                crate::ast::PromptPart::Value(v) => {
                    self.out.push('{');
                    let at = self.out.len();
                    self.expr(v, 0);
                    // `{{` would be a brace: a block value is set apart.
                    if self.out[at..].starts_with('{') {
                        self.out.insert(at, ' ');
                    }
                    self.out.push('}');
                }
            }
        }
        self.out.push('"');
    }

    fn expr(&mut self, e: &Expr, min: u8) {
        let wrap = prec(e) < min;
        if wrap {
            self.out.push('(');
        }
        self.expr_bare(e);
        if wrap {
            self.out.push(')');
        }
    }

    fn list(&mut self, items: &[Expr]) {
        for (i, a) in items.iter().enumerate() {
            if i > 0 {
                self.out.push_str(", ");
            }
            self.expr(a, 0);
        }
    }

    fn expr_bare(&mut self, e: &Expr) {
        match &e.kind {
            ExprKind::Int(n) => self.out.push_str(&n.to_string()),
            ExprKind::Bool(b) => self.out.push_str(if *b { "true" } else { "false" }),
            ExprKind::Str(s) => self.out.push_str(&quote(s)),
            ExprKind::None => self.out.push_str("none"),
            ExprKind::Name(n) => self.out.push_str(&n.name),
            ExprKind::List(items) => {
                self.out.push('[');
                self.list(items);
                self.out.push(']');
            }
            ExprKind::Call { name, args } => {
                self.out.push_str(&name.name);
                self.out.push('(');
                self.list(args);
                self.out.push(')');
            }
            ExprKind::Index { base, index } => {
                self.expr(base, ATOM);
                self.out.push('[');
                self.expr(index, 0);
                self.out.push(']');
            }
            ExprKind::Field { base, field } => {
                self.expr(base, ATOM);
                self.out.push('.');
                self.out.push_str(&field.name);
            }
            ExprKind::Unary { op, expr } => {
                let (text, operand_min) = match op {
                    UnOp::Not => ("not ", NOT_PREC),
                    UnOp::Neg => ("-", NEG_PREC),
                    UnOp::Plus => ("+", NEG_PREC),
                };
                self.out.push_str(text);
                self.expr(expr, operand_min);
            }
            ExprKind::Binary { op, lhs, rhs } => {
                let p = op.precedence();
                // Left-associative; comparisons do not chain, so both sides bind tighter.
                let lhs_min = if p == 4 { p + 1 } else { p };
                self.expr(lhs, lhs_min);
                self.out.push(' ');
                self.out.push_str(op.symbol());
                self.out.push(' ');
                self.expr(rhs, p + 1);
            }
            ExprKind::If {
                cond,
                then,
                otherwise,
            } => {
                self.out.push_str("if ");
                self.expr(cond, 1);
                self.out.push(' ');
                self.block(then);
                if let Some(o) = otherwise {
                    self.out.push_str(" else ");
                    match &o.kind {
                        ExprKind::If { .. } => self.expr_bare(o),
                        ExprKind::Block(b) => self.block(b),
                        _ => {
                            // Not produced by the parser; print it as a one-statement block.
                            self.out.push_str("{ ");
                            self.expr(o, 0);
                            self.out.push_str(" }");
                        }
                    }
                }
            }
            ExprKind::Match { scrutinee, arms } => {
                self.out.push_str("match ");
                self.expr(scrutinee, 1);
                self.out.push_str(" {");
                self.indent += 1;
                for arm in arms {
                    self.line();
                    if let Some(e) = &arm.each {
                        self.out
                            .push_str(&format!("for {} in {}", e.var.name, e.collection.name));
                    }
                    for (i, p) in arm.patterns.iter().enumerate() {
                        if i > 0 {
                            self.out.push_str(" | ");
                        }
                        self.pattern(p);
                    }
                    self.out.push_str(" => ");
                    self.expr(&arm.value, 0);
                    self.out.push(',');
                }
                self.indent -= 1;
                self.line();
                self.out.push('}');
            }
            ExprKind::Choose {
                kind,
                by,
                secret,
                prompt,
                options,
            } => {
                self.out.push_str("choose ");
                self.out.push_str(&quote(&kind.value));
                self.out.push_str(" by ");
                self.expr(by, 1);
                if *secret {
                    self.out.push_str(" secret");
                }
                if let Some(p) = prompt {
                    self.out.push_str(" prompt ");
                    self.prompt_text(p);
                }
                match options {
                    ChooseOptions::From {
                        options,
                        skip,
                        note,
                        prefer,
                    } => {
                        self.out.push_str(" from ");
                        self.expr(options, 1);
                        if let Some(s) = skip {
                            self.out.push_str(" skip ");
                            self.out.push_str(&quote(&s.value));
                        }
                        if let Some((var, text)) = note.as_deref() {
                            self.out.push_str(" note ");
                            self.out.push_str(&var.name);
                            self.out.push_str(" => ");
                            self.prompt_text(text);
                        }
                        if let Some((var, score)) = prefer {
                            self.out.push_str(" prefer ");
                            self.out.push_str(&var.name);
                            self.out.push_str(" => ");
                            self.expr(score, 1);
                        }
                    }
                    ChooseOptions::Arms(arms) => {
                        self.out.push_str(" {");
                        self.indent += 1;
                        for arm in arms {
                            self.line();
                            match &arm.each {
                                Some(e) => self.out.push_str(&format!(
                                    "for {} in {}",
                                    e.var.name, e.collection.name
                                )),
                                None => self.out.push_str(&quote(&arm.label.value)),
                            }
                            if let Some(g) = &arm.guard {
                                self.out.push_str(" when ");
                                self.expr(g, 1);
                            }
                            if let Some(p) = &arm.prefer {
                                self.out.push_str(" prefer ");
                                self.expr(p, 1);
                            }
                            self.out.push_str(" => ");
                            self.expr(&arm.value, 0);
                            self.out.push(',');
                        }
                        self.indent -= 1;
                        self.line();
                        self.out.push('}');
                    }
                }
            }
            ExprKind::Roll {
                count,
                sides,
                keep,
                by,
                label,
            } => {
                self.out.push_str("roll ");
                if *count != 1 {
                    self.out.push_str(&count.to_string());
                }
                self.out.push('d');
                self.out.push_str(&sides.to_string());
                if let Some((k, n)) = keep {
                    self.out.push_str(match k {
                        Keep::Highest => " keep highest ",
                        Keep::Lowest => " keep lowest ",
                    });
                    self.out.push_str(&n.to_string());
                }
                if let Some(b) = by {
                    self.out.push_str(" by ");
                    self.expr(b, 1);
                }
                if let Some(l) = label {
                    self.out.push_str(" as ");
                    self.out.push_str(&quote(&l.value));
                }
            }
            ExprKind::Modifiers { name, rows } => {
                self.out.push_str("modifiers ");
                self.out.push_str(&quote(&name.value));
                self.out.push_str(" {");
                self.indent += 1;
                for row in rows {
                    self.line();
                    self.out.push_str(&quote(&row.label.value));
                    self.out.push_str(": ");
                    self.expr(&row.value, 1);
                    if let Some(w) = &row.when {
                        self.out.push_str(" when ");
                        self.expr(w, 1);
                    }
                    self.out.push(',');
                }
                self.indent -= 1;
                self.line();
                self.out.push('}');
            }
            ExprKind::Quant {
                quant,
                var,
                iter,
                filter,
            } => {
                self.out.push_str(match quant {
                    Quant::Count => "count ",
                    Quant::Any => "any ",
                    Quant::All => "all ",
                });
                self.out.push_str(&var.name);
                self.out.push_str(" in ");
                self.expr(iter, 1);
                if let Some(f) = filter {
                    self.out.push_str(" where ");
                    self.expr(f, 1);
                }
            }
            ExprKind::Hook { name, args } => {
                self.out.push_str("hook ");
                self.out.push_str(&name.name);
                self.out.push('(');
                self.list(args);
                self.out.push(')');
            }
            ExprKind::Block(b) => self.block(b),
        }
    }

    fn pattern(&mut self, p: &Pattern) {
        match p {
            Pattern::Wildcard => self.out.push('_'),
            Pattern::Int(n) => self.out.push_str(&n.to_string()),
            Pattern::Range(a, b) => self.out.push_str(&format!("{a}..{b}")),
            Pattern::Str(s) => self.out.push_str(&quote(s)),
            Pattern::Bool(b) => self.out.push_str(if *b { "true" } else { "false" }),
        }
    }
}
