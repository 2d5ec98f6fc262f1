//! The one place that knows how generated Java reads and writes bytes: over a
//! `java.lang.foreign.MemorySegment` (the default) or an Agrona `DirectBuffer` (or its concrete
//! `UnsafeBuffer`).
//!
//! Every method returns Java source text: an expression (`get`) or a statement (`put`, copies).
//! `at` is a Java expression of the byte offset (`offset + 8`).

use sable_ir::{ByteOrder, PrimitiveType};

use crate::writer::CodeWriter;

/// The buffer type generated codecs work over.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Buffer {
    /// `java.lang.foreign.MemorySegment` at `long` offsets (heap arrays, direct and mapped
    /// buffers, Arena memory, files beyond 2 GB).
    #[default]
    Segment,
    /// Agrona `DirectBuffer` / `MutableDirectBuffer` at `int` offsets.
    Agrona,
    /// Agrona's concrete `UnsafeBuffer` at `int` offsets, as the reference generates with
    /// `sbe.java.{en,de}coding.buffer.type=org.agrona.concurrent.UnsafeBuffer`: the JIT calls
    /// its methods directly instead of through a type check per interface call. Parameters that
    /// take the user's other buffers (var data sources and destinations) stay interfaces.
    AgronaUnsafe,
}

impl Buffer {
    /// Whether the codecs work over Agrona buffers (either typing).
    pub fn is_agrona(self) -> bool {
        self != Buffer::Segment
    }

    /// The field (and accessor) name of the buffer in generated classes.
    pub fn var(self) -> &'static str {
        match self {
            Buffer::Segment => "segment",
            Buffer::Agrona | Buffer::AgronaUnsafe => "buffer",
        }
    }

    /// The type encoders write to.
    pub fn write_type(self) -> &'static str {
        match self {
            Buffer::Segment => "MemorySegment",
            Buffer::Agrona => "MutableDirectBuffer",
            Buffer::AgronaUnsafe => "UnsafeBuffer",
        }
    }

    /// The type decoders read from.
    pub fn read_type(self) -> &'static str {
        match self {
            Buffer::Segment => "MemorySegment",
            Buffer::Agrona => "DirectBuffer",
            Buffer::AgronaUnsafe => "UnsafeBuffer",
        }
    }

    /// The name of the method the codecs wrap fixed-size flyweights (composites, sets, headers)
    /// with at their own offsets: the segment flavour's public `wrap` checks a user's offset,
    /// its `sbeWrap` does not (see `SbeSupport.index`).
    pub fn internal_wrap(self) -> &'static str {
        match self {
            Buffer::Segment => "sbeWrap",
            Buffer::Agrona | Buffer::AgronaUnsafe => "wrap",
        }
    }

    /// The segment flavour's check of an offset a user hands in (`SbeSupport.checkOffset`):
    /// array accesses take offsets as ints, exact only for offsets inside the buffer. Agrona
    /// buffers check bounds themselves when the user asks, as the reference's codecs leave it.
    pub fn check_offset(self, w: &mut CodeWriter, offset: &str, end: &str) {
        if self == Buffer::Segment {
            w.line(format!("SbeSupport.checkOffset({offset}, {end});"));
        }
    }

    /// The Java type of offsets and limits.
    pub fn off(self) -> &'static str {
        match self {
            Buffer::Segment => "long",
            Buffer::Agrona | Buffer::AgronaUnsafe => "int",
        }
    }

    /// What an offset is cast to for use as an `int` (a cast where offsets are `long`).
    pub fn offset_to_int(self, expr: &str) -> String {
        match self {
            Buffer::Segment => format!("(int) ({expr})"),
            Buffer::Agrona | Buffer::AgronaUnsafe => expr.to_owned(),
        }
    }

    /// The Java expression of the capacity of the buffer `buf` (where items must end).
    pub fn capacity(self, buf: &str) -> String {
        match self {
            Buffer::Segment => format!("{buf}.byteSize()"),
            Buffer::Agrona | Buffer::AgronaUnsafe => format!("{buf}.capacity()"),
        }
    }

    /// The Java condition that `len` bytes at `start` run past `end`: the one bounds check of
    /// an item (a block, a group header, an entry, a var data). In `long` arithmetic, so that
    /// `int` offsets near the top cannot wrap.
    pub fn past_end(self, start: &str, len: &str, end: &str) -> String {
        match self {
            Buffer::Segment => format!("{start} + {len} > {end}"),
            Buffer::Agrona | Buffer::AgronaUnsafe => format!("(long) {start} + {len} > {end}"),
        }
    }

    /// The decoders' condition that an item (a root block, a group header, an entry) whose end
    /// is `item_end` (its start plus its length, a Java expression already computed for the new
    /// limit) runs past `end`. The Agrona flavours compare without sign: an offset in the buffer
    /// (0 to `Integer.MAX_VALUE`) plus a length of at most 65535 is exact read unsigned (a
    /// negative offset is the caller's error, as with `start > end - len` before; most read as
    /// past the end now). One compare on the sum the limit needs anyway,
    /// where `start > end - len` needed its own subtraction (and a group its
    /// `sbeLastEntryOffset` field): Agrona MarketData decode 260 to 253 instructions
    /// (docs/benchmarks.md).
    pub fn ends_past(self, item_end: &str, end: &str) -> String {
        match self {
            Buffer::Segment => format!("{item_end} > {end}"),
            Buffer::Agrona | Buffer::AgronaUnsafe => {
                format!("Integer.compareUnsigned({item_end}, {end}) > 0")
            }
        }
    }

    /// `past_end` where `len` is a constant of the schema (at most 65535) and `end` is at least
    /// 0, so that `end - len` cannot wrap: the Agrona flavours then compare in `int` arithmetic,
    /// `start > end - len`. Used where it measured fewer instructions: a variable-size entry's
    /// `next()` in the encoders (Agrona Car encode 626 to 612); the encoders' group headers cost
    /// more that way (626 to 629, when a fixed-size group's count of the entries that fit reused
    /// the header check's `long` sum; it now has a compare of its own: `group_encoder_wrap`)
    /// (docs/benchmarks.md). The decoders use `ends_past`.
    pub fn past_end_of_constant(self, start: &str, len: &str, end: &str) -> String {
        match self {
            Buffer::Segment => self.past_end(start, len, end),
            Buffer::Agrona | Buffer::AgronaUnsafe => format!("{start} > {end} - {len}"),
        }
    }

    /// Import lines every generated class that touches the buffer needs.
    pub fn imports(self) -> &'static [&'static str] {
        match self {
            Buffer::Segment => &["java.lang.foreign.MemorySegment"],
            Buffer::Agrona => &["org.agrona.DirectBuffer", "org.agrona.MutableDirectBuffer"],
            Buffer::AgronaUnsafe => &[
                "org.agrona.DirectBuffer",
                "org.agrona.MutableDirectBuffer",
                "org.agrona.concurrent.UnsafeBuffer",
            ],
        }
    }

    /// The import of `read_type` alone.
    pub fn read_import(self) -> &'static str {
        match self {
            Buffer::Segment => "java.lang.foreign.MemorySegment",
            Buffer::Agrona => "org.agrona.DirectBuffer",
            Buffer::AgronaUnsafe => "org.agrona.concurrent.UnsafeBuffer",
        }
    }

    /// A read of `t` at `at` from buffer `buf`, as the Java type of `t` (unsigned types widened).
    pub fn get(self, buf: &str, t: PrimitiveType, order: ByteOrder, at: &str) -> String {
        use PrimitiveType::*;
        let raw = match self {
            Buffer::Segment => {
                let name = accessor_name(t, order);
                format!("SbeSupport.get{name}({}, {buf}, {at})", array_of(buf))
            }
            Buffer::Agrona | Buffer::AgronaUnsafe => {
                let o = agrona_order(order);
                match t {
                    Char | Int8 | UInt8 => format!("{buf}.getByte({at})"),
                    Int16 | UInt16 => format!("{buf}.getShort({at}, {o})"),
                    Int32 | UInt32 => format!("{buf}.getInt({at}, {o})"),
                    Int64 | UInt64 => format!("{buf}.getLong({at}, {o})"),
                    Float => format!("{buf}.getFloat({at}, {o})"),
                    Double => format!("{buf}.getDouble({at}, {o})"),
                }
            }
        };
        match t {
            UInt8 => format!("(short) ({raw} & 0xFF)"),
            UInt16 => format!("({raw} & 0xFFFF)"),
            UInt32 => format!("({raw} & 0xFFFF_FFFFL)"),
            _ => raw,
        }
    }

    /// A statement writing `value` (an expression of the Java type of `t`) as `t` at `at`.
    pub fn put(
        self,
        buf: &str,
        t: PrimitiveType,
        order: ByteOrder,
        at: &str,
        value: &str,
    ) -> String {
        self.put_in_block(buf, t, order, at, value, false)
    }

    /// `put`, or with `merged` over a heap segment's array byte by byte (`SbeSupport.put*Bytes`,
    /// which C2 merges into one store): for blocks of many writes at one base index
    /// (`Gen::merged_stores`), whose bounds checks C2 then folds into two.
    pub fn put_in_block(
        self,
        buf: &str,
        t: PrimitiveType,
        order: ByteOrder,
        at: &str,
        value: &str,
        merged: bool,
    ) -> String {
        use PrimitiveType::*;
        // The wire type's Java type, and whether the value must be narrowed to it.
        let narrowed = match t {
            UInt8 => format!("(byte) {}", paren(value)),
            UInt16 => format!("(short) {}", paren(value)),
            UInt32 => format!("(int) {}", paren(value)),
            _ => value.to_owned(),
        };
        match self {
            Buffer::Segment => {
                let name = accessor_name(t, order);
                let bytes = if merged && t.size() > 1 { "Bytes" } else { "" };
                format!(
                    "SbeSupport.put{name}{bytes}({}, {buf}, {at}, {narrowed});",
                    array_of(buf)
                )
            }
            Buffer::Agrona | Buffer::AgronaUnsafe => {
                let o = agrona_order(order);
                match t {
                    Char | Int8 | UInt8 => format!("{buf}.putByte({at}, {narrowed});"),
                    Int16 | UInt16 => format!("{buf}.putShort({at}, {narrowed}, {o});"),
                    Int32 | UInt32 => format!("{buf}.putInt({at}, {narrowed}, {o});"),
                    Int64 | UInt64 => format!("{buf}.putLong({at}, {narrowed}, {o});"),
                    Float => format!("{buf}.putFloat({at}, {narrowed}, {o});"),
                    Double => format!("{buf}.putDouble({at}, {narrowed}, {o});"),
                }
            }
        }
    }

    /// A read of one byte.
    pub fn get_byte(self, buf: &str, at: &str) -> String {
        self.get(buf, PrimitiveType::Int8, ByteOrder::LittleEndian, at)
    }

    /// A statement writing the byte expression `value`.
    pub fn put_byte(self, buf: &str, at: &str, value: &str) -> String {
        self.put(buf, PrimitiveType::Int8, ByteOrder::LittleEndian, at, value)
    }

    /// Copies `len` bytes at `at` into `byte[] dst` at `int dst_off`.
    pub fn get_bytes(self, buf: &str, at: &str, dst: &str, dst_off: &str, len: &str) -> String {
        match self {
            Buffer::Segment => format!(
                "SbeSupport.getBytes({}, {buf}, {at}, {dst}, {dst_off}, {len});",
                array_of(buf)
            ),
            Buffer::Agrona | Buffer::AgronaUnsafe => {
                format!("{buf}.getBytes({at}, {dst}, {dst_off}, {len});")
            }
        }
    }

    /// Copies `len` bytes of `byte[] src` from `int src_off` to `at`.
    pub fn put_bytes(self, buf: &str, at: &str, src: &str, src_off: &str, len: &str) -> String {
        match self {
            Buffer::Segment => format!(
                "SbeSupport.putBytes({}, {buf}, {at}, {src}, {src_off}, {len});",
                array_of(buf)
            ),
            Buffer::Agrona | Buffer::AgronaUnsafe => {
                format!("{buf}.putBytes({at}, {src}, {src_off}, {len});")
            }
        }
    }

    /// Copies `len` bytes from another buffer (`read_type`) at `src_off` to `at`.
    pub fn copy_from(self, buf: &str, at: &str, src: &str, src_off: &str, len: &str) -> String {
        match self {
            Buffer::Segment => format!("MemorySegment.copy({src}, {src_off}, {buf}, {at}, {len});"),
            Buffer::Agrona | Buffer::AgronaUnsafe => {
                format!("{buf}.putBytes({at}, {src}, {src_off}, {len});")
            }
        }
    }

    /// Copies `len` bytes at `at` to another buffer (`write_type`) at `dst_off`.
    pub fn copy_to(self, buf: &str, at: &str, dst: &str, dst_off: &str, len: &str) -> String {
        match self {
            Buffer::Segment => format!("MemorySegment.copy({buf}, {at}, {dst}, {dst_off}, {len});"),
            Buffer::Agrona | Buffer::AgronaUnsafe => {
                format!("{dst}.putBytes({dst_off}, {buf}, {at}, {len});")
            }
        }
    }

    /// Declares the buffer field of a flyweight (`ty`: `write_type` or `read_type`), and for
    /// segments the byte array behind it when there is one (see `bind`).
    pub fn declare(self, w: &mut CodeWriter, ty: &str) {
        let buf = self.var();
        w.line(format!("private {ty} {buf};"));
        if self == Buffer::Segment {
            w.line("private byte[] array;");
        }
    }

    /// Statements pointing a flyweight's buffer field at the parameter of the same name, only
    /// when it changes: storing a reference costs the GC's write barriers (G1's pre and post
    /// barriers, out-of-line calls that made the compiled MarketData decode three times the
    /// reference's size), and the reference skips the store alike. For segments, also the byte
    /// array accesses go through when the segment is a whole, writable `byte[]`
    /// (`SbeSupport.array`).
    pub fn bind(self, w: &mut CodeWriter) {
        let buf = self.var();
        w.open_brace(format!("if ({buf} != this.{buf})"));
        w.line(format!("this.{buf} = {buf};"));
        if self == Buffer::Segment {
            w.line(format!("this.array = SbeSupport.array({buf});"));
        }
        w.end("}");
    }

    /// The type of a source buffer parameter of put methods (and of the support class's
    /// helpers): an interface in both Agrona typings, so any of the user's buffers fits.
    pub fn source_type(self) -> &'static str {
        match self {
            Buffer::AgronaUnsafe => Buffer::Agrona.read_type(),
            _ => self.read_type(),
        }
    }

    /// The type of a destination buffer parameter of get methods (an interface, as above).
    pub fn dest_type(self) -> &'static str {
        match self {
            Buffer::AgronaUnsafe => Buffer::Agrona.write_type(),
            _ => self.write_type(),
        }
    }
}

/// `value` in parentheses unless it is a plain name or literal.
pub fn paren(value: &str) -> String {
    if value
        .chars()
        .all(|c| c.is_alphanumeric() || c == '_' || c == '.')
    {
        value.to_owned()
    } else {
        format!("({value})")
    }
}

fn agrona_order(order: ByteOrder) -> &'static str {
    match order {
        ByteOrder::LittleEndian => "java.nio.ByteOrder.LITTLE_ENDIAN",
        ByteOrder::BigEndian => "java.nio.ByteOrder.BIG_ENDIAN",
    }
}

/// The `byte[]` field that goes with the segment expression `buf` (`segment` → `array`,
/// `x.segment` → `x.array`).
fn array_of(buf: &str) -> String {
    match buf.strip_suffix("segment") {
        Some(prefix) => format!("{prefix}array"),
        None => panic!("not a segment field: {buf}"),
    }
}

/// The suffix of the `SbeSupport` get and put methods for `t` in `order` (`IntLE`, `Byte`).
fn accessor_name(t: PrimitiveType, order: ByteOrder) -> String {
    use PrimitiveType::*;
    let base = match t {
        Char | Int8 | UInt8 => return "Byte".to_owned(),
        Int16 | UInt16 => "Short",
        Int32 | UInt32 => "Int",
        Int64 | UInt64 => "Long",
        Float => "Float",
        Double => "Double",
    };
    let suffix = match order {
        ByteOrder::LittleEndian => "LE",
        ByteOrder::BigEndian => "BE",
    };
    format!("{base}{suffix}")
}
