//! Feature `jit`: the JSON printer's programs compiled to machine code with Cranelift, for
//! little-endian schemas (`docs/jit.md`).
//!
//! Each message is compiled to one function ([`compile_message`]) that prints it whole for the
//! common case: the acting version at least every version in the message, and the group and
//! var data headers on the decoder's fast paths. It reads the root block, each group's header
//! and a loop over its entries (nested groups and var data inside), each var data's length,
//! checking every read against the buffer's length first, and writes constant texts as
//! immediate stores, integers by `write_u64`'s digit code in IR, one-byte enums and other enums
//! by switches, one-byte sets from 32-byte windows, short char arrays and short var data by a
//! plain-text test and a copy, arrays unrolled; floats, longer text and everything else by
//! calls to the helpers below. On anything else it returns null before its output counts, and
//! the interpreter prints the message (errors included); when the room runs short it returns 1
//! and is run again with more.
//!
//! Each block's operations are also compiled alone ([`compile`]), for the interpreter's walk
//! (older acting versions, messages the message code left): version tests as branches on the
//! acting version, the rest as above.
//!
//! The `unsafe` of the feature is in this module: calling the compiled code, and the helpers it
//! calls, which turn raw pointers back into the references the caller passed (never into
//! references to the output room, which may be a `Vec`'s uninitialized capacity: they write
//! through [`Raw`] after checking the room, or into an initialized temporary copied out by
//! [`through`]).
//!
//! Memory safety of the output rests on one invariant, established when a block is compiled:
//! for each operation `i`, `reserve[i]` is the most bytes that the operations from `i` on can
//! write by their inline code (their texts, `null`s, up to 32 bytes per number or window). The
//! room is checked to be at least `reserve[0]` before a block's operations run (by the caller
//! for a block's code, by the message's code itself before each block, key and closing); each
//! helper is given a room that ends `reserve[i + 1]` bytes before the end, and returns null
//! when it did not fit.

use cranelift_codegen::ir::{
    condcodes::IntCC, types, AbiParam, Endianness, InstBuilder, MemFlagsData, Signature,
};
use cranelift_codegen::settings::{self, Configurable};
use cranelift_frontend::{FunctionBuilder, FunctionBuilderContext, Variable};
use cranelift_jit::{JITBuilder, JITModule};
use cranelift_module::{FuncId, Linkage, Module};

use sable_ir::PrimitiveType;

use super::{value, BlockProgram, EnumOp, MessageProgram, Op, Slice, Tables, K, NULL};
use crate::decode::{Block, Charset, Kind, MessagePlan, Node, Tail};
use crate::json::{
    plain_ascii, put_bytes, short_decimal_f32, write_f32_other, write_hex_str, write_hundredths,
    write_text_slow, Sink,
};

/// The compiled code of a block: `(tables, ops, block, block_len, out, out_end, acting)`, and
/// where it ends (or null: not printed, the interpreter prints the block).
type BlockFn = unsafe extern "C" fn(
    *const Tables,
    *const Op,
    *const u8,
    usize,
    *mut u8,
    *mut u8,
    i64,
) -> *mut u8;

/// A block's compiled operations.
#[derive(Debug, Clone, Copy)]
pub(super) struct Compiled {
    f: BlockFn,
    /// The bytes of the block its inline reads need (a shorter block goes to the interpreter).
    need: usize,
    /// The room it needs at the cursor.
    room: usize,
}

/// Runs `prog`'s compiled operations on `block`, writing into `s`; false when it did not
/// (nothing counted as written), and the interpreter has to.
#[inline(always)]
pub(super) fn run(
    c: &Compiled,
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

/// Calls `f` on every block program under `prog` (its groups' entries, then itself).
fn walk(prog: &mut BlockProgram, f: &mut impl FnMut(&mut BlockProgram)) {
    for t in prog.tails.iter_mut() {
        if let Some(e) = t.entry.as_mut() {
            walk(e, f);
        }
    }
    f(prog);
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

/// The compiled code of a message: `(tables, buf, buf_len, block_length, out, out_end,
/// pos_out)`, and where its output ends (the message's end stored at `pos_out`); null when it
/// did not print it (the interpreter has to), 1 when it needs more room.
type MessageFn = unsafe extern "C" fn(
    *const Tables,
    *const u8,
    usize,
    usize,
    *mut u8,
    *mut u8,
    *mut usize,
) -> *mut u8;

/// A message's compiled code.
#[derive(Debug, Clone, Copy)]
pub(super) struct CompiledMessage {
    f: MessageFn,
    /// The least acting version it runs at (every field, group and var data present).
    newest: i64,
}

/// How many times the room is doubled before a message goes to the interpreter.
const ROOM_TRIES: usize = 6;

/// Prints the message in `buf` (its header read: root block of `block_length` bytes, acting
/// version `acting`) by its compiled code, appending to `out`; where the message ends, or
/// `None` when it did not (nothing appended): the interpreter prints it.
#[inline(always)]
pub(super) fn run_message(
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
pub(super) struct Code(Option<JITModule>);

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

/// What one compiled block needs, before the module is finalized.
struct Pending {
    id: FuncId,
    need: usize,
    room: usize,
}

/// Compiles every message of `messages` (their plans `plans`, headers of `size` bytes) and
/// every block it can (operations of supported kinds, little-endian) and stores the result in
/// their `jit`; the code to keep alive.
pub(super) fn compile_all(
    tables: &Tables,
    messages: &mut [MessageProgram],
    plans: &[MessagePlan],
    size: usize,
) -> Option<Code> {
    let mut flags = settings::builder();
    flags.set("opt_level", "speed").ok()?;
    let isa = cranelift_native::builder()
        .ok()?
        .finish(settings::Flags::new(flags))
        .ok()?;
    let mut jb = JITBuilder::with_isa(isa, cranelift_module::default_libcall_names());
    jb.symbol("sable_jit_value", sable_jit_value as *const u8);
    jb.symbol("sable_jit_f32", sable_jit_f32 as *const u8);
    jb.symbol("sable_jit_data", sable_jit_data as *const u8);
    let mut module = JITModule::new(jb);
    let ptr = module.target_config().pointer_type();
    // Addresses and positions are 64-bit values in the code.
    if ptr != types::I64 {
        return None;
    }
    let sig_of = |module: &JITModule, params: &[types::Type]| {
        let mut s = module.make_signature();
        for &p in params {
            s.params.push(AbiParam::new(p));
        }
        s.returns.push(AbiParam::new(ptr));
        s
    };
    let i64t = types::I64;
    let mut declare = |name: &str, params: &[types::Type]| {
        let sig = sig_of(&module, params);
        module.declare_function(name, Linkage::Import, &sig).ok()
    };
    let helpers = Helpers {
        f32_id: declare("sable_jit_f32", &[ptr, i64t, i64t])?,
        value_id: declare("sable_jit_value", &[ptr; 6])?,
        data_id: declare("sable_jit_data", &[ptr, ptr, ptr, ptr, i64t])?,
    };
    let sig = sig_of(&module, &[ptr, ptr, ptr, ptr, ptr, ptr, i64t]);
    let sig_message = sig_of(&module, &[ptr; 7]);
    let mut pending = Vec::new();
    for m in messages.iter_mut() {
        walk(&mut m.root, &mut |prog| {
            let n = pending.len();
            pending.push(compile(&mut module, &sig, &helpers, tables, &prog.ops, n));
        });
    }
    let mut whole = Vec::new();
    for (n, (m, plan)) in messages.iter().zip(plans).enumerate() {
        whole.push(compile_message(
            &mut module,
            &sig_message,
            &helpers,
            tables,
            plan,
            &m.root,
            size,
            n,
        ));
    }
    module.finalize_definitions().ok()?;
    let mut pending = pending.into_iter();
    for (m, w) in messages.iter_mut().zip(whole) {
        walk(&mut m.root, &mut |prog| {
            let Some(p) = pending.next().flatten() else {
                return;
            };
            let f = module.get_finalized_function(p.id);
            // SAFETY: compiled with `sig`, the signature of `BlockFn` (six pointers and an
            // `i64`, returning a pointer, the platform's C convention).
            let f: BlockFn = unsafe { std::mem::transmute::<*const u8, BlockFn>(f) };
            prog.jit = Some(Compiled {
                f,
                need: p.need,
                room: p.room,
            });
        });
        if let Some((id, newest)) = w {
            let f = module.get_finalized_function(id);
            // SAFETY: compiled with `sig_message`, the signature of `MessageFn` (seven
            // pointers, returning a pointer, the platform's C convention).
            let f: MessageFn = unsafe { std::mem::transmute::<*const u8, MessageFn>(f) };
            m.jit = Some(CompiledMessage { f, newest });
        }
    }
    Some(Code(Some(module)))
}

struct Helpers {
    value_id: FuncId,
    f32_id: FuncId,
    data_id: FuncId,
}

impl Helpers {
    fn refs(&self, module: &mut JITModule, b: &mut FunctionBuilder<'_>) -> Refs {
        Refs {
            value_ref: module.declare_func_in_func(self.value_id, b.func),
            f32_ref: module.declare_func_in_func(self.f32_id, b.func),
            data_ref: module.declare_func_in_func(self.data_id, b.func),
        }
    }
}

/// The most bytes an operation writes after its text, by the compiled code (`None`: through
/// `sable_jit_value`, bounded by the room it gets; 4 reserved all the same, so that the `null`
/// a version test writes instead of it fits in what it reserves).
fn inline_bound(op: &Op, tables: &Tables) -> Option<usize> {
    match op.kind {
        K::None => Some(0),
        // `{`, or `null` instead of the composite.
        K::Open => Some(4),
        K::Long | K::Const => tables.texts.get(op.aux as usize).map(|t| t.len()),
        K::U8 | K::U16 | K::U32 | K::U64 | K::I8 | K::I16 | K::I32 | K::I64 | K::F32 => Some(32),
        // Its names, `null` or `{"unknown":N}` (a sign and at most 28 bytes touched by the
        // number).
        K::Enum1 => Some(
            tables
                .enums
                .get(op.aux as usize)?
                .names
                .iter()
                .map(|n| n.bytes().len())
                .max()
                .unwrap_or(0)
                .max(UNKNOWN_BOUND),
        ),
        // The null texts, or the operations run.
        K::Since => Some(0),
        K::Chars if chars_inline(op) => Some((op.aux as usize + 2).max(4)),
        // A window of 32 bytes.
        K::Set1 if set1_table(op, tables).is_some() => Some(32),
        // `[`, each element after `[` or `,` (an integer or float touches at most 32), `]`.
        K::Array => array_inline(op).map(|(n, _)| 2 + n * 33),
        K::Enum => enum_inline(op, tables).map(|e| {
            e.names
                .iter()
                .map(|n| n.bytes().len())
                .max()
                .unwrap_or(0)
                .max(UNKNOWN_BOUND)
        }),
        _ => None,
    }
}

/// The most bytes `{"unknown":N}` touches: its text, a sign, a number's 28, `}`.
const UNKNOWN_BOUND: usize = 11 + 1 + 28 + 1;

/// The end of the bytes operation `op` reads inline (from the block's start), if any.
fn inline_read(op: &Op, tables: &Tables) -> Option<usize> {
    let off = op.off as usize;
    let n = match op.kind {
        K::Enum1 | K::Set1 => 1,
        K::Chars | K::Array => op.aux as usize,
        K::Enum => tables.enums.get(op.aux as usize)?.ty.size(),
        k => usize::from(int_size(k)?),
    };
    off.checked_add(n)
}

/// Whether a `Chars` operation is compiled inline (1 to 32 bytes).
fn chars_inline(op: &Op) -> bool {
    (1..=32).contains(&op.aux)
}

/// A one-byte set's windows (see `SetOp`).
fn set1_table<'t>(op: &Op, tables: &'t Tables) -> Option<&'t [u8]> {
    let w = tables.sets.get(op.aux as usize)?.windows.as_deref()?;
    (w.len() == 256 * 33).then_some(w)
}

/// An array compiled inline: its number of elements (at most 16) and their size; integers and
/// floats.
fn array_inline(op: &Op) -> Option<(usize, usize)> {
    let size = match op.ty {
        PrimitiveType::Double | PrimitiveType::Char => return None,
        t => t.size(),
    };
    let n = op.aux as usize / size;
    (n <= 16).then_some((n, size))
}

/// An enum of more than one byte compiled inline (a switch on at most 256 values).
fn enum_inline<'t>(op: &Op, tables: &'t Tables) -> Option<&'t EnumOp> {
    let e = tables.enums.get(op.aux as usize)?;
    (matches!(e.ty.size(), 2 | 4 | 8) && e.values.len() <= 256 && e.table.is_none()).then_some(e)
}

/// The bytes an integer operation reads.
fn int_size(k: K) -> Option<u8> {
    match k {
        K::U8 | K::I8 => Some(1),
        K::U16 | K::I16 => Some(2),
        K::U32 | K::I32 | K::F32 => Some(4),
        K::U64 | K::I64 => Some(8),
        _ => None,
    }
}

type Val = cranelift_codegen::ir::Value;
type Blk = cranelift_codegen::ir::Block;

struct Refs {
    value_ref: cranelift_codegen::ir::FuncRef,
    f32_ref: cranelift_codegen::ir::FuncRef,
    data_ref: cranelift_codegen::ir::FuncRef,
}

struct Gen<'a, 'b> {
    b: FunctionBuilder<'a>,
    tables: &'b Tables,
    /// The operations of the block being compiled.
    ops: &'b [Op],
    /// `reserve[i]`: see the module's documentation (`reserve[ops.len()]` is 0).
    reserve: Vec<usize>,
    cur: Variable,
    /// The block being compiled: its first byte, its length, its operations' address.
    block: Val,
    block_len: Val,
    ops_ptr: Val,
    tables_ptr: Val,
    out_end: Val,
    /// The acting version; `None` in a message's code, which runs only when it is at least
    /// every version test's.
    acting: Option<Val>,
    /// Where a helper that did not fit goes.
    fail: Blk,
    refs: Refs,
}

fn flags() -> MemFlagsData {
    MemFlagsData::new()
        .with_notrap()
        .with_endianness(Endianness::Little)
}

impl Gen<'_, '_> {
    /// Stores `text` at the cursor and moves it past.
    fn text(&mut self, text: &[u8]) {
        if text.is_empty() {
            return;
        }
        let cur = self.b.use_var(self.cur);
        let mut at = 0usize;
        while at < text.len() {
            let left = text.len() - at;
            let n = [8usize, 4, 2, 1]
                .into_iter()
                .find(|&n| n <= left)
                .unwrap_or(1);
            let mut w = [0u8; 8];
            w[..n].copy_from_slice(&text[at..at + n]);
            let v = i64::from_le_bytes(w);
            let ty = match n {
                8 => types::I64,
                4 => types::I32,
                2 => types::I16,
                _ => types::I8,
            };
            let c = self.b.ins().iconst(ty, v);
            self.b.ins().store(flags(), c, cur, at as i32);
            at += n;
        }
        let next = self.b.ins().iadd_imm_s(cur, text.len() as i64);
        self.b.def_var(self.cur, next);
    }

    /// The operations `lo..hi`.
    fn range(&mut self, lo: usize, hi: usize) -> Option<()> {
        let mut i = lo;
        while i < hi {
            let op = self.ops.get(i)?;
            if op.kind == K::Since {
                let end = i.checked_add(1 + op.aux as usize)?.min(hi);
                let Some(acting) = self.acting else {
                    // A message's code: the acting version is at least `since`.
                    self.range(i + 1, end)?;
                    i = end;
                    continue;
                };
                // Below `since`, the null texts instead of the next `aux` operations.
                let nulls = self.tables.texts.get(op.off as usize)?;
                // The null texts must fit in what the skipped operations reserve.
                if nulls.len() > self.reserve[i] - self.reserve[end] {
                    return None;
                }
                let skip = self.b.create_block();
                let run = self.b.create_block();
                let after = self.b.create_block();
                let newer =
                    self.b
                        .ins()
                        .icmp_imm_s(IntCC::SignedLessThan, acting, i64::from(op.since));
                self.b.ins().brif(newer, skip, &[], run, &[]);
                self.b.seal_block(skip);
                self.b.seal_block(run);
                self.b.switch_to_block(skip);
                let nulls = nulls.clone();
                self.text(&nulls);
                self.b.ins().jump(after, &[]);
                self.b.switch_to_block(run);
                self.range(i + 1, end)?;
                self.b.ins().jump(after, &[]);
                self.b.seal_block(after);
                self.b.switch_to_block(after);
                i = end;
                continue;
            }
            let text = op.text.get(..usize::from(op.len % 32))?.to_vec();
            self.text(&text);
            self.op(i)?;
            i += 1;
        }
        Some(())
    }

    /// The value of operation `i` (after its text).
    fn op(&mut self, i: usize) -> Option<()> {
        let op = self.ops.get(i)?;
        match op.kind {
            K::None => {}
            K::Open => self.text(b"{"),
            K::Long | K::Const => {
                let t = self.tables.texts.get(op.aux as usize)?.clone();
                self.text(&t);
            }
            K::Since => return None,
            k => {
                if let Some(n) = int_size(k) {
                    self.int(op, n);
                } else if k == K::Enum1 {
                    self.enum1(i)?;
                } else if k == K::Chars && chars_inline(op) {
                    self.chars(i)?;
                } else if k == K::Set1 && set1_table(op, self.tables).is_some() {
                    self.set1(i)?;
                } else if k == K::Array && array_inline(op).is_some() {
                    self.array(i)?;
                } else if k == K::Enum && enum_inline(op, self.tables).is_some() {
                    self.enum_n(i)?;
                } else {
                    self.helper(i)?;
                }
            }
        }
        Some(())
    }

    /// An integer of `n` bytes at `op.off`.
    fn int(&mut self, op: &Op, n: u8) {
        let block = self.block;
        let off = op.off as i32;
        let signed = matches!(op.kind, K::I8 | K::I16 | K::I32 | K::I64);
        let raw = match n {
            1 => self.b.ins().uload8(types::I64, flags(), block, off),
            2 => self.b.ins().uload16(types::I64, flags(), block, off),
            4 => self.b.ins().uload32(flags(), block, off),
            _ => self.b.ins().load(types::I64, flags(), block, off),
        };
        let tested = n < 8 || op.has_null;
        let write = self.b.create_block();
        let after = self.b.create_block();
        if tested {
            let null = self.b.create_block();
            let is_null = self.b.ins().icmp_imm_s(IntCC::Equal, raw, op.null as i64);
            self.b.ins().brif(is_null, null, &[], write, &[]);
            self.b.seal_block(null);
            self.b.switch_to_block(null);
            self.text(b"null");
            self.b.ins().jump(after, &[]);
        } else {
            self.b.ins().jump(write, &[]);
        }
        self.b.seal_block(write);
        self.b.switch_to_block(write);
        let v = if signed {
            match n {
                1 => self.b.ins().sload8(types::I64, flags(), block, off),
                2 => self.b.ins().sload16(types::I64, flags(), block, off),
                4 => self.b.ins().sload32(flags(), block, off),
                _ => raw,
            }
        } else {
            raw
        };
        let cur = self.b.use_var(self.cur);
        if op.kind == K::F32 {
            let nan_null = self.b.ins().iconst(types::I64, i64::from(op.nan_null));
            let call = self.b.ins().call(self.refs.f32_ref, &[cur, v, nan_null]);
            let next = self.b.inst_results(call)[0];
            self.b.def_var(self.cur, next);
            self.b.ins().brif(next, after, &[], self.fail, &[]);
        } else {
            let v = if signed { self.sign(v) } else { v };
            self.uint(v);
            self.b.ins().jump(after, &[]);
        }
        self.b.seal_block(after);
        self.b.switch_to_block(after);
    }

    /// Writes `-` when `v` (signed) is negative; its magnitude.
    fn sign(&mut self, v: Val) -> Val {
        let mag = self.b.declare_var(types::I64);
        self.b.def_var(mag, v);
        let neg = self.b.create_block();
        let after = self.b.create_block();
        let is_neg = self.b.ins().icmp_imm_s(IntCC::SignedLessThan, v, 0);
        self.b.ins().brif(is_neg, neg, &[], after, &[]);
        self.b.seal_block(neg);
        self.b.switch_to_block(neg);
        self.text(b"-");
        let m = self.b.ins().ineg(v);
        self.b.def_var(mag, m);
        self.b.ins().jump(after, &[]);
        self.b.seal_block(after);
        self.b.switch_to_block(after);
        self.b.use_var(mag)
    }

    /// Stores the window `d | zeros` (digits in bytes, the first in the lowest, `n` bytes)
    /// without its leading zero digits (keeping the last), and moves the cursor past.
    fn digits(&mut self, d: Val, n: i64) {
        let tz = self.b.ins().ctz(d);
        let z = self.b.ins().ushr_imm_u(tz, 3);
        let most = self.b.ins().iconst(types::I64, n - 1);
        let z = self.b.ins().umin(z, most);
        let zeros = if n == 4 {
            0x3030_3030
        } else {
            0x3030_3030_3030_3030
        };
        let ascii = self.b.ins().bor_imm_u(d, zeros);
        let sh = self.b.ins().ishl_imm_u(z, 3);
        let w = self.b.ins().ushr(ascii, sh);
        let cur = self.b.use_var(self.cur);
        if n == 4 {
            let w = self.b.ins().ireduce(types::I32, w);
            self.b.ins().store(flags(), w, cur, 0);
        } else {
            self.b.ins().store(flags(), w, cur, 0);
        }
        let n = self.b.ins().iconst(types::I64, n);
        let adv = self.b.ins().isub(n, z);
        let next = self.b.ins().iadd(cur, adv);
        self.b.def_var(self.cur, next);
    }

    /// The four decimal digits of `v` (below 10^4) in bytes, the first in the lowest
    /// (`digits4`).
    fn digits4(&mut self, v: Val) -> Val {
        let h = self.b.ins().imul_imm_u(v, 10_486);
        let h = self.b.ins().ushr_imm_u(h, 20);
        let r = self.b.ins().imul_imm_u(h, 100);
        let r = self.b.ins().isub(v, r);
        let r = self.b.ins().ishl_imm_u(r, 16);
        let x = self.b.ins().bor(h, r);
        let t = self.b.ins().imul_imm_u(x, 103);
        let t = self.b.ins().ushr_imm_u(t, 10);
        let t = self.b.ins().band_imm_u(t, 0x000f_000f);
        let u = self.b.ins().imul_imm_u(t, 10);
        let u = self.b.ins().isub(x, u);
        let u = self.b.ins().ishl_imm_u(u, 8);
        self.b.ins().bor(t, u)
    }

    /// The eight decimal digits of `v` (below 10^8) in bytes, the first in the lowest
    /// (`digits8`).
    fn digits8(&mut self, v: Val) -> Val {
        // `v / 10_000` for `v` below 2^32.
        let q = self.b.ins().imul_imm_u(v, 0xD1B7_1759);
        let q = self.b.ins().ushr_imm_u(q, 45);
        let r = self.b.ins().imul_imm_u(q, 10_000);
        let r = self.b.ins().isub(v, r);
        let r = self.b.ins().ishl_imm_u(r, 32);
        let x = self.b.ins().bor(q, r);
        let h = self.b.ins().imul_imm_u(x, 10_486);
        let h = self.b.ins().ushr_imm_u(h, 20);
        let h = self.b.ins().band_imm_u(h, 0x0000_007f_0000_007f);
        let r = self.b.ins().imul_imm_u(h, 100);
        let r = self.b.ins().isub(x, r);
        let r = self.b.ins().ishl_imm_u(r, 16);
        let x = self.b.ins().bor(h, r);
        let t = self.b.ins().imul_imm_u(x, 103);
        let t = self.b.ins().ushr_imm_u(t, 10);
        let t = self.b.ins().band_imm_u(t, 0x000f_000f_000f_000f);
        let u = self.b.ins().imul_imm_u(t, 10);
        let u = self.b.ins().isub(x, u);
        let u = self.b.ins().ishl_imm_u(u, 8);
        self.b.ins().bor(t, u)
    }

    /// Stores exactly the eight digits `d` ([`Gen::digits8`]) and moves the cursor past.
    fn eight(&mut self, d: Val) {
        let w = self.b.ins().bor_imm_u(d, 0x3030_3030_3030_3030);
        let cur = self.b.use_var(self.cur);
        self.b.ins().store(flags(), w, cur, 0);
        let next = self.b.ins().iadd_imm_s(cur, 8);
        self.b.def_var(self.cur, next);
    }

    /// `v / 10^8` (any `v`).
    fn div_e8(&mut self, v: Val) -> Val {
        let m = self
            .b
            .ins()
            .iconst(types::I64, 0xABCC_7711_8461_CEFDu64 as i64);
        let q = self.b.ins().umulhi(v, m);
        self.b.ins().ushr_imm_u(q, 26)
    }

    /// `v - q * 10^8`.
    fn rem_e8(&mut self, v: Val, q: Val) -> Val {
        let p = self.b.ins().imul_imm_u(q, 100_000_000);
        self.b.ins().isub(v, p)
    }

    /// Writes `v` (unsigned) in decimal, as `write_u64` does. At most 28 bytes touched.
    fn uint(&mut self, v: Val) {
        let small = self.b.create_block();
        let not_small = self.b.create_block();
        let mid = self.b.create_block();
        let not_mid = self.b.create_block();
        let long = self.b.create_block();
        let longest = self.b.create_block();
        let after = self.b.create_block();
        let c = self.b.ins().icmp_imm_u(IntCC::UnsignedLessThan, v, 10_000);
        self.b.ins().brif(c, small, &[], not_small, &[]);
        self.b.seal_block(small);
        self.b.seal_block(not_small);
        self.b.switch_to_block(not_small);
        let c = self
            .b
            .ins()
            .icmp_imm_u(IntCC::UnsignedLessThan, v, 100_000_000);
        self.b.ins().brif(c, mid, &[], not_mid, &[]);
        self.b.seal_block(mid);
        self.b.seal_block(not_mid);
        self.b.switch_to_block(not_mid);
        let c =
            self.b
                .ins()
                .icmp_imm_u(IntCC::UnsignedLessThan, v, 10_000_000_000_000_000u64 as i64);
        self.b.ins().brif(c, long, &[], longest, &[]);
        self.b.seal_block(long);
        self.b.seal_block(longest);
        // Four digits.
        self.b.switch_to_block(small);
        let d = self.digits4(v);
        self.digits(d, 4);
        self.b.ins().jump(after, &[]);
        // Eight digits.
        self.b.switch_to_block(mid);
        let d = self.digits8(v);
        self.digits(d, 8);
        self.b.ins().jump(after, &[]);
        // Up to sixteen: eight, then exactly eight.
        self.b.switch_to_block(long);
        let high = self.div_e8(v);
        let low = self.rem_e8(v, high);
        let d = self.digits8(high);
        self.digits(d, 8);
        let d = self.digits8(low);
        self.eight(d);
        self.b.ins().jump(after, &[]);
        // More: four, eight, eight.
        self.b.switch_to_block(longest);
        let high = self.div_e8(v);
        let low = self.rem_e8(v, high);
        let top = self.div_e8(high);
        let mid8 = self.rem_e8(high, top);
        let d = self.digits4(top);
        self.digits(d, 4);
        let d = self.digits8(mid8);
        self.eight(d);
        let d = self.digits8(low);
        self.eight(d);
        self.b.ins().jump(after, &[]);
        self.b.seal_block(after);
        self.b.switch_to_block(after);
    }

    /// The plain-text test of a word (`plain_word`): the word whose high bits are all clear
    /// when it is plain.
    fn unplain(&mut self, x: Val) -> Val {
        const ONES: u64 = 0x0101_0101_0101_0101;
        let below = self.b.ins().iadd_imm_s(x, -((ONES * 0x20) as i64));
        let below = self.b.ins().band_not(below, x);
        let q = self.b.ins().bxor_imm_u(x, (ONES * u64::from(b'"')) as i64);
        let quote = self.b.ins().iadd_imm_s(q, -(ONES as i64));
        let quote = self.b.ins().band_not(quote, q);
        let bs = self.b.ins().bxor_imm_u(x, (ONES * u64::from(b'\\')) as i64);
        let back = self.b.ins().iadd_imm_s(bs, -(ONES as i64));
        let back = self.b.ins().band_not(back, bs);
        let t = self.b.ins().bor(below, quote);
        let t = self.b.ins().bor(t, back);
        self.b.ins().bor(t, x)
    }

    /// A char array (operation `i`, 1 to 32 bytes): `null` when its first byte is the null
    /// value, copied between quotes when it is plain text (`plain_ascii`), else through
    /// `sable_jit_value`.
    fn chars(&mut self, i: usize) -> Option<()> {
        let op = self.ops.get(i)?;
        let n = op.aux as usize;
        let off = op.off as usize;
        // The words read: (offset in the field, size).
        let mut words = Vec::new();
        if n >= 8 {
            let mut k = 0;
            while k + 8 <= n {
                words.push((k, 8u8));
                k += 8;
            }
            if k < n {
                words.push((n - 8, 8));
            }
        } else if n >= 4 {
            words.push((0, 4));
            words.push((n - 4, 4));
        } else {
            words.push((0, 1));
            words.push((n / 2, 1));
            words.push((n - 1, 1));
        }
        let mut vals = Vec::new();
        for &(o, size) in &words {
            let at = i32::try_from(off + o).ok()?;
            let v = match size {
                8 => self.b.ins().load(types::I64, flags(), self.block, at),
                4 => self.b.ins().uload32(flags(), self.block, at),
                _ => self.b.ins().uload8(types::I64, flags(), self.block, at),
            };
            vals.push(v);
        }
        let after = self.b.create_block();
        if op.has_null {
            let first = self.b.ins().band_imm_u(vals[0], 0xff);
            let null = self.b.create_block();
            let not_null = self.b.create_block();
            let is_null = self.b.ins().icmp_imm_u(IntCC::Equal, first, op.null as i64);
            self.b.ins().brif(is_null, null, &[], not_null, &[]);
            self.b.seal_block(null);
            self.b.seal_block(not_null);
            self.b.switch_to_block(null);
            self.text(b"null");
            self.b.ins().jump(after, &[]);
            self.b.switch_to_block(not_null);
        }
        // The words tested.
        let mut acc = None;
        if n >= 8 {
            for &v in &vals {
                let t = self.unplain(v);
                acc = Some(match acc {
                    None => t,
                    Some(a) => self.b.ins().bor(a, t),
                });
            }
        } else if n >= 4 {
            let hi = self.b.ins().ishl_imm_u(vals[1], 32);
            let x = self.b.ins().bor(vals[0], hi);
            acc = Some(self.unplain(x));
        } else {
            let m = self.b.ins().ishl_imm_u(vals[1], 8);
            let l = self.b.ins().ishl_imm_u(vals[2], 16);
            let x = self.b.ins().bor(vals[0], m);
            let x = self.b.ins().bor(x, l);
            let x = self.b.ins().bor_imm_u(x, 0x6161_6161_6100_0000);
            acc = Some(self.unplain(x));
        }
        let highs = self
            .b
            .ins()
            .band_imm_u(acc?, 0x8080_8080_8080_8080u64 as i64);
        let copy = self.b.create_block();
        let slow = self.b.create_block();
        self.b.ins().brif(highs, slow, &[], copy, &[]);
        self.b.seal_block(copy);
        self.b.seal_block(slow);
        self.b.switch_to_block(copy);
        let cur = self.b.use_var(self.cur);
        let quote = self.b.ins().iconst(types::I8, i64::from(b'"'));
        self.b.ins().store(flags(), quote, cur, 0);
        for (&(o, size), &v) in words.iter().zip(&vals) {
            let at = i32::try_from(1 + o).ok()?;
            let v = match size {
                8 => v,
                4 => self.b.ins().ireduce(types::I32, v),
                _ => self.b.ins().ireduce(types::I8, v),
            };
            self.b.ins().store(flags(), v, cur, at);
        }
        self.b
            .ins()
            .store(flags(), quote, cur, i32::try_from(1 + n).ok()?);
        let next = self.b.ins().iadd_imm_s(cur, i64::try_from(n + 2).ok()?);
        self.b.def_var(self.cur, next);
        self.or_helper(i, slow, after)
    }

    /// A one-byte set (operation `i`): the 32-byte window of its value's JSON copied from
    /// the set's windows and the cursor moved by its length; a JSON that does not fit in 32
    /// bytes through `sable_jit_value`.
    fn set1(&mut self, i: usize) -> Option<()> {
        let op = self.ops.get(i)?;
        let table = set1_table(op, self.tables)?;
        let v = self
            .b
            .ins()
            .uload8(types::I64, flags(), self.block, op.off as i32);
        // The windows' address: their `Box` lives, unmoved, as long as the code (both belong
        // to the same `Program`).
        let base = self
            .b
            .ins()
            .iconst(types::I64, table.as_ptr() as usize as i64);
        let lens = self.b.ins().iadd_imm_s(base, 256 * 32);
        let lens = self.b.ins().iadd(lens, v);
        let n = self.b.ins().uload8(types::I64, flags(), lens, 0);
        let long = self.b.ins().icmp_imm_u(IntCC::Equal, n, i64::from(u8::MAX));
        let copy = self.b.create_block();
        let slow = self.b.create_block();
        let after = self.b.create_block();
        self.b.ins().brif(long, slow, &[], copy, &[]);
        self.b.seal_block(copy);
        self.b.seal_block(slow);
        self.b.switch_to_block(copy);
        let at = self.b.ins().ishl_imm_u(v, 5);
        let at = self.b.ins().iadd(base, at);
        let vflags = MemFlagsData::new().with_notrap();
        let lo = self.b.ins().load(types::I8X16, vflags, at, 0);
        let hi = self.b.ins().load(types::I8X16, vflags, at, 16);
        let cur = self.b.use_var(self.cur);
        self.b.ins().store(vflags, lo, cur, 0);
        self.b.ins().store(vflags, hi, cur, 16);
        let next = self.b.ins().iadd(cur, n);
        self.b.def_var(self.cur, next);
        self.or_helper(i, slow, after)
    }

    /// An array of integers or floats (operation `i`), unrolled: `[`, the elements after
    /// commas, `]` (`write_array`).
    fn array(&mut self, i: usize) -> Option<()> {
        let op = self.ops.get(i)?;
        let (n, size) = array_inline(op)?;
        let signed = matches!(
            op.ty,
            PrimitiveType::Int8
                | PrimitiveType::Int16
                | PrimitiveType::Int32
                | PrimitiveType::Int64
        );
        self.text(b"[");
        for k in 0..n {
            if k > 0 {
                self.text(b",");
            }
            let at = i32::try_from(op.off as usize + k * size).ok()?;
            let block = self.block;
            let v = match (size, signed) {
                (1, false) => self.b.ins().uload8(types::I64, flags(), block, at),
                (2, false) => self.b.ins().uload16(types::I64, flags(), block, at),
                (4, false) => self.b.ins().uload32(flags(), block, at),
                (1, true) => self.b.ins().sload8(types::I64, flags(), block, at),
                (2, true) => self.b.ins().sload16(types::I64, flags(), block, at),
                (4, true) => self.b.ins().sload32(flags(), block, at),
                _ => self.b.ins().load(types::I64, flags(), block, at),
            };
            if op.ty == PrimitiveType::Float {
                let cur = self.b.use_var(self.cur);
                let no_null = self.b.ins().iconst(types::I64, 0);
                let call = self.b.ins().call(self.refs.f32_ref, &[cur, v, no_null]);
                let next = self.b.inst_results(call)[0];
                self.b.def_var(self.cur, next);
                let ok = self.b.create_block();
                self.b.ins().brif(next, ok, &[], self.fail, &[]);
                self.b.seal_block(ok);
                self.b.switch_to_block(ok);
            } else {
                let v = if signed { self.sign(v) } else { v };
                self.uint(v);
            }
        }
        self.text(b"]");
        Some(())
    }

    /// An enum of more than one byte (operation `i`): `null` for its null value, a switch
    /// storing each valid value's name inline; any other value as `{"unknown":N}`.
    fn enum_n(&mut self, i: usize) -> Option<()> {
        let op = self.ops.get(i)?;
        let e = enum_inline(op, self.tables)?;
        let raw = self.uload(e.ty, self.block, op.off as usize)?;
        let after = self.b.create_block();
        if let Some(null) = e.null {
            let is_null = self.b.create_block();
            let not_null = self.b.create_block();
            let c = self.b.ins().icmp_imm_u(IntCC::Equal, raw, null as i64);
            self.b.ins().brif(c, is_null, &[], not_null, &[]);
            self.b.seal_block(is_null);
            self.b.seal_block(not_null);
            self.b.switch_to_block(is_null);
            self.text(b"null");
            self.b.ins().jump(after, &[]);
            self.b.switch_to_block(not_null);
        }
        let mut cases = Vec::new();
        for &(v, n) in e.values.iter() {
            cases.push((u128::from(v), e.names.get(n as usize)?.bytes().to_vec()));
        }
        self.switch_texts(raw, cases, e.ty, op.off as usize, after)
    }

    /// A switch on `raw` storing the text of its case, `{"unknown":N}` (the value of `ty` at
    /// `off`) for any other value, then on at `after` (created by the caller, which may jump
    /// there before).
    fn switch_texts(
        &mut self,
        raw: Val,
        cases: Vec<(u128, Vec<u8>)>,
        ty: PrimitiveType,
        off: usize,
        after: Blk,
    ) -> Option<()> {
        let other = self.b.create_block();
        let mut sw = cranelift_frontend::Switch::new();
        let mut blocks = Vec::with_capacity(cases.len());
        for (v, text) in cases {
            let c = self.b.create_block();
            sw.set_entry(v, c);
            blocks.push((c, text));
        }
        sw.emit(&mut self.b, raw, other);
        for (c, text) in blocks {
            self.b.seal_block(c);
            self.b.switch_to_block(c);
            self.text(&text);
            self.b.ins().jump(after, &[]);
        }
        self.b.seal_block(other);
        self.b.switch_to_block(other);
        self.unknown(ty, off)?;
        self.b.ins().jump(after, &[]);
        self.b.seal_block(after);
        self.b.switch_to_block(after);
        Some(())
    }

    /// An enum's value of no name (`write_enum`): `{"unknown":N}`, `N` the value of `ty` at
    /// `off` in the block (signed for signed types).
    fn unknown(&mut self, ty: PrimitiveType, off: usize) -> Option<()> {
        self.text(b"{\"unknown\":");
        let at = i32::try_from(off).ok()?;
        let block = self.block;
        let v = match ty {
            PrimitiveType::Int8 => self.b.ins().sload8(types::I64, flags(), block, at),
            PrimitiveType::Int16 => self.b.ins().sload16(types::I64, flags(), block, at),
            PrimitiveType::Int32 => self.b.ins().sload32(flags(), block, at),
            PrimitiveType::Int64 => self.b.ins().load(types::I64, flags(), block, at),
            t => self.uload(t, block, off)?,
        };
        let v = if matches!(
            ty,
            PrimitiveType::Int8
                | PrimitiveType::Int16
                | PrimitiveType::Int32
                | PrimitiveType::Int64
        ) {
            self.sign(v)
        } else {
            v
        };
        self.uint(v);
        self.text(b"}");
        Some(())
    }

    /// A one-byte enum (operation `i`): a switch on its value, each valid value's name (or
    /// `null`) stored inline; any other value as `{"unknown":N}`.
    fn enum1(&mut self, i: usize) -> Option<()> {
        let op = self.ops.get(i)?;
        let e = self.tables.enums.get(op.aux as usize)?;
        let table = e.table.as_ref()?;
        let raw = self
            .b
            .ins()
            .uload8(types::I64, flags(), self.block, op.off as i32);
        let mut cases = Vec::new();
        for (v, &n) in table.iter().enumerate() {
            let text = match e.names.get(n as usize) {
                Some(name) => name.bytes().to_vec(),
                None if n == NULL => b"null".to_vec(),
                None => continue,
            };
            cases.push((v as u128, text));
        }
        let after = self.b.create_block();
        self.switch_texts(raw, cases, op.ty, op.off as usize, after)
    }

    /// Ends an operation's inline path (jumping to `after`), prints operation `i` through
    /// `sable_jit_value` in the sealed block `slow`, and goes on at `after`.
    fn or_helper(&mut self, i: usize, slow: Blk, after: Blk) -> Option<()> {
        self.b.ins().jump(after, &[]);
        self.b.switch_to_block(slow);
        self.helper(i)?;
        self.b.ins().jump(after, &[]);
        self.b.seal_block(after);
        self.b.switch_to_block(after);
        Some(())
    }

    /// Operation `i` through `sable_jit_value`.
    fn helper(&mut self, i: usize) -> Option<()> {
        let op = self.b.ins().iadd_imm_s(
            self.ops_ptr,
            i64::try_from(i * std::mem::size_of::<Op>()).ok()?,
        );
        let keep = i64::try_from(*self.reserve.get(i + 1)?).ok()?;
        let end = self.b.ins().iadd_imm_s(self.out_end, -keep);
        let cur = self.b.use_var(self.cur);
        let args = [self.tables_ptr, op, self.block, self.block_len, cur, end];
        let call = self.b.ins().call(self.refs.value_ref, &args);
        let next = self.b.inst_results(call)[0];
        self.b.def_var(self.cur, next);
        let ok = self.b.create_block();
        self.b.ins().brif(next, ok, &[], self.fail, &[]);
        self.b.seal_block(ok);
        self.b.switch_to_block(ok);
        Some(())
    }

    /// Goes to `to` when `cond` holds, else goes on.
    fn bail_if(&mut self, cond: Val, to: Blk) {
        let ok = self.b.create_block();
        self.b.ins().brif(cond, to, &[], ok, &[]);
        self.b.seal_block(ok);
        self.b.switch_to_block(ok);
    }
}

/// The reserve of each operation of `ops` (see the module's documentation), and the bytes of
/// the block their inline reads need.
fn analyse(ops: &[Op], tables: &Tables) -> (Vec<usize>, usize) {
    let mut reserve = vec![0usize; ops.len() + 1];
    let mut need = 0usize;
    for (i, op) in ops.iter().enumerate().rev() {
        let value = inline_bound(op, tables).unwrap_or(4);
        reserve[i] = reserve[i + 1] + usize::from(op.len % 32) + value;
        if let Some(end) = inline_read(op, tables) {
            need = need.max(end);
        }
    }
    (reserve, need)
}

/// Compiles `ops` as function number `n`; `None` when it cannot.
fn compile(
    module: &mut JITModule,
    sig: &Signature,
    helpers: &Helpers,
    tables: &Tables,
    ops: &[Op],
    n: usize,
) -> Option<Pending> {
    let (reserve, need) = analyse(ops, tables);
    let room = reserve[0];
    let mut ctx = module.make_context();
    ctx.func.signature = sig.clone();
    // A context of its own: one left midway (an operation it cannot compile) is dropped.
    let mut fbc = FunctionBuilderContext::new();
    {
        let mut b = FunctionBuilder::new(&mut ctx.func, &mut fbc);
        let entry = b.create_block();
        b.append_block_params_for_function_params(entry);
        b.switch_to_block(entry);
        b.seal_block(entry);
        let p = b.block_params(entry);
        let params: [Val; 7] = p.try_into().ok()?;
        let ptr = module.target_config().pointer_type();
        let cur = b.declare_var(ptr);
        b.def_var(cur, params[4]);
        let fail = b.create_block();
        let refs = helpers.refs(module, &mut b);
        let mut g = Gen {
            b,
            tables,
            ops,
            reserve,
            cur,
            block: params[2],
            block_len: params[3],
            ops_ptr: params[1],
            tables_ptr: params[0],
            out_end: params[5],
            acting: Some(params[6]),
            fail,
            refs,
        };
        g.range(0, ops.len())?;
        let end = g.b.use_var(g.cur);
        g.b.ins().return_(&[end]);
        g.b.switch_to_block(fail);
        g.b.seal_block(fail);
        let null = g.b.ins().iconst(ptr, 0);
        g.b.ins().return_(&[null]);
        g.b.finalize(module.target_config());
    }
    let id = module
        .declare_function(&format!("block{n}"), Linkage::Local, &ctx.func.signature)
        .ok()?;
    module.define_function(id, &mut ctx).ok()?;
    module.clear_context(&mut ctx);
    Some(Pending { id, need, room })
}

/// What a message's code uses beside [`Gen`]'s.
struct Msg {
    buf: Val,
    len: Val,
    pos: Variable,
    /// Returns null: the interpreter prints the message.
    bail: Blk,
}

impl<'b> Gen<'_, 'b> {
    /// Goes to `self.fail` (more room) unless `k` bytes of room are left.
    fn ensure(&mut self, k: usize) {
        let cur = self.b.use_var(self.cur);
        let room = self.b.ins().isub(self.out_end, cur);
        let short = self
            .b
            .ins()
            .icmp_imm_u(IntCC::UnsignedLessThan, room, k as i64);
        self.bail_if(short, self.fail);
    }

    /// An unsigned integer of `ty`'s size at `addr + off`.
    fn uload(&mut self, ty: PrimitiveType, addr: Val, off: usize) -> Option<Val> {
        let off = i32::try_from(off).ok()?;
        Some(match ty.size() {
            1 => self.b.ins().uload8(types::I64, flags(), addr, off),
            2 => self.b.ins().uload16(types::I64, flags(), addr, off),
            4 => self.b.ins().uload32(flags(), addr, off),
            8 => self.b.ins().load(types::I64, flags(), addr, off),
            _ => return None,
        })
    }

    /// A block of `plan`'s shape (its operations `prog`) at `block`, `block_len` bytes long,
    /// ending at `end` (a position in the message), then its groups and var data, then its
    /// closing and a comma (`comma`). The caller has checked that the block is in bounds.
    #[allow(clippy::too_many_arguments)]
    fn message_block(
        &mut self,
        m: &Msg,
        plan: &'b Block,
        prog: &'b BlockProgram,
        block: Val,
        block_len: Val,
        end: Val,
        comma: bool,
    ) -> Option<()> {
        let (reserve, need) = analyse(&prog.ops, self.tables);
        self.ensure(reserve[0]);
        if need > 0 {
            let short = self.b.ins().icmp_imm_u(
                IntCC::UnsignedLessThan,
                block_len,
                i64::try_from(need).ok()?,
            );
            self.bail_if(short, m.bail);
        }
        // The operations' address: their `Box` is never moved nor dropped while the code lives
        // (both belong to the same `Program`); `sable_jit_value` reads them.
        self.ops_ptr = self
            .b
            .ins()
            .iconst(types::I64, prog.ops.as_ptr() as usize as i64);
        self.block = block;
        self.block_len = block_len;
        self.ops = &prog.ops;
        self.reserve = reserve;
        self.range(0, prog.ops.len())?;
        self.b.def_var(m.pos, end);
        for (t, p) in plan.tail.iter().zip(prog.tails.iter()) {
            match t {
                Tail::Group(g) => {
                    let entry = p.entry.as_ref()?;
                    let c = &g.check;
                    let open = p.open.bytes().to_vec();
                    self.ensure(open.len());
                    self.text(&open);
                    // The dimensions, as `GroupCheck::dims`' fast path (else the interpreter).
                    let pos = self.b.use_var(m.pos);
                    let left = self.b.ins().isub(m.len, pos);
                    let short = self.b.ins().icmp_imm_u(
                        IntCC::UnsignedLessThan,
                        left,
                        i64::try_from(c.header_size).ok()?,
                    );
                    self.bail_if(short, m.bail);
                    let head = self.b.ins().iadd(m.buf, pos);
                    let bl = self.uload(c.block_length.1, head, c.block_length.0)?;
                    let count = self.uload(c.count.1, head, c.count.0)?;
                    let (_, entry_need) = analyse(&entry.ops, self.tables);
                    let least = c.shape.needs_all.max(entry_need);
                    let short = self.b.ins().icmp_imm_u(
                        IntCC::UnsignedLessThan,
                        bl,
                        i64::try_from(least).ok()?,
                    );
                    self.bail_if(short, m.bail);
                    // `bl` below the buffer's length: `bl + min_tail_all` does not overflow.
                    let long = self.b.ins().icmp(IntCC::UnsignedGreaterThan, bl, m.len);
                    self.bail_if(long, m.bail);
                    let each = self
                        .b
                        .ins()
                        .iadd_imm_s(bl, i64::try_from(c.shape.min_tail_all).ok()?);
                    let zero = self.b.ins().icmp_imm_u(IntCC::Equal, each, 0);
                    self.bail_if(zero, m.bail);
                    let start = self
                        .b
                        .ins()
                        .iadd_imm_s(pos, i64::try_from(c.header_size).ok()?);
                    let left = self.b.ins().isub(m.len, start);
                    let hi = self.b.ins().umulhi(each, count);
                    let lo = self.b.ins().imul(each, count);
                    let over = self.b.ins().icmp_imm_u(IntCC::NotEqual, hi, 0);
                    self.bail_if(over, m.bail);
                    let over = self.b.ins().icmp(IntCC::UnsignedGreaterThan, lo, left);
                    self.bail_if(over, m.bail);
                    self.b.def_var(m.pos, start);
                    // The entries.
                    let i = self.b.declare_var(types::I64);
                    let zero = self.b.ins().iconst(types::I64, 0);
                    self.b.def_var(i, zero);
                    let head = self.b.create_block();
                    let body = self.b.create_block();
                    let exit = self.b.create_block();
                    self.b.ins().jump(head, &[]);
                    self.b.switch_to_block(head);
                    let iv = self.b.use_var(i);
                    let done = self.b.ins().icmp(IntCC::Equal, iv, count);
                    self.b.ins().brif(done, exit, &[], body, &[]);
                    self.b.seal_block(body);
                    self.b.switch_to_block(body);
                    let pos = self.b.use_var(m.pos);
                    let left = self.b.ins().isub(m.len, pos);
                    let short = self.b.ins().icmp(IntCC::UnsignedLessThan, left, bl);
                    self.bail_if(short, m.bail);
                    let at = self.b.ins().iadd(m.buf, pos);
                    let end = self.b.ins().iadd(pos, bl);
                    self.message_block(m, &g.block, entry, at, bl, end, true)?;
                    let iv = self.b.use_var(i);
                    let next = self.b.ins().iadd_imm_s(iv, 1);
                    self.b.def_var(i, next);
                    self.b.ins().jump(head, &[]);
                    self.b.seal_block(head);
                    self.b.seal_block(exit);
                    self.b.switch_to_block(exit);
                    // The last entry's comma taken back.
                    let any = self.b.ins().icmp_imm_u(IntCC::NotEqual, count, 0);
                    let any = self.b.ins().uextend(types::I64, any);
                    let cur = self.b.use_var(self.cur);
                    let cur = self.b.ins().isub(cur, any);
                    self.b.def_var(self.cur, cur);
                    self.ensure(1);
                    self.text(b"]");
                }
                Tail::Data(d) => {
                    let c = &d.check;
                    let text = p.text.bytes().to_vec();
                    // The key, and a short text between quotes.
                    self.ensure(text.len() + 18);
                    self.text(&text);
                    // The length, as `DataCheck::span`'s fast path (else the interpreter).
                    let pos = self.b.use_var(m.pos);
                    let left = self.b.ins().isub(m.len, pos);
                    let short = self.b.ins().icmp_imm_u(
                        IntCC::UnsignedLessThan,
                        left,
                        i64::try_from(c.data_offset).ok()?,
                    );
                    self.bail_if(short, m.bail);
                    let head = self.b.ins().iadd(m.buf, pos);
                    let n = self.uload(c.length.1, head, c.length.0)?;
                    let start = self
                        .b
                        .ins()
                        .iadd_imm_s(pos, i64::try_from(c.data_offset).ok()?);
                    let left = self.b.ins().isub(m.len, start);
                    let over = self.b.ins().icmp(IntCC::UnsignedGreaterThan, n, left);
                    self.bail_if(over, m.bail);
                    let src = self.b.ins().iadd(m.buf, start);
                    let after = self.b.create_block();
                    let slow = self.b.create_block();
                    if d.charset.is_some() {
                        self.short_text(src, n, slow, after);
                    } else {
                        self.b.ins().jump(slow, &[]);
                    }
                    self.b.seal_block(slow);
                    self.b.switch_to_block(slow);
                    let charset = self.b.ins().iconst(
                        types::I64,
                        match d.charset {
                            None => 0,
                            Some(Charset::Latin1) => 1,
                            Some(Charset::Utf8) => 2,
                        },
                    );
                    let cur = self.b.use_var(self.cur);
                    let call = self
                        .b
                        .ins()
                        .call(self.refs.data_ref, &[cur, self.out_end, src, n, charset]);
                    let next = self.b.inst_results(call)[0];
                    self.b.def_var(self.cur, next);
                    let no = self.b.ins().icmp_imm_u(IntCC::Equal, next, 0);
                    self.bail_if(no, self.fail);
                    self.b.ins().jump(after, &[]);
                    self.b.seal_block(after);
                    self.b.switch_to_block(after);
                    let end = self.b.ins().iadd(start, n);
                    self.b.def_var(m.pos, end);
                }
            }
        }
        let mut end = prog.end.bytes().to_vec();
        if comma {
            end.push(b',');
        }
        self.ensure(end.len());
        self.text(&end);
        Some(())
    }
}

impl Gen<'_, '_> {
    /// Var data of `n` bytes at `src`, as text: when it has at most 16 bytes and is plain
    /// (`plain_ascii`), copied between quotes (18 bytes of room checked by the caller) and on
    /// to `after`; else to `slow`.
    fn short_text(&mut self, src: Val, n: Val, slow: Blk, after: Blk) {
        let c16 = self.b.create_block();
        let lt8 = self.b.create_block();
        let c8 = self.b.create_block();
        let lt4 = self.b.create_block();
        let c4 = self.b.create_block();
        let c0 = self.b.create_block();
        let le16 = self.b.create_block();
        let quote = i64::from(b'"');
        // Above 16: slow.
        let big = self.b.ins().icmp_imm_u(IntCC::UnsignedGreaterThan, n, 16);
        self.b.ins().brif(big, slow, &[], le16, &[]);
        self.b.seal_block(le16);
        self.b.switch_to_block(le16);
        let ge8 = self
            .b
            .ins()
            .icmp_imm_u(IntCC::UnsignedGreaterThanOrEqual, n, 8);
        self.b.ins().brif(ge8, c16, &[], lt8, &[]);
        self.b.seal_block(c16);
        self.b.seal_block(lt8);
        self.b.switch_to_block(lt8);
        let ge4 = self
            .b
            .ins()
            .icmp_imm_u(IntCC::UnsignedGreaterThanOrEqual, n, 4);
        self.b.ins().brif(ge4, c8, &[], lt4, &[]);
        self.b.seal_block(c8);
        self.b.seal_block(lt4);
        self.b.switch_to_block(lt4);
        self.b.ins().brif(n, c4, &[], c0, &[]);
        self.b.seal_block(c4);
        self.b.seal_block(c0);
        // Two overlapping words: (the first's type, the second's offset back from the end).
        for (blk, ty, back) in [(c16, types::I64, 8i64), (c8, types::I32, 4)] {
            self.b.switch_to_block(blk);
            let tail = self.b.ins().iadd(src, n);
            let a = self.b.ins().load(ty, flags(), src, 0);
            let b = self.b.ins().load(ty, flags(), tail, -(back as i32));
            let t = if ty == types::I64 {
                let ta = self.unplain(a);
                let tb = self.unplain(b);
                self.b.ins().bor(ta, tb)
            } else {
                let a64 = self.b.ins().uextend(types::I64, a);
                let b64 = self.b.ins().uextend(types::I64, b);
                let hi = self.b.ins().ishl_imm_u(b64, 32);
                let x = self.b.ins().bor(a64, hi);
                self.unplain(x)
            };
            let highs = self.b.ins().band_imm_u(t, 0x8080_8080_8080_8080u64 as i64);
            let copy = self.b.create_block();
            self.b.ins().brif(highs, slow, &[], copy, &[]);
            self.b.seal_block(copy);
            self.b.switch_to_block(copy);
            let cur = self.b.use_var(self.cur);
            let q = self.b.ins().iconst(types::I8, quote);
            self.b.ins().store(flags(), q, cur, 0);
            self.b.ins().store(flags(), a, cur, 1);
            let end = self.b.ins().iadd(cur, n);
            self.b.ins().store(flags(), b, end, 1 - back as i32);
            self.b.ins().store(flags(), q, end, 1);
            let next = self.b.ins().iadd_imm_s(end, 2);
            self.b.def_var(self.cur, next);
            self.b.ins().jump(after, &[]);
        }
        // One to three bytes: the first, middle and last.
        self.b.switch_to_block(c4);
        let half = self.b.ins().ushr_imm_u(n, 1);
        let mid = self.b.ins().iadd(src, half);
        let tail = self.b.ins().iadd(src, n);
        let a = self.b.ins().uload8(types::I64, flags(), src, 0);
        let m = self.b.ins().uload8(types::I64, flags(), mid, 0);
        let l = self.b.ins().uload8(types::I64, flags(), tail, -1);
        let m8 = self.b.ins().ishl_imm_u(m, 8);
        let l16 = self.b.ins().ishl_imm_u(l, 16);
        let x = self.b.ins().bor(a, m8);
        let x = self.b.ins().bor(x, l16);
        let x = self.b.ins().bor_imm_u(x, 0x6161_6161_6100_0000);
        let t = self.unplain(x);
        let highs = self.b.ins().band_imm_u(t, 0x8080_8080_8080_8080u64 as i64);
        let copy = self.b.create_block();
        self.b.ins().brif(highs, slow, &[], copy, &[]);
        self.b.seal_block(copy);
        self.b.switch_to_block(copy);
        let cur = self.b.use_var(self.cur);
        let q = self.b.ins().iconst(types::I8, quote);
        self.b.ins().store(flags(), q, cur, 0);
        let a8 = self.b.ins().ireduce(types::I8, a);
        let m8 = self.b.ins().ireduce(types::I8, m);
        let l8 = self.b.ins().ireduce(types::I8, l);
        self.b.ins().store(flags(), a8, cur, 1);
        let at = self.b.ins().iadd(cur, half);
        self.b.ins().store(flags(), m8, at, 1);
        let end = self.b.ins().iadd(cur, n);
        self.b.ins().store(flags(), l8, end, 0);
        self.b.ins().store(flags(), q, end, 1);
        let next = self.b.ins().iadd_imm_s(end, 2);
        self.b.def_var(self.cur, next);
        self.b.ins().jump(after, &[]);
        // None: `""`.
        self.b.switch_to_block(c0);
        self.text(b"\"\"");
        self.b.ins().jump(after, &[]);
    }
}

/// The highest version anything of `block` appeared in (what a message's code assumes the
/// acting version reaches).
fn newest(block: &Block) -> i64 {
    fn node(n: &Node) -> i64 {
        match &n.kind {
            Kind::Composite(members) => members.iter().map(node).fold(n.since, i64::max),
            _ => n.since,
        }
    }
    let mut v = block.fields.iter().map(node).fold(i64::MIN, i64::max);
    for t in &block.tail {
        v = v.max(match t {
            Tail::Group(g) => g.since.max(g.check.shape.all_since).max(newest(&g.block)),
            Tail::Data(d) => d.since,
        });
    }
    v
}

/// Compiles message `plan` (its program `prog`, its header `size` bytes) as function number
/// `n`; `None` when it cannot.
#[allow(clippy::too_many_arguments)]
fn compile_message(
    module: &mut JITModule,
    sig: &Signature,
    helpers: &Helpers,
    tables: &Tables,
    plan: &MessagePlan,
    prog: &BlockProgram,
    size: usize,
    n: usize,
) -> Option<(FuncId, i64)> {
    let mut ctx = module.make_context();
    ctx.func.signature = sig.clone();
    let mut fbc = FunctionBuilderContext::new();
    {
        let mut b = FunctionBuilder::new(&mut ctx.func, &mut fbc);
        let entry = b.create_block();
        b.append_block_params_for_function_params(entry);
        b.switch_to_block(entry);
        b.seal_block(entry);
        let p = b.block_params(entry);
        // (tables, buf, len, block_length, out, out_end, pos_out)
        let params: [Val; 7] = p.try_into().ok()?;
        let ptr = module.target_config().pointer_type();
        let cur = b.declare_var(ptr);
        b.def_var(cur, params[4]);
        let pos = b.declare_var(ptr);
        let room = b.create_block();
        let bail = b.create_block();
        let refs = helpers.refs(module, &mut b);
        let mut g = Gen {
            b,
            tables,
            ops: &[],
            reserve: vec![0],
            cur,
            block: params[1],
            block_len: params[2],
            ops_ptr: params[1],
            tables_ptr: params[0],
            out_end: params[5],
            acting: None,
            fail: room,
            refs,
        };
        let m = Msg {
            buf: params[1],
            len: params[2],
            pos,
            bail,
        };
        // The header was read by the caller: `len` is at least `size`.
        let size_v = i64::try_from(size).ok()?;
        let short = g.b.ins().icmp_imm_u(IntCC::UnsignedLessThan, m.len, size_v);
        g.bail_if(short, bail);
        let left = g.b.ins().iadd_imm_s(m.len, -size_v);
        let bl = params[3];
        let over = g.b.ins().icmp(IntCC::UnsignedGreaterThan, bl, left);
        g.bail_if(over, bail);
        let block_len = g.b.ins().iadd_imm_s(bl, size_v);
        g.message_block(&m, &plan.block, prog, m.buf, block_len, block_len, false)?;
        let end = g.b.use_var(pos);
        g.b.ins().store(MemFlagsData::trusted(), end, params[6], 0);
        let out = g.b.use_var(g.cur);
        g.b.ins().return_(&[out]);
        g.b.switch_to_block(bail);
        g.b.seal_block(bail);
        let null = g.b.ins().iconst(ptr, 0);
        g.b.ins().return_(&[null]);
        g.b.switch_to_block(room);
        g.b.seal_block(room);
        let one = g.b.ins().iconst(ptr, 1);
        g.b.ins().return_(&[one]);
        g.b.finalize(module.target_config());
    }
    let id = module
        .declare_function(&format!("message{n}"), Linkage::Local, &ctx.func.signature)
        .ok()?;
    module.define_function(id, &mut ctx).ok()?;
    module.clear_context(&mut ctx);
    Some((id, newest(&plan.block)))
}
