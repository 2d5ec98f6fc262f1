//! The optional access-order checks (`SbeSupport.ACCESS_ORDER_CHECKS`): groups and var data are
//! accessed in schema order.

use super::syntax::{doc, prop, string_literal};
use super::Gen;
use crate::model::Body;
use crate::writer::CodeWriter;

impl Gen<'_> {
    /// The optional access-order check of group or var data `k` (see `access_methods`):
    /// compiled away unless `sable.enable.access.order.checks` is set. One call, so that the
    /// accessor's bytecode stays small enough for C1 to inline it (which shapes the profiles
    /// C2 inlines by).
    pub(super) fn access_check(&self, w: &mut CodeWriter, k: usize, advance: bool) {
        w.open_brace("if (SbeSupport.ACCESS_ORDER_CHECKS)");
        w.line(format!("sbeCheckAccess({k}, {advance});"));
        w.end("}");
    }

    /// The state of the access-order checks of one level (a message or a group entry): the
    /// index of the next group or var data to access, in schema order.
    pub(super) fn access_methods(&self, w: &mut CodeWriter, body: &Body) {
        let n = body.groups.len() + body.var_data.len();
        if n == 0 {
            return;
        }
        doc(
            w,
            "The name of a group or var data by its position.\n\n@param element the position.\n@return the name.",
        );
        w.open_brace("private static String sbeElementName(final int element)");
        w.open_brace("switch (element)");
        for k in 0..n {
            w.line(format!(
                "case {k}: return {};",
                string_literal(element_name(body, k))
            ));
        }
        w.line("default: return \"the end\";");
        w.end("}");
        w.end("}");
        w.blank();
        doc(
            w,
            "Checks that a group or var data is the next to access, in schema order, and that the group before it was accessed to its end.\n\n@param element its position.\n@param advance whether the access moves past it.",
        );
        w.open_brace("private void sbeCheckAccess(final int element, final boolean advance)");
        w.open_brace("if (sbeAccessIndex != element)");
        w.line("throw new IllegalStateException(\"access order: \" + sbeElementName(element) + \" accessed, but \" + sbeElementName(sbeAccessIndex) + \" is next (groups and var data are accessed in schema order)\");");
        w.end("}");
        w.open_brace("if (advance)");
        w.line("sbeAccessIndex = element + 1;");
        w.end("}");
        if !body.groups.is_empty() {
            // What follows a group: that group's entries must all have been accessed.
            w.open_brace("switch (element)");
            for (k, g) in body.groups.iter().enumerate() {
                w.line(format!(
                    "case {}: {}.sbeCheckComplete(); break;",
                    k + 1,
                    prop(&g.name)
                ));
            }
            w.line("default: break;");
            w.end("}");
        }
        w.end("}");
        w.blank();
    }
}

/// The schema name of group or var data `k` (groups first, then var data).
pub(super) fn element_name(body: &Body, k: usize) -> &str {
    if k < body.groups.len() {
        &body.groups[k].name
    } else {
        &body.var_data[k - body.groups.len()].name
    }
}
