//! A `match` on a name as a direct expression ([`crate::vm::direct`]): the arms' names
//! tested in order, as the stack code tests them, and the first arm that holds the name
//! (or matches anything) gives the value. No arm fitting is the stack code's error: the
//! closure gives up there.

use std::sync::Arc;

use super::Lower;
use super::direct::{Built, built};
use super::direct_ops::name;
use crate::ir::{Node, Pat};
use crate::value::{Sym, Value};
use crate::vm::direct::{Direct, Kind, Name, Src};

/// An arm: the names it holds (`None`: it matches anything) and its value.
type Arm<T> = (Option<Box<[Sym]>>, Src<T>);

/// The value of the first arm that fits the name.
fn first_fit<T: Kind>(s: Src<Name>, arms: Vec<Arm<T>>) -> Src<T> {
    let arms: Arc<[Arm<T>]> = arms.into();
    Src::Fn(Arc::new(move |m, base| {
        let Name(v) = s.get(m, base)?;
        let (_, value) = arms
            .iter()
            .find(|(names, _)| names.as_ref().is_none_or(|ns| ns.contains(&v)))?;
        value.get(m, base)
    }))
}

/// The arms' values as closures of one kind, with the names each holds.
macro_rules! arms_of {
    ($kind:ident, $s:expr, $names:expr, $values:expr) => {{
        let mut arms = Vec::with_capacity($values.len());
        for (ns, v) in $names.into_iter().zip($values) {
            let Direct::$kind(v) = v else { return None };
            arms.push((ns, v));
        }
        Direct::$kind(first_fit($s, arms))
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
