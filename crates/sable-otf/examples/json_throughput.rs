//! Decode-to-JSON throughput over a file of raw SBE messages, on one thread: Sable's side of
//! `scripts/bench-decode.sh`, which runs the reference's `JsonPrinter` on the same file.
//!
//! ```text
//! cargo run --release -p sable-otf --example json_throughput -- SCHEMA.xml MESSAGES.bin [SECONDS]
//! ```
//!
//! Prints messages/s and MB/s (10^6 bytes of SBE input per second) over repeated passes of the
//! whole file, after one untimed pass.

use std::path::Path;
use std::time::Instant;

use sable_otf::json::{Jit, JsonPrinter};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.len() < 2 {
        eprintln!("usage: json_throughput SCHEMA.xml MESSAGES.bin [SECONDS]");
        std::process::exit(2);
    }
    let seconds: f64 = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(5.0);
    let compiled = sable_schema::compile_file(Path::new(&args[0]));
    let Some(ir) = compiled.ir else {
        for d in &compiled.diagnostics {
            eprintln!("{d}");
        }
        std::process::exit(1);
    };
    let input = std::fs::read(&args[1]).unwrap_or_else(|e| {
        eprintln!("cannot read {}: {e}", args[1]);
        std::process::exit(1)
    });
    let printer = JsonPrinter::with_jit(&ir, Jit::Eager).unwrap_or_else(|e| {
        eprintln!("{e}");
        std::process::exit(1)
    });
    // Where each message starts, found once (as the reference's harness does).
    let mut starts = Vec::new();
    let mut at = 0;
    while at < input.len() {
        starts.push(at);
        match printer.decoder().message_length(&input[at..]) {
            Ok(n) => at += n,
            Err(e) => {
                eprintln!("message at byte {at}: {e}");
                std::process::exit(1)
            }
        }
    }
    let mut out = Vec::with_capacity(1 << 16);
    let pass = |out: &mut Vec<u8>| {
        let mut bytes = 0usize;
        for &start in &starts {
            out.clear();
            // Every message was sized above, so it decodes.
            let _ = printer.print(&input[start..], out);
            bytes += out.len();
        }
        bytes
    };
    pass(&mut out);
    let started = Instant::now();
    let mut passes = 0u64;
    let mut json = 0;
    while started.elapsed().as_secs_f64() < seconds {
        json = pass(&mut out);
        passes += 1;
    }
    let elapsed = started.elapsed().as_secs_f64();
    let messages = passes as f64 * starts.len() as f64;
    println!(
        "sable JsonPrinter: {} messages, {} bytes, {passes} passes in {elapsed:.2} s: {:.0} messages/s, {:.1} MB/s ({json} JSON bytes per pass)",
        starts.len(),
        input.len(),
        messages / elapsed,
        passes as f64 * input.len() as f64 / elapsed / 1e6,
    );
}
