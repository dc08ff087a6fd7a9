//! Tables, their tokens, moves and rounds in one SQLite file: [`Store`] for [`Sqlite`].

use std::sync::Mutex;

use rusqlite::{Connection, OptionalExtension, params};

use super::{Round, Save, Store, StoredTable, Voice, head, now, now_ms};
use crate::play::Transcript;

/// Tables in one SQLite file.
pub struct Sqlite {
    pub(super) conn: Mutex<Connection>,
    pub(super) name: String,
}

impl Sqlite {
    pub(super) fn read_transcript(&self, id: &str, text: &str) -> Result<Transcript, String> {
        toml::from_str(text).map_err(|e| self.err(format!("table {id}: {e}")))
    }

    /// Stores `moves[from..]` as the table's moves from the `from`th on (those before it are
    /// stored already), stored `at` (milliseconds since 1970; `None`: unknown).
    pub(super) fn write_moves(
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

    pub(super) fn conn(&self) -> Result<std::sync::MutexGuard<'_, Connection>, String> {
        self.conn
            .lock()
            .map_err(|_| format!("{}: the connection is poisoned", self.name))
    }

    pub(super) fn err(&self, e: impl std::fmt::Display) -> String {
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
        let mut voices = conn.prepare(Voice::SELECT).map_err(|e| self.err(e))?;
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
                .query_map([&id], Voice::from_row)
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
        voice.insert(&tx, id).map_err(|e| self.err(e))?;
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
