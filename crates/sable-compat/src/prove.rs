//! Proof by decoding: random messages of each template both schemas have, encoded with one
//! schema's layout and decoded with the other's through the on-the-fly codecs (sable-otf), with
//! every field both have compared. A message whose common fields read back differently (or that
//! does not decode) is evidence that the direction breaks.

use sable_ir::Ir;
use sable_otf::encode::Encoder;
use sable_otf::json::JsonPrinter;
use serde_json::Value;

use crate::finding::Sense;
use crate::model::{Message, Schema};
use crate::sample::{self, Random};

/// What encoding one template's messages in one direction showed.
#[derive(Debug, Clone)]
pub struct Proof {
    /// Backward: written with OLD, read with NEW; forward: the reverse.
    pub sense: Sense,
    pub template: i32,
    /// The message's name in the writer's schema.
    pub message: String,
    /// Messages encoded and decoded.
    pub tried: usize,
    pub evidence: Option<Evidence>,
}

/// A message that decodes wrongly.
#[derive(Debug, Clone)]
pub struct Evidence {
    /// Where the two readings first differ (`fields.qty`, `fields.fills[0].fillQty`).
    pub path: String,
    /// The message as its writer's schema reads it (canonical JSON).
    pub written: String,
    /// As the other schema reads it, or the decoding error.
    pub read: String,
    /// The encoded bytes, in hex.
    pub bytes: String,
}

/// Proves each template both schemas have, both ways, with `count` messages each from `seed`.
/// An error when a schema's IR is one the codecs cannot work from.
pub fn prove(old: &Ir, new: &Ir, count: usize, seed: u64) -> Result<Vec<Proof>, String> {
    let sides = [Side::new(old)?, Side::new(new)?];
    let mut proofs = Vec::new();
    for (sense, w, r) in [(Sense::Backward, 0, 1), (Sense::Forward, 1, 0)] {
        let (writer, reader) = (&sides[w], &sides[r]);
        for m in &writer.model.messages {
            if !reader.model.messages.iter().any(|x| x.id == m.id) {
                continue;
            }
            let mut random = Random::new(seed ^ (m.id as u64) << 8 ^ w as u64);
            proofs.push(one(sense, m, writer, reader, count, &mut random));
        }
    }
    Ok(proofs)
}

struct Side {
    model: Schema,
    encoder: Encoder,
    printer: JsonPrinter,
}

impl Side {
    fn new(ir: &Ir) -> Result<Side, String> {
        Ok(Side {
            model: Schema::of(ir),
            encoder: Encoder::new(ir)
                .map_err(|e| e.to_string())?
                .with_range_checks(false),
            printer: JsonPrinter::with_jit(ir, sable_otf::json::Jit::Never)
                .map_err(|e| e.to_string())?,
        })
    }
}

fn one(
    sense: Sense,
    m: &Message,
    writer: &Side,
    reader: &Side,
    count: usize,
    random: &mut Random,
) -> Proof {
    let mut proof = Proof {
        sense,
        template: m.id,
        message: m.name.clone(),
        tried: 0,
        evidence: None,
    };
    for _ in 0..count {
        let json = sample::message(m, random);
        let mut bytes = Vec::new();
        if writer.encoder.encode_value(&json, &mut bytes).is_err() {
            // A value the sampler chose that the writer refuses proves nothing either way.
            continue;
        }
        proof.tried += 1;
        let written = decode(&writer.printer, &bytes);
        let read = decode(&reader.printer, &bytes);
        let differs = match (&written, &read) {
            (Ok(w), Ok(r)) => {
                let w = sample::numbered(&m.body, &w["fields"]);
                let r = match reader.model.messages.iter().find(|x| x.id == m.id) {
                    Some(rm) => sample::numbered(&rm.body, &r["fields"]),
                    None => r["fields"].clone(),
                };
                first_difference(&w, &r, "fields")
            }
            (Ok(_), Err(_)) => Some("the whole message".to_owned()),
            // The writer's own reading failed: nothing to compare with.
            (Err(_), _) => None,
        };
        if let Some(path) = differs {
            let text = |v: &Result<Value, String>| match v {
                Ok(v) => v.to_string(),
                Err(e) => e.clone(),
            };
            proof.evidence = Some(Evidence {
                path,
                written: text(&written),
                read: text(&read),
                bytes: bytes.iter().map(|b| format!("{b:02x}")).collect(),
            });
            break;
        }
    }
    proof
}

fn decode(printer: &JsonPrinter, bytes: &[u8]) -> Result<Value, String> {
    let mut out = Vec::new();
    match printer.print(bytes, &mut out) {
        Ok(_) => serde_json::from_slice(&out).map_err(|e| e.to_string()),
        Err(e) => Err(format!("decoding error: {e}")),
    }
}

/// The first place where two readings of the same bytes disagree, over the keys both have
/// (entries of a group compared one by one).
fn first_difference(written: &Value, read: &Value, at: &str) -> Option<String> {
    match (written, read) {
        (Value::Object(w), Value::Object(r)) => w.iter().find_map(|(k, wv)| {
            r.get(k)
                .and_then(|rv| first_difference(wv, rv, &format!("{at}.{k}")))
        }),
        (Value::Array(w), Value::Array(r))
            if w.iter().chain(r).all(Value::is_object) && !(w.is_empty() && r.is_empty()) =>
        {
            if w.len() != r.len() {
                return Some(format!("{at} (entries)"));
            }
            w.iter()
                .zip(r)
                .enumerate()
                .find_map(|(i, (wv, rv))| first_difference(wv, rv, &format!("{at}[{i}]")))
        }
        _ if written != read => Some(at.to_owned()),
        _ => None,
    }
}
