//! Where a program writes: [`Cursor`], a thread's scratch buffer, and [`Slice`], room reserved
//! in it for a block's operations.

use crate::write::Sink;

/// The program's output: a buffer kept initialized from one message to the next (a thread's
/// scratch), written at a cursor, then copied to the caller's `Vec` in one go. A write checks
/// for room once (growing the buffer, out of line, when there is not enough) but never has to
/// update a `Vec`'s length or cut it back.
#[derive(Debug, Default)]
pub(crate) struct Cursor {
    pub(crate) buf: Vec<u8>,
    pub(crate) pos: usize,
    /// A write into a [`Slice`] did not fit (see there).
    pub(crate) short: bool,
}

std::thread_local! {
    static SCRATCH: std::cell::Cell<Vec<u8>> = const { std::cell::Cell::new(Vec::new()) };
}

/// A scratch buffer grown beyond this size is given back to the allocator after use.
pub(crate) const SCRATCH_KEPT: usize = 1 << 20;

impl Cursor {
    /// A cursor on this thread's scratch buffer.
    pub(crate) fn take() -> Cursor {
        Cursor {
            buf: SCRATCH.try_with(std::cell::Cell::take).unwrap_or_default(),
            pos: 0,
            short: false,
        }
    }

    /// Takes back the last byte written when it is `b`.
    pub(crate) fn unpush(&mut self, b: u8) {
        if self.pos > 0 && self.buf.get(self.pos - 1) == Some(&b) {
            self.pos -= 1;
        }
    }

    /// Makes room for `n` more bytes.
    #[inline(always)]
    pub(crate) fn reserve(&mut self, n: usize) {
        if self.buf.len().saturating_sub(self.pos) < n {
            self.grow(n);
        }
    }

    #[cold]
    #[inline(never)]
    pub(crate) fn grow(&mut self, n: usize) {
        let len = self
            .pos
            .saturating_add(n)
            .max(self.buf.len().saturating_mul(2))
            .max(4096);
        self.buf.resize(len, 0);
    }

    /// Runs `f` on the room of `room` bytes reserved at the cursor, as a [`Slice`] (the
    /// cursor's state in locals while it writes), then moves the cursor past what it wrote.
    #[inline(always)]
    pub(crate) fn in_room(&mut self, room: usize, f: impl FnOnce(&mut Slice<'_>)) {
        self.reserve(room);
        let total = self.buf.len();
        let mut s = Slice {
            rest: self.buf.get_mut(self.pos..).unwrap_or_default(),
            short: false,
        };
        f(&mut s);
        let (left, short) = (s.rest.len(), s.short);
        self.pos = total - left;
        self.short |= short;
    }

    /// Appends what was written to `out`, and gives the scratch buffer back.
    pub(crate) fn finish(self, out: &mut Vec<u8>) {
        out.extend_from_slice(self.buf.get(..self.pos).unwrap_or_default());
        if self.buf.len() <= SCRATCH_KEPT {
            let _ = SCRATCH.try_with(|s| s.set(self.buf));
        }
    }

    /// Writes `w` and keeps `keep` of its bytes after growing the buffer.
    #[cold]
    #[inline(never)]
    pub(crate) fn put_slow(&mut self, w: &[u8], keep: usize) {
        self.grow(w.len());
        if let Some(r) = self.buf.get_mut(self.pos..self.pos + w.len()) {
            r.copy_from_slice(w);
            self.pos += keep.min(w.len());
        }
    }
}

impl Sink for Cursor {
    #[inline(always)]
    fn push(&mut self, b: u8) {
        match self.buf.get_mut(self.pos) {
            Some(r) => {
                *r = b;
                self.pos += 1;
            }
            None => self.put_slow(&[b], 1),
        }
    }

    #[inline(always)]
    fn put(&mut self, s: &[u8]) {
        match self.buf.get_mut(self.pos..self.pos.wrapping_add(s.len())) {
            Some(r) => {
                r.copy_from_slice(s);
                self.pos += s.len();
            }
            None => self.put_slow(s, s.len()),
        }
    }

    #[inline(always)]
    fn put_window<const N: usize>(&mut self, w: &[u8; N], keep: usize) {
        match self.buf.get_mut(self.pos..self.pos.wrapping_add(N)) {
            Some(r) => {
                r.copy_from_slice(w);
                self.pos += keep.min(N);
            }
            None => self.put_slow(w, keep),
        }
    }
}

/// The scratch buffer at the cursor, with room reserved for a block's operations (the most
/// bytes they can write, found when the program is compiled): the cursor's state in locals, and
/// writes that never grow the buffer. A write that does not fit (which the reserved room rules
/// out) is dropped and remembered in `short`, and the message is then printed again through the
/// generic path.
pub(crate) struct Slice<'a> {
    /// The room left (what is written is cut off the front).
    pub(crate) rest: &'a mut [u8],
    pub(crate) short: bool,
}

impl Sink for Slice<'_> {
    #[inline(always)]
    fn push(&mut self, b: u8) {
        self.put_window(&[b], 1);
    }

    #[inline(always)]
    fn put(&mut self, s: &[u8]) {
        let rest = std::mem::take(&mut self.rest);
        match rest.get_mut(..s.len()) {
            Some(head) => {
                head.copy_from_slice(s);
                self.rest = &mut rest[s.len()..];
            }
            None => {
                self.rest = rest;
                self.short = true;
            }
        }
    }

    #[inline(always)]
    fn put_window<const N: usize>(&mut self, w: &[u8; N], keep: usize) {
        let rest = std::mem::take(&mut self.rest);
        match rest.first_chunk_mut::<N>() {
            Some(head) => {
                *head = *w;
                self.rest = &mut rest[keep.min(N)..];
            }
            None => {
                self.rest = rest;
                self.short = true;
            }
        }
    }
}

impl Slice<'_> {
    /// Runs `f` on a slice of its own, out of line, so that this one is never passed by
    /// reference to a call (and its state stays in registers).
    #[inline(always)]
    pub(crate) fn aside(&mut self, f: impl FnOnce(&mut Slice<'_>)) {
        let (rest, short) = aside(std::mem::take(&mut self.rest), f);
        self.rest = rest;
        self.short |= short;
    }
}

#[inline(never)]
pub(crate) fn aside<'a>(
    rest: &'a mut [u8],
    f: impl FnOnce(&mut Slice<'a>),
) -> (&'a mut [u8], bool) {
    let mut s = Slice { rest, short: false };
    f(&mut s);
    (s.rest, s.short)
}
