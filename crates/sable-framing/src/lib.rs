//! Turns input bytes into SBE messages for `sable decode`: framings over bytes, and packet
//! captures.
//!
//! This crate knows nothing of SBE schemas; where a framing needs a message's length from its
//! content ([`Framing::Raw`]) the caller supplies a function (the decoder's `message_length`).
//!
//! # Framings ([`framing`])
//!
//! A [`Framing`] splits bytes into [`Frame`]s (`offset`, `bytes` starting with the SBE message
//! header, optional [`FrameMeta`]); errors are [`FrameError`]s with the input offset:
//!
//! - `raw`: messages back to back, sized by the caller's `message_length`. Stops at the first
//!   error.
//! - `sofh`: Simple Open Framing Header, the FIX standard's (4-byte big-endian length including
//!   the 6-byte header, 2-byte big-endian encoding type `0x5BE0` or `0xEB50`) or CME's (2-byte
//!   little-endian length including the 4-byte header, encoding type `0xCAFE`), told apart by the
//!   encoding type. Other encoding types are reported and skipped; after a lying length it
//!   resynchronises at the next plausible header.
//! - length-prefixed (`u16le`, `u32be+inclusive`, `u16le+skip2`, ...: see [`LengthPrefix`]):
//!   a 1, 2, 4 or 8-byte length in either byte order, counting the message only or (with
//!   `+inclusive`) the prefix too, optionally followed by skipped bytes. Stops after a lying
//!   length.
//! - `mdp3`: one CME MDP 3.0 packet (a UDP datagram): 4-byte sequence number, 8-byte sending
//!   time, then messages each after a 2-byte inclusive little-endian size. Frames carry
//!   [`FrameMeta::Mdp3`]. Stops after a lying size.
//!
//! A length that runs past the end of the input, or is smaller than its own header, is an error
//! with its offset; framing never panics and always terminates. [`StreamFramer`] applies the
//! stream framings to bytes that arrive in pieces (a TCP stream), stamping each message with the
//! timestamp of the piece where it ends.
//!
//! # Captures ([`capture`])
//!
//! [`capture::Capture::parse`] reads classic pcap (either byte order, micro- or nanosecond
//! timestamps) and pcapng (section header blocks of either byte order, interface description
//! blocks with `if_tsresol` and `if_tsoffset`, enhanced and simple packet blocks; other blocks
//! skipped). [`capture::Capture::payloads`] decodes link layers (Ethernet with 802.1Q/802.1ad
//! VLAN tags, Linux cooked SLL and SLL2, raw IPv4/IPv6, BSD loopback), IPv4 (with options) and
//! IPv6 (skipping extension headers), and yields UDP payloads and reassembled TCP stream bytes
//! (see [`capture::TcpReassembler`]). IP fragments are reported as skipped: there is no fragment
//! reassembly. [`capture::Capture::messages`] combines both: framed messages from a capture.
//! [`capture::CaptureStream`] reads a capture as it arrives (bytes pushed, packets taken), with
//! [`capture::PayloadDecoder`] and [`capture::MessageFramer`] holding the per-packet state, so
//! that memory stays bounded however large the capture; [`capture::write`] writes pcap files.
//! Malformed or truncated captures give errors with file offsets, never panics.
//!
//! ```
//! use sable_framing::capture::{Capture, Filter};
//! use sable_framing::{framing, Framing};
//!
//! fn show(file: &[u8]) -> Result<(), Box<dyn std::error::Error>> {
//!     let framing: Framing = "sofh".parse()?;
//!     for message in Capture::parse(file)?.messages(Filter::default(), framing, framing::no_length) {
//!         match message {
//!             Ok(m) => println!("{} {} {} bytes", m.timestamp_ns, m.flow, m.bytes.len()),
//!             Err(e) => eprintln!("{e}"),
//!         }
//!     }
//!     Ok(())
//! }
//! assert!(show(b"not a capture").is_err());
//! ```
//!
//! See `docs/framing.md` for the details.

#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod capture;
pub mod framing;

pub use framing::{
    guess, mdp3_packet_header, mdp3_packet_meta, Endian, Frame, FrameError, FrameMeta, Frames,
    Framing, LengthPrefix, SofhForm, StreamFrame, StreamFrameError, StreamFrameRef, StreamFramer,
    MDP3_MESSAGES, MDP3_PACKET_HEADER_LEN,
};
