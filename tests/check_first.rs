//! Every command that reads a game runs `check` on it first (one function of the library,
//! `pipeline::load_checked`): data `check` refuses is refused by each of them, exit 1 at the
//! line `check` names, before any of it runs or writes a file. Through the binary, one
//! command after another.

mod common;

use std::path::Path;

use common::run_in;

const SLUG: &str = "g";

/// The scaffold's Lua game with a symbol `check` refuses (`id = "järvi"`), which loads.
fn refused() -> (tempfile::TempDir, usize) {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    printplay::scaffold::new_game_with_engine(&data, SLUG, "lua").unwrap();
    let path = data.join(SLUG).join("components.toml");
    let mut text = std::fs::read_to_string(&path).unwrap();
    text.push_str(
        "\n[[symbol]]\nid = \"järvi\"\ngroup = \"suit\"\nname = \"Järvi\"\ncolour = \"#3a6ea5\"\nmark = \"circle\"\n",
    );
    let line = text.lines().position(|l| l == "id = \"järvi\"").unwrap() + 1;
    std::fs::write(&path, text).unwrap();
    (dir, line)
}

#[test]
fn every_command_that_reads_a_game_refuses_what_check_refuses() {
    let (dir, line) = refused();
    let root = dir.path();
    let data = root.join("data");
    let data = data.to_str().unwrap();
    let place = format!("components.toml:{line}:");
    let out = root.join("out");
    let out = out.to_str().unwrap();
    let file = root.join("written");
    let written = file.to_str().unwrap();
    let moves = root.join("moves.json");
    std::fs::write(&moves, "[]").unwrap();
    let moves = moves.to_str().unwrap();
    let db = root.join("tables.db");
    let db = db.to_str().unwrap();
    let commands: Vec<Vec<&str>> = vec![
        vec!["check", SLUG],
        vec!["build", SLUG, "--out", out],
        vec!["simulate", SLUG, "--games", "2", "--out", out],
        vec![
            "tune",
            SLUG,
            "--params",
            "hand_size=3..5",
            "--budget",
            "10",
            "--out",
            out,
        ],
        vec!["replay", SLUG, "--game", "1"],
        vec!["replay", SLUG, "--moves", moves],
        vec!["play", SLUG, "--seat", "1"],
        vec!["table", SLUG, "--port", "0", "--db", db],
        vec!["rules", SLUG, "--out", out],
        vec!["export-csv", SLUG, "deck", "--out", written],
        vec!["export-xlsx", SLUG, "deck", "--out", written],
        vec!["variants", SLUG],
        vec!["analyze", SLUG],
        vec!["playtests", SLUG, "--db", db],
    ];
    for args in &commands {
        let mut all = vec!["--data", data];
        all.extend(args.iter().copied());
        let run = run_in(root, &all);
        assert_eq!(run.code, 1, "{args:?}: exit; stderr:\n{}", run.stderr);
        assert!(
            run.stderr.contains(&place) && run.stderr.contains("järvi"),
            "{args:?}: `check`'s problem at `{place}` not said:\n{}",
            run.stderr
        );
        assert!(!run.stderr.contains("panicked"), "{}", run.stderr);
    }
    // Nothing ran far enough to write a file.
    assert!(!Path::new(out).exists(), "{out} written");
    assert!(!file.exists(), "{written} written");
}

/// `serve` lists a game `check` refuses with its problems and makes no table of it.
#[test]
fn serve_lists_a_refused_game_with_its_problem_and_makes_no_table_of_it() {
    let (dir, line) = refused();
    let data = dir.path().join("data");
    let db = dir.path().join("tables.db");
    let server = common::server::start(
        &[
            "--data",
            data.to_str().unwrap(),
            "serve",
            "--port",
            "0",
            "--db",
            db.to_str().unwrap(),
        ],
        2,
    );
    let base = server.base();
    let admin = common::server::admin_of(&server.lines);
    // The check runs beside serving; a table asked for waits for its game's check, so the
    // table is asked for first and the list read once the check has answered.
    let (status, body) = common::server::http(
        "POST",
        &format!("{base}/api/tables?admin={admin}"),
        format!("{{\"game\":\"{SLUG}\"}}").as_bytes(),
    );
    assert_eq!(status, 409, "a table of a refused game: {body}");
    assert!(
        body.contains(&format!("components.toml:{line}:")),
        "the refusal names the line: {body}"
    );
    let (status, body) = common::server::http("GET", &format!("{base}/api/games"), b"");
    assert_eq!(status, 200, "{body}");
    let catalog: serde_json::Value = serde_json::from_str(&body).unwrap();
    let playable = catalog["games"]
        .as_array()
        .is_some_and(|g| g.iter().any(|g| g["slug"] == SLUG && g["playable"] == true));
    assert!(!playable, "a refused game is offered: {catalog}");
    let problems = catalog["problems"].to_string();
    assert!(
        problems.contains(&format!("components.toml:{line}:")) && problems.contains("järvi"),
        "{catalog}"
    );
}

/// A warning (here a rules sentence with two colons) does not stop `check` from loading the
/// engine: a syntax error in `engine.lua` is still refused at its line, as `simulate` would.
#[test]
fn a_warning_does_not_hide_an_engine_that_does_not_load() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    printplay::scaffold::new_game_with_engine(&data, SLUG, "lua").unwrap();
    let rules = data.join(SLUG).join("rules.en.toml");
    let text = std::fs::read_to_string(&rules).unwrap();
    let text = text.replacen(
        "goal = \"\"\"\n",
        "goal = \"\"\"\nTwo colons: one here: and one there.\n",
        1,
    );
    std::fs::write(&rules, text).unwrap();
    let script = data.join(SLUG).join("engine.lua");
    let text = std::fs::read_to_string(&script).unwrap();
    let line = text[..text.rfind("\nreturn game").unwrap()]
        .matches('\n')
        .count()
        + 2;
    std::fs::write(
        &script,
        text.replacen("\nreturn game", "\nlocal x = = 1\nreturn game", 1),
    )
    .unwrap();
    let run = run_in(
        dir.path(),
        &["--data", data.to_str().unwrap(), "check", SLUG],
    );
    assert!(run.stderr.contains("2 colons"), "{}", run.stderr);
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert!(
        run.stderr.contains(&format!("engine.lua:{line}")),
        "line {line}: {}",
        run.stderr
    );
}
