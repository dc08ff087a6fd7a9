//! `check` says what `build` and `simulate` will say.
//!
//! Each kind of data `build` or `simulate` once refused after `check` had passed it gets a
//! variant of the scaffold's Lua game where `check` must fail with exit 1 at the line the
//! designer changed, and `build` with it (exit 1, never 2). Then the converse, over a set of
//! mutated games: whatever `check` passes, `build` (whole, and with each `--only`) writes
//! and a 20-game `simulate` plays; whatever it refuses, `build` refuses as data.

mod common;

use std::path::Path;

use common::{Run, run_in};
use printplay::pipeline::{Outcome, build, load_games, stage_names};
use printplay::render::BuildOptions;
use printplay::simulate::{SimOptions, simulate};

const SLUG: &str = "game";

/// A data folder holding the scaffold's game with a Lua engine (`printplay new --engine lua`).
fn scaffold() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    printplay::scaffold::new_game_with_engine(dir.path(), SLUG, "lua").unwrap();
    dir
}

/// One change a designer makes: in `file`, the first `from` becomes `to`.
#[derive(Clone, Copy, Debug)]
struct Edit {
    file: &'static str,
    from: &'static str,
    to: &'static str,
}

const fn edit(file: &'static str, from: &'static str, to: &'static str) -> Edit {
    Edit { file, from, to }
}

/// Applies an edit; returns the 1-based line its new text starts on (leading line breaks
/// skipped): the line the designer changed.
fn apply(data: &Path, e: &Edit) -> usize {
    let path = data.join(SLUG).join(e.file);
    let text = std::fs::read_to_string(&path).unwrap();
    let at = text
        .find(e.from)
        .unwrap_or_else(|| panic!("`{}` not in {}", e.from, e.file));
    // The first character the edit changes, past any line break it starts with.
    let same = e
        .from
        .char_indices()
        .zip(e.to.chars())
        .find(|((_, a), b)| a != b)
        .map_or(e.from.len().min(e.to.len()), |((i, _), _)| i);
    let rest = &e.to[same..];
    let changed = at + same + rest.len() - rest.trim_start_matches('\n').len();
    let new = text.replacen(e.from, e.to, 1);
    std::fs::write(&path, &new).unwrap();
    new[..changed].matches('\n').count() + 1
}

fn run(data: &Path, args: &[&str]) -> Run {
    let mut all = vec!["--data", data.to_str().unwrap()];
    all.extend_from_slice(args);
    run_in(data, &all)
}

/// Cards whose tuck box, for the scaffold's 12 cards 1.5 mm thick, just fits A4.
const BIG_CARDS: &str = "size = { width = 90, height = 140 }";

/// The kinds `check` passed and `build` or `simulate` refused; the last edit of each is on
/// the line the report must name.
const KINDS: &[(&str, &[Edit])] = &[
    (
        "a template that writes malformed SVG (an unclosed <rect>)",
        &[edit(
            "templates/card.svg",
            "fill=\"#fbf8f1\"/>",
            "fill=\"#fbf8f1\">",
        )],
    ),
    (
        "a NUL byte in a card's name in the CSV",
        &[edit("cards.csv", "Morning", "Morn\u{0}ing")],
    ),
    (
        "a control character in a card's text in the CSV",
        &[edit("cards.csv", "take the lead", "take\u{1} the lead")],
    ),
    (
        "a syntax error in engine.lua",
        &[edit(
            "engine.lua",
            "\nreturn game",
            "\nlocal x = = 1\nreturn game",
        )],
    ),
    (
        "an engine that fails as it loads",
        &[edit(
            "engine.lua",
            "\nreturn game",
            "\nerror(\"cannot load\")\nreturn game",
        )],
    ),
    (
        "an engine whose setup raises an error",
        &[edit(
            "engine.lua",
            "function game.setup(config, rng)",
            "function game.setup(config, rng) error(\"no setup\")",
        )],
    ),
    (
        "a piece larger than a page of tokens.pdf (it ran off the paper)",
        &[edit("components.toml", "size_mm = 20", "size_mm = 250")],
    ),
    (
        "hex tiles larger than the board's hexes",
        &[
            edit("components.toml", "shape = \"circle\"", "shape = \"hex\""),
            edit("components.toml", "size_mm = 20", "size_mm = 40"),
        ],
    ),
    (
        "an out-of-range min_text_pt",
        &[edit(
            "game.toml",
            "designer = \"Your name\"",
            "designer = \"Your name\"\nmin_text_pt = 100",
        )],
    ),
    (
        "an out-of-range safe_zone_mm",
        &[edit(
            "game.toml",
            "designer = \"Your name\"",
            "designer = \"Your name\"\nsafe_zone_mm = -1",
        )],
    ),
    (
        "a template name that does not exist",
        &[edit(
            "components.toml",
            "template = \"card\"",
            "template = \"../../etc/passwd\"",
        )],
    ),
    (
        "a back template that does not exist",
        &[edit(
            "components.toml",
            "template = \"basic-back\"",
            "template = \"no-such-back\"",
        )],
    ),
    (
        "an untyped parameter whose number turns into text",
        &[edit(
            "game.toml",
            "type = \"int\"\nmin = 1\nmax = 10\nvalue = 5",
            "value = \"three\"",
        )],
    ),
    (
        "a board without cells",
        &[edit(
            "components.toml",
            "cells = [\n  { q = 0, r = 0, kind = \"lake\" },\n  { q = 1, r = -1, kind = \"meadow\" },\n  \
             { q = 1, r = 0, kind = \"meadow\" },\n  { q = 0, r = 1, kind = \"meadow\" },\n  \
             { q = -1, r = 1, kind = \"meadow\" },\n  { q = -1, r = 0, kind = \"meadow\" },\n  \
             { q = 0, r = -1, kind = \"meadow\" },\n]",
            "cells = []",
        )],
    ),
    (
        "an engine this build does not have",
        &[edit("game.toml", "engine = \"lua\"", "engine = \"chess\"")],
    ),
    (
        "a language without its rules prose",
        &[edit(
            "game.toml",
            "designer = \"Your name\"",
            "designer = \"Your name\"\nlanguages = [\"fi\", \"en\"]",
        )],
    ),
    (
        "an untyped parameter the engine computes with turns into text",
        &[
            edit(
                "rules.en.toml",
                "{params.hand_size card} to",
                "{params.hand_size} to",
            ),
            edit(
                "rules.en.toml",
                "{params.hand_size card}.",
                "{params.hand_size}.",
            ),
            edit(
                "game.toml",
                "type = \"int\"\nmin = 1\nmax = 10\nvalue = 5",
                "value = \"three\"",
            ),
        ],
    ),
    (
        "an untyped parameter a template computes with turns into text",
        &[
            edit(
                "rules.en.toml",
                "{params.hand_size card} to",
                "{params.hand_size} to",
            ),
            edit(
                "rules.en.toml",
                "{params.hand_size card}.",
                "{params.hand_size}.",
            ),
            edit(
                "templates/card.svg",
                "{%- if card.text %}",
                "<desc>{{ params.hand_size * 2 }}</desc>\n{%- if card.text %}",
            ),
            edit(
                "game.toml",
                "type = \"int\"\nmin = 1\nmax = 10\nvalue = 5",
                "value = \"three\"",
            ),
        ],
    ),
    (
        "a card's own back names a template that does not exist (in the CSV)",
        &[edit("cards.csv", "comet-back", "no-such-back")],
    ),
    (
        "a card's own front names a template that does not exist (in TOML)",
        &[
            edit(
                "components.toml",
                "cards = \"cards.csv\"",
                "cards = \"cards.csv\"\n\n[[deck.card]]\nid = \"extra\"\nname = \"Extra\"\ntemplate = \"basic-card\"",
            ),
            edit(
                "components.toml",
                "template = \"basic-card\"",
                "template = \"no-such-front\"",
            ),
        ],
    ),
    (
        "a card's own back template that fails",
        &[edit(
            "templates/comet-back.svg",
            "text=card.name",
            "text=card.nothing",
        )],
    ),
    (
        "a card's own back template (named in the CSV) that writes malformed SVG",
        &[edit(
            "templates/comet-back.svg",
            "fill=\"#e9d8a6\"/>",
            "fill=\"#e9d8a6\">",
        )],
    ),
    (
        "a piece's back template that writes malformed SVG",
        &[edit(
            "templates/token-back.svg",
            "fill=\"{{ back.colour }}\"/>",
            "fill=\"{{ back.colour }}\">",
        )],
    ),
    (
        "a deck picking templates by a field it does not have",
        &[edit(
            "components.toml",
            "cards = \"cards.csv\"",
            "cards = \"cards.csv\"\ntemplate_by = \"kind\"\ntemplates = { sun = \"card\" }",
        )],
    ),
    (
        "a piece's back template that fails",
        &[edit(
            "templates/token-back.svg",
            "text=back.label",
            "text=back.nothing",
        )],
    ),
    (
        "a board image outside the game's folder",
        &[edit(
            "components.toml",
            "name = \"Player mat\"",
            "name = \"Player mat\"\nimage = \"../outside.png\"",
        )],
    ),
    (
        "a square board with no cells",
        &[edit("components.toml", "rows = 3", "rows = 0")],
    ),
    (
        "cards larger than the paper",
        &[edit(
            "components.toml",
            "size = \"poker\"",
            "size = { width = 250, height = 250 }",
        )],
    ),
    (
        "a tuck box larger than the paper (12 cards of 90 x 140 mm, 1.6 mm thick)",
        &[
            edit("components.toml", "size = \"poker\"", BIG_CARDS),
            edit(
                "components.toml",
                BIG_CARDS,
                "size = { width = 90, height = 140 }\nbox = { card_thickness_mm = 1.6 }",
            ),
        ],
    ),
];

#[test]
fn every_kind_is_refused_by_check_and_build_at_the_line_to_change() {
    for (what, edits) in KINDS {
        let dir = scaffold();
        let mut line = 0;
        for e in *edits {
            line = apply(dir.path(), e);
        }
        let last = edits.last().unwrap();
        let place = format!("{}:{line}:", last.file);
        let check = run(dir.path(), &["check"]);
        assert_eq!(
            check.code, 1,
            "{what}: check exit; stderr:\n{}",
            check.stderr
        );
        assert!(
            check.stderr.contains(&place),
            "{what}: check names no `{place}`:\n{}",
            check.stderr
        );
        let out = dir.path().join("out");
        let built = run(dir.path(), &["build", "--out", out.to_str().unwrap()]);
        assert_eq!(
            built.code, 1,
            "{what}: build exit; stderr:\n{}",
            built.stderr
        );
        assert!(
            built.stderr.contains(&place),
            "{what}: build names no `{place}`:\n{}",
            built.stderr
        );
        assert!(!out.join(SLUG).join("cards.pdf").exists(), "{what}: built");
    }
}

/// A deck's tuck box grows with its cards: the scaffold's 12 cards of 90 x 140 mm, 1.5 mm
/// thick, make a box that just fits A4 (turned, its net is exactly as tall as the page's room
/// is wide), and `build` prints it; 1.6 mm thick, `check` and `build` both refuse it at the
/// deck's `box` (in the kinds above).
#[test]
fn a_tuck_box_that_just_fits_the_paper_is_printed() {
    use printplay::render::sheets::layout::Paper;
    use printplay::render::sheets::tuck_box::{Net, place};
    let card = (90.0, 140.0);
    assert!(place(Net::new(card, 12, 1.5).size(), 3.0, Paper::A4).is_some());
    assert!(place(Net::new(card, 12, 1.6).size(), 3.0, Paper::A4).is_none());
    let dir = scaffold();
    apply(
        dir.path(),
        &edit(
            "components.toml",
            "size = \"poker\"",
            "size = { width = 90, height = 140 }\nbox = { card_thickness_mm = 1.5 }",
        ),
    );
    let check = run(dir.path(), &["check"]);
    assert_eq!(check.code, 0, "{}", check.stderr);
    let out = dir.path().join("out");
    let built = run(
        dir.path(),
        &["build", "--only", "boxes", "--out", out.to_str().unwrap()],
    );
    assert_eq!(built.code, 0, "{}", built.stderr);
    assert!(out.join(SLUG).join("boxes.pdf").is_file());
}

/// A deck that writes no `box` gets one only where it fits: 12 cards of 120 x 180 mm at the
/// default thickness make a net that fits A4 neither upright nor turned (their sheets fit),
/// and then `check` warns at the deck and passes, and `build` prints no box for it instead
/// of failing (a 1,000-card game's full build failed in its `boxes` stage). Written as
/// `box = {}`, the same box is asked for, and refused.
#[test]
fn a_deck_that_asks_for_no_box_is_left_without_one_where_none_fits() {
    let dir = scaffold();
    let size = "size = { width = 120, height = 180 }";
    let line = apply(
        dir.path(),
        &edit("components.toml", "size = \"poker\"", size),
    );
    let check = run(dir.path(), &["check"]);
    assert_eq!(check.code, 0, "{}", check.stderr);
    let at = format!("warning: game/components.toml:{line}:8: the tuck box of deck");
    assert!(check.stderr.contains(&at), "{}", check.stderr);
    let out = dir.path().join("out");
    let boxes = ["build", "--only", "boxes", "--out", out.to_str().unwrap()];
    let built = run(dir.path(), &boxes);
    assert_eq!(built.code, 0, "{}", built.stderr);
    assert!(!out.join(SLUG).join("boxes.pdf").exists());
    let asked = "size = { width = 120, height = 180 }\nbox = {}";
    apply(dir.path(), &edit("components.toml", size, asked));
    assert_eq!(run(dir.path(), &["check"]).code, 1);
    assert_eq!(run(dir.path(), &boxes).code, 1);
}

/// A name that is no template is never read as a path, wherever it points.
#[test]
fn a_template_name_is_never_read_as_a_path() {
    let dir = scaffold();
    std::fs::write(dir.path().join("secret.svg"), "<rect/>").unwrap();
    apply(
        dir.path(),
        &edit(
            "components.toml",
            "template = \"card\"",
            "template = \"../secret\"",
        ),
    );
    let check = run(dir.path(), &["check"]);
    assert_eq!(check.code, 1, "{}", check.stderr);
    assert!(
        check
            .stderr
            .contains("template `../secret`, which does not exist"),
        "{}",
        check.stderr
    );
}

/// Changes that break nothing, or break something `check` has always seen: the converse
/// below must hold for them too.
const HARMLESS_OR_SEEN: &[Edit] = &[
    edit("components.toml", "hex_mm = 30", "hex_mm = 45"),
    edit(
        "game.toml",
        "designer = \"Your name\"",
        "designer = \"Your name\"\nmin_text_pt = 8",
    ),
    edit(
        "game.toml",
        "designer = \"Your name\"",
        "designer = \"Your name\"\nmin_text_pt = 3",
    ),
    edit(
        "components.toml",
        "template = \"card\"",
        "template = \"basic-card\"",
    ),
    edit(
        "components.toml",
        "size = \"poker\"",
        "size = { width = 100, height = 150 }",
    ),
    edit("components.toml", "size = \"poker\"", "size = \"tarot\""),
    edit("components.toml", "size_mm = 20", "size_mm = 300"),
    edit("components.toml", "shape = \"circle\"", "shape = \"hex\""),
    edit("cards.csv", "Morning", "Morning &amp; <b>dawn</b> ]]>"),
    edit("cards.csv", ",2,Play", ",0,Play"),
    edit(
        "templates/card.svg",
        "fill=\"#fbf8f1\"/>",
        "fill=\"#fbf8f1\"/></g>",
    ),
    edit(
        "templates/card.svg",
        "fill=\"#fbf8f1\"/>",
        "fill=\"#fbf8f1\"/><text>a & b</text>",
    ),
    edit(
        "templates/card.svg",
        "fill=\"#fbf8f1\"/>",
        "fill=\"#fbf8f1\"/><g><rect/></g>",
    ),
    edit(
        "game.toml",
        "players = { min = 2, max = 4 }",
        "players = { min = 1, max = 4 }",
    ),
    edit(
        "game.toml",
        "players = { min = 2, max = 4 }",
        "players = { min = 2, max = 2 }",
    ),
    edit(
        "game.toml",
        "designer = \"Your name\"",
        "designer = \"Your name\"\nlanguages = [\"en\", \"xx\"]",
    ),
    edit(
        "engine.lua",
        "\nreturn game",
        "\nlocal unused = 1\nreturn game",
    ),
];

/// Whatever `check` passes, `build` writes (whole, and each `--only` stage alone) and a
/// 20-game `simulate` plays; whatever it refuses, `build` refuses as data (exit 1), each
/// problem naming its file.
#[test]
fn whatever_check_passes_build_and_simulate_accept() {
    let mut sets: Vec<Vec<Edit>> = vec![Vec::new()];
    sets.extend(KINDS.iter().map(|(_, e)| e.to_vec()));
    sets.extend(HARMLESS_OR_SEEN.iter().map(|e| vec![*e]));
    // A harmless change with each kind.
    sets.extend(
        KINDS
            .iter()
            .zip(HARMLESS_OR_SEEN.iter().cycle().skip(3))
            .map(|((_, a), b)| [vec![*b], a.to_vec()].concat()),
    );
    let mut passed = 0;
    for set in &sets {
        let dir = scaffold();
        let data = dir.path();
        for e in set {
            let text = std::fs::read_to_string(data.join(SLUG).join(e.file)).unwrap();
            if text.contains(e.from) {
                apply(data, e);
            }
        }
        let (games, load_problems) = load_games(data, &[]);
        let checked = load_problems.is_empty()
            && games
                .iter()
                .all(|g| printplay::check::check_game_report(g).problems.is_empty());
        let out = data.join("out");
        let options = |only: Option<&str>| BuildOptions {
            out: out.clone(),
            only: only.into_iter().map(str::to_string).collect(),
            ..BuildOptions::default()
        };
        if !checked {
            let report = build(data, &[], &options(None), &|_| {});
            for p in report.problems().iter().filter(|p| !p.is_warning()) {
                assert_eq!(p.kind, printplay::diag::ProblemKind::Data, "{set:?}: {p}");
                assert!(p.file.is_some(), "{set:?}: no file in `{p}`");
            }
            assert!(
                report
                    .games
                    .iter()
                    .all(|g| matches!(g.outcome, Outcome::NotChecked(_))),
                "{set:?}: check refused it, build did not"
            );
            continue;
        }
        passed += 1;
        // Every `--only` for the game as made, the whole build for each change (a stage
        // alone runs what the whole build runs, with the same check).
        let mut runs: Vec<Option<&str>> = vec![None];
        if set.is_empty() {
            runs.extend(stage_names().into_iter().map(Some));
        }
        for only in runs {
            let report = build(data, &[], &options(only), &|_| {});
            for g in &report.games {
                assert!(
                    matches!(g.outcome, Outcome::Built(_)),
                    "{set:?}, --only {only:?}: check passed, build gave {:?}",
                    g.outcome
                );
            }
        }
        for game in &games {
            let opts = SimOptions {
                games: 20,
                ..SimOptions::default()
            };
            if let Err(e) = simulate(game, &opts, None) {
                panic!("{set:?}: check passed, simulate refused: {e}");
            }
        }
    }
    // The set holds games on both sides.
    assert!(passed >= 5, "only {passed} of {} games passed", sets.len());
    assert!(passed < sets.len());
}

/// A card's own back and a piece's back are read as SVG with every other face: one that does
/// not read is refused by `check` at its template's line, naming the card or piece drawn.
#[test]
fn a_back_that_does_not_read_names_its_template_line_and_its_card_or_piece() {
    let cases = [
        (
            edit(
                "templates/comet-back.svg",
                "fill=\"#e9d8a6\"/>",
                "fill=\"#e9d8a6\">",
            ),
            "the back of card `star-high` of deck `deck`",
        ),
        (
            edit(
                "templates/token-back.svg",
                "fill=\"{{ back.colour }}\"/>",
                "fill=\"{{ back.colour }}\">",
            ),
            "the back of piece `marker`",
        ),
    ];
    for (e, named) in cases {
        let dir = scaffold();
        let line = apply(dir.path(), &e);
        let game = printplay::model::load_game(dir.path(), SLUG).unwrap();
        let problems = printplay::check::check_game(&game);
        assert_eq!(problems.len(), 1, "{problems:#?}");
        let p = &problems[0];
        assert_eq!(p.kind, printplay::diag::ProblemKind::Data);
        let place = format!("{}:{line}:", e.file);
        let text = p.render(false);
        assert!(text.contains(&place), "no `{place}` in {text}");
        assert!(p.message.contains(named), "no `{named}` in {}", p.message);
    }
}
