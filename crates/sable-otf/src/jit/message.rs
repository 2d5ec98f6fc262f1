//! A whole message compiled to one function: its header and root block, each group's header
//! and a loop over its entries (nested groups and var data inside), each var data's length,
//! every read checked against the buffer's length first. Anything off the decoder's fast paths
//! returns null, and the interpreter prints the message.

use cranelift_codegen::ir::{condcodes::IntCC, types, InstBuilder, MemFlagsData, Signature};
use cranelift_frontend::{FunctionBuilder, FunctionBuilderContext, Variable};
use cranelift_jit::JITModule;
use cranelift_module::{FuncId, Linkage, Module};

use super::bounds::analyse;
use super::gen::{entry, Blk, Gen, Helpers, Val};
use crate::decode::{Block, Charset, DataPlan, GroupPlan, Kind, MessagePlan, Node, Tail};
use crate::program::{BlockProgram, Tables, TailProgram};

/// What a message's code uses beside [`Gen`]'s.
struct Msg {
    buf: Val,
    len: Val,
    pos: Variable,
    /// Returns null: the interpreter prints the message.
    bail: Blk,
}

impl<'b> Gen<'_, 'b> {
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
                Tail::Group(g) => self.message_group(m, g, p)?,
                Tail::Data(d) => self.message_data(m, d, p)?,
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

    /// A group of a message's code (`g`, its program `p`): its key, its dimensions as
    /// `GroupCheck::dims`' fast path (else the interpreter), then its entries, each by
    /// [`Gen::message_block`].
    fn message_group(&mut self, m: &Msg, g: &'b GroupPlan, p: &'b TailProgram) -> Option<()> {
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
        let short =
            self.b
                .ins()
                .icmp_imm_u(IntCC::UnsignedLessThan, bl, i64::try_from(least).ok()?);
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
        Some(())
    }

    /// Var data of a message's code (`d`, its program `p`): its key, its length as
    /// `DataCheck::span`'s fast path (else the interpreter), then its bytes: short plain text
    /// inline, else through `sable_jit_data`.
    fn message_data(&mut self, m: &Msg, d: &DataPlan, p: &TailProgram) -> Option<()> {
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
        Some(())
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
pub(super) fn compile_message(
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
        // (tables, buf, len, block_length, out, out_end, pos_out)
        let params = entry(&mut b)?;
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
