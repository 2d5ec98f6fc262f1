//! The codec driver of the `sable` language (scripts/drivers/sable.sh, protocol in
//! scripts/codec-driver.sh): Sable's IR-driven decoder and canonical JSON printer (`sable_otf`)
//! for one schema, no generated code.
//!
//!     driver SCHEMA < hex lines
//!
//! Reads one message per line as hex (upper or lower case; `-` alone is the empty message; empty
//! lines skipped) and writes one line per message: its canonical JSON, or
//! `{"error":{"offset":N,"field":"...","kind":"...","message":"..."}}`. A line that is neither
//! hex nor `-` is a usage error (exit 2).

use std::io::{BufRead, Write};
use std::path::Path;
use std::process::ExitCode;

use sable_otf::json::JsonPrinter;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [schema] = args.as_slice() else {
        eprintln!("usage: driver SCHEMA < hex lines");
        return ExitCode::from(2);
    };
    let compiled = sable_schema::compile_file(Path::new(schema));
    let Some(ir) = compiled.ir else {
        for d in &compiled.diagnostics {
            eprintln!("{d:?}");
        }
        eprintln!("driver: {schema} does not compile");
        return ExitCode::from(2);
    };
    let printer = match JsonPrinter::new(&ir) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("driver: {schema}: {e}");
            return ExitCode::from(2);
        }
    };
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let mut json = Vec::new();
    for (n, line) in std::io::stdin().lock().lines().enumerate() {
        let line = match line {
            Ok(line) => line,
            Err(e) => {
                eprintln!("driver: reading standard input: {e}");
                return ExitCode::from(2);
            }
        };
        let line = line.trim();
        if line.is_empty() {
            continue;
        }
        let Some(bytes) = message(line) else {
            eprintln!("driver: line {}: neither hex nor -", n + 1);
            return ExitCode::from(2);
        };
        json.clear();
        if let Err(e) = printer.print(&bytes, &mut json) {
            json.clear();
            let error = serde_json::json!({
                "offset": e.offset(),
                "field": e.field(),
                "kind": e.kind().name(),
                "message": e.message(),
            });
            json.extend_from_slice(b"{\"error\":");
            json.extend_from_slice(error_text(&error).as_bytes());
            json.push(b'}');
        }
        json.push(b'\n');
        if out.write_all(&json).and_then(|()| out.flush()).is_err() {
            return ExitCode::FAILURE;
        }
    }
    ExitCode::SUCCESS
}

/// The error object with its keys in the protocol's order (offset, field, kind, message).
fn error_text(e: &serde_json::Value) -> String {
    let keys = ["offset", "field", "kind", "message"];
    let members: Vec<String> = keys.iter().map(|k| format!("\"{k}\":{}", e[k])).collect();
    format!("{{{}}}", members.join(","))
}

/// The bytes of a protocol line: hex digits, or `-` for the empty message.
fn message(line: &str) -> Option<Vec<u8>> {
    if line == "-" {
        return Some(Vec::new());
    }
    if line.len() % 2 != 0 {
        return None;
    }
    (0..line.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(line.get(i..i + 2)?, 16).ok())
        .collect()
}
