//! The simulator: same seed same JSON whatever the thread count, shards merge into exactly
//! the unsharded totals, and a replay is the very game the simulator played.

use std::path::Path;

use printplay::model::{Game, load_game};
use printplay::simulate::{Shard, SimFile, SimOptions, merge_files, replay, simulate};

fn capek() -> Game {
    let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("data");
    load_game(&data, "capek-golems").expect("shipped data loads")
}

fn opts(games: u64, bots: &[&str]) -> SimOptions {
    SimOptions {
        games,
        seed: 42,
        bots: bots.iter().map(|b| b.to_string()).collect(),
        ..Default::default()
    }
}

fn sharded(o: &SimOptions, index: u64, count: u64) -> SimOptions {
    SimOptions {
        shard: Shard { index, count },
        ..o.clone()
    }
}

fn json_with_threads(threads: usize, o: &SimOptions) -> String {
    let game = capek();
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .unwrap()
        .install(|| simulate(&game, o, None).unwrap().to_json())
}

#[test]
fn same_seed_same_json_whatever_the_thread_count() {
    let o = opts(300, &["random", "heuristic"]);
    let one = json_with_threads(1, &o);
    assert_eq!(one, json_with_threads(3, &o));
    assert_eq!(one, json_with_threads(8, &o));
    let other_seed = SimOptions { seed: 43, ..o };
    assert_ne!(one, json_with_threads(2, &other_seed));
}

#[test]
fn shards_merge_into_exactly_the_unsharded_run() {
    let game = capek();
    let o = opts(250, &["random"]);
    let whole = simulate(&game, &o, None).unwrap();
    let shards: Vec<SimFile> = (0..3)
        .map(|i| {
            // Through JSON, as `printplay merge` reads them.
            let text = simulate(&game, &sharded(&o, i, 3), None).unwrap().to_json();
            SimFile::from_json(&text, "shard").unwrap()
        })
        .collect();
    let games: u64 = shards.iter().map(|s| s.runs[0].stats.games).sum();
    assert_eq!(games, 250);
    let merged = merge_files(&shards).unwrap();
    assert_eq!(merged.to_json(), whole.to_json());
    // A shard given twice is refused; a partial merge is not a whole run.
    assert!(merge_files(&[shards[0].clone(), shards[0].clone()]).is_err());
    let partial = merge_files(&shards[..2]).unwrap();
    assert_eq!(partial.runs[0].shards, vec![0, 1]);
}

#[test]
fn merging_shards_of_different_runs_is_refused() {
    let game = capek();
    let o = opts(20, &["random"]);
    let a = simulate(&game, &sharded(&o, 0, 2), None).unwrap();
    let other = SimOptions { seed: 7, ..o };
    let b = simulate(&game, &sharded(&other, 1, 2), None).unwrap();
    assert!(merge_files(&[a, b]).is_err());
}

#[test]
fn replay_is_the_simulated_game() {
    let game = capek();
    let o = opts(5, &["heuristic", "random"]);
    for k in [0u64, 3] {
        // The simulation's game k alone: shard k of k+1 over k+1 games.
        let alone = SimOptions {
            games: k + 1,
            ..sharded(&o, k, k + 1)
        };
        let run = &simulate(&game, &alone, None).unwrap().runs[0];
        assert_eq!(run.stats.games, 1);
        let lines = replay(&game, &o, k).unwrap();
        let moves = *run.stats.lengths.keys().next().unwrap();
        let last = lines.last().unwrap();
        assert!(
            last.contains(&format!("after {moves} moves")),
            "simulated {moves} moves, replay says: {last}"
        );
        let numbered = lines
            .iter()
            .filter(|l| !l.contains('*') && l.trim_start().starts_with(char::is_numeric))
            .count();
        assert_eq!(numbered as u32, moves, "one line per move");
        let reason = run.stats.end_reasons.keys().next().unwrap();
        assert!(last.contains(reason.as_str()), "{reason} / {last}");
        for (seat, points) in run.stats.seat_points.iter().enumerate() {
            let result = if *points > 0 { 1 } else { 0 };
            let bot = if (seat as u64 + k).is_multiple_of(2) {
                "heuristic"
            } else {
                "random"
            };
            assert!(
                last.contains(&format!("seat {} ({bot}) {result}", seat + 1)),
                "seat {seat} scored {points}: {last}"
            );
        }
    }
    // Same seed, same words.
    assert_eq!(replay(&game, &o, 2).unwrap(), replay(&game, &o, 2).unwrap());
}

#[test]
fn compare_runs_both_readings_on_the_same_seeds() {
    let game = capek();
    let o = opts(200, &["heuristic"]);
    let readings =
        |a: &str, b: &str| Some(("short-hand-draw".to_string(), vec![a.into(), b.into()]));
    let file = simulate(&game, &o, readings("should", "may")).unwrap();
    assert_eq!(file.runs.len(), 2);
    assert_eq!(file.runs[0].variants["short-hand-draw"], "should");
    assert_eq!(file.runs[1].variants["short-hand-draw"], "may");
    let d = file
        .differences
        .iter()
        .find(|d| d.measure == "seat 1 win rate")
        .unwrap();
    assert!(d.low <= d.difference && d.difference <= d.high);
    let r = &file.runs;
    let expected = r[1].summary.seat_win_rates[0].rate - r[0].summary.seat_win_rates[0].rate;
    assert!((d.difference - expected).abs() < 1e-12);
    // The first reading is the default: it equals a plain run.
    let plain = simulate(&game, &o, None).unwrap();
    assert_eq!(plain.runs[0].stats, file.runs[0].stats);
    // A reading the engine does not know is an error, not a silent default.
    assert!(simulate(&game, &o, readings("should", "never")).is_err());
}

#[test]
fn bad_bots_and_seats_are_errors() {
    let game = capek();
    for bots in [
        &["nobody"][..],
        &["mcts:0"],
        &["random", "random", "random"],
    ] {
        assert!(simulate(&game, &opts(2, bots), None).is_err(), "{bots:?}");
    }
    let three = SimOptions {
        players: 3,
        ..opts(2, &["random"])
    };
    assert!(simulate(&game, &three, None).is_err());
}

#[test]
fn mcts_plays_legal_games_to_the_end() {
    let game = capek();
    let file = simulate(&game, &opts(4, &["mcts:30", "heuristic"]), None).unwrap();
    let stats = &file.runs[0].stats;
    assert_eq!(stats.games, 4);
    assert_eq!(stats.bots["mcts:30"].seats, 4);
}

#[test]
fn charts_are_written_atomically_under_the_game() {
    let game = capek();
    let dir = tempfile::tempdir().unwrap();
    let file = simulate(&game, &opts(30, &["random"]), None).unwrap();
    let written = printplay::simulate::write_charts(&file, dir.path()).unwrap();
    assert_eq!(written.len(), 2);
    for p in &written {
        assert!(p.starts_with(dir.path().join("capek-golems/sim")));
        let svg = std::fs::read_to_string(p).unwrap();
        assert!(svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"));
    }
    let rates = std::fs::read_to_string(&written[1]).unwrap();
    assert!(rates.contains("seat 1") && rates.contains("95 %"));
}

/// The harness any engine can use, run on every engine this build registers.
#[test]
fn every_registered_engine_passes_the_random_play_harness() {
    use printplay::engine::Engine;
    use printplay::engine::testing::{Plan, random_play};
    use printplay::simulate::{EngineTask, config_for, with_engine};

    struct Harness;
    impl EngineTask for Harness {
        type Output = u64;
        fn run<E: Engine>(self, engine: E, _game: &Game) -> Result<u64, String> {
            let config = config_for(&engine, &SimOptions::default())?;
            let plan = Plan {
                games: 200,
                seed: 5,
                cap: printplay::simulate::DEFAULT_MAX_MOVES,
                deep_games: 20,
            };
            Ok(random_play(&engine, &config, plan, |_| Ok(()))?.games)
        }
    }
    let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("data");
    let mut tested = Vec::new();
    for slug in printplay::model::game_slugs(&data).unwrap() {
        let game = load_game(&data, &slug).unwrap();
        let known = game
            .info
            .engine
            .as_deref()
            .is_some_and(|id| printplay::simulate::ENGINES.contains(&id));
        if known {
            assert_eq!(with_engine(&game, Harness), Ok(200), "{slug}");
            tested.push(slug);
        }
    }
    assert!(tested.contains(&"capek-golems".to_string()), "{tested:?}");
}
