//! Loading and checking never panic, whatever the bytes: seeded random edits of real data files.

mod common;

use printplay::check::check_game;
use printplay::model::load_game;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

const MUTATIONS: usize = 300;
/// Bytes that most often turn valid TOML into something else.
const SPECIAL: &[u8] = b"=[]{}\"\n-9x#,.\xff";

fn mutate(text: &[u8], rng: &mut ChaCha8Rng) -> Vec<u8> {
    let mut bytes = text.to_vec();
    for _ in 0..rng.random_range(1..4) {
        let at = rng.random_range(0..bytes.len());
        match rng.random_range(0..4) {
            0 => {
                bytes.remove(at);
            }
            1 => bytes.insert(at, SPECIAL[rng.random_range(0..SPECIAL.len())]),
            2 => bytes[at] = rng.random(),
            _ => {
                let end = (at + rng.random_range(1..40)).min(bytes.len());
                bytes.drain(at..end);
            }
        }
    }
    bytes
}

#[test]
fn random_edits_never_panic() {
    let repo = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let dir = tempfile::tempdir().unwrap();
    let game_dir = dir.path().join("g");
    // The game's own card designs stay as shipped; only its data is mutated.
    common::copy_dir(
        &repo.join("data/capek-golems/templates"),
        &game_dir.join("templates"),
    );
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    let mut rejected = 0;
    for i in 0..MUTATIONS {
        for name in ["game.toml", "components.toml"] {
            let original = std::fs::read(repo.join("data/capek-golems").join(name)).unwrap();
            let text = if i % 2 == usize::from(name == "game.toml") {
                mutate(&original, &mut rng)
            } else {
                original
            };
            std::fs::write(game_dir.join(name), text).unwrap();
        }
        match load_game(dir.path(), "g") {
            Ok(game) => rejected += usize::from(!check_game(&game).is_empty()),
            Err(problems) => {
                assert!(!problems.is_empty());
                for p in &problems {
                    assert!(!p.render(false).is_empty());
                }
                rejected += 1;
            }
        }
    }
    assert!(
        rejected > MUTATIONS / 2,
        "most random edits break something: {rejected}"
    );
}
