//! Text compiled inline: short char arrays and short var data by a plain-text test and a copy.

use cranelift_codegen::ir::{condcodes::IntCC, types, InstBuilder};

use super::gen::{flags, Blk, Gen, Val};

impl Gen<'_, '_> {
    /// The plain-text test of a word (`plain_word`): the word whose high bits are all clear
    /// when it is plain.
    pub(super) fn unplain(&mut self, x: Val) -> Val {
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
    pub(super) fn chars(&mut self, i: usize) -> Option<()> {
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
}

impl Gen<'_, '_> {
    /// Var data of `n` bytes at `src`, as text: when it has at most 16 bytes and is plain
    /// (`plain_ascii`), copied between quotes (18 bytes of room checked by the caller) and on
    /// to `after`; else to `slow`.
    pub(super) fn short_text(&mut self, src: Val, n: Val, slow: Blk, after: Blk) {
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
