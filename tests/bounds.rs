//! Every size, count and loop a game folder can write is bounded (`printplay::limits`): the
//! binary, held to 4 GB of address space as a laptop holds it, refuses each kind past its
//! bound with exit 1 at the file and line to change, from `check`, `build` and `simulate`
//! alike, and is never killed by a signal (an abort on a failed allocation, a stack overflow).

mod common;

use std::path::Path;
use std::process::Command;

const SLUG: &str = "game";

/// The scaffold's game with a Lua engine, `from` replaced by `to` in `file` (or `to` added at
/// its end when `from` is empty); the line the new text starts on.
fn game_with(file: &str, from: &str, to: &str) -> (tempfile::TempDir, usize) {
    let dir = tempfile::tempdir().unwrap();
    printplay::scaffold::new_game_with_engine(dir.path(), SLUG, "lua").unwrap();
    let path = dir.path().join(SLUG).join(file);
    let text = std::fs::read_to_string(&path).unwrap();
    let at = if from.is_empty() {
        text.len()
    } else {
        text.find(from)
            .unwrap_or_else(|| panic!("`{from}` not in {file}"))
    };
    let new = if from.is_empty() {
        format!("{text}{to}")
    } else {
        text.replacen(from, to, 1)
    };
    std::fs::write(&path, &new).unwrap();
    // The first character the edit changes, past any line break it starts with.
    let same = from
        .char_indices()
        .zip(to.chars())
        .find(|((_, a), b)| a != b)
        .map_or(from.len().min(to.len()), |((i, _), _)| i);
    let rest = &to[same..];
    let changed = at + same + rest.len() - rest.trim_start_matches('\n').len();
    (dir, new[..changed].matches('\n').count() + 1)
}

/// Runs the binary under a 4 GB address-space cap: its exit code (`None` for a signal) and
/// its standard error.
fn capped(data: &Path, args: &[&str]) -> (Option<i32>, String) {
    let out = Command::new("sh")
        .arg("-c")
        .arg("ulimit -v 4000000 && exec \"$0\" \"$@\"")
        .arg(env!("CARGO_BIN_EXE_printplay"))
        .arg("--data")
        .arg(data)
        .args(args)
        .current_dir(data)
        .output()
        .expect("run printplay");
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Each kind past its bound: (what, file, from, to).
const KINDS: &[(&str, &str, &str, &str)] = &[
    (
        "a template loop of 1e8",
        "templates/card.svg",
        "",
        "\n{% for i in range(end=100000000) %}<rect/>{% endfor %}\n",
    ),
    (
        "loops within the range budget that write too much",
        "templates/card.svg",
        "",
        "\n{% for i in range(end=5000) %}{% for j in range(end=5000) %}<rect/>{% endfor %}{% endfor %}\n",
    ),
    (
        "a macro that calls itself",
        "templates/card.svg",
        "",
        "\n{% macro f(n) %}<g>{{ self::f(n=n+1) }}</g>{% endmacro f %}{{ self::f(n=0) }}\n",
    ),
    (
        "hex_mm = 3000",
        "components.toml",
        "hex_mm = 30",
        "hex_mm = 3000",
    ),
    (
        "hex_mm = 1000",
        "components.toml",
        "hex_mm = 30",
        "hex_mm = 1000",
    ),
    ("hex_mm = 0", "components.toml", "hex_mm = 30", "hex_mm = 0"),
    (
        "hex_mm = -5",
        "components.toml",
        "hex_mm = 30",
        "hex_mm = -5",
    ),
    (
        "a hex far out",
        "components.toml",
        "  { q = 0, r = -1, kind = \"meadow\" },",
        "  { q = 0, r = -1, kind = \"meadow\" },\n  { q = 1000000, r = 0, kind = \"meadow\" },",
    ),
    (
        "a square board of 3000 mm cells",
        "components.toml",
        "\nmm = 30",
        "\nmm = 3000",
    ),
    (
        "a square board of 0 mm cells",
        "components.toml",
        "\nmm = 30",
        "\nmm = 0",
    ),
    (
        "a square board of 1e5 rows",
        "components.toml",
        "rows = 3",
        "rows = 100000",
    ),
    (
        "an image board 100 m wide",
        "components.toml",
        "",
        "\n[[board]]\nwidth_mm = 100000\nid = \"art\"\nname = \"Art\"\nimage = \"art/emblem.svg\"\nheight_mm = 100\n",
    ),
    (
        "a piece of -5 mm",
        "components.toml",
        "size_mm = 20",
        "size_mm = -5",
    ),
    (
        "a piece of 1e6 mm",
        "components.toml",
        "size_mm = 20",
        "size_mm = 1000000",
    ),
    (
        "cards 1e5 mm wide",
        "components.toml",
        "size = \"poker\"",
        "size = { width = 100000, height = 88 }",
    ),
    (
        "a Lua engine that doubles a string for ever",
        "engine.lua",
        "function game.setup(config, rng)\n",
        "function game.setup(config, rng)\n  local s = 'x' while true do s = s .. s end\n",
    ),
    (
        "a Lua engine that fills a table",
        "engine.lua",
        "function game.setup(config, rng)\n",
        "function game.setup(config, rng)\n  local t = {} for i = 1, 1e9 do t[i] = {i} end\n",
    ),
];

#[test]
fn every_kind_past_its_bound_is_refused_at_its_line_under_a_4_gb_cap() {
    for (what, file, from, to) in KINDS {
        let (dir, line) = game_with(file, from, to);
        // An added board is refused at its `width_mm`, the line after its header.
        let line = line + usize::from(to.starts_with("\n[[board]]"));
        // Memory gone within a few instructions, before the budget's hook ever ran, is
        // placed at the first line of the function that ran out.
        let line = line - usize::from(what.contains("doubles"));
        let place = format!("{file}:{line}:");
        let out = dir.path().join("out");
        let build = ["build", "--out", out.to_str().unwrap()];
        let commands: &[&[&str]] = if *file == "engine.lua" {
            &[&["check"], &["simulate", SLUG, "--games", "1"]]
        } else {
            &[&["check"], &build]
        };
        for args in commands {
            let (code, stderr) = capped(dir.path(), args);
            assert_eq!(
                code,
                Some(1),
                "{what}: `{}` exit; stderr:\n{stderr}",
                args[0]
            );
            assert!(
                stderr.contains(&place),
                "{what}: `{}` names no `{place}`:\n{stderr}",
                args[0]
            );
        }
        assert!(!out.join(SLUG).exists(), "{what}: built");
    }
}

/// The shipped data and the scaffold lie within every bound.
#[test]
fn the_scaffold_is_within_every_bound() {
    let (dir, _) = game_with("components.toml", "", "");
    let (code, stderr) = capped(dir.path(), &["check"]);
    assert_eq!(code, Some(0), "{stderr}");
}
