//! The database's layout: made when it is opened; a database of an earlier layout is
//! brought to this one.

use std::path::Path;
use std::sync::Mutex;

use rusqlite::{Connection, params};

use super::{Sqlite, head, token_digest};

/// The layout of the database: 1 keeps token digests (0, before it, the tokens); 2 keeps each
/// move as a row of `moves` and, in `tables.transcript`, the transcript without its moves (1
/// kept the whole transcript there, written again on every move); 3 keeps when each table was
/// last active (`active`: made, moved at, restarted, closed) and when it was closed (`closed`),
/// for tables to expire; 4 keeps when each move was stored (`moves.at`, milliseconds since
/// 1970), the testers' chat and notes (`voices`) and the games played before a rematch
/// (`rounds`).
pub(super) const SCHEMA: i64 = 4;

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
}
