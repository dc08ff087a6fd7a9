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
        "a string doubled 40 times with `set`",
        "templates/card.svg",
        "",
        "\n{% set s = 'x' %}{% for i in range(end=40) %}{% set s = s ~ s %}{% endfor %}{{ s | length }}\n",
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

/// CRC-32 of PNG chunks.
fn crc32(bytes: &[u8]) -> u32 {
    let mut crc = !0u32;
    for b in bytes {
        crc ^= u32::from(*b);
        for _ in 0..8 {
            crc = if crc & 1 == 1 {
                (crc >> 1) ^ 0xEDB8_8320
            } else {
                crc >> 1
            };
        }
    }
    !crc
}

/// A PNG whose header declares `w` x `h` pixels of one colour (its data is one row: the
/// decoder never reaches it unless it allocates for the whole image first).
fn png_declaring(w: u32, h: u32) -> Vec<u8> {
    let mut bytes = Vec::new();
    let mut encoder = png::Encoder::new(&mut bytes, 1, 1);
    encoder.set_color(png::ColorType::Rgba);
    encoder.set_depth(png::BitDepth::Eight);
    let mut writer = encoder.write_header().unwrap();
    writer.write_image_data(&[200, 30, 30, 255]).unwrap();
    writer.finish().unwrap();
    assert_eq!(&bytes[12..16], b"IHDR");
    bytes[16..20].copy_from_slice(&w.to_be_bytes());
    bytes[20..24].copy_from_slice(&h.to_be_bytes());
    let crc = crc32(&bytes[12..29]);
    bytes[29..33].copy_from_slice(&crc.to_be_bytes());
    bytes
}

/// A CMYK JPEG (as Photoshop writes it) whose frame header declares `w` x `h` pixels.
fn cmyk_jpeg_declaring(w: u16, h: u16) -> Vec<u8> {
    let mut bytes = Vec::new();
    jpeg_encoder::Encoder::new(&mut bytes, 90)
        .encode(
            &[0, 160, 255, 0].repeat(64),
            8,
            8,
            jpeg_encoder::ColorType::Cmyk,
        )
        .unwrap();
    let sof = (2..bytes.len() - 1)
        .find(|&i| bytes[i] == 0xFF && matches!(bytes[i + 1], 0xC0..=0xC2))
        .unwrap();
    bytes[sof + 5..sof + 7].copy_from_slice(&h.to_be_bytes());
    bytes[sof + 7..sof + 9].copy_from_slice(&w.to_be_bytes());
    bytes
}

fn base64(bytes: &[u8]) -> String {
    const ABC: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::new();
    for chunk in bytes.chunks(3) {
        let b = [
            chunk[0],
            *chunk.get(1).unwrap_or(&0),
            *chunk.get(2).unwrap_or(&0),
        ];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(ABC[(n >> (18 - 6 * i) & 63) as usize] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}

/// Art past its bound, named by an image board: (what, file name, bytes).
fn oversized_art() -> Vec<(&'static str, &'static str, Vec<u8>)> {
    let svg = |attrs: &str, body: &str| {
        format!(r#"<svg xmlns="http://www.w3.org/2000/svg" {attrs}>{body}</svg>"#).into_bytes()
    };
    vec![
        (
            "a 60000 x 60000 PNG",
            "big.png",
            png_declaring(60_000, 60_000),
        ),
        (
            "a 65000 x 65000 CMYK JPEG",
            "big.jpg",
            cmyk_jpeg_declaring(65_000, 65_000),
        ),
        (
            "SVG art 1e9 units wide",
            "wide.svg",
            svg(
                r#"width="1000000000" height="1000000000""#,
                r#"<rect width="10" height="10"/>"#,
            ),
        ),
        (
            "SVG art embedding a 60000 x 60000 PNG",
            "embeds.svg",
            svg(
                r#"width="100" height="100""#,
                &format!(
                    r#"<image width="100" height="100" href="data:image/png;base64,{}"/>"#,
                    base64(&png_declaring(60_000, 60_000))
                ),
            ),
        ),
    ]
}

#[test]
fn oversized_art_is_refused_at_the_value_that_names_it_under_a_4_gb_cap() {
    for (what, name, bytes) in oversized_art() {
        let board = format!(
            "\n[[board]]\nid = \"art\"\nname = \"Art\"\nimage = \"art/{name}\"\nwidth_mm = 100\nheight_mm = 100\n"
        );
        let (dir, line) = game_with("components.toml", "", &board);
        std::fs::write(dir.path().join(SLUG).join("art").join(name), bytes).unwrap();
        let place = format!("components.toml:{}:", line + 3);
        let out = dir.path().join("out");
        for args in [&["check"][..], &["build", "--out", out.to_str().unwrap()]] {
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
