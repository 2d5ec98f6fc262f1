//! The readable text form of a message (`docs/json.md`, "Text form"): one `name: value` line
//! per field, nested members and group entries indented two spaces, group entries numbered
//! (`fuelFigures[0]:`), values written as in the canonical JSON form but for their readable
//! forms (`crate::readable`): a composite of mantissa and exponent as one decimal line
//! (`price: 129.52`), timestamps as ISO-8601 UTC, dates as `YYYY-MM-DD`.
//!
//! ```text
//! message: Car
//! header:
//!   blockLength: 49
//!   ...
//! serialNumber: 1234
//! engine:
//!   capacity: 2000
//!   ...
//! fuelFigures[0]:
//!   speed: 30
//!   usageDescription: "Urban Cycle"
//! performanceFigures: []
//! manufacturer: "Honda"
//! ```

use sable_ir::Ir;

use crate::decode::{
    DecodeError, Decoder, Error, FieldInfo, GroupHeader, Header, MessageInfo, Value, Visitor,
};
use crate::json_value::{write_readable_integer, write_value, DecimalParts};
use crate::readable::Readable;

/// Decodes messages of one schema into the text form.
#[derive(Debug)]
pub struct TextPrinter {
    decoder: Decoder,
}

impl TextPrinter {
    /// A printer for the messages of `ir`.
    pub fn new(ir: &Ir) -> Result<TextPrinter, Error> {
        Ok(TextPrinter {
            decoder: Decoder::new(ir)?,
        })
    }

    /// A printer using `decoder`.
    pub fn from_decoder(decoder: Decoder) -> TextPrinter {
        TextPrinter { decoder }
    }

    /// The decoder.
    pub fn decoder(&self) -> &Decoder {
        &self.decoder
    }

    /// Decodes the message whose header starts at `buf[0]` and appends its lines to `out`;
    /// returns the bytes the message takes. On error what was decoded is kept, and a last line
    /// `error: at byte N: message` (not indented) is added.
    pub fn print(&self, buf: &[u8], out: &mut Vec<u8>) -> Result<usize, DecodeError> {
        let mut w = TextVisitor::new(out);
        match self.decoder.decode(buf, &mut w) {
            Ok(n) => Ok(n),
            Err(e) => {
                w.out.extend_from_slice(b"error: ");
                w.out.extend_from_slice(e.to_string().as_bytes());
                w.out.push(b'\n');
                Err(e)
            }
        }
    }
}

/// The [`Visitor`] that writes the text form into a `Vec<u8>`.
#[derive(Debug)]
pub struct TextVisitor<'o> {
    out: &'o mut Vec<u8>,
    indent: usize,
    /// Whether the group just begun has had an entry yet.
    empty_group: bool,
    /// The members of the decimal composite being reported, shown as one line at its end.
    decimal: Option<DecimalParts>,
}

impl<'o> TextVisitor<'o> {
    /// A visitor appending to `out`.
    pub fn new(out: &'o mut Vec<u8>) -> TextVisitor<'o> {
        TextVisitor {
            out,
            indent: 0,
            empty_group: false,
            decimal: None,
        }
    }

    fn line_start(&mut self, name: &str) {
        for _ in 0..self.indent {
            self.out.extend_from_slice(b"  ");
        }
        self.out.extend_from_slice(name.as_bytes());
    }
}

impl Visitor for TextVisitor<'_> {
    fn begin_message(&mut self, message: &MessageInfo, _header: &Header) {
        self.indent = 0;
        self.out.extend_from_slice(b"message: ");
        self.out.extend_from_slice(message.name().as_bytes());
        self.out.extend_from_slice(b"\nheader:\n");
        self.indent = 1;
    }

    fn end_header(&mut self) {
        self.indent = 0;
    }

    fn field(&mut self, field: &FieldInfo, value: Value<'_>) {
        if let Some(d) = self.decimal.as_mut() {
            d.member(field.name(), &value);
            return;
        }
        self.line_start(field.name());
        self.out.extend_from_slice(b": ");
        if !write_readable_integer(self.out, field.readable, &value, false) {
            write_value(self.out, value, true);
        }
        self.out.push(b'\n');
    }

    fn begin_composite(&mut self, field: &FieldInfo) {
        if field.readable == Readable::Decimal {
            self.decimal = Some(DecimalParts::default());
            return;
        }
        self.line_start(field.name());
        self.out.extend_from_slice(b":\n");
        self.indent += 1;
    }

    fn end_composite(&mut self, field: &FieldInfo) {
        if let Some(d) = self.decimal.take() {
            self.line_start(field.name());
            self.out.extend_from_slice(b": ");
            d.write(self.out, false);
            self.out.push(b'\n');
            return;
        }
        self.indent = self.indent.saturating_sub(1);
    }

    fn begin_group(&mut self, _group: &FieldInfo, _header: GroupHeader) {
        self.empty_group = true;
    }

    fn begin_entry(&mut self, group: &FieldInfo, index: u64) {
        self.empty_group = false;
        self.line_start(group.name());
        self.out.push(b'[');
        self.out
            .extend_from_slice(itoa::Buffer::new().format(index).as_bytes());
        self.out.extend_from_slice(b"]:\n");
        self.indent += 1;
    }

    fn end_entry(&mut self, _group: &FieldInfo, _index: u64) {
        self.indent = self.indent.saturating_sub(1);
        self.empty_group = false;
    }

    fn end_group(&mut self, group: &FieldInfo) {
        if self.empty_group {
            self.line_start(group.name());
            self.out.extend_from_slice(b": []\n");
        }
        self.empty_group = false;
    }

    fn absent_group(&mut self, group: &FieldInfo) {
        self.line_start(group.name());
        self.out.extend_from_slice(b": null\n");
    }

    fn var_data(&mut self, data: &FieldInfo, value: Value<'_>) {
        self.line_start(data.name());
        self.out.extend_from_slice(b": ");
        write_value(self.out, value, false);
        self.out.push(b'\n');
    }
}
