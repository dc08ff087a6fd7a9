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

use std::path::Path;
use std::sync::Mutex;

use rusqlite::{Connection, OptionalExtension, params};

use crate::play::Transcript;

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

/// The layout of the database: 1 keeps token digests (0, before it, the tokens); 2 keeps each
/// move as a row of `moves` and, in `tables.transcript`, the transcript without its moves (1
/// kept the whole transcript there, written again on every move); 3 keeps when each table was
/// last active (`active`: made, moved at, restarted, closed) and when it was closed (`closed`),
/// for tables to expire; 4 keeps when each move was stored (`moves.at`, milliseconds since
/// 1970), the testers' chat and notes (`voices`) and the games played before a rematch
/// (`rounds`).
const SCHEMA: i64 = 4;

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

/// Tables in one SQLite file.
pub struct Sqlite {
    conn: Mutex<Connection>,
    name: String,
}

impl Sqlite {
    /// Opens (or makes) the database at `path`, with its folder.
    pub fn open(path: &Path) -> Result<Sqlite, String> {
        let name = path.display().to_string();
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        }
        let conn = Connection::open(path).map_err(|e| format!("{name}: {e}"))?;
        // WAL: a commit is durable against the process being killed as soon as it returns
        // (synchronous=NORMAL only risks the last commits on a power cut). A deleted table's
        // pages are overwritten (secure_delete), not left for a copy of the file to read.
        conn.execute_batch(
            "PRAGMA journal_mode=WAL;
             PRAGMA synchronous=NORMAL;
             PRAGMA busy_timeout=5000;
             PRAGMA secure_delete=ON;
             CREATE TABLE IF NOT EXISTS tables (
                 id TEXT PRIMARY KEY,
                 game TEXT NOT NULL,
                 data_version TEXT NOT NULL,
                 created INTEGER NOT NULL,
                 moves INTEGER NOT NULL,
                 transcript TEXT NOT NULL,
                 active INTEGER NOT NULL DEFAULT 0,
                 closed INTEGER
             );
             CREATE TABLE IF NOT EXISTS tokens (
                 digest TEXT PRIMARY KEY,
                 table_id TEXT NOT NULL REFERENCES tables(id),
                 seat INTEGER
             );
             CREATE TABLE IF NOT EXISTS moves (
                 table_id TEXT NOT NULL REFERENCES tables(id),
                 n INTEGER NOT NULL,
                 move INTEGER NOT NULL,
                 at INTEGER,
                 PRIMARY KEY (table_id, n)
             ) WITHOUT ROWID;
             CREATE TABLE IF NOT EXISTS rounds (
                 table_id TEXT NOT NULL REFERENCES tables(id),
                 round INTEGER NOT NULL,
                 data_version TEXT NOT NULL,
                 transcript TEXT NOT NULL,
                 times TEXT NOT NULL,
                 PRIMARY KEY (table_id, round)
             ) WITHOUT ROWID;
             CREATE TABLE IF NOT EXISTS voices (
                 table_id TEXT NOT NULL REFERENCES tables(id),
                 n INTEGER NOT NULL,
                 round INTEGER NOT NULL DEFAULT 0,
                 kind TEXT NOT NULL,
                 seat INTEGER,
                 at INTEGER NOT NULL,
                 move INTEGER NOT NULL,
                 card TEXT,
                 shared INTEGER NOT NULL,
                 text TEXT NOT NULL,
                 PRIMARY KEY (table_id, n)
             ) WITHOUT ROWID;",
        )
        .map_err(|e| format!("{name}: {e}"))?;
        let store = Sqlite {
            conn: Mutex::new(conn),
            name,
        };
        store.migrate()?;
        Ok(store)
    }

    /// Brings a database of an earlier layout to this one: plain tokens become digests, and
    /// the pages and log that held them are rewritten so that no copy of a token is left;
    /// each table's moves move from its transcript's text to rows of `moves`.
    fn migrate(&self) -> Result<(), String> {
        let mut conn = self.conn()?;
        let version: i64 = conn
            .query_row("PRAGMA user_version", [], |r| r.get(0))
            .map_err(|e| self.err(e))?;
        let plain: i64 = conn
            .query_row(
                "SELECT COUNT(*) FROM pragma_table_info('tokens') WHERE name = 'token'",
                [],
                |r| r.get(0),
            )
            .map_err(|e| self.err(e))?;
        let timed: i64 = conn
            .query_row(
                "SELECT COUNT(*) FROM pragma_table_info('moves') WHERE name = 'at'",
                [],
                |r| r.get(0),
            )
            .map_err(|e| self.err(e))?;
        if timed == 0 {
            // Moves stored before their times were kept have none (`NULL`).
            conn.execute_batch("ALTER TABLE moves ADD COLUMN at INTEGER;")
                .map_err(|e| self.err(e))?;
        }
        if version >= SCHEMA && plain == 0 {
            return Ok(());
        }
        if plain > 0 {
            conn.execute_batch("PRAGMA secure_delete=ON;")
                .map_err(|e| self.err(e))?;
            let tx = conn.transaction().map_err(|e| self.err(e))?;
            let rows = {
                let mut stmt = tx
                    .prepare("SELECT token, table_id, seat FROM tokens")
                    .map_err(|e| self.err(e))?;
                stmt.query_map([], |r| {
                    Ok((
                        r.get::<_, String>(0)?,
                        r.get::<_, String>(1)?,
                        r.get::<_, Option<i64>>(2)?,
                    ))
                })
                .map_err(|e| self.err(e))?
                .collect::<Result<Vec<_>, _>>()
                .map_err(|e| self.err(e))?
            };
            tx.execute_batch(
                "CREATE TABLE tokens_digest (
                     digest TEXT PRIMARY KEY,
                     table_id TEXT NOT NULL REFERENCES tables(id),
                     seat INTEGER
                 );",
            )
            .map_err(|e| self.err(e))?;
            for (token, table, seat) in rows {
                tx.execute(
                    "INSERT INTO tokens_digest (digest, table_id, seat) VALUES (?1, ?2, ?3)",
                    params![token_digest(&token), table, seat],
                )
                .map_err(|e| self.err(e))?;
            }
            tx.execute_batch("DROP TABLE tokens; ALTER TABLE tokens_digest RENAME TO tokens;")
                .map_err(|e| self.err(e))?;
            tx.commit().map_err(|e| self.err(e))?;
            // The old pages: rewritten (VACUUM) and the log emptied.
            conn.execute_batch("VACUUM; PRAGMA wal_checkpoint(TRUNCATE);")
                .map_err(|e| self.err(e))?;
        }
        let active: i64 = conn
            .query_row(
                "SELECT COUNT(*) FROM pragma_table_info('tables') WHERE name = 'active'",
                [],
                |r| r.get(0),
            )
            .map_err(|e| self.err(e))?;
        if active == 0 {
            // An earlier layout: its tables count as active now, so that none expires on the
            // first start of this printplay, however old.
            conn.execute_batch(
                "ALTER TABLE tables ADD COLUMN active INTEGER NOT NULL DEFAULT 0;
                 ALTER TABLE tables ADD COLUMN closed INTEGER;
                 UPDATE tables SET active = CAST(strftime('%s', 'now') AS INTEGER);",
            )
            .map_err(|e| self.err(e))?;
        }
        if version < 2 {
            let tx = conn.transaction().map_err(|e| self.err(e))?;
            let rows = {
                let mut stmt = tx
                    .prepare("SELECT id, transcript FROM tables")
                    .map_err(|e| self.err(e))?;
                stmt.query_map([], |r| Ok((r.get::<_, String>(0)?, r.get::<_, String>(1)?)))
                    .map_err(|e| self.err(e))?
                    .collect::<Result<Vec<_>, _>>()
                    .map_err(|e| self.err(e))?
            };
            for (id, text) in rows {
                let transcript = self.read_transcript(&id, &text)?;
                Self::write_moves(&tx, &id, &transcript.moves, 0, None).map_err(|e| self.err(e))?;
                tx.execute(
                    "UPDATE tables SET transcript = ?1, moves = ?2 WHERE id = ?3",
                    params![head(&transcript), transcript.moves.len() as i64, id],
                )
                .map_err(|e| self.err(e))?;
            }
            tx.execute_batch(&format!("PRAGMA user_version = {SCHEMA};"))
                .map_err(|e| self.err(e))?;
            return tx.commit().map_err(|e| self.err(e));
        }
        conn.execute_batch(&format!("PRAGMA user_version = {SCHEMA};"))
            .map_err(|e| self.err(e))
    }

    fn read_transcript(&self, id: &str, text: &str) -> Result<Transcript, String> {
        toml::from_str(text).map_err(|e| self.err(format!("table {id}: {e}")))
    }

    /// Stores `moves[from..]` as the table's moves from the `from`th on (those before it are
    /// stored already), stored `at` (milliseconds since 1970; `None`: unknown).
    fn write_moves(
        conn: &Connection,
        id: &str,
        moves: &[usize],
        from: usize,
        at: Option<i64>,
    ) -> rusqlite::Result<()> {
        let mut stmt = conn.prepare_cached(
            "INSERT OR REPLACE INTO moves (table_id, n, move, at) VALUES (?1, ?2, ?3, ?4)",
        )?;
        for (n, m) in moves.iter().enumerate().skip(from) {
            stmt.execute(params![id, n as i64, *m as i64, at])?;
        }
        Ok(())
    }

    /// Makes the table's stored moves `moves`, where the `stored` moves stored are the first
    /// of them or (after an undo) `moves` and more: the move list only grows by moves and
    /// shrinks by undo.
    fn replace_moves(
        conn: &Connection,
        id: &str,
        moves: &[usize],
        stored: usize,
    ) -> rusqlite::Result<()> {
        if moves.len() < stored {
            conn.prepare_cached("DELETE FROM moves WHERE table_id = ?1 AND n >= ?2")?
                .execute(params![id, moves.len() as i64])?;
        }
        Self::write_moves(conn, id, moves, stored, Some(now_ms()))
    }

    fn conn(&self) -> Result<std::sync::MutexGuard<'_, Connection>, String> {
        self.conn
            .lock()
            .map_err(|_| format!("{}: the connection is poisoned", self.name))
    }

    fn err(&self, e: impl std::fmt::Display) -> String {
        format!("{}: {e}", self.name)
    }

    /// [`Store::save_moves`] on an open connection (or inside a transaction).
    fn save_on(
        &self,
        conn: &Connection,
        id: &str,
        expected: usize,
        transcript: &Transcript,
    ) -> Result<(), String> {
        let changed = conn
            .prepare_cached(
                "UPDATE tables SET moves = ?1, active = ?4 WHERE id = ?2 AND moves = ?3",
            )
            .and_then(|mut stmt| {
                stmt.execute(params![
                    transcript.moves.len() as i64,
                    id,
                    expected as i64,
                    now()
                ])
            })
            .map_err(|e| self.err(e))?;
        if changed == 1 {
            Self::replace_moves(conn, id, &transcript.moves, expected).map_err(|e| self.err(e))
        } else {
            let stored: Option<i64> = conn
                .query_row("SELECT moves FROM tables WHERE id = ?1", [id], |r| r.get(0))
                .optional()
                .map_err(|e| self.err(e))?;
            Err(match stored {
                None => format!("table {id} is not stored"),
                Some(n) => format!("table {id} has {n} moves stored, not {expected}"),
            })
        }
    }
}

impl Store for Sqlite {
    fn create(&self, table: &StoredTable) -> Result<(), String> {
        let mut conn = self.conn()?;
        let tx = conn.transaction().map_err(|e| self.err(e))?;
        tx.execute(
            "INSERT INTO tables (id, game, data_version, created, moves, transcript, active, closed)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?4, ?7)",
            params![
                table.id,
                table.transcript.game,
                table.data_version,
                table.created,
                table.transcript.moves.len() as i64,
                head(&table.transcript),
                table.closed
            ],
        )
        .map_err(|e| self.err(e))?;
        Self::write_moves(&tx, &table.id, &table.transcript.moves, 0, Some(now_ms()))
            .map_err(|e| self.err(e))?;
        for (seat, token) in &table.tokens {
            tx.execute(
                "INSERT INTO tokens (digest, table_id, seat) VALUES (?1, ?2, ?3)",
                params![token, table.id, seat.map(|s| s as i64)],
            )
            .map_err(|e| self.err(e))?;
        }
        tx.commit().map_err(|e| self.err(e))
    }

    fn save_moves(&self, id: &str, expected: usize, transcript: &Transcript) -> Result<(), String> {
        let conn = self.conn()?;
        self.save_on(&conn, id, expected, transcript)
    }

    /// One transaction for every save: a commit's cost is paid once for all the tables that
    /// moved meanwhile. A save whose table moved on is refused alone.
    fn save_batch(&self, saves: &[Save]) -> Vec<Result<(), String>> {
        let all_fail = |e: String| saves.iter().map(|_| Err(e.clone())).collect();
        let mut conn = match self.conn() {
            Ok(c) => c,
            Err(e) => return all_fail(e),
        };
        let tx = match conn.transaction() {
            Ok(tx) => tx,
            Err(e) => return all_fail(self.err(e)),
        };
        let results: Vec<Result<(), String>> = saves
            .iter()
            .map(|s| self.save_on(&tx, &s.id, s.expected, &s.transcript))
            .collect();
        match tx.commit() {
            Ok(()) => results,
            Err(e) => all_fail(self.err(e)),
        }
    }

    fn restart(
        &self,
        id: &str,
        expected: usize,
        data_version: &str,
        transcript: &Transcript,
    ) -> Result<(), String> {
        let mut conn = self.conn()?;
        let tx = conn.transaction().map_err(|e| self.err(e))?;
        let changed = tx
            .execute(
                "UPDATE tables SET moves = ?1, transcript = ?2, data_version = ?3, active = ?6
                 WHERE id = ?4 AND moves = ?5",
                params![
                    transcript.moves.len() as i64,
                    head(transcript),
                    data_version,
                    id,
                    expected as i64,
                    now()
                ],
            )
            .map_err(|e| self.err(e))?;
        if changed != 1 {
            return Err(format!("table {id} is not stored with {expected} moves"));
        }
        tx.execute("DELETE FROM moves WHERE table_id = ?1", [id])
            .map_err(|e| self.err(e))?;
        Self::write_moves(&tx, id, &transcript.moves, 0, Some(now_ms()))
            .map_err(|e| self.err(e))?;
        tx.commit().map_err(|e| self.err(e))
    }

    fn all(&self) -> Result<Vec<StoredTable>, String> {
        let conn = self.conn()?;
        let mut stmt = conn
            .prepare(
                "SELECT id, data_version, created, transcript, moves, closed FROM tables
                 ORDER BY created, id",
            )
            .map_err(|e| self.err(e))?;
        let rows = stmt
            .query_map([], |r| {
                Ok((
                    r.get::<_, String>(0)?,
                    r.get::<_, String>(1)?,
                    r.get::<_, i64>(2)?,
                    r.get::<_, String>(3)?,
                    r.get::<_, i64>(4)?,
                    r.get::<_, Option<i64>>(5)?,
                ))
            })
            .map_err(|e| self.err(e))?
            .collect::<Result<Vec<_>, _>>()
            .map_err(|e| self.err(e))?;
        let mut tokens = conn
            .prepare("SELECT digest, seat FROM tokens WHERE table_id = ?1 ORDER BY seat")
            .map_err(|e| self.err(e))?;
        let mut moves = conn
            .prepare("SELECT move, at FROM moves WHERE table_id = ?1 ORDER BY n")
            .map_err(|e| self.err(e))?;
        let mut voices = conn
            .prepare(
                "SELECT n, kind, seat, at, move, card, shared, text, round FROM voices
                 WHERE table_id = ?1 ORDER BY n",
            )
            .map_err(|e| self.err(e))?;
        let mut rounds = conn
            .prepare(
                "SELECT data_version, transcript, times FROM rounds
                 WHERE table_id = ?1 ORDER BY round",
            )
            .map_err(|e| self.err(e))?;
        let mut tables = Vec::new();
        for (id, data_version, created, text, count, closed) in rows {
            let mut transcript = self.read_transcript(&id, &text)?;
            let (played, times): (Vec<usize>, Vec<Option<i64>>) = moves
                .query_map([&id], |r| {
                    Ok((r.get::<_, i64>(0)? as usize, r.get::<_, Option<i64>>(1)?))
                })
                .map_err(|e| self.err(e))?
                .collect::<Result<Vec<_>, _>>()
                .map_err(|e| self.err(e))?
                .into_iter()
                .unzip();
            transcript.moves = played;
            let said = voices
                .query_map([&id], |r| {
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
                })
                .map_err(|e| self.err(e))?
                .collect::<Result<Vec<_>, _>>()
                .map_err(|e| self.err(e))?;
            let past = rounds
                .query_map([&id], |r| {
                    Ok((
                        r.get::<_, String>(0)?,
                        r.get::<_, String>(1)?,
                        r.get::<_, String>(2)?,
                    ))
                })
                .map_err(|e| self.err(e))?
                .collect::<Result<Vec<_>, _>>()
                .map_err(|e| self.err(e))?
                .into_iter()
                .map(|(data_version, text, times)| {
                    Ok(Round {
                        data_version,
                        transcript: self.read_transcript(&id, &text)?,
                        times: serde_json::from_str(&times)
                            .map_err(|e| self.err(format!("table {id}: {e}")))?,
                    })
                })
                .collect::<Result<Vec<_>, String>>()?;
            if transcript.moves.len() as i64 != count {
                return Err(self.err(format!(
                    "table {id}: {count} moves counted, {} stored",
                    transcript.moves.len()
                )));
            }
            let toks = tokens
                .query_map([&id], |r| {
                    Ok((
                        r.get::<_, Option<i64>>(1)?.map(|s| s as usize),
                        r.get::<_, String>(0)?,
                    ))
                })
                .map_err(|e| self.err(e))?
                .collect::<Result<Vec<_>, _>>()
                .map_err(|e| self.err(e))?;
            tables.push(StoredTable {
                id,
                data_version,
                transcript,
                tokens: toks,
                created,
                closed,
                times,
                voices: said,
                rounds: past,
            });
        }
        Ok(tables)
    }

    fn close(&self, id: &str, at: i64) -> Result<(), String> {
        let conn = self.conn()?;
        let changed = conn
            .execute(
                "UPDATE tables SET closed = ?1, active = ?1 WHERE id = ?2",
                params![at, id],
            )
            .map_err(|e| self.err(e))?;
        if changed == 1 {
            Ok(())
        } else {
            Err(format!("table {id} is not stored"))
        }
    }

    fn add_voice(&self, id: &str, voice: &Voice) -> Result<(), String> {
        let mut conn = self.conn()?;
        let tx = conn.transaction().map_err(|e| self.err(e))?;
        let changed = tx
            .execute(
                "UPDATE tables SET active = ?2 WHERE id = ?1",
                params![id, voice.at / 1000],
            )
            .map_err(|e| self.err(e))?;
        if changed != 1 {
            return Err(format!("table {id} is not stored"));
        }
        tx.execute(
            "INSERT INTO voices (table_id, n, kind, seat, at, move, card, shared, text, round)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)",
            params![
                id,
                voice.n as i64,
                voice.kind.word(),
                voice.seat.map(|s| s as i64),
                voice.at,
                voice.at_move as i64,
                voice.card,
                i64::from(voice.shared),
                voice.text,
                voice.round as i64
            ],
        )
        .map_err(|e| self.err(e))?;
        tx.commit().map_err(|e| self.err(e))
    }

    fn rematch(&self, id: &str, expected: usize, fresh: &Transcript) -> Result<(), String> {
        let mut conn = self.conn()?;
        let tx = conn.transaction().map_err(|e| self.err(e))?;
        let (data_version, text, count): (String, String, i64) = tx
            .query_row(
                "SELECT data_version, transcript, moves FROM tables WHERE id = ?1",
                [id],
                |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
            )
            .optional()
            .map_err(|e| self.err(e))?
            .ok_or_else(|| format!("table {id} is not stored"))?;
        if count != expected as i64 {
            return Err(format!(
                "table {id} has {count} moves stored, not {expected}"
            ));
        }
        let mut played = self.read_transcript(id, &text)?;
        let (moves, times): (Vec<usize>, Vec<Option<i64>>) = {
            let mut stmt = tx
                .prepare("SELECT move, at FROM moves WHERE table_id = ?1 ORDER BY n")
                .map_err(|e| self.err(e))?;
            stmt.query_map([id], |r| {
                Ok((r.get::<_, i64>(0)? as usize, r.get::<_, Option<i64>>(1)?))
            })
            .map_err(|e| self.err(e))?
            .collect::<Result<Vec<_>, _>>()
            .map_err(|e| self.err(e))?
            .into_iter()
            .unzip()
        };
        played.moves = moves;
        let times = serde_json::to_string(&times).map_err(|e| self.err(e))?;
        tx.execute(
            "INSERT INTO rounds (table_id, round, data_version, transcript, times)
             VALUES (?1, (SELECT COUNT(*) FROM rounds WHERE table_id = ?1), ?2, ?3, ?4)",
            params![id, data_version, played.to_toml(), times],
        )
        .map_err(|e| self.err(e))?;
        tx.execute(
            "UPDATE tables SET moves = 0, transcript = ?2, active = ?3 WHERE id = ?1",
            params![id, head(fresh), now()],
        )
        .map_err(|e| self.err(e))?;
        tx.execute("DELETE FROM moves WHERE table_id = ?1", [id])
            .map_err(|e| self.err(e))?;
        tx.commit().map_err(|e| self.err(e))
    }

    fn delete(&self, id: &str) -> Result<bool, String> {
        let mut conn = self.conn()?;
        let tx = conn.transaction().map_err(|e| self.err(e))?;
        let gone = Self::delete_on(&tx, id).map_err(|e| self.err(e))?;
        tx.commit().map_err(|e| self.err(e))?;
        Ok(gone)
    }

    fn expire(&self, before: i64) -> Result<Vec<String>, String> {
        let mut conn = self.conn()?;
        let tx = conn.transaction().map_err(|e| self.err(e))?;
        let ids = {
            let mut stmt = tx
                .prepare("SELECT id FROM tables WHERE active < ?1 ORDER BY id")
                .map_err(|e| self.err(e))?;
            stmt.query_map([before], |r| r.get::<_, String>(0))
                .map_err(|e| self.err(e))?
                .collect::<Result<Vec<_>, _>>()
                .map_err(|e| self.err(e))?
        };
        for id in &ids {
            Self::delete_on(&tx, id).map_err(|e| self.err(e))?;
        }
        tx.commit().map_err(|e| self.err(e))?;
        Ok(ids)
    }
}

impl Sqlite {
    /// Deletes a table's rows (moves, tokens, the table); whether it was stored.
    fn delete_on(conn: &Connection, id: &str) -> rusqlite::Result<bool> {
        conn.execute("DELETE FROM moves WHERE table_id = ?1", [id])?;
        conn.execute("DELETE FROM voices WHERE table_id = ?1", [id])?;
        conn.execute("DELETE FROM rounds WHERE table_id = ?1", [id])?;
        conn.execute("DELETE FROM tokens WHERE table_id = ?1", [id])?;
        Ok(conn.execute("DELETE FROM tables WHERE id = ?1", [id])? == 1)
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

#[cfg(test)]
mod tests {
    use super::*;

    fn transcript(moves: Vec<usize>) -> Transcript {
        Transcript {
            game: "the-search".into(),
            seed: 1,
            players: 2,
            free: false,
            variants: Default::default(),
            seats: vec!["person".into(), "heuristic".into()],
            moves,
        }
    }

    #[test]
    fn tables_come_back_as_stored_and_no_move_is_doubled() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("sub/tables.sqlite");
        let store = Sqlite::open(&path).unwrap();
        let table = StoredTable {
            id: "abc".into(),
            data_version: "v1".into(),
            transcript: transcript(vec![]),
            tokens: vec![(Some(0), "t0".into()), (None, "ts".into())],
            created: 5,
            closed: None,
            times: vec![],
            voices: vec![],
            rounds: vec![],
        };
        store.create(&table).unwrap();
        store.save_moves("abc", 0, &transcript(vec![3])).unwrap();
        // A second writer that still believes there are no moves is refused.
        let stale = store
            .save_moves("abc", 0, &transcript(vec![4]))
            .unwrap_err();
        assert!(stale.contains("1 moves stored"), "{stale}");
        drop(store);
        let again = Sqlite::open(&path).unwrap().all().unwrap();
        assert_eq!(again.len(), 1);
        assert_eq!(again[0].transcript.moves, vec![3]);
        assert_eq!(
            again[0].tokens,
            vec![(None, "ts".into()), (Some(0), "t0".into())]
        );
    }

    #[test]
    fn voices_and_move_times_come_back_and_go_with_the_table() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("tables.sqlite");
        let store = Sqlite::open(&path).unwrap();
        let table = StoredTable {
            id: "v".into(),
            data_version: "v1".into(),
            transcript: transcript(vec![]),
            tokens: vec![(None, "tv".into())],
            created: 5,
            closed: None,
            times: vec![],
            voices: vec![],
            rounds: vec![],
        };
        store.create(&table).unwrap();
        let before = now_ms();
        store.save_moves("v", 0, &transcript(vec![1, 2])).unwrap();
        let note = Voice {
            n: 0,
            round: 0,
            kind: VoiceKind::Note,
            seat: Some(1),
            at: before,
            at_move: 1,
            card: Some("Alibi".into()),
            shared: false,
            text: "<b>this card confused me</b>".into(),
        };
        store.add_voice("v", &note).unwrap();
        assert!(store.add_voice("nope", &note).is_err());
        drop(store);
        let store = Sqlite::open(&path).unwrap();
        let again = &store.all().unwrap()[0];
        assert_eq!(again.voices, vec![note]);
        assert_eq!(again.times.len(), 2);
        assert!(again.times.iter().all(|t| t.is_some_and(|t| t >= before)));
        // A rematch keeps the game as a round and starts afresh behind the same id.
        let mut next = transcript(vec![]);
        next.seed = 9;
        assert!(store.rematch("v", 1, &next).is_err());
        store.rematch("v", 2, &next).unwrap();
        let again = &store.all().unwrap()[0];
        assert_eq!(again.transcript, next);
        assert_eq!(again.rounds.len(), 1);
        assert_eq!(again.rounds[0].transcript, transcript(vec![1, 2]));
        assert_eq!(again.rounds[0].times.len(), 2);
        assert_eq!(again.voices.len(), 1);
        assert!(store.delete("v").unwrap());
        let conn = store.conn().unwrap();
        for table in ["voices", "rounds", "moves"] {
            let left: i64 = conn
                .query_row(&format!("SELECT COUNT(*) FROM {table}"), [], |r| r.get(0))
                .unwrap();
            assert_eq!(left, 0, "{table}");
        }
    }

    #[test]
    fn a_batch_commits_each_save_that_holds_and_refuses_each_stale_one_alone() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("tables.sqlite");
        let store = Sqlite::open(&path).unwrap();
        for id in ["a", "b", "c"] {
            store
                .create(&StoredTable {
                    id: id.into(),
                    data_version: "v1".into(),
                    transcript: transcript(vec![]),
                    tokens: vec![(None, format!("t{id}"))],
                    created: 5,
                    closed: None,
                    times: vec![],
                    voices: vec![],
                    rounds: vec![],
                })
                .unwrap();
        }
        let save = |id: &str, expected, moves| Save {
            id: id.into(),
            expected,
            transcript: transcript(moves),
        };
        let results = store.save_batch(&[
            save("a", 0, vec![1]),
            save("b", 3, vec![2]),
            save("c", 0, vec![4, 5]),
            save("a", 1, vec![1, 6]),
        ]);
        assert!(results[0].is_ok() && results[2].is_ok() && results[3].is_ok());
        assert!(results[1].as_ref().unwrap_err().contains("0 moves stored"));
        drop(store);
        let again = Sqlite::open(&path).unwrap().all().unwrap();
        let moves: Vec<Vec<usize>> = again.iter().map(|t| t.transcript.moves.clone()).collect();
        assert_eq!(moves, vec![vec![1, 6], vec![], vec![4, 5]]);
    }

    #[test]
    fn undo_then_moves_store_the_list_as_played_and_a_restart_replaces_it() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("tables.sqlite");
        let store = Sqlite::open(&path).unwrap();
        store
            .create(&StoredTable {
                id: "u".into(),
                data_version: "v1".into(),
                transcript: transcript(vec![7]),
                tokens: vec![],
                created: 1,
                closed: None,
                times: vec![],
                voices: vec![],
                rounds: vec![],
            })
            .unwrap();
        store
            .save_moves("u", 1, &transcript(vec![7, 1, 2]))
            .unwrap();
        store.save_moves("u", 3, &transcript(vec![7])).unwrap();
        store.save_moves("u", 1, &transcript(vec![7, 5])).unwrap();
        let moves = |s: &Sqlite| s.all().unwrap()[0].transcript.moves.clone();
        assert_eq!(moves(&store), vec![7, 5]);
        store.restart("u", 2, "v2", &transcript(vec![])).unwrap();
        assert_eq!(moves(&store), Vec::<usize>::new());
        assert!(store.restart("u", 2, "v3", &transcript(vec![])).is_err());
        store.save_moves("u", 0, &transcript(vec![9])).unwrap();
        drop(store);
        let again = Sqlite::open(&path).unwrap().all().unwrap();
        assert_eq!(again[0].transcript.moves, vec![9]);
        assert_eq!(again[0].data_version, "v2");
    }

    #[test]
    fn a_database_that_kept_whole_transcripts_opens_with_its_moves_as_rows() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("tables.sqlite");
        {
            // Layout 1: the whole transcript, moves included, in `tables.transcript`.
            let conn = Connection::open(&path).unwrap();
            conn.execute_batch(
                "CREATE TABLE tables (id TEXT PRIMARY KEY, game TEXT NOT NULL,
                     data_version TEXT NOT NULL, created INTEGER NOT NULL,
                     moves INTEGER NOT NULL, transcript TEXT NOT NULL);
                 CREATE TABLE tokens (digest TEXT PRIMARY KEY,
                     table_id TEXT NOT NULL REFERENCES tables(id), seat INTEGER);
                 PRAGMA user_version = 1;",
            )
            .unwrap();
            conn.execute(
                "INSERT INTO tables VALUES ('old', 'the-search', 'v1', 1, 3, ?1)",
                [transcript(vec![2, 0, 4]).to_toml()],
            )
            .unwrap();
        }
        let store = Sqlite::open(&path).unwrap();
        assert_eq!(
            store.all().unwrap()[0].transcript,
            transcript(vec![2, 0, 4])
        );
        store
            .save_moves("old", 3, &transcript(vec![2, 0, 4, 1]))
            .unwrap();
        drop(store);
        let conn = Connection::open(&path).unwrap();
        let text: String = conn
            .query_row("SELECT transcript FROM tables", [], |r| r.get(0))
            .unwrap();
        assert_eq!(text, transcript(vec![]).to_toml());
        let version: i64 = conn
            .query_row("PRAGMA user_version", [], |r| r.get(0))
            .unwrap();
        assert_eq!(version, SCHEMA);
        drop(conn);
        let again = Sqlite::open(&path).unwrap().all().unwrap();
        assert_eq!(again[0].transcript.moves, vec![2, 0, 4, 1]);
    }
}
