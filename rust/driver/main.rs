//! The Rust codec driver (scripts/codec-driver.sh, docs/codecs.md): built by
//! scripts/drivers/rust.sh beside `codecs.rs`, the generated codecs of one schema. Reads one
//! message per line as hex on standard input and writes, per message, one line: its canonical
//! JSON, or the contract's error object, through the codecs' schema-level entry point
//! `decode_any`. A line holding only `-` is the empty message. A line that is neither hex nor `-`
//! is a usage error (exit status 2).

#[allow(dead_code, clippy::all)]
mod codecs;

use std::io::{BufRead, Write};
use std::process::ExitCode;

/// The bytes of a line of hex digits (either case), no bytes for `-` (the empty message), or
/// `None`.
fn unhex(line: &str) -> Option<Vec<u8>> {
    if line == "-" {
        return Some(Vec::new());
    }
    let digits = line.as_bytes();
    if digits.len() % 2 != 0 {
        return None;
    }
    let value = |d: u8| char::from(d).to_digit(16);
    digits
        .chunks_exact(2)
        .map(|pair| Some(u8::try_from(value(pair[0])? * 16 + value(pair[1])?).ok()?))
        .collect()
}

fn main() -> ExitCode {
    let stdin = std::io::stdin().lock();
    let mut out = std::io::stdout().lock();
    for (number, line) in stdin.lines().enumerate() {
        let line = match line {
            Ok(line) => line,
            Err(e) => {
                eprintln!("rust driver: reading standard input: {e}");
                return ExitCode::from(2);
            }
        };
        let line = line.trim();
        if line.is_empty() {
            continue;
        }
        let Some(bytes) = unhex(line) else {
            eprintln!("rust driver: line {} is neither hex nor -", number + 1);
            return ExitCode::from(2);
        };
        let written = match codecs::decode_any(&bytes) {
            Ok(message) => writeln!(out, "{message}"),
            Err(e) => writeln!(out, "{}", e.json()),
        };
        if written.and_then(|()| out.flush()).is_err() {
            return ExitCode::from(1);
        }
    }
    ExitCode::SUCCESS
}
