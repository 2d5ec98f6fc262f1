//! The token structure every consumer of an [`Ir`] relies on, checked in one pass.
//!
//! The decoder and the code generators walk token lists by `componentTokenCount`, look up the
//! message header's and each group's dimension fields by name, and size buffers and arrays from
//! lengths and offsets. [`validate`] checks all of that once, so that IR that passes it can be
//! walked without bounds checks and generated from without surprises. [`sbeir::read`] runs it
//! on every file; IR compiled from a schema always passes it.
//!
//! The grammar, with `type = ENCODING | composite | enum | set`:
//!
//! ```text
//! header    = composite   (with blockLength, templateId, schemaId, version members)
//! message   = BEGIN_MESSAGE field* group* data* END_MESSAGE
//! field     = BEGIN_FIELD type END_FIELD
//! group     = BEGIN_GROUP composite field* group* data* END_GROUP   (blockLength, numInGroup)
//! data      = BEGIN_VAR_DATA composite END_VAR_DATA                 (length, varData)
//! composite = BEGIN_COMPOSITE type* END_COMPOSITE
//! enum      = BEGIN_ENUM VALID_VALUE* END_ENUM
//! set       = BEGIN_SET CHOICE* END_SET
//! ```
//!
//! [`sbeir::read`]: crate::sbeir::read

use std::fmt;

use crate::{Ir, PrimitiveType, PrimitiveValue, Signal, Token};

/// How deeply composites and groups may nest (a message's field at depth 1). Consumers walk the
/// IR recursively; this keeps their stacks small whatever the input.
pub const MAX_NESTING_DEPTH: usize = 128;

/// Why an IR is not well-formed: the token (counting from the message header's first, then
/// through each message in order, as a `.sbeir` file lists them) and what is wrong.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Invalid {
    index: usize,
    message: String,
}

impl Invalid {
    /// The offending token's position in the header-then-messages order.
    pub fn index(&self) -> usize {
        self.index
    }

    pub fn message(&self) -> &str {
        &self.message
    }
}

impl fmt::Display for Invalid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "token {}: {}", self.index, self.message)
    }
}

impl std::error::Error for Invalid {}

/// Checks the whole IR: the header, every message, and what ties them (unique template ids
/// that fit the header's `templateId`, block lengths that fit its `blockLength`).
pub fn validate(ir: &Ir) -> Result<(), Invalid> {
    let header = Tokens::new(&ir.header_tokens, 0);
    let (header_end, caps) = header.header()?;
    header.ends_at(header_end)?;
    let mut base = ir.header_tokens.len();
    let mut seen: Vec<(i32, usize)> = Vec::new();
    for message in &ir.messages {
        let list = Tokens::new(message, base);
        let end = list.message(0)?;
        list.ends_at(end)?;
        let begin = &message[0];
        if let Some((_, first)) = seen.iter().find(|(id, _)| *id == begin.id) {
            return Err(list.error(
                0,
                format!(
                    "message '{}' has template id {}, as does the message at token {first}",
                    begin.name, begin.id
                ),
            ));
        }
        seen.push((begin.id, base));
        if !fits(i64::from(begin.id), caps.template_id) {
            return Err(list.error(
                0,
                format!(
                    "template id {} of message '{}' does not fit the header's templateId ({})",
                    begin.id, begin.name, caps.template_id
                ),
            ));
        }
        if !fits(i64::from(begin.encoded_length), caps.block_length) {
            return Err(list.error(
                0,
                format!(
                    "block length {} of message '{}' does not fit the header's blockLength ({})",
                    begin.encoded_length, begin.name, caps.block_length
                ),
            ));
        }
        base += message.len();
    }
    Ok(())
}

/// Splits a flat token stream (as a `.sbeir` file holds it) into the header's tokens and each
/// message's: the exclusive end of each, checking each list's structure on the way.
pub(crate) fn split(tokens: &[Token]) -> Result<(usize, Vec<usize>), Invalid> {
    let all = Tokens::new(tokens, 0);
    let (header_end, _) = all.header()?;
    let mut ends = Vec::new();
    let mut i = header_end;
    while i < tokens.len() {
        i = all.message(i)?;
        ends.push(i);
    }
    Ok((header_end, ends))
}

fn fits(value: i64, t: PrimitiveType) -> bool {
    let (min, max) = match (t.is_unsigned(), t.size()) {
        (true, size) if size < 8 => (0, (1i128 << (8 * size)) - 1),
        (true, _) => (0, i128::from(u64::MAX)),
        (false, size) => (-(1i128 << (8 * size - 1)), (1i128 << (8 * size - 1)) - 1),
    };
    (min..=max).contains(&i128::from(value))
}

/// The header fields' types that bound the messages.
struct Caps {
    template_id: PrimitiveType,
    block_length: PrimitiveType,
}

/// Where a nested type sits, for what its length and offset must satisfy.
#[derive(Clone, Copy)]
enum Place {
    /// The type of a field: its offset is the field's business.
    Field,
    /// A member of a composite of this many bytes (-1: variable, a var-data composite).
    Member { composite_length: i32 },
}

/// One token list (the header, a message, or a whole file's stream) and the index of its first
/// token in the header-then-messages order.
struct Tokens<'a> {
    tokens: &'a [Token],
    base: usize,
}

type Result<T, E = Invalid> = std::result::Result<T, E>;

impl<'a> Tokens<'a> {
    fn new(tokens: &'a [Token], base: usize) -> Tokens<'a> {
        Tokens { tokens, base }
    }

    fn error(&self, i: usize, message: impl Into<String>) -> Invalid {
        Invalid {
            index: self.base + i,
            message: message.into(),
        }
    }

    /// The token at `i`; an error naming what was expected when the list ends first.
    fn at(&self, i: usize, expected: &str) -> Result<&'a Token> {
        self.tokens.get(i).ok_or_else(|| {
            self.error(
                i.min(self.tokens.len().saturating_sub(1)),
                format!("the tokens end where {expected} was expected"),
            )
        })
    }

    fn describe(t: &Token) -> String {
        format!("{} '{}'", t.signal, t.name)
    }

    fn ends_at(&self, end: usize) -> Result<()> {
        match self.tokens.get(end) {
            Some(t) => Err(self.error(
                end,
                format!("{} after the end of the list", Self::describe(t)),
            )),
            None => Ok(()),
        }
    }

    /// A token that is neither `BEGIN_x` nor `END_x` spans itself only.
    fn single(&self, i: usize) -> Result<&'a Token> {
        let t = &self.tokens[i];
        if t.component_token_count != 1 {
            return Err(self.error(
                i,
                format!(
                    "componentTokenCount of {} is {}, but a token that begins or ends nothing \
                     counts 1",
                    Self::describe(t),
                    t.component_token_count
                ),
            ));
        }
        self.version(i)?;
        Ok(t)
    }

    fn version(&self, i: usize) -> Result<()> {
        let t = &self.tokens[i];
        if t.version < 0 || t.deprecated < 0 {
            return Err(self.error(
                i,
                format!(
                    "{} has version {} and deprecated {}; neither may be negative",
                    Self::describe(t),
                    t.version,
                    t.deprecated
                ),
            ));
        }
        Ok(())
    }

    /// Checks that the token at `end` closes the `BEGIN_x` at `begin` (signal and name) and that
    /// both count the pair's span; returns the index after it.
    fn close(&self, begin: usize, end: usize) -> Result<usize> {
        let b = &self.tokens[begin];
        let expected = b.signal.end().expect("a BEGIN signal");
        let Some(e) = self.tokens.get(end) else {
            return Err(self.error(
                begin,
                format!(
                    "{} is never closed: the tokens end first",
                    Self::describe(b)
                ),
            ));
        };
        if e.signal != expected || e.name != b.name {
            return Err(self.error(
                end,
                format!(
                    "{} where {expected} '{}' (closing token {}) was expected",
                    Self::describe(e),
                    b.name,
                    self.base + begin
                ),
            ));
        }
        let span = end - begin + 1;
        for (i, t) in [(begin, b), (end, e)] {
            if usize::try_from(t.component_token_count) != Ok(span) {
                return Err(self.error(
                    i,
                    format!(
                        "componentTokenCount of {} is {}, but the pair spans {span} tokens \
                         (tokens {} to {})",
                        Self::describe(t),
                        t.component_token_count,
                        self.base + begin,
                        self.base + end
                    ),
                ));
            }
        }
        self.version(begin)?;
        Ok(end + 1)
    }

    fn expect(&self, i: usize, signal: Signal, what: &str) -> Result<&'a Token> {
        let t = self.at(i, &format!("{signal} ({what})"))?;
        if t.signal != signal {
            return Err(self.error(
                i,
                format!("{} where {signal} ({what}) was expected", Self::describe(t)),
            ));
        }
        Ok(t)
    }

    fn depth(&self, i: usize, depth: usize) -> Result<()> {
        if depth > MAX_NESTING_DEPTH {
            return Err(self.error(
                i,
                format!(
                    "{} nests deeper than {MAX_NESTING_DEPTH} levels",
                    Self::describe(&self.tokens[i])
                ),
            ));
        }
        Ok(())
    }

    /// The message header composite from token 0; returns the index after it and the types
    /// of the header fields that bound messages.
    fn header(&self) -> Result<(usize, Caps)> {
        let t = self.expect(0, Signal::BeginComposite, "the message header composite")?;
        if t.encoded_length < 0 {
            return Err(self.error(0, "the message header composite has no fixed length"));
        }
        let end = self.composite(0, 0)?;
        Ok((end, self.caps()?))
    }

    /// The header's `blockLength`, `templateId`, `schemaId` and `version` members; the last two
    /// may be constants.
    fn caps(&self) -> Result<Caps> {
        let owner = "the message header";
        self.scalar_member(0, "schemaId", owner, true)?;
        self.scalar_member(0, "version", owner, true)?;
        Ok(Caps {
            block_length: self.scalar_member(0, "blockLength", owner, false)?,
            template_id: self.scalar_member(0, "templateId", owner, false)?,
        })
    }

    /// The integer type of member `name` of the composite at `begin`, which must be a direct
    /// `ENCODING` member of one element (or a constant, where `constant` allows).
    fn scalar_member(
        &self,
        begin: usize,
        name: &str,
        owner: &str,
        constant: bool,
    ) -> Result<PrimitiveType> {
        let composite = &self.tokens[begin];
        let end = begin + composite.component_token_count as usize - 1;
        let mut i = begin + 1;
        while i < end {
            let m = &self.tokens[i];
            if m.name == name && m.signal == Signal::Encoding {
                let integer = |t: &PrimitiveType| !t.is_float() && *t != PrimitiveType::Char;
                let Some(t) = m.encoding.primitive_type.filter(integer) else {
                    return Err(self.error(i, format!("{owner}'s '{name}' is not an integer")));
                };
                let on_wire = !m.is_constant() && m.encoded_length == t.size() as i32;
                if !(on_wire || (constant && m.is_constant())) {
                    return Err(self.error(
                        i,
                        format!("{owner}'s '{name}' is not a single {t} on the wire"),
                    ));
                }
                return Ok(t);
            }
            i += m.component_token_count as usize;
        }
        Err(self.error(begin, format!("{owner} has no '{name}' member")))
    }

    /// A type (`ENCODING`, composite, enum or set) at `i`; returns the index after it and its
    /// size in bytes (-1: variable).
    fn type_at(&self, i: usize, place: Place, depth: usize) -> Result<(usize, i32)> {
        let t = self.at(i, "a type")?;
        let size = match t.signal {
            Signal::Encoding => {
                self.single(i)?;
                let Some(ty) = t.encoding.primitive_type else {
                    return Err(
                        self.error(i, format!("{} has no primitive type", Self::describe(t)))
                    );
                };
                let variable = t.encoded_length == -1
                    && t.name == "varData"
                    && matches!(
                        place,
                        Place::Member {
                            composite_length: -1
                        }
                    );
                if !variable && (t.encoded_length < 0 || t.encoded_length % ty.size() as i32 != 0) {
                    return Err(self.error(
                        i,
                        format!(
                            "{} is {} bytes long, not a whole number of {ty}s",
                            Self::describe(t),
                            t.encoded_length
                        ),
                    ));
                }
                return Ok((i + 1, t.encoded_length));
            }
            Signal::BeginComposite => {
                self.depth(i, depth)?;
                // Only a var data's composite is of variable length.
                if t.encoded_length < 0 {
                    return Err(self.error(
                        i,
                        format!("{} is {} bytes long", Self::describe(t), t.encoded_length),
                    ));
                }
                return Ok((self.composite(i, depth)?, t.encoded_length));
            }
            Signal::BeginEnum => self.choices(i, Signal::ValidValue)?,
            Signal::BeginSet => self.choices(i, Signal::Choice)?,
            _ => {
                return Err(self.error(
                    i,
                    format!("{} where a type was expected", Self::describe(t)),
                ))
            }
        };
        Ok(size)
    }

    /// An enum's valid values or a set's choices; returns the index after the span and its
    /// size.
    fn choices(&self, begin: usize, item: Signal) -> Result<(usize, i32)> {
        let t = &self.tokens[begin];
        let ty = match (item, t.encoding.primitive_type) {
            (Signal::ValidValue, Some(ty)) if !ty.is_float() => ty,
            (Signal::Choice, Some(ty)) if ty.is_unsigned() => ty,
            _ => {
                let kind = if item == Signal::Choice {
                    "an unsigned integer"
                } else {
                    "char or an integer"
                };
                return Err(self.error(
                    begin,
                    format!("{} must be encoded as {kind}", Self::describe(t)),
                ));
            }
        };
        if t.encoded_length != ty.size() as i32 {
            return Err(self.error(
                begin,
                format!(
                    "{} is {} bytes long, but a {ty} is {}",
                    Self::describe(t),
                    t.encoded_length,
                    ty.size()
                ),
            ));
        }
        let mut i = begin + 1;
        while self.tokens.get(i).is_some_and(|v| v.signal == item) {
            let v = self.single(i)?;
            let value = v.encoding.const_value.as_ref();
            let ok = match item {
                Signal::Choice => value
                    .and_then(PrimitiveValue::as_i128)
                    .is_some_and(|bit| (0..8 * ty.size() as i128).contains(&bit)),
                _ => value.is_some(),
            };
            if !ok {
                let why = if item == Signal::Choice {
                    format!("a bit number below {}", 8 * ty.size())
                } else {
                    "a value".to_owned()
                };
                return Err(self.error(i, format!("{} must have {why}", Self::describe(v))));
            }
            i += 1;
        }
        Ok((self.close(begin, i)?, t.encoded_length))
    }

    /// A composite from `begin`; returns the index after it.
    fn composite(&self, begin: usize, depth: usize) -> Result<usize> {
        let length = self.tokens[begin].encoded_length;
        let mut i = begin + 1;
        while let Some(m) = self.tokens.get(i) {
            if m.signal.is_end() {
                break;
            }
            let place = Place::Member {
                composite_length: length,
            };
            let (next, size) = self.type_at(i, place, depth + 1)?;
            if !m.is_constant() && size >= 0 {
                let end = i64::from(m.offset) + i64::from(size);
                if m.offset < 0 || (length >= 0 && end > i64::from(length)) {
                    return Err(self.error(
                        i,
                        format!(
                            "{} at offset {} ({size} bytes) lies outside its composite of {length} \
                             bytes",
                            Self::describe(m),
                            m.offset
                        ),
                    ));
                }
            }
            i = next;
        }
        self.close(begin, i)
    }

    /// A message from `begin`; returns the index after it.
    fn message(&self, begin: usize) -> Result<usize> {
        let t = self.expect(begin, Signal::BeginMessage, "a message")?;
        if t.id < 0 {
            return Err(self.error(
                begin,
                format!("message '{}' has template id {}", t.name, t.id),
            ));
        }
        let end = self.body(begin + 1, t, 1)?;
        self.close(begin, end)
    }

    /// The fields, then groups, then var data of a message or group (`owner`) from `i`; returns
    /// the index of the token that ends them.
    fn body(&self, mut i: usize, owner: &Token, depth: usize) -> Result<usize> {
        if owner.encoded_length < 0 {
            return Err(self.error(
                i - 1,
                format!(
                    "{} has block length {}",
                    Self::describe(owner),
                    owner.encoded_length
                ),
            ));
        }
        // Fields, groups and var data, in that order.
        let mut stage = 0;
        while let Some(t) = self.tokens.get(i) {
            let (rank, next) = match t.signal {
                Signal::BeginField => (0, self.field(i, owner.encoded_length, depth)?),
                Signal::BeginGroup => (1, self.group(i, depth)?),
                Signal::BeginVarData => (2, self.var_data(i, depth)?),
                _ if t.signal.is_end() => return Ok(i),
                _ => {
                    return Err(self.error(
                        i,
                        format!(
                            "{} cannot appear in {}",
                            Self::describe(t),
                            Self::describe(owner)
                        ),
                    ))
                }
            };
            if rank < stage {
                let after = ["fields", "groups", "var data"][stage];
                return Err(self.error(
                    i,
                    format!(
                        "{} comes after {after} in {}",
                        Self::describe(t),
                        Self::describe(owner)
                    ),
                ));
            }
            stage = rank;
            i = next;
        }
        Ok(i)
    }

    fn field(&self, begin: usize, block_length: i32, depth: usize) -> Result<usize> {
        let f = &self.tokens[begin];
        self.depth(begin, depth)?;
        let (end, size) = self.type_at(begin + 1, Place::Field, depth + 1)?;
        let t = &self.tokens[begin + 1];
        let constant = f.is_constant() || (t.signal == Signal::Encoding && t.is_constant());
        if !constant {
            if f.encoded_length != size {
                return Err(self.error(
                    begin,
                    format!(
                        "{} is {} bytes long, but its type {} is {size}",
                        Self::describe(f),
                        f.encoded_length,
                        Self::describe(t)
                    ),
                ));
            }
            if f.offset < 0 || i64::from(f.offset) + i64::from(size) > i64::from(block_length) {
                return Err(self.error(
                    begin,
                    format!(
                        "{} at offset {} ({size} bytes) lies outside its block of {block_length} \
                         bytes",
                        Self::describe(f),
                        f.offset
                    ),
                ));
            }
        }
        if f.is_constant() && t.signal == Signal::BeginEnum {
            self.constant_enum(begin, end)?;
        }
        self.close(begin, end)
    }

    /// A constant enum field's value names one of the enum's valid values (`Enum.VALUE`).
    fn constant_enum(&self, field: usize, enum_end: usize) -> Result<()> {
        let f = &self.tokens[field];
        let name = match &f.encoding.const_value {
            Some(PrimitiveValue::Bytes { bytes, .. }) => {
                String::from_utf8_lossy(bytes).into_owned()
            }
            Some(v) => v.to_string(),
            None => String::new(),
        };
        let value = name.rsplit('.').next().unwrap_or("");
        let values = &self.tokens[field + 2..enum_end - 1];
        if values.iter().any(|v| v.name == value) {
            return Ok(());
        }
        Err(self.error(
            field,
            format!(
                "constant {} refers to '{name}', which is not a value of its enum",
                Self::describe(f)
            ),
        ))
    }

    fn group(&self, begin: usize, depth: usize) -> Result<usize> {
        let g = &self.tokens[begin];
        self.depth(begin, depth)?;
        let dim = begin + 1;
        let d = self.expect(
            dim,
            Signal::BeginComposite,
            "the group's dimension composite",
        )?;
        if d.encoded_length < 0 {
            return Err(self.error(dim, format!("{} has no fixed length", Self::describe(d))));
        }
        let dim_end = self.composite(dim, depth + 1)?;
        let owner = format!("the dimension of group '{}'", g.name);
        let block_length = self.scalar_member(dim, "blockLength", &owner, false)?;
        self.scalar_member(dim, "numInGroup", &owner, false)?;
        if !fits(i64::from(g.encoded_length), block_length) {
            return Err(self.error(
                begin,
                format!(
                    "block length {} of group '{}' does not fit its blockLength ({block_length})",
                    g.encoded_length, g.name
                ),
            ));
        }
        let end = self.body(dim_end, g, depth + 1)?;
        self.close(begin, end)
    }

    fn var_data(&self, begin: usize, depth: usize) -> Result<usize> {
        let v = &self.tokens[begin];
        let c = begin + 1;
        self.expect(c, Signal::BeginComposite, "the var data's composite")?;
        let end = self.composite(c, depth + 1)?;
        let owner = format!("the composite of var data '{}'", v.name);
        self.scalar_member(c, "length", &owner, false)?;
        let data = (c + 1..end - 1)
            .find(|&i| {
                self.tokens[i].name == "varData" && self.tokens[i].signal == Signal::Encoding
            })
            .ok_or_else(|| self.error(c, format!("{owner} has no 'varData' member")))?;
        let length = (c + 1..end - 1)
            .map(|i| &self.tokens[i])
            .find(|m| m.name == "length")
            .expect("checked above");
        let length_end = i64::from(length.offset) + i64::from(length.encoded_length);
        if i64::from(self.tokens[data].offset) < length_end {
            return Err(self.error(
                data,
                format!("{owner} has its varData before its length ends"),
            ));
        }
        self.close(begin, end)
    }
}
