//! A `match` on a name as a direct expression ([`crate::vm::direct`]): the first arm that
//! holds the name (or matches anything) gives the value, as the stack code's tests in
//! order find it — looked up in a table by the name's symbol, so a `match` of many arms
//! (a skill's state variable by its name) costs one look-up. No arm fitting is the stack
//! code's error: the closure gives up there.

use std::sync::Arc;

use super::Lower;
use super::built::{Built, built};
use super::direct_ops::name;
use crate::ir::{Node, Pat};
use crate::value::{Sym, Value};
use crate::vm::kinds::{Kind, Name};
use crate::vm::machine::{Direct, Src};

/// An arm: the names it holds (`None`: it matches anything) and its value.
type Arm<T> = (Option<Box<[Sym]>>, Src<T>);

/// The most names a `match` is looked up in a table of (indexed by the name's symbol):
/// a larger symbol is tested arm by arm.
const MAX_TABLE: usize = 4096;

/// The value of the first arm that fits the name: found in a table of the arm of each
/// name (the first arm holding it, as the stack code tests them), else the arm matching
/// anything; none is the stack code's error, and the closure gives up.
fn first_fit<T: Kind>(s: Src<Name>, arms: Vec<Arm<T>>) -> Option<Src<T>> {
    let size = (arms.iter())
        .flat_map(|(ns, _)| ns.iter().flat_map(|ns| ns.iter()))
        .map(|&x| x as usize + 1)
        .max()
        .unwrap_or(0);
    if size > MAX_TABLE || arms.len() >= usize::from(u16::MAX) {
        return None;
    }
    let any = arms.iter().position(|(ns, _)| ns.is_none());
    let mut table = vec![u16::MAX; size];
    for (i, (ns, _)) in arms.iter().enumerate() {
        for &x in ns.iter().flat_map(|ns| ns.iter()) {
            if table[x as usize] == u16::MAX {
                table[x as usize] = i as u16;
            }
        }
    }
    let table: Box<[u16]> = table.into();
    let values: Arc<[Src<T>]> = arms.into_iter().map(|(_, v)| v).collect();
    Some(Src::Fn(Arc::new(move |m, base| {
        let Name(v) = s.get(m, base)?;
        let i = match table.get(v as usize) {
            Some(&i) if i != u16::MAX => usize::from(i),
            _ => any?,
        };
        values[i].get(m, base)
    })))
}

/// The arms' values as closures of one kind, with the names each holds.
macro_rules! arms_of {
    ($kind:ident, $s:expr, $names:expr, $values:expr) => {{
        let mut arms = Vec::with_capacity($values.len());
        for (ns, v) in $names.into_iter().zip($values) {
            let Direct::$kind(v) = v else { return None };
            arms.push((ns, v));
        }
        Direct::$kind(first_fit($s, arms)?)
    }};
}

impl Lower<'_> {
    /// `match s { arms }` of a name whose patterns are all names or `_`, every arm's
    /// value a direct expression of the same kind.
    pub(super) fn direct_match(&mut self, s: &Node, arms: &[(Box<[Pat]>, Node)]) -> Option<Built> {
        let sd = self.direct(s)?;
        let mut k = sd.k + 1;
        let s = name(sd.d)?;
        let mut names = Vec::with_capacity(arms.len());
        let mut values = Vec::with_capacity(arms.len());
        for (pats, value) in arms.iter() {
            let mut ns = Vec::with_capacity(pats.len());
            let mut any = false;
            for p in pats.iter() {
                match p {
                    Pat::Value(Value::Str(x)) => ns.push(*x),
                    Pat::Any => any = true,
                    _ => return None,
                }
            }
            let v = self.direct(value)?;
            if !v.exact {
                return None;
            }
            k += v.k;
            names.push((!any).then(|| ns.into_boxed_slice()));
            values.push(v.d);
            if any {
                break;
            }
        }
        let d = match values.first()? {
            Direct::Int(_) => arms_of!(Int, s, names, values),
            Direct::Bool(_) => arms_of!(Bool, s, names, values),
            Direct::Team(_) => arms_of!(Team, s, names, values),
            Direct::Area(_) => arms_of!(Area, s, names, values),
            Direct::Areas(_) => arms_of!(Areas, s, names, values),
            Direct::Name(_) => arms_of!(Name, s, names, values),
            Direct::Move(_) => arms_of!(Move, s, names, values),
        };
        built(d, k)
    }
}
