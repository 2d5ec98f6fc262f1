//! Enums and sets compiled inline: one-byte enums by their table, other enums by switches,
//! one-byte sets from their 32-byte windows.

use cranelift_codegen::ir::{condcodes::IntCC, types, InstBuilder, MemFlagsData};

use sable_ir::PrimitiveType;

use super::bounds::{enum_inline, set1_table};
use super::gen::{flags, Blk, Gen, Val};
use crate::program::NULL;

impl Gen<'_, '_> {
    /// A one-byte set (operation `i`): the 32-byte window of its value's JSON copied from
    /// the set's windows and the cursor moved by its length; a JSON that does not fit in 32
    /// bytes through `sable_jit_value`.
    pub(super) fn set1(&mut self, i: usize) -> Option<()> {
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

    /// An enum of more than one byte (operation `i`): `null` for its null value, a switch
    /// storing each valid value's name inline; any other value as `{"unknown":N}`.
    pub(super) fn enum_n(&mut self, i: usize) -> Option<()> {
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
    pub(super) fn switch_texts(
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
    pub(super) fn unknown(&mut self, ty: PrimitiveType, off: usize) -> Option<()> {
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
    pub(super) fn enum1(&mut self, i: usize) -> Option<()> {
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
}
