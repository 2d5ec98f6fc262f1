//! The JSON printer's interpreter: runs a message's program beside the decoder's plan (whose
//! checks, shared with [`Decoder::decode`], give the same errors at the same offsets), a block's
//! operations by their machine code when the JIT compiled them (feature `jit`, little-endian),
//! the message's whole when it compiled that.

use crate::decode::{block_end, Block, DecodeError, Decoder, Dims, GroupPlan, Tail};
#[cfg(feature = "jit")]
use crate::jit;
use crate::program::{
    ops_in, BlockProgram, Cursor, MessageProgram, Op, Programs, Slice, Tables, TailProgram, Text,
    MAX_DATA,
};
use crate::write::{
    plain_ascii, put_bytes_at, write_hex_str, write_json_str, write_text_slow, Charset, Sink,
};

/// When the printer compiles a message's program to machine code (feature `jit`; without it,
/// every message is interpreted whatever this says).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Jit {
    /// Every message when the printer is built (tests and benchmarks of the compiled code).
    Eager,
    /// A message at its `n`th print (the first when `n` is 0 or 1), interpreted until then: a
    /// printer starts at once whatever the schema's size, and messages never seen, or seen a
    /// few times, cost no compilation.
    After(u32),
    /// Never: the interpreter alone.
    Never,
}

impl Jit {
    /// [`JsonPrinter::new`]'s: a message is compiled at its 256th print. Compiling one takes
    /// about as long as interpreting tens of thousands (`docs/jit.md`), so a message seen fewer
    /// times is cheaper interpreted, and one seen more soon runs compiled.
    pub const DEFAULT: Jit = Jit::After(256);
}

/// The programs of every message of a decoder's schema (in the decoder's order), and their
/// machine code.
#[derive(Debug)]
pub(crate) struct Program {
    messages: Vec<MessageProgram>,
    tables: Tables,
    /// Each message's compiled code (feature `jit`), kept alive with its programs: set when the
    /// message is compiled (`None` when it could not be).
    #[cfg(feature = "jit")]
    code: Box<[std::sync::OnceLock<Option<jit::Code>>]>,
    /// Each message's prints so far, until it is compiled (feature `jit`).
    #[cfg(feature = "jit")]
    uses: Box<[std::sync::atomic::AtomicU32]>,
    /// The print of a message at which it is compiled (`u32::MAX`: never).
    #[cfg(feature = "jit")]
    compile_at: u32,
}

impl Program {
    /// The programs of `decoder`'s messages, compiled to machine code as `jit` says (feature
    /// `jit`); `None` for a schema too large for them (see [`Programs::new`]), which the
    /// printer then prints through the generic path.
    pub(crate) fn new(decoder: &Decoder, jit: Jit) -> Option<Program> {
        let Programs { messages, tables } = Programs::new(decoder)?;
        #[cfg(not(feature = "jit"))]
        let _ = jit;
        #[cfg(feature = "jit")]
        let program = {
            let n = messages.len();
            let program = Program {
                messages,
                tables,
                code: (0..n).map(|_| std::sync::OnceLock::new()).collect(),
                uses: (0..n)
                    .map(|_| std::sync::atomic::AtomicU32::new(0))
                    .collect(),
                compile_at: match jit {
                    Jit::Eager => 0,
                    Jit::After(n) => n.max(1),
                    Jit::Never => u32::MAX,
                },
            };
            if jit == Jit::Eager {
                for i in 0..n {
                    program.compile(decoder, i);
                }
            }
            program
        };
        #[cfg(not(feature = "jit"))]
        let program = Program { messages, tables };
        Some(program)
    }

    /// Compiles message `i` to machine code, unless it was (or is being, by another thread:
    /// then this waits for it).
    #[cfg(feature = "jit")]
    #[cold]
    fn compile(&self, decoder: &Decoder, i: usize) {
        let (Some(slot), Some(m), Some(plan)) = (
            self.code.get(i),
            self.messages.get(i),
            decoder.message_plans().get(i),
        ) else {
            return;
        };
        slot.get_or_init(|| {
            jit::compile_message_code(&self.tables, m, plan, decoder.header_plan().size)
        });
    }

    /// Counts a print of message `i` not compiled yet, and compiles it at the `compile_at`th.
    #[cfg(feature = "jit")]
    #[cold]
    fn warm(&self, decoder: &Decoder, i: usize) {
        use std::sync::atomic::Ordering;
        let (Some(uses), Some(code)) = (self.uses.get(i), self.code.get(i)) else {
            return;
        };
        // Compiled already (not whole: its blocks' code runs), or never to be.
        if code.get().is_some() || self.compile_at == u32::MAX {
            return;
        }
        let seen = uses.fetch_add(1, Ordering::Relaxed).saturating_add(1);
        if seen >= self.compile_at {
            self.compile(decoder, i);
        }
    }

    /// How many messages were compiled whole to machine code, of how many (feature `jit`).
    #[cfg(feature = "jit")]
    pub(crate) fn compiled_messages(&self) -> (usize, usize) {
        let n = self
            .messages
            .iter()
            .filter(|m| m.jit.get().is_some())
            .count();
        (n, self.messages.len())
    }

    /// How many blocks' operations were compiled to machine code, of how many (feature `jit`).
    #[cfg(feature = "jit")]
    pub(crate) fn compiled_blocks(&self) -> (usize, usize) {
        fn count(p: &BlockProgram, n: &mut (usize, usize)) {
            n.0 += usize::from(p.jit.get().is_some());
            n.1 += 1;
            for t in p.tails.iter() {
                if let Some(e) = &t.entry {
                    count(e, n);
                }
            }
        }
        let mut n = (0, 0);
        for m in &self.messages {
            count(&m.root, &mut n);
        }
        n
    }

    /// Prints the message at `buf[0]` as [`crate::json::JsonPrinter::print`] does; `None` (and
    /// nothing written) when it could not (see [`Slice`]).
    #[inline]
    pub(crate) fn print<const BIG: bool>(
        &self,
        decoder: &Decoder,
        buf: &[u8],
        out: &mut Vec<u8>,
    ) -> Option<Result<usize, DecodeError>> {
        // The message's compiled code (feature `jit`, little-endian), straight into `out`;
        // anything it does not print (errors included) goes to the interpreter.
        #[cfg(feature = "jit")]
        if !BIG {
            if let Ok(start) = decoder.start::<false>(buf) {
                if let Some(m) = self.messages.get(start.message) {
                    if m.jit.get().is_none() {
                        self.warm(decoder, start.message);
                    }
                    if let Some(c) = m.jit.get() {
                        let (bl, acting) = (start.block_length, start.acting);
                        if let Some(end) = jit::run_message(c, &self.tables, buf, bl, acting, out) {
                            return Some(Ok(end));
                        }
                    }
                }
            }
        }
        let mut cursor = Cursor::take();
        let r = self.run::<BIG>(decoder, buf, &mut cursor);
        if cursor.short {
            // Not expected (the room reserved for each block is the most it can write), but
            // then the generic path prints the message.
            cursor.pos = 0;
            cursor.finish(out);
            return None;
        }
        cursor.finish(out);
        Some(r)
    }

    #[inline(always)]
    fn run<const BIG: bool>(
        &self,
        decoder: &Decoder,
        buf: &[u8],
        out: &mut Cursor,
    ) -> Result<usize, DecodeError> {
        let start = match decoder.start::<BIG>(buf) {
            Ok(s) => s,
            Err(e) => {
                out.push(b'{');
                write_error(out, &e);
                return Err(e);
            }
        };
        let (Some(m), Some(plan)) = (
            self.messages.get(start.message),
            decoder.message_plans().get(start.message),
        ) else {
            unreachable!("a program for every message")
        };
        let size = decoder.header_plan().size;
        let run = Run {
            tables: &self.tables,
            buf,
            acting: start.acting,
            schema_version: decoder.schema_version(),
            message: m,
        };
        match run.block::<BIG>(
            &plan.block,
            &m.root,
            size,
            start.block_length,
            "message block",
            out,
        ) {
            Ok(end) => Ok(end),
            Err(e) => {
                // The same item as the plain walk's, which also names it (its field path): the
                // program's loops do not track where they are.
                let e = decoder.message_length(buf).err().unwrap_or(e);
                out.push(b',');
                write_error(out, &e);
                Err(e)
            }
        }
    }
}

/// `"error":{"offset":N,"field":"...","kind":"...","message":"..."}}`: the error key and the
/// top-level object's closing.
fn write_error(out: &mut Cursor, e: &DecodeError) {
    out.put(b"\"error\":{\"offset\":");
    out.put(itoa::Buffer::new().format(e.offset()).as_bytes());
    out.put(b",\"field\":");
    write_json_str(out, e.field().as_bytes(), Charset::Utf8);
    out.put(b",\"kind\":\"");
    out.put(e.kind().name().as_bytes());
    out.put(b"\",\"message\":");
    write_json_str(out, e.message().as_bytes(), Charset::Utf8);
    out.put(b"}}");
}

/// What stays the same through a message.
struct Run<'b> {
    tables: &'b Tables,
    buf: &'b [u8],
    acting: i64,
    schema_version: i64,
    message: &'b MessageProgram,
}

impl Run<'_> {
    /// The dimensions of the group `g` whose header is at `pos`; `None` when it is newer than
    /// the acting version (its key and `null` written). On error, what closes everything open
    /// has been written.
    #[inline(always)]
    fn group_dims<const BIG: bool>(
        &self,
        g: &GroupPlan,
        p: &TailProgram,
        pos: usize,
        out: &mut Cursor,
    ) -> Result<Option<Dims>, DecodeError> {
        if g.since > self.acting {
            p.text.put(out);
            out.put(b"null");
            return Ok(None);
        }
        match g
            .check
            .dims::<BIG>(self.buf, pos, self.acting, self.schema_version)
        {
            Ok(d) => Ok(Some(d)),
            Err(e) => {
                out.put(&p.fail);
                Err(e)
            }
        }
    }

    /// Prints the block of `len` bytes at `start`, then its groups and var data; returns where
    /// it ends. On error, what closes everything open has been written.
    fn block<const BIG: bool>(
        &self,
        plan: &Block,
        prog: &BlockProgram,
        start: usize,
        len: usize,
        what: &str,
        out: &mut Cursor,
    ) -> Result<usize, DecodeError> {
        let buf = self.buf;
        let end = match block_end(start, len, buf.len(), what) {
            Ok(end) => end,
            Err(e) => {
                if prog.base > 0 {
                    // The root block: the header is printed all the same.
                    let m = self.message;
                    let header = buf.get(..prog.base).unwrap_or_default();
                    ops::<BIG>(
                        self.tables,
                        &m.header,
                        m.header_bound,
                        None,
                        header,
                        i64::MAX,
                        out,
                    );
                    out.put(&prog.cut);
                } else {
                    // A group's entry: not begun (nor the comma before it), as the visitors see it.
                    out.unpush(b',');
                    out.put(prog.entry_cut());
                }
                return Err(e);
            }
        };
        ops::<BIG>(
            self.tables,
            &prog.ops,
            prog.bound,
            Some(prog),
            buf.get(start.saturating_sub(prog.base)..end)
                .unwrap_or_default(),
            self.acting,
            out,
        );
        let mut pos = end;
        for (t, p) in plan.tail.iter().zip(prog.tails.iter()) {
            match t {
                Tail::Group(g) => {
                    let Some(dims) = self.group_dims::<BIG>(g, p, pos, out)? else {
                        continue;
                    };
                    pos = dims.start;
                    if let Some(entry) = p.entry.as_ref().filter(|e| e.tails.is_empty()) {
                        // Entries of fields only: all of them in one loop, with the key and
                        // the brackets.
                        pos = entries::<BIG>(
                            self.tables,
                            &p.open,
                            entry,
                            buf,
                            pos,
                            dims.count,
                            dims.len,
                            self.acting,
                            out,
                        )?;
                        continue;
                    }
                    p.open.put(out);
                    if let Some(entry) = p.entry.as_ref().filter(|e| e.data_tails) {
                        pos = self.entries_with_data::<BIG>(&g.block, entry, pos, dims, out)?;
                    } else if let Some(entry) = p.entry.as_ref().filter(|e| e.group_tails) {
                        pos = self.entries_with_groups::<BIG>(&g.block, entry, pos, dims, out)?;
                    } else if let Some(entry) = &p.entry {
                        for i in 0..dims.count {
                            if i > 0 {
                                out.push(b',');
                            }
                            pos = self.block::<BIG>(
                                &g.block,
                                entry,
                                pos,
                                dims.len,
                                "group entry",
                                out,
                            )?;
                        }
                    }
                    out.push(b']');
                }
                Tail::Data(d) => {
                    if d.since > self.acting {
                        p.text.put(out);
                        out.put(b"null");
                        continue;
                    }
                    let (at, n) = match d.check.span::<BIG>(buf, pos) {
                        Ok(s) => s,
                        Err(e) => {
                            out.put(&p.fail);
                            return Err(e);
                        }
                    };
                    let bytes = &buf[at..at + n];
                    match d.charset {
                        Some(_) if plain_ascii(bytes) => {
                            p.open.put(out);
                            put_bytes_at(out, buf, at, n);
                            out.push(b'"');
                        }
                        Some(charset) => {
                            p.text.put(out);
                            write_text_slow(out, bytes, charset, false);
                        }
                        None => {
                            p.text.put(out);
                            write_hex_str(out, bytes);
                        }
                    }
                    pos = at + n;
                }
            }
        }
        prog.end.put(out);
        Ok(pos)
    }
}

impl Run<'_> {
    /// The entries of a group whose entries end in var data only (`prog.data_tails`), after
    /// `[`; returns where they end. An entry in bounds whose var data are present
    /// and plain text is written in one reserved room (its fields, its var data, its closing),
    /// without a call per entry; any other through [`Run::block`].
    #[inline(never)]
    fn entries_with_data<const BIG: bool>(
        &self,
        plan: &Block,
        prog: &BlockProgram,
        mut pos: usize,
        dims: Dims,
        out: &mut Cursor,
    ) -> Result<usize, DecodeError> {
        let buf = self.buf;
        for i in 0..dims.count {
            let mut spans = [(0usize, 0usize); MAX_DATA];
            let mut room = prog.entry_room;
            let mut fast = None;
            if let Some(end) = pos.checked_add(dims.len).filter(|&e| e <= buf.len()) {
                let mut at = end;
                let mut n = 0;
                for ((t, p), span) in plan.tail.iter().zip(&prog.tails).zip(spans.iter_mut()) {
                    let Tail::Data(d) = t else { break };
                    if d.since > self.acting || d.charset.is_none() {
                        break;
                    }
                    let Ok((start, len)) = d.check.span::<BIG>(buf, at) else {
                        break;
                    };
                    if !plain_ascii(buf.get(start..start + len).unwrap_or_default()) {
                        break;
                    }
                    *span = (start, len);
                    // The key, the text and its quotes, and the room a window copy touches.
                    room += p.open.bound() + len + 33;
                    at = start + len;
                    n += 1;
                }
                if n == plan.tail.len() {
                    fast = Some((end, at));
                }
            }
            let Some((end, after)) = fast else {
                if i > 0 {
                    out.push(b',');
                }
                pos = self.block::<BIG>(plan, prog, pos, dims.len, "group entry", out)?;
                continue;
            };
            let block = buf.get(pos..end).unwrap_or_default();
            out.in_room(room, |s| {
                if i > 0 {
                    s.push(b',');
                }
                block_ops::<BIG>(self.tables, prog, block, self.acting, s);
                for (p, &(start, len)) in prog.tails.iter().zip(spans.iter()) {
                    p.open.put(s);
                    put_bytes_at(s, buf, start, len);
                    s.push(b'"');
                }
                prog.end.put(s);
            });
            pos = after;
        }
        Ok(pos)
    }
}

impl Run<'_> {
    /// The entries of a group whose entries end in groups of fields only (`prog.group_tails`),
    /// after `[`; returns where they end. Each entry's fields written in its own room, without
    /// a call per entry (an entry out of bounds goes through [`Run::block`], which writes the
    /// error).
    #[inline(never)]
    fn entries_with_groups<const BIG: bool>(
        &self,
        plan: &Block,
        prog: &BlockProgram,
        mut pos: usize,
        dims: Dims,
        out: &mut Cursor,
    ) -> Result<usize, DecodeError> {
        let buf = self.buf;
        for i in 0..dims.count {
            let Some(end) = pos.checked_add(dims.len).filter(|&e| e <= buf.len()) else {
                if i > 0 {
                    out.push(b',');
                }
                pos = self.block::<BIG>(plan, prog, pos, dims.len, "group entry", out)?;
                continue;
            };
            let block = buf.get(pos..end).unwrap_or_default();
            out.in_room(prog.entry_room, |s| {
                if i > 0 {
                    s.push(b',');
                }
                block_ops::<BIG>(self.tables, prog, block, self.acting, s);
            });
            pos = end;
            for (t, p) in plan.tail.iter().zip(prog.tails.iter()) {
                let (Tail::Group(g), Some(entry)) = (t, &p.entry) else {
                    continue;
                };
                let Some(dims) = self.group_dims::<BIG>(g, p, pos, out)? else {
                    continue;
                };
                pos = entries::<BIG>(
                    self.tables,
                    &p.open,
                    entry,
                    buf,
                    dims.start,
                    dims.count,
                    dims.len,
                    self.acting,
                    out,
                )?;
            }
            prog.end.put(out);
        }
        Ok(pos)
    }
}

/// Runs a block's operations on its bytes (`prog`'s, when given: compiled when they are).
#[inline(never)]
fn ops<const BIG: bool>(
    tables: &Tables,
    ops: &[Op],
    bound: usize,
    prog: Option<&BlockProgram>,
    block: &[u8],
    acting: i64,
    out: &mut Cursor,
) {
    // `Cursor::in_room` written out: through the closure, LLVM lays out this hottest loop
    // and `entries`' with a few more instructions per message (MarketData +32, measured).
    out.reserve(bound);
    let len = out.buf.len();
    let mut s = Slice {
        rest: out.buf.get_mut(out.pos..).unwrap_or_default(),
        short: false,
    };
    match prog {
        Some(prog) => block_ops::<BIG>(tables, prog, block, acting, &mut s),
        None => ops_in::<BIG>(tables, ops, block, acting, &mut s),
    }
    let (left, short) = (s.rest.len(), s.short);
    out.pos = len - left;
    out.short |= short;
}

/// The entries of a group whose entries hold fields only (no group or var data), each `len`
/// bytes from `pos`, after `key` (with the `[`), then `]`. Returns where they end.
#[allow(clippy::too_many_arguments)]
#[inline(never)]
fn entries<const BIG: bool>(
    tables: &Tables,
    key: &Text,
    prog: &BlockProgram,
    buf: &[u8],
    pos: usize,
    count: u64,
    len: usize,
    acting: i64,
    out: &mut Cursor,
) -> Result<usize, DecodeError> {
    // The dimensions' checks put every entry inside the buffer (`count` entries of at least
    // `len` bytes fit in what is left), so no entry can fail: no check per entry.
    let body = (count <= prog.entries_at_once)
        .then(|| buf.get(pos..pos.checked_add((count as usize).checked_mul(len)?)?))
        .flatten();
    let Some(body) = body else {
        return entries_one_by_one::<BIG>(tables, key, prog, buf, pos, count, len, acting, out);
    };
    let n = count as usize;
    // The key, `]`, and each entry: its fields, its closing and a comma.
    // `Cursor::in_room` written out, as in `ops`.
    out.reserve(key.bound() + 1 + n * prog.entry_room);
    let total = out.buf.len();
    let mut s = Slice {
        rest: out.buf.get_mut(out.pos..).unwrap_or_default(),
        short: false,
    };
    key.put(&mut s);
    let mut rest = body;
    for i in 1..=n {
        let (block, after) = rest.split_at_checked(len).unwrap_or_default();
        rest = after;
        block_ops::<BIG>(tables, prog, block, acting, &mut s);
        // The entry's closing, and the comma before the next one.
        if i < n { &prog.end_comma } else { &prog.end }.put(&mut s);
    }
    s.push(b']');
    let (rest, short) = (s.rest.len(), s.short);
    out.pos = total - rest;
    out.short |= short;
    Ok(pos + body.len())
}

/// [`entries`] one entry at a time, checking each one's bounds (many entries).
#[allow(clippy::too_many_arguments)]
#[cold]
#[inline(never)]
fn entries_one_by_one<const BIG: bool>(
    tables: &Tables,
    key: &Text,
    prog: &BlockProgram,
    buf: &[u8],
    mut pos: usize,
    count: u64,
    len: usize,
    acting: i64,
    out: &mut Cursor,
) -> Result<usize, DecodeError> {
    key.put(out);
    let room = prog.entry_room;
    for i in 0..count {
        let end = match block_end(pos, len, buf.len(), "group entry") {
            Ok(end) => end,
            Err(e) => {
                out.put(prog.entry_cut());
                return Err(e);
            }
        };
        out.in_room(room, |s| {
            if i > 0 {
                s.push(b',');
            }
            block_ops::<BIG>(tables, prog, &buf[pos..end], acting, s);
            prog.end.put(s);
        });
        pos = end;
    }
    out.push(b']');
    Ok(pos)
}

/// A block's operations, writing into `s`: compiled (feature `jit`, little-endian), else
/// [`ops_in`].
#[inline(always)]
fn block_ops<const BIG: bool>(
    tables: &Tables,
    prog: &BlockProgram,
    block: &[u8],
    acting: i64,
    s: &mut Slice<'_>,
) {
    #[cfg(feature = "jit")]
    if let Some(c) = prog.jit.get().filter(|_| !BIG) {
        if jit::run(c, tables, prog, block, acting, s) {
            return;
        }
    }
    ops_in::<BIG>(tables, &prog.ops, block, acting, s);
}
