//! Machine code for fuba's word programs: the engine's direct expressions and loops that
//! only gather moves, lowered by the engine to a small register form ([`Op`]), compiled
//! here by Cranelift into host functions.
//!
//! This is the workspace's only crate with `unsafe` code, and it knows nothing of the
//! rules: a program's registers are machine words, its leaves are inputs the caller reads
//! before the call (a frame's locals, a team's role) and calls back into the caller's
//! [`Host`] (primitives, state variables, counted calls, moves found, the host's own
//! units run to their end). Like the engine's
//! word code, a program gives up (`None`) wherever the engine's stack code would do
//! anything but the plain case (an overflow, a division by zero, a callback refusing, the
//! stage's operation budget spent), and the engine then runs that code.
//!
//! ```
//! use fuba_native::{BinOp, Compiler, Host, Op};
//! struct NoHost;
//! impl Host for NoHost {
//!     fn prim(&mut self, _: u32, _: [u64; 5]) -> Option<u64> { None }
//!     fn var(&mut self, _: u32, _: u64) -> Option<u64> { None }
//!     fn count(&mut self, _: u32) {}
//!     fn add_moves(&mut self, _: u8, _: u64, _: u64, _: u64) -> Option<()> { None }
//! }
//! let mut c = Compiler::new().unwrap();
//! let f = c.add(&[Op::Input(0, 0), Op::Const(1, 2), Op::Bin(BinOp::Mul, 0, 0, 1), Op::Ret(0)]).unwrap();
//! let code = c.finish().unwrap();
//! let mut ops = 0;
//! assert_eq!(code.run(f, &mut NoHost, &[21], &mut ops, 100), Some(42));
//! assert_eq!(code.run(f, &mut NoHost, &[i64::MAX as u64], &mut ops, 100), None);
//! ```

use cranelift_codegen::Context;
use cranelift_codegen::ir::AbiParam;
use cranelift_codegen::ir::types::I64;
use cranelift_codegen::settings::{self, Configurable};
use cranelift_frontend::{FunctionBuilder, FunctionBuilderContext};
use cranelift_jit::{JITBuilder, JITModule};
use cranelift_module::{FuncId, Module, default_libcall_names};

mod callbacks;
mod hoist;
mod memo;
mod rows;
mod translate;

use callbacks::{Ctx, Entry, RowsEntry};
use translate::{check, translate};

/// An operation of two words.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BinOp {
    /// Integer sum; gives up on overflow.
    Add,
    /// Integer difference; gives up on overflow.
    Sub,
    /// Integer product; gives up on overflow.
    Mul,
    /// Integer quotient rounded toward zero; gives up on a zero divisor or overflow.
    Div,
    /// Integer remainder of [`BinOp::Div`]; gives up where it does.
    Rem,
    /// Signed `<`.
    Lt,
    /// Signed `<=`.
    Le,
    /// Signed `>`.
    Gt,
    /// Signed `>=`.
    Ge,
    /// Equal words.
    Eq,
    /// Different words.
    Ne,
    /// Set union (bitwise or).
    Union,
    /// Set intersection (bitwise and).
    Inter,
    /// Set difference.
    Diff,
    /// Whether the area (first operand, under 32) is in the set (second).
    In,
    /// Signed maximum.
    Max,
    /// Signed minimum.
    Min,
}

/// One operation of a program. Registers are `u8`s, jump targets indices of the program.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Op {
    /// A constant.
    Const(u8, u64),
    /// The caller's input of that index (read by the caller before the call).
    Input(u8, u16),
    /// [`Host::var`] of the variable, with the team in the register (or 0).
    Var(u8, u32, Option<u8>),
    /// 1 where the operand is 0, else 0.
    Not(u8, u8),
    /// Integer negation; gives up on overflow.
    Neg(u8, u8),
    /// Two operands into the first register.
    Bin(BinOp, u8, u8, u8),
    /// A copy.
    Copy(u8, u8),
    /// An area (under 32) as the set of it.
    ToSet(u8, u8),
    /// [`Host::prim`] of the primitive with up to five operands.
    Prim(u8, u32, [u8; 5]),
    /// A move's end: `from` (bits 0–7) when true, else `to` (bits 8–15).
    MoveEnd(u8, u8, bool),
    /// A move's goalkeeper flag (bit 16).
    MoveKeeper(u8, u8),
    /// Go on at the target.
    Jump(u16),
    /// Go on at the target when the register is 0.
    JumpIfNot(u8, u16),
    /// Go on at the target unless the register equals one of the words.
    UnlessAny(u8, Box<[u64]>, u16),
    /// [`Host::count`].
    Count(u32),
    /// [`Host::call`] of the unit with up to five operands, its word into the first
    /// register; the operations it counts are added to the program's.
    Call(u8, u32, [u8; 5]),
    /// The lowest area of the set in the second register into the first, taken out of
    /// the set, and one operation counted against the budget; when the set is empty, go
    /// on at the target instead.
    NextArea(u8, u8, u16),
    /// One operation counted against the budget (a call the code stands for); past the
    /// budget, give up.
    Tick,
    /// [`Host::add_moves`] for the gathering set, with team, start and destinations.
    AddMoves(u8, [u8; 3]),
    /// The union of a table's entries for the areas (under 32) of the set in the third
    /// register, of the side the team in the last register defends (team 0: the table's
    /// first half, any other: its second; no team: the first).
    Spread(u8, u32, u8, Option<u8>),
    /// A table's entry for the area (under 32) in the third register, of the team's
    /// side as for [`Op::Spread`].
    Entry(u8, u32, u8, Option<u8>),
    /// A grid's entry for the two areas (each under 32) in the third and last registers:
    /// `grid[x * 32 + y]`.
    Pair(u8, u32, u8, u8),
    /// The sum of the state's bytes ([`Code::run_with`]) for the areas (under 32) of the
    /// set in the third register — the first 32 bytes for the team in the second register
    /// 0, the next 32 for any other (as a table's halves) — and at most the word.
    CountIn(u8, u8, u8, u64),
    /// The number of areas in a set (its low 32 bits set).
    Size(u8, u8),
    /// The other team: `1 - team`.
    Other(u8, u8),
    /// Give up.
    GiveUp,
    /// The program's value.
    Ret(u8),
}

/// What a program calls back into. A `None` makes the program give up.
///
/// [`Host::prim`] and [`Host::var`] answer the same word for the same operands for as
/// long as a run lasts (nothing the program does changes them): code compiled with
/// [`Compiler::keep_answers`] keeps the answers of those it would ask again with the
/// same operands (inside a loop of the program that does not change them).
pub trait Host {
    /// A primitive of up to five operands.
    fn prim(&mut self, p: u32, args: [u64; 5]) -> Option<u64>;
    /// A state variable, of a team where it has one.
    fn var(&mut self, v: u32, team: u64) -> Option<u64>;
    /// A call counted. The machine code keeps the calls it counts and tells them in
    /// order, but later: before its next [`Host::call`] and when the run ends (given up
    /// or not), never after the run returns. A panic here makes the run give up.
    fn count(&mut self, p: u32);
    /// [`Host::count`] of each call, in order (one callback for the calls the machine
    /// code kept).
    fn counts(&mut self, ps: &[u32]) {
        for &p in ps {
            self.count(p);
        }
    }
    /// Moves found: into gathering set `acc`, for the team, from an area to a set.
    fn add_moves(&mut self, acc: u8, team: u64, from: u64, dests: u64) -> Option<()>;
    /// [`Host::add_moves`] of moves found, in order, each a word `acc | team << 8 |
    /// from << 16 | dests << 32` (team and start under 256, destinations 32 bits): code
    /// compiled with [`Compiler::keep_moves`] keeps the moves it finds and tells them
    /// here when the run ends (given up or not), or when it has no room left before the
    /// next one. A `None` makes the run give up.
    fn moves(&mut self, words: &[u64]) -> Option<()> {
        for &w in words {
            let byte = |s: u32| (w >> s) & 0xff;
            self.add_moves(w as u8, byte(8), byte(16), w >> 32)?;
        }
        Some(())
    }
    /// A unit of the host's own code run to its end with up to five operands: its value,
    /// the operations it counted added to `ops` (the program's count so far). A host
    /// without such units refuses.
    fn call(&mut self, f: u32, args: [u64; 5], ops: &mut u64) -> Option<u64> {
        let _ = (f, args, ops);
        None
    }
}

/// Why machine code could not be made.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The host machine or the code generator refused.
    #[error("machine code: {0}")]
    Codegen(String),
    /// The program is not well formed.
    #[error("machine code: bad program: {0}")]
    Program(&'static str),
}

/// A table of [`Op::Spread`] and [`Op::Entry`].
pub type Table = [u32; 64];

/// A grid of [`Op::Pair`]: an entry for every two areas.
pub type Grid = [u32; 1024];

/// Builds machine code for programs, one at a time, then [`Compiler::finish`]es them.
pub struct Compiler {
    module: JITModule,
    // Boxed: each table's address, written into the code, stays put as the list grows.
    #[allow(clippy::vec_box)]
    tables: Vec<Box<[u32]>>,
    ctx: Context,
    fbc: FunctionBuilderContext,
    funcs: Vec<(FuncId, Func)>,
    /// Whether the programs keep the host's answers ([`Compiler::keep_answers`]).
    keep: bool,
    /// Whether they keep the moves they find ([`Compiler::keep_moves`]).
    keep_moves: bool,
}

/// A compiled program: its entry (once finished), how many inputs it reads, how many
/// state bytes, and for a rows function the input its rows stand for.
#[derive(Clone, Copy)]
struct Func {
    entry: usize,
    inputs: usize,
    bytes: usize,
    rows: Option<u16>,
}

impl Compiler {
    /// A compiler for this machine.
    pub fn new() -> Result<Compiler, Error> {
        let err = |e: &dyn std::fmt::Display| Error::Codegen(e.to_string());
        let mut flags = settings::builder();
        for (k, v) in [
            ("use_colocated_libcalls", "false"),
            ("is_pic", "false"),
            ("opt_level", "speed"),
            ("enable_verifier", "false"),
        ] {
            flags.set(k, v).map_err(|e| err(&e))?;
        }
        let isa = cranelift_native::builder()
            .map_err(|e| err(&e))?
            .finish(settings::Flags::new(flags))
            .map_err(|e| err(&e))?;
        let module = JITModule::new(JITBuilder::with_isa(isa, default_libcall_names()));
        let ctx = module.make_context();
        Ok(Compiler {
            module,
            tables: Vec::new(),
            ctx,
            fbc: FunctionBuilderContext::new(),
            funcs: Vec::new(),
            keep: false,
            keep_moves: false,
        })
    }

    /// Makes the programs added from now on keep the host's answers to
    /// [`Host::prim`] and [`Host::var`] inside their loops: a callback whose operands the
    /// loop around it does not change is made once for the same operands, not once per
    /// round (the host must answer the same operands the same for a whole run, as
    /// [`Host`] says). A program compiled so asks the host less often than
    /// [`Compiler::add`] otherwise does, and gives the same value.
    pub fn keep_answers(&mut self, keep: bool) {
        self.keep = keep;
    }

    /// Makes the programs added from now on (other than rows functions) keep the moves
    /// they find ([`Op::AddMoves`]) in the call's own memory and tell them to
    /// [`Host::moves`] when the run ends, in order, instead of calling
    /// [`Host::add_moves`] for each as it is found; past 128 kept, the code tells those
    /// before it calls back for the next one. The host learns the same moves in the same
    /// order, later.
    pub fn keep_moves(&mut self, keep: bool) {
        self.keep_moves = keep;
    }

    /// Adds a table of 64 words for [`Op::Spread`] and [`Op::Entry`]: 32 areas of the
    /// first side, then 32 of the second; its number.
    pub fn table(&mut self, t: Table) -> u32 {
        self.tables.push(Box::new(t));
        self.tables.len() as u32 - 1
    }

    /// Adds a grid the programs read in place (its number among the tables).
    pub fn grid(&mut self, g: &Grid) -> u32 {
        self.tables.push(g.as_slice().into());
        self.tables.len() as u32 - 1
    }

    /// Compiles a program; its number for [`Code::run`].
    pub fn add(&mut self, prog: &[Op]) -> Result<usize, Error> {
        self.add_with(prog, None)
    }

    /// Compiles a program to be run once per row of words that stand for input `input`
    /// (an option of a decision, the other inputs the same for every row); its number for
    /// [`Code::run_rows`], which then runs the rows in one call of the machine code, with
    /// what no row changes worked out once. It gives what [`Code::run_rows`] gives for
    /// the same program added with [`Compiler::add`].
    pub fn add_rows(&mut self, prog: &[Op], input: u16) -> Result<usize, Error> {
        self.add_with(prog, Some(input))
    }

    fn add_with(&mut self, prog: &[Op], rows: Option<u16>) -> Result<usize, Error> {
        let sizes: Vec<usize> = self.tables.iter().map(|t| t.len()).collect();
        let (inputs, bytes) = check(prog, &sizes)?;
        let ptr = self.module.target_config().pointer_type();
        let mut sig = self.module.make_signature();
        sig.params.push(AbiParam::new(ptr));
        sig.params.push(AbiParam::new(ptr));
        if rows.is_some() {
            sig.params.push(AbiParam::new(ptr));
            sig.params.push(AbiParam::new(I64));
            sig.params.push(AbiParam::new(ptr));
        }
        sig.returns.push(AbiParam::new(I64));
        self.ctx.func.signature = sig;
        let mut cb_sig = self.module.make_signature();
        cb_sig.params.push(AbiParam::new(ptr));
        cb_sig.params.extend([AbiParam::new(I64); 6]);
        cb_sig.returns.push(AbiParam::new(I64));
        let cfg = self.module.target_config();
        let b = FunctionBuilder::new(&mut self.ctx.func, &mut self.fbc);
        let tables: Vec<usize> = self.tables.iter().map(|t| t.as_ptr() as usize).collect();
        let built = translate(b, prog, cb_sig, &tables, rows, (self.keep, self.keep_moves))
            .map(|b| b.finalize(cfg));
        let defined = built.and_then(|()| {
            let err = |e: cranelift_module::ModuleError| Error::Codegen(e.to_string());
            let id = (self.module)
                .declare_anonymous_function(&self.ctx.func.signature)
                .map_err(err)?;
            self.module
                .define_function(id, &mut self.ctx)
                .map_err(err)?;
            Ok(id)
        });
        // Whatever happened, the next program starts from a clean function and builder.
        self.module.clear_context(&mut self.ctx);
        if defined.is_err() {
            self.fbc = FunctionBuilderContext::new();
        }
        let id = defined?;
        let f = Func {
            entry: 0,
            inputs,
            bytes,
            rows,
        };
        self.funcs.push((id, f));
        Ok(self.funcs.len() - 1)
    }

    /// The machine code of every program added.
    pub fn finish(mut self) -> Result<Code, Error> {
        self.module
            .finalize_definitions()
            .map_err(|e| Error::Codegen(e.to_string()))?;
        let fns = (self.funcs.iter())
            .map(|&(id, f)| Func {
                entry: self.module.get_finalized_function(id) as usize,
                ..f
            })
            .collect();
        Ok(Code {
            module: Some(self.module),
            fns,
            _tables: self.tables,
        })
    }
}

/// The machine code of a set of programs. Dropping it frees the code.
pub struct Code {
    module: Option<JITModule>,
    /// The tables the code reads in place (boxed: their addresses are in the code).
    #[allow(clippy::vec_box)]
    _tables: Vec<Box<[u32]>>,
    /// Each program's entry, what it reads, and whether it runs rows.
    fns: Vec<Func>,
}

// SAFETY: after `finish` the module is only kept to free its memory on drop; the entries
// are plain functions of their arguments, callable from any thread at once.
unsafe impl Send for Code {}
// SAFETY: as for `Send`: nothing is written through a shared `Code`.
unsafe impl Sync for Code {}

impl Code {
    /// Runs program `f` with its inputs, counting operations in `ops` up to `limit`; its
    /// value, or `None` when it gave up (or `f` or the inputs do not fit it).
    pub fn run(
        &self,
        f: usize,
        host: &mut dyn Host,
        inputs: &[u64],
        ops: &mut u64,
        limit: u64,
    ) -> Option<u64> {
        self.run_with(f, host, inputs, &[], ops, limit)
    }

    /// [`Code::run`] with the bytes [`Op::CountIn`] reads (a program that reads them
    /// needs 64).
    pub fn run_with(
        &self,
        f: usize,
        host: &mut dyn Host,
        inputs: &[u64],
        state: &[u8],
        ops: &mut u64,
        limit: u64,
    ) -> Option<u64> {
        let run = self.entry(f, inputs.len(), state)?;
        let mut h: &mut dyn Host = host;
        let mut ctx = Ctx::new(&mut h, *ops, limit, state);
        let w = run(&mut ctx, inputs.as_ptr());
        ctx.flush();
        *ops = ctx.ops;
        (ctx.fail == 0).then_some(w)
    }

    /// Runs program `f` once per row of `rows` (`vary.len()` words each, written into
    /// the inputs numbered in `vary` before each run; the other inputs and the state bytes
    /// as [`Code::run_with`] takes them), its values into `out` (a score's integers, the
    /// words read as signed), in order, until one run
    /// gives up: how many ran to the end. The operations a run that gave up counted are
    /// not kept in `ops`. One call for many runs costs a fraction of as many calls of
    /// [`Code::run_with`]: a program that scores options runs in a loop here, or, when it
    /// was added with [`Compiler::add_rows`] for the one input in `vary`, in a loop of its
    /// machine code (any other `vary` runs none).
    #[allow(clippy::too_many_arguments)]
    pub fn run_rows(
        &self,
        f: usize,
        host: &mut dyn Host,
        inputs: &mut [u64],
        state: &[u8],
        vary: &[u16],
        rows: &[u64],
        out: &mut [i64],
        ops: &mut u64,
        limit: u64,
    ) -> usize {
        if self.fns.get(f).is_some_and(|f| f.rows.is_some()) {
            // A rows function runs the rows itself, for the one input it was made for.
            let [v] = *vary else { return 0 };
            let Some(run) = self.rows_entry(f, inputs.len(), state, v) else {
                return 0;
            };
            let n = rows.len().min(out.len());
            let mut h: &mut dyn Host = host;
            let mut ctx = Ctx::new(&mut h, *ops, limit, state);
            let done = run(
                &mut ctx,
                inputs.as_ptr(),
                rows.as_ptr(),
                n as u64,
                out.as_mut_ptr().cast::<u64>(),
            );
            // (A rows function's runs count no calls of their own after a run that gave
            // up: it stops there.)
            ctx.flush();
            *ops = ctx.ops;
            return (done as usize).min(n);
        }
        let Some(run) = self.entry(f, inputs.len(), state) else {
            return 0;
        };
        if vary.iter().any(|&v| usize::from(v) >= inputs.len()) {
            return 0;
        }
        let width = vary.len().max(1);
        let mut h: &mut dyn Host = host;
        let mut ctx = Ctx::new(&mut h, *ops, limit, state);
        let mut done = 0;
        // One run: `false` when it gave up (the operations it counted dropped).
        let once = |ctx: &mut Ctx, inputs: &[u64], o: &mut i64| {
            let before = ctx.ops;
            let w = run(ctx, inputs.as_ptr());
            ctx.flush();
            if ctx.fail != 0 {
                ctx.ops = before;
                return false;
            }
            *o = w as i64;
            true
        };
        if let [v] = *vary {
            // The common case, an option read as one kind, without the rows' inner loop.
            let v = usize::from(v);
            for (&w, o) in rows.iter().zip(out.iter_mut()) {
                inputs[v] = w;
                if !once(&mut ctx, inputs, o) {
                    break;
                }
                done += 1;
            }
        } else {
            for (row, o) in rows.chunks_exact(width).zip(out.iter_mut()) {
                for (&v, &w) in vary.iter().zip(row) {
                    inputs[usize::from(v)] = w;
                }
                if !once(&mut ctx, inputs, o) {
                    break;
                }
                done += 1;
            }
        }
        *ops = ctx.ops;
        done
    }

    /// Program `f`'s entry, `None` when there is no such program or it reads more than
    /// `inputs` inputs or the bytes of `state`.
    /// A rows function ([`Compiler::add_rows`]) has none.
    fn entry(&self, f: usize, inputs: usize, state: &[u8]) -> Option<Entry> {
        let f = self.fns.get(f)?;
        if inputs < f.inputs || state.len() < f.bytes || f.rows.is_some() {
            return None;
        }
        // SAFETY: `entry` was made by `Compiler::finish` for a program of the plain
        // signature whose inputs and state bytes were just checked to fit, and whose code
        // stays mapped while `self` lives.
        Some(unsafe { std::mem::transmute::<usize, Entry>(f.entry) })
    }

    /// Program `f`'s entry as a rows function whose rows stand for input `vary`, `None`
    /// when it is not one, or it reads more than `inputs` inputs or the bytes of `state`.
    fn rows_entry(&self, f: usize, inputs: usize, state: &[u8], vary: u16) -> Option<RowsEntry> {
        let f = self.fns.get(f)?;
        if inputs < f.inputs || state.len() < f.bytes || f.rows != Some(vary) {
            return None;
        }
        // SAFETY: `entry` was made by `Compiler::finish` for a program of the rows
        // signature whose inputs and state bytes were just checked to fit, and whose code
        // stays mapped while `self` lives. The caller passes as many rows as out words.
        Some(unsafe { std::mem::transmute::<usize, RowsEntry>(f.entry) })
    }

    /// How many programs it holds.
    pub fn len(&self) -> usize {
        self.fns.len()
    }

    /// Whether it holds none.
    pub fn is_empty(&self) -> bool {
        self.fns.is_empty()
    }
}

impl Drop for Code {
    fn drop(&mut self) {
        if let Some(m) = self.module.take() {
            // SAFETY: the entries are owned by `self` and no call can be running: `run`
            // borrows `self`.
            unsafe { m.free_memory() };
        }
    }
}
