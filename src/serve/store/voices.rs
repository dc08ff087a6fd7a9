//! What testers say at a table: chat and notes.

use rusqlite::{Connection, Row, params};

use super::Access;

/// What a tester said at a table: a chat line (everyone at the table reads it) or a note on a
/// move or a card (for the designer, and for the other testers only if `shared`).
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Voice {
    /// Its place among the table's voices, from 0.
    pub n: usize,
    /// The table's game it was said in: 0, then one more at each rematch.
    pub round: usize,
    pub kind: VoiceKind,
    /// Who: a seat, or (`None`) a spectator.
    pub seat: Access,
    /// When, in milliseconds since 1970.
    pub at: i64,
    /// The move it was said at (a chat line: the moves played then) or is about (a note).
    #[serde(rename = "move")]
    pub at_move: usize,
    /// The card a note is about, as the tester named it.
    pub card: Option<String>,
    /// A note the other testers may read too (chat always is).
    pub shared: bool,
    /// The words, as typed: untrusted text, shown only as text.
    pub text: String,
}

/// Chat or a note.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum VoiceKind {
    Chat,
    Note,
}

impl VoiceKind {
    fn word(self) -> &'static str {
        match self {
            VoiceKind::Chat => "chat",
            VoiceKind::Note => "note",
        }
    }
}

impl Voice {
    /// A table's voices, oldest first, as [`Voice::from_row`] reads them.
    pub(super) const SELECT: &str = "SELECT n, kind, seat, at, move, card, shared, text, round
         FROM voices WHERE table_id = ?1 ORDER BY n";

    /// A row of [`Voice::SELECT`].
    pub(super) fn from_row(r: &Row) -> rusqlite::Result<Voice> {
        Ok(Voice {
            n: r.get::<_, i64>(0)? as usize,
            kind: if r.get::<_, String>(1)? == "note" {
                VoiceKind::Note
            } else {
                VoiceKind::Chat
            },
            seat: r.get::<_, Option<i64>>(2)?.map(|s| s as usize),
            at: r.get(3)?,
            at_move: r.get::<_, i64>(4)? as usize,
            card: r.get(5)?,
            shared: r.get::<_, i64>(6)? != 0,
            text: r.get(7)?,
            round: r.get::<_, i64>(8)? as usize,
        })
    }

    /// Keeps the voice as a row of the table `table`.
    pub(super) fn insert(&self, conn: &Connection, table: &str) -> rusqlite::Result<usize> {
        conn.execute(
            "INSERT INTO voices (table_id, n, kind, seat, at, move, card, shared, text, round)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)",
            params![
                table,
                self.n as i64,
                self.kind.word(),
                self.seat.map(|s| s as i64),
                self.at,
                self.at_move as i64,
                self.card,
                i64::from(self.shared),
                self.text,
                self.round as i64
            ],
        )
    }
}
