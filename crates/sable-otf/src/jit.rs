//! Feature `jit`: the JSON printer's programs compiled to machine code with Cranelift, for
//! little-endian schemas (`docs/jit.md`).
//!
//! Each message is compiled to one function (`message.rs`) that prints it whole for the
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
//! Each block's operations are also compiled alone (`compile.rs`), for the interpreter's walk
//! (older acting versions, messages the message code left): version tests as branches on the
//! acting version, the rest as above.
//!
//! The `unsafe` of the crate is in one module, [`runtime`], the only one allowed it: calling
//! the compiled code, and the helpers it calls, which turn raw pointers back into the
//! references the caller passed (never into references to the output room, which may be a
//! `Vec`'s uninitialized capacity: they write through a raw sink after checking the room, or
//! into an initialized temporary copied out).
//!
//! Memory safety of the output rests on one invariant, established when a block is compiled:
//! for each operation `i`, `reserve[i]` is the most bytes that the operations from `i` on can
//! write by their inline code (their texts, `null`s, up to 32 bytes per number or window). The
//! room is checked to be at least `reserve[0]` before a block's operations run (by the caller
//! for a block's code, by the message's code itself before each block, key and closing); each
//! helper is given a room that ends `reserve[i + 1]` bytes before the end, and returns null
//! when it did not fit.
//!
//! The JIT sits above the program (`crate::program`), whose data it compiles and whose slots
//! ([`crate::program::CompiledBlock`], [`crate::program::CompiledMessage`]) it fills; the JSON
//! printer's interpreter (`json/run.rs`) runs what it left there. The code generator is split by
//! concern: [`compile`] (the module, its functions and their reserves), [`gen`] (a block's
//! operations in order), [`numbers`], [`text`] and [`enums`] (values by kind), [`message`] (a
//! whole message: its groups and var data), and [`bounds`] (what each operation writes and
//! reads inline).

mod bounds;
mod compile;
mod enums;
mod gen;
mod message;
mod numbers;
#[allow(unsafe_code)]
mod runtime;
mod text;

pub(crate) use compile::compile_message_code;
pub(crate) use runtime::{run, run_message, Code};
