//! The SBE schema vocabulary: which element may hold which, and which attributes each takes.
//!
//! The authority is the union of the XSDs of SBE 1.0 (`sbe.xsd`) and 2.0 RC3 (`sbe-2.0rc3.xsd`)
//! in `../shared/spec`, plus the few attributes the reference implementation reads beyond them
//! (marked where they appear). Elements and attributes of other namespaces (`xml:`, `xsi:`, a
//! user's own) are allowed, as XML intends, and removed from the tree so that parsing never
//! mistakes them for SBE ones.

use crate::diagnostic::{Diagnostic, Severity};
use crate::xml::{Element, Sources};

struct Definition {
    name: &'static str,
    children: &'static [&'static str],
    /// Attribute groups, as the XSDs group them.
    attrs: &'static [&'static [&'static str]],
}

impl Definition {
    fn attr_names(&self) -> impl Iterator<Item = &'static str> + '_ {
        self.attrs.iter().flat_map(|group| group.iter().copied())
    }
}

/// `blockType` in both XSDs: a message or a group entry.
const BLOCK_CHILDREN: &[&str] = &["field", "group", "data"];
/// `compositeDataType` in both XSDs.
const COMPOSITE_CHILDREN: &[&str] = &["type", "composite", "enum", "set", "ref"];

// The XSDs' attribute groups, each the union of 1.0's and 2.0 RC3's.
const VERSION: &[&str] = &["sinceVersion", "deprecated"];
const SEMANTIC: &[&str] = &["semanticType", "description"];
/// 1.0's `alignmentAttributes` (offset) and 2.0's `offsetAttributes` (offset, alignment).
const OFFSET: &[&str] = &["offset", "alignment"];
/// 1.0 has presence and valueRef; 2.0 adds the value range.
const PRESENCE: &[&str] = &["presence", "valueRef", "nullValue", "minValue", "maxValue"];
const PRIMITIVE: &[&str] = &["primitiveType", "length", "characterEncoding"];
/// `fieldType`, of `<field>` and `<data>`; 1.0 adds epoch and timeUnit.
const FIELD: &[&[&str]] = &[
    &["name", "id", "type", "epoch", "timeUnit"],
    OFFSET,
    PRESENCE,
    SEMANTIC,
    VERSION,
];
/// Not in either XSD: the reference reads `presence` on every type.
const REFERENCE_TYPE: &[&str] = &["presence"];

const VOCABULARY: &[Definition] = &[
    Definition {
        name: "messageSchema",
        // 1.0 puts messages directly under the root, 2.0 in <messages>.
        children: &["types", "messages", "message"],
        attrs: &[&[
            "package",
            "id",
            "version",
            "semanticVersion",
            "description",
            "byteOrder",
            "headerType",
        ]],
    },
    Definition {
        name: "types",
        children: &["type", "composite", "enum", "set"],
        attrs: &[&["package", "description"]],
    },
    Definition {
        name: "messages",
        children: &["message"],
        attrs: &[&["package", "description"]],
    },
    Definition {
        name: "message",
        children: BLOCK_CHILDREN,
        attrs: &[
            &["name", "id", "blockLength", "alignment"],
            SEMANTIC,
            VERSION,
        ],
    },
    Definition {
        name: "group",
        children: BLOCK_CHILDREN,
        attrs: &[
            &["name", "id", "blockLength", "dimensionType", "alignment"],
            SEMANTIC,
            VERSION,
        ],
    },
    Definition {
        name: "field",
        children: &[],
        attrs: FIELD,
    },
    Definition {
        name: "data",
        children: &[],
        attrs: FIELD,
    },
    Definition {
        name: "type",
        children: &[],
        attrs: &[
            &["name"],
            PRIMITIVE,
            PRESENCE,
            OFFSET,
            SEMANTIC,
            VERSION,
            // The reference's own extension: a variable-length encoding (length 0).
            &["variableLength"],
        ],
    },
    Definition {
        name: "composite",
        children: COMPOSITE_CHILDREN,
        attrs: &[&["name"], OFFSET, SEMANTIC, VERSION, REFERENCE_TYPE],
    },
    Definition {
        name: "enum",
        children: &["validValue"],
        attrs: &[
            &["name", "encodingType"],
            OFFSET,
            SEMANTIC,
            VERSION,
            REFERENCE_TYPE,
            // Not in either XSD: the reference reads an optional enum's null value.
            &["nullValue"],
        ],
    },
    Definition {
        name: "set",
        children: &["choice"],
        attrs: &[
            &["name", "encodingType"],
            OFFSET,
            SEMANTIC,
            VERSION,
            REFERENCE_TYPE,
        ],
    },
    Definition {
        name: "validValue",
        children: &[],
        attrs: &[&["name", "description"], VERSION],
    },
    Definition {
        name: "choice",
        children: &[],
        attrs: &[&["name", "description"], VERSION],
    },
    Definition {
        name: "ref",
        children: &[],
        attrs: &[&["name", "type", "description"], OFFSET, VERSION],
    },
];

fn definition(name: &str) -> Option<&'static Definition> {
    VOCABULARY.iter().find(|d| d.name == name)
}

/// Reports every SBE element or attribute that is unknown or out of place (those of other
/// namespaces are not in the tree: see `xml::Cx::is_sbe`).
pub fn check(root: &Element, sources: &Sources, diags: &mut Vec<Diagnostic>) {
    // A root other than <messageSchema> is the parser's to report.
    if let Some(def) = definition(root.name).filter(|d| d.name == "messageSchema") {
        Checker { sources, diags }.element(root, def);
    }
}

struct Checker<'a> {
    sources: &'a Sources,
    diags: &'a mut Vec<Diagnostic>,
}

impl Checker<'_> {
    fn error(&mut self, el: &Element, loc: crate::xml::Loc, message: String, help: String) {
        let d = self
            .sources
            .diagnostic(Severity::Error, loc, el.label(), message, Some(help));
        self.diags.push(d);
    }

    fn element(&mut self, el: &Element, def: &Definition) {
        for attr in el.attrs {
            if !def.attr_names().any(|a| a == attr.name) {
                let help = match closest(attr.name, def.attr_names()) {
                    Some(near) => format!("did you mean `{near}`?"),
                    None => {
                        let all: Vec<&str> = def.attr_names().collect();
                        format!("<{}> takes {}", def.name, all.join(", "))
                    }
                };
                let message = format!("unknown attribute `{}` on <{}>", attr.name, def.name);
                self.error(el, attr.loc, message, help);
            }
        }
        for child in el.children {
            let Some(child_def) = definition(child.name) else {
                // Suggest from what may stand here first, then from the whole vocabulary.
                let near = closest(child.name, def.children.iter().copied())
                    .or_else(|| closest(child.name, VOCABULARY.iter().map(|d| d.name)));
                let help = match near {
                    Some(near) => format!("did you mean `{near}`?"),
                    None => holds(def),
                };
                let message = format!("unknown element <{}>", child.name);
                self.error(child, child.loc, message, help);
                continue;
            };
            if !def.children.contains(&child.name) {
                let message = format!("<{}> is not allowed inside <{}>", child.name, def.name);
                self.error(child, child.loc, message, holds(def));
            }
            self.element(child, child_def);
        }
    }
}

/// What an element may hold, for a help line.
fn holds(def: &Definition) -> String {
    if def.children.is_empty() {
        format!("<{}> holds no elements", def.name)
    } else {
        format!("<{}> holds {}", def.name, def.children.join(", "))
    }
}

/// The known name nearest to `name`, if it is near enough to be a likely typo: at most one edit
/// per three characters (a swap of neighbours counts as one).
fn closest<'n>(name: &str, known: impl Iterator<Item = &'n str>) -> Option<&'n str> {
    known
        .map(|k| (edit_distance(name, k), k))
        .filter(|&(d, k)| d * 3 <= name.chars().count().max(k.chars().count()))
        .min_by_key(|&(d, _)| d)
        .map(|(_, k)| k)
}

/// Optimal string alignment distance: insertions, deletions, substitutions and swaps of
/// adjacent characters, compared without regard to ASCII case.
fn edit_distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().map(|c| c.to_ascii_lowercase()).collect();
    let b: Vec<char> = b.chars().map(|c| c.to_ascii_lowercase()).collect();
    // Rows i-2, i-1 and i of the distance table.
    let mut before: Vec<usize> = vec![0; b.len() + 1];
    let mut previous: Vec<usize> = (0..=b.len()).collect();
    let mut current = vec![0; b.len() + 1];
    for i in 1..=a.len() {
        current[0] = i;
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut d = (previous[j] + 1)
                .min(current[j - 1] + 1)
                .min(previous[j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                d = d.min(before[j - 2] + 1);
            }
            current[j] = d;
        }
        std::mem::swap(&mut before, &mut previous);
        std::mem::swap(&mut previous, &mut current);
    }
    previous[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn edit_distance_counts_swaps_as_one_edit() {
        assert_eq!(edit_distance("feild", "field"), 1);
        assert_eq!(edit_distance("tpye", "type"), 1);
        assert_eq!(edit_distance("mesage", "message"), 1);
        assert_eq!(edit_distance("offest", "offset"), 1);
        assert_eq!(edit_distance("presense", "presence"), 1);
        assert_eq!(edit_distance("BlockLength", "blockLength"), 0);
        assert_eq!(edit_distance("", "abc"), 3);
        assert_eq!(edit_distance("kitten", "sitting"), 3);
    }

    #[test]
    fn suggests_only_names_that_are_close() {
        let names = ["field", "group", "data"];
        assert_eq!(closest("feild", names.iter().copied()), Some("field"));
        assert_eq!(closest("dta", names.iter().copied()), Some("data"));
        assert_eq!(closest("colour", names.iter().copied()), None);
        assert_eq!(closest("ip", ["id"].iter().copied()), None);
    }

    #[test]
    fn every_child_named_in_the_vocabulary_is_defined() {
        for def in VOCABULARY {
            for child in def.children {
                assert!(definition(child).is_some(), "{child} in {}", def.name);
            }
        }
    }
}
