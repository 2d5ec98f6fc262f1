//! A message's module of compiled code: each of its blocks' operations compiled alone, the
//! message whole ([`super::message`]), the helpers they call declared, and the results left in
//! the program's slots.

use cranelift_codegen::ir::{types, AbiParam, InstBuilder, Signature};
use cranelift_codegen::settings::{self, Configurable};
use cranelift_frontend::{FunctionBuilder, FunctionBuilderContext};
use cranelift_jit::{JITBuilder, JITModule};
use cranelift_module::{FuncId, Linkage, Module};

use super::bounds::analyse;
use super::gen::{entry, Gen, Helpers};
use super::message::compile_message;
use super::runtime::{self, Code};
use crate::decode::MessagePlan;
use crate::program::{BlockProgram, CompiledBlock, CompiledMessage, MessageProgram, Op, Tables};

/// What one compiled block needs, before the module is finalized.
struct Pending {
    id: FuncId,
    need: usize,
    room: usize,
}

/// Compiles message `m` (its plan `plan`, headers of `size` bytes) whole, and each of its
/// blocks it can (operations of supported kinds, little-endian), and stores the results in the
/// `jit` slots of the message and its blocks; the code to keep alive as long as they may run.
/// Each message is a module of its own, so that one is compiled only when it is first needed
/// (`json/run.rs`).
pub(crate) fn compile_message_code(
    tables: &Tables,
    m: &MessageProgram,
    plan: &MessagePlan,
    size: usize,
) -> Option<Code> {
    let mut flags = settings::builder();
    flags.set("opt_level", "speed").ok()?;
    // Cranelift checks its own IR after each pass unless told not to: a debugging aid that
    // took a third of the compile time. Debug builds keep it.
    let verify = if cfg!(debug_assertions) {
        "true"
    } else {
        "false"
    };
    flags.set("enable_verifier", verify).ok()?;
    let isa = cranelift_native::builder()
        .ok()?
        .finish(settings::Flags::new(flags))
        .ok()?;
    let mut jb = JITBuilder::with_isa(isa, cranelift_module::default_libcall_names());
    for (name, address) in runtime::helpers() {
        jb.symbol(name, address);
    }
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
    walk(&m.root, &mut |prog| {
        let n = pending.len();
        pending.push(compile(&mut module, &sig, &helpers, tables, &prog.ops, n));
    });
    let whole = compile_message(
        &mut module,
        &sig_message,
        &helpers,
        tables,
        plan,
        &m.root,
        size,
        0,
    );
    module.finalize_definitions().ok()?;
    let mut pending = pending.into_iter();
    walk(&m.root, &mut |prog| {
        let Some(p) = pending.next().flatten() else {
            return;
        };
        // Set once: the caller compiles each message at most once.
        let _ = prog.jit.set(CompiledBlock {
            f: runtime::block_fn(&module, p.id),
            need: p.need,
            room: p.room,
        });
    });
    if let Some((id, newest)) = whole {
        let f = runtime::message_fn(&module, id);
        let _ = m.jit.set(CompiledMessage { f, newest });
    }
    Some(Code::new(module))
}

/// Calls `f` on every block program under `prog` (its groups' entries, then itself).
fn walk(prog: &BlockProgram, f: &mut impl FnMut(&BlockProgram)) {
    for t in prog.tails.iter() {
        if let Some(e) = t.entry.as_ref() {
            walk(e, f);
        }
    }
    f(prog);
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
        let params = entry(&mut b)?;
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
