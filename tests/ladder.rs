//! What a designer tunes next: a card design's number swept and tuned as `DESIGN.FIELD`
//! (reproducible, re-checked before it plays, refused with the reason), the skill ladder, and
//! the starter game's one real choice, which the heuristic bot makes better than chance.

mod common;

use common::Fixture;
use printplay::model::load_game;
use printplay::simulate::ladder::{LadderOptions, ladder};
use printplay::simulate::{SimOptions, simulate};

const SLUG: &str = "my-game";

/// A data folder with `printplay new my-game --engine lua`.
fn starter() -> Fixture {
    let f = Fixture::with_games(&[]);
    let run = f.run(&["new", SLUG, "--engine", "lua"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    f
}

fn read(path: &std::path::Path) -> Vec<u8> {
    std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

#[test]
fn a_design_fields_sweep_reproduces_and_moves_the_figure_it_should() {
    let f = starter();
    let sweep = |json: &str| {
        let path = f.data().join(json);
        let run = f.run(&[
            "simulate",
            SLUG,
            "--games",
            "60",
            "--seed",
            "3",
            "--sweep",
            "sun-low.value=1,9",
            "--no-charts",
            "--json",
            path.to_str().unwrap(),
        ]);
        assert_eq!(run.code, 0, "{}", run.stderr);
        (read(&path), run.stdout)
    };
    let (a, text) = sweep("a.json");
    let (b, _) = sweep("b.json");
    assert_eq!(a, b, "the same sweep twice, byte for byte");
    assert!(text.contains("sweep of sun-low.value"), "{text}");
    assert!(text.contains("sun-low.value=9"), "{text}");
    let v: serde_json::Value = serde_json::from_slice(&a).unwrap();
    assert_eq!(v["swept"][0], "sun-low.value");
    assert_eq!(v["runs"][1]["params"]["sun-low.value"], "9");
    let points = v["sweep"].as_array().unwrap();
    assert_eq!(points[0]["values"]["sun-low.value"], "1");
    // Morning worth 9 instead of 1: whoever holds it reaches the goal sooner, so the race is
    // shorter on the same seeds.
    let length = |i: usize| points[i]["length"]["mean"].as_f64().unwrap();
    assert!(
        length(1) < length(0) - 0.2,
        "{} then {}",
        length(0),
        length(1)
    );
}

#[test]
fn an_unknown_or_non_numeric_field_is_a_usage_error_naming_the_near_ones() {
    let f = starter();
    for (sweep, says) in [
        ("sun-low.valeu=1,2", "`sun-low.value`"),
        ("sun-lo.value=1,2", "`sun-low`"),
        ("sun-low.suit=1,2", "not a number"),
    ] {
        let run = f.run(&[
            "simulate",
            SLUG,
            "--games",
            "5",
            "--sweep",
            sweep,
            "--no-charts",
        ]);
        assert_eq!(run.code, 2, "{sweep}: {}", run.stderr);
        assert!(run.stderr.contains(says), "{sweep}: {}", run.stderr);
    }
    let run = f.run(&[
        "tune",
        SLUG,
        "--params",
        "sun-low.valeu=1..3",
        "--budget",
        "10",
        "--no-report",
    ]);
    assert_eq!(run.code, 2, "{}", run.stderr);
}

#[test]
fn a_value_that_breaks_an_invariant_is_refused_with_the_reason() {
    let f = starter();
    // The deck must hold 12 cards: a third Morning makes 13.
    let json = f.data().join("refused.json");
    let run = f.run(&[
        "simulate",
        SLUG,
        "--games",
        "5",
        "--sweep",
        "sun-low.count=2,3",
        "--no-charts",
        "--json",
        json.to_str().unwrap(),
    ]);
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert!(run.stderr.contains("sun-low.count=3"), "{}", run.stderr);
    assert!(
        run.stderr.contains("The deck holds 12 cards"),
        "{}",
        run.stderr
    );
    assert!(!json.exists(), "nothing written for a refused sweep");
    // Outside the field's declared range (1 to 9), for `tune` too.
    let run = f.run(&[
        "tune",
        SLUG,
        "--params",
        "sun-low.value=1,10",
        "--budget",
        "10",
        "--no-report",
    ]);
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert!(run.stderr.contains("sun-low.value=10"), "{}", run.stderr);
}

#[test]
fn tune_over_a_design_field_names_it() {
    let f = starter();
    let json = f.data().join("tune.json");
    let run = f.run(&[
        "tune",
        SLUG,
        "--params",
        "sun-low.value=1,5,9",
        "--target",
        "length=6",
        "--budget",
        "300",
        "--seed",
        "2",
        "--no-report",
        "--json",
        json.to_str().unwrap(),
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let v: serde_json::Value = serde_json::from_slice(&read(&json)).unwrap();
    let cands = v["candidates"].as_array().unwrap();
    assert_eq!(cands.len(), 3);
    assert!(
        cands
            .iter()
            .all(|c| c["values"]["sun-low.value"].is_string())
    );
}

#[test]
fn the_starters_heuristic_beats_random_and_its_suit_bonus_matters() {
    let f = starter();
    let game = load_game(f.data(), SLUG).unwrap();
    let o = SimOptions {
        games: 300,
        seed: 1,
        players: 2,
        bots: vec!["heuristic".into(), "random".into()],
        ..Default::default()
    };
    let file = simulate(&game, &o, None).unwrap();
    let run = &file.runs[0];
    let heuristic = run
        .summary
        .bots
        .iter()
        .find(|b| b.bot == "heuristic")
        .unwrap();
    assert!(
        heuristic.win_rate.low > 0.5,
        "the heuristic bot wins more than half: {heuristic:?}"
    );
    // The race is not always the same length.
    assert!(
        run.stats.moves.games_by_length.len() > 2,
        "{:?}",
        run.stats.moves
    );
    // Without the suit bonus a card scores less, so the race lasts longer.
    let compared = simulate(
        &game,
        &SimOptions {
            bots: vec!["random".into()],
            ..o
        },
        Some(("suit-bonus".into(), vec!["on".into(), "off".into()])),
    )
    .unwrap();
    let mean = |i: usize| compared.runs[i].stats.moves.mean();
    assert!(mean(1) > mean(0) + 0.3, "{} then {}", mean(0), mean(1));
}

fn starter_ladder(threads: usize) -> String {
    let f = starter();
    let game = load_game(f.data(), SLUG).unwrap();
    let o = LadderOptions {
        sim: SimOptions {
            games: 150,
            seed: 4,
            ..Default::default()
        },
        levels: vec!["random".into(), "heuristic".into()],
    };
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .unwrap()
        .install(|| ladder(&game, &o).unwrap().to_json())
}

#[test]
fn the_ladder_shows_the_starters_heuristic_beats_random_the_same_on_any_thread_count() {
    let one = starter_ladder(1);
    assert_eq!(one, starter_ladder(2), "the same ladder on 1 and 2 threads");
    let v: serde_json::Value = serde_json::from_str(&one).unwrap();
    assert_eq!(v["format"], "printplay-ladder/1");
    let p = &v["pairings"][0];
    assert_eq!(p["stronger"], "heuristic");
    assert_eq!(p["weaker"], "random");
    assert_eq!(p["games"], 150);
    // Above chance: the heuristic's share of the wins and the skill both exclude it.
    assert!(p["stronger_wins"]["low"].as_f64().unwrap() > 0.5, "{p}");
    assert!(p["skill"]["low"].as_f64().unwrap() > 0.0, "{p}");
    assert_eq!(p["stronger_wins_more"], true);
    // Random among random wins its seat's even share, about half (no shared losses here).
    let even = p["even"]["rate"].as_f64().unwrap();
    assert!((0.35..0.65).contains(&even), "{p}");
    assert_eq!(v["skill"]["value"], p["skill"]["rate"]);
    assert_eq!(v["skill"]["games"], 150);
}

#[test]
fn the_ladder_command_prints_every_pairing_with_its_games_and_refuses_bad_levels() {
    let f = starter();
    let run = f.run(&[
        "ladder",
        SLUG,
        "--levels",
        "random,heuristic",
        "--games",
        "40",
        "--seed",
        "1",
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stdout.contains("heuristic against random"),
        "{}",
        run.stdout
    );
    assert!(run.stdout.contains("skill against luck"), "{}", run.stdout);
    assert!(run.stdout.contains("40 games of each"), "{}", run.stdout);
    for levels in ["random", "random,random", "random,clever"] {
        let run = f.run(&["ladder", SLUG, "--levels", levels, "--games", "4"]);
        assert_eq!(run.code, 2, "{levels}: {}", run.stderr);
    }
}

/// A Rust engine reads the card's value from the model: The Engineer counting for one card in
/// a set instead of two changes Capek's games on the same seeds.
#[test]
fn a_rust_engine_plays_the_swept_card_value() {
    let f = Fixture::with_games(&["capek-golems"]);
    let json = f.data().join("engineer.json");
    let run = f.run(&[
        "simulate",
        "capek-golems",
        "--games",
        "30",
        "--seed",
        "1",
        "--bots",
        "heuristic",
        "--sweep",
        "the-engineer.value=1,2",
        "--no-charts",
        "--json",
        json.to_str().unwrap(),
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let v: serde_json::Value = serde_json::from_slice(&read(&json)).unwrap();
    let points = v["sweep"].as_array().unwrap();
    let length = |i: usize| points[i]["length"]["mean"].as_f64().unwrap();
    // A wild that counts for two completes sets sooner: shorter games.
    assert!(
        length(1) < length(0) - 2.0,
        "{} then {}",
        length(0),
        length(1)
    );
    // 3 is outside the field's declared 1 to 2: refused before a game is played.
    let run = f.run(&[
        "simulate",
        "capek-golems",
        "--games",
        "3",
        "--sweep",
        "the-engineer.value=3",
        "--no-charts",
    ]);
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert!(run.stderr.contains("components.toml:"), "{}", run.stderr);
}
