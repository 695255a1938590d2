//! Output files checked before the work: every command that writes a file (`--out`,
//! `--report`, `--log`) calls [`check`] with its paths before it plays the first match,
//! so a folder that does not exist or a file that cannot be written fails at once, not
//! after a batch of thousands of matches whose figures would then be lost.

use std::fs::OpenOptions;
use std::path::Path;

use crate::error::CliError;

/// Checks that each path given can be written: its folder exists, and the file either
/// exists and opens for writing (it is not changed) or can be created (it is created and
/// removed again, so a run that fails later leaves nothing behind). `None` is stdout.
pub fn check(paths: &[Option<&Path>]) -> Result<(), CliError> {
    for p in paths.iter().flatten() {
        writable(p).map_err(|why| {
            CliError::Failure(format!(
                "cannot write `{}`: {why}; nothing was played",
                p.display()
            ))
        })?;
    }
    Ok(())
}

/// [`check`] for a `--log FILE` where `-` is stdout.
pub fn check_log(log: Option<&str>) -> Result<(), CliError> {
    check(&[log.filter(|l| *l != "-").map(Path::new)])
}

/// Why `p` cannot be written, if it cannot.
fn writable(p: &Path) -> Result<(), String> {
    let dir = match p.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    if !dir.is_dir() {
        return Err(format!("the folder `{}` does not exist", dir.display()));
    }
    if p.is_dir() {
        return Err("it is a folder".to_string());
    }
    if p.exists() {
        // Opened for appending: an existing file is not truncated by the check.
        return OpenOptions::new()
            .append(true)
            .open(p)
            .map(drop)
            .map_err(|e| e.to_string());
    }
    OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(p)
        .map_err(|e| e.to_string())?;
    std::fs::remove_file(p).map_err(|e| e.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_missing_folder_is_named() {
        let p = Path::new("/nonexistent-fuba-folder/a.txt");
        match check(&[None, Some(p)]) {
            Err(CliError::Failure(m)) => {
                assert!(m.contains("/nonexistent-fuba-folder"), "{m}");
                assert!(m.contains("does not exist"), "{m}");
            }
            other => panic!("expected a failure, got {other:?}"),
        }
    }

    #[test]
    fn a_new_file_is_not_left_behind() {
        let dir = std::env::temp_dir().join(format!("fuba-outputs-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("a temporary folder");
        let p = dir.join("out.json");
        assert!(check(&[Some(&p)]).is_ok());
        assert!(!p.exists(), "the check left {} behind", p.display());
        std::fs::write(&p, "kept").expect("write");
        assert!(check(&[Some(&p)]).is_ok());
        assert_eq!(std::fs::read_to_string(&p).expect("read"), "kept");
        assert!(check(&[Some(&dir)]).is_err(), "a folder is not a file");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
