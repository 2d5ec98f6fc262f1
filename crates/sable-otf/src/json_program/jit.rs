//! A prototype (feature `jit`): each block's operations compiled to machine code with
//! Cranelift, for little-endian schemas.
//!
//! A compiled block does what [`super::ops_in`] does for one block: its constant texts as
//! immediate stores, its integers read at constant offsets, compared with their null values, and
//! written by [`sable_jit_u64`] / [`sable_jit_i64`] (floats likewise, by [`sable_jit_f32`]),
//! one-byte enums as a switch storing each valid value's name inline, its version tests
//! ([`K::Since`]) as branches on the acting version; every other operation (doubles, other
//! enums, sets, chars, arrays, and enums' unknown and null values) by a call to
//! [`sable_jit_value`], which runs the interpreter's [`super::value`] for that one
//! operation. Group and var data walks, errors, big-endian schemas and blocks shorter than the
//! compiled code reads stay with the interpreter.
//!
//! The `unsafe` of the feature is in this module: calling the compiled code, and the helpers it
//! calls, which turn raw pointers back into the references the caller passed.
//!
//! Memory safety of the output rests on one invariant, established when a block is compiled:
//! for each operation `i`, `reserve[i]` is the most bytes that the operations from `i` on can
//! write by immediate stores and integer writers (their texts, `null`s and up to 32 bytes per
//! integer). The caller checks that at least `reserve[0]` bytes of room are there; each helper
//! operation is given a room that ends `reserve[i + 1]` bytes before the end, and the compiled
//! code gives up (returns null, and the interpreter prints the block) when it does not fit.

use cranelift_codegen::ir::{
    condcodes::IntCC, types, AbiParam, Endianness, InstBuilder, MemFlagsData, Signature,
};
use cranelift_codegen::settings::{self, Configurable};
use cranelift_frontend::{FunctionBuilder, FunctionBuilderContext, Variable};
use cranelift_jit::{JITBuilder, JITModule};
use cranelift_module::{FuncId, Linkage, Module};

use super::{value, BlockProgram, Op, Slice, Tables, K};
use crate::json::{
    short_decimal_f32, write_f32_other, write_hundredths, write_i64, write_u64, Sink,
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

/// Writes `v` in decimal at `out`; returns where it ends. At most 32 bytes are touched.
///
/// # Safety
///
/// `out` is valid for writes of 32 bytes.
unsafe extern "C" fn sable_jit_u64(out: *mut u8, v: u64) -> *mut u8 {
    // SAFETY: the caller's contract.
    let room = unsafe { std::slice::from_raw_parts_mut(out, 32) };
    let mut s = Slice {
        rest: room,
        short: false,
    };
    write_u64(&mut s, v);
    let left = s.rest.len();
    // SAFETY: `32 - left` is within the 32 bytes.
    unsafe { out.add(32 - left) }
}

/// [`sable_jit_u64`] for a signed value.
///
/// # Safety
///
/// `out` is valid for writes of 32 bytes.
unsafe extern "C" fn sable_jit_i64(out: *mut u8, v: i64) -> *mut u8 {
    // SAFETY: the caller's contract.
    let room = unsafe { std::slice::from_raw_parts_mut(out, 32) };
    let mut s = Slice {
        rest: room,
        short: false,
    };
    write_i64(&mut s, v);
    let left = s.rest.len();
    // SAFETY: `32 - left` is within the 32 bytes.
    unsafe { out.add(32 - left) }
}

/// Writes the float of bits `bits` (or `null` for a NaN when `nan_null`) at `out`; returns
/// where it ends, or null when it did not fit in 32 bytes.
///
/// # Safety
///
/// `out` is valid for writes of 32 bytes.
unsafe extern "C" fn sable_jit_f32(out: *mut u8, bits: u64, nan_null: u64) -> *mut u8 {
    // SAFETY: the caller's contract.
    let room = unsafe { std::slice::from_raw_parts_mut(out, 32) };
    let mut s = Slice {
        rest: room,
        short: false,
    };
    let f = f32::from_bits(bits as u32);
    if nan_null != 0 && f.is_nan() {
        s.put_window(b"null", 4);
    } else {
        match short_decimal_f32(f.abs()) {
            Some(d) => write_hundredths(&mut s, f.is_sign_negative(), d),
            None => write_f32_other(&mut s, f),
        }
    }
    if s.short {
        return std::ptr::null_mut();
    }
    let left = s.rest.len();
    // SAFETY: `32 - left` is within the 32 bytes.
    unsafe { out.add(32 - left) }
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
    let (tables, op, block, room) = unsafe {
        (
            &*tables,
            &*op,
            std::slice::from_raw_parts(block, block_len),
            std::slice::from_raw_parts_mut(out, (end as usize).saturating_sub(out as usize)),
        )
    };
    let total = room.len();
    let mut s = Slice {
        rest: room,
        short: false,
    };
    // Never a `K::Since` (compiled as a branch), so neither the operations nor `acting` count.
    let mut none: &[Op] = &[];
    value::<false>(tables, op, block, i64::MAX, &mut none, &mut s);
    if s.short {
        return std::ptr::null_mut();
    }
    let written = total - s.rest.len();
    // SAFETY: within the room.
    unsafe { out.add(written) }
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

/// Compiles every block of `blocks` it can (operations of supported kinds, little-endian) and
/// stores the result in their `jit`; the code to keep alive.
pub(super) fn compile_all(tables: &Tables, roots: &mut [&mut BlockProgram]) -> Option<Code> {
    let mut flags = settings::builder();
    flags.set("opt_level", "speed").ok()?;
    let isa = cranelift_native::builder()
        .ok()?
        .finish(settings::Flags::new(flags))
        .ok()?;
    let mut jb = JITBuilder::with_isa(isa, cranelift_module::default_libcall_names());
    jb.symbol("sable_jit_u64", sable_jit_u64 as *const u8);
    jb.symbol("sable_jit_i64", sable_jit_i64 as *const u8);
    jb.symbol("sable_jit_value", sable_jit_value as *const u8);
    jb.symbol("sable_jit_f32", sable_jit_f32 as *const u8);
    let mut module = JITModule::new(jb);
    let ptr = module.target_config().pointer_type();
    let mut sig_int = module.make_signature();
    sig_int.params.push(AbiParam::new(ptr));
    sig_int.params.push(AbiParam::new(types::I64));
    sig_int.returns.push(AbiParam::new(ptr));
    let mut sig_f32 = module.make_signature();
    sig_f32.params.push(AbiParam::new(ptr));
    sig_f32.params.push(AbiParam::new(types::I64));
    sig_f32.params.push(AbiParam::new(types::I64));
    sig_f32.returns.push(AbiParam::new(ptr));
    let f32_id = module
        .declare_function("sable_jit_f32", Linkage::Import, &sig_f32)
        .ok()?;
    let mut sig_value = module.make_signature();
    for _ in 0..6 {
        sig_value.params.push(AbiParam::new(ptr));
    }
    sig_value.returns.push(AbiParam::new(ptr));
    let u64_id = module
        .declare_function("sable_jit_u64", Linkage::Import, &sig_int)
        .ok()?;
    let i64_id = module
        .declare_function("sable_jit_i64", Linkage::Import, &sig_int)
        .ok()?;
    let value_id = module
        .declare_function("sable_jit_value", Linkage::Import, &sig_value)
        .ok()?;
    let mut sig = module.make_signature();
    for _ in 0..6 {
        sig.params.push(AbiParam::new(ptr));
    }
    sig.params.push(AbiParam::new(types::I64));
    sig.returns.push(AbiParam::new(ptr));
    let helpers = Helpers {
        u64_id,
        i64_id,
        value_id,
        f32_id,
    };
    let mut pending = Vec::new();
    for root in roots.iter_mut() {
        walk(root, &mut |prog| {
            let n = pending.len();
            pending.push(compile(&mut module, &sig, &helpers, tables, &prog.ops, n));
        });
    }
    module.finalize_definitions().ok()?;
    let mut pending = pending.into_iter();
    for root in roots.iter_mut() {
        walk(root, &mut |prog| {
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
    }
    Some(Code(Some(module)))
}

struct Helpers {
    u64_id: FuncId,
    i64_id: FuncId,
    value_id: FuncId,
    f32_id: FuncId,
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
        // Its names inline (an unknown value or `null` through `sable_jit_value`).
        K::Enum1 => Some(
            tables
                .enums
                .get(op.aux as usize)?
                .names
                .iter()
                .map(|n| n.bytes().len())
                .max()
                .unwrap_or(0),
        ),
        // The null texts, or the operations run.
        K::Since => Some(0),
        _ => None,
    }
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

struct Gen<'a, 'b> {
    b: FunctionBuilder<'a>,
    tables: &'b Tables,
    ops: &'b [Op],
    /// `reserve[i]`: see the module's documentation (`reserve[ops.len()]` is 0).
    reserve: Vec<usize>,
    cur: Variable,
    params: [cranelift_codegen::ir::Value; 7],
    fail: cranelift_codegen::ir::Block,
    u64_ref: cranelift_codegen::ir::FuncRef,
    i64_ref: cranelift_codegen::ir::FuncRef,
    value_ref: cranelift_codegen::ir::FuncRef,
    f32_ref: cranelift_codegen::ir::FuncRef,
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
                // Below `since`, the null texts instead of the next `aux` operations.
                let end = i.checked_add(1 + op.aux as usize)?.min(hi);
                let nulls = self.tables.texts.get(op.off as usize)?;
                // The null texts must fit in what the skipped operations reserve.
                if nulls.len() > self.reserve[i] - self.reserve[end] {
                    return None;
                }
                let skip = self.b.create_block();
                let run = self.b.create_block();
                let after = self.b.create_block();
                let acting = self.params[6];
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
                } else {
                    self.helper(i)?;
                }
            }
        }
        Some(())
    }

    /// An integer of `n` bytes at `op.off`.
    fn int(&mut self, op: &Op, n: u8) {
        let block = self.params[2];
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
            let call = self.b.ins().call(self.f32_ref, &[cur, v, nan_null]);
            let next = self.b.inst_results(call)[0];
            self.b.def_var(self.cur, next);
            self.b.ins().brif(next, after, &[], self.fail, &[]);
        } else {
            let f = if signed { self.i64_ref } else { self.u64_ref };
            let call = self.b.ins().call(f, &[cur, v]);
            let next = self.b.inst_results(call)[0];
            self.b.def_var(self.cur, next);
            self.b.ins().jump(after, &[]);
        }
        self.b.seal_block(after);
        self.b.switch_to_block(after);
    }

    /// A one-byte enum (operation `i`): a switch on its value, each valid value's name stored
    /// inline; any other value through `sable_jit_value`.
    fn enum1(&mut self, i: usize) -> Option<()> {
        let op = self.ops.get(i)?;
        let e = self.tables.enums.get(op.aux as usize)?;
        let table = e.table.as_ref()?;
        let block = self.params[2];
        let raw = self
            .b
            .ins()
            .uload8(types::I64, flags(), block, op.off as i32);
        let after = self.b.create_block();
        let other = self.b.create_block();
        let mut sw = cranelift_frontend::Switch::new();
        let mut cases = Vec::new();
        for (v, &n) in table.iter().enumerate() {
            if let Some(name) = e.names.get(n as usize) {
                let c = self.b.create_block();
                sw.set_entry(v as u128, c);
                cases.push((c, name.bytes().to_vec()));
            }
        }
        sw.emit(&mut self.b, raw, other);
        for (c, name) in cases {
            self.b.seal_block(c);
            self.b.switch_to_block(c);
            self.text(&name);
            self.b.ins().jump(after, &[]);
        }
        self.b.seal_block(other);
        self.b.switch_to_block(other);
        self.helper(i)?;
        self.b.ins().jump(after, &[]);
        self.b.seal_block(after);
        self.b.switch_to_block(after);
        Some(())
    }

    /// Operation `i` through `sable_jit_value`.
    fn helper(&mut self, i: usize) -> Option<()> {
        let [tables, ops, block, len, _, out_end, _] = self.params;
        let op = self
            .b
            .ins()
            .iadd_imm_s(ops, i64::try_from(i * std::mem::size_of::<Op>()).ok()?);
        let keep = i64::try_from(*self.reserve.get(i + 1)?).ok()?;
        let end = self.b.ins().iadd_imm_s(out_end, -keep);
        let cur = self.b.use_var(self.cur);
        let call = self
            .b
            .ins()
            .call(self.value_ref, &[tables, op, block, len, cur, end]);
        let next = self.b.inst_results(call)[0];
        self.b.def_var(self.cur, next);
        let ok = self.b.create_block();
        self.b.ins().brif(next, ok, &[], self.fail, &[]);
        self.b.seal_block(ok);
        self.b.switch_to_block(ok);
        Some(())
    }
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
    // Room and reads.
    let mut reserve = vec![0usize; ops.len() + 1];
    let mut need = 0usize;
    for (i, op) in ops.iter().enumerate().rev() {
        let value = inline_bound(op, tables).unwrap_or(4);
        reserve[i] = reserve[i + 1] + usize::from(op.len % 32) + value;
        // The bytes read inline.
        let read = match op.kind {
            K::Enum1 => Some(1),
            k => int_size(k),
        };
        if let Some(n) = read {
            need = need.max(op.off as usize + usize::from(n));
        }
    }
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
        let params: [cranelift_codegen::ir::Value; 7] = p.try_into().ok()?;
        let ptr = module.target_config().pointer_type();
        let cur = b.declare_var(ptr);
        b.def_var(cur, params[4]);
        let fail = b.create_block();
        let u64_ref = module.declare_func_in_func(helpers.u64_id, b.func);
        let i64_ref = module.declare_func_in_func(helpers.i64_id, b.func);
        let value_ref = module.declare_func_in_func(helpers.value_id, b.func);
        let f32_ref = module.declare_func_in_func(helpers.f32_id, b.func);
        let mut g = Gen {
            b,
            tables,
            ops,
            reserve,
            cur,
            params,
            fail,
            u64_ref,
            i64_ref,
            value_ref,
            f32_ref,
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
    let room = reserve_total(ops, tables);
    Some(Pending { id, need, room })
}

/// `reserve[0]`.
fn reserve_total(ops: &[Op], tables: &Tables) -> usize {
    ops.iter()
        .map(|op| usize::from(op.len % 32) + inline_bound(op, tables).unwrap_or(4))
        .sum()
}
