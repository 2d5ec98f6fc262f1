//! The code generator's state ([`Gen`]: a Cranelift function being built over a block's
//! operations) and its walk over them: constant texts as immediate stores, version tests as
//! branches, each value by its kind (`numbers.rs`, `text.rs`, `enums.rs`) or through the
//! `sable_jit_value` helper.

use cranelift_codegen::ir::{condcodes::IntCC, types, Endianness, InstBuilder, MemFlagsData};
use cranelift_frontend::{FunctionBuilder, Variable};
use cranelift_jit::JITModule;
use cranelift_module::{FuncId, Module};

use super::bounds::{array_inline, chars_inline, enum_inline, int_size, set1_table};
use sable_ir::PrimitiveType;

use crate::program::{Op, Tables, K};

pub(super) type Val = cranelift_codegen::ir::Value;
pub(super) type Blk = cranelift_codegen::ir::Block;

pub(super) struct Refs {
    pub(super) value_ref: cranelift_codegen::ir::FuncRef,
    pub(super) f32_ref: cranelift_codegen::ir::FuncRef,
    pub(super) data_ref: cranelift_codegen::ir::FuncRef,
}

/// Starts the function `b` builds: its entry block (sealed) and its seven parameters.
pub(super) fn entry(b: &mut FunctionBuilder<'_>) -> Option<[Val; 7]> {
    let entry = b.create_block();
    b.append_block_params_for_function_params(entry);
    b.switch_to_block(entry);
    b.seal_block(entry);
    b.block_params(entry).try_into().ok()
}

/// The helpers the compiled code calls, as declared in the module.
pub(super) struct Helpers {
    pub(super) value_id: FuncId,
    pub(super) f32_id: FuncId,
    pub(super) data_id: FuncId,
}

impl Helpers {
    pub(super) fn refs(&self, module: &mut JITModule, b: &mut FunctionBuilder<'_>) -> Refs {
        Refs {
            value_ref: module.declare_func_in_func(self.value_id, b.func),
            f32_ref: module.declare_func_in_func(self.f32_id, b.func),
            data_ref: module.declare_func_in_func(self.data_id, b.func),
        }
    }
}

/// A function being built over a block's operations (see the module's documentation).
pub(super) struct Gen<'a, 'b> {
    pub(super) b: FunctionBuilder<'a>,
    pub(super) tables: &'b Tables,
    /// The operations of the block being compiled.
    pub(super) ops: &'b [Op],
    /// `reserve[i]`: see the module's documentation (`reserve[ops.len()]` is 0).
    pub(super) reserve: Vec<usize>,
    pub(super) cur: Variable,
    /// The block being compiled: its first byte, its length, its operations' address.
    pub(super) block: Val,
    pub(super) block_len: Val,
    pub(super) ops_ptr: Val,
    pub(super) tables_ptr: Val,
    pub(super) out_end: Val,
    /// The acting version; `None` in a message's code, which runs only when it is at least
    /// every version test's.
    pub(super) acting: Option<Val>,
    /// Where a helper that did not fit goes.
    pub(super) fail: Blk,
    pub(super) refs: Refs,
}

pub(super) fn flags() -> MemFlagsData {
    MemFlagsData::new()
        .with_notrap()
        .with_endianness(Endianness::Little)
}

impl Gen<'_, '_> {
    /// Stores `text` at the cursor and moves it past.
    pub(super) fn text(&mut self, text: &[u8]) {
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
    pub(super) fn range(&mut self, lo: usize, hi: usize) -> Option<()> {
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
    pub(super) fn op(&mut self, i: usize) -> Option<()> {
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

    /// Ends an operation's inline path (jumping to `after`), prints operation `i` through
    /// `sable_jit_value` in the sealed block `slow`, and goes on at `after`.
    pub(super) fn or_helper(&mut self, i: usize, slow: Blk, after: Blk) -> Option<()> {
        self.b.ins().jump(after, &[]);
        self.b.switch_to_block(slow);
        self.helper(i)?;
        self.b.ins().jump(after, &[]);
        self.b.seal_block(after);
        self.b.switch_to_block(after);
        Some(())
    }

    /// Operation `i` through `sable_jit_value`.
    pub(super) fn helper(&mut self, i: usize) -> Option<()> {
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
    pub(super) fn bail_if(&mut self, cond: Val, to: Blk) {
        let ok = self.b.create_block();
        self.b.ins().brif(cond, to, &[], ok, &[]);
        self.b.seal_block(ok);
        self.b.switch_to_block(ok);
    }

    /// Goes to `self.fail` (more room) unless `k` bytes of room are left.
    pub(super) fn ensure(&mut self, k: usize) {
        let cur = self.b.use_var(self.cur);
        let room = self.b.ins().isub(self.out_end, cur);
        let short = self
            .b
            .ins()
            .icmp_imm_u(IntCC::UnsignedLessThan, room, k as i64);
        self.bail_if(short, self.fail);
    }

    /// An unsigned integer of `ty`'s size at `addr + off`.
    pub(super) fn uload(&mut self, ty: PrimitiveType, addr: Val, off: usize) -> Option<Val> {
        let off = i32::try_from(off).ok()?;
        Some(match ty.size() {
            1 => self.b.ins().uload8(types::I64, flags(), addr, off),
            2 => self.b.ins().uload16(types::I64, flags(), addr, off),
            4 => self.b.ins().uload32(flags(), addr, off),
            8 => self.b.ins().load(types::I64, flags(), addr, off),
            _ => return None,
        })
    }
}
