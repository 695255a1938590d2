//! A walk over the checked IR: every statement and node of a code unit, in order, handed
//! to one callback. The lints use it; an analysis that needs to see every call, roll or
//! emit of a rule walks the code this way instead of writing its own recursion.

use crate::ir::{Block, Code, Node, NodeKind, PromptSeg, Stmt};

/// Something met while walking code.
pub(crate) enum Item<'a> {
    Stmt(&'a Stmt),
    Node(&'a Node),
}

fn walk_block<'a>(b: &'a Block, f: &mut dyn FnMut(Item<'a>)) {
    for s in &b.stmts {
        f(Item::Stmt(s));
        match s {
            Stmt::Let(_, n) | Stmt::LetPair(_, _, n) | Stmt::SetLocal(_, _, n) | Stmt::Expr(n) => {
                walk_node(n, f)
            }
            Stmt::SetVar(_, i, _, n, _) => {
                if let Some(i) = i {
                    walk_node(i, f);
                }
                walk_node(n, f);
            }
            Stmt::Repeat(n, b, _) | Stmt::For(_, n, b) => {
                walk_node(n, f);
                walk_block(b, f);
            }
            Stmt::Return(n) => {
                if let Some(n) = n {
                    walk_node(n, f);
                }
            }
            Stmt::Emit(_, fields) => {
                for (_, n) in fields.iter() {
                    walk_node(n, f);
                }
            }
            Stmt::Break => {}
        }
    }
}

/// The values of a decision's prompt.
fn walk_prompt<'a>(p: Option<&'a [PromptSeg]>, f: &mut dyn FnMut(Item<'a>)) {
    for s in p.unwrap_or_default() {
        if let PromptSeg::Value(n) = s {
            walk_node(n, f);
        }
    }
}

fn walk_node<'a>(n: &'a Node, f: &mut dyn FnMut(Item<'a>)) {
    f(Item::Node(n));
    match &n.kind {
        NodeKind::Const(_) | NodeKind::Local(_) | NodeKind::Var(_) | NodeKind::Role(_) => {}
        NodeKind::TeamVar(_, a)
        | NodeKind::Table(_, a)
        | NodeKind::MoveEnd(a, _)
        | NodeKind::MoveKeeper(a)
        | NodeKind::Not(a)
        | NodeKind::Neg(a) => walk_node(a, f),
        NodeKind::Prim(_, args)
        | NodeKind::Call(_, args)
        | NodeKind::Hook(_, args)
        | NodeKind::AreaList(args)
        | NodeKind::IntList(args) => {
            for a in args.iter() {
                walk_node(a, f);
            }
        }
        NodeKind::ListIndex(a, b)
        | NodeKind::And(a, b)
        | NodeKind::Or(a, b)
        | NodeKind::Bin(_, a, b) => {
            walk_node(a, f);
            walk_node(b, f);
        }
        NodeKind::If(c, b, o) => {
            walk_node(c, f);
            walk_block(b, f);
            if let Some(o) = o {
                walk_node(o, f);
            }
        }
        NodeKind::Match(s, arms) => {
            walk_node(s, f);
            for (_, v) in arms.iter() {
                walk_node(v, f);
            }
        }
        NodeKind::ChooseFrom {
            by,
            options,
            prefer,
            prompt,
            note,
            ..
        } => {
            walk_prompt(prompt.as_deref(), f);
            walk_prompt(note.as_ref().map(|(_, n)| &n[..]), f);
            walk_node(by, f);
            walk_node(options, f);
            if let Some((_, p)) = prefer {
                walk_node(p, f);
            }
        }
        NodeKind::ChooseArms {
            by, arms, prompt, ..
        } => {
            walk_prompt(prompt.as_deref(), f);
            walk_node(by, f);
            for a in arms.iter() {
                if let Some(g) = &a.guard {
                    walk_node(g, f);
                }
                if let Some(p) = &a.prefer {
                    walk_node(p, f);
                }
                walk_node(&a.value, f);
            }
        }
        NodeKind::Roll { by, .. } => {
            if let Some(b) = by {
                walk_node(b, f);
            }
        }
        NodeKind::Modifiers { rows, .. } => {
            for (_, v, w) in rows.iter() {
                walk_node(v, f);
                if let Some(w) = w {
                    walk_node(w, f);
                }
            }
        }
        NodeKind::Quant(_, _, it, filter) => {
            walk_node(it, f);
            if let Some(x) = filter {
                walk_node(x, f);
            }
        }
        NodeKind::Block(b) => walk_block(b, f),
    }
}

pub(crate) fn walk_code<'a>(c: &'a Code, f: &mut dyn FnMut(Item<'a>)) {
    walk_block(&c.body, f);
}
