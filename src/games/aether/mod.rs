//! Aether (Onni Games 2010): the board checker, the rule engine and its heuristic bot.

mod bots;
mod check;
mod engine;
mod rules;

pub use engine::{Action, AetherEngine, AetherState};
pub use rules::{Rules, Setup};

use crate::diag::Problem;
use crate::games::GameModule;
use crate::model::Game;

/// Aether's game module: `engine = "aether"` in `game.toml`.
pub struct Aether;

impl GameModule for Aether {
    fn id(&self) -> &'static str {
        "aether"
    }

    fn check(&self, game: &Game) -> Vec<Problem> {
        check::check(game)
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use std::path::Path;

    use crate::model::{COMPONENTS_FILE, GAME_FILE, Game, load_game};

    fn data_dir() -> &'static Path {
        Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/data"))
    }

    /// The shipped Aether data.
    pub fn load() -> Game {
        load_game(data_dir(), "aether").expect("shipped aether data loads")
    }

    /// The printed board shows what a transcript needs: both sacrifice pits ("Laita yksi
    /// käyttämätön elementaalisi toiseen uhrikuopista", Laattojen vaihtaminen) and every
    /// hex's coordinates as the engine's moves name them ("at q=2, r=-1").
    #[test]
    fn the_board_drawing_has_the_pits_and_every_hex_label() {
        use crate::engine::{Engine, State};
        let game = load();
        let templates = crate::render::faces::template::Templates::new(&game).expect("templates");
        let board = super::rules::the_board(&game).expect("board");
        let (svg, _) =
            crate::render::sheets::boards::board_svg(&game, board, &templates).expect("svg");
        let pits = game.param_int("sacrifice_pits").expect("pits");
        assert_eq!(pits, 2);
        // The pits' caption in the board's language (`[print_labels]` of its rules prose).
        let lang = crate::render::sheets::boards::first_language(&game);
        let pit = &game.rules.texts[lang].text.print_labels["pit"];
        assert_eq!(svg.matches(pit.as_str()).count() as i64, pits, "{svg}");
        for cell in board.hex_cells() {
            let label = format!(">{},{}</text>", cell.q, cell.r);
            assert_eq!(svg.matches(&label).count(), 1, "label {label}");
        }
        // The engine names a hex by the same q and r.
        let engine = super::AetherEngine::from_model(&game).expect("engine");
        let mut rng = <rand_chacha::ChaCha8Rng as rand::SeedableRng>::seed_from_u64(1);
        let state = engine
            .new_game(&crate::engine::Config::with_variants(2, &[]), &mut rng)
            .expect("game");
        let place = state
            .legal_actions()
            .into_iter()
            .find(|a| matches!(a, super::Action::Place { .. }))
            .expect("a placement");
        let super::Action::Place { cell, .. } = place else {
            unreachable!()
        };
        let (q, r) = state.board().coords[usize::from(cell)];
        assert!(
            state
                .action_name(place)
                .contains(&format!("at q={q}, r={r}"))
        );
        assert_eq!(svg.matches(&format!(">{q},{r}</text>")).count(), 1);
    }

    /// The shipped data with each `(from, to)` replaced everywhere in whichever file holds it.
    pub fn load_with(edits: &[(&str, &str)]) -> Game {
        let src = data_dir().join("aether");
        let mut files: Vec<(&str, String)> = [GAME_FILE, COMPONENTS_FILE]
            .into_iter()
            .map(|f| (f, std::fs::read_to_string(src.join(f)).expect("read data")))
            .collect();
        for (from, to) in edits {
            let mut hit = false;
            for (_, text) in files.iter_mut() {
                hit |= text.contains(from);
                *text = text.replace(from, to);
            }
            assert!(hit, "no data file contains {from:?}");
        }
        let tmp = tempfile::tempdir().expect("temp dir");
        let dir = tmp.path().join("aether");
        std::fs::create_dir(&dir).expect("game dir");
        for (name, text) in &files {
            std::fs::write(dir.join(name), text).expect("write data");
        }
        load_game(tmp.path(), "aether").expect("edited data still parses")
    }
}
