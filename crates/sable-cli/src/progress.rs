//! A progress line on stderr for long inputs, shown only when stderr is a terminal.

use std::io::{IsTerminal, Write};
use std::time::{Duration, Instant};

/// Inputs smaller than this finish too fast for a progress line to help.
const MIN_TOTAL: u64 = 64 << 20;
/// How often the line is redrawn at most.
const REDRAW_EVERY: Duration = Duration::from_millis(100);

/// Reports how far through `total` bytes the work is, as `sable decode: 41% 1.2 GiB of 2.9 GiB`.
/// Does nothing when stderr is not a terminal or the input is small.
pub struct Progress {
    label: &'static str,
    total: u64,
    enabled: bool,
    started: Instant,
    last: Option<Instant>,
}

impl Progress {
    pub fn new(label: &'static str, total: u64) -> Progress {
        Progress {
            label,
            total,
            enabled: total >= MIN_TOTAL && std::io::stderr().is_terminal(),
            started: Instant::now(),
            last: None,
        }
    }

    /// Notes that `done` bytes are processed; redraws at most every 100 ms. Cheap to call often.
    pub fn update(&mut self, done: u64) {
        if !self.enabled {
            return;
        }
        let now = Instant::now();
        if self.last.is_some_and(|last| now - last < REDRAW_EVERY) {
            return;
        }
        self.last = Some(now);
        let percent = done
            .saturating_mul(100)
            .checked_div(self.total)
            .unwrap_or(100);
        let seconds = (now - self.started).as_secs_f64().max(1e-9);
        let rate = done as f64 / seconds;
        let _ = write!(
            std::io::stderr(),
            "\r{}: {percent:>3}% {} of {} ({}/s)\x1b[K",
            self.label,
            size(done as f64),
            size(self.total as f64),
            size(rate),
        );
    }

    /// Clears the line, leaving stderr as it was.
    pub fn finish(&mut self) {
        if self.enabled && self.last.is_some() {
            let _ = write!(std::io::stderr(), "\r\x1b[K");
        }
        self.enabled = false;
    }
}

impl Drop for Progress {
    fn drop(&mut self) {
        self.finish();
    }
}

/// `1.2 GiB`, `340.0 MiB`, `12 B`.
fn size(bytes: f64) -> String {
    const UNITS: [&str; 5] = ["B", "KiB", "MiB", "GiB", "TiB"];
    let mut value = bytes;
    let mut unit = 0;
    while value >= 1024.0 && unit + 1 < UNITS.len() {
        value /= 1024.0;
        unit += 1;
    }
    if unit == 0 {
        format!("{value:.0} {}", UNITS[0])
    } else {
        format!("{value:.1} {}", UNITS[unit])
    }
}

#[cfg(test)]
mod tests {
    use super::size;

    #[test]
    fn sizes_read_naturally() {
        assert_eq!(size(12.0), "12 B");
        assert_eq!(size(1536.0), "1.5 KiB");
        assert_eq!(size(3.0 * 1024.0 * 1024.0 * 1024.0), "3.0 GiB");
    }
}
