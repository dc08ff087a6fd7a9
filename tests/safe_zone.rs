//! Text closer to the cut than the game's safe zone: `check` and `build` warn alike, at the
//! card's line, with the distance; a card whose text stays inside is not named; a game may
//! set its own safe zone.

use std::path::Path;

use printplay::model::load_game;
use printplay::render::formats::pdf;
use printplay::render::sheets::layout::{DEFAULT_SAFE_ZONE, Rect, SAFE_ZONE_SLACK};
use printplay::render::{self, BuildOptions, sheets};

mod common;

use common::{Fixture, Run};

/// The warnings a run printed, one per line, as `file:line:col: message`.
fn warnings(run: &Run) -> Vec<String> {
    run.stderr
        .lines()
        .filter_map(|l| l.trim().strip_prefix("⚠ warning: "))
        .map(str::to_string)
        .collect()
}

/// How far inside its trim a card's text comes, measured as the warning measures it.
fn inset(slug: &str, card: &str) -> f64 {
    let game = load_game(Path::new("data"), slug).unwrap();
    let faces = render::draw_faces(&game, &BuildOptions::default()).unwrap();
    let (deck, face) = faces
        .decks
        .iter()
        .find_map(|d| d.cards.iter().find(|c| c.id == card).map(|c| (d, c)))
        .unwrap();
    let trim = Rect {
        x: 0.0,
        y: 0.0,
        w: deck.size.0,
        h: deck.size.1,
    };
    let page = sheets::single_face(&face.svg, deck.size);
    pdf::text_inset(&page, deck.size, trim, &faces.fonts)
        .unwrap()
        .unwrap()
}

#[test]
fn check_and_build_warn_of_text_nearer_the_cut_than_the_safe_zone() {
    let f = Fixture::with_games(&["capek-golems"]);
    let out = f.data().join("out");
    let check = f.run(&["check", "capek-golems"]);
    let build_cards = || {
        f.run(&[
            "build",
            "capek-golems",
            "--only",
            "cards",
            "--out",
            out.to_str().unwrap(),
        ])
    };
    let build = build_cards();
    assert_eq!(check.code, 0, "{}", check.stderr);
    assert_eq!(build.code, 0, "{}", build.stderr);
    let found = warnings(&check);
    assert_eq!(found, warnings(&build), "check agrees with build");
    // The build measured each face on the reading its contrast check made: no file of the
    // cache is written for a measurement that cheap (a warm build measures again, alike).
    let kept = out.join(".cache").join("capek-golems").join("inset");
    assert!(
        std::fs::read_dir(&kept).map_or(true, |d| d.count() == 0),
        "measurements kept in {}",
        kept.display()
    );
    let warm = build_cards();
    assert_eq!(warm.code, 0, "{}", warm.stderr);
    assert_eq!(warnings(&warm), found, "a warm build warns as a cold one");

    // The Auction House's "Draw pile" sits about 1.6 mm from the cut: warned at its line.
    let components = std::fs::read_to_string(f.file("capek-golems", "components.toml")).unwrap();
    let line = components
        .lines()
        .position(|l| l == "id = \"auction-house-left\"")
        .unwrap()
        + 1;
    let auction = found
        .iter()
        .find(|w| w.contains("`auction-house-left`"))
        .unwrap_or_else(|| panic!("no warning for the Auction House: {found:?}"));
    assert!(
        auction.contains(&format!("components.toml:{line}:")),
        "{auction}"
    );
    let mm: f64 = auction
        .split("text comes ")
        .nth(1)
        .and_then(|t| t.split(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("{auction}"));
    assert!((1.3..=1.8).contains(&mm), "{auction}");
    assert!((inset("capek-golems", "auction-house-left") - mm).abs() < 0.05);
    assert!(auction.contains(&format!("{DEFAULT_SAFE_ZONE:.1} mm safe zone")));

    // A card whose text keeps well inside is not named.
    let safe = inset("capek-golems", "parts-machining-1");
    assert!(safe >= DEFAULT_SAFE_ZONE - SAFE_ZONE_SLACK, "{safe}");
    assert!(!found.iter().any(|w| w.contains("`parts-machining-1`")));

    // The game's own, smaller safe zone: nothing to warn of.
    f.edit(
        "capek-golems",
        "game.toml",
        "[game]\n",
        "[game]\nsafe_zone_mm = 1.0\n",
    );
    let relaxed = f.run(&["check", "capek-golems"]);
    assert_eq!(relaxed.code, 0, "{}", relaxed.stderr);
    assert!(warnings(&relaxed).is_empty(), "{}", relaxed.stderr);

    // A safe zone out of range is refused at its value.
    f.edit(
        "capek-golems",
        "game.toml",
        "safe_zone_mm = 1.0",
        "safe_zone_mm = 40.0",
    );
    let wrong = f.run(&["check", "capek-golems"]);
    assert_eq!(wrong.code, 1);
    assert!(
        wrong.stderr.contains("game.toml:") && wrong.stderr.contains("safe_zone_mm = 40"),
        "{}",
        wrong.stderr
    );
}

/// One cause, one warning: when a deck's layout brings many of its cards too close (here a
/// 10 mm safe zone that most text crosses), the deck gets one warning naming how many, at the
/// deck, not one per card.
#[test]
fn many_cards_of_a_deck_too_close_are_one_warning_at_the_deck() {
    let f = Fixture::with_games(&["capek-golems"]);
    f.edit(
        "capek-golems",
        "game.toml",
        "[game]\n",
        "[game]\nsafe_zone_mm = 10.0\n",
    );
    let check = f.run(&["check", "capek-golems"]);
    assert_eq!(check.code, 0, "{}", check.stderr);
    let found = warnings(&check);
    let per_deck: Vec<&String> = found
        .iter()
        .filter(|w| w.contains(" faces of deck `"))
        .collect();
    assert!(!per_deck.is_empty(), "{found:#?}");
    let game = load_game(f.data(), "capek-golems").unwrap();
    for deck in &game.components.decks {
        let id = deck.id.get_ref();
        let about: Vec<&String> = found
            .iter()
            .filter(|w| w.contains(&format!("of deck `{id}`")))
            .collect();
        assert!(
            about.len() <= 4,
            "deck `{id}` is warned {} times: {about:#?}",
            about.len()
        );
    }
    for w in per_deck {
        let n: usize = w
            .split(": ")
            .nth(1)
            .and_then(|t| t.split(' ').next())
            .and_then(|n| n.parse().ok())
            .unwrap_or_else(|| panic!("{w}"));
        assert!(n > 3, "{w}");
        assert!(w.contains("components.toml:"), "{w}");
    }
}
