//! The decoder and printers on example-schema.xml's Car.

mod support;

use sable_otf::decode::Decoder;
use sable_otf::json::JsonPrinter;
use support::{car, ir, CAR_JSON};

fn json(buf: &[u8]) -> (String, Result<usize, sable_otf::decode::DecodeError>) {
    let p = JsonPrinter::new(&ir("example-schema.xml")).unwrap();
    let mut out = Vec::new();
    let r = p.print(buf, &mut out);
    (String::from_utf8(out).unwrap(), r)
}

#[test]
fn car_json() {
    let buf = car();
    let (text, r) = json(&buf);
    assert_eq!(text, CAR_JSON);
    assert_eq!(r, Ok(buf.len()));
}

#[test]
fn car_message_length() {
    let buf = car();
    let d = Decoder::new(&ir("example-schema.xml")).unwrap();
    assert_eq!(d.message_length(&buf), Ok(buf.len()));
    let mut longer = buf.clone();
    longer.extend_from_slice(&[9; 10]);
    assert_eq!(d.message_length(&longer), Ok(buf.len()));
}
