//! Reading a file a user names: a regular file (not a folder, a device or a pipe), within
//! the size limit of its kind ([`crate::limits`]), and UTF-8 text. A file that breaks a
//! rule is refused before it is read, with a message naming the file and the limit.

use std::fmt;
use std::io::Read;
use std::path::Path;

use crate::limits;

/// What kind of file is read: it sets the size limit and names the file in messages.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FileKind {
    /// A ruleset file: a layer or an included fragment.
    Ruleset,
    /// A scenario.
    Scenario,
    /// A match log.
    Log,
    /// A batch result of `fuba simulate --format json`.
    Result,
}

impl FileKind {
    /// The largest file of this kind, in bytes.
    pub fn limit(self) -> u64 {
        match self {
            FileKind::Ruleset => limits::MAX_RULESET_FILE_BYTES,
            FileKind::Scenario => limits::MAX_SCENARIO_BYTES,
            FileKind::Log => limits::MAX_LOG_BYTES,
            FileKind::Result => limits::MAX_RESULT_BYTES,
        }
    }

    /// The kind's name in messages and the limit's name in `engine/src/limits.rs`.
    fn names(self) -> (&'static str, &'static str) {
        match self {
            FileKind::Ruleset => ("a ruleset file", "MAX_RULESET_FILE_BYTES"),
            FileKind::Scenario => ("a scenario", "MAX_SCENARIO_BYTES"),
            FileKind::Log => ("a match log", "MAX_LOG_BYTES"),
            FileKind::Result => ("a batch result", "MAX_RESULT_BYTES"),
        }
    }
}

/// Why a file was not read. Its message names neither the file nor the command: the
/// caller says which file it was (`cannot read the log `m.jsonl`: ...`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileError(pub String);

impl fmt::Display for FileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for FileError {}

/// A size in bytes for people: `1 MiB`, `64 KiB`, `2,500,000 bytes`.
pub fn size_text(bytes: u64) -> String {
    if bytes >= 1 << 20 && bytes % (1 << 20) == 0 {
        return format!("{} MiB", bytes >> 20);
    }
    if bytes >= 1 << 10 && bytes % (1 << 10) == 0 {
        return format!("{} KiB", bytes >> 10);
    }
    let digits = bytes.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    format!("{out} bytes")
}

/// The message for a file over the limit of its kind.
fn too_large(kind: FileKind, size: &str) -> FileError {
    let (what, name) = kind.names();
    FileError(format!(
        "it is {size}; {what} may be at most {} (`{name}` in engine/src/limits.rs)",
        size_text(kind.limit())
    ))
}

/// Reads the file at `path` as text: it must be a regular file within `kind`'s limit.
pub fn read_text(path: &Path, kind: FileKind) -> Result<String, FileError> {
    let meta = std::fs::metadata(path).map_err(|e| FileError(e.to_string()))?;
    if meta.is_dir() {
        return Err(FileError("it is a folder, not a file".to_string()));
    }
    if !meta.is_file() {
        return Err(FileError(
            "it is not a regular file (a device, a pipe or a socket)".to_string(),
        ));
    }
    if meta.len() > kind.limit() {
        return Err(too_large(kind, &size_text(meta.len())));
    }
    let f = std::fs::File::open(path).map_err(|e| FileError(e.to_string()))?;
    read_from(f, kind)
}

/// Reads text from `r` (stdin, a file opened already), at most `kind`'s limit.
pub fn read_from(r: impl Read, kind: FileKind) -> Result<String, FileError> {
    let mut bytes = Vec::new();
    r.take(kind.limit() + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| FileError(e.to_string()))?;
    if bytes.len() as u64 > kind.limit() {
        return Err(too_large(
            kind,
            &format!("more than {}", size_text(kind.limit())),
        ));
    }
    String::from_utf8(bytes).map_err(|e| {
        FileError(format!(
            "it is not UTF-8 text (byte {} is not)",
            e.utf8_error().valid_up_to()
        ))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_read_well() {
        assert_eq!(size_text(1 << 20), "1 MiB");
        assert_eq!(size_text(2_500_000), "2,500,000 bytes");
        assert_eq!(size_text(999), "999 bytes");
        assert_eq!(size_text(64 * 1024), "64 KiB");
    }

    #[test]
    fn a_stream_over_the_limit_stops_at_the_limit() {
        let e = read_from(std::io::repeat(b'a'), FileKind::Scenario);
        let m = e.expect_err("too large").0;
        assert!(m.contains("more than 1 MiB"), "{m}");
        assert!(m.contains("MAX_SCENARIO_BYTES"), "{m}");
    }

    #[test]
    fn bad_utf8_names_the_byte() {
        let e = read_from(&b"ab\xffcd"[..], FileKind::Log).expect_err("not UTF-8");
        assert!(e.0.contains("byte 2"), "{e}");
    }
}
