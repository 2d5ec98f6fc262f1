//! Numbers of one Arrow type, and decimal composites read as Arrow decimals.

use arrow_buffer::Buffer;
use arrow_schema::DataType;

/// The largest decimal precision of Arrow's `Decimal128`.
pub(super) const MAX_PRECISION: u8 = 38;
/// The scale of decimals whose exponent varies from message to message.
pub(crate) const VARIABLE_SCALE: i8 = 18;

/// Numbers of one Arrow primitive type.
#[derive(Debug)]
pub(crate) enum Values {
    I8(Vec<i8>),
    I16(Vec<i16>),
    I32(Vec<i32>),
    I64(Vec<i64>),
    U8(Vec<u8>),
    U16(Vec<u16>),
    U32(Vec<u32>),
    U64(Vec<u64>),
    F32(Vec<f32>),
    F64(Vec<f64>),
    I128(Vec<i128>),
}

impl Values {
    pub(super) fn of(data_type: &DataType) -> Values {
        match data_type {
            DataType::Int8 => Values::I8(Vec::new()),
            DataType::Int16 => Values::I16(Vec::new()),
            DataType::Int32 | DataType::Date32 => Values::I32(Vec::new()),
            DataType::UInt8 => Values::U8(Vec::new()),
            DataType::UInt16 => Values::U16(Vec::new()),
            DataType::UInt32 => Values::U32(Vec::new()),
            DataType::UInt64 => Values::U64(Vec::new()),
            DataType::Float32 => Values::F32(Vec::new()),
            DataType::Float64 => Values::F64(Vec::new()),
            DataType::Decimal128(..) => Values::I128(Vec::new()),
            _ => Values::I64(Vec::new()),
        }
    }

    pub(super) fn buffer(&mut self) -> Buffer {
        fn take<T: arrow_buffer::ArrowNativeType>(v: &mut Vec<T>) -> Buffer {
            let cap = v.capacity();
            Buffer::from_vec(std::mem::replace(v, Vec::with_capacity(cap)))
        }
        match self {
            Values::I8(v) => take(v),
            Values::I16(v) => take(v),
            Values::I32(v) => take(v),
            Values::I64(v) => take(v),
            Values::U8(v) => take(v),
            Values::U16(v) => take(v),
            Values::U32(v) => take(v),
            Values::U64(v) => take(v),
            Values::F32(v) => take(v),
            Values::F64(v) => take(v),
            Values::I128(v) => take(v),
        }
    }

    /// Keeps the first `len` numbers.
    pub(super) fn truncate(&mut self, len: usize) {
        match self {
            Values::I8(v) => v.truncate(len),
            Values::I16(v) => v.truncate(len),
            Values::I32(v) => v.truncate(len),
            Values::I64(v) => v.truncate(len),
            Values::U8(v) => v.truncate(len),
            Values::U16(v) => v.truncate(len),
            Values::U32(v) => v.truncate(len),
            Values::U64(v) => v.truncate(len),
            Values::F32(v) => v.truncate(len),
            Values::F64(v) => v.truncate(len),
            Values::I128(v) => v.truncate(len),
        }
    }

    /// Appends a zero (under a null).
    pub(super) fn push_zero(&mut self) {
        match self {
            Values::I8(v) => v.push(0),
            Values::I16(v) => v.push(0),
            Values::I32(v) => v.push(0),
            Values::I64(v) => v.push(0),
            Values::U8(v) => v.push(0),
            Values::U16(v) => v.push(0),
            Values::U32(v) => v.push(0),
            Values::U64(v) => v.push(0),
            Values::F32(v) => v.push(0.0),
            Values::F64(v) => v.push(0.0),
            Values::I128(v) => v.push(0),
        }
    }

    /// Appends an integer exactly; `false` (nothing appended) when it does not fit.
    pub(crate) fn push_int(&mut self, n: i128) -> bool {
        macro_rules! fit {
            ($v:expr) => {
                match n.try_into() {
                    Ok(x) => {
                        $v.push(x);
                        true
                    }
                    Err(_) => false,
                }
            };
        }
        match self {
            Values::I8(v) => fit!(v),
            Values::I16(v) => fit!(v),
            Values::I32(v) => fit!(v),
            Values::I64(v) => fit!(v),
            Values::U8(v) => fit!(v),
            Values::U16(v) => fit!(v),
            Values::U32(v) => fit!(v),
            Values::U64(v) => fit!(v),
            Values::I128(v) => {
                v.push(n);
                true
            }
            Values::F32(v) => {
                v.push(n as f32);
                true
            }
            Values::F64(v) => {
                v.push(n as f64);
                true
            }
        }
    }
}

/// How a number reported by the decoder becomes the column's value.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Convert {
    /// As it is.
    Exact,
    /// A timestamp: plus the epoch's offset in the column's unit.
    Shift(i128),
}

/// A decimal composite's column: `mantissa × 10^exponent` at a fixed scale.
#[derive(Debug)]
pub(crate) struct Decimal {
    pub(crate) scale: i8,
    pub(crate) precision: u8,
    /// Whether every mantissa has a value at this scale and precision (else the column is
    /// nullable: a value that has none is null).
    pub(super) all: bool,
    /// The mantissa and exponent of the composite being read.
    pub(super) mantissa: Option<i128>,
    pub(super) exponent: Option<i64>,
    /// Whether a member was null or absent.
    pub(super) null: bool,
}

/// `mantissa × 10^exponent` as an integer at `scale`, when exact and within `precision` digits.
pub(crate) fn rescale(mantissa: i128, exponent: i64, scale: i8, precision: u8) -> Option<i128> {
    let shift = exponent.checked_add(i64::from(scale))?;
    let value = if shift >= 0 {
        let factor = 10i128.checked_pow(u32::try_from(shift).ok()?)?;
        mantissa.checked_mul(factor)?
    } else {
        let factor = 10i128.checked_pow(u32::try_from(-shift).ok()?)?;
        if mantissa % factor != 0 {
            return None;
        }
        mantissa / factor
    };
    let limit = 10i128.pow(u32::from(precision));
    (value.abs() < limit).then_some(value)
}
