//! Enums (`enum.IntEnum`), sets (an `int` with a `bool` attribute per choice) and composites (a
//! decoder and an encoder over the composite's bytes).

use super::fields::{eager_attr, Eager, Slot, COMPOSITE};
use super::names::{accessor, class_name, constant, docstring, lit, str_lit};
use super::Gen;
use crate::model::{Composite, EnumType, SetType};

impl Gen<'_> {
    pub(super) fn enum_type(&mut self, e: &EnumType) {
        let cls = class_name(&e.name);
        let c = constant(&e.name);
        let o = &mut self.out;
        o.line(format!("class {cls}(enum.IntEnum):"));
        o.indent();
        o.line(docstring(
            e.description.as_deref(),
            &format!("Enum `{}`.", e.name),
        ));
        o.blank();
        for v in &e.values {
            o.line(format!(
                "{} = {}",
                constant(&v.name),
                lit(&v.value, e.encoding_type)
            ));
            if let Some(d) = v.description.as_deref().filter(|d| !d.trim().is_empty()) {
                o.line(docstring(Some(d), ""));
            }
        }
        o.outdent();
        o.blank();
        o.blank();
        o.line(format!("#: The null value of `{}`.", e.name));
        o.line(format!(
            "{c}_NULL: Final = {}",
            lit(&e.null_value, e.encoding_type)
        ));
        o.line(format!(
            "_{c}_VALUES: Final[dict[int, {cls}]] = {{m.value: m for m in {cls}}}"
        ));
        if super::fields::one_byte(e.encoding_type) {
            o.line(format!(
                "_{c}_OF: Final[tuple[{cls} | int, ...]] = tuple(_{c}_VALUES.get(i, i) for i in range(256))"
            ));
        }
        let o = &mut self.out;
        o.line(format!("_{c}_JSON: Final[dict[int, str]] = {{"));
        for v in &e.values {
            o.line(format!(
                "    {}: {},",
                lit(&v.value, e.encoding_type),
                str_lit(&format!("\"{}\"", v.name))
            ));
        }
        o.line("}");
        o.blank();
        o.blank();
    }

    pub(super) fn set_type(&mut self, st: &SetType) {
        let cls = class_name(&st.name);
        let c = constant(&st.name);
        let o = &mut self.out;
        // Final: the one-byte sets' values are made once, of this very class.
        o.line("@final");
        o.line(format!("class {cls}(int):"));
        o.indent();
        o.line(docstring(
            st.description.as_deref(),
            &format!(
                "Set `{}`: its bits, with a read-only `bool` attribute per choice.",
                st.name
            ),
        ));
        o.blank();
        for ch in &st.choices {
            o.line(format!(
                "{}: Final = {}",
                constant(&ch.name),
                1u64 << ch.bit.min(63)
            ));
        }
        // The choices are attributes worked out once by `__new__` (the one-byte sets' 256
        // values are made once, below), not properties: an attribute read costs a fifth of a
        // property call. (Accessor names never hide `int`'s own attributes: `names::accessor`.)
        for ch in &st.choices {
            o.line(super::fields::comment(&docstring(
                ch.description.as_deref(),
                &format!("Whether `{}` is set.", ch.name),
            )));
            o.line(format!("{}: bool", accessor(&ch.name)));
        }
        o.blank();
        o.line(format!("def __new__(cls, bits: int = 0) -> {cls}:"));
        o.indent();
        o.line("self = super().__new__(cls, bits)");
        if !st.choices.is_empty() {
            o.line("d = self.__dict__");
        }
        for ch in &st.choices {
            o.line(format!(
                "d[\"{}\"] = bits & {} != 0",
                accessor(&ch.name),
                1u64 << ch.bit.min(63)
            ));
        }
        o.line("return self");
        o.outdent();
        o.blank();
        o.line("def __setattr__(self, name: str, value: object) -> None:");
        o.line(format!(
            "    raise AttributeError(f\"{cls} is read-only: cannot set {{name}}\")"
        ));
        o.blank();
        o.line("def __delattr__(self, name: str) -> None:");
        o.line(format!(
            "    raise AttributeError(f\"{cls} is read-only: cannot delete {{name}}\")"
        ));
        o.blank();
        o.line("def __repr__(self) -> str:");
        o.indent();
        o.line(format!("return f\"{cls}({{int(self):#x}})\""));
        o.outdent();
        o.outdent();
        o.blank();
        o.blank();
        if super::fields::one_byte(st.encoding_type) {
            o.line(format!(
                "_{c}_OF: Final[tuple[{cls}, ...]] = tuple(map({cls}, range(256)))"
            ));
        }
        let o = &mut self.out;
        o.line(format!("_{c}_CHOICES: Final = ("));
        for ch in &st.choices {
            o.line(format!(
                "    ({}, {}),",
                ch.bit,
                str_lit(&format!("\"{}\"", ch.name))
            ));
        }
        o.line(")");
        o.blank();
        o.blank();
    }

    pub(super) fn composite(&mut self, c: &Composite) {
        let cls = class_name(&c.name);
        let len = c.encoded_length.max(0);
        // The decoder.
        let o = &mut self.out;
        o.line(format!("class {cls}Decoder:"));
        o.indent();
        o.line(docstring(
            c.description.as_deref(),
            &format!("Composite `{}`.", c.name),
        ));
        o.blank();
        // Members read at once when the decoder is made, when they read as one struct.
        let layout = self.composite_layout(c);
        let mut attrs: Vec<String> = ["_buf", "_off", "_version"].map(String::from).to_vec();
        if let Some((_, at)) = &layout {
            attrs.extend(
                c.members
                    .iter()
                    .zip(at)
                    .filter(|(m, i)| i.is_some() && !Slot::of_member(m).constant)
                    .map(|(m, _)| eager_attr(&Slot::of_member(m))),
            );
        }
        attrs.sort_by_key(|a| super::natural(a));
        let attrs: Vec<String> = attrs.iter().map(|a| str_lit(a)).collect();
        let o = &mut self.out;
        o.line(format!("__slots__ = ({})", attrs.join(", ")));
        o.blank();
        o.line(format!("ENCODED_LENGTH: Final = {len}"));
        o.blank();
        let mut eager = Eager::default();
        for (i, m) in c.members.iter().enumerate() {
            let slot = Slot::of_member(m);
            self.slot_meta(&slot);
            let val = layout.as_ref().and_then(|(_, at)| at[i]);
            if let Some(e) = self.slot_getter(&slot, &COMPOSITE, val) {
                eager.extend(e);
            }
        }
        let o = &mut self.out;
        o.line(
            "def __init__(self, buf: Buffer, offset: int, version: int = SCHEMA_VERSION) -> None:",
        );
        o.indent();
        o.line("self._buf = buf");
        o.line("self._off = offset");
        o.line("self._version = version");
        if let Some((format, _)) = layout.filter(|_| !eager.lines.is_empty()) {
            let name = format!("_{}_COMPOSITE", constant(&c.name));
            self.formats.insert(super::names::Format {
                name: name.clone(),
                format,
            });
            let o = &mut self.out;
            o.line(format!("v = {name}.unpack_from(buf, offset)"));
            for l in &eager.lines {
                o.line(l);
            }
        }
        self.out.outdent();
        self.out.blank();
        let entries = c
            .members
            .iter()
            .map(|m| {
                let slot = Slot::of_member(m);
                (m.name.clone(), self.slot_json(&slot, &COMPOSITE), None)
            })
            .collect();
        self.json_method(entries);
        self.out.outdent();
        self.out.blank();
        self.out.blank();
        // The encoder.
        let o = &mut self.out;
        o.line(format!("class {cls}Encoder(CompositeEncoder):"));
        o.indent();
        o.line(docstring(
            c.description.as_deref(),
            &format!("Writes composite `{}`.", c.name),
        ));
        o.blank();
        o.line("__slots__ = ()");
        o.blank();
        o.line(format!("ENCODED_LENGTH: Final = {len}"));
        o.blank();
        for m in &c.members {
            self.slot_setter(
                &Slot::of_member(m),
                &COMPOSITE,
                &format!("{cls}Encoder"),
                false,
            );
        }
        self.out.outdent();
        self.out.blank();
        self.out.blank();
    }

    /// `_json(out)`: the object of its members' values: each entry its schema name, the
    /// statements appending its value, and when the value may be absent, the condition that it
    /// is present (else it is `null`).
    pub(super) fn json_method(&mut self, entries: Vec<(String, Vec<String>, Option<String>)>) {
        let o = &mut self.out;
        o.line("def _json(self, out: list[str]) -> None:");
        o.indent();
        if entries.is_empty() {
            o.line("out.append(\"{}\")");
        }
        for (i, (name, lines, present)) in entries.iter().enumerate() {
            let sep = if i == 0 { "{" } else { "," };
            o.line(format!(
                "out.append({})",
                str_lit(&format!("{sep}\"{name}\":"))
            ));
            match present {
                Some(cond) => {
                    o.line(format!("if {cond}:"));
                    o.indent();
                    for l in lines {
                        o.line(l);
                    }
                    o.outdent();
                    o.line("else:");
                    o.line("    out.append(\"null\")");
                }
                None => {
                    for l in lines {
                        o.line(l);
                    }
                }
            }
        }
        if !entries.is_empty() {
            o.line("out.append(\"}\")");
        }
        o.outdent();
        o.blank();
    }
}
