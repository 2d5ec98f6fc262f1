//! Reading schema files with a size limit, so that no file (`/dev/zero`, a pipe, a huge file)
//! can make a read grow memory without bound.

use std::fmt;
use std::io::{self, Read};
use std::path::Path;

/// The most bytes read for one schema by default, its XIncludes counted in: 64 MiB.
pub const DEFAULT_MAX_FILE_BYTES: u64 = 64 << 20;

/// Why a bounded read failed.
#[derive(Debug)]
pub enum ReadError {
    /// The operating system's error.
    Io(io::Error),
    /// More than `limit` bytes.
    TooLarge { limit: u64 },
    /// Not a regular file (refused where only files make sense, as XInclude targets): what it is.
    NotRegular(&'static str),
}

impl fmt::Display for ReadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReadError::Io(e) => write!(f, "{e}"),
            ReadError::TooLarge { limit } => write!(f, "larger than the {} limit", size(*limit)),
            ReadError::NotRegular(what) => write!(f, "not a regular file but {what}"),
        }
    }
}

impl std::error::Error for ReadError {}

/// Reads everything from `reader`, but no more than `limit` bytes: it reads one byte past the
/// limit to tell a file of exactly `limit` bytes from a longer one.
pub fn read_bounded(reader: impl Read, limit: u64) -> Result<Vec<u8>, ReadError> {
    let mut bytes = Vec::new();
    reader
        .take(limit.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(ReadError::Io)?;
    if bytes.len() as u64 > limit {
        return Err(ReadError::TooLarge { limit });
    }
    Ok(bytes)
}

/// Reads a regular file of at most `limit` bytes. Devices, FIFOs, sockets and directories are
/// refused before they are opened (opening a FIFO would wait for a writer).
pub fn read_regular_file(path: &Path, limit: u64) -> Result<Vec<u8>, ReadError> {
    let kind = std::fs::metadata(path).map_err(ReadError::Io)?.file_type();
    if !kind.is_file() {
        return Err(ReadError::NotRegular(file_kind(kind)));
    }
    read_bounded(std::fs::File::open(path).map_err(ReadError::Io)?, limit)
}

fn file_kind(kind: std::fs::FileType) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if kind.is_char_device() {
            return "a character device";
        }
        if kind.is_block_device() {
            return "a block device";
        }
        if kind.is_fifo() {
            return "a FIFO";
        }
        if kind.is_socket() {
            return "a socket";
        }
    }
    if kind.is_dir() {
        "a directory"
    } else {
        "a special file"
    }
}

/// `64 MiB`, `1 GiB`, `1536 KiB`, `100 bytes`: exact, in the largest unit that divides it.
pub fn size(bytes: u64) -> String {
    for (shift, unit) in [(30, "GiB"), (20, "MiB"), (10, "KiB")] {
        if bytes >= 1 << shift && bytes % (1 << shift) == 0 {
            return format!("{} {unit}", bytes >> shift);
        }
    }
    format!("{bytes} bytes")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_up_to_the_limit_and_no_further() {
        assert_eq!(read_bounded(&b"abcd"[..], 4).unwrap(), b"abcd");
        let err = read_bounded(io::repeat(0), 1000).unwrap_err();
        assert!(matches!(err, ReadError::TooLarge { limit: 1000 }), "{err}");
        assert_eq!(err.to_string(), "larger than the 1000 bytes limit");
    }

    #[cfg(unix)]
    #[test]
    fn devices_and_directories_are_not_read() {
        let err = read_regular_file(Path::new("/dev/zero"), 10).unwrap_err();
        assert_eq!(err.to_string(), "not a regular file but a character device");
        let err = read_regular_file(Path::new("/"), 10).unwrap_err();
        assert_eq!(err.to_string(), "not a regular file but a directory");
    }

    #[test]
    fn sizes_are_exact() {
        assert_eq!(size(64 << 20), "64 MiB");
        assert_eq!(size(1 << 30), "1 GiB");
        assert_eq!(size(1536 << 10), "1536 KiB");
        assert_eq!(size(1000), "1000 bytes");
    }
}
