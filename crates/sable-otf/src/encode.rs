//! Canonical JSON (`docs/json.md`) to SBE bytes, driven by the IR alone.
//!
//! [`Encoder::new`] turns each message's token list into a plan once; [`Encoder::encode_json`]
//! (or [`Encoder::encode_value`] for an already parsed value, e.g. one line of JSON Lines) then
//! appends one message, header first, to a byte vector.
//!
//! The encoder writes the schema's own block lengths and version. What it accepts, beyond the
//! canonical form the decoder prints:
//!
//! - a key may be omitted when its value could be `null` (an optional field or member, or an
//!   element with `sinceVersion` above 0, which decodes as `null` from older writers), or when it
//!   is a constant; `null` writes the null value (a group of no entries, empty var data);
//! - `header` may be omitted; when present each of its members must agree with the schema;
//! - a char array, char or text var data may be given as `{"hex":"..."}` as well as a string;
//! - a float or double may be given as any JSON number, or `"NaN"`, `"Infinity"`, `"-Infinity"`;
//! - an enum's `{"unknown":N}` may hold any value of the encoding type, named or not.
//!
//! Values are checked against the type's range: the schema's `minValue`/`maxValue`, else the
//! primitive type's (SBE 1.0 section 2), and the type's null value given as a number (a required
//! field holding its null value is what a decoder shows for it: the spec's own ExecutionReport
//! example has a required `uint8` of 255). A decoder shows whatever is on the wire, so
//! [`Encoder::with_range_checks`]`(false)` relaxes this to what the primitive type can hold.
//!
//! Nothing panics on any input: every problem is an [`EncodeError`] naming the JSON path.

use std::collections::HashMap;

use sable_ir::{ByteOrder, Ir};
use serde_json::{Map, Value};

mod error;
mod plan;
mod tokens;
mod write;

pub use error::{EncodeError, EncodeErrorKind, Error};
use plan::MessagePlan;

/// Encodes canonical JSON messages of one schema into SBE.
#[derive(Debug, Clone)]
pub struct Encoder {
    byte_order: ByteOrder,
    header: plan::Composite,
    schema_id: i64,
    schema_version: i64,
    messages: HashMap<String, MessagePlan>,
    range_checks: bool,
}

impl Encoder {
    /// Plans the encoding of every message of `ir`.
    pub fn new(ir: &Ir) -> Result<Encoder, Error> {
        let byte_order = ir.byte_order;
        let header = plan::header(&ir.header_tokens)?;
        for name in ["blockLength", "templateId", "schemaId", "version"] {
            if !header.members.iter().any(|m| m.name == name) {
                return Err(Error::new(format!("the message header has no '{name}'")));
            }
        }
        let mut messages = HashMap::new();
        for tokens in &ir.messages {
            let plan = plan::message(tokens)?;
            messages.insert(plan.name.clone(), plan);
        }
        Ok(Encoder {
            byte_order,
            header,
            schema_id: i64::from(ir.id),
            schema_version: i64::from(ir.version),
            messages,
            range_checks: true,
        })
    }

    /// Turns range checks on (the default) or off. Off, integers need only fit the primitive
    /// type (so a required `uint8` may hold 255) and floats need only be representable; enum
    /// names, set choices, lengths, constants and the header are checked all the same.
    pub fn with_range_checks(mut self, on: bool) -> Encoder {
        self.range_checks = on;
        self
    }

    /// Parses `json` (one message object) and appends its encoding to `out`, returning the
    /// number of bytes appended. On error `out` is left as it was.
    pub fn encode_json(&self, json: &str, out: &mut Vec<u8>) -> Result<usize, EncodeError> {
        let value: Value = serde_json::from_str(json).map_err(|e| EncodeError {
            path: String::new(),
            kind: EncodeErrorKind::InvalidJson(e.to_string()),
        })?;
        self.encode_value(&value, out)
    }

    /// Appends the encoding of one parsed message object to `out`, returning the number of bytes
    /// appended. On error `out` is left as it was.
    pub fn encode_value(&self, value: &Value, out: &mut Vec<u8>) -> Result<usize, EncodeError> {
        let start = out.len();
        let result = self.encode_inner(value, out);
        match result {
            Ok(()) => Ok(out.len() - start),
            Err(e) => {
                out.truncate(start);
                Err(e)
            }
        }
    }

    fn encode_inner(&self, value: &Value, out: &mut Vec<u8>) -> Result<(), EncodeError> {
        let root = write::Path::Root;
        let object = write::as_object(value, &root, "a message object")?;
        let name_path = write::Path::Key(&root, "message");
        let name = match object.get("message") {
            None => return Err(name_path.error(EncodeErrorKind::MissingField)),
            Some(Value::String(s)) => s,
            Some(other) => {
                return Err(name_path.error(write::wrong_type("the message's name", other)))
            }
        };
        let Some(message) = self.messages.get(name.as_str()) else {
            return Err(name_path.error(EncodeErrorKind::UnknownMessage(name.clone())));
        };
        let writer = write::Writer {
            order: self.byte_order,
            range_checks: self.range_checks,
        };

        // The header: what the schema says, checked against what the JSON says.
        // A constant header member is what it is (checked as a constant if given).
        let expected: Vec<(&str, i64)> = [
            ("blockLength", i64::from(message.block_length)),
            ("templateId", i64::from(message.template_id)),
            ("schemaId", self.schema_id),
            ("version", self.schema_version),
        ]
        .into_iter()
        .filter(|(name, _)| {
            !self
                .header
                .members
                .iter()
                .any(|m| m.name == *name && m.ty.is_constant())
        })
        .collect();
        let header_path = write::Path::Key(&root, "header");
        let mut header_values = Map::new();
        if let Some(given) = object.get("header") {
            let given = write::as_object(given, &header_path, "the header object")?;
            for (key, v) in given {
                let key_path = write::Path::Key(&header_path, key);
                if !self.header.members.iter().any(|m| &m.name == key) {
                    return Err(key_path.error(EncodeErrorKind::UnknownField));
                }
                if let Some((_, want)) = expected.iter().find(|(n, _)| n == key) {
                    let agrees = match v {
                        Value::Number(n) => n.as_i64() == Some(*want),
                        _ => false,
                    };
                    if !agrees {
                        return Err(key_path.error(EncodeErrorKind::HeaderMismatch {
                            expected: want.to_string(),
                            found: v.to_string(),
                        }));
                    }
                }
                header_values.insert(key.clone(), v.clone());
            }
        }
        for (key, want) in &expected {
            header_values.insert((*key).to_owned(), Value::from(*want));
        }
        let header_value = Value::Object(header_values);
        let start = out.len();
        out.resize(start + self.header.length, 0);
        // Header members beyond the four standard ones are written as given, else as null.
        writer.composite(
            &self.header,
            &header_value,
            true,
            &header_path,
            &mut out[start..],
        )?;

        let fields_path = write::Path::Key(&root, "fields");
        let fields = match object.get("fields") {
            Some(v) => v,
            None => return Err(fields_path.error(EncodeErrorKind::MissingField)),
        };
        writer.block(&message.body, fields, &fields_path, out)
    }
}
