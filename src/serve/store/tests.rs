use rusqlite::Connection;

use super::schema::SCHEMA;
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
