//! Schema loading speed against schema size: `compile_str` (parse, validate, lower to IR) and
//! `check_str_with` (parse and validate: what `sable check` runs) of generated schemas of about
//! 1, 10 and 50 MB, reported per byte so that time per MB can be compared across sizes (it
//! should stay flat: loading is linear).
//!
//! Run with `cargo bench -p sable-schema --bench load` (or `make bench`). The generated schemas
//! are also written to `target/schema-bench/` (under `CARGO_TARGET_DIR` when set), so that
//! `sable check` can be timed on the same files.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use criterion::{criterion_group, criterion_main, Criterion, Throughput};

#[path = "../tests/common/mod.rs"]
mod common;

use common::STANDARD_TYPES;

const MB: usize = 1 << 20;

/// A schema of at least `size` bytes: the standard header composites, then units of types and a
/// message using them, repeated, with a realistic mix of enums, sets, composites with refs and
/// constants, char arrays, optional fields, nested groups and var data.
fn generate(size: usize) -> String {
    let mut types = String::new();
    let mut messages = String::new();
    let mut unit = 0;
    while types.len() + messages.len() < size {
        unit += 1;
        write_unit(&mut types, &mut messages, unit);
    }
    format!(
        r#"<?xml version="1.0" encoding="UTF-8"?>
<sbe:messageSchema xmlns:sbe="http://fixprotocol.io/2016/sbe" package="bench" id="1" version="2"
                   semanticVersion="1.0" description="generated for the schema loading benchmark">
    <types>
{STANDARD_TYPES}
{types}    </types>
{messages}</sbe:messageSchema>
"#
    )
}

fn write_unit(types: &mut String, messages: &mut String, i: usize) {
    let _ = write!(
        types,
        r#"        <type name="Symbol{i}" primitiveType="char" length="12" description="instrument symbol"/>
        <type name="Qty{i}" primitiveType="uint32" presence="optional" nullValue="4294967295"/>
        <enum name="Side{i}" encodingType="uint8">
            <validValue name="Buy">1</validValue>
            <validValue name="Sell">2</validValue>
            <validValue name="SellShort" sinceVersion="1">3</validValue>
        </enum>
        <set name="Flags{i}" encodingType="uint8">
            <choice name="LastFragment">0</choice>
            <choice name="Recovery">1</choice>
            <choice name="EndOfEvent">2</choice>
        </set>
        <composite name="Price{i}" description="decimal price, fixed exponent">
            <type name="mantissa" primitiveType="int64"/>
            <type name="exponent" primitiveType="int8" presence="constant">-9</type>
        </composite>
        <composite name="Quote{i}">
            <ref name="bid" type="Price{i}"/>
            <ref name="ask" type="Price{i}"/>
            <ref name="size" type="Qty{i}"/>
        </composite>
"#
    );
    // Message ids are uint16; names keep messages apart when ids wrap.
    let id = i % 60_000 + 1;
    let _ = write!(
        messages,
        r#"    <sbe:message name="Order{i}" id="{id}" description="order entry {i}">
        <field name="orderId" id="1" type="uint64"/>
        <field name="symbol" id="2" type="Symbol{i}"/>
        <field name="side" id="3" type="Side{i}"/>
        <field name="price" id="4" type="Price{i}"/>
        <field name="quantity" id="5" type="Qty{i}"/>
        <field name="flags" id="6" type="Flags{i}"/>
        <field name="quote" id="7" type="Quote{i}" sinceVersion="1"/>
        <field name="transactTime" id="8" type="uint64" epoch="unix" timeUnit="nanosecond"/>
        <group name="legs" id="9" dimensionType="groupSizeEncoding">
            <field name="legSymbol" id="10" type="Symbol{i}"/>
            <field name="legSide" id="11" type="Side{i}"/>
            <field name="legPrice" id="12" type="Price{i}"/>
            <group name="allocations" id="13">
                <field name="account" id="14" type="uint32"/>
                <field name="allocQty" id="15" type="Qty{i}"/>
            </group>
        </group>
        <data name="text" id="16" type="varDataEncoding"/>
    </sbe:message>
"#
    );
}

/// Where the generated schemas are left for timing `sable check`.
fn out_dir() -> PathBuf {
    std::env::var_os("CARGO_TARGET_DIR")
        .map_or_else(
            || Path::new(env!("CARGO_MANIFEST_DIR")).join("../../target"),
            PathBuf::from,
        )
        .join("schema-bench")
}

fn load(c: &mut Criterion) {
    let dir = out_dir();
    let _ = std::fs::create_dir_all(&dir);
    let mut group = c.benchmark_group("schema_load");
    group.sample_size(10);
    for mb in [1, 10, 50] {
        let text = generate(mb * MB);
        let path = dir.join(format!("{mb}MB.xml"));
        if let Err(e) = std::fs::write(&path, &text) {
            eprintln!("cannot write {}: {e}", path.display());
        }
        let first = sable_schema::compile_str(&text, &path);
        assert!(
            first.ir.is_some(),
            "{:#?}",
            &first.diagnostics[..first.diagnostics.len().min(5)]
        );
        group.throughput(Throughput::Bytes(text.len() as u64));
        group.bench_function(format!("compile_str/{mb}MB"), |b| {
            b.iter(|| sable_schema::compile_str(std::hint::black_box(&text), &path))
        });
        let options = sable_schema::Options::default();
        group.bench_function(format!("check_str/{mb}MB"), |b| {
            b.iter(|| sable_schema::check_str_with(std::hint::black_box(&text), &path, &options))
        });
    }
    group.finish();
}

criterion_group!(benches, load);
criterion_main!(benches);
