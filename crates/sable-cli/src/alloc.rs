//! The global allocator, and how it fits under an address-space limit.
//!
//! mimalloc reserves address space in arenas of 1 GiB at a time (then 128 MiB). Under
//! `ulimit -v` (`RLIMIT_AS`) both reservations fail, and its fallbacks then failed a small
//! allocation in about one run in fifty with room still left under a 100 MiB limit, aborting
//! `sable decode` mid-stream. With arenas sized to the limit (an eighth of it) the same runs
//! all pass (docs/benchmarks.md, "Streaming decode and encode").

use std::os::raw::{c_int, c_long};

/// mimalloc: schema loading allocates millions of small strings and nodes, which it serves
/// with less CPU than the system allocator (see docs/benchmarks.md, schema loading).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// `mi_option_arena_reserve` in mimalloc.h's `mi_option_t` (the same in mimalloc 2 and 3),
/// in KiB.
const ARENA_RESERVE: c_int = 23;
/// Its default on 64-bit targets: 1 GiB, in KiB. The option is changed only while it holds this
/// value, so that a user's `MIMALLOC_ARENA_RESERVE` (or a renumbered option) is left alone.
const DEFAULT_ARENA_RESERVE_KIB: c_long = 1 << 20;
/// The smallest arena asked for under a limit.
const MIN_ARENA_RESERVE_KIB: u64 = 4 << 10;

/// Sizes mimalloc's arenas to the process's address-space limit, if it has one.
pub fn fit_to_address_space_limit() {
    let mut limit = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: getrlimit writes one `rlimit` through a valid pointer.
    if unsafe { libc::getrlimit(libc::RLIMIT_AS, &mut limit) } != 0
        || limit.rlim_cur == libc::RLIM_INFINITY
    {
        return;
    }
    let kib = (limit.rlim_cur / 8 / 1024).max(MIN_ARENA_RESERVE_KIB);
    let Ok(kib) = c_long::try_from(kib) else {
        return;
    };
    // SAFETY: mimalloc's option calls take any option number and value; they are thread-safe.
    unsafe {
        if libmimalloc_sys::mi_option_get(ARENA_RESERVE) == DEFAULT_ARENA_RESERVE_KIB
            && kib < DEFAULT_ARENA_RESERVE_KIB
        {
            libmimalloc_sys::mi_option_set(ARENA_RESERVE, kib);
        }
    }
}
