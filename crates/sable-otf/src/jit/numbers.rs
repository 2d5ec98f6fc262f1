//! Numbers compiled inline: integers by `write_u64`'s digit code in IR, floats through the
//! `sable_jit_f32` helper, arrays unrolled.

use cranelift_codegen::ir::{condcodes::IntCC, types, InstBuilder};

use sable_ir::PrimitiveType;

use super::bounds::array_inline;
use super::gen::{flags, Gen, Val};
use crate::program::{Op, K};

impl Gen<'_, '_> {
    /// An integer of `n` bytes at `op.off`.
    pub(super) fn int(&mut self, op: &Op, n: u8) {
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
    pub(super) fn sign(&mut self, v: Val) -> Val {
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
    pub(super) fn digits(&mut self, d: Val, n: i64) {
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
    pub(super) fn digits4(&mut self, v: Val) -> Val {
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
    pub(super) fn digits8(&mut self, v: Val) -> Val {
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
    pub(super) fn eight(&mut self, d: Val) {
        let w = self.b.ins().bor_imm_u(d, 0x3030_3030_3030_3030);
        let cur = self.b.use_var(self.cur);
        self.b.ins().store(flags(), w, cur, 0);
        let next = self.b.ins().iadd_imm_s(cur, 8);
        self.b.def_var(self.cur, next);
    }

    /// `v / 10^8` (any `v`).
    pub(super) fn div_e8(&mut self, v: Val) -> Val {
        let m = self
            .b
            .ins()
            .iconst(types::I64, 0xABCC_7711_8461_CEFDu64 as i64);
        let q = self.b.ins().umulhi(v, m);
        self.b.ins().ushr_imm_u(q, 26)
    }

    /// `v - q * 10^8`.
    pub(super) fn rem_e8(&mut self, v: Val, q: Val) -> Val {
        let p = self.b.ins().imul_imm_u(q, 100_000_000);
        self.b.ins().isub(v, p)
    }

    /// Writes `v` (unsigned) in decimal, as `write_u64` does. At most 28 bytes touched.
    pub(super) fn uint(&mut self, v: Val) {
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

    /// An array of integers or floats (operation `i`), unrolled: `[`, the elements after
    /// commas, `]` (`write_array`).
    pub(super) fn array(&mut self, i: usize) -> Option<()> {
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
}
