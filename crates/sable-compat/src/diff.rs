//! What the rules have in common: where the comparison is, and the findings so far.

use crate::finding::{Finding, Verdict};

/// Breaks in each sense: wire backward, wire forward, source.
pub type Breaks = [bool; 3];

pub const NONE: Breaks = [false, false, false];
pub const WIRE: Breaks = [true, true, false];
pub const ALL: Breaks = [true, true, true];
pub const SOURCE: Breaks = [false, false, true];

/// The findings of one comparison, with what the rules need to judge them.
#[derive(Debug)]
pub struct Diff {
    pub findings: Vec<Finding>,
    /// OLD's schema version: what an element new to NEW must be marked `sinceVersion` above.
    pub old_version: i32,
    /// The message being compared, if any.
    pub template: Option<i32>,
}

/// Where an element is in OLD and in NEW (its parent's place where it is absent from a side).
#[derive(Debug, Clone, Copy)]
pub struct At<'a> {
    pub old: &'a str,
    pub new: &'a str,
}

impl Diff {
    pub fn push(&mut self, rule: &'static str, message: String, at: At, breaks: Breaks) {
        self.findings.push(Finding {
            rule,
            message,
            old: Some(at.old.to_owned()),
            new: Some(at.new.to_owned()),
            template: self.template,
            backward: Verdict::breaking_if(breaks[0]),
            forward: Verdict::breaking_if(breaks[1]),
            source: Verdict::breaking_if(breaks[2]),
        });
    }
}

/// A path as people read it: `Car/fuelFigures/speed` for `message:Car/fuelFigures/speed`.
pub fn shown(path: &str) -> &str {
    path.strip_prefix("message:")
        .or_else(|| path.strip_prefix("type:"))
        .unwrap_or(path)
}

/// Pairs OLD's and NEW's elements: by name first, then the rest by id (a rename), then
/// what is left on each side alone. Each pair holds indices into the two lists.
pub fn pair<T>(
    old: &[T],
    new: &[T],
    name: impl Fn(&T) -> &str,
    id: impl Fn(&T) -> i32,
) -> Vec<(Option<usize>, Option<usize>)> {
    let mut taken = vec![false; new.len()];
    let mut pairs: Vec<(Option<usize>, Option<usize>)> = Vec::new();
    for (i, o) in old.iter().enumerate() {
        let j = new.iter().position(|n| name(n) == name(o));
        if let Some(j) = j {
            taken[j] = true;
        }
        pairs.push((Some(i), j));
    }
    for p in pairs.iter_mut().filter(|p| p.1.is_none()) {
        let o = &old[p.0.unwrap_or_default()];
        let j = (0..new.len()).find(|&j| {
            !taken[j]
                && id(&new[j]) >= 0
                && id(&new[j]) == id(o)
                && !old.iter().any(|x| name(x) == name(&new[j]))
        });
        if let Some(j) = j {
            taken[j] = true;
            p.1 = Some(j);
        }
    }
    pairs.extend(
        (0..new.len())
            .filter(|&j| !taken[j])
            .map(|j| (None, Some(j))),
    );
    pairs
}
