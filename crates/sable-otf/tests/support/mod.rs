//! Helpers shared by the sable-otf tests: schema loading and a little byte writer.
#![allow(dead_code)]

use std::path::{Path, PathBuf};

use sable_ir::Ir;

/// The shared folder beside the repository (`../shared`).
pub fn shared() -> PathBuf {
    sable_testkit::shared_dir()
}

/// The IR of `path` (relative to the shared valid schemas, or absolute).
pub fn ir(path: &str) -> Ir {
    let p = if Path::new(path).is_absolute() {
        PathBuf::from(path)
    } else {
        shared().join("schemas/valid").join(path)
    };
    compile(&p)
}

/// The IR of the schema at `path`; panics with its diagnostics when it does not compile.
pub fn compile(path: &Path) -> Ir {
    let compiled = sable_schema::compile_file(path);
    compiled
        .ir
        .unwrap_or_else(|| panic!("{}: {:?}", path.display(), compiled.diagnostics))
}

/// Writes SBE bytes in one byte order.
#[derive(Default)]
pub struct W {
    pub buf: Vec<u8>,
    pub big: bool,
}

impl W {
    pub fn le() -> W {
        W::default()
    }
    pub fn be() -> W {
        W {
            buf: Vec::new(),
            big: true,
        }
    }
    pub fn u8(&mut self, v: u8) -> &mut W {
        self.buf.push(v);
        self
    }
    pub fn i8(&mut self, v: i8) -> &mut W {
        self.buf.push(v as u8);
        self
    }
    pub fn u16(&mut self, v: u16) -> &mut W {
        let b = if self.big {
            v.to_be_bytes()
        } else {
            v.to_le_bytes()
        };
        self.buf.extend_from_slice(&b);
        self
    }
    pub fn u32(&mut self, v: u32) -> &mut W {
        let b = if self.big {
            v.to_be_bytes()
        } else {
            v.to_le_bytes()
        };
        self.buf.extend_from_slice(&b);
        self
    }
    pub fn i32(&mut self, v: i32) -> &mut W {
        self.u32(v as u32)
    }
    pub fn u64(&mut self, v: u64) -> &mut W {
        let b = if self.big {
            v.to_be_bytes()
        } else {
            v.to_le_bytes()
        };
        self.buf.extend_from_slice(&b);
        self
    }
    pub fn i64(&mut self, v: i64) -> &mut W {
        self.u64(v as u64)
    }
    pub fn f32(&mut self, v: f32) -> &mut W {
        self.u32(v.to_bits())
    }
    pub fn f64(&mut self, v: f64) -> &mut W {
        self.u64(v.to_bits())
    }
    pub fn bytes(&mut self, v: &[u8]) -> &mut W {
        self.buf.extend_from_slice(v);
        self
    }
    /// u32 length then the bytes.
    pub fn var32(&mut self, v: &[u8]) -> &mut W {
        self.u32(v.len() as u32).bytes(v)
    }
    /// A standard 8-byte header.
    pub fn header(
        &mut self,
        block_length: u16,
        template: u16,
        schema: u16,
        version: u16,
    ) -> &mut W {
        self.u16(block_length)
            .u16(template)
            .u16(schema)
            .u16(version)
    }
}

/// A Car (example-schema.xml) as the reference's benchmark fills it, little-endian.
pub fn car() -> Vec<u8> {
    let mut w = W::le();
    w.header(49, 1, 1, 0);
    w.u64(1234).u16(2013).u8(1).u8(b'A');
    for i in 0..5 {
        w.u32(i);
    }
    w.bytes(b"abcdef").u8(0b101);
    // engine: capacity, numCylinders, manufacturerCode, efficiency, boosterEnabled, booster
    w.u16(2000)
        .u8(4)
        .bytes(b"123")
        .i8(35)
        .u8(1)
        .u8(b'N')
        .u8(200);
    w.u16(6).u16(3);
    for (speed, mpg, text) in [
        (30, 35.9f32, "Urban Cycle"),
        (55, 49.0, "Combined Cycle"),
        (75, 40.0, "Highway Cycle"),
    ] {
        w.u16(speed).f32(mpg).var32(text.as_bytes());
    }
    w.u16(1).u16(2);
    for octane in [95u8, 99] {
        w.u8(octane).u16(6).u16(3);
        for (mph, s) in [(30u16, 4.0f32), (60, 7.5), (100, 12.2)] {
            w.u16(mph).f32(s);
        }
    }
    w.var32(b"Honda").var32(b"Civic VTi").var32(b"abcdef");
    w.buf
}

/// The canonical JSON of [`car`].
pub const CAR_JSON: &str = concat!(
    r#"{"message":"Car","header":{"blockLength":49,"templateId":1,"schemaId":1,"version":0},"#,
    r#""fields":{"serialNumber":1234,"modelYear":2013,"available":"T","code":"A","#,
    r#""someNumbers":[0,1,2,3,4],"vehicleCode":"abcdef","extras":["sunRoof","cruiseControl"],"#,
    r#""discountedModel":"C","engine":{"capacity":2000,"numCylinders":4,"maxRpm":9000,"#,
    r#""manufacturerCode":"123","fuel":"Petrol","efficiency":35,"boosterEnabled":"T","#,
    r#""booster":{"BoostType":"NITROUS","horsePower":200}},"#,
    r#""fuelFigures":[{"speed":30,"mpg":35.9,"usageDescription":"Urban Cycle"},"#,
    r#"{"speed":55,"mpg":49.0,"usageDescription":"Combined Cycle"},"#,
    r#"{"speed":75,"mpg":40.0,"usageDescription":"Highway Cycle"}],"#,
    r#""performanceFigures":[{"octaneRating":95,"acceleration":[{"mph":30,"seconds":4.0},"#,
    r#"{"mph":60,"seconds":7.5},{"mph":100,"seconds":12.2}]},"#,
    r#"{"octaneRating":99,"acceleration":[{"mph":30,"seconds":4.0},"#,
    r#"{"mph":60,"seconds":7.5},{"mph":100,"seconds":12.2}]}],"#,
    r#""manufacturer":"Honda","model":"Civic VTi","activationCode":"abcdef"}}"#
);
