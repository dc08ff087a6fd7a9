//! The registry of reading points (`printplay::engine::readings`): every place an engine
//! branches on a reading of its rulebook is a declared variant, and every variant's values
//! play differently.
//!
//! Checked for the engines of the shipped games and the free table. A Lua game's variants are
//! its designer's own, read by its script, and are not held to this.

use std::collections::BTreeSet;
use std::path::Path;

use printplay::engine::readings::variants_read;
use printplay::engine::registry::{EngineTask, with_engine};
use printplay::engine::{Config, Engine, State};
use printplay::model::{Game, load_game};
use printplay::simulate::{SimOptions, Step, game_rng, play_watched};

fn shipped(slug: &str) -> Game {
    let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("data");
    load_game(&data, slug).expect("shipped data loads")
}

/// The variants the rules reference explains, in each of its languages.
fn described(game: &Game) -> Vec<(String, BTreeSet<String>)> {
    game.rules
        .texts
        .iter()
        .map(|(lang, lr)| {
            let ids = lr.text.variants.iter().map(|v| v.id.get_ref().clone());
            (lang.clone(), ids.collect())
        })
        .collect()
}

/// What is wrong with an engine's registry: each problem in a line.
struct Registry;

impl EngineTask for Registry {
    type Output = Vec<String>;
    fn run<E: Engine>(self, engine: E, game: &Game) -> Result<Vec<String>, String> {
        let mut problems = Vec::new();
        let declared: BTreeSet<&str> = engine.variants().iter().map(|v| v.name).collect();
        let pointed: BTreeSet<&str> = engine.reading_points().iter().map(|p| p.variant).collect();
        for point in engine.reading_points() {
            if !declared.contains(point.variant) {
                problems.push(format!(
                    "{}: the reading point at {} ({}) names `{}`, which is no declared variant",
                    game.slug, point.at, point.decides, point.variant
                ));
            }
            for (lang, ids) in described(game) {
                if !ids.contains(point.variant) {
                    problems.push(format!(
                        "{}: the reading point at {} names `{}`, which rules.{lang}.toml does not explain",
                        game.slug, point.at, point.variant
                    ));
                }
            }
        }
        for name in declared.difference(&pointed) {
            problems.push(format!(
                "{}: the variant `{name}` has no reading point",
                game.slug
            ));
        }
        // Setting up a game reads every variant the engine branches on, through
        // `Config::variant`: each must have a reading point, and each point must be read.
        let players = *engine.player_counts().start();
        let config = Config::with_variants(players, &[]);
        let (made, read) = variants_read(|| engine.new_game(&config, &mut game_rng(1, 0)));
        made?;
        for name in read.difference(&pointed) {
            problems.push(format!(
                "{}: the engine reads the variant `{name}` with no reading point",
                game.slug
            ));
        }
        for name in pointed.difference(&read) {
            problems.push(format!(
                "{}: the reading point of `{name}` is never read when a game is set up",
                game.slug
            ));
        }
        Ok(problems)
    }
}

#[test]
fn every_reading_point_is_a_declared_and_explained_variant() {
    let mut problems = Vec::new();
    for slug in ["capek-golems", "the-search", "aether"] {
        problems.extend(with_engine(&shipped(slug), Registry).unwrap());
    }
    for slug in ["imperial-settlers-aztecs", "capek-golems"] {
        let game = shipped(slug);
        let free = printplay::engine::free::with_table(&game, true, Registry).unwrap();
        // The free table's variant is an option of the table, explained on its page, not in
        // a game's rules reference.
        problems.extend(free.into_iter().filter(|p| !p.contains("does not explain")));
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// A game played to its end: every move and chance outcome, then the returns and the end
/// statistics (the final outrage, say).
fn log<E: Engine>(engine: &E, config: &Config, opts: &SimOptions, index: u64) -> Vec<String> {
    let mut out = Vec::new();
    let result = play_watched(engine, config, opts, index, |step| match step {
        Step::Move(_, action) => out.push(format!("{action:?}")),
        Step::End(state) => out.push(format!("{:?} {:?}", state.returns(), state.end_stats())),
    });
    match result {
        Ok(_) => out,
        Err(e) => vec![e],
    }
}

/// For each variant (or only the one named) and each of its other values: the first seeded
/// game (of a few, with random and the engine's own bots) whose log, outcome or end figures
/// differ from the default reading's, or the variant's name when none does.
struct Differences(Option<&'static str>);

/// Seeded games tried with each bot, per value, before a variant is said to play identically.
const TRIES: u64 = 40;

impl EngineTask for Differences {
    type Output = (Vec<String>, Vec<String>);
    fn run<E: Engine>(self, engine: E, _game: &Game) -> Result<Self::Output, String> {
        let mut bots = vec!["random"];
        for bot in ["heuristic", "risky"] {
            if engine.bot(bot).is_some() {
                bots.push(bot);
            }
        }
        let players = *engine.player_counts().end();
        let (mut same, mut found) = (Vec::new(), Vec::new());
        let variants = engine.variants().iter();
        for v in variants.filter(|v| self.0.is_none_or(|name| name == v.name)) {
            for value in &v.values[1..] {
                let default = Config::with_variants(players, &[]);
                let other = Config::with_variants(players, &[(v.name, value)]);
                let differs = (0..TRIES)
                    .flat_map(|index| bots.iter().map(move |&bot| (index, bot)))
                    .find(|&(index, bot)| {
                        let opts = SimOptions {
                            games: TRIES,
                            seed: 1,
                            players,
                            bots: vec![bot.to_string()],
                            max_moves: 600,
                            ..SimOptions::default()
                        };
                        log(&engine, &default, &opts, index) != log(&engine, &other, &opts, index)
                    });
                match differs {
                    Some((index, bot)) => {
                        found.push(format!("{}={value}: game {index}, {bot}", v.name))
                    }
                    None => same.push(format!("{}={value}", v.name)),
                }
            }
        }
        Ok((same, found))
    }
}

#[test]
fn every_variants_values_play_differently() {
    let mut same = Vec::new();
    let mut check = |name: &str, game: &Game, only: Option<&'static str>, free: bool| {
        let (identical, found) = if free {
            printplay::engine::free::with_table(game, true, Differences(only))
        } else {
            with_engine(game, Differences(only))
        }
        .unwrap();
        eprintln!("{name}: {}", found.join("; "));
        same.extend(identical.into_iter().map(|v| format!("{name}: {v}")));
    };
    for slug in ["the-search", "aether"] {
        check(slug, &shipped(slug), None, false);
    }
    check("capek-golems", &shipped("capek-golems"), None, false);
    // Four seats: with two, passing the turn to any other seat is passing it to the next.
    check("free table", &shipped("aether"), None, true);
    assert!(
        same.is_empty(),
        "these readings play like the default in {TRIES} seeded games per bot: {}",
        same.join(", ")
    );
}
