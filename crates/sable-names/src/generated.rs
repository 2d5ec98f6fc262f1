//! The identifiers each language's generated code declares for a schema name, grouped by the
//! scope they share: a message or group's members, a composite's members, an enum's values, a
//! set's choices, and the types of a package. Two schema names in one scope whose identifiers
//! meet make code that does not compile; sable-schema's check reports them.
//!
//! For Java, C++ and Rust these lists follow what the generators write (accessors and the
//! constants and methods derived from a name, such as Rust's `BID_PX_ID` or Java's
//! `fooLength()`); for the other languages they are the rules docs/naming.md sets for them
//! (Erlang's functions with their arity, `bid_px/1`, since only name and arity together clash).
//! Where a generator itself renames clashing names (Rust's enum variants, set constants and
//! group types get `_` or a path prefix), nothing is listed, since the code compiles.

use crate::{c, common, cpp, csharp, erlang, go, java, python, rust, typescript, Language};

/// What a field's type makes of it, as far as its generated names go.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum FieldType {
    /// One number or character.
    Scalar,
    /// A fixed-length array of numbers.
    Array,
    /// A fixed-length array of characters.
    Chars,
    /// A constant (no bytes on the wire).
    Constant,
    Enum,
    Set,
    Composite,
}

/// A member of a message or group.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Member {
    Field(FieldType),
    Group,
    Data,
}

/// What a member belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Owner {
    Message,
    Group,
    Composite,
}

/// A type declared at package level.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum TypeKind {
    Composite,
    Enum,
    Set,
    Message,
}

/// Marks a C++ identifier declared in a message's class rather than in its Decoder and Encoder
/// (where the accessors are), so that the two scopes stay apart: `Quote::bid_id` does not clash
/// with `Quote::Decoder::bid_id()`.
pub const CPP_MESSAGE_CLASS: &str = "Message::";

/// The identifiers a message or group member declares in its message's (or group's) generated
/// types: the accessor first, then the names derived from it. Identifiers in a separate scope
/// carry a prefix ending in `::` ([`CPP_MESSAGE_CLASS`]).
pub fn member(lang: Language, name: &str, member: Member, owner: Owner) -> Vec<String> {
    match lang {
        Language::Java => java_member(name, member, owner),
        Language::Cpp => cpp_member(name, member, owner),
        Language::Rust => rust_member(name, member, owner),
        Language::CSharp => {
            let p = csharp::pascal(name);
            let mut v = vec![p.clone(), format!("{p}Id"), format!("{p}SinceVersion")];
            if member == Member::Data {
                v.push(format!("{p}Length"));
            }
            v
        }
        Language::Go => {
            let p = go::exported(name);
            let mut v = vec![
                go::method(name),
                format!("{p}ID"),
                format!("{p}SinceVersion"),
            ];
            v.extend(go_derived(&p, member));
            v
        }
        Language::Python => {
            let u = common::screaming_snake(name);
            vec![
                python::snake(name),
                format!("{u}_ID"),
                format!("{u}_SINCE_VERSION"),
            ]
        }
        Language::TypeScript => {
            let c = typescript::camel(name);
            vec![c.clone(), format!("{c}Id"), format!("{c}SinceVersion")]
        }
        Language::C => {
            let i = c::ident(name);
            let mut v = vec![
                i.clone(),
                format!("set_{i}"),
                format!("{i}_id"),
                format!("{i}_since_version"),
            ];
            if member == Member::Data {
                v.push(format!("{i}_length"));
            }
            v
        }
        Language::Erlang => {
            // Functions by name and arity: the decoder's accessor, the encoder's, the metadata.
            let s = erlang::snake(name);
            let mut v = vec![
                format!("{s}/1"),
                format!("{s}/2"),
                format!("{s}_id/0"),
                format!("{s}_since_version/0"),
            ];
            if member == Member::Data {
                v.push(format!("{s}_length/1"));
            }
            v
        }
    }
}

/// The identifiers a composite's member declares in the composite's generated types.
pub fn composite_member(lang: Language, name: &str, t: FieldType) -> Vec<String> {
    let m = Member::Field(t);
    match lang {
        Language::Java => java_member(name, m, Owner::Composite),
        Language::Cpp => cpp_member(name, m, Owner::Composite),
        Language::Rust => rust_member(name, m, Owner::Composite),
        Language::CSharp => vec![csharp::pascal(name)],
        Language::Go => {
            let mut v = vec![go::method(name)];
            v.extend(go_derived(&go::exported(name), m));
            v
        }
        Language::Python => vec![python::snake(name)],
        Language::TypeScript => vec![typescript::camel(name)],
        Language::C => {
            let i = c::ident(name);
            vec![i.clone(), format!("set_{i}")]
        }
        Language::Erlang => {
            let s = erlang::snake(name);
            vec![format!("{s}/1"), format!("{s}/2")]
        }
    }
}

/// The identifier an enum's value becomes, or `None` where the generator renames clashes.
pub fn enum_value(lang: Language, name: &str) -> Option<String> {
    match lang {
        Language::Java => Some(java::ident(name)),
        Language::Cpp => Some(cpp::ident(name)),
        Language::Rust => None,
        Language::CSharp => Some(csharp::pascal(name)),
        Language::Go => Some(go::exported(name)),
        Language::Python => Some(python::constant(name)),
        Language::TypeScript => Some(typescript::pascal(name)),
        Language::C => Some(c::ident(name)),
        Language::Erlang => Some(erlang::value(name)),
    }
}

/// The identifier a set's choice becomes, or `None` where the generator renames clashes.
/// (As an enum's value, but TypeScript's choices are camelCase properties.)
pub fn set_choice(lang: Language, name: &str) -> Option<String> {
    match lang {
        Language::TypeScript => Some(typescript::camel(name)),
        _ => enum_value(lang, name),
    }
}

/// The package-level types (and, for Rust, modules) a declared type or message generates.
pub fn package_type(lang: Language, name: &str, kind: TypeKind) -> Vec<String> {
    let codecs = |c: String| vec![c.clone() + "Decoder", c + "Encoder"];
    match lang {
        Language::Java => match kind {
            TypeKind::Enum => vec![java::class_name(name)],
            _ => codecs(java::class_name(name)),
        },
        Language::Cpp => vec![cpp::ident(name)],
        Language::Rust => match kind {
            TypeKind::Enum | TypeKind::Set => vec![rust::camel(name)],
            TypeKind::Composite => codecs(rust::camel(name)),
            TypeKind::Message => {
                let mut v = codecs(rust::camel(name));
                v.push(format!("mod {}", rust::snake(name)));
                v
            }
        },
        Language::CSharp => match kind {
            TypeKind::Enum | TypeKind::Set => vec![csharp::pascal(name)],
            _ => codecs(csharp::pascal(name)),
        },
        Language::Go => match kind {
            TypeKind::Enum | TypeKind::Set => vec![go::exported(name)],
            _ => codecs(go::exported(name)),
        },
        Language::Python => vec![python::class_name(name)],
        Language::TypeScript => vec![typescript::pascal(name)],
        Language::C => vec![c::ident(name)],
        // One module per type and message.
        Language::Erlang => vec![erlang::snake(name)],
    }
}

/// The Go generator's names derived from a member's exported name `p` besides its accessor
/// (docs/go.md): setters, `Clear` for what may be optional, text and length accessors, a
/// group's `Count` starter.
fn go_derived(p: &str, member: Member) -> Vec<String> {
    let mut v = Vec::new();
    match member {
        Member::Field(FieldType::Scalar | FieldType::Enum) => {
            v.extend([format!("Set{p}"), format!("Clear{p}")]);
        }
        Member::Field(FieldType::Array) => v.extend([format!("Set{p}"), format!("{p}Length")]),
        Member::Field(FieldType::Chars) => v.extend([
            format!("Set{p}"),
            format!("Set{p}String"),
            format!("{p}String"),
            format!("{p}Raw"),
            format!("{p}Length"),
        ]),
        Member::Field(FieldType::Set) => v.push(format!("Set{p}")),
        Member::Field(FieldType::Constant | FieldType::Composite) => {}
        Member::Group => v.push(format!("{p}Count")),
        Member::Data => v.extend([
            format!("Set{p}"),
            format!("Set{p}String"),
            format!("{p}String"),
            format!("{p}Length"),
        ]),
    }
    v
}

fn java_member(name: &str, member: Member, owner: Owner) -> Vec<String> {
    let in_message = owner != Owner::Composite;
    let p = java::prop(name);
    let cap = common::upper_first(&java::ident(name));
    // Methods named `{p}{suffix}` and `{prefix}{Cap}`.
    let mut suffixes = vec!["", "SinceVersion"];
    let mut prefixes = vec![];
    if in_message {
        suffixes.push("Id");
    }
    match member {
        Member::Field(t) => {
            suffixes.extend(["EncodingLength", "EncodingOffset", "MetaAttribute"]);
            if matches!(
                t,
                FieldType::Scalar | FieldType::Array | FieldType::Chars | FieldType::Constant
            ) {
                suffixes.extend(["NullValue", "MinValue", "MaxValue"]);
            }
            if matches!(t, FieldType::Array | FieldType::Chars) {
                suffixes.push("Length");
                prefixes.push("put");
            }
            if matches!(t, FieldType::Chars | FieldType::Constant) {
                suffixes.push("CharacterEncoding");
            }
            if t == FieldType::Chars {
                prefixes.push("get");
            }
            if t == FieldType::Enum {
                suffixes.push("Raw");
            }
        }
        Member::Group => suffixes.push("Count"),
        Member::Data => {
            suffixes.extend(["CharacterEncoding", "HeaderLength", "Length"]);
            prefixes.extend(["get", "put", "skip"]);
        }
    }
    let derived = suffixes.iter().map(|s| format!("{p}{s}"));
    derived
        .chain(prefixes.iter().map(|x| format!("{x}{cap}")))
        .collect()
}

fn cpp_member(name: &str, member: Member, owner: Owner) -> Vec<String> {
    let i = cpp::ident(name);
    // In the message's Decoder and Encoder, a group's class, or a composite's.
    let mut v = vec![i.clone()];
    if owner != Owner::Composite {
        v.push(format!("{i}_present"));
    }
    match member {
        Member::Field(t) => {
            if matches!(t, FieldType::Scalar | FieldType::Array) {
                v.push(format!("{i}_null_value"));
            }
            if matches!(t, FieldType::Array | FieldType::Chars) {
                v.push(format!("{i}_length"));
            }
        }
        // The group's class is nested in the message's Decoder and Encoder, beside the accessors.
        Member::Group => v.push(common::upper_first(&i)),
        Member::Data => v.push(format!("{i}_bytes")),
    }
    // A message's field metadata is in the message's class, around its Decoder and Encoder.
    if owner == Owner::Message {
        let mut consts = vec![format!("{i}_id")];
        if let Member::Field(_) = member {
            consts.extend([format!("{i}_since_version"), format!("{i}_offset")]);
        }
        v.extend(
            consts
                .into_iter()
                .map(|c| format!("{CPP_MESSAGE_CLASS}{c}")),
        );
    }
    v
}

fn rust_member(name: &str, member: Member, owner: Owner) -> Vec<String> {
    let in_message = owner != Owner::Composite;
    let u = rust::upper(name);
    let mut v = vec![rust::method(name)];
    if in_message {
        v.extend([format!("{u}_ID"), format!("{u}_SINCE_VERSION")]);
    }
    let str_method = format!("{}_str", rust::snake(name));
    match member {
        Member::Field(t) => {
            if in_message {
                v.extend([format!("{u}_OFFSET"), format!("{u}_ENCODED_LENGTH")]);
            }
            if matches!(t, FieldType::Scalar | FieldType::Array | FieldType::Chars) {
                v.extend([format!("{u}_NULL"), format!("{u}_MIN"), format!("{u}_MAX")]);
            }
            if matches!(t, FieldType::Array | FieldType::Chars) {
                v.push(format!("{u}_LENGTH"));
            }
            if t == FieldType::Chars {
                v.extend([format!("{u}_CHARACTER_ENCODING"), str_method]);
            }
            if t == FieldType::Constant {
                v.push(format!("{u}_VALUE"));
            }
        }
        Member::Group => {}
        Member::Data => v.extend([format!("{u}_CHARACTER_ENCODING"), str_method]),
    }
    v
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rust_members_share_derived_constants() {
        let scalar = Member::Field(FieldType::Scalar);
        let a = member(Language::Rust, "bidPx", scalar, Owner::Message);
        let b = member(Language::Rust, "bid_px", scalar, Owner::Message);
        assert_eq!(a, b);
        assert!(a.contains(&"BID_PX_ID".to_owned()));
    }

    #[test]
    fn java_var_data_length_meets_a_field() {
        let data = member(Language::Java, "foo", Member::Data, Owner::Group);
        let scalar = Member::Field(FieldType::Scalar);
        let field = member(Language::Java, "fooLength", scalar, Owner::Group);
        assert!(data.contains(&field[0]));
    }

    #[test]
    fn c_and_erlang_members() {
        let data = member(Language::C, "switch", Member::Data, Owner::Message);
        assert_eq!(
            data,
            [
                "switch_",
                "set_switch_",
                "switch__id",
                "switch__since_version",
                "switch__length"
            ]
        );
        let scalar = Member::Field(FieldType::Scalar);
        let e = member(Language::Erlang, "bidPx", scalar, Owner::Group);
        assert_eq!(
            e,
            [
                "bid_px/1",
                "bid_px/2",
                "bid_px_id/0",
                "bid_px_since_version/0"
            ]
        );
        // `a`'s id function and a field `a_id`'s accessor differ by arity: no clash.
        let a = member(Language::Erlang, "a", scalar, Owner::Message);
        let a_id = member(Language::Erlang, "a_id", scalar, Owner::Message);
        assert!(a.iter().all(|x| !a_id.contains(x)));
        assert_eq!(enum_value(Language::Erlang, "NITROUS").unwrap(), "nitrous");
        assert_eq!(enum_value(Language::C, "NULL").unwrap(), "NULL_");
    }

    #[test]
    fn cpp_keeps_a_message_class_apart_from_its_decoder() {
        let a = member(Language::Cpp, "a", Member::Data, Owner::Message);
        assert!(a.contains(&"Message::a_id".to_owned()));
        assert!(!a.contains(&"a_id".to_owned()));
        let in_group = member(Language::Cpp, "a", Member::Data, Owner::Group);
        assert_eq!(in_group, ["a", "a_present", "a_bytes"]);
    }
}
