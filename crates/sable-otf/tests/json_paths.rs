//! `JsonPrinter::print` (the printer's own compiled program) against the generic path (the
//! public [`JsonVisitor`] driven by `Decoder::decode` through the [`Visitor`] calls): the same
//! bytes and the same result, on every conformance vector, every truncation of each, bytes of
//! each replaced, and random messages of every message of every shared schema.

mod support;

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use sable_ir::{ByteOrder, Ir, PrimitiveType, Signal};
use sable_otf::decode::{DecodeError, Decoder};
use sable_otf::json::{Jit, JsonPrinter, JsonVisitor};

struct Schema {
    ir: Ir,
    decoder: Decoder,
    printer: JsonPrinter,
}

impl Schema {
    fn new(path: &Path) -> Schema {
        let ir = support::compile(path);
        Schema {
            decoder: Decoder::new(&ir).unwrap(),
            printer: JsonPrinter::with_jit(&ir, Jit::Eager).unwrap(),
            ir,
        }
    }

    /// The generic path's output and result.
    fn generic(&self, buf: &[u8]) -> (Vec<u8>, Result<usize, DecodeError>) {
        let mut out = b"[prefix]".to_vec();
        let r = {
            let mut w = JsonVisitor::new(&mut out);
            let r = self.decoder.decode(buf, &mut w);
            if let Err(e) = &r {
                w.finish_with_error(e);
            }
            r
        };
        (out, r)
    }

    /// Both paths agree on `buf`; returns whether it decoded.
    fn check(&self, buf: &[u8], what: &dyn Fn() -> String) -> bool {
        let (want, want_r) = self.generic(buf);
        let mut out = b"[prefix]".to_vec();
        let r = self.printer.print(buf, &mut out);
        if out != want || r != want_r {
            panic!(
                "{}: {} bytes {}\n  print:   {:?} {}\n  generic: {:?} {}",
                what(),
                buf.len(),
                hex(buf),
                r,
                String::from_utf8_lossy(&out),
                want_r,
                String::from_utf8_lossy(&want),
            );
        }
        assert!(std::str::from_utf8(&out).is_ok(), "{}: not UTF-8", what());
        r.is_ok()
    }

    /// Every truncation of `buf`, and `buf` with each byte replaced by a few values.
    fn check_around(&self, buf: &[u8], name: &str) {
        for n in 0..=buf.len() {
            self.check(&buf[..n], &|| format!("{name} cut to {n}"));
        }
        let mut b = buf.to_vec();
        for i in 0..b.len() {
            let old = b[i];
            for v in [0u8, 1, 2, 0x7f, 0x80, 0xff, b'"', b'\\', 0xc3, old ^ 0x40] {
                b[i] = v;
                self.check(&b, &|| format!("{name} byte {i} = {v:#x}"));
            }
            b[i] = old;
        }
    }
}

fn hex(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}

fn unhex(s: &str) -> Vec<u8> {
    (0..s.len() / 2)
        .map(|i| u8::from_str_radix(&s[2 * i..2 * i + 2], 16).unwrap())
        .collect()
}

#[test]
fn conformance_vectors_whole_cut_and_changed() {
    let root = sable_testkit::repo_root();
    let mut schemas: HashMap<PathBuf, Schema> = HashMap::new();
    let mut files: Vec<PathBuf> = std::fs::read_dir(root.join("conformance/vectors"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "jsonl"))
        .collect();
    files.sort();
    let mut vectors = 0;
    for file in files {
        let text = std::fs::read_to_string(&file).unwrap();
        for line in text.lines().filter(|l| !l.trim().is_empty()) {
            let v: serde_json::Value = serde_json::from_str(line).unwrap();
            let name = v["name"].as_str().unwrap();
            let buf = unhex(v["hex"].as_str().unwrap());
            for key in ["schema", "decodeSchema"] {
                let Some(schema) = v[key].as_str() else {
                    continue;
                };
                let path = root.join(schema);
                let s = schemas
                    .entry(path.clone())
                    .or_insert_with(|| Schema::new(&path));
                s.check(&buf, &|| format!("{name} ({key})"));
                s.check_around(&buf, name);
                // Bytes after the message are not read.
                let mut longer = buf.clone();
                longer.extend_from_slice(&[0xff; 9]);
                s.check(&longer, &|| format!("{name} with bytes after"));
                vectors += 1;
            }
        }
    }
    assert!(vectors > 50, "only {vectors} vectors");
}

/// A little xorshift generator, fixed seed.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }
    /// A byte, mostly small (so that counts and lengths are often small), sometimes special.
    fn byte(&mut self) -> u8 {
        match self.below(8) {
            0..=3 => self.below(4) as u8,
            4 => [0xff, 0x80, 0x7f, b'"', b'\\', 0xc3, 0xa9, b'\n'][self.below(8) as usize],
            5 => b'a' + self.below(26) as u8,
            _ => self.next() as u8,
        }
    }
}

/// Writes `v` into the header field `name` of `ir`, when the header has it.
fn put(ir: &Ir, buf: &mut [u8], name: &str, v: u64) {
    let Some(t) = ir
        .header_tokens
        .iter()
        .find(|t| t.name == name && t.signal == Signal::Encoding)
    else {
        return;
    };
    let (Ok(off), Some(ty)) = (usize::try_from(t.offset), t.encoding.primitive_type) else {
        return;
    };
    let size = ty.size();
    if ty == PrimitiveType::Char || off + size > buf.len() {
        return;
    }
    let bytes = if ir.byte_order == ByteOrder::BigEndian {
        v.to_be_bytes()[8 - size..].to_vec()
    } else {
        v.to_le_bytes()[..size].to_vec()
    };
    buf[off..off + size].copy_from_slice(&bytes);
}

#[test]
fn random_messages_of_every_shared_schema() {
    let mut rng = Rng(0x2545_f491_4f6c_dd1d);
    let mut decoded = 0;
    for path in sable_testkit::valid_schemas() {
        let compiled = sable_schema::compile_file(&path);
        let Some(ir) = compiled.ir else { continue };
        let Ok(decoder) = Decoder::new(&ir) else {
            continue;
        };
        let s = Schema {
            printer: JsonPrinter::from_decoder_with_jit(decoder, Jit::Eager),
            decoder: Decoder::new(&ir).unwrap(),
            ir,
        };
        let header = usize::try_from(s.ir.header_tokens[0].encoded_length).unwrap_or(8);
        for m in &s.ir.messages {
            let (id, block) = (m[0].id, m[0].encoded_length);
            for round in 0..300 {
                let len = header + rng.below(if round % 2 == 0 { 64 } else { 600 }) as usize;
                let mut buf: Vec<u8> = (0..len).map(|_| rng.byte()).collect();
                put(&s.ir, &mut buf, "templateId", id as u64);
                put(&s.ir, &mut buf, "schemaId", s.ir.id as u64);
                let version = match rng.below(4) {
                    0 => rng.below(4),
                    _ => s.ir.version as u64,
                };
                put(&s.ir, &mut buf, "version", version);
                let bl = match rng.below(4) {
                    0 => rng.below(80),
                    _ => block.max(0) as u64,
                };
                put(&s.ir, &mut buf, "blockLength", bl);
                if s.check(&buf, &|| format!("{} message {id}", path.display())) {
                    decoded += 1;
                }
            }
        }
    }
    assert!(decoded > 1000, "only {decoded} random messages decoded");
}

/// `count`'s (compiled, of how many) summed over the printers of every valid shared schema.
#[cfg(feature = "jit")]
fn over_shared_schemas(count: fn(&JsonPrinter) -> (usize, usize)) -> (usize, usize) {
    let (mut compiled, mut total) = (0, 0);
    for path in sable_testkit::valid_schemas() {
        let Some(ir) = sable_schema::compile_file(&path).ir else {
            continue;
        };
        let Ok(printer) = JsonPrinter::with_jit(&ir, Jit::Eager) else {
            continue;
        };
        let (c, t) = count(&printer);
        compiled += c;
        total += t;
    }
    (compiled, total)
}

/// With the feature `jit`, the tests above run the compiled blocks: every block of the Car and
/// of every shared schema's messages is compiled (the compiled code covers every little-endian
/// block; big-endian schemas run the interpreter).
#[cfg(feature = "jit")]
#[test]
fn blocks_are_compiled() {
    let car = Schema::new(&sable_testkit::shared_dir().join("schemas/valid/example-schema.xml"));
    let (compiled, total) = car.printer.compiled_blocks();
    assert!(total > 0 && compiled == total, "{compiled} of {total}");
    let (compiled, total) = over_shared_schemas(JsonPrinter::compiled_blocks);
    eprintln!("compiled {compiled} of {total} blocks");
    assert!(compiled * 10 >= total * 9, "{compiled} of {total}");
}

/// With the feature `jit`, the messages of the Car's and MarketData's schemas are compiled
/// whole (so the tests above run their compiled code on every message that reaches it), and
/// most of the shared schemas' messages are.
#[cfg(feature = "jit")]
#[test]
fn messages_are_compiled() {
    for name in ["example-schema.xml", "bench-fix-message-samples.xml"] {
        let s = Schema::new(&sable_testkit::shared_dir().join("schemas/valid").join(name));
        let (compiled, total) = s.printer.compiled_messages();
        assert!(
            total > 0 && compiled == total,
            "{name}: {compiled} of {total}"
        );
    }
    let (compiled, total) = over_shared_schemas(JsonPrinter::compiled_messages);
    eprintln!("compiled {compiled} of {total} messages");
    assert!(compiled * 10 >= total * 9, "{compiled} of {total}");
}

/// With the feature `jit`, a printer built as `sable decode` builds it compiles nothing up
/// front: a message is interpreted until its `n`th print, compiled then, and prints the same
/// bytes either way; messages not printed stay uncompiled.
#[cfg(feature = "jit")]
#[test]
fn messages_are_compiled_on_use() {
    let path = sable_testkit::shared_dir().join("schemas/valid/example-schema.xml");
    let ir = support::compile(&path);
    let car = support::car();
    let printer = JsonPrinter::with_jit(&ir, Jit::After(3)).unwrap();
    let total = printer.compiled_messages().1;
    assert_eq!(printer.compiled_messages(), (0, total));
    let print = || {
        let mut out = Vec::new();
        assert_eq!(printer.print(&car, &mut out), Ok(car.len()));
        out
    };
    let interpreted = print();
    assert_eq!(print(), interpreted);
    assert_eq!(printer.compiled_messages(), (0, total));
    assert_eq!(print(), interpreted, "the third print, compiled");
    assert_eq!(printer.compiled_messages(), (1, total));
    assert_eq!(print(), interpreted);

    let never = JsonPrinter::with_jit(&ir, Jit::Never).unwrap();
    for _ in 0..300 {
        let mut out = Vec::new();
        never.print(&car, &mut out).unwrap();
        assert_eq!(out, interpreted);
    }
    assert_eq!(never.compiled_messages(), (0, total));
    let default = JsonPrinter::new(&ir).unwrap();
    assert_eq!(default.compiled_messages(), (0, total));
}
