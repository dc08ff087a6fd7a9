//! The Lua contract is the Rust contract: a Lua engine for Aether (tests/fixtures/aether-lua)
//! driven side by side with the shipped Rust engine over seeded random games, at every
//! player count and reading, gives the same setup (every seat's observation), the same legal
//! moves and chance outcomes at every step, the same random move and outcome drawn by the same
//! generator, the same end and the same returns.
//!
//! Moves are matched by name (the two engines number their actions differently). 1,000
//! games, also in debug builds (`cargo test`: about 43 s at load average 17 on this 2-core
//! machine, so well under that on an idle CI runner; the Lua interpreter is built optimised
//! in debug too). LUA_AETHER_GAMES changes the count.

mod common;

use std::collections::BTreeMap;

use printplay::engine::lua::LuaEngine;
use printplay::engine::view::Observer;
use printplay::engine::{Config, Engine, State, Turn};
use printplay::games::aether::AetherEngine;
use printplay::model::{Game, load_game};
use printplay::simulate::{SimOptions, config_for, game_rng, play_game};
use rand_chacha::ChaCha8Rng;

fn games_to_play() -> u64 {
    std::env::var("LUA_AETHER_GAMES")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(1000)
}

/// Aether's data with `engine = "lua"` and the fixture's engine.lua.
fn lua_aether(fixture: &common::Fixture) -> Game {
    fixture.edit(
        "aether",
        "game.toml",
        "engine = \"aether\"",
        "engine = \"lua\"",
    );
    let script = common::repo().join("tests/fixtures/aether-lua/engine.lua");
    std::fs::copy(script, fixture.file("aether", "engine.lua")).unwrap();
    load_game(fixture.data(), "aether").expect("aether loads")
}

/// Game `g`'s configuration: every player count, setup and reading in turn.
fn config(g: u64) -> Config {
    let players = 2 + (g % 3) as usize;
    let mut variants = vec![
        (
            "setup",
            if g.is_multiple_of(2) {
                "normal"
            } else {
                "long"
            },
        ),
        (
            "negative-strength",
            if g % 5 < 2 { "zero" } else { "counts" },
        ),
        (
            "aether-contenders",
            if g % 7 < 3 { "everyone" } else { "adjacent" },
        ),
    ];
    if players == 4 && g % 4 < 2 {
        variants.push(("teams", "on"));
    }
    Config::with_variants(players, &variants)
}

fn names<S: State>(s: &S, actions: &[S::Action]) -> BTreeMap<String, S::Action> {
    actions.iter().map(|&a| (s.action_name(a), a)).collect()
}

fn observations<S: State>(s: &S) -> Vec<String> {
    (0..s.num_players()).map(|p| s.observation(p)).collect()
}

/// The same generator drew the same move (or outcome) from both engines.
fn same_draw<R: State, L: State>(r: &R, a: R::Action, l: &L, b: L::Action) -> Result<(), String> {
    let (x, y) = (r.action_name(a), l.action_name(b));
    if x == y {
        Ok(())
    } else {
        Err(format!("the same generator drew `{x}` and `{y}`"))
    }
}

/// Both engines left the generator in the same state (drew as many numbers).
fn same_generator(rust: &ChaCha8Rng, lua: &ChaCha8Rng) -> Result<(), String> {
    if rust == lua {
        Ok(())
    } else {
        Err("the engines drew different amounts from the generator".into())
    }
}

/// Plays game `g` on both engines; the first difference is the error.
fn play_side_by_side(rust: &AetherEngine, lua: &LuaEngine, g: u64) -> Result<u32, String> {
    let config = config(g);
    let (mut rng, mut lua_rng) = (game_rng(7, g), game_rng(7, g));
    let mut r = rust.new_game(&config, &mut rng)?;
    let mut l = lua.new_game(&config, &mut lua_rng)?;
    let at = |r: &<AetherEngine as Engine>::State, what: String| {
        format!("game {g} ({config:?}), move {}: {what}", r.moves_played())
    };
    if observations(&r) != observations(&l) {
        return Err(at(
            &r,
            format!(
                "setups differ:\n{:?}\n{:?}",
                observations(&r),
                observations(&l)
            ),
        ));
    }
    loop {
        if r.turn() != l.turn() {
            return Err(at(
                &r,
                format!("turn {:?} against {:?}", r.turn(), l.turn()),
            ));
        }
        let (action, lua_action) = match r.turn() {
            Turn::Terminal => break,
            Turn::Chance => {
                let (ro, lo) = (r.chance_outcomes(), l.chance_outcomes());
                let rn: Vec<(String, f64)> = ro.iter().map(|o| (r.action_name(o.0), o.1)).collect();
                let ln: Vec<(String, f64)> = lo.iter().map(|o| (l.action_name(o.0), o.1)).collect();
                if rn != ln {
                    return Err(at(&r, format!("outcomes {rn:?} against {ln:?}")));
                }
                let mut probe = rng.clone();
                let a = r.sample_chance(&mut rng);
                same_draw(&r, a, &l, l.sample_chance(&mut probe)).map_err(|e| at(&r, e))?;
                same_generator(&rng, &probe).map_err(|e| at(&r, e))?;
                let la = lo[ro.iter().position(|o| o.0 == a).unwrap()].0;
                // Every seat (and an onlooker) learns of the draw in the same words.
                for observer in (0..r.num_players())
                    .map(Observer::Seat)
                    .chain([Observer::Public, Observer::Omniscient])
                {
                    let (x, y) = (r.chance_name(a, observer), l.chance_name(la, observer));
                    if x != y {
                        return Err(at(&r, format!("{observer:?} is told `{x}` and `{y}`")));
                    }
                }
                (a, la)
            }
            Turn::Player(_) => {
                let (rl, ll) = (names(&r, &r.legal_actions()), names(&l, &l.legal_actions()));
                if rl.keys().ne(ll.keys()) {
                    return Err(at(
                        &r,
                        format!("legal moves {:?} against {:?}", rl.keys(), ll.keys()),
                    ));
                }
                let mut probe = rng.clone();
                let a = r.random_action(&mut rng);
                same_draw(&r, a, &l, l.random_action(&mut probe)).map_err(|e| at(&r, e))?;
                same_generator(&rng, &probe).map_err(|e| at(&r, e))?;
                (a, ll[&r.action_name(a)])
            }
        };
        r.apply(action);
        l.apply(lua_action);
        if let Some(e) = l.failure() {
            return Err(at(&r, e));
        }
    }
    if r.returns() != l.returns() || r.end_reason() != l.end_reason() {
        return Err(at(
            &r,
            format!(
                "ends {:?} {:?} against {:?} {:?}",
                r.end_reason(),
                r.returns(),
                l.end_reason(),
                l.returns()
            ),
        ));
    }
    let mut stats = r.end_stats();
    stats.sort_by(|a, b| a.0.cmp(b.0));
    if stats != l.end_stats()
        || observations(&r) != observations(&l)
        || r.moves_played() != l.moves_played()
    {
        return Err(at(
            &r,
            format!("end statistics {stats:?} against {:?}", l.end_stats()),
        ));
    }
    Ok(r.moves_played())
}

#[test]
fn the_lua_aether_plays_exactly_as_the_rust_engine() {
    let fixture = common::Fixture::with_games(&["aether"]);
    let shipped = load_game(&common::repo().join("data"), "aether").expect("aether loads");
    let rust = AetherEngine::from_model(&shipped).unwrap();
    let lua = LuaEngine::from_model(&lua_aether(&fixture)).unwrap();
    assert_eq!(
        rust.variants()
            .iter()
            .map(|v| (v.name, v.values))
            .collect::<Vec<_>>(),
        lua.variants()
            .iter()
            .map(|v| (v.name, v.values))
            .collect::<Vec<_>>()
    );
    let games = games_to_play();
    let mut moves = 0;
    for g in 0..games {
        moves += play_side_by_side(&rust, &lua, g).unwrap_or_else(|e| panic!("{e}"));
    }
    // Real games were played, not empty ones.
    assert!(moves > 20 * games as u32, "{moves} moves in {games} games");
}

/// One game as `simulate` plays it: every move and chance outcome by name, then the result.
fn simulated<E: Engine>(engine: &E, opts: &SimOptions, g: u64) -> Vec<String> {
    let config = config_for(engine, opts).unwrap_or_else(|e| panic!("{e}"));
    let mut lines = Vec::new();
    let result = play_game(engine, &config, opts, g, |s, a| {
        lines.push(s.action_name(a))
    })
    .unwrap_or_else(|e| panic!("{e}"));
    let mut stats = result.end_stats.clone();
    stats.sort_by(|a, b| a.0.cmp(b.0));
    lines.push(format!(
        "returns {:?}, {} moves, {:?}, timeout {}, {stats:?}",
        result.returns, result.moves, result.end_reason, result.timeout
    ));
    lines
}

/// A port is compared with its original game by game: through the simulator's own loop
/// (setup, chance sampling, the determinization every bot's turn draws, the bots' choices),
/// the Lua Aether and the Rust engine play the same 200 games for the same seed, at 2, 3 and
/// 4 players and several readings, with every bot both offer. The random bot's turns draw
/// with the fixture's `skip_determinize`, and at 2 players also without it (a copy
/// determinized and dropped).
#[test]
fn the_lua_aether_simulates_the_same_games_as_the_rust_engine() {
    let fixture = common::Fixture::with_games(&["aether"]);
    let shipped = load_game(&common::repo().join("data"), "aether").expect("aether loads");
    let rust = AetherEngine::from_model(&shipped).unwrap();
    let lua = LuaEngine::from_model(&lua_aether(&fixture)).unwrap();
    let copied = common::Fixture::with_games(&["aether"]);
    let game = lua_aether(&copied);
    copied.edit(
        "aether",
        "engine.lua",
        "function game.skip_determinize(",
        "local function unused_skip_determinize(",
    );
    let redealt = LuaEngine::from_model(&game).unwrap();
    let runs: [(usize, &[(&str, &str)]); 3] = [
        (2, &[]),
        (3, &[("setup", "long"), ("negative-strength", "zero")]),
        (4, &[("teams", "on"), ("aether-contenders", "everyone")]),
    ];
    let mut played = 0;
    for bots in ["random", "heuristic"] {
        if lua.bot(bots).is_none() && bots != "random" {
            continue;
        }
        for (players, variants) in runs {
            let opts = SimOptions {
                games: 200,
                seed: 11,
                players,
                bots: vec![bots.into()],
                variants: Config::with_variants(players, variants).variants,
                ..SimOptions::default()
            };
            let mut differ = Vec::new();
            for g in 0..opts.games {
                let r = simulated(&rust, &opts, g);
                let mut ports = vec![("", simulated(&lua, &opts, g))];
                if players == 2 {
                    ports.push((" without skip_determinize", simulated(&redealt, &opts, g)));
                }
                for (how, l) in ports {
                    if r != l {
                        let at = r.iter().zip(&l).take_while(|(a, b)| a == b).count();
                        let line = |t: &[String]| t.get(at).cloned().unwrap_or_default();
                        differ.push(format!(
                            "game {g}{how}, line {at}: `{}` against `{}`",
                            line(&r),
                            line(&l)
                        ));
                    }
                }
            }
            assert!(
                differ.is_empty(),
                "{bots}, {players} players {variants:?}: {} of {} games differ (Rust against Lua):\n{}",
                differ.len(),
                opts.games,
                differ[..differ.len().min(5)].join("\n")
            );
            played += opts.games;
        }
    }
    assert_eq!(played, 600);
}

/// The fixture's own `random_action` and `sample_chance` (drawn inside the VM, without
/// listing) agree with its `legal_actions` and `chance_outcomes` and the shared checks of
/// every engine (clones, determinization, conservation of the generator).
#[test]
fn the_lua_aether_passes_the_engine_harness() {
    let fixture = common::Fixture::with_games(&["aether"]);
    let lua = LuaEngine::from_model(&lua_aether(&fixture)).unwrap();
    for players in 2..=4 {
        let config = Config::with_variants(players, &[]);
        let plan = printplay::engine::testing::Plan {
            games: 30,
            seed: 3,
            cap: 500,
            deep_games: 5,
        };
        let seen = printplay::engine::testing::random_play(&lua, &config, plan, |_| Ok(()))
            .unwrap_or_else(|e| panic!("{players} players: {e}"));
        assert!(seen.moves > 20 * 30, "{seen:?}");
    }
}
