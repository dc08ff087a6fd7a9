//! Why a run (a simulation, a replay, a game at the terminal) stopped. The cause decides the
//! exit status and is set where the error is made: a game's script failing, an engine's
//! `cards_of` naming what the data does not hold, a swept value the check refuses. The words
//! are only what the user reads; nothing decides anything by reading them.

use std::fmt;

/// Whose an error is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cause {
    /// The game's data or script (exit status 1).
    Data,
    /// The command line, or a file read or written (exit status 2).
    Usage,
}

/// An error of a run: its cause and its words.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RunError {
    pub cause: Cause,
    pub message: String,
}

impl RunError {
    /// An error of the game's data or script.
    pub fn data(message: impl Into<String>) -> Self {
        RunError {
            cause: Cause::Data,
            message: message.into(),
        }
    }

    /// An error of the command line or of a file.
    pub fn usage(message: impl Into<String>) -> Self {
        RunError {
            cause: Cause::Usage,
            message: message.into(),
        }
    }

    /// The same cause, its words put in a longer sentence (`game 12: ...`).
    pub fn map(self, words: impl FnOnce(String) -> String) -> Self {
        RunError {
            cause: self.cause,
            message: words(self.message),
        }
    }
}

/// A plain message is the command line's: the data's errors are made with [`RunError::data`].
impl From<String> for RunError {
    fn from(message: String) -> Self {
        RunError::usage(message)
    }
}

impl From<&str> for RunError {
    fn from(message: &str) -> Self {
        RunError::usage(message)
    }
}

/// The words alone, for a caller that keeps no cause (a test's harness of an engine).
impl From<RunError> for String {
    fn from(e: RunError) -> String {
        e.message
    }
}

impl fmt::Display for RunError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

/// The words, as a `&str`.
impl std::ops::Deref for RunError {
    type Target = str;
    fn deref(&self) -> &str {
        &self.message
    }
}

impl std::error::Error for RunError {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_plain_message_is_usage_and_rewording_keeps_the_cause() {
        assert_eq!(RunError::from("x").cause, Cause::Usage);
        let e = RunError::data("engine.lua:3: boom").map(|m| format!("game 2: {m}"));
        assert_eq!(e, RunError::data("game 2: engine.lua:3: boom"));
        // The cause is not read from the words: a usage error that names a script stays one.
        let e = RunError::usage("--sweep engine.lua:1=2 names no value");
        assert_eq!(e.cause, Cause::Usage);
        assert_eq!(String::from(e.clone()), e.message);
    }
}
