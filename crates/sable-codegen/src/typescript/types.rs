//! Enums (a frozen object of their values and a type of them), sets (a class over their bits,
//! a getter per choice) and composites (a decoder and an encoder over the composite's bytes).

use super::fields::{Slot, COMPOSITE_DEC, COMPOSITE_ENC};
use super::names::{accessor, cache, class_name, constant, doc, is_big, lit, pascal, str_lit};
use super::Gen;
use crate::model::{Composite, EnumType, SetType};

impl Gen<'_> {
    pub(super) fn enum_type(&mut self, e: &EnumType) {
        let t = class_name(&e.name);
        let c = constant(&e.name);
        let num = |v: &sable_ir::PrimitiveValue| {
            let l = lit(v, e.encoding_type);
            l.trim_end_matches('n').to_owned()
        };
        let o = &mut self.out;
        o.line(doc(
            e.description.as_deref(),
            &format!("Enum `{}`.", e.name),
        ));
        o.line(format!("export const {t} = {{"));
        for v in &e.values {
            if let Some(d) = v.description.as_deref().filter(|d| !d.trim().is_empty()) {
                o.line(format!("  {}", doc(Some(d), "")));
            }
            o.line(format!("  {}: {},", pascal(&v.name), num(&v.value)));
        }
        o.line("} as const;");
        o.line(doc(
            None,
            &format!("A value of enum `{}` (its valid values).", e.name),
        ));
        if e.values.is_empty() {
            o.line(format!("export type {t} = never;"));
        } else {
            o.line(format!("export type {t} = (typeof {t})[keyof typeof {t}];"));
        }
        o.line(format!("/** The null value of enum `{}`. */", e.name));
        o.line(format!(
            "export const {c}_NULL_VALUE = {};",
            num(&e.null_value)
        ));
        o.line(format!(
            "const {c}_NAMES: ReadonlyMap<number, string> = new Map<number, string>(["
        ));
        for v in &e.values {
            o.line(format!("  [{}, {}],", num(&v.value), str_lit(&v.name)));
        }
        o.line("]);");
        o.line(format!(
            "/** The schema name of a value of enum `{}`, `undefined` for a value with no name. */",
            e.name
        ));
        o.line(format!(
            "export function {}Name(value: number): string | undefined {{",
            super::names::camel(&e.name)
        ));
        o.line(format!("  return {c}_NAMES.get(value);"));
        o.line("}");
        o.blank();
    }

    pub(super) fn set_type(&mut self, st: &SetType) {
        let cls = class_name(&st.name);
        let c = constant(&st.name);
        let big = is_big(st.encoding_type);
        let (raw_t, zero) = if big {
            ("bigint", "0n")
        } else {
            ("number", "0")
        };
        let mask = |bit: u32| -> String {
            if big {
                format!("{}n", 1u64 << bit.min(63))
            } else {
                format!("0x{:x}", 1u64 << bit.min(31))
            }
        };
        let o = &mut self.out;
        o.line(doc(
            st.description.as_deref(),
            &format!("Set `{}`: its bits, with a getter per choice.", st.name),
        ));
        o.line(format!("export class {cls} {{"));
        for ch in &st.choices {
            o.line(format!(
                "  /** The bit of choice `{}` (bit {}). */",
                ch.name, ch.bit
            ));
            o.line(format!(
                "  static readonly {} = {};",
                constant(&ch.name),
                mask(ch.bit)
            ));
        }
        o.blank();
        o.line("  /** The bits, every one (those that name no choice too). */");
        o.line(format!("  constructor(readonly raw: {raw_t}) {{}}"));
        o.blank();
        o.line("  /** Whether no bit is set. */");
        o.line("  isEmpty(): boolean {");
        o.line(format!("    return this.raw === {zero};"));
        o.line("  }");
        for ch in &st.choices {
            o.blank();
            o.line(format!(
                "  {}",
                doc(
                    ch.description.as_deref(),
                    &format!("Whether choice `{}` is set.", ch.name)
                )
            ));
            o.line(format!("  get {}(): boolean {{", accessor(&ch.name)));
            o.line(format!(
                "    return (this.raw & {}) !== {zero};",
                mask(ch.bit)
            ));
            o.line("  }");
        }
        o.blank();
        o.line("  /** The set as its canonical JSON. */");
        o.line("  toJson(): string {");
        o.line(format!(
            "    return jsonSet(BigInt(this.raw), {c}_CHOICES);"
        ));
        o.line("  }");
        o.line("}");
        o.line(format!(
            "const {c}_CHOICES: readonly (readonly [number, string])[] = ["
        ));
        for ch in &st.choices {
            o.line(format!("  [{}, {}],", ch.bit, str_lit(&ch.name)));
        }
        o.line("];");
        o.blank();
        self.import("jsonSet");
    }

    pub(super) fn composite(&mut self, c: &Composite) {
        let cls = class_name(&c.name);
        let len = c.encoded_length.max(0);
        self.import("CompositeDecoder");
        self.import("CompositeEncoder");
        // The decoder.
        self.out.line(doc(
            c.description.as_deref(),
            &format!("Composite `{}`: a view of its bytes.", c.name),
        ));
        self.out.line(format!(
            "export class {cls}Decoder extends CompositeDecoder {{"
        ));
        self.out.indent();
        self.out.line("/** The composite's size in bytes. */");
        self.out
            .line(format!("static readonly ENCODED_LENGTH = {len};"));
        for m in &c.members {
            self.slot_meta(&Slot::of_member(m));
        }
        self.cache_fields(c.members.iter().map(Slot::of_member).collect(), "Decoder");
        self.composite_at(false);
        for m in &c.members {
            self.slot_getter(&Slot::of_member(m), &COMPOSITE_DEC);
        }
        let entries = c
            .members
            .iter()
            .map(|m| {
                let slot = Slot::of_member(m);
                (m.name.clone(), self.slot_json(&slot, &COMPOSITE_DEC), None)
            })
            .collect();
        self.out.blank();
        self.json_method(entries, "");
        self.out.outdent();
        self.out.line("}");
        self.out.blank();
        // The encoder.
        self.out.line(doc(
            c.description.as_deref(),
            &format!("Writes composite `{}`.", c.name),
        ));
        self.out.line(format!(
            "export class {cls}Encoder extends CompositeEncoder {{"
        ));
        self.out.indent();
        self.out.line("/** The composite's size in bytes. */");
        self.out
            .line(format!("static readonly ENCODED_LENGTH = {len};"));
        self.cache_fields(c.members.iter().map(Slot::of_member).collect(), "Encoder");
        self.composite_at(true);
        for m in &c.members {
            self.slot_setter(&Slot::of_member(m), &COMPOSITE_ENC);
        }
        self.out.outdent();
        self.out.line("}");
        self.out.blank();
    }

    /// The fields holding the flyweights of a block's or composite's composite members.
    pub(super) fn cache_fields(&mut self, slots: Vec<Slot<'_>>, suffix: &str) {
        for slot in slots {
            if let crate::model::TypeRef::Composite(n) = slot.type_ref {
                if !slot.constant {
                    let args = if suffix == "Encoder" {
                        format!("this, {}", str_lit(slot.name))
                    } else {
                        String::new()
                    };
                    self.out.line(format!(
                        "private readonly {} = new {}{suffix}({args});",
                        cache(slot.name),
                        class_name(n)
                    ));
                }
            }
        }
    }

    /// `_json()`: the object of its members' values: each entry its schema name, the
    /// expression of its value, and when the value may be absent, the condition that it is
    /// present (else it is `null`).
    pub(super) fn json_method(
        &mut self,
        entries: Vec<(String, String, Option<String>)>,
        modifier: &str,
    ) {
        let o = &mut self.out;
        o.line(format!("{modifier}_json(): string {{"));
        if entries.is_empty() {
            o.line("  return \"{}\";");
        } else {
            for (i, (name, value, present)) in entries.iter().enumerate() {
                let sep = if i == 0 { "{" } else { "," };
                let key = str_lit(&format!("{sep}\"{name}\":"));
                let value = match present {
                    Some(cond) => format!("({cond} ? {value} : \"null\")"),
                    None => value.clone(),
                };
                let op = if i == 0 { "let s =" } else { "s +=" };
                o.line(format!("  {op} {key} + {value};"));
            }
            o.line("  return s + \"}\";");
        }
        o.line("}");
    }
}
