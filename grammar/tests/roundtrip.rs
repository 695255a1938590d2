//! Printing a tree and parsing the text gives back the same tree (spans aside: `Span`
//! equality always holds).
//!
//! The trees are arbitrary: every statement and expression kind, every operator, pattern,
//! choice form and roll form, with names that are valid identifiers (some of them starting
//! with a keyword), strings with quotes, backslashes and brackets in them, and a bounded
//! depth that stays under the parser's nesting limits.

use fuba_grammar::ast::*;
use fuba_grammar::limits::MAX_NESTING;
use fuba_grammar::print::{print_body, print_expr};
use fuba_grammar::{KEYWORDS, parse_body, parse_expression};
use proptest::prelude::*;
use proptest::test_runner::FileFailurePersistence;

fn sp() -> Span {
    Span::default()
}

fn name() -> impl Strategy<Value = String> {
    prop_oneof![
        4 => "[A-Za-z_][A-Za-z0-9_]{0,5}",
        // A keyword with something after it is a name: `notx`, `in_`, `true1`, `d6`.
        1 => (prop::sample::select(KEYWORDS), "[A-Za-z0-9_]{1,2}")
            .prop_map(|(k, rest)| format!("{k}{rest}")),
        1 => (1u32..20).prop_map(|n| format!("d{n}")),
        // Words of a construct that are not keywords: `count(t, s)`, `highest(r)`.
        1 => prop::sample::select(vec!["count", "any", "all", "highest", "lowest"])
            .prop_map(String::from),
    ]
    .prop_filter("not a keyword", |n| !KEYWORDS.contains(&n.as_str()))
}

fn ident() -> impl Strategy<Value = Ident> {
    name().prop_map(|name| Ident { name, span: sp() })
}

fn string() -> impl Strategy<Value = String> {
    let ch = prop_oneof![
        4 => "[^\n]",
        1 => prop::sample::select(vec!['"', '\\', '{', '}', '(', ')', '[', ']', '#', '\r', '\t', ' '])
            .prop_map(String::from),
    ];
    prop::collection::vec(ch, 0..8).prop_map(|v| v.concat())
}

fn str_lit() -> impl Strategy<Value = StrLit> {
    string().prop_map(|value| StrLit { value, span: sp() })
}

fn int() -> impl Strategy<Value = i64> {
    prop_oneof![3 => 0i64..100, 1 => 0i64..=i64::MAX, 1 => Just(i64::MAX)]
}

fn e(kind: ExprKind) -> Expr {
    Expr { kind, span: sp() }
}

fn bx(x: Expr) -> Box<Expr> {
    Box::new(x)
}

fn pattern() -> impl Strategy<Value = Pattern> {
    prop_oneof![
        Just(Pattern::Wildcard),
        any::<i64>().prop_map(Pattern::Int),
        (-10i64..10).prop_map(Pattern::Int),
        (any::<i64>(), any::<i64>()).prop_map(|(a, b)| Pattern::Range(a, b)),
        (-10i64..10, -10i64..10).prop_map(|(a, b)| Pattern::Range(a, b)),
        string().prop_map(Pattern::Str),
        any::<bool>().prop_map(Pattern::Bool),
    ]
}

fn binop() -> impl Strategy<Value = BinOp> {
    prop::sample::select(vec![
        BinOp::Or,
        BinOp::And,
        BinOp::Eq,
        BinOp::Ne,
        BinOp::Lt,
        BinOp::Le,
        BinOp::Gt,
        BinOp::Ge,
        BinOp::In,
        BinOp::Add,
        BinOp::Sub,
        BinOp::Union,
        BinOp::Intersect,
        BinOp::Mul,
        BinOp::Div,
        BinOp::Rem,
    ])
}

fn unop() -> impl Strategy<Value = UnOp> {
    prop::sample::select(vec![UnOp::Not, UnOp::Neg, UnOp::Plus])
}

fn quant() -> impl Strategy<Value = Quant> {
    prop::sample::select(vec![Quant::Count, Quant::Any, Quant::All])
}

/// `roll NdS [keep highest|lowest k] [by e] [as "label"]`, count 1..=8, sides 2..=100,
/// 1 <= k <= count.
fn roll(by: BoxedStrategy<Expr>) -> impl Strategy<Value = Expr> {
    (1u32..=8, 2u32..=100)
        .prop_flat_map(move |(count, sides)| {
            let keep = prop::option::of((
                prop::sample::select(vec![Keep::Highest, Keep::Lowest]),
                1..=count,
            ));
            (
                Just(count),
                Just(sides),
                keep,
                prop::option::of(by.clone()),
                prop::option::of(str_lit()),
            )
        })
        .prop_map(|(count, sides, keep, by, label)| {
            e(ExprKind::Roll {
                count,
                sides,
                keep,
                by: by.map(bx),
                label,
            })
        })
}

fn leaf() -> BoxedStrategy<Expr> {
    prop_oneof![
        int().prop_map(|n| e(ExprKind::Int(n))),
        any::<bool>().prop_map(|b| e(ExprKind::Bool(b))),
        string().prop_map(|s| e(ExprKind::Str(s))),
        Just(e(ExprKind::None)),
        ident().prop_map(|n| e(ExprKind::Name(n))),
        ident().prop_map(|n| e(ExprKind::Name(n))),
        roll(ident().prop_map(|n| e(ExprKind::Name(n))).boxed()),
    ]
    .boxed()
}

/// Statements whose parts are expressions from `x` and blocks from `blk`.
fn stmt_with(x: BoxedStrategy<Expr>, blk: BoxedStrategy<Block>) -> BoxedStrategy<Stmt> {
    let kind = prop_oneof![
        (ident(), x.clone()).prop_map(|(n, value)| StmtKind::Let {
            pattern: LetPattern::Name(n),
            value
        }),
        (ident(), ident(), x.clone()).prop_map(|(a, b, value)| StmtKind::Let {
            pattern: LetPattern::Pair(a, b),
            value
        }),
        (
            ident(),
            prop::option::of(ident()),
            prop::option::of(x.clone()),
            prop::sample::select(vec![AssignOp::Assign, AssignOp::Add, AssignOp::Sub]),
            x.clone()
        )
            .prop_map(|(name, field, index, op, value)| StmtKind::Set {
                name,
                field,
                index,
                op,
                value
            }),
        (x.clone(), blk.clone()).prop_map(|(count, body)| StmtKind::Repeat { count, body }),
        (ident(), x.clone(), prop::option::of(x.clone()), blk).prop_map(
            |(var, iter, filter, body)| {
                StmtKind::For {
                    var,
                    iter,
                    filter,
                    body,
                }
            }
        ),
        Just(StmtKind::Break),
        prop::option::of(x.clone()).prop_map(StmtKind::Return),
        (str_lit(), prop::collection::vec((ident(), x.clone()), 0..3))
            .prop_map(|(kind, fields)| StmtKind::Emit { kind, fields }),
        x.clone().prop_map(StmtKind::Expr),
        x.prop_map(StmtKind::Expr),
    ];
    kind.prop_map(|kind| Stmt { kind, span: sp() }).boxed()
}

fn block_of(s: BoxedStrategy<Stmt>) -> BoxedStrategy<Block> {
    prop::collection::vec(s, 0..4)
        .prop_map(|stmts| Block { stmts, span: sp() })
        .boxed()
}

/// Blocks whose statements hold expressions from `x`; loop bodies inside them hold
/// simple statements only (deeper blocks come from block expressions in `x`).
fn block(x: BoxedStrategy<Expr>) -> BoxedStrategy<Block> {
    let flat = block_of(stmt_with(
        x.clone(),
        Just(Block {
            stmts: vec![],
            span: sp(),
        })
        .boxed(),
    ));
    block_of(stmt_with(x, flat))
}

/// `if c { } [else { } | else if ...]`: the parser gives an `else` a block or an `if`.
fn if_expr(x: BoxedStrategy<Expr>, blk: BoxedStrategy<Block>) -> BoxedStrategy<Expr> {
    let last_else = prop::option::of(blk.clone().prop_map(|b| bx(e(ExprKind::Block(b)))));
    let else_if = (x.clone(), blk.clone(), last_else).prop_map(|(cond, then, otherwise)| {
        bx(e(ExprKind::If {
            cond: bx(cond),
            then,
            otherwise,
        }))
    });
    let otherwise = prop_oneof![
        Just(None),
        blk.clone().prop_map(|b| Some(bx(e(ExprKind::Block(b))))),
        else_if.prop_map(Some),
    ];
    (x, blk, otherwise)
        .prop_map(|(cond, then, otherwise)| {
            e(ExprKind::If {
                cond: bx(cond),
                then,
                otherwise,
            })
        })
        .boxed()
}

fn expr() -> BoxedStrategy<Expr> {
    leaf()
        .prop_recursive(8, 96, 4, |inner| {
            let x = inner.boxed();
            let blk = block(x.clone());
            let args = prop::collection::vec(x.clone(), 0..3);
            prop_oneof![
                args.clone().prop_map(|v| e(ExprKind::List(v))),
                (ident(), args.clone()).prop_map(|(name, args)| e(ExprKind::Call { name, args })),
                (x.clone(), x.clone()).prop_map(|(b, i)| e(ExprKind::Index {
                    base: bx(b),
                    index: bx(i)
                })),
                (x.clone(), ident())
                    .prop_map(|(b, field)| e(ExprKind::Field { base: bx(b), field })),
                (unop(), x.clone()).prop_map(|(op, v)| e(ExprKind::Unary { op, expr: bx(v) })),
                (unop(), x.clone()).prop_map(|(op, v)| e(ExprKind::Unary { op, expr: bx(v) })),
                (binop(), x.clone(), x.clone()).prop_map(|(op, l, r)| e(ExprKind::Binary {
                    op,
                    lhs: bx(l),
                    rhs: bx(r)
                })),
                (binop(), x.clone(), x.clone()).prop_map(|(op, l, r)| e(ExprKind::Binary {
                    op,
                    lhs: bx(l),
                    rhs: bx(r)
                })),
                if_expr(x.clone(), blk.clone()),
                (
                    x.clone(),
                    prop::collection::vec(
                        (prop::collection::vec(pattern(), 1..3), x.clone()),
                        0..4
                    )
                )
                    .prop_map(|(s, arms)| e(ExprKind::Match {
                        scrutinee: bx(s),
                        arms: arms
                            .into_iter()
                            .map(|(patterns, value)| MatchArm {
                                patterns,
                                value,
                                span: sp(),
                                each: None
                            })
                            .collect()
                    })),
                (
                    str_lit(),
                    x.clone(),
                    any::<bool>(),
                    x.clone(),
                    prop::option::of(str_lit()),
                    prop::option::of((ident(), x.clone())),
                    prop::option::of((string(), x.clone(), string())),
                    prop::option::of((ident(), string()))
                )
                    .prop_map(
                        |(kind, by, secret, options, skip, prefer, prompt, note)| e(
                            ExprKind::Choose {
                                kind,
                                by: bx(by),
                                secret,
                                prompt: prompt.map(|(a, v, b)| {
                                    let mut parts = Vec::new();
                                    if !a.is_empty() {
                                        parts.push(PromptPart::Text(a));
                                    }
                                    parts.push(PromptPart::Value(Box::new(v)));
                                    if !b.is_empty() {
                                        parts.push(PromptPart::Text(b));
                                    }
                                    Box::new(Prompt { parts, span: sp() })
                                }),
                                options: ChooseOptions::From {
                                    options: bx(options),
                                    skip,
                                    note: note.map(|(v, t)| {
                                        let parts = if t.is_empty() {
                                            Vec::new()
                                        } else {
                                            vec![PromptPart::Text(t)]
                                        };
                                        Box::new((v, Prompt { parts, span: sp() }))
                                    }),
                                    prefer: prefer.map(|(v, p)| (v, bx(p)))
                                }
                            }
                        )
                    ),
                (
                    str_lit(),
                    x.clone(),
                    any::<bool>(),
                    prop::collection::vec(
                        (
                            str_lit(),
                            prop::option::of(x.clone()),
                            prop::option::of(x.clone()),
                            x.clone()
                        ),
                        0..4
                    )
                )
                    .prop_map(|(kind, by, secret, arms)| e(ExprKind::Choose {
                        kind,
                        by: bx(by),
                        secret,
                        prompt: None,
                        options: ChooseOptions::Arms(
                            arms.into_iter()
                                .map(|(label, guard, prefer, value)| ChooseArm {
                                    label,
                                    guard,
                                    prefer,
                                    value,
                                    each: None
                                })
                                .collect()
                        )
                    })),
                roll(x.clone()),
                (
                    str_lit(),
                    prop::collection::vec(
                        (str_lit(), x.clone(), prop::option::of(x.clone())),
                        0..4
                    )
                )
                    .prop_map(|(name, rows)| e(ExprKind::Modifiers {
                        name,
                        rows: rows
                            .into_iter()
                            .map(|(label, value, when)| ModRow { label, value, when })
                            .collect()
                    })),
                (quant(), ident(), x.clone(), prop::option::of(x.clone())).prop_map(
                    |(quant, var, iter, filter)| e(ExprKind::Quant {
                        quant,
                        var,
                        iter: bx(iter),
                        filter: filter.map(bx)
                    })
                ),
                (ident(), args).prop_map(|(name, args)| e(ExprKind::Hook { name, args })),
                blk.prop_map(|b| e(ExprKind::Block(b))),
            ]
        })
        .boxed()
}

/// Operators only, over small leaves: dense coverage of precedence and associativity.
fn operators() -> BoxedStrategy<Expr> {
    let atom = prop_oneof![
        (0i64..10).prop_map(|n| e(ExprKind::Int(n))),
        ident().prop_map(|n| e(ExprKind::Name(n))),
        Just(e(ExprKind::Bool(true))),
        roll(Just(e(ExprKind::None)).boxed()),
        (1u32..3).prop_map(|n| e(ExprKind::Quant {
            quant: Quant::Any,
            var: Ident {
                name: format!("d{n}"),
                span: sp()
            },
            iter: bx(e(ExprKind::Name(Ident {
                name: "r".into(),
                span: sp()
            }))),
            filter: None,
        })),
    ];
    atom.prop_recursive(6, 64, 2, |inner| {
        let x = inner.boxed();
        prop_oneof![
            1 => (unop(), x.clone()).prop_map(|(op, v)| e(ExprKind::Unary { op, expr: bx(v) })),
            3 => (binop(), x.clone(), x.clone()).prop_map(|(op, l, r)| e(ExprKind::Binary {
                op,
                lhs: bx(l),
                rhs: bx(r)
            })),
            1 => (x.clone(), x.clone()).prop_map(|(b, i)| e(ExprKind::Index {
                base: bx(b),
                index: bx(i)
            })),
            1 => (x, ident()).prop_map(|(b, field)| e(ExprKind::Field { base: bx(b), field })),
        ]
    })
    .boxed()
}

fn body() -> BoxedStrategy<Block> {
    let x = expr();
    let flat = block_of(stmt_with(
        x.clone(),
        Just(Block {
            stmts: vec![],
            span: sp(),
        })
        .boxed(),
    ));
    prop::collection::vec(stmt_with(x, flat), 1..6)
        .prop_map(|stmts| Block { stmts, span: sp() })
        .boxed()
}

/// The deepest bracket nesting of printed code, strings and comments aside (the measure
/// the parser's limit applies to).
fn bracket_depth(text: &str) -> usize {
    let (mut depth, mut max) = (0usize, 0usize);
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        match c {
            '"' => {
                while let Some(c) = chars.next() {
                    match c {
                        '\\' => {
                            chars.next();
                        }
                        '"' => break,
                        _ => {}
                    }
                }
            }
            '(' | '[' | '{' => {
                depth += 1;
                max = max.max(depth);
            }
            ')' | ']' | '}' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    max
}

/// 512 cases, failures kept in `proptest-regressions/roundtrip.txt` (relative to the
/// package directory, where `cargo test` runs integration tests).
fn config() -> ProptestConfig {
    ProptestConfig {
        cases: 512,
        failure_persistence: Some(Box::new(FileFailurePersistence::Direct(
            "proptest-regressions/roundtrip.txt",
        ))),
        ..ProptestConfig::default()
    }
}

/// Runs a property on a thread with a large stack: generating the deepest trees recurses
/// through proptest's strategies far deeper than the tree, and a debug build's frames
/// outgrew the test thread's 2 MiB now and then (a stack overflow in the generator, not in
/// the parser).
fn on_large_stack(property: fn()) {
    let worker = std::thread::Builder::new()
        .stack_size(64 << 20)
        .spawn(property)
        .expect("a test thread starts");
    if let Err(panic) = worker.join() {
        std::panic::resume_unwind(panic);
    }
}

#[test]
fn body_roundtrip() {
    on_large_stack(|| {
        proptest!(config(), |(ast in body())| {
            let text = print_body(&ast);
            prop_assert!(bracket_depth(&text) <= MAX_NESTING, "generated code too deep:\n{}", text);
            let parsed = parse_body(&text);
            prop_assert_eq!(parsed, Ok(ast), "printed:\n{}", text);
        });
    });
}

#[test]
fn expr_roundtrip() {
    on_large_stack(|| {
        proptest!(config(), |(ast in expr())| {
            let text = print_expr(&ast);
            prop_assert!(bracket_depth(&text) <= MAX_NESTING, "generated code too deep:\n{}", text);
            let parsed = parse_expression(&text);
            prop_assert_eq!(parsed, Ok(ast), "printed:\n{}", text);
        });
    });
}

#[test]
fn operators_roundtrip() {
    on_large_stack(|| {
        proptest!(config(), |(ast in operators())| {
            let text = print_expr(&ast);
            let parsed = parse_expression(&text);
            prop_assert_eq!(parsed, Ok(ast), "printed:\n{}", text);
        });
    });
}

/// Printing is a fixed point: the printer's output printed again is the same text.
#[test]
fn print_is_stable() {
    on_large_stack(|| {
        proptest!(config(), |(ast in body())| {
            let text = print_body(&ast);
            let again = parse_body(&text).map(|b| print_body(&b));
            prop_assert_eq!(again, Ok(text));
        });
    });
}
