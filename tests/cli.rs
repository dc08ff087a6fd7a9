//! The command line's documented behaviour: list, schema, new, check --provenance.

mod common;

use common::{Fixture, repo, run_in};

#[test]
fn list_prints_one_line_per_game() {
    let f = Fixture::with_games(&["capek-golems"]);
    let run = f.run(&["list"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let line = run
        .stdout
        .lines()
        .find(|l| l.starts_with("capek-golems"))
        .expect("capek listed");
    assert!(
        line.contains("Aether Captains: Capek Golems (2 players)"),
        "{line}"
    );
}

#[test]
fn schema_is_one_json_schema_per_file_kind() {
    let f = Fixture::with_games(&[]);
    let schema = |kind: &str| -> serde_json::Value {
        let run = f.run(&["schema", kind]);
        assert_eq!(run.code, 0, "{}", run.stderr);
        serde_json::from_str(&run.stdout).expect("valid JSON")
    };
    let game = schema("game");
    assert_eq!(
        game["$schema"],
        "https://json-schema.org/draft/2020-12/schema"
    );
    assert!(game["properties"]["game"].is_object(), "{game}");
    let comps = schema("components");
    assert!(comps["properties"]["deck"].is_object(), "{comps}");
    assert_eq!(
        comps["additionalProperties"],
        serde_json::Value::Bool(false),
        "unknown keys are rejected"
    );
    assert!(schema("rules")["properties"]["overview"].is_object());
    assert!(schema("rules-meta")["properties"]["diagram"].is_object());
    assert!(schema("sheet")["required"].is_array());
}

/// The schemas pass an outside validator's metaschema check, accept every shipped game and
/// reject unknown keys and wrong types (skipped when check-jsonschema is not installed:
/// `pip install check-jsonschema`).
#[test]
fn schemas_validate_the_shipped_data_under_check_jsonschema() {
    let validator = |args: &[&std::ffi::OsStr]| {
        std::process::Command::new("check-jsonschema")
            .args(args)
            .output()
    };
    if validator(&["--version".as_ref()]).is_err() {
        eprintln!("check-jsonschema is not installed; skipped");
        return;
    }
    let f = Fixture::with_games(&[]);
    let dir = f.data().join("schemas");
    let run = f.run(&["schema", "--out", dir.to_str().unwrap()]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let schemas: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    assert_eq!(schemas.len(), 5);
    let mut meta: Vec<&std::ffi::OsStr> = vec!["--check-metaschema".as_ref()];
    meta.extend(schemas.iter().map(|p| p.as_os_str()));
    let out = validator(&meta).unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    let check = |schema: &str, file: &std::path::Path| {
        let schema = dir.join(schema);
        validator(&[
            "--schemafile".as_ref(),
            schema.as_os_str(),
            file.as_os_str(),
        ])
        .unwrap()
    };
    let data = common::repo().join("data");
    for game in std::fs::read_dir(&data)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_dir())
    {
        for entry in std::fs::read_dir(&game).unwrap().map(|e| e.unwrap().path()) {
            let name = entry.file_name().unwrap().to_string_lossy().into_owned();
            let schema = match name.as_str() {
                "game.toml" => "game.schema.json",
                "components.toml" => "components.schema.json",
                "rules.toml" => "rules.schema.json",
                n if n.starts_with("rules.") && n.ends_with(".toml") => "rules-text.schema.json",
                _ => continue,
            };
            let out = check(schema, &entry);
            assert!(
                out.status.success(),
                "{}: {}",
                entry.display(),
                String::from_utf8_lossy(&out.stdout)
            );
        }
    }
    for (schema, bad) in [
        (
            "game.schema.json",
            "[game]\nname = \"x\"\nsummary = \"y\"\nplayers = { min = 1, max = 2 }\ndesigner = \"z\"\nbogus = 1\n",
        ),
        (
            "game.schema.json",
            "[game]\nname = \"x\"\nsummary = \"y\"\nplayers = { min = \"one\", max = 2 }\ndesigner = \"z\"\n",
        ),
        ("components.schema.json", "[[piece]]\nid = 3\n"),
        ("rules-text.schema.json", "overview = 1\n"),
        ("rules.schema.json", "garbage = true\n"),
    ] {
        let path = f.data().join("bad.toml");
        std::fs::write(&path, bad).unwrap();
        assert!(
            !check(schema, &path).status.success(),
            "{schema} accepted:\n{bad}"
        );
    }
}

#[test]
fn new_game_checks_as_it_is_and_is_never_overwritten() {
    let f = Fixture::with_games(&[]);
    let run = f.run(&["new", "my-game"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let check = f.run(&["check", "my-game"]);
    assert_eq!(check.code, 0, "{}", check.stderr);
    assert!(check.stdout.contains("my-game: ok"), "{}", check.stdout);
    std::fs::write(f.file("my-game", "game.toml"), "# mine").unwrap();
    let again = f.run(&["new", "my-game"]);
    assert_eq!(again.code, 2);
    assert!(again.stderr.contains("already exists"), "{}", again.stderr);
    // Nothing was being read: the message says what is wrong and what to do.
    assert!(!again.stderr.contains("cannot read"), "{}", again.stderr);
    assert!(
        again
            .stderr
            .contains("choose another name, or remove that folder"),
        "{}",
        again.stderr
    );
    assert_eq!(
        std::fs::read_to_string(f.file("my-game", "game.toml")).unwrap(),
        "# mine"
    );
}

#[test]
fn new_game_invariants_are_live() {
    let f = Fixture::with_games(&[]);
    f.run(&["new", "my-game"]);
    f.edit(
        "my-game",
        "cards.csv",
        "take the lead*.,sun,1,",
        "take the lead*.,moon,1,",
    );
    let run = f.run(&["check", "my-game"]);
    assert_eq!(run.code, 1);
    assert!(
        run.stderr
            .contains("invariant `each-suit` fails: suit = moon: expected 4, found 6"),
        "{}",
        run.stderr
    );
}

#[test]
fn new_rejects_a_bad_slug() {
    let f = Fixture::with_games(&[]);
    let run = f.run(&["new", "My Game"]);
    assert_eq!(run.code, 2);
    assert!(
        run.stderr.contains("lower-case letters, digits and dashes"),
        "{}",
        run.stderr
    );
    assert!(!run.stderr.contains("cannot read"), "{}", run.stderr);
    assert!(
        run.stderr.contains("for example `my-game`"),
        "{}",
        run.stderr
    );
}

#[test]
fn provenance_lists_reconstructed_values_with_reasons() {
    let f = Fixture::with_games(&["capek-golems"]);
    let run = f.run(&["check", "--provenance"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stdout.contains(
            "reconstructed deck.game.fields.gold: the rulebook prints the range 1 to 3 only"
        ),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout
            .contains("inferred      params.max_markers_per_card"),
        "{}",
        run.stdout
    );
    assert!(
        !run.stdout.contains("params.initial_hand"),
        "printed values are not listed"
    );
}

#[test]
fn analyze_reports_pray_yield_as_an_analysis_not_a_game() {
    let f = Fixture::with_games(&["imperial-settlers-aztecs", "aether"]);
    let run = f.run(&[
        "analyze",
        "imperial-settlers-aztecs",
        "--pray",
        "2",
        "--blessings",
        "brown,tricolor",
        "--stored",
        "grey",
        "--colours",
        "grey,red",
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    for part in [
        "not a game",
        "Common deck: `common-base`",
        "Blessing tokens held: brown, tricolor",
        "Pray 2 (exact",
        "choose after drawing",
        "several: Grey (stone) + Red (food)",
        "no colour (coloured cards)",
    ] {
        assert!(
            run.stdout.contains(part),
            "missing {part:?}:\n{}",
            run.stdout
        );
    }
    assert!(
        !run.stdout.contains("win rate") && !run.stdout.contains("target"),
        "{}",
        run.stdout
    );
    let bad = f.run(&[
        "analyze",
        "imperial-settlers-aztecs",
        "--blessings",
        "plaid",
    ]);
    assert_eq!(bad.code, 2);
    assert!(bad.stderr.contains("`plaid`"), "{}", bad.stderr);
    let other = f.run(&["analyze", "aether"]);
    assert_eq!(other.code, 2);
    assert!(
        other.stderr.contains("no Pray analysis"),
        "{}",
        other.stderr
    );
}

#[test]
fn simulating_settlers_says_why_not_and_points_to_the_analysis() {
    let f = Fixture::with_games(&["imperial-settlers-aztecs"]);
    let run = f.run(&["simulate", "imperial-settlers-aztecs", "--games", "1"]);
    assert_eq!(run.code, 2);
    assert!(run.stderr.contains("nothing to simulate"), "{}", run.stderr);
    assert!(
        run.stderr
            .contains("printplay analyze imperial-settlers-aztecs"),
        "{}",
        run.stderr
    );
}

#[test]
fn readme_lists_every_command_of_help() {
    let help = run_in(repo(), &["--help"]);
    let readme = std::fs::read_to_string(repo().join("README.md")).unwrap();
    let commands = readme
        .split("## Commands")
        .nth(1)
        .and_then(|s| s.split("\n## ").next())
        .expect("README has a Commands section");
    let names: Vec<&str> = help
        .stdout
        .lines()
        .skip_while(|l| !l.starts_with("Commands:"))
        .skip(1)
        .take_while(|l| !l.trim().is_empty())
        .filter_map(|l| l.split_whitespace().next())
        .filter(|n| *n != "help")
        .collect();
    assert!(names.len() > 10, "{names:?}");
    for name in names {
        assert!(
            commands.contains(&format!("`printplay {name}")),
            "README's command list does not name `printplay {name}`"
        );
    }
}

/// `printplay simulate ... | head`: a reader that closes the pipe early ends the program
/// quietly with status 0, not with a panic in `println!`.
#[test]
fn a_closed_stdout_pipe_ends_quietly_with_status_0() {
    let f = Fixture::with_games(&["aether"]);
    let data = f.data().to_str().unwrap();
    let out = f.data().join("out");
    let out = out.to_str().unwrap();
    for args in [
        &["simulate", "aether", "--games", "50", "--out", out][..],
        &["replay", "aether", "--game", "1"][..],
    ] {
        let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_printplay"))
            .args(["--data", data])
            .args(args)
            .current_dir(f.data())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .expect("printplay starts");
        // The read end closes before the program has loaded the game, so its first write
        // meets a closed pipe.
        drop(child.stdout.take());
        let out = child.wait_with_output().expect("printplay ends");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
        assert_eq!(out.status.code(), Some(0), "{args:?}: {stderr}");
    }
}

/// A language the game has no rules in is a usage error: said once, exit 2, naming the
/// languages there are; nothing is written.
#[test]
fn rules_in_a_missing_language_is_one_usage_error() {
    let f = Fixture::with_games(&["aether"]);
    let run = f.run(&["rules", "aether", "--lang", "sv"]);
    assert_eq!(run.code, 2, "{}{}", run.stdout, run.stderr);
    let lines: Vec<&str> = run
        .stderr
        .lines()
        .filter(|l| !l.trim().is_empty())
        .collect();
    assert_eq!(lines.len(), 1, "{}", run.stderr);
    assert!(
        lines[0].contains("`sv`") && lines[0].contains("fi") && lines[0].contains("en"),
        "{}",
        run.stderr
    );
    assert!(run.stdout.is_empty(), "nothing written: {}", run.stdout);
}

/// Standard output and error closed by their reader before the program writes (`printplay
/// export-csv g deck 2>&1 | true`): no panic (exit 101), whatever the command writes, data or
/// a problem.
#[test]
fn a_closed_standard_output_or_error_is_no_panic() {
    use std::process::{Command, Stdio};
    let f = Fixture::with_games(&["capek-golems"]);
    for args in [
        &["export-csv", "g", "deck"][..],
        &["export-csv", "capek-golems", "game"],
        &["check", "capek-golems"],
        &["reference", "--help"],
    ] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_printplay"))
            .arg("--data")
            .arg(f.data())
            .args(args)
            .current_dir(repo())
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        // Both pipes' read ends closed before the program writes a byte.
        drop(child.stdout.take());
        drop(child.stderr.take());
        let status = child.wait().unwrap();
        assert_ne!(status.code(), Some(101), "{args:?}: a panic");
        assert!(matches!(status.code(), Some(0..=2)), "{args:?}: {status:?}");
    }
}

/// A run of no games is a usage error before anything is played or written: a report on
/// nothing would claim nothing and overwrite the last one.
#[test]
fn simulating_no_games_is_refused_and_writes_nothing() {
    let f = Fixture::with_games(&["capek-golems"]);
    let out = tempfile::tempdir().unwrap();
    let run = run_in(
        out.path(),
        &[
            "--data",
            f.data().to_str().unwrap(),
            "simulate",
            "capek-golems",
            "--games",
            "0",
            "--cards",
        ],
    );
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(run.stderr.contains("--games"), "{}", run.stderr);
    assert_eq!(std::fs::read_dir(out.path()).unwrap().count(), 0);
}
