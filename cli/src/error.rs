//! Why a command failed, and so its exit code: the one error type every command returns.

use std::io;

/// Why a command failed, and so its exit code.
#[derive(Debug)]
pub enum CliError {
    /// Exit 1, with this message.
    Failure(String),
    /// Exit 1; the details were already printed.
    Reported,
    /// Exit 2, with this message.
    Usage(String),
    /// Writing stdout failed (a closed pipe ends the command quietly).
    Stdout(io::Error),
}

impl From<io::Error> for CliError {
    fn from(e: io::Error) -> Self {
        CliError::Stdout(e)
    }
}

/// What a command returns.
pub type CliResult = Result<(), CliError>;
