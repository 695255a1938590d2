//! Binary operators: each operand's type picks the operation (integers, area sets, move
//! sets, comparisons, membership), or the pair is a type error.

use fuba_grammar::ast::{self, BinOp};

use super::{Compiler, R, shown};
use crate::ir::*;
use crate::value::Ty;

impl Compiler<'_> {
    /// `lhs op rhs`, the operation picked by the operands' types.
    pub(super) fn binary(
        &mut self,
        op: BinOp,
        lhs: &ast::Expr,
        rhs: &ast::Expr,
        sp: ast::Span,
    ) -> R<(Node, Ty)> {
        let (l, lt) = self.expr(lhs)?;
        let (r, rt) = self.expr(rhs)?;
        let bad = |c: &Self| {
            c.err(
                sp,
                format!(
                    "type error: `{}` cannot combine {} and {}",
                    op.symbol(),
                    shown(lt),
                    shown(rt)
                ),
            )
        };
        let areaish = |t: Ty| matches!(t, Ty::Area | Ty::Areas | Ty::Any);
        let (o, ty) = match op {
            BinOp::And | BinOp::Or => {
                self.expect(&lt, Ty::Bool, lhs.span, "an operand of `and`/`or`")?;
                self.expect(&rt, Ty::Bool, rhs.span, "an operand of `and`/`or`")?;
                let k = if op == BinOp::And {
                    NodeKind::And(Box::new(l), Box::new(r))
                } else {
                    NodeKind::Or(Box::new(l), Box::new(r))
                };
                return Ok((self.node(k, sp), Ty::Bool));
            }
            BinOp::Add | BinOp::Sub if lt == Ty::Int && rt == Ty::Int => {
                (if op == BinOp::Add { Op::Add } else { Op::Sub }, Ty::Int)
            }
            BinOp::Add | BinOp::Union if lt == Ty::Moves && rt.fits(Ty::Moves) => {
                (Op::MovesUnion, Ty::Moves)
            }
            BinOp::Add | BinOp::Union
                if areaish(lt) && areaish(rt) && (lt != Ty::Any || rt != Ty::Any) =>
            {
                (Op::Union, Ty::Areas)
            }
            BinOp::Sub if areaish(lt) && areaish(rt) => (Op::Diff, Ty::Areas),
            BinOp::Intersect if areaish(lt) && areaish(rt) => (Op::Inter, Ty::Areas),
            BinOp::Mul | BinOp::Div | BinOp::Rem | BinOp::Add | BinOp::Sub
                if self.fits(lt, Ty::Int) && self.fits(rt, Ty::Int) =>
            {
                (
                    match op {
                        BinOp::Mul => Op::Mul,
                        BinOp::Div => Op::Div,
                        BinOp::Rem => Op::Rem,
                        BinOp::Add => Op::Add,
                        _ => Op::Sub,
                    },
                    Ty::Int,
                )
            }
            BinOp::Eq | BinOp::Ne => {
                let comparable =
                    lt == rt || lt == Ty::Any || rt == Ty::Any || (areaish(lt) && areaish(rt));
                if !comparable {
                    return Err(bad(self));
                }
                (if op == BinOp::Eq { Op::Eq } else { Op::Ne }, Ty::Bool)
            }
            BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge
                if self.fits(lt, Ty::Int) && self.fits(rt, Ty::Int) =>
            {
                (
                    match op {
                        BinOp::Lt => Op::Lt,
                        BinOp::Le => Op::Le,
                        BinOp::Gt => Op::Gt,
                        _ => Op::Ge,
                    },
                    Ty::Bool,
                )
            }
            BinOp::In => match (lt, rt) {
                (Ty::Area | Ty::Any, Ty::Areas | Ty::Area) => (Op::InAreas, Ty::Bool),
                (Ty::Int | Ty::Any, Ty::List) => (Op::InList, Ty::Bool),
                (Ty::Int | Ty::Any, Ty::Dice) => (Op::InDice, Ty::Bool),
                (Ty::Move | Ty::Any, Ty::Moves) => (Op::InMoves, Ty::Bool),
                _ => return Err(bad(self)),
            },
            _ => return Err(bad(self)),
        };
        Ok((
            self.node(NodeKind::Bin(o, Box::new(l), Box::new(r)), sp),
            ty,
        ))
    }
}
