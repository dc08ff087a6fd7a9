//! The simulator: same seed same JSON whatever the thread count, shards merge into exactly
//! the unsharded totals, and a replay is the very game the simulator played.

use std::path::Path;

use printplay::model::{Game, load_game};
use printplay::simulate::{Shard, SimFile, SimOptions, merge_files, replay, simulate};
use serde_json::Value;

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
    let shards: Vec<(String, SimFile)> = (0..3)
        .map(|i| {
            // Through JSON, as `printplay merge` reads them.
            let text = simulate(&game, &sharded(&o, i, 3), None).unwrap().to_json();
            let name = format!("shard-{}.json", i + 1);
            let file = SimFile::from_json(&text, &name).unwrap();
            (name, file)
        })
        .collect();
    let games: u64 = shards.iter().map(|s| s.1.runs[0].stats.games).sum();
    assert_eq!(games, 250);
    let merged = merge_files(&shards).unwrap();
    assert_eq!(merged.to_json(), whole.to_json());
    // A shard given twice is refused, and so is a gap: a partial merge is not the run.
    let twice = merge_files(&[shards[0].clone(), shards[0].clone()]).unwrap_err();
    assert!(twice.contains("shard 1/3 is given twice"), "{twice}");
    assert!(twice.contains("shard-1.json"), "{twice}");
    let gap = merge_files(&shards[..2]).unwrap_err();
    assert!(gap.contains("shards 3 of 3 are missing"), "{gap}");
    // Shards run with --playtests: the merged run shows their person games once; shards that
    // read other person games are refused.
    let mut persons = printplay::simulate::persons::PersonGames {
        source: "tables.sqlite".into(),
        finished: 1,
        games: 1,
        ..Default::default()
    };
    persons.card_plays.insert("the-engineer".into(), 2);
    let with = |p: &printplay::simulate::persons::PersonGames| {
        let mut s = shards.clone();
        for (_, f) in &mut s {
            f.persons = Some(p.clone());
        }
        s
    };
    let merged = merge_files(&with(&persons)).unwrap();
    assert_eq!(merged.persons.as_ref(), Some(&persons));
    let mut other = with(&persons);
    other[2].1.persons.as_mut().unwrap().finished = 2;
    let refused = merge_files(&other).unwrap_err();
    assert!(
        refused.contains("shard-3.json shows other person games"),
        "{refused}"
    );
}

#[test]
fn merging_shards_of_different_runs_is_refused() {
    let game = capek();
    let o = opts(20, &["random"]);
    let a = simulate(&game, &sharded(&o, 0, 2), None).unwrap();
    let other = SimOptions {
        seed: 7,
        ..o.clone()
    };
    let b = simulate(&game, &sharded(&other, 1, 2), None).unwrap();
    let err = merge_files(&[("a.json".into(), a.clone()), ("b.json".into(), b)]).unwrap_err();
    // The message names the file that differs, the file it differs from, and in what.
    assert!(
        err.starts_with("b.json is not a shard of the run in a.json: seed 42 against 7"),
        "{err}"
    );
    // A difference the old message hid (it printed game, seed, games and shard count only).
    let bots = SimOptions {
        bots: vec!["heuristic".into()],
        ..o.clone()
    };
    let c = simulate(&game, &sharded(&bots, 1, 2), None).unwrap();
    let err = merge_files(&[("a.json".into(), a), ("c.json".into(), c)]).unwrap_err();
    assert!(err.contains("c.json") && err.contains("bots"), "{err}");
    let what = err.split(" (").next().unwrap();
    assert!(!what.contains("seed"), "only what differs: {err}");
}

#[test]
fn merge_names_the_odd_file_even_when_it_sorts_first() {
    // Shards 1 and 2 of a run, and a shard 3 of another seed whose name sorts before them:
    // the odd one is the file that differs from the others, not the first file given.
    let game = capek();
    let o = opts(30, &["random"]);
    let shard = |o: &SimOptions, i| simulate(&game, &sharded(o, i, 3), None).unwrap();
    let other = SimOptions {
        seed: 7,
        ..o.clone()
    };
    let files = [
        ("0-odd.json".to_string(), shard(&other, 2)),
        ("shard-1.json".to_string(), shard(&o, 0)),
        ("shard-2.json".to_string(), shard(&o, 1)),
    ];
    let err = merge_files(&files).unwrap_err();
    assert!(
        err.starts_with("0-odd.json is not a shard of the run in shard-1.json: seed 42 against 7"),
        "{err}"
    );
    // Wherever it sorts.
    for order in [[1, 0, 2], [1, 2, 0]] {
        let files: Vec<_> = order.iter().map(|&i| files[i].clone()).collect();
        let err = merge_files(&files).unwrap_err();
        assert!(
            err.starts_with("0-odd.json is not a shard"),
            "{order:?}: {err}"
        );
    }
}

#[test]
fn replay_is_the_simulated_game() {
    let game = capek();
    let o = opts(5, &["heuristic", "random"]);
    for k in [0u64, 3] {
        // The simulation's game k alone: shard k+1 of k+1 over k+1 games.
        let alone = SimOptions {
            games: k + 1,
            ..sharded(&o, k, k + 1)
        };
        let run = &simulate(&game, &alone, None).unwrap().runs[0];
        assert_eq!(run.stats.games, 1);
        let r = replay(&game, &o, k, None).unwrap();
        let moves = *run.stats.moves.games_by_length.keys().next().unwrap();
        assert_eq!(r.moves, moves);
        let numbered: Vec<u32> = r.steps.iter().filter_map(|s| s.number).collect();
        assert_eq!(
            numbered,
            (1..=moves).collect::<Vec<_>>(),
            "one step per move"
        );
        let reason = run.stats.end_reasons.keys().next().unwrap();
        assert_eq!(&r.ending, reason);
        for (seat, points) in run.stats.seat_points.iter().enumerate() {
            let score = &r.scores[seat];
            assert_eq!(score.result * 1e6, *points as f64, "seat {seat}");
            let bot = if (seat as u64 + k).is_multiple_of(2) {
                "heuristic"
            } else {
                "random"
            };
            assert_eq!(score.bot, bot);
        }
        let text = r.text();
        assert!(
            text.contains(&format!("end: {reason} after {moves} moves")),
            "{text}"
        );
    }
    // Same seed, same words.
    let again = |k| replay(&game, &o, k, None).unwrap().text();
    assert_eq!(again(2), again(2));
}

/// After every move the replay shows the table as it is then: Capek's outrage and Auction
/// House change with the moves that change them, and each hand is shown only to its seat.
#[test]
fn replay_shows_the_table_after_every_move() {
    let game = capek();
    let o = opts(1, &["heuristic"]);
    let all = replay(&game, &o, 0, None).unwrap();
    assert!(!all.steps.is_empty());
    let mut outrage_seen = all.setup.public.clone();
    let mut pending: Option<String> = None;
    for step in &all.steps {
        assert!(step.after.public.contains("public outrage"), "{step:?}");
        assert!(step.after.public.contains("auction house:"), "{step:?}");
        assert_eq!(step.after.hands.len(), 2, "an onlooker sees both hands");
        assert!(
            !step.action.contains('{') && !step.action.contains("Some("),
            "{step:?}"
        );
        assert!(
            !step.after.public.contains("phase"),
            "no debug text: {step:?}"
        );
        // A move that names an outrage change shows the new level once its research markers
        // are placed (Play 1A: markers first, then the outrage marker moves), before the next
        // move that names one.
        if pending
            .as_deref()
            .is_some_and(|before| before != outrage_line(&step.after.public))
        {
            pending = None;
        }
        // A move of +0 (a card whose outrage is 0), or down from the track's floor, names no
        // change.
        let delta = step
            .action
            .split_once("outrage ")
            .and_then(|(_, d)| d.parse::<i32>().ok());
        let level = |public: &str| {
            outrage_line(public)
                .split_once("public outrage ")
                .and_then(|(_, l)| l.split(' ').next()?.parse::<i32>().ok())
        };
        let moves =
            delta.is_some_and(|d| level(&outrage_seen).is_some_and(|l| (l + d).max(0) != l));
        if moves {
            assert!(pending.is_none(), "outrage never moved before {step:?}");
            let before = outrage_line(&outrage_seen).to_string();
            if before == outrage_line(&step.after.public) {
                pending = Some(before);
            }
        }
        outrage_seen = step.after.public.clone();
    }
    let chance = all.steps.iter().filter(|s| s.number.is_none()).count();
    assert!(chance > 0, "cards dealt are named as chance events");
    assert!(
        all.steps
            .iter()
            .any(|s| s.number.is_none() && s.action.contains("enters the Auction House"))
    );
    // The second player's eyes: only their own hand, the public part unchanged.
    let theirs = replay(&game, &o, 0, Some("2")).unwrap();
    assert_eq!(theirs.observer, "player 2");
    for (mine, all) in theirs.steps.iter().zip(&all.steps) {
        assert_eq!(mine.after.public, all.after.public);
        assert_eq!(mine.after.hands.len(), 1);
        assert_eq!(mine.after.hands[0], all.after.hands[1]);
    }
    assert!(replay(&game, &o, 0, Some("3")).is_err());
    // The JSON holds the same steps.
    let json: Value = serde_json::from_str(&all.to_json()).unwrap();
    assert_eq!(json["steps"].as_array().unwrap().len(), all.steps.len());
    assert_eq!(json["scores"][0]["name"], "player 1");
}

fn outrage_line(public: &str) -> String {
    public.lines().next().unwrap_or_default().to_string()
}

/// The Search: the map with pawns after every move, and the police discarding at random
/// after Questioning Witnesses shown as a chance event.
#[test]
fn search_replay_names_roles_and_random_discards() {
    let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("data");
    let game = load_game(&data, "the-search").unwrap();
    let o = SimOptions {
        seed: 1,
        ..opts(1, &["heuristic", "random"])
    };
    let mut discards = 0;
    for k in 0..6 {
        let r = replay(&game, &o, k, Some("criminal")).unwrap();
        assert_eq!(r.scores[0].name, "criminal");
        assert_eq!(r.scores[1].name, "police");
        for step in &r.steps {
            assert!(step.after.public.contains("map ("), "{step:?}");
            assert_eq!(step.after.hands[0].name, "criminal");
            assert!(step.by == "criminal" || step.by == "police");
        }
        let last = &r.steps.last().unwrap().after.public;
        let map_rows = last.lines().filter(|l| l.starts_with(char::is_numeric));
        assert_eq!(map_rows.clone().count(), 4, "{last}");
        assert!(
            map_rows.clone().any(|l| l.contains('C')),
            "the criminal's pawn is on the map: {last}"
        );
        discards += r
            .steps
            .iter()
            .flat_map(|s| &s.events)
            .filter(|e| e.contains("discards at random"))
            .count();
    }
    assert!(discards > 0, "some random discard in six games");
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
        .find(|d| d.measure == "player 1 win rate")
        .unwrap();
    assert!(d.low <= d.difference && d.difference <= d.high);
    assert_eq!(d.unit, "percentage points");
    let r = &file.runs;
    let rate = |i: usize| r[i].summary.seats[0].win_rate.rate;
    assert!((d.difference - 100.0 * (rate(1) - rate(0))).abs() < 1e-9);
    // Length in moves and in turns, each in its own unit.
    let units: Vec<&str> = file
        .differences
        .iter()
        .filter(|d| d.measure == "mean length")
        .map(|d| d.unit.as_str())
        .collect();
    assert_eq!(units, ["moves", "turns"]);
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
fn charts_are_drawn_for_every_run() {
    let game = capek();
    let file = simulate(&game, &opts(30, &["random"]), None).unwrap();
    let charts = printplay::simulate::charts(&file);
    let names: Vec<&str> = charts.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(names, ["lengths.svg", "win-rates.svg"]);
    for (_, svg) in &charts {
        assert!(svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"));
    }
    let rates = &charts[1].1;
    assert!(rates.contains("player 1") && rates.contains("95 %"));
    let r = &file.runs[0].summary.seats[0].win_rate;
    assert!(
        rates.contains(&format!("{:.1} %</text>", r.rate * 100.0)),
        "each bar carries its value"
    );
}

/// The harness any engine can use, run on every engine this build registers.
#[test]
fn every_registered_engine_passes_the_random_play_harness() {
    use printplay::engine::Engine;
    use printplay::engine::registry::{EngineTask, with_engine};
    use printplay::engine::testing::{Plan, random_play};
    use printplay::simulate::config_for;

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
            .is_some_and(|id| printplay::engine::registry::ENGINES.contains(&id));
        if known {
            assert_eq!(with_engine(&game, Harness), Ok(200), "{slug}");
            tested.push(slug);
        }
    }
    assert!(tested.contains(&"capek-golems".to_string()), "{tested:?}");
}

/// The JSON names every figure: no bare arrays of numbers, no scaled values without their unit.
#[test]
fn json_fields_are_labelled() {
    let game = capek();
    let file = simulate(&game, &opts(40, &["heuristic", "random"]), None).unwrap();
    let json: Value = serde_json::from_str(&file.to_json()).unwrap();
    let run = &json["runs"][0];
    assert_eq!(json["format"], "printplay-sim/4");
    assert_eq!(
        run["seat_names"],
        serde_json::json!(["player 1", "player 2"])
    );
    let seat = &run["summary"]["seats"][0];
    assert_eq!(seat["name"], "player 1");
    for key in ["rate", "low", "high"] {
        assert!(seat["win_rate"][key].is_f64(), "{key}");
    }
    let length = &run["summary"]["length_in_moves"];
    for key in ["games", "mean", "sd", "median", "p90", "max"] {
        assert!(length[key].is_number(), "{key}");
    }
    assert!(run["summary"]["length_in_turns"]["mean"].is_number());
    let outrage = &run["summary"]["end_stats"]["outrage"];
    assert!(
        outrage["mean"].is_number() && outrage["max"].is_number(),
        "{outrage}"
    );
    let rests = &run["rests_on"];
    assert!(rests["reconstructed_values"].as_u64().unwrap() > 0);
    assert!(
        rests["readings"]
            .as_array()
            .unwrap()
            .iter()
            .all(|r| r["default"] == true)
    );
    assert_eq!(rests["bots"][0]["bot"], "heuristic");
    // Scaled totals say their unit in their name.
    assert!(run["stats"]["seat_points_millionths"].is_array());
    assert!(run["stats"]["seat_points"].is_null());
    no_bare_number_arrays(&json["runs"][0]["summary"], "summary");
}

fn no_bare_number_arrays(v: &Value, path: &str) {
    match v {
        Value::Array(items) => {
            assert!(
                !items.iter().any(Value::is_number),
                "{path} is an unlabelled list of numbers"
            );
            for (i, item) in items.iter().enumerate() {
                no_bare_number_arrays(item, &format!("{path}[{i}]"));
            }
        }
        Value::Object(map) => {
            for (k, item) in map {
                no_bare_number_arrays(item, &format!("{path}.{k}"));
            }
        }
        _ => {}
    }
}

/// The report says what the figures rest on and explains its measures.
#[test]
fn the_report_says_what_it_rests_on() {
    let game = capek();
    let o = SimOptions {
        variants: [("short-hand-draw".to_string(), "may".to_string())].into(),
        ..opts(20, &["heuristic"])
    };
    let text = simulate(&game, &o, None).unwrap().text();
    let reconstructed = game
        .unprinted()
        .iter()
        .filter(|p| p.source.is_reconstructed())
        .count();
    assert!(
        text.contains(&format!("rest on: {reconstructed} reconstructed")),
        "{text}"
    );
    assert!(
        text.contains("short-hand-draw=may (not the default)"),
        "{text}"
    );
    assert!(text.contains("bot heuristic: the game's own"), "{text}");
    for term in [
        "95 % interval",
        "balance",
        "decisiveness",
        "first-seat advantage",
    ] {
        assert!(
            text.contains(&format!("  {term}")),
            "{term} explained: {text}"
        );
    }
    assert!(text.contains("in turns"), "{text}");
    // Random Capek play ends almost always in the shared loss, which once read as "balance
    // 1.000" and nothing more: the note says to read balance beside the decisiveness.
    assert!(text.contains("it beside the decisiveness"), "{text}");
}

/// An unknown variant, or an unknown value, is refused with the list of variants.
#[test]
fn unknown_variants_list_the_variants() {
    let game = capek();
    for (name, value) in [("no-such-rule", "x"), ("short-hand-draw", "never")] {
        let o = SimOptions {
            variants: [(name.to_string(), value.to_string())].into(),
            ..opts(2, &["random"])
        };
        let e = simulate(&game, &o, None).unwrap_err();
        assert!(e.contains("short-hand-draw: should (default) | may"), "{e}");
    }
}

fn printplay() -> std::process::Command {
    let mut c = std::process::Command::new(env!("CARGO_BIN_EXE_printplay"));
    c.current_dir(env!("CARGO_MANIFEST_DIR"));
    c
}

/// Runs a command that must be refused as a usage error (exit 2); its standard error.
fn run_refused(c: &mut std::process::Command) -> String {
    let out = c.output().unwrap();
    assert_eq!(out.status.code(), Some(2), "{c:?}");
    String::from_utf8(out.stderr).unwrap()
}

fn run_ok(c: &mut std::process::Command) -> String {
    let out = c.output().unwrap();
    assert!(
        out.status.success(),
        "{c:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// The simulator's cap counts moves, and the report names it so wherever it appears: a game
/// stopped there once ended for "turn cap" in the end reasons.
#[test]
fn games_stopped_at_the_cap_are_named_by_moves() {
    let dir = tempfile::tempdir().unwrap();
    let text = run_ok(printplay().args([
        "simulate",
        "the-search",
        "--games",
        "4",
        "--max-moves",
        "10",
        "--no-charts",
        "--out",
        dir.path().to_str().unwrap(),
    ]));
    assert!(text.contains("stopped at 10 moves"), "{text}");
    let reasons = text
        .split("end reasons:")
        .nth(1)
        .and_then(|r| r.split("\n\n").next())
        .unwrap_or_default();
    assert!(reasons.contains("stopped at the move cap"), "{text}");
    assert!(!text.contains("turn cap"), "{text}");
}

/// `--csv` writes one row per game, numbered as `replay --game` takes them.
#[test]
fn csv_has_a_row_per_game() {
    let dir = tempfile::tempdir().unwrap();
    let csv = dir.path().join("games.csv");
    run_ok(
        printplay()
            .args(["simulate", "the-search", "--games", "12", "--seed", "3"])
            .args([
                "--bots",
                "heuristic,random",
                "--no-charts",
                "--csv",
                csv.to_str().unwrap(),
            ]),
    );
    let text = std::fs::read_to_string(&csv).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 13);
    let header: Vec<&str> = lines[0].split(',').collect();
    for column in [
        "game",
        "criminal bot",
        "police result",
        "winner",
        "moves",
        "turns",
        "end",
    ] {
        assert!(header.contains(&column), "{column}: {header:?}");
    }
    // Every header once: The Search's end statistic `turns` once repeated the column `turns`.
    let mut unique = header.clone();
    unique.sort_unstable();
    unique.dedup();
    assert_eq!(unique.len(), header.len(), "{header:?}");
    let game = header.iter().position(|h| *h == "game").unwrap();
    let moves = header.iter().position(|h| *h == "moves").unwrap();
    let turns = header.iter().position(|h| *h == "turns").unwrap();
    let stat = header
        .iter()
        .position(|h| *h == "turns (end statistic)")
        .unwrap();
    for (i, line) in lines[1..].iter().enumerate() {
        let cells: Vec<&str> = line.split(',').collect();
        assert_eq!(cells.len(), header.len(), "{line}");
        assert_eq!(cells[game], (i + 1).to_string(), "games count from 1");
        assert!(cells[moves].parse::<u32>().unwrap() > 0);
        assert_eq!(cells[turns], cells[stat], "{line}");
    }
}

/// `printplay variants` lists each variant with its values, default and question.
#[test]
fn variants_lists_values_default_and_question() {
    let text = run_ok(printplay().args(["variants", "capek-golems"]));
    assert!(
        text.contains("short-hand-draw: should (default) | may"),
        "{text}"
    );
    assert!(text.contains("open question:"), "{text}");
    let err = run_refused(printplay().args([
        "simulate",
        "capek-golems",
        "--games",
        "1",
        "--variant",
        "nope=1",
    ]));
    assert!(err.contains("short-hand-draw"), "{err}");
}

#[test]
fn variants_without_a_game_lists_every_game() {
    // Imperial Settlers: Aztecs has no game to simulate; its readings are those of the Pray
    // analysis. Listing it once stopped the whole listing before The Search, with exit 2.
    let text = run_ok(printplay().arg("variants"));
    for (game, variant) in [
        ("(aether)", "negative-strength: counts (default) | zero"),
        ("(capek-golems)", "short-hand-draw: should (default) | may"),
        (
            "(imperial-settlers-aztecs)",
            "stored-cards: drawn-only (default) | propitiate",
        ),
        ("(the-search)", "passing: must-act (default) | allowed"),
    ] {
        assert!(text.contains(game), "{game} missing:\n{text}");
        assert!(text.contains(variant), "{variant} missing:\n{text}");
    }
    assert!(
        text.contains("readings of the Pray analysis (printplay analyze imperial-settlers-aztecs"),
        "{text}"
    );
    let one = run_ok(printplay().args(["variants", "imperial-settlers-aztecs"]));
    assert!(
        one.contains("tricolor: stacks (default) | one-per-colour"),
        "{one}"
    );
    // The reference's placeholders are filled in from the data and its Markdown dropped: no
    // `{params.short_hand_below card}` or `*may*` reaches the terminal.
    assert!(!text.contains('{') && !text.contains('*'), "{text}");
    for filled in [
        "fewer than 2 cards should draw 2; a later one says they may.",
        "during a 2-card move marks it too",
        "wounding all 4 officers",
        "The first and third players then play against the second and fourth",
    ] {
        assert!(text.contains(filled), "{filled} missing:\n{text}");
    }
    // `analyze` refuses an unknown reading with the same list.
    let err = run_refused(printplay().args([
        "analyze",
        "imperial-settlers-aztecs",
        "--variant",
        "tricolour=stacks",
    ]));
    assert!(err.contains("has no variant `tricolour`"), "{err}");
    assert!(
        err.contains("stored-cards: drawn-only (default) | propitiate"),
        "{err}"
    );
}

/// A batch task's script and variables, given its 0-based index and, on a resubmission, the
/// tasks resubmitted.
type TaskScript<'a> = dyn Fn(u64, Option<&[u64]>) -> (String, Vec<(String, String)>) + 'a;

/// The command lines of `deploy/` run as a batch system would run them: every task with its
/// variables set, then the merge; the merged report equals the whole run's. The tasks in
/// `failed` fail the first time (they write nothing) and run again as a resubmission:
/// `script(task, Some(failed))` gives their variables then.
///
/// The shard files are named `shard-I.json` with I counted from 1, as the merge's messages
/// count shards: with `shard-3.json` taken away, the merge says shard 3 is missing.
fn run_batch(shell: &str, script: &TaskScript<'_>, merge: &str, shards: u64, failed: &[u64]) {
    let dir = tempfile::tempdir().unwrap();
    let results = dir.path().join("results");
    let bin = Path::new(env!("CARGO_BIN_EXE_printplay")).parent().unwrap();
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let run = |text: &str, vars: &[(String, String)]| {
        let mut c = std::process::Command::new(shell);
        c.arg("-c")
            .arg(text)
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .env("PATH", &path)
            .env("RESULTS", &results)
            .env("GAME", "capek-golems")
            .env("GAMES", "90")
            .env("SEED", "5")
            .env("BOTS", "heuristic,random");
        for (k, v) in vars {
            c.env(k, v);
        }
        run_ok(&mut c);
    };
    for task in (0..shards).filter(|t| !failed.contains(t)) {
        let (text, vars) = script(task, None);
        run(&text, &vars);
    }
    // The merge with shards missing: refused, and says they are missing.
    let refused_merge = |says: &str| {
        let out = std::process::Command::new(shell)
            .arg("-c")
            .arg(merge)
            .env("PATH", &path)
            .env("RESULTS", &results)
            .output()
            .unwrap();
        assert!(!out.status.success());
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(says), "{says}: {err}");
    };
    if !failed.is_empty() {
        // The merge refuses the run with its failed shards missing...
        refused_merge("missing");
        // ...and takes it once they ran again.
        for &task in failed {
            let (text, vars) = script(task, Some(failed));
            run(&text, &vars);
        }
    }
    run(merge, &[]);
    let merged = std::fs::read_to_string(results.join("all.json")).unwrap();
    let whole = dir.path().join("whole.json");
    run_ok(
        printplay()
            .args(["simulate", "capek-golems", "--games", "90", "--seed", "5"])
            .args([
                "--bots",
                "heuristic,random",
                "--no-charts",
                "--json",
                whole.to_str().unwrap(),
            ]),
    );
    assert_eq!(merged, std::fs::read_to_string(whole).unwrap());
    // The files are numbered as people count shards, from 1.
    let mut names: Vec<String> = std::fs::read_dir(results.join("shards"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    let expected: Vec<String> = (1..=shards).map(|i| format!("shard-{i}.json")).collect();
    assert_eq!(names, expected);
    // A gap is refused, and named as the file is: take shard-3.json away and merge again.
    std::fs::remove_file(results.join("shards/shard-3.json")).unwrap();
    refused_merge(&format!("shards 3 of {shards} are missing"));
}

fn deploy_file(path: &str) -> String {
    std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("deploy")
            .join(path),
    )
    .unwrap()
}

/// The shell script inside a manifest's `args: - |` block.
fn manifest_script(yaml: &str) -> String {
    let mut lines = yaml.lines().skip_while(|l| l.trim() != "- |").skip(1);
    let first = lines.next().unwrap();
    let indent = first.len() - first.trim_start().len();
    std::iter::once(first)
        .chain(
            lines.take_while(|l| l.len() - l.trim_start().len() >= indent && !l.trim().is_empty()),
        )
        .map(|l| &l[indent..])
        .collect::<Vec<_>>()
        .join("\n")
}

/// The variables Slurm sets for task `id` of an array of the ids `ids`, plus the run's
/// shard count as the caller exports it.
fn slurm_vars(id: u64, ids: &[u64], shards: u64) -> Vec<(String, String)> {
    [
        ("SLURM_ARRAY_TASK_ID", id),
        ("SLURM_ARRAY_TASK_MIN", *ids.iter().min().unwrap()),
        ("SLURM_ARRAY_TASK_MAX", *ids.iter().max().unwrap()),
        ("SLURM_ARRAY_TASK_COUNT", ids.len() as u64),
        ("PRINTPLAY_SHARDS", shards),
    ]
    .iter()
    .map(|(k, v)| (k.to_string(), v.to_string()))
    .collect()
}

#[test]
fn slurm_array_shards_merge_into_the_whole_run() {
    let sbatch = deploy_file("slurm/simulate.sbatch");
    assert!(sbatch.contains("#SBATCH --array=1-32"), "{sbatch}");
    assert!(
        sbatch.contains("PRINTPLAY_SHARDS=\"${PRINTPLAY_SHARDS:-32}\""),
        "the script's default shard count is its array's size: {sbatch}"
    );
    // Arrays counted from 1, as the script's --array=1-N; tasks 2 and 4 of 4 fail and are
    // resubmitted as `sbatch --array=2,4`, a two-task array from 2 to 4.
    let all: Vec<u64> = (1..=4).collect();
    run_batch(
        "bash",
        &|task, rerun| {
            let ids: Vec<u64> = match rerun {
                Some(failed) => failed.iter().map(|t| t + 1).collect(),
                None => all.clone(),
            };
            (sbatch.clone(), slurm_vars(task + 1, &ids, 4))
        },
        &deploy_file("slurm/merge.sbatch"),
        4,
        &[1, 3],
    );
}

#[test]
fn kubernetes_indexed_job_shards_merge_into_the_whole_run() {
    let job = manifest_script(&deploy_file("kubernetes/simulate-job.yaml"));
    let merge = manifest_script(&deploy_file("kubernetes/merge-job.yaml"));
    assert!(job.contains("--shard auto"), "{job}");
    run_batch(
        "sh",
        &|index, _| {
            let vars = vec![
                ("JOB_COMPLETION_INDEX".to_string(), index.to_string()),
                ("PRINTPLAY_SHARDS".to_string(), "4".to_string()),
            ];
            (job.clone(), vars)
        },
        &merge,
        4,
        &[],
    );
}

/// The Kubernetes manifests start on a real cluster: the image is the crate's version, never
/// `:latest` (which a cluster always pulls), pulled only when the node lacks it; and the
/// manifests validate against the Kubernetes API schema (kubernetes-validate, from PyPI, where
/// installed; `.ci/run` installs it).
#[test]
fn kubernetes_manifests_name_a_versioned_image_and_validate() {
    let version = env!("CARGO_PKG_VERSION");
    for file in ["kubernetes/simulate-job.yaml", "kubernetes/merge-job.yaml"] {
        let yaml = deploy_file(file);
        let images: Vec<&str> = yaml
            .lines()
            .filter_map(|l| l.trim().strip_prefix("image: "))
            .collect();
        assert_eq!(images, [format!("printplay:{version}")], "{file}");
        let policies: Vec<&str> = yaml
            .lines()
            .filter_map(|l| l.trim().strip_prefix("imagePullPolicy: "))
            .collect();
        assert_eq!(policies, ["IfNotPresent"], "{file}");
    }
    assert!(
        deploy_file("Dockerfile").contains(&format!("-t printplay:{version} ")),
        "the Dockerfile's build line tags the image the manifests name"
    );
    // kind's and minikube's default storage offer only ReadWriteOnce: the results volume asks
    // for it, and the simulation Job keeps its pods on one node so that they can all mount it.
    let volume = deploy_file("kubernetes/results-volume.yaml");
    assert!(
        volume.contains("accessModes: [\"ReadWriteOnce\"]"),
        "{volume}"
    );
    let job = deploy_file("kubernetes/simulate-job.yaml");
    let label = "app.kubernetes.io/name: printplay-sim";
    assert_eq!(
        job.matches(label).count(),
        2,
        "a pod label and the affinity's selector: {job}"
    );
    let affinity = &job[job.find("podAffinity:").expect("the Job's podAffinity")..];
    assert!(
        affinity.contains("requiredDuringSchedulingIgnoredDuringExecution")
            && affinity.contains(label)
            && affinity.contains("topologyKey: kubernetes.io/hostname"),
        "{affinity}"
    );
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("deploy/kubernetes");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    assert_eq!(files.len(), 3);
    match std::process::Command::new("kubernetes-validate")
        .arg("--strict")
        .args(&files)
        .output()
    {
        Ok(out) => assert!(
            out.status.success(),
            "kubernetes-validate:\n{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        ),
        Err(_) => eprintln!(
            "skipped: kubernetes-validate is not installed (pip install kubernetes-validate)"
        ),
    }
}

/// `--shard I/N` counts from 1 on the command line; `merge` takes a folder or a pattern.
#[test]
fn cli_shards_count_from_one_and_merge_takes_patterns() {
    let dir = tempfile::tempdir().unwrap();
    for i in 1..=2 {
        let json = dir.path().join(format!("part-{i}.json"));
        run_ok(
            printplay()
                .args(["simulate", "capek-golems", "--games", "30", "--no-charts"])
                .args([
                    "--shard",
                    &format!("{i}/2"),
                    "--json",
                    json.to_str().unwrap(),
                ]),
        );
    }
    let pattern = dir.path().join("part-*.json");
    let merged = run_ok(printplay().args(["merge", pattern.to_str().unwrap()]));
    assert!(merged.contains("30 games"), "{merged}");
    let err = run_refused(printplay().args([
        "simulate",
        "capek-golems",
        "--games",
        "3",
        "--shard",
        "0/2",
    ]));
    assert!(err.contains("counted from 1"), "{err}");
}

/// The random bot plays on the game itself, skipping the determinized copy: every engine's
/// `skip_determinize` must draw what `determinize` draws, so a seeded game is the same game
/// either way. Checked against the old loop (determinize, then a random move on the copy).
#[test]
fn random_bots_play_the_same_games_without_a_view() {
    use printplay::engine::registry::{EngineTask, with_engine};
    use printplay::engine::{Engine, State, Turn};
    use printplay::simulate::{config_for, game_rng, play_game};

    struct Same;
    impl EngineTask for Same {
        type Output = ();
        fn run<E: Engine>(self, engine: E, game: &Game) -> Result<(), String> {
            let o = SimOptions {
                seed: 9,
                ..opts(40, &["random"])
            };
            let config = config_for(&engine, &o)?;
            for index in 0..40 {
                let mut rng = game_rng(o.seed, index);
                let mut s = engine.new_game(&config, &mut rng)?;
                while s.turn() != Turn::Terminal && s.moves_played() < o.max_moves {
                    let action = match s.turn() {
                        Turn::Player(p) => s.determinize(p, &mut rng).random_action(&mut rng),
                        _ => s.sample_chance(&mut rng),
                    };
                    s.apply(action);
                }
                let fast = play_game(&engine, &config, &o, index, |_, _| {})?;
                assert_eq!(fast.moves, s.moves_played(), "{} game {index}", game.slug);
                if !fast.timeout {
                    assert_eq!(fast.returns, s.returns(), "{} game {index}", game.slug);
                    assert_eq!(fast.end_stats, s.end_stats(), "{} game {index}", game.slug);
                }
            }
            Ok(())
        }
    }
    let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("data");
    for slug in printplay::model::game_slugs(&data).unwrap() {
        let game = load_game(&data, &slug).unwrap();
        let known = game
            .info
            .engine
            .as_deref()
            .is_some_and(|id| printplay::engine::registry::ENGINES.contains(&id));
        if known {
            with_engine(&game, Same).unwrap();
        }
    }
}

/// No replay line of any simulated game shows debug text (a struct's braces, `Some(`, an
/// enum's name), over several seeded games and both observers.
#[test]
fn replays_show_no_debug_text() {
    let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("data");
    for slug in ["capek-golems", "the-search", "aether"] {
        let game = load_game(&data, slug).unwrap();
        let o = SimOptions {
            seed: 1,
            bots: vec!["heuristic".into(), "random".into()],
            ..Default::default()
        };
        for k in 0..3 {
            for observer in [None, Some("1")] {
                let text = replay(&game, &o, k, observer).unwrap().text();
                for line in text.lines() {
                    for debug in ["{", "}", "Some(", "None", "Phase", "Decide"] {
                        assert!(!line.contains(debug), "{slug} game {k}: {line}");
                    }
                }
            }
        }
    }
}

/// A replay ends with the final scores: Aether's each seat's points (Pelin loppu ja
/// pisteytys: the aether tiles each controls plus three points for every elemental not played
/// on the board, sacrificed ones included), the winner the one with the most; a game only won
/// or lost (The Search) names the outcome and shows no points.
#[test]
fn replays_end_with_the_final_scores() {
    let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("data");
    let aether = load_game(&data, "aether").unwrap();
    let o = SimOptions {
        seed: 1,
        bots: vec!["heuristic".into()],
        ..Default::default()
    };
    for k in 0..4 {
        let r = replay(&aether, &o, k, None).unwrap();
        let points: Vec<i64> = r.scores.iter().map(|s| s.points.unwrap()).collect();
        let best = *points.iter().max().unwrap();
        for s in &r.scores {
            let top = s.points == Some(best);
            assert_eq!(top, s.result > 0.0, "game {k}: {points:?} {:?}", s.result);
        }
        let margin = r
            .end_stats
            .iter()
            .find(|(k, _)| k == "score margin")
            .unwrap()
            .1;
        let low = *points.iter().min().unwrap();
        assert_eq!((best - low) as f64, margin, "game {k}: {points:?}");
        let text = r.text();
        let end = text.split("\nend: ").nth(1).unwrap();
        for s in &r.scores {
            let line = format!(
                "  {} ({}): {}, ",
                s.name,
                s.bot,
                printplay::messages::count(s.points.unwrap(), "point", "points")
            );
            assert!(end.contains(&line), "game {k}: {line} missing:\n{end}");
        }
        assert!(r.to_json().contains("\"points\": "), "game {k}");
    }
    let search = load_game(&data, "the-search").unwrap();
    let r = replay(&search, &o, 0, None).unwrap();
    assert!(r.scores.iter().all(|s| s.points.is_none()));
    let text = r.text();
    let won = r.scores.iter().find(|s| s.result == 1.0).unwrap();
    assert!(
        text.contains(&format!("  {} (heuristic): won (result 1)", won.name)),
        "{text}"
    );
    assert!(text.contains("(heuristic): lost (result 0)"), "{text}");
    assert!(!r.to_json().contains("\"points\""));
}

/// Aether's replay numbers the turns and shows a seat's tiles behind its screen only to that
/// seat: the public view gives every seat's tile count, never its tiles.
#[test]
fn aether_replay_numbers_turns_and_hides_other_screens() {
    let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("data");
    let game = load_game(&data, "aether").unwrap();
    let o = SimOptions {
        seed: 1,
        bots: vec!["heuristic".into()],
        ..Default::default()
    };
    let yellow = replay(&game, &o, 0, Some("1")).unwrap();
    assert!(yellow.setup.public.starts_with("turn 1, yellow to act"));
    // A turn places one tile; a swap at its start does not end it (rulebook: Pelivuoro).
    let mut placed = 0;
    let mut swaps = 0;
    for step in yellow.steps.iter().filter(|s| s.number.is_some()) {
        let public = &step.after.public;
        if step.action.contains(" places ") {
            placed += 1;
            if !public.starts_with("game over") {
                assert!(public.starts_with(&format!("turn {placed}, ")), "{public}");
            }
        } else {
            assert!(step.action.contains(" swaps "), "{}", step.action);
            swaps += 1;
            assert!(
                public.starts_with(&format!("turn {}, ", placed + 1)),
                "a swap stays in its turn: {public}"
            );
        }
    }
    let last = &yellow.steps.last().unwrap().after.public;
    assert!(
        last.starts_with(&format!("game over after {placed} turns")),
        "{last}"
    );
    assert_eq!(placed + swaps, yellow.moves as usize);
    // Another seat's drawn tile stays behind its screen: yellow sees only that red drew.
    for step in yellow.steps.iter().filter(|s| s.number.is_none()) {
        if step.action.starts_with("red draws") {
            assert_eq!(step.action, "red draws a tile");
        }
    }
    assert!(
        yellow.steps.iter().any(|s| s.number.is_none()
            && s.action.starts_with("yellow draws ")
            && s.action != "yellow draws a tile"),
        "yellow sees which tiles it draws"
    );
    for step in &yellow.steps {
        assert_eq!(step.after.hands.len(), 1, "only yellow's screen");
        assert_eq!(step.after.hands[0].name, "Yellow");
        assert!(step.after.hands[0].view.starts_with("behind the screen: "));
        assert!(step.after.public.contains("red: "));
        assert!(step.after.public.contains(" behind the screen; "));
        assert!(
            !step.after.public.contains("hand "),
            "no seat's tiles in public"
        );
    }
}

/// Capek: a card dealt into the other player's hand is hidden from the observer; the
/// Auction House deals stay public.
#[test]
fn capek_replay_hides_the_other_hand_s_draws() {
    let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("data");
    let game = load_game(&data, "capek-golems").unwrap();
    let o = SimOptions {
        seed: 3,
        ..Default::default()
    };
    let second = replay(&game, &o, 0, Some("2")).unwrap();
    let chance: Vec<&str> = second
        .steps
        .iter()
        .filter(|s| s.number.is_none())
        .map(|s| s.action.as_str())
        .collect();
    assert!(chance.contains(&"player 1 draws a card"), "{chance:?}");
    assert!(
        chance
            .iter()
            .any(|a| a.ends_with(" enters the Auction House"))
    );
    for a in &chance {
        if a.starts_with("player 1 draws") {
            assert_eq!(*a, "player 1 draws a card");
        }
    }
    assert!(
        chance
            .iter()
            .any(|a| a.starts_with("player 2 draws ") && *a != "player 2 draws a card"),
        "player 2 sees its own cards: {chance:?}"
    );
    let all = replay(&game, &o, 0, None).unwrap();
    assert!(
        all.steps.iter().any(|s| s.number.is_none()
            && s.action.starts_with("player 1 draws ")
            && s.action != "player 1 draws a card"),
        "an onlooker sees every card"
    );
}

/// A replay says which game of the run it is counting from 1 (as `simulate --csv` and shards
/// count), how many players, the run's bots and every variant in effect (the defaults
/// included), in text and JSON: all a reader needs to tell which run's game it is. `replay
/// --game 1` is the library's first game and `--game 0` is refused.
#[test]
fn replay_counts_games_from_1_and_records_players_and_variants() {
    let game = capek();
    let o = SimOptions {
        seed: 3,
        bots: vec!["heuristic".into(), "random".into()],
        variants: [("short-hand-draw".to_string(), "may".to_string())].into(),
        ..Default::default()
    };
    let first = replay(&game, &o, 0, None).unwrap();
    assert_eq!(first.number, 1);
    assert_eq!(first.players, 2);
    assert_eq!(first.variants["short-hand-draw"], "may");
    assert!(
        first.variants.len() > 1,
        "defaults too: {:?}",
        first.variants
    );
    let text = first.text();
    let head: Vec<&str> = text.lines().take(2).collect();
    assert!(
        head[0].starts_with("capek-golems game 1 of seed 3"),
        "{head:?}"
    );
    assert!(
        head[1].starts_with("2 players, bots heuristic,random; variants: "),
        "{head:?}"
    );
    assert!(head[1].contains("short-hand-draw=may"), "{head:?}");
    let cli = run_ok(printplay().args([
        "replay",
        "capek-golems",
        "--seed",
        "3",
        "--bots",
        "heuristic,random",
        "--variant",
        "short-hand-draw=may",
        "--game",
        "1",
        "--json",
    ]));
    assert_eq!(cli, first.to_json());
    let json: Value = serde_json::from_str(&cli).unwrap();
    assert_eq!(json["number"], 1);
    assert_eq!(json["players"], 2);
    assert_eq!(json["bots"], serde_json::json!(["heuristic", "random"]));
    assert_eq!(json["variants"]["short-hand-draw"], "may");
    let refused = run_refused(printplay().args(["replay", "capek-golems", "--game", "0"]));
    assert!(refused.contains("counts games from 1"), "{refused}");
}

/// The win-rate chart accounts for every game: the seats' bars (points), the shared loss and
/// the games stopped at the move cap add up to 100 %, the subtitle counts each outcome, and
/// an outcome no game had gets no bar (The Search, where one side always wins, has no
/// shared-loss bar).
#[test]
fn the_win_rate_chart_accounts_for_every_game() {
    use printplay::simulate::win_rates;
    for (slug, cap) in [("the-search", 40), ("capek-golems", 60), ("aether", 1000)] {
        let game = load_game(Path::new("data"), slug).unwrap();
        let o = SimOptions {
            max_moves: cap,
            ..opts(60, &["random"])
        };
        let file = simulate(&game, &o, None).unwrap();
        let run = &file.runs[0];
        let svg = win_rates(run);
        // Each outcome bar: `<rect ... fill="#6c9a5b"><title>LABEL: R % (...)</title>`.
        let mut total = 0.0;
        let mut labels = Vec::new();
        for (i, _) in svg.match_indices("fill=\"#6c9a5b\"><title>") {
            let title = &svg[i + "fill=\"#6c9a5b\"><title>".len()..];
            let title = &title[..title.find("</title>").unwrap()];
            let (label, rest) = title.rsplit_once(": ").unwrap();
            let rate: f64 = rest.split(' ').next().unwrap().parse().unwrap();
            labels.push(label.to_string());
            total += rate;
        }
        let bars = labels.len() as f64;
        assert!(
            (total - 100.0).abs() <= 0.05 * bars + 1e-9,
            "{slug}: the outcome bars add up to {total} %: {labels:?}"
        );
        let stats = &run.stats;
        assert_eq!(
            labels.iter().any(|l| l.contains("loss")),
            stats.shared_losses > 0,
            "{slug}: {labels:?}"
        );
        assert_eq!(
            labels.iter().any(|l| l.starts_with("stopped at")),
            stats.timeouts > 0,
            "{slug}: {labels:?}"
        );
        // The subtitle counts every game.
        let counted = stats.decided + stats.ties + stats.shared_losses + stats.timeouts;
        assert_eq!(counted, stats.games, "{slug}");
        assert!(
            svg.contains(&format!(
                "{} games: {} won outright",
                stats.games, stats.decided
            )),
            "{slug}: {svg}"
        );
        if slug == "the-search" {
            assert!(stats.timeouts > 0, "a cap low enough to stop some games");
            assert!(!labels.iter().any(|l| l.contains("loss")));
        }
    }
}

/// `replay --json` gives the table as data: typed fields for the shared areas (numbers as
/// numbers, the board or map cell by cell) and, for the observing seat only, its hand; the
/// words stay beside them.
#[test]
fn replay_json_gives_the_table_as_data() {
    for (slug, shared, hand) in [
        ("capek-golems", "auction_house", "hand"),
        ("the-search", "map", "hand"),
        ("aether", "board", "behind_the_screen"),
    ] {
        let game = load_game(Path::new("data"), slug).unwrap();
        let o = opts(3, &["random"]);
        let r = replay(&game, &o, 1, Some("1")).unwrap();
        let json: Value = serde_json::from_str(&r.to_json()).unwrap();
        let steps = json["steps"].as_array().unwrap();
        assert!(steps.len() > 5, "{slug}");
        for step in steps.iter().take(40) {
            let table = &step["after"];
            let data = &table["public_data"];
            assert!(
                data[shared].is_array() || data[shared].is_object(),
                "{slug}: {data}"
            );
            assert!(
                data["turn"].is_u64(),
                "{slug}: the turn is a number: {data}"
            );
            assert!(table["public"].is_string(), "{slug}: the words stay");
            // The observer is seat 1: its hand, as data, and no other.
            let hands = table["hands"].as_array().unwrap();
            assert_eq!(hands.len(), 1, "{slug}");
            assert_eq!(hands[0]["seat"], 1);
            assert!(!hands[0]["data"][hand].is_null(), "{slug}: {}", hands[0]);
        }
        // Every seat's public counts are numbers.
        let last = &steps.last().unwrap()["after"]["public_data"];
        let seats = ["players", "sides", "seats"]
            .iter()
            .find_map(|k| last[*k].as_array())
            .unwrap_or_else(|| panic!("{slug}: no seats in {last}"));
        assert_eq!(seats.len(), 2, "{slug}");
        for seat in seats {
            let counts = ["hand_size", "tiles_behind_screen"]
                .iter()
                .find_map(|k| seat[*k].as_u64());
            assert!(counts.is_some(), "{slug}: {seat}");
        }
    }
}
