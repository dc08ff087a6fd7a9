//! What the program prints says each thing once and truly: a seat's label once, counts with
//! the noun in the number's form, and bot errors that name the bots a game really has.

mod common;

use common::run_in;

/// A temp data folder with `printplay new my-game` (no rules engine) and `new lua-game
/// --engine lua` (the tutorial engine).
fn scaffolds() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().to_str().unwrap();
    for args in [
        &["--data", data, "new", "my-game"][..],
        &["--data", data, "new", "lua-game", "--engine", "lua"][..],
    ] {
        let run = run_in(dir.path(), args);
        assert_eq!(run.code, 0, "{}", run.stderr);
    }
    dir
}

#[test]
fn a_bot_a_game_lacks_is_refused_with_the_bots_it_has() {
    let dir = scaffolds();
    let data = dir.path().to_str().unwrap();
    let run = run_in(
        dir.path(),
        &["--data", data, "table", "my-game", "--seats", "2=heuristic"],
    );
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(
        run.stderr.contains("no bots of its own") && !run.stderr.contains("try random, heuristic"),
        "{}",
        run.stderr
    );
    let run = run_in(
        dir.path(),
        &["--data", data, "table", "my-game", "--seats", "2=mcts"],
    );
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(run.stderr.contains("no bots of its own"), "{}", run.stderr);
    let run = run_in(
        dir.path(),
        &["--data", data, "simulate", "lua-game", "--bots", "cautious"],
    );
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(
        run.stderr
            .contains("this game's bots are `random`, `heuristic`"),
        "{}",
        run.stderr
    );
}

/// Counted nouns printed with the count 1 in a plural form (`1 cards`), and `(s)` plurals,
/// in `text`: each slip with its line.
fn plural_slips(text: &str) -> Vec<String> {
    const NOUNS: &[&str] = &[
        "cards",
        "points",
        "moves",
        "games",
        "turns",
        "tiles",
        "elementals",
        "problems",
        "files",
        "texts",
        "card plays",
        "extra draws",
        "hidden cards",
        "hidden tiles",
        "empty hexes",
    ];
    let mut out = Vec::new();
    for line in text.lines() {
        if ["card(s)", "move(s)", "problem(s)", "file(s)", "text(s)"]
            .iter()
            .any(|s| line.contains(s))
        {
            out.push(line.to_string());
            continue;
        }
        for (at, _) in line.match_indices("1 ") {
            let before = &line[..at];
            let after = &line[at + 2..];
            let word_before = before.split_whitespace().last().unwrap_or("");
            if before.ends_with(|c: char| c.is_alphanumeric() || c == '.')
                || ["player", "seat"].contains(&word_before)
            {
                continue;
            }
            let slip = NOUNS.iter().any(|n| {
                after.starts_with(n) && !after[n.len()..].starts_with(|c: char| c.is_alphanumeric())
            });
            if slip {
                out.push(line.to_string());
            }
        }
    }
    out
}

#[test]
fn the_slip_finder_finds_slips_and_spares_verbs_and_larger_numbers() {
    let found = plural_slips(
        "deck: 1 cards\nplayer 1 moves north\n21 cards\nturn 1, 1 card plays left\n0 cards\n1 card(s) to draw\n1 cardsharp",
    );
    assert_eq!(
        found,
        [
            "deck: 1 cards",
            "turn 1, 1 card plays left",
            "1 card(s) to draw"
        ]
    );
}

#[test]
fn shipped_games_print_one_of_a_noun_in_the_singular() {
    let repo = common::repo();
    let mut slips = Vec::new();
    let mut scan = |args: &[&str]| {
        let run = run_in(repo, args);
        for slip in plural_slips(&format!("{}\n{}", run.stdout, run.stderr)) {
            slips.push(format!("{}: {slip}", args.join(" ")));
        }
    };
    for game in ["aether", "capek-golems", "the-search"] {
        scan(&["replay", game, "--game", "1"]);
        scan(&["replay", game, "--game", "2", "--observer", "1"]);
        scan(&["simulate", game, "--games", "1"]);
    }
    scan(&["check"]);
    slips.dedup();
    assert!(slips.is_empty(), "{}", slips.join("\n"));
}

#[test]
fn a_seats_view_names_the_seat_once_and_counts_in_the_singular() {
    let dir = scaffolds();
    let data = dir.path().to_str().unwrap();
    for observer in [&["--observer", "1"][..], &[][..]] {
        let mut args = vec!["--data", data, "replay", "lua-game", "--game", "1"];
        args.extend_from_slice(observer);
        let run = run_in(dir.path(), &args);
        assert_eq!(run.code, 0, "{}", run.stderr);
        for line in run.stdout.lines() {
            let line = line.trim();
            if let Some((label, rest)) = line.split_once(": ") {
                assert!(
                    !rest.starts_with(&format!("{label}:")),
                    "a label repeated: {line}"
                );
            }
        }
        let slips = plural_slips(&run.stdout);
        assert!(slips.is_empty(), "{}", slips.join("\n"));
    }
}
