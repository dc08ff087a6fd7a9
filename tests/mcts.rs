//! The MCTS bot learns from its search. Capek Golems positions taken from seeded games, where
//! one move wins at once or a move ends the game in the shared outrage loss: the search must
//! take the win and avoid the loss far more often than a bot choosing at random (or a search
//! that learned nothing) could.

use std::path::Path;

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use printplay::engine::{Bot, Engine, State, Turn};
use printplay::games::capek_golems::{CapekEngine, CapekState};
use printplay::model::load_game;
use printplay::simulate::{SimOptions, config_for, make_bot, simulate};

fn capek() -> CapekEngine {
    let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("data");
    let game = load_game(&data, "capek-golems").expect("shipped data loads");
    CapekEngine::from_model(&game).expect("the engine reads the shipped data")
}

/// A decision with a move that matters at once.
struct Position {
    state: CapekState,
    /// Moves that win at once (a win position) or that do not lose at once (a loss position).
    good: Vec<<CapekState as State>::Action>,
    legal: usize,
}

/// What each legal move of the player to act does at once: (win, shared loss).
fn outcomes(s: &CapekState, p: usize) -> Vec<(<CapekState as State>::Action, bool, bool)> {
    s.legal_actions()
        .into_iter()
        .map(|a| {
            let mut next = s.clone();
            next.apply(a);
            let over = next.turn() == Turn::Terminal;
            let won = over && next.returns()[p] == 1.0;
            (a, won, over && !won)
        })
        .collect()
}

/// Positions met in seeded games of the heuristic bot against a random player (which drives
/// the outrage marker up): those where some move wins at once, and those where some move
/// loses at once and another does not.
fn positions(engine: &CapekEngine) -> (Vec<Position>, Vec<Position>) {
    let opts = SimOptions {
        bots: vec!["heuristic".into(), "random".into()],
        ..Default::default()
    };
    let config = config_for(engine, &opts).expect("a valid run");
    let (mut wins, mut losses) = (Vec::new(), Vec::new());
    for seed in 0..60 {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut s = engine.new_game(&config, &mut rng).expect("a game starts");
        let mut bots = [
            make_bot(engine, &opts.bots[(seed % 2) as usize]).unwrap(),
            make_bot(engine, &opts.bots[1 - (seed % 2) as usize]).unwrap(),
        ];
        loop {
            let action = match s.turn() {
                Turn::Terminal => break,
                Turn::Chance => s.sample_chance(&mut rng),
                Turn::Player(p) => {
                    let moves = outcomes(&s, p);
                    let legal = moves.len();
                    let winning: Vec<_> = moves.iter().filter(|m| m.1).map(|m| m.0).collect();
                    let safe: Vec<_> = moves.iter().filter(|m| !m.2).map(|m| m.0).collect();
                    if legal > 1 && !winning.is_empty() {
                        let state = s.determinize(p, &mut rng);
                        wins.push(Position {
                            state,
                            good: winning,
                            legal,
                        });
                    } else if !safe.is_empty() && safe.len() < legal {
                        let state = s.determinize(p, &mut rng);
                        losses.push(Position {
                            state,
                            good: safe,
                            legal,
                        });
                    }
                    let view = s.determinize(p, &mut rng);
                    bots[p].choose(&view, &mut rng)
                }
            };
            s.apply(action);
        }
    }
    (wins, losses)
}

/// How often `bot` plays a good move, and how often a uniformly random choice would.
fn score(bot: &mut Box<dyn Bot<CapekState>>, positions: &[Position]) -> (f64, f64) {
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    let (mut hits, mut chance) = (0.0, 0.0);
    for pos in positions {
        let chosen = bot.choose(&pos.state, &mut rng);
        hits += f64::from(u8::from(pos.good.contains(&chosen)));
        chance += pos.good.len() as f64 / pos.legal as f64;
    }
    let n = positions.len() as f64;
    (hits / n, chance / n)
}

#[test]
fn mcts_takes_wins_and_avoids_the_shared_loss_in_capek() {
    let engine = capek();
    let (wins, losses) = positions(&engine);
    assert!(
        wins.len() >= 10 && losses.len() >= 10,
        "{} win and {} loss positions",
        wins.len(),
        losses.len()
    );
    // Small searches, cheap in a debug build. With uniformly random playouts only the tree
    // can find the right move; with the default heuristic playouts the policy helps.
    for spec in ["mcts:30:random:depth=10", "mcts:30:depth=10"] {
        let mut mcts = make_bot(&engine, spec).unwrap();
        let (win_rate, win_chance) = score(&mut mcts, &wins);
        let (safe_rate, safe_chance) = score(&mut mcts, &losses);
        eprintln!(
            "{spec}: {} win positions: {win_rate:.2} taken, {win_chance:.2} by chance; {} loss positions: {safe_rate:.2} avoided, {safe_chance:.2} by chance",
            wins.len(),
            losses.len()
        );
        assert!(
            win_rate >= 0.9 && win_chance <= 0.6,
            "{spec}: wins taken {win_rate:.2}, by chance {win_chance:.2}"
        );
        assert!(
            safe_rate >= 0.95 && safe_chance <= 0.8,
            "{spec}: losses avoided {safe_rate:.2}, by chance {safe_chance:.2}"
        );
    }
}

#[test]
fn mcts_specs_are_read_or_refused_with_the_reason() {
    let engine = capek();
    for spec in [
        "mcts",
        "mcts:5",
        "mcts:5:random",
        "mcts:5:heuristic:eps=0.2:depth=30",
    ] {
        let bot = make_bot(&engine, spec).unwrap_or_else(|e| panic!("{spec}: {e}"));
        assert_eq!(bot.name(), spec);
    }
    for (spec, reason) in [
        ("mcts:0", "positive number"),
        ("mcts:x", "positive number"),
        ("mcts:5:eps=2", "eps takes"),
        ("mcts:5:depth=-1", "depth takes"),
        ("mcts:5:nosuch", "no playout policy `nosuch`"),
        ("mcts:5:width=3", "unknown option `width`"),
        ("mcts:5:chance=maybe", "chance takes"),
        ("mcts:5:margin=-1", "margin takes"),
    ] {
        let err = make_bot(&engine, spec)
            .err()
            .unwrap_or_else(|| panic!("{spec} accepted"));
        assert!(
            err.contains(reason) && err.contains("mcts[:N"),
            "{spec}: {err}"
        );
    }
}

#[test]
fn mcts_runs_are_the_same_whatever_the_thread_count() {
    let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("data");
    let game = load_game(&data, "capek-golems").expect("shipped data loads");
    let opts = SimOptions {
        games: 4,
        seed: 9,
        bots: vec!["mcts:10:depth=5".into(), "random".into()],
        ..Default::default()
    };
    let json = |threads| {
        rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap()
            .install(|| simulate(&game, &opts, None).unwrap().to_json())
    };
    assert_eq!(json(1), json(3));
}

/// A search thought in slices (as the server's bots think, taking turns on its threads)
/// decides exactly what one uninterrupted search decides, whatever the slices; a slice that
/// says the move's time is up decides at once, and the server's iteration cap is the bot's
/// count when lower.
#[test]
fn mcts_in_slices_decides_as_in_one_piece_and_stops_when_told() {
    use printplay::engine::Slice;
    use std::time::Instant;
    let engine = capek();
    let (wins, losses) = positions(&engine);
    for p in wins.iter().chain(&losses).take(12) {
        let mut whole = make_bot(&engine, "mcts:150:random").unwrap();
        let mut sliced = make_bot(&engine, "mcts:150:random").unwrap();
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        let expected = whole.choose(&p.state, &mut rng);
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        let mut slices = 0;
        let got = loop {
            // Slices that end at once: one iteration each.
            let slice = Slice {
                pause: Some(Instant::now()),
                ..Slice::WHOLE
            };
            slices += 1;
            if let Some(a) = sliced.think(&p.state, &mut rng, slice) {
                break a;
            }
        };
        assert_eq!(got, expected);
        assert!(p.legal < 2 || slices == 150, "{slices} slices");
        // Told its time is up at once: a legal move, without a search of 2 000 000 000.
        let mut huge = make_bot(&engine, "mcts:2000000000:random").unwrap();
        let late = Slice {
            decide: true,
            ..Slice::WHOLE
        };
        let a = huge
            .think(&p.state, &mut rng, late)
            .expect("decides at once");
        assert!(p.state.legal_actions().contains(&a));
        // Capped at 10 iterations a move by the server: decides in one slice.
        let capped = Slice {
            iterations: 10,
            ..Slice::WHOLE
        };
        assert!(huge.think(&p.state, &mut rng, capped).is_some());
    }
}
