//! One difference between two schemas that matters, and its verdicts.

use std::fmt;

/// Whether a change keeps one sense of compatibility.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    Compatible,
    Breaking,
}

impl Verdict {
    pub fn as_str(self) -> &'static str {
        match self {
            Verdict::Compatible => "ok",
            Verdict::Breaking => "BREAKS",
        }
    }

    pub fn breaking_if(broken: bool) -> Verdict {
        if broken {
            Verdict::Breaking
        } else {
            Verdict::Compatible
        }
    }
}

/// The three senses of compatibility a change is judged in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Sense {
    /// A reader built from NEW decodes messages written with OLD.
    Backward,
    /// A reader built from OLD decodes messages written with NEW.
    Forward,
    /// Code written against OLD's generated API compiles against NEW's.
    Source,
}

impl Sense {
    pub const ALL: [Sense; 3] = [Sense::Backward, Sense::Forward, Sense::Source];

    pub fn as_str(self) -> &'static str {
        match self {
            Sense::Backward => "backward",
            Sense::Forward => "forward",
            Sense::Source => "source",
        }
    }

    pub fn parse(text: &str) -> Option<Sense> {
        Sense::ALL.into_iter().find(|s| s.as_str() == text)
    }
}

impl fmt::Display for Sense {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One difference: which rule found it, what it is, where it is in each schema (paths into
/// [`sable_schema::Locations`]; `None` where the element is absent from that side), and its
/// verdict in each sense.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Finding {
    pub rule: &'static str,
    pub message: String,
    pub old: Option<String>,
    pub new: Option<String>,
    /// The template id of the message it concerns, if one (for the proof).
    pub template: Option<i32>,
    pub backward: Verdict,
    pub forward: Verdict,
    pub source: Verdict,
}

impl Finding {
    pub fn verdict(&self, sense: Sense) -> Verdict {
        match sense {
            Sense::Backward => self.backward,
            Sense::Forward => self.forward,
            Sense::Source => self.source,
        }
    }

    pub fn breaks(&self, sense: Sense) -> bool {
        self.verdict(sense) == Verdict::Breaking
    }

    pub fn breaks_wire(&self) -> bool {
        self.breaks(Sense::Backward) || self.breaks(Sense::Forward)
    }
}
