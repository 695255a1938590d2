//! The callbacks machine code makes into its [`Host`], and the state of one call.

use std::ffi::c_void;
use std::mem::MaybeUninit;
use std::panic::{AssertUnwindSafe, catch_unwind};

use crate::Host;

/// The state one call shares with its callbacks (`#[repr(C)]`: the code reads its
/// fields at fixed offsets).
#[repr(C)]
pub(crate) struct Ctx {
    /// A `*mut &mut dyn Host`.
    pub(crate) host: *mut c_void,
    /// Set when the program gave up.
    pub(crate) fail: u64,
    /// Operations counted so far.
    pub(crate) ops: u64,
    /// The budget the count may not pass.
    pub(crate) limit: u64,
    /// The state bytes [`crate::Op::CountIn`] reads (as many as the program needs).
    pub(crate) state: *const u8,
    /// How many of `calls` hold counted calls not yet told to the host.
    pub(crate) ncalls: u64,
    /// Calls counted by [`crate::Op::Count`], kept here by the machine code itself and
    /// told to [`Host::count`] in order, before the next [`Host::call`] (or count past
    /// [`CALLS_CAP`]) and when the run ends ([`Ctx::flush`]).
    /// (Left unwritten when a call starts: only the first `ncalls` are read.)
    pub(crate) calls: MaybeUninit<[u32; CALLS_CAP as usize]>,
    /// How many of `moves` hold moves found not yet told to the host.
    pub(crate) nmoves: u64,
    /// Moves found by [`crate::Op::AddMoves`] in code compiled with
    /// [`crate::Compiler::keep_moves`], kept here by the machine code itself as words
    /// (`acc | team << 8 | from << 16 | dests << 32`) and told to [`Host::moves`] when
    /// the run ends ([`Ctx::flush`]) or, past [`MOVES_CAP`], before the next one.
    /// (Left unwritten when a call starts: only the first `nmoves` are read.)
    pub(crate) moves: MaybeUninit<[u64; MOVES_CAP as usize]>,
}

impl Ctx {
    /// The state of a call into `host` that starts with `ops` operations counted.
    pub(crate) fn new(host: &mut &mut dyn Host, ops: u64, limit: u64, state: &[u8]) -> Ctx {
        Ctx {
            host: host as *mut &mut dyn Host as *mut c_void,
            fail: 0,
            ops,
            limit,
            state: state.as_ptr(),
            ncalls: 0,
            calls: MaybeUninit::uninit(),
            nmoves: 0,
            moves: MaybeUninit::uninit(),
        }
    }

    /// Tells the host the calls counted and not yet told ([`Ctx::calls`]), in order; a
    /// panic in the host makes the run give up.
    #[inline]
    pub(crate) fn flush(&mut self) {
        if self.ncalls != 0 {
            flush(self);
        }
        if self.nmoves != 0 {
            flush_moves(self);
        }
    }
}

/// Tells the host the moves kept and not yet told ([`Ctx::moves`]), in order; a refusal
/// or a panic in the host makes the run give up. (Out of line: a score's runs, which
/// find no moves, only test the count.)
#[inline(never)]
fn flush_moves(ctx: *mut Ctx) {
    // SAFETY: `ctx` is the live context of the running call (as `host`); the code wrote
    // the first `nmoves` words of the buffer (at most `MOVES_CAP`) before it counted them.
    let n = unsafe { ((*ctx).nmoves as usize).min(MOVES_CAP as usize) };
    if n == 0 {
        return;
    }
    let moves: &[u64] =
        unsafe { std::slice::from_raw_parts((*ctx).moves.as_ptr().cast::<u64>(), n) };
    // SAFETY: as above.
    unsafe { (*ctx).nmoves = 0 };
    let h = unsafe { host(ctx) };
    let told = catch_unwind(AssertUnwindSafe(|| h.moves(moves)));
    if !matches!(told, Ok(Some(()))) {
        // SAFETY: as above.
        unsafe { (*ctx).fail = 1 };
    }
}

/// [`Ctx::flush`] through the pointer the code holds.
fn flush(ctx: *mut Ctx) {
    // SAFETY: `ctx` is the live context of the running call (as `host`); the code wrote
    // the first `ncalls` words of the buffer (at most `CALLS_CAP`) before it counted them.
    let (n, calls) = unsafe {
        (
            ((*ctx).ncalls as usize).min(CALLS_CAP as usize),
            (*ctx).calls,
        )
    };
    if n == 0 {
        return;
    }
    let calls: &[u32] = unsafe { std::slice::from_raw_parts(calls.as_ptr().cast::<u32>(), n) };
    // SAFETY: as above.
    unsafe { (*ctx).ncalls = 0 };
    let h = unsafe { host(ctx) };
    let told = catch_unwind(AssertUnwindSafe(|| h.counts(calls)));
    if told.is_err() {
        // SAFETY: as above.
        unsafe { (*ctx).fail = 1 };
    }
}

pub(crate) const FAIL: i32 = 8;
pub(crate) const OPS: i32 = 16;
pub(crate) const LIMIT: i32 = 24;
pub(crate) const STATE: i32 = 32;
pub(crate) const NCALLS: i32 = 40;
pub(crate) const CALLS: i32 = 48;
/// The most counted calls the code keeps before telling the host.
pub(crate) const CALLS_CAP: u64 = 32;
pub(crate) const NMOVES: i32 = 176;
pub(crate) const MOVES: i32 = 184;
/// The most moves found the code keeps before telling the host (a host that takes at
/// most this many in a run refuses at the same move as when told each at once).
pub(crate) const MOVES_CAP: u64 = 128;

const _: () = {
    use std::mem::offset_of;
    assert!(offset_of!(Ctx, fail) == FAIL as usize);
    assert!(offset_of!(Ctx, ops) == OPS as usize);
    assert!(offset_of!(Ctx, limit) == LIMIT as usize);
    assert!(offset_of!(Ctx, state) == STATE as usize);
    assert!(offset_of!(Ctx, ncalls) == NCALLS as usize);
    assert!(offset_of!(Ctx, calls) == CALLS as usize);
    assert!(offset_of!(Ctx, nmoves) == NMOVES as usize);
    assert!(offset_of!(Ctx, moves) == MOVES as usize);
};

/// The host behind a context.
///
/// # Safety
/// `ctx` is the pointer [`Code::run`] handed to the program, alive for the call.
unsafe fn host<'a>(ctx: *mut Ctx) -> &'a mut dyn Host {
    // SAFETY: `Code::run` made `host` point to a `&mut dyn Host` that outlives the call,
    // and nothing else uses it while a callback runs.
    unsafe { *((*ctx).host as *mut &mut dyn Host) }
}

/// A callback's result: the word, or the flag set for a give-up (a panic is one too).
fn answer(ctx: *mut Ctx, r: std::thread::Result<Option<u64>>) -> u64 {
    match r {
        Ok(Some(w)) => w,
        _ => {
            // SAFETY: as `host`.
            unsafe { (*ctx).fail = 1 };
            0
        }
    }
}

pub(crate) extern "C" fn cb_prim(
    ctx: *mut Ctx,
    p: u64,
    a: u64,
    b: u64,
    c: u64,
    d: u64,
    e: u64,
) -> u64 {
    // SAFETY: called only by programs run through `Code::run`.
    let h = unsafe { host(ctx) };
    answer(
        ctx,
        catch_unwind(AssertUnwindSafe(|| h.prim(p as u32, [a, b, c, d, e]))),
    )
}

pub(crate) extern "C" fn cb_var(
    ctx: *mut Ctx,
    v: u64,
    t: u64,
    _: u64,
    _: u64,
    _: u64,
    _: u64,
) -> u64 {
    // SAFETY: as `cb_prim`.
    let h = unsafe { host(ctx) };
    answer(ctx, catch_unwind(AssertUnwindSafe(|| h.var(v as u32, t))))
}

pub(crate) extern "C" fn cb_count(
    ctx: *mut Ctx,
    p: u64,
    _: u64,
    _: u64,
    _: u64,
    _: u64,
    _: u64,
) -> u64 {
    // The calls kept are told first (the code calls back when it has no room left).
    flush(ctx);
    // SAFETY: as `cb_prim`.
    if unsafe { (*ctx).fail } != 0 {
        return 0;
    }
    let h = unsafe { host(ctx) };
    answer(
        ctx,
        catch_unwind(AssertUnwindSafe(|| {
            h.count(p as u32);
            Some(0)
        })),
    )
}

pub(crate) extern "C" fn cb_moves(
    ctx: *mut Ctx,
    acc: u64,
    t: u64,
    from: u64,
    dests: u64,
    _: u64,
    _: u64,
) -> u64 {
    // The moves kept are told first (the code calls back when it has no room left).
    flush_moves(ctx);
    // SAFETY: as `cb_prim`.
    if unsafe { (*ctx).fail } != 0 {
        return 0;
    }
    let h = unsafe { host(ctx) };
    let r = catch_unwind(AssertUnwindSafe(|| {
        h.add_moves(acc as u8, t, from, dests).map(|_| 0)
    }));
    answer(ctx, r)
}

pub(crate) extern "C" fn cb_call(
    ctx: *mut Ctx,
    f: u64,
    a: u64,
    b: u64,
    c: u64,
    d: u64,
    e: u64,
) -> u64 {
    // The calls counted before it are told first, as the code counted them.
    flush(ctx);
    // SAFETY: as `cb_prim`; `ops` is read and written through the pointer the code
    // itself reads it by (it keeps no copy across a callback).
    if unsafe { (*ctx).fail } != 0 {
        return 0;
    }
    let h = unsafe { host(ctx) };
    let mut ops = unsafe { (*ctx).ops };
    let r = catch_unwind(AssertUnwindSafe(|| {
        h.call(f as u32, [a, b, c, d, e], &mut ops)
    }));
    // SAFETY: as `host`.
    unsafe { (*ctx).ops = ops };
    answer(ctx, r)
}

/// A callback's function: the context and six words, a word back.
pub(crate) type Callback = extern "C" fn(*mut Ctx, u64, u64, u64, u64, u64, u64) -> u64;
/// A program's function: the context and its inputs, its value back.
pub(crate) type Entry = extern "C" fn(*mut Ctx, *const u64) -> u64;
/// A rows function's ([`crate::Compiler::add_rows`]): the context, its inputs, the rows,
/// how many, and where their values go; how many ran to the end back.
pub(crate) type RowsEntry = extern "C" fn(*mut Ctx, *const u64, *const u64, u64, *mut u64) -> u64;

#[cfg(test)]
mod tests {
    use crate::{BinOp, Compiler, Host, Op};

    /// Takes moves up to a number, noting each, and refuses past it.
    struct Taking(usize, Vec<(u8, u64, u64, u64)>);

    impl Host for Taking {
        fn prim(&mut self, _: u32, _: [u64; 5]) -> Option<u64> {
            None
        }
        fn var(&mut self, _: u32, _: u64) -> Option<u64> {
            None
        }
        fn count(&mut self, _: u32) {}
        fn add_moves(&mut self, acc: u8, team: u64, from: u64, dests: u64) -> Option<()> {
            self.1.push((acc, team, from, dests));
            (self.1.len() <= self.0).then_some(())
        }
    }

    /// Input 1 rounds of adding moves (team input 0, start the round's number, and
    /// destinations its square into set 3) then the count of rounds.
    fn prog() -> Vec<Op> {
        vec![
            Op::Input(0, 0),
            Op::Input(1, 1),
            Op::Const(2, 0),
            Op::Const(3, 1),
            Op::Bin(BinOp::Lt, 4, 2, 1),
            Op::JumpIfNot(4, 10),
            Op::Bin(BinOp::Mul, 5, 2, 2),
            Op::AddMoves(3, [0, 2, 5]),
            Op::Bin(BinOp::Add, 2, 2, 3),
            Op::Jump(4),
            Op::Ret(2),
        ]
    }

    /// Kept moves reach the host as they would one by one: the same moves in the same
    /// order, the same refusal at the same move, past the room the code keeps.
    #[test]
    fn kept_moves_are_told_as_found() {
        let run = |keep: bool, rounds: u64, take: usize| {
            let mut c = Compiler::new().unwrap();
            c.keep_moves(keep);
            let f = c.add(&prog()).unwrap();
            let code = c.finish().unwrap();
            let mut host = Taking(take, Vec::new());
            let mut ops = 0;
            let w = code.run(f, &mut host, &[1, rounds], &mut ops, u64::MAX);
            (w, ops, host.1)
        };
        for (rounds, take) in [(0, 9), (5, 9), (5, 3), (200, 500), (200, 128), (200, 150)] {
            let kept = run(true, rounds, take);
            assert_eq!(
                kept,
                run(false, rounds, take),
                "{rounds} rounds, {take} taken"
            );
            assert_eq!(kept.0.is_some(), rounds as usize <= take);
        }
        let (_, _, told) = run(true, 3, 9);
        assert_eq!(told, [(3, 1, 0, 0), (3, 1, 1, 1), (3, 1, 2, 4)]);
    }
}
