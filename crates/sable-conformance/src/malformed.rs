//! The malformed vectors (`conformance/malformed/*.jsonl`, format in `conformance/README.md`),
//! derived from a few valid vectors: each valid message cut at every item's start, one byte into
//! it and one byte short of its end; each group count and var-data length made to lie; block
//! lengths one byte short; a wrong schema id and template id. The expected error of each comes
//! from [`crate::walk`] (the IR's tokens and the contract's rules, not `sable_otf`'s decoder);
//! a few are worked out by hand in their `note` ([`HAND_CHECKS`]).
//!
//! `cargo run -p sable-conformance --example malformed [-- --check]` writes (or checks) the files.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use sable_ir::{Ir, PrimitiveType};
use serde_json::Value;

use crate::walk::{read, walk, write, Failure, HeaderLayout, Item, ItemKind};

/// The valid vectors the malformed ones derive from, by file (`conformance/vectors/F.jsonl`,
/// giving `conformance/malformed/F.jsonl`).
pub const SOURCES: &[(&str, &[&str])] = &[
    ("car", &["car", "car-bigendian"]),
    ("marketdata", &["marketdata-two-entries"]),
    ("structure", &["groups-nested"]),
    (
        "evolution",
        &[
            "evolution-v1",
            "evolution-v0-read-by-v1",
            "evolution-v1-read-by-v0",
        ],
    ),
];

/// Vectors whose expected error was also worked out by hand, from the schema and the valid
/// vector's JSON: the working, kept as the vector's note.
pub const HAND_CHECKS: &[(&str, &str)] = &[
    (
        "car-cut-57",
        "by hand: 8-byte header + the Car's 49-byte block = 57, the first byte of fuelFigures' 4-byte dimensions",
    ),
    (
        "car-cut-83",
        "by hand: fuelFigures at 57 (4 bytes), entry 0 at 61 (6 bytes), its usageDescription at 67 (4 + 11 'Urban Cycle' = 15 bytes), so entry 1 starts at 82; cut one byte into it",
    ),
    (
        "car-cut-174",
        "by hand: performanceFigures at 129, entry 0 at 133 (1 byte), its acceleration at 134 (4 + 3 x 6 = 22 bytes), entry 1 at 156, its acceleration at 157, whose entries start at 161: the third (index 2) at 173; cut anywhere in 173..178 reports 173",
    ),
    (
        "car-cut-210",
        "by hand: the Car is 211 bytes and ends in activationCode (4-byte length + 'abcdef'), which starts at 201; cut inside its bytes",
    ),
    (
        "car-schema-id",
        "by hand: schemaId is the header's third uint16, at byte 4",
    ),
    (
        "marketdata-two-entries-cut-97",
        "by hand: 8-byte header + TradeDate (uint16) = 10; Entries' dimensions (uint16 blockLength, uint16 numInGroup) at 10..14; entries of the dimension's blockLength 82: entry 0 at 14..96, entry 1 at 96; cut one byte into it",
    ),
];

/// One malformed vector.
struct Malformed {
    name: String,
    schema: String,
    error: Failure,
    note: String,
    bytes: Vec<u8>,
}

impl Malformed {
    fn line(&self) -> String {
        let s = |v: &str| serde_json::to_string(v).expect("a JSON string");
        let hand = HAND_CHECKS.iter().find(|(n, _)| *n == self.name);
        let note = match hand {
            Some((_, h)) => format!("{}; {h}", self.note),
            None => self.note.clone(),
        };
        let mut hex = String::with_capacity(self.bytes.len() * 2);
        for b in &self.bytes {
            let _ = write!(hex, "{b:02x}");
        }
        format!(
            "{{\"name\":{},\"schema\":{},\"error\":{{\"offset\":{},\"field\":{},\"kind\":{}}},\"note\":{},\"hex\":\"{hex}\"}}",
            s(&self.name),
            s(&self.schema),
            self.error.offset,
            s(&self.error.field),
            s(self.error.kind),
            s(&note),
        )
    }
}

/// Every malformed file's path and text, as generated from the valid vectors under `root`.
pub fn generate(root: &Path) -> Result<Vec<(PathBuf, String)>, String> {
    let mut files = Vec::new();
    let mut names = Vec::new();
    for (file, wanted) in SOURCES {
        let source = root.join(format!("conformance/vectors/{file}.jsonl"));
        let text = std::fs::read_to_string(&source)
            .map_err(|e| format!("reading {}: {e}", source.display()))?;
        let mut out = String::new();
        for name in *wanted {
            let line = text
                .lines()
                .find(|l| serde_json::from_str::<Value>(l).is_ok_and(|v| v["name"] == *name))
                .ok_or_else(|| format!("{}: no vector '{name}'", source.display()))?;
            for m in from_vector(
                root,
                &serde_json::from_str(line).map_err(|e| e.to_string())?,
            )? {
                names.push(m.name.clone());
                out.push_str(&m.line());
                out.push('\n');
            }
        }
        files.push((
            root.join(format!("conformance/malformed/{file}.jsonl")),
            out,
        ));
    }
    for (hand, _) in HAND_CHECKS {
        if !names.iter().any(|n| n == hand) {
            return Err(format!("the hand check '{hand}' names no vector"));
        }
    }
    let mut sorted = names.clone();
    sorted.sort();
    if let Some(w) = sorted.windows(2).find(|w| w[0] == w[1]) {
        return Err(format!("two vectors are named '{}'", w[0]));
    }
    Ok(files)
}

fn hex_bytes(hex: &str) -> Result<Vec<u8>, String> {
    (0..hex.len())
        .step_by(2)
        .map(|i| {
            hex.get(i..i + 2)
                .and_then(|b| u8::from_str_radix(b, 16).ok())
                .ok_or_else(|| format!("bad hex at {i}"))
        })
        .collect()
}

/// The largest value of an unsigned integer type.
fn max_of(ty: PrimitiveType) -> u64 {
    match ty.size() {
        8 => u64::MAX,
        n => (1u64 << (8 * n)) - 1,
    }
}

/// The malformed vectors derived from one valid vector.
fn from_vector(root: &Path, v: &Value) -> Result<Vec<Malformed>, String> {
    let src = v["name"].as_str().ok_or("a vector without a name")?;
    let schema = v
        .get("decodeSchema")
        .unwrap_or(&v["schema"])
        .as_str()
        .ok_or("a vector without a schema")?
        .to_owned();
    let ir = sable_schema::compile_file(&root.join(&schema))
        .ir
        .ok_or_else(|| format!("{schema} does not compile"))?;
    let bytes = hex_bytes(v["hex"].as_str().ok_or("a vector without hex")?)?;
    let items = walk(&ir, &bytes).map_err(|f| format!("{src}: the valid message fails: {f:?}"))?;
    let mut out = Vec::new();
    let mut add = |name: String, bytes: Vec<u8>, note: String| -> Result<(), String> {
        match walk(&ir, &bytes) {
            Ok(_) => Ok(()), // still a message (a lie the bytes after it happen to satisfy)
            Err(error) => {
                out.push(Malformed {
                    name: format!("{src}-{name}"),
                    schema: schema.clone(),
                    error,
                    note: format!("{src} {note}"),
                    bytes,
                });
                Ok(())
            }
        }
    };
    cuts(&items, &bytes, &mut add)?;
    lies(&ir, &items, &bytes, &mut add)?;
    header(&ir, &bytes, &mut add)?;
    Ok(out)
}

type Add<'a> = dyn FnMut(String, Vec<u8>, String) -> Result<(), String> + 'a;

/// The message cut at each item's first byte, one byte into it and one byte short of its end;
/// the header (the first item) at every byte, from the empty message (0 bytes) on.
fn cuts(items: &[Item], bytes: &[u8], add: &mut Add<'_>) -> Result<(), String> {
    let mut done = Vec::new();
    for item in items.iter().filter(|i| i.len > 0) {
        let end = item.start + item.len;
        let mut at = vec![
            (item.start, "at the first byte of"),
            (item.start + 1, "one byte into"),
            (end - 1, "one byte short of the end of"),
        ];
        if item.what == ItemKind::Header {
            at.extend((item.start + 2..end - 1).map(|cut| (cut, "inside")));
            at.sort_by_key(|&(cut, _)| cut);
        }
        for (cut, how) in at {
            if cut >= end || done.contains(&cut) {
                continue;
            }
            done.push(cut);
            let note = if cut == 0 {
                "cut to 0 bytes: the empty message".to_owned()
            } else {
                format!(
                    "cut to {cut} bytes, {how} {} (bytes {}..{end})",
                    item.path, item.start
                )
            };
            add(format!("cut-{cut}"), bytes[..cut].to_vec(), note)?;
        }
    }
    Ok(())
}

/// Group counts and var-data lengths that lie (one more, the type's largest), and group block
/// lengths one byte short.
fn lies(ir: &Ir, items: &[Item], bytes: &[u8], add: &mut Add<'_>) -> Result<(), String> {
    let big = ir.byte_order == sable_ir::ByteOrder::BigEndian;
    for item in items {
        let (at, ty, what) = match item.what {
            ItemKind::Dimensions {
                count,
                block_length,
            } => {
                let bl_at = item.start + block_length.0;
                let bl = read(bytes, bl_at, block_length.1, big);
                if bl > 0 {
                    let mut b = bytes.to_vec();
                    write(&mut b, bl_at, block_length.1, big, bl - 1);
                    add(
                        format!("block-length-{}", item.path),
                        b,
                        format!("with {}'s blockLength {} (really {bl})", item.path, bl - 1),
                    )?;
                }
                (item.start + count.0, count.1, "count")
            }
            ItemKind::VarData { length } => (item.start + length.0, length.1, "length"),
            _ => continue,
        };
        let real = read(bytes, at, ty, big);
        for (tag, lie) in [("plus-one", real + 1), ("max", max_of(ty))] {
            if lie > max_of(ty) || (tag == "plus-one" && lie == max_of(ty)) {
                continue;
            }
            let mut b = bytes.to_vec();
            write(&mut b, at, ty, big, lie);
            add(
                format!("{what}-{tag}-{}", item.path),
                b,
                format!("with {}'s {what} {lie} (really {real})", item.path),
            )?;
        }
    }
    Ok(())
}

/// A wrong schema id and template id, a root block length one byte short, and the order of
/// the header's checks.
fn header(ir: &Ir, bytes: &[u8], add: &mut Add<'_>) -> Result<(), String> {
    let h = HeaderLayout::of(ir);
    let big = ir.byte_order == sable_ir::ByteOrder::BigEndian;
    let set = |b: &mut Vec<u8>, (at, ty): (usize, PrimitiveType), value: u64| {
        write(b, at, ty, big, value)
    };
    let get = |(at, ty): (usize, PrimitiveType)| read(bytes, at, ty, big);
    let unknown = (1..=max_of(h.template_id.1))
        .rev()
        .find(|id| {
            ir.messages
                .iter()
                .all(|m| u64::try_from(m[0].id).ok() != Some(*id))
        })
        .ok_or("no unused template id")?;
    let schema_id = get(h.schema_id);
    let wrong_schema = schema_id ^ 1;

    let mut b = bytes.to_vec();
    set(&mut b, h.schema_id, wrong_schema);
    add(
        "schema-id".into(),
        b.clone(),
        format!("with schemaId {wrong_schema}"),
    )?;
    b.truncate(h.size - 1);
    add(
        "schema-id-header-cut".into(),
        b,
        format!("with schemaId {wrong_schema}, cut inside the header (truncated first)"),
    )?;

    let mut b = bytes.to_vec();
    set(&mut b, h.template_id, unknown);
    add(
        "template-id".into(),
        b.clone(),
        format!("with templateId {unknown}"),
    )?;
    set(&mut b, h.schema_id, wrong_schema);
    add(
        "schema-and-template-id".into(),
        b,
        format!("with schemaId {wrong_schema} and templateId {unknown} (the schema id first)"),
    )?;

    let version = i64::try_from(get(h.version)).unwrap_or(i64::MAX);
    let bl = get(h.block_length);
    if version >= i64::from(ir.version) && bl > 0 {
        let mut b = bytes.to_vec();
        set(&mut b, h.block_length, bl - 1);
        add(
            "block-length".into(),
            b.clone(),
            format!("with the root blockLength {} (really {bl})", bl - 1),
        )?;
        b.truncate(h.size);
        add(
            "block-length-header-only".into(),
            b,
            format!(
                "with the root blockLength {} and nothing after the header (blockLengthTooShort before the root block's truncation)",
                bl - 1
            ),
        )?;
    }
    Ok(())
}
