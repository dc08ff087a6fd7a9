//! Where tables are kept: one small interface, [`Store`], and SQLite behind it (bundled, so a
//! fresh machine needs nothing installed). Each table is its data version and its transcript
//! in the format `printplay play --save` writes, its moves kept apart, one row a move, so that
//! a move costs a row, not the whole transcript written again; every change is committed
//! before the server acknowledges it, so a server killed at any moment restarts at the last
//! acknowledged move.
//! A shared database can replace SQLite by implementing the same four functions.
//!
//! Tokens are not kept: only their SHA-256 digests ([`token_digest`]), so a copy of the
//! database opens no table. A database of an earlier printplay, which kept the tokens
//! themselves, has them replaced by their digests when it is opened (and the old pages
//! wiped).

use crate::play::Transcript;

mod schema;
mod sqlite;
#[cfg(test)]
mod tests;
mod voices;

pub use sqlite::Sqlite;
pub use voices::{Voice, VoiceKind};

/// Who a token lets in: a seat (0-based) or, with `None`, the spectator.
pub type Access = Option<usize>;

/// A token as stored and compared: its SHA-256, in hex.
pub fn token_digest(token: &str) -> String {
    use sha2::{Digest, Sha256};
    Sha256::digest(token.as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// A table as stored.
#[derive(Debug, Clone, PartialEq)]
pub struct StoredTable {
    pub id: String,
    /// The game data the table started on (a digest of its files).
    pub data_version: String,
    pub transcript: Transcript,
    /// Each token's digest ([`token_digest`]) with what it opens: a seat's view or the
    /// spectator's.
    pub tokens: Vec<(Access, String)>,
    /// Seconds since 1970 when the table was made.
    pub created: i64,
    /// Seconds since 1970 when it was closed; `None`: open.
    pub closed: Option<i64>,
    /// When each move was stored, in milliseconds since 1970 (`None`: stored by a printplay
    /// that did not keep it), one per move of the transcript.
    pub times: Vec<Option<i64>>,
    /// What the testers said at the table: chat and notes, oldest first.
    pub voices: Vec<Voice>,
    /// The games played at the table before each rematch, oldest first: the transcript
    /// holds the game now, round `rounds.len()`.
    pub rounds: Vec<Round>,
}

/// A game played at a table before a rematch: its data version, transcript and move times.
#[derive(Debug, Clone, PartialEq)]
pub struct Round {
    pub data_version: String,
    pub transcript: Transcript,
    pub times: Vec<Option<i64>>,
}

/// One table's moves to store: its transcript, if the stored moves number `expected`.
#[derive(Debug, Clone)]
pub struct Save {
    pub id: String,
    pub expected: usize,
    pub transcript: Transcript,
}

/// Table storage.
pub trait Store: Send + Sync {
    /// Keeps a new table.
    fn create(&self, table: &StoredTable) -> Result<(), String>;
    /// Replaces a table's moves with `transcript`'s, if the stored moves number `expected`
    /// (so that no move is lost or doubled); committed when it returns.
    fn save_moves(&self, id: &str, expected: usize, transcript: &Transcript) -> Result<(), String>;
    /// Several tables' moves ([`Store::save_moves`] for each), committed together: one
    /// result per save, in order, each final when it returns.
    fn save_batch(&self, saves: &[Save]) -> Vec<Result<(), String>> {
        saves
            .iter()
            .map(|s| self.save_moves(&s.id, s.expected, &s.transcript))
            .collect()
    }
    /// Starts a table again on other data: its data version and transcript replaced, if its
    /// stored moves number `expected`.
    fn restart(
        &self,
        id: &str,
        expected: usize,
        data_version: &str,
        transcript: &Transcript,
    ) -> Result<(), String>;
    /// Every stored table, oldest first.
    fn all(&self) -> Result<Vec<StoredTable>, String>;
    /// Marks a table closed at `at` (seconds since 1970).
    fn close(&self, id: &str, at: i64) -> Result<(), String>;
    /// Keeps what a tester said at table `id` (its `n` is the table's count of voices so
    /// far); committed when it returns.
    fn add_voice(&self, id: &str, voice: &Voice) -> Result<(), String>;
    /// Keeps the table's game as a past round and starts `fresh` (no moves) in its place, if
    /// its stored moves number `expected`: a rematch behind the same links.
    fn rematch(&self, id: &str, expected: usize, fresh: &Transcript) -> Result<(), String>;
    /// Deletes a table with its moves and tokens; whether it was stored.
    fn delete(&self, id: &str) -> Result<bool, String>;
    /// Deletes every table last active (made, moved at, restarted or closed) before
    /// `before` (seconds since 1970); their ids.
    fn expire(&self, before: i64) -> Result<Vec<String>, String>;
    /// The stored tables of one game, oldest first.
    fn of_game(&self, game: &str) -> Result<Vec<StoredTable>, String> {
        Ok(self
            .all()?
            .into_iter()
            .filter(|t| t.transcript.game == game)
            .collect())
    }
}

/// Seconds since 1970.
fn now() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() as i64)
}

/// Milliseconds since 1970.
pub fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as i64)
}

/// A transcript as `tables.transcript` keeps it: without its moves, which are rows of `moves`.
fn head(transcript: &Transcript) -> String {
    Transcript {
        moves: Vec::new(),
        ..transcript.clone()
    }
    .to_toml()
}
