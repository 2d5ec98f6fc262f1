//! Round trips through the decoder's JSON printer: decode(encode(x)) == x for hand-written
//! messages of several schemas, and encode(decode(bytes)) == bytes; plus values generated from
//! each message's IR for every shared schema.

mod support;

use sable_ir::{Ir, Presence, PrimitiveType, Signal, Token};
use sable_otf::encode::Encoder;
use sable_otf::json::{Jit, JsonPrinter};
use serde_json::{json, Map, Value};
use support::{compile, shared};

/// Encodes `v`, prints it back, and checks both directions; returns the printed value.
fn round_trip(ir: &Ir, v: &Value) -> Value {
    let encoder = Encoder::new(ir).unwrap();
    let printer = JsonPrinter::with_jit(ir, Jit::Eager).unwrap();
    let mut bytes = Vec::new();
    let n = encoder
        .encode_value(v, &mut bytes)
        .unwrap_or_else(|e| panic!("{e}\n{v}"));
    let mut text = Vec::new();
    let used = printer
        .print(&bytes, &mut text)
        .unwrap_or_else(|e| panic!("{e:?}\n{v}"));
    assert_eq!(used, n, "{v}");
    let printed: Value = serde_json::from_slice(&text).unwrap();
    // And back: the printed form encodes to the same bytes.
    let mut again = Vec::new();
    encoder
        .encode_value(&printed, &mut again)
        .unwrap_or_else(|e| panic!("{e}\n{printed}"));
    assert_eq!(again, bytes, "{printed}");
    printed
}

/// Checks decode(encode(v)) == v, with `v`'s header filled in as the schema says.
fn check(ir: &Ir, v: Value) {
    let printed = round_trip(ir, &v);
    let mut expected = v;
    expected["header"] = printed["header"].clone();
    assert_eq!(printed, expected);
}

#[test]
fn car_round_trips_in_both_byte_orders() {
    let car = json!({"message":"Car","fields":{
        "serialNumber":18446744073709551614u64,"modelYear":2013,"available":"T","code":"A",
        "someNumbers":[0,1,2,3,4294967294u64],"vehicleCode":"abcdef","extras":["sunRoof","cruiseControl"],
        "discountedModel":"C","engine":{"capacity":2000,"numCylinders":4,"maxRpm":9000,
        "manufacturerCode":"123","fuel":"Petrol","efficiency":35,"boosterEnabled":"T",
        "booster":{"BoostType":"NITROUS","horsePower":200}},
        "fuelFigures":[{"speed":30,"mpg":35.9,"usageDescription":"Urban Cycle"},
                       {"speed":55,"mpg":49.0,"usageDescription":"Combined Cycle ✓"}],
        "performanceFigures":[{"octaneRating":95,"acceleration":[{"mph":30,"seconds":4.0},{"mph":60,"seconds":7.5}]},
                              {"octaneRating":99,"acceleration":[]}],
        "manufacturer":"Honda","model":"Civic VTi","activationCode":""}});
    for name in ["example-schema.xml", "example-bigendian-test-schema.xml"] {
        let ir = compile(&shared().join("schemas/valid").join(name));
        check(&ir, car.clone());
        let mut short = car.clone();
        short["fields"]["vehicleCode"] = json!("ab");
        short["fields"]["extras"] = json!([]);
        short["fields"]["fuelFigures"] = json!([]);
        short["fields"]["available"] = json!({"unknown": 7});
        check(&ir, short);
    }
}

#[test]
fn spec_examples_round_trip() {
    let ir = compile(&shared().join("spec/v1.0/Examples.xml"));
    check(
        &ir,
        json!({"message":"ExecutionReport","fields":{
        "OrderID":"O0000001","ExecID":"EXEC0000","ExecType":"Trade","OrdStatus":"PartialFilled",
        "Symbol":"GEM4","MaturityMonthYear":{"year":2014,"month":6,"day":255,"week":255},
        "Side":"Buy","LeavesQty":{"mantissa":1,"exponent":0},"CumQty":{"mantissa":6,"exponent":0},
        "TradeDate":15989,"FillsGrp":[
            {"FillPx":{"mantissa":99610,"exponent":-3},"FillQty":{"mantissa":2,"exponent":0}},
            {"FillPx":{"mantissa":null,"exponent":-3},"FillQty":{"mantissa":4,"exponent":0}}]}}),
    );
    check(
        &ir,
        json!({"message":"NewOrderSingle","fields":{
        "ClOrdId":"ORD00001","Account":"","Symbol":"GEM4","Side":"Sell",
        "TransactTime":1524861082122000000u64,"OrderQty":{"mantissa":-2147483647,"exponent":0},
        "OrdType":"StopLimit","Price":{"mantissa":9223372036854775807i64,"exponent":-3},
        "StopPx":{"mantissa":-9223372036854775807i64,"exponent":-3}}}),
    );
    check(
        &ir,
        json!({"message":"BusinessMessageReject","fields":{
        "BusinesRejectRefId":"ORD00001","BusinessRejectReason":{"unknown":200},"Text":"00ff10"}}),
    );
}

#[test]
fn spec_example_bytes_round_trip() {
    // encode(decode(bytes)) == bytes for the spec's own dumps (less the SOFH).
    let ir = compile(&shared().join("spec/v1.0/Examples.xml"));
    let encoder = Encoder::new(&ir).unwrap();
    let printer = JsonPrinter::with_jit(&ir, Jit::Eager).unwrap();
    for hex in [
        "360063005b0000004f52443030303031414343543031000047454d3400000000318016b33b1365291507000000321a850100000000000000000000000080",
        "2a0062005b0000004f303030303030314558454330303030463147454d3400000000de0706ffff310100000006000000753e0c0002001a8501000000000002000000248501000000000004000000",
        "090061005b0000004f524430303030310627004e6f7420617574686f72697a656420746f207472616465207468617420696e737472756d656e74",
    ] {
        let bytes: Vec<u8> = (0..hex.len())
            .step_by(2)
            .map(|i| u8::from_str_radix(&hex[i..i + 2], 16).unwrap())
            .collect();
        let mut text = Vec::new();
        printer.print(&bytes, &mut text).unwrap();
        let mut again = Vec::new();
        encoder
            .encode_json(std::str::from_utf8(&text).unwrap(), &mut again)
            .unwrap();
        assert_eq!(again, bytes);
    }
}

/// A deterministic pseudo-random source.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: u64) -> u64 {
        if n == 0 {
            0
        } else {
            self.next() % n
        }
    }
}

/// Generates a JSON value for the element starting at `tokens[i]`, walking the IR directly.
struct Gen<'a> {
    tokens: &'a [Token],
    rng: Rng,
}

impl Gen<'_> {
    fn end(&self, i: usize) -> usize {
        i + self.tokens[i].component_token_count as usize
    }

    /// A value for a primitive within [min, max] of the token.
    fn scalar(&mut self, t: &Token) -> Value {
        let p = t.encoding.primitive_type.unwrap();
        match p {
            PrimitiveType::Char => {
                let c = (b'a' + self.rng.below(26) as u8) as char;
                json!(c.to_string())
            }
            PrimitiveType::Float => json!(f64::from((self.rng.below(1 << 20) as f32) / 8.0)),
            PrimitiveType::Double => json!((self.rng.below(1 << 40) as f64) / 1024.0 - 5e8),
            _ => {
                let min = t
                    .encoding
                    .applicable_min_value()
                    .map(|v| v.to_string().parse::<i128>().unwrap())
                    .unwrap();
                let max = t
                    .encoding
                    .applicable_max_value()
                    .map(|v| v.to_string().parse::<i128>().unwrap())
                    .unwrap();
                let pick = match self.rng.below(4) {
                    0 => min,
                    1 => max,
                    _ => min + (self.rng.next() as i128).rem_euclid(max - min + 1),
                };
                if pick >= 0 {
                    json!(pick as u64)
                } else {
                    json!(pick as i64)
                }
            }
        }
    }

    fn ty(&mut self, i: usize, optional: bool) -> Value {
        let t = &self.tokens[i];
        if optional && self.rng.below(4) == 0 {
            return Value::Null;
        }
        match t.signal {
            Signal::Encoding => {
                if t.encoding.presence == Presence::Constant {
                    return Value::Null; // omitted
                }
                let p = t.encoding.primitive_type.unwrap();
                let len = t.array_length() as usize;
                if t.encoded_length > 1 && p == PrimitiveType::Char {
                    let n = self.rng.below(len as u64 + 1) as usize;
                    json!((0..n)
                        .map(|_| (b'A' + self.rng.below(26) as u8) as char)
                        .collect::<String>())
                } else if t.encoded_length > 1
                    && matches!(p, PrimitiveType::UInt8 | PrimitiveType::Int8)
                {
                    json!((0..len)
                        .map(|_| format!("{:02x}", self.rng.below(256)))
                        .collect::<String>())
                } else if len > 1 {
                    Value::Array((0..len).map(|_| self.scalar(t)).collect())
                } else {
                    self.scalar(t)
                }
            }
            Signal::BeginEnum => {
                let names: Vec<&str> = self.tokens[i + 1..self.end(i) - 1]
                    .iter()
                    .map(|v| v.name.as_str())
                    .collect();
                json!(names[self.rng.below(names.len() as u64) as usize])
            }
            Signal::BeginSet => {
                let names: Vec<&str> = self.tokens[i + 1..self.end(i) - 1]
                    .iter()
                    .filter(|_| self.rng.below(2) == 0)
                    .map(|v| v.name.as_str())
                    .collect();
                json!(names)
            }
            Signal::BeginComposite => {
                let mut m = Map::new();
                let mut k = i + 1;
                while k < self.end(i) - 1 {
                    let member = &self.tokens[k];
                    let v = self.ty(k, member.encoding.presence == Presence::Optional);
                    if !(v.is_null() && member.encoding.presence == Presence::Constant) {
                        m.insert(member.name.clone(), v);
                    }
                    k = self.end(k);
                }
                Value::Object(m)
            }
            other => panic!("{other}"),
        }
    }

    /// The fields object of the block whose elements are `tokens[start..end]`.
    fn block(&mut self, start: usize, end: usize, depth: usize) -> Value {
        let mut m = Map::new();
        let mut i = start;
        while i < end {
            let t = &self.tokens[i];
            match t.signal {
                Signal::BeginField if t.encoding.presence != Presence::Constant => {
                    let v = self.ty(i + 1, t.encoding.presence == Presence::Optional);
                    m.insert(t.name.clone(), v);
                }
                Signal::BeginGroup => {
                    let body = self.end(i + 1);
                    let n = if depth > 2 { 0 } else { self.rng.below(3) };
                    let entries = (0..n)
                        .map(|_| self.block(body, self.end(i) - 1, depth + 1))
                        .collect();
                    m.insert(t.name.clone(), Value::Array(entries));
                }
                Signal::BeginVarData => {
                    let text = self.tokens[i + 1..self.end(i)]
                        .iter()
                        .find(|d| d.name == "varData")
                        .and_then(|d| d.encoding.character_encoding.clone())
                        .is_some();
                    let n = self.rng.below(12) as usize;
                    let v = if text {
                        (0..n)
                            .map(|_| (b'a' + self.rng.below(26) as u8) as char)
                            .collect::<String>()
                    } else {
                        (0..n)
                            .map(|_| format!("{:02x}", self.rng.below(256)))
                            .collect::<String>()
                    };
                    m.insert(t.name.clone(), json!(v));
                }
                _ => {}
            }
            i = self.end(i);
        }
        Value::Object(m)
    }
}

#[test]
fn generated_messages_of_every_shared_schema_round_trip() {
    let paths = sable_testkit::valid_schemas();
    let mut messages = 0;
    for path in paths {
        let ir = compile(&path);
        let encoder = Encoder::new(&ir).unwrap();
        let printer = JsonPrinter::with_jit(&ir, Jit::Eager).unwrap();
        for tokens in &ir.messages {
            let mut gen = Gen {
                tokens,
                rng: Rng(0x2545_f491_4f6c_dd1d ^ tokens.len() as u64),
            };
            for _ in 0..8 {
                let fields = gen.block(1, tokens.len() - 1, 0);
                let v = json!({"message": tokens[0].name, "fields": fields});
                let mut bytes = Vec::new();
                encoder
                    .encode_value(&v, &mut bytes)
                    .unwrap_or_else(|e| panic!("{}: {e}\n{v}", path.display()));
                let mut text = Vec::new();
                printer
                    .print(&bytes, &mut text)
                    .unwrap_or_else(|e| panic!("{}: {e:?}\n{v}", path.display()));
                let printed: Value = serde_json::from_slice(&text).unwrap();
                let mut again = Vec::new();
                encoder
                    .encode_value(&printed, &mut again)
                    .unwrap_or_else(|e| panic!("{}: {e}\n{printed}", path.display()));
                assert_eq!(again, bytes, "{}: {v}\n{printed}", path.display());
                messages += 1;
            }
        }
    }
    assert!(messages > 100, "{messages}");
}
