//! The JIT's `unsafe`, the only module of the crate allowed it: running compiled code, the
//! helpers the code calls (on raw pointers), and the module that owns the code.
//!
//! What makes it sound is established by the code generator (the other modules of `jit`): the
//! signatures of [`BlockFn`] and [`MessageFn`], the room each block reserves (`reserve`, see
//! the parent module's documentation), and reads checked against the buffer's length.

use cranelift_jit::JITModule;
use cranelift_module::FuncId;

use crate::program::{
    value, BlockFn, BlockProgram, CompiledBlock, CompiledMessage, MessageFn, Op, Slice, Tables,
};
use crate::write::{
    plain_ascii, put_bytes, short_decimal_f32, write_f32_other, write_hex_str, write_hundredths,
    write_text_slow, Charset, Sink,
};

/// The helpers the compiled code calls, by the names it declares them under.
pub(super) fn helpers() -> [(&'static str, *const u8); 3] {
    [
        ("sable_jit_value", sable_jit_value as *const u8),
        ("sable_jit_f32", sable_jit_f32 as *const u8),
        ("sable_jit_data", sable_jit_data as *const u8),
    ]
}

/// Block function `id` of the finalized `module`.
pub(super) fn block_fn(module: &JITModule, id: FuncId) -> BlockFn {
    let f = module.get_finalized_function(id);
    // SAFETY: compiled by `compile` with the signature of `BlockFn` (six pointers and an
    // `i64`, returning a pointer, the platform's C convention).
    unsafe { std::mem::transmute::<*const u8, BlockFn>(f) }
}

/// Message function `id` of the finalized `module`.
pub(super) fn message_fn(module: &JITModule, id: FuncId) -> MessageFn {
    let f = module.get_finalized_function(id);
    // SAFETY: compiled by `compile_message` with the signature of `MessageFn` (seven pointers,
    // returning a pointer, the platform's C convention).
    unsafe { std::mem::transmute::<*const u8, MessageFn>(f) }
}

/// Runs `prog`'s compiled operations on `block`, writing into `s`; false when it did not
/// (nothing counted as written), and the interpreter has to.
#[inline(always)]
pub(crate) fn run(
    c: &CompiledBlock,
    tables: &Tables,
    prog: &BlockProgram,
    block: &[u8],
    acting: i64,
    s: &mut Slice<'_>,
) -> bool {
    if block.len() < c.need || s.rest.len() < c.room {
        return false;
    }
    let out = s.rest.as_mut_ptr();
    // SAFETY: `c.f` was compiled by `compile` for `prog.ops` (whose heap address is that of the
    // `Box` passed here, the same operations), with the signature of `BlockFn`. It reads the
    // block only below `c.need` (checked above) and through `sable_jit_value` (which gets
    // `block`'s true length), and writes only into `[out, out + s.rest.len())` (see the module's
    // documentation; `c.room` checked above).
    let end = unsafe {
        (c.f)(
            tables,
            prog.ops.as_ptr(),
            block.as_ptr(),
            block.len(),
            out,
            out.add(s.rest.len()),
            acting,
        )
    };
    if end.is_null() {
        return false;
    }
    let written = (end as usize).wrapping_sub(out as usize);
    if written > s.rest.len() {
        return false;
    }
    let rest = std::mem::take(&mut s.rest);
    s.rest = &mut rest[written..];
    true
}

/// A [`Sink`] writing at a raw pointer without checks: built only in this module's helpers,
/// over a room checked beforehand, and only given writers that touch at most that room
/// ([`write_hundredths`] in 32 bytes: a sign, then a window of 8 bytes; a short text between
/// quotes in its length and 2).
struct Raw(*mut u8);

impl Sink for Raw {
    #[inline(always)]
    fn push(&mut self, b: u8) {
        // SAFETY: within the room (see `Raw`).
        unsafe {
            self.0.write(b);
            self.0 = self.0.add(1);
        }
    }

    #[inline(always)]
    fn put(&mut self, s: &[u8]) {
        // SAFETY: within the room (see `Raw`).
        unsafe {
            std::ptr::copy_nonoverlapping(s.as_ptr(), self.0, s.len());
            self.0 = self.0.add(s.len());
        }
    }

    #[inline(always)]
    fn put_window<const N: usize>(&mut self, w: &[u8; N], keep: usize) {
        // SAFETY: within the room (see `Raw`).
        unsafe {
            std::ptr::copy_nonoverlapping(w.as_ptr(), self.0, N);
            self.0 = self.0.add(keep.min(N));
        }
    }
}

/// Writes the float of bits `bits` (or `null` for a NaN when `nan_null`) at `out`; returns
/// where it ends, or null when it did not fit in 32 bytes.
///
/// # Safety
///
/// `out` is valid for writes of 32 bytes.
unsafe extern "C" fn sable_jit_f32(out: *mut u8, bits: u64, nan_null: u64) -> *mut u8 {
    let f = f32::from_bits(bits as u32);
    if nan_null != 0 && f.is_nan() {
        let mut s = Raw(out);
        s.put_window(b"null", 4);
        return s.0;
    }
    if let Some(d) = short_decimal_f32(f.abs()) {
        let mut s = Raw(out);
        write_hundredths(&mut s, f.is_sign_negative(), d);
        return s.0;
    }
    f32_other(out, f)
}

/// [`sable_jit_f32`]'s other floats.
///
/// # Safety
///
/// `out` is valid for writes of 32 bytes.
#[inline(never)]
unsafe fn f32_other(out: *mut u8, f: f32) -> *mut u8 {
    // SAFETY: the caller's contract (32 bytes from `out`).
    unsafe { through(out, out.add(32), |s| write_f32_other(s, f)) }
}

/// The interpreter's [`value`] for the operation at `op`, writing into `[out, end)`; returns
/// where it ends, or null when it did not fit.
///
/// # Safety
///
/// `tables` and `op` point to live values, `block` to `block_len` readable bytes, and
/// `[out, end)` is writable, `out <= end`.
unsafe extern "C" fn sable_jit_value(
    tables: *const Tables,
    op: *const Op,
    block: *const u8,
    block_len: usize,
    out: *mut u8,
    end: *mut u8,
) -> *mut u8 {
    // SAFETY: the caller's contract.
    let (tables, op, block) =
        unsafe { (&*tables, &*op, std::slice::from_raw_parts(block, block_len)) };
    // Never a `K::Since` (compiled as a branch), so neither the operations nor `acting` count.
    // SAFETY: the caller's contract.
    unsafe {
        through(out, end, |s| {
            let mut none: &[Op] = &[];
            value::<false>(tables, op, block, i64::MAX, &mut none, s);
        })
    }
}

/// Runs `f` on a [`Slice`] of initialized memory (a buffer on the stack, or on the heap when
/// that is too short and the room is longer), then copies what it wrote to `[out, end)`;
/// returns where that ends, or null when it did not fit. (The room itself may be
/// uninitialized: the spare capacity of the caller's `Vec`; no reference to it is made.)
///
/// # Safety
///
/// `[out, end)` is writable, `out <= end`.
#[inline(never)]
unsafe fn through(out: *mut u8, end: *mut u8, f: impl Fn(&mut Slice<'_>)) -> *mut u8 {
    let room = (end as usize).saturating_sub(out as usize);
    let run = |tmp: &mut [u8]| -> Option<usize> {
        let total = tmp.len();
        let mut s = Slice {
            rest: tmp,
            short: false,
        };
        f(&mut s);
        (!s.short).then(|| total - s.rest.len())
    };
    let mut stack = [0u8; 512];
    let n = room.min(stack.len());
    let mut heap = Vec::new();
    let (tmp, written) = match run(&mut stack[..n]) {
        Some(w) => (&stack[..], w),
        None if room > n => {
            heap.resize(room.min(1 << 20), 0);
            match run(&mut heap) {
                Some(w) => (&heap[..], w),
                None => return std::ptr::null_mut(),
            }
        }
        None => return std::ptr::null_mut(),
    };
    let Some(bytes) = tmp.get(..written).filter(|b| b.len() <= room) else {
        return std::ptr::null_mut();
    };
    // SAFETY: `written <= room`: within `[out, end)`, writable (the caller's contract); the
    // temporary buffer does not overlap it.
    unsafe {
        std::ptr::copy_nonoverlapping(bytes.as_ptr(), out, written);
        out.add(written)
    }
}

/// Writes var data `[src, src + n)` at `out`, as the interpreter does after its key: a JSON
/// string (`charset` 1 Latin-1, 2 UTF-8) or hex (`charset` 0); returns where it ends, or null
/// when it did not fit before `end`.
///
/// # Safety
///
/// `[src, src + n)` is readable, `[out, end)` is writable, `out <= end`.
unsafe extern "C" fn sable_jit_data(
    out: *mut u8,
    end: *mut u8,
    src: *const u8,
    n: usize,
    charset: u64,
) -> *mut u8 {
    // SAFETY: the caller's contract.
    let bytes = unsafe { std::slice::from_raw_parts(src, n) };
    let room = (end as usize).saturating_sub(out as usize);
    if charset != 0 && n <= 32 && room >= n + 2 && plain_ascii(bytes) {
        // Quotes around the text, written through `Raw` within `n + 2` bytes (`put_bytes`
        // writes exactly `n` bytes up to 32).
        let mut s = Raw(out);
        s.push(b'"');
        put_bytes(&mut s, bytes);
        s.push(b'"');
        return s.0;
    }
    // SAFETY: the caller's contract.
    unsafe { data_other(out, end, src, n, charset) }
}

/// [`sable_jit_data`] for long or escaped text, hex, or a short room.
///
/// # Safety
///
/// As [`sable_jit_data`].
#[inline(never)]
unsafe fn data_other(
    out: *mut u8,
    end: *mut u8,
    src: *const u8,
    n: usize,
    charset: u64,
) -> *mut u8 {
    // SAFETY: the caller's contract.
    let bytes = unsafe { std::slice::from_raw_parts(src, n) };
    // SAFETY: the caller's contract.
    unsafe {
        through(out, end, |s| match charset {
            0 => write_hex_str(s, bytes),
            c => {
                if plain_ascii(bytes) {
                    s.push(b'"');
                    put_bytes(s, bytes);
                    s.push(b'"');
                } else {
                    let charset = if c == 2 {
                        Charset::Utf8
                    } else {
                        Charset::Latin1
                    };
                    write_text_slow(s, bytes, charset, false);
                }
            }
        })
    }
}

/// How many times the room is doubled before a message goes to the interpreter.
const ROOM_TRIES: usize = 6;

/// Prints the message in `buf` (its header read: root block of `block_length` bytes, acting
/// version `acting`) by its compiled code, appending to `out`; where the message ends, or
/// `None` when it did not (nothing appended): the interpreter prints it.
#[inline(always)]
pub(crate) fn run_message(
    c: &CompiledMessage,
    tables: &Tables,
    buf: &[u8],
    block_length: usize,
    acting: i64,
    out: &mut Vec<u8>,
) -> Option<usize> {
    if acting < c.newest {
        return None;
    }
    out.reserve(4096);
    for _ in 0..ROOM_TRIES {
        let len = out.len();
        let spare = out.spare_capacity_mut();
        let total = spare.len();
        let start = spare.as_mut_ptr().cast::<u8>();
        let mut pos = usize::MAX;
        // SAFETY: `c.f` was compiled by `compile_message` with the signature of `MessageFn`,
        // for the programs of `tables` (whose operations' and sets' addresses it holds; they
        // live as long as the code). It reads `buf` only after checking each read against
        // `buf.len()`, and writes only into `[start, start + total)` (the `Vec`'s spare
        // capacity), by raw stores after checking the room, never through references to it
        // (helpers get the room's end and write through raw pointers, see `through`).
        let end = unsafe {
            (c.f)(
                tables,
                buf.as_ptr(),
                buf.len(),
                block_length,
                start,
                start.add(total),
                &mut pos,
            )
        };
        let written = (end as usize).wrapping_sub(start as usize);
        if end as usize == 1 {
            out.reserve(total.saturating_mul(2));
            continue;
        }
        if end.is_null() || written > total || pos > buf.len() {
            return None;
        }
        // SAFETY: the code returned where its output ends: every byte of
        // `[start, start + written)` was stored (its cursor moves only past bytes it wrote),
        // and `written <= total`, within the capacity.
        unsafe { out.set_len(len + written) };
        return Some(pos);
    }
    None
}

/// Owns the compiled code (freed when the program is dropped).
pub(crate) struct Code(Option<JITModule>);

impl Code {
    /// Keeps `module` (its functions finalized) until the program is dropped.
    pub(super) fn new(module: JITModule) -> Code {
        Code(Some(module))
    }
}

impl std::fmt::Debug for Code {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Code")
    }
}

// SAFETY: the module is never used after `compile_all` returns, but to free its memory on drop;
// the functions it holds are plain code, callable from any thread.
unsafe impl Send for Code {}
// SAFETY: as above; a shared `Code` gives access to nothing.
unsafe impl Sync for Code {}

impl Drop for Code {
    fn drop(&mut self) {
        if let Some(m) = self.0.take() {
            // SAFETY: the compiled functions are referred to only by the `BlockProgram`s of the
            // same `Program`, which is being dropped, so none runs or is called again.
            unsafe { m.free_memory() };
        }
    }
}
