//! Text columns: the growing dictionaries of enums, sets' item names, and UTF-8 strings.

use std::sync::Arc;

use arrow_array::ArrayRef;
use arrow_buffer::{Buffer, NullBuffer, OffsetBuffer, ScalarBuffer};
use sable_ir::PrimitiveType;
use sable_otf::decode::{Charset, Number};

/// A dictionary-encoded string column whose dictionary only grows (so that Arrow IPC files see
/// the same dictionary, or a delta of it, batch after batch).
#[derive(Debug)]
pub(crate) struct Dict {
    /// Known raw values and their keys, by raw value (enums).
    by_raw: Vec<(u64, i32)>,
    /// The keys of raw values below 256 (-1 for none yet), looked up first.
    dense: Vec<i32>,
    /// The dictionary's strings.
    strings: Vec<String>,
    pub(super) keys: Vec<i32>,
    /// The dictionary as last built, reused while it has not grown.
    built: Option<(usize, ArrayRef)>,
    /// The enum's raw-value mask (its primitive type's size).
    mask: u64,
    /// Whether a value was entered since [`Columns::commit`] (to be undone if the message
    /// that entered it fails).
    grew: bool,
    /// How many strings the dictionary had at the last commit.
    committed: usize,
}

impl Dict {
    pub(crate) fn new(values: &[(u64, &str)], mask: u64) -> Dict {
        let mut by_raw: Vec<(u64, i32)> = values
            .iter()
            .enumerate()
            .map(|(i, (raw, _))| (*raw & mask, i as i32))
            .collect();
        by_raw.sort_unstable();
        by_raw.dedup_by_key(|e| e.0);
        let mut dense = vec![-1; 256];
        for &(raw, key) in &by_raw {
            if let Some(d) = dense.get_mut(raw as usize) {
                *d = key;
            }
        }
        Dict {
            by_raw,
            dense,
            strings: values.iter().map(|(_, n)| (*n).to_owned()).collect(),
            keys: Vec::new(),
            built: None,
            mask,
            grew: false,
            committed: values.len(),
        }
    }

    /// The key of raw value `raw`, named `name` when it has a name; a value with no name is
    /// entered as its number.
    pub(super) fn key_of_raw(&mut self, raw: u64, name: Option<&str>, number: Number) -> i32 {
        let raw = raw & self.mask;
        match self.by_raw.binary_search_by_key(&raw, |e| e.0) {
            Ok(i) => self.by_raw[i].1,
            Err(i) => {
                let key = self.strings.len() as i32;
                self.grew = true;
                if let Some(d) = self.dense.get_mut(raw as usize) {
                    *d = key;
                }
                self.strings.push(match name {
                    Some(n) => n.to_owned(),
                    None => match number {
                        Number::Int(i) => i.to_string(),
                        Number::UInt(u) => u.to_string(),
                    },
                });
                self.by_raw.insert(i, (raw, key));
                key
            }
        }
    }

    /// The key of an enum's value as read from the wire (`raw`, of type `primitive`): the
    /// key of its name, or of its number when it has none (entered as
    /// [`Dict::key_of_raw`] enters it).
    #[inline(always)]
    pub(crate) fn key_of_wire(&mut self, raw: u64, primitive: PrimitiveType) -> i32 {
        let raw = raw & self.mask;
        if let Some(&key) = self.dense.get(raw as usize) {
            if key >= 0 {
                return key;
            }
        }
        let number = match primitive {
            PrimitiveType::Int8 => Number::Int(i64::from(raw as u8 as i8)),
            PrimitiveType::Int16 => Number::Int(i64::from(raw as u16 as i16)),
            PrimitiveType::Int32 => Number::Int(i64::from(raw as u32 as i32)),
            PrimitiveType::Int64 | PrimitiveType::Char => Number::Int(raw as i64),
            _ => Number::UInt(raw),
        };
        self.key_of_raw(raw, None, number)
    }

    /// The key of `text`, entered if new (the flows of a capture: few, looked up once per
    /// packet by the caller).
    pub(crate) fn key_of_text(&mut self, text: &str) -> i32 {
        match self.strings.iter().position(|s| s == text) {
            Some(i) => i as i32,
            None => {
                self.strings.push(text.to_owned());
                self.strings.len() as i32 - 1
            }
        }
    }

    /// Forgets the values entered since the last commit.
    /// Keeps the values entered since the last commit.
    pub(super) fn commit(&mut self) {
        if self.grew {
            self.grew = false;
            self.committed = self.strings.len();
        }
    }

    /// Forgets the values entered since the last commit.
    pub(super) fn undo(&mut self) {
        if !self.grew {
            return;
        }
        let keep = self.committed;
        self.strings.truncate(keep);
        self.by_raw.retain(|&(_, key)| (key as usize) < keep);
        for d in self.dense.iter_mut() {
            if *d >= 0 && *d as usize >= keep {
                *d = -1;
            }
        }
        self.grew = false;
    }

    pub(crate) fn push_key(&mut self, key: i32) {
        self.keys.push(key);
    }

    pub(super) fn dictionary(&mut self) -> ArrayRef {
        if let Some((n, array)) = &self.built {
            if *n == self.strings.len() {
                return array.clone();
            }
        }
        let mut offsets = Vec::with_capacity(self.strings.len() + 1);
        let mut data = Vec::new();
        offsets.push(0i32);
        for s in &self.strings {
            data.extend_from_slice(s.as_bytes());
            offsets.push(data.len() as i32);
        }
        let array = strings(offsets, data, None);
        self.built = Some((self.strings.len(), array.clone()));
        array
    }
}

/// A set's choices (each one's bit and name), and the items of the values below 256 as they
/// come (most sets are of a `uint8`, and a feed repeats few of their values): appending a
/// known value copies its items instead of testing each choice's bit.
#[derive(Debug)]
pub(crate) struct SetNames {
    choices: Vec<(u32, Box<str>)>,
    /// By value.
    memo: Vec<Option<SetItems>>,
}

/// A set value's items: their ends (from the first item's start) and their UTF-8 bytes.
#[derive(Debug)]
struct SetItems {
    ends: Box<[i32]>,
    bytes: Box<[u8]>,
}

impl SetNames {
    pub(super) fn new(choices: impl Iterator<Item = (u32, Box<str>)>) -> SetNames {
        SetNames {
            choices: choices.collect(),
            memo: Vec::new(),
        }
    }

    /// Appends the items of value `bits`.
    #[inline]
    pub(super) fn append(&mut self, bits: u64, item_offsets: &mut Vec<i32>, data: &mut Vec<u8>) {
        let Ok(small) = u8::try_from(bits) else {
            return set_items(&self.choices, bits, item_offsets, data);
        };
        if self.memo.is_empty() {
            self.memo.resize_with(256, || None);
        }
        let items = self.memo[usize::from(small)].get_or_insert_with(|| {
            let (mut ends, mut bytes) = (Vec::new(), Vec::new());
            set_items(&self.choices, bits, &mut ends, &mut bytes);
            SetItems {
                ends: ends.into(),
                bytes: bytes.into(),
            }
        });
        let start = data.len() as i32;
        data.extend_from_slice(&items.bytes);
        item_offsets.extend(items.ends.iter().map(|e| start + e));
    }
}

/// The names of the bits set in `bits` (in choice order; a bit with no choice as its number,
/// at the end) appended as a set's items.
fn set_items(
    names: &[(u32, Box<str>)],
    bits: u64,
    item_offsets: &mut Vec<i32>,
    data: &mut Vec<u8>,
) {
    let mut known = 0u64;
    for (bit, name) in names.iter() {
        if *bit < 64 {
            known |= 1 << bit;
            if bits >> bit & 1 == 1 {
                data.extend_from_slice(name.as_bytes());
                item_offsets.push(data.len() as i32);
            }
        }
    }
    let mut rest = bits & !known;
    while rest != 0 {
        let bit = rest.trailing_zeros();
        data.extend_from_slice(bit.to_string().as_bytes());
        item_offsets.push(data.len() as i32);
        rest &= rest - 1;
    }
}

/// The offsets and data so far, the builders left holding the start of the next batch.
pub(super) fn take_offsets<T>(offsets: &mut Vec<i32>, data: &mut Vec<T>) -> (Vec<i32>, Vec<T>) {
    let mut fresh = Vec::with_capacity(offsets.capacity());
    fresh.push(0);
    let o = std::mem::replace(offsets, fresh);
    let d = std::mem::replace(data, Vec::with_capacity(data.capacity()));
    (o, d)
}

/// A `Utf8` array.
pub(super) fn strings(offsets: Vec<i32>, data: Vec<u8>, nulls: Option<NullBuffer>) -> ArrayRef {
    let offsets = OffsetBuffer::new(ScalarBuffer::from(offsets));
    // The data is UTF-8 by construction (`push_text`).
    Arc::new(
        arrow_array::StringArray::try_new(offsets, Buffer::from_vec(data), nulls)
            .expect("UTF-8 text"),
    )
}

/// Appends `bytes` in `charset` as UTF-8: Latin-1 maps each byte to U+0000..U+00FF; UTF-8 that
/// is not valid has each bad sequence replaced by U+FFFD.
pub(super) fn push_text(out: &mut Vec<u8>, bytes: &[u8], charset: Charset) {
    match charset {
        Charset::Utf8 => match std::str::from_utf8(bytes) {
            Ok(s) => out.extend_from_slice(s.as_bytes()),
            Err(_) => out.extend_from_slice(String::from_utf8_lossy(bytes).as_bytes()),
        },
        Charset::Latin1 => {
            if bytes.is_ascii() {
                out.extend_from_slice(bytes);
            } else {
                for &b in bytes {
                    let mut buf = [0u8; 2];
                    out.extend_from_slice(char::from(b).encode_utf8(&mut buf).as_bytes());
                }
            }
        }
    }
}
