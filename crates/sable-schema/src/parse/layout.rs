//! Fields' offsets and block lengths, worked out as the reference does, and the limits of the
//! length fields that hold them.

use sable_ir::Presence;

use crate::model::*;
use crate::xml::Loc;

/// Where a layout problem is, the element, and what is wrong.
pub(super) type Problem = (Loc, String, String);

/// What a block's length field can express: a message's (the header's `blockLength`) or a
/// group entry's (its dimension's `blockLength`).
#[derive(Debug, Clone)]
pub(super) struct BlockLimit {
    pub(super) max: i64,
    /// Why, for diagnostics: "the message header's blockLength is uint16".
    why: String,
}

impl BlockLimit {
    /// The limit `composite`'s `blockLength` member sets: its primitive's range, within the
    /// IR's i32.
    pub(super) fn of(composite: &TypeDef, owner: &str) -> BlockLimit {
        match composite.member("blockLength").map(|m| &m.kind) {
            Some(TypeKind::Encoded(e)) if e.length == 1 => {
                let p = e.primitive;
                let bits = 8 * p.size() as u32 - u32::from(!p.is_unsigned());
                let max = (1i128 << bits) - 1;
                let why = format!("{owner}'s blockLength is {p}");
                if max > i128::from(i32::MAX) {
                    BlockLimit {
                        why: format!("{why}, and the IR holds lengths as int32"),
                        ..BlockLimit::ir()
                    }
                } else {
                    BlockLimit {
                        max: max as i64,
                        why,
                    }
                }
            }
            _ => BlockLimit::ir(),
        }
    }

    pub(super) fn of_group(dimension: &TypeDef) -> BlockLimit {
        BlockLimit::of(dimension, &format!("the dimension \"{}\"", dimension.name))
    }

    /// The limit of the IR alone, where there is no usable length field (already reported).
    pub(super) fn ir() -> BlockLimit {
        BlockLimit {
            max: i64::from(i32::MAX),
            why: "the IR holds lengths as int32".to_owned(),
        }
    }
}

/// `v` as the IR's i32. Layout reports every length beyond `BlockLimit::max` (at most i32::MAX)
/// before it stores one, so this clamps only in a schema that already has an error.
pub(super) fn to_i32(v: i64) -> i32 {
    i32::try_from(v).unwrap_or(i32::MAX)
}

/// Computes each field's offset and block length as the reference does, and returns the
/// block length of the fields before the first group or data. Offsets that go backwards,
/// group block lengths too small for their fields, and blocks longer than `limit` (or a
/// group's entries longer than its dimension's) are added to `problems`.
pub(super) fn layout(
    fields: &mut [Field],
    block_length: i32,
    limit: &BlockLimit,
    problems: &mut Vec<Problem>,
) -> i64 {
    let mut variable = false;
    let mut offset: i64 = 0;
    let mut root_length: i64 = 0;
    let mut root_done = false;
    let mut too_long = false;
    for field in fields.iter_mut() {
        let label = format!("<field name=\"{}\">", field.name);
        if field.offset != 0 && i64::from(field.offset) < offset && !variable {
            problems.push((
                field.loc,
                label.clone(),
                format!(
                    "offset {} overlaps the field before it, which ends at {offset}",
                    field.offset
                ),
            ));
        }
        if field.offset != 0 {
            offset = i64::from(field.offset);
        } else if !matches!(field.kind, FieldKind::Plain(_)) && block_length != 0 {
            offset = i64::from(block_length);
        }
        let field_offset = offset;
        field.computed_offset = if variable {
            VARIABLE_LENGTH
        } else {
            to_i32(offset)
        };
        match &mut field.kind {
            FieldKind::Group {
                fields: group_fields,
                block_length: declared,
                dimension,
            } => {
                let entry_limit = BlockLimit::of_group(dimension);
                let computed = layout(group_fields, 0, &entry_limit, problems);
                if *declared != 0 && i64::from(*declared) < computed {
                    problems.push((
                        field.loc,
                        format!("<group name=\"{}\">", field.name),
                        format!("blockLength {declared} is too small for the group's fields, which need {computed}"),
                    ));
                }
                field.computed_block_length = to_i32(i64::from(*declared).max(computed));
                variable = true;
                root_done = true;
            }
            FieldKind::Data(_) => {
                variable = true;
                root_done = true;
            }
            FieldKind::Plain(t) => {
                let size = t.size();
                if field.presence != Presence::Constant && size != i64::from(VARIABLE_LENGTH) {
                    field.computed_block_length = to_i32(size);
                    if !variable {
                        offset += size;
                    }
                }
                if !root_done {
                    root_length = if field.presence == Presence::Constant {
                        field_offset
                    } else {
                        field_offset + size.max(0)
                    };
                    if root_length > limit.max && !too_long {
                        too_long = true;
                        problems.push((
                            field.loc,
                            label,
                            format!(
                                "the block is {root_length} bytes long with this field, more than the {} bytes it can have: {}",
                                limit.max, limit.why
                            ),
                        ));
                    }
                }
            }
        }
    }
    root_length
}
