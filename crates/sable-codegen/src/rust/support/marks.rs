// The codec support's marks (codec_support.rs includes this file, inside `sbe_support`):
// where a message's groups and var data start, found as they are read.

/// Where a message's groups and var data start (`at[N - 1]`: where the message ends), found
/// as they are read: `at[i]` is known for `i < known`; `at[0]`, the end of the root block,
/// from the start.
#[derive(Debug, Clone)]
pub struct Marks<const N: usize> {
    known: core::cell::Cell<usize>,
    at: [core::cell::Cell<usize>; N],
}

impl<const N: usize> Marks<N> {
    #[inline(always)]
    pub fn new(first: usize) -> Self {
        Self {
            known: core::cell::Cell::new(1),
            at: core::array::from_fn(|_| core::cell::Cell::new(first)),
        }
    }

    /// Where element `i` starts, if found.
    #[inline(always)]
    pub fn get(&self, i: usize) -> Option<usize> {
        if i < self.known.get() {
            self.at.get(i).map(core::cell::Cell::get)
        } else {
            None
        }
    }

    /// The last element found: (index, start).
    #[inline(always)]
    pub fn last(&self) -> (usize, usize) {
        let j = self.known.get().saturating_sub(1);
        (j, self.at.get(j).map_or(0, core::cell::Cell::get))
    }

    /// Records that element `i` starts at `p` (when it is the next one to find).
    #[inline(always)]
    pub fn found(&self, i: usize, p: usize) {
        self.mark(i).found(p);
    }

    /// The place to record element `i`'s start, for a group iterator to fill when it ends.
    #[inline(always)]
    pub fn mark(&self, i: usize) -> Mark<'_> {
        Mark {
            known: &self.known,
            at: &self.at,
            i,
        }
    }

    /// A copy, as plain values, for the out-of-line search (so that the decoder's own cells
    /// never have their address taken by a call, and can live in registers).
    #[inline(always)]
    pub fn load(&self) -> Found<N> {
        let mut at = [0; N];
        for (p, c) in at.iter_mut().zip(self.at.iter()) {
            *p = c.get();
        }
        Found {
            known: self.known.get(),
            at,
        }
    }

    /// Keeps what the out-of-line search found.
    #[inline(always)]
    pub fn store(&self, f: &Found<N>) {
        self.known.set(f.known);
        for (c, &p) in self.at.iter().zip(f.at.iter()) {
            c.set(p);
        }
    }
}

/// [`Marks`] as plain values, for the out-of-line search.
#[derive(Debug, Clone, Copy)]
pub struct Found<const N: usize> {
    known: usize,
    at: [usize; N],
}

impl<const N: usize> Found<N> {
    /// Where element `i` starts, if found.
    #[inline(always)]
    pub fn get(&self, i: usize) -> Option<usize> {
        if i < self.known {
            self.at.get(i).copied()
        } else {
            None
        }
    }

    /// The last element found: (index, start).
    #[inline(always)]
    pub fn last(&self) -> (usize, usize) {
        let j = self.known.saturating_sub(1);
        (j, self.at.get(j).copied().unwrap_or(0))
    }

    /// Records that element `i` starts at `p` (when it is the next one to find).
    #[inline(always)]
    pub fn found(&mut self, i: usize, p: usize) {
        if i == self.known {
            if let Some(c) = self.at.get_mut(i) {
                *c = p;
                self.known = i + 1;
            }
        }
    }
}

/// Where a group iterator records the end of its group (the next element's start) in its
/// message's [`Marks`].
#[derive(Debug, Clone, Copy)]
pub struct Mark<'s> {
    known: &'s core::cell::Cell<usize>,
    at: &'s [core::cell::Cell<usize>],
    i: usize,
}

impl Mark<'_> {
    #[inline(always)]
    pub fn found(&self, p: usize) {
        if self.i == self.known.get() {
            if let Some(c) = self.at.get(self.i) {
                c.set(p);
                self.known.set(self.i + 1);
            }
        }
    }
}
