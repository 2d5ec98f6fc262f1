//! The block readers (each block's fields read straight into their columns, the default)
//! against the field-by-field path (`Options::read_blocks` false) on the same messages: every
//! conformance vector whole, cut short and with each byte changed, and random messages of
//! every message of every shared schema. The two must give the same rows, errors and
//! unrepresentable counts, batch for batch.

mod common;

use std::collections::HashMap;
use std::path::PathBuf;

use arrow_array::RecordBatch;
use common::*;
use sable_columnar::{Columnar, Extras, Options, RowMeta};
use sable_ir::{ByteOrder, Ir, PrimitiveType, Signal};

/// Each message pushed into both; their outcomes, batches and counts compared.
struct Both {
    blocks: Columnar,
    fields: Columnar,
    pushed: usize,
}

impl Both {
    fn new(ir: &Ir) -> Option<Both> {
        let options = Options {
            batch_rows: 64,
            ..Options::default()
        };
        let fields = Options {
            read_blocks: false,
            ..options
        };
        Some(Both {
            blocks: Columnar::new(ir, Extras::default(), options).ok()?,
            fields: Columnar::new(ir, Extras::default(), fields).ok()?,
            pushed: 0,
        })
    }

    fn push(&mut self, bytes: &[u8], what: &dyn Fn() -> String) {
        let meta = RowMeta {
            offset: self.pushed as u64,
            ..RowMeta::default()
        };
        self.pushed += 1;
        let a = self.blocks.push(bytes, &meta);
        let b = self.fields.push(bytes, &meta);
        assert_eq!(
            a.as_ref().map_err(|e| e.to_string()),
            b.as_ref().map_err(|e| e.to_string()),
            "{}",
            what()
        );
        let a: Vec<(usize, RecordBatch)> = std::iter::from_fn(|| self.blocks.take_full()).collect();
        let b: Vec<(usize, RecordBatch)> = std::iter::from_fn(|| self.fields.take_full()).collect();
        same(&a, &b, what);
    }

    fn finish(mut self, what: &dyn Fn() -> String) {
        let a = self.blocks.finish();
        let b = self.fields.finish();
        same(&a, &b, what);
        assert_eq!(
            self.blocks.unrepresentable(),
            self.fields.unrepresentable(),
            "{}",
            what()
        );
        assert_eq!(self.blocks.rows(), self.fields.rows(), "{}", what());
    }
}

fn same(a: &[(usize, RecordBatch)], b: &[(usize, RecordBatch)], what: &dyn Fn() -> String) {
    assert_eq!(a.len(), b.len(), "{}", what());
    for ((ta, ba), (tb, bb)) in a.iter().zip(b) {
        assert_eq!(ta, tb, "{}", what());
        if ba != bb {
            for (i, f) in ba.schema().fields().iter().enumerate() {
                assert_eq!(
                    ba.column(i).to_data(),
                    bb.column(i).to_data(),
                    "column {} of table {ta}: {}",
                    f.name(),
                    what()
                );
            }
            panic!("batches differ: {}", what());
        }
    }
}

/// A schema's IR and its vectors (name, bytes).
type Vectors = (Ir, Vec<(String, Vec<u8>)>);

#[test]
fn every_vector_whole_cut_and_changed_reads_the_same_both_ways() {
    let mut by_schema: HashMap<String, Vectors> = HashMap::new();
    for v in vectors() {
        let entry = by_schema
            .entry(v.schema.clone())
            .or_insert_with(|| (ir(&v.schema), Vec::new()));
        entry.1.push((v.name.clone(), v.bytes.clone()));
    }
    let mut checked = 0;
    for (schema, (ir, messages)) in &by_schema {
        let Some(mut both) = Both::new(ir) else {
            continue;
        };
        for (name, bytes) in messages {
            both.push(bytes, &|| format!("{schema}: {name}"));
            for cut in 0..bytes.len() {
                both.push(&bytes[..cut], &|| format!("{schema}: {name} cut to {cut}"));
            }
            for at in 0..bytes.len() {
                for x in [0x00, 0xff, 0x80, 0x01] {
                    let mut changed = bytes.clone();
                    changed[at] ^= x;
                    both.push(&changed, &|| format!("{schema}: {name} byte {at} ^ {x:#x}"));
                }
            }
            checked += 1;
        }
        both.finish(&|| schema.clone());
    }
    assert!(checked > 50, "only {checked} vectors");
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
            4 => [0xff, 0x80, 0x7f, b'"', 0xc3, 0xa9, 0xfe, 0x00][self.below(8) as usize],
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
fn random_messages_of_every_shared_schema_read_the_same_both_ways() {
    let mut rng = Rng(0x2545_f491_4f6c_dd1d);
    let mut decoded = 0;
    let mut schemas: Vec<PathBuf> = sable_testkit::valid_schemas();
    schemas.push(sable_testkit::repo_root().join("examples/mdp3.xml"));
    for path in schemas {
        let compiled = sable_schema::compile_file(&path);
        let Some(ir) = compiled.ir else { continue };
        let Some(mut both) = Both::new(&ir) else {
            continue;
        };
        let header = usize::try_from(ir.header_tokens[0].encoded_length).unwrap_or(8);
        for m in &ir.messages {
            let (id, block) = (m[0].id, m[0].encoded_length);
            for round in 0..300 {
                let len = header + rng.below(if round % 2 == 0 { 64 } else { 600 }) as usize;
                let mut buf: Vec<u8> = (0..len).map(|_| rng.byte()).collect();
                put(&ir, &mut buf, "templateId", id as u64);
                put(&ir, &mut buf, "schemaId", ir.id as u64);
                let version = match rng.below(4) {
                    0 => rng.below(4),
                    _ => ir.version as u64,
                };
                put(&ir, &mut buf, "version", version);
                let bl = match rng.below(4) {
                    0 => rng.below(80),
                    _ => block.max(0) as u64,
                };
                put(&ir, &mut buf, "blockLength", bl);
                let before = both.blocks.rows().iter().sum::<u64>();
                both.push(&buf, &|| {
                    format!("{} message {id}: {}", path.display(), hex(&buf))
                });
                if both.blocks.rows().iter().sum::<u64>() > before {
                    decoded += 1;
                }
            }
        }
        both.finish(&|| path.display().to_string());
    }
    assert!(decoded > 1000, "only {decoded} random messages decoded");
}
