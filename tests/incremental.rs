//! Incremental builds (`src/render/cache.rs`): a warm build writes exactly what a cold one
//! writes, rewrites no file whose bytes did not change, takes faces from the cache, never
//! uses a damaged or stale entry (each kind of input a face reads is changed in turn), keeps
//! one build's worth, and keeps the cache out of the game's published folder.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

use printplay::check::face_report;
use printplay::model::load_game;
use printplay::pipeline;
use printplay::render::cache::CACHE_DIR;
use printplay::render::faces::Faces;
use printplay::render::formats::png;
use printplay::render::{BuildOptions, GameBuild, draw_faces, sheets};

const SLUG: &str = "g";

/// A scaffolded game in `tmp/data`.
fn scaffolded(tmp: &Path) -> PathBuf {
    let data = tmp.join("data");
    printplay::scaffold::new_game(&data, SLUG).unwrap();
    data
}

fn options(out: &Path, cache: bool, only: &[&str]) -> BuildOptions {
    BuildOptions {
        out: out.to_path_buf(),
        cache,
        only: only.iter().map(|s| s.to_string()).collect(),
        ..BuildOptions::default()
    }
}

fn build(data: &Path, options: &BuildOptions) {
    let report = pipeline::build(data, &[SLUG.to_string()], options, &|_| {});
    assert!(report.problems().is_empty(), "{:?}", report.problems());
    assert_eq!(report.games.len(), 1);
}

/// Every file under `dir`, relative to it, with its bytes.
fn files(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    let mut out = BTreeMap::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else {
                let rel = p.strip_prefix(dir).unwrap().to_string_lossy().into_owned();
                out.insert(rel, std::fs::read(&p).unwrap());
            }
        }
    }
    out
}

fn entries(out: &Path, kind: &str) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(out.join(CACHE_DIR).join(SLUG).join(kind))
        .map(|d| d.map(|e| e.unwrap().path()).collect())
        .unwrap_or_default();
    v.sort();
    v
}

/// An hour ago, so that a file rewritten now has another modification time on any file
/// system.
fn set_past(dir: &Path) -> SystemTime {
    let past = SystemTime::now() - Duration::from_secs(3600);
    for name in files(dir).keys() {
        std::fs::File::options()
            .write(true)
            .open(dir.join(name))
            .unwrap()
            .set_modified(past)
            .unwrap();
    }
    past
}

fn edit(path: &Path, from: &str, to: &str) {
    let text = std::fs::read_to_string(path).unwrap();
    assert!(text.contains(from), "{} lacks {from}", path.display());
    std::fs::write(path, text.replacen(from, to, 1)).unwrap();
}

#[test]
fn a_warm_build_writes_what_a_cold_build_writes_and_rewrites_nothing() {
    let tmp = tempfile::tempdir().unwrap();
    let data = scaffolded(tmp.path());
    let out = tmp.path().join("out");
    let game_out = out.join(SLUG);
    build(&data, &options(&out, true, &[]));
    let cold = files(&game_out);
    assert!(cold.contains_key("cards.pdf") && cold.contains_key("png/sun-low.png"));
    // The cache sits beside the game's folder, never in it, and the gallery names none of it.
    assert!(!entries(&out, "face").is_empty() && !entries(&out, "raster").is_empty());
    assert!(
        cold.keys().all(|f| !f.contains(CACHE_DIR)),
        "{:?}",
        cold.keys()
    );
    let gallery = String::from_utf8(cold["index.html"].clone()).unwrap();
    assert!(!gallery.contains(CACHE_DIR), "{gallery}");

    let past = set_past(&game_out);
    build(&data, &options(&out, true, &[]));
    assert_eq!(files(&game_out), cold, "a warm build writes other bytes");
    for name in cold.keys() {
        let modified = std::fs::metadata(game_out.join(name))
            .unwrap()
            .modified()
            .unwrap();
        assert_eq!(modified, past, "{name} was rewritten with the same bytes");
    }

    // Without any cache, the very same files.
    std::fs::remove_dir_all(&out).unwrap();
    build(&data, &options(&out, false, &[]));
    assert_eq!(
        files(&game_out),
        cold,
        "a build without the cache writes other bytes"
    );
    assert!(!out.join(CACHE_DIR).exists());
}

#[test]
fn a_warm_build_takes_faces_from_the_cache_and_ignores_damaged_entries() {
    let tmp = tempfile::tempdir().unwrap();
    let data = scaffolded(tmp.path());
    let out = tmp.path().join("out");
    let only = ["cards"];
    build(&data, &options(&out, true, &only));
    let cold = std::fs::read(out.join(SLUG).join("cards.pdf")).unwrap();
    let faces = entries(&out, "face");
    // Six fronts, the Comet's own back, the deck's back and tuck box, a token and its back.
    assert_eq!(faces.len(), 11, "{faces:?}");

    // An entry holding another face, well formed: the warm build draws what it holds, so the
    // build does take faces from the cache (the key is what makes this safe).
    let forged = |bytes: &[u8]| {
        let text = String::from_utf8_lossy(&bytes[40..]).into_owned();
        let other = text.replace("#fbf8f1", "#ff00ff");
        assert_ne!(other, text, "a front's background is #fbf8f1");
        let mut entry = b"ppcache1".to_vec();
        entry.extend_from_slice(blake3::hash(other.as_bytes()).as_bytes());
        entry.extend_from_slice(other.as_bytes());
        entry
    };
    let front = faces
        .iter()
        .find(|p| String::from_utf8_lossy(&std::fs::read(p).unwrap()).contains("#fbf8f1"))
        .unwrap()
        .clone();
    let genuine = std::fs::read(&front).unwrap();
    std::fs::write(&front, forged(&genuine)).unwrap();
    build(&data, &options(&out, true, &only));
    let from_cache = std::fs::read(out.join(SLUG).join("cards.pdf")).unwrap();
    assert_ne!(from_cache, cold, "the warm build drew the face again");

    // The same entry damaged (one byte of the face changed, its hash not): not used, drawn
    // again and written whole.
    let mut damaged = genuine.clone();
    let last = damaged.len() - 2;
    damaged[last] ^= 0x20;
    std::fs::write(&front, &damaged).unwrap();
    build(&data, &options(&out, true, &only));
    assert_eq!(
        std::fs::read(out.join(SLUG).join("cards.pdf")).unwrap(),
        cold
    );
    assert_eq!(std::fs::read(&front).unwrap(), genuine);

    // A cut-short entry likewise.
    std::fs::write(&front, &genuine[..20]).unwrap();
    build(&data, &options(&out, true, &only));
    assert_eq!(
        std::fs::read(out.join(SLUG).join("cards.pdf")).unwrap(),
        cold
    );
    assert_eq!(std::fs::read(&front).unwrap(), genuine);
}

/// Makes every glyph of a TrueType font wider (its advance widths in `hmtx`), so that text
/// set in it lays out differently while the font keeps its name.
fn widen_font(path: &Path) {
    let mut font = std::fs::read(path).unwrap();
    let u16_at = |f: &[u8], at: usize| u16::from_be_bytes([f[at], f[at + 1]]) as usize;
    let u32_at =
        |f: &[u8], at: usize| u32::from_be_bytes([f[at], f[at + 1], f[at + 2], f[at + 3]]) as usize;
    let tables = u16_at(&font, 4);
    let table = |f: &[u8], tag: &[u8; 4]| {
        (0..tables)
            .map(|i| 12 + 16 * i)
            .find(|&r| &f[r..r + 4] == tag)
            .map(|r| u32_at(f, r + 8))
            .unwrap()
    };
    let metrics = u16_at(&font, table(&font, b"hhea") + 34);
    let hmtx = table(&font, b"hmtx");
    for g in 0..metrics {
        let at = hmtx + 4 * g;
        let wider = (u16_at(&font, at) + 300).min(u16::MAX as usize) as u16;
        font[at..at + 2].copy_from_slice(&wider.to_be_bytes());
    }
    std::fs::write(path, font).unwrap();
}

/// Every face of a game by what it is: `front deck/card`, `back deck/card` (a card's own
/// back), `deck back deck`, `piece id`, `piece back id`.
fn snapshot(faces: &Faces) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    for d in &faces.decks {
        for c in &d.cards {
            out.insert(format!("front {}/{}", d.id, c.id), c.svg.clone());
            if let Some(b) = &c.back {
                out.insert(format!("back {}/{}", d.id, c.id), b.svg.clone());
            }
        }
        out.insert(format!("deck back {}", d.id), d.back.clone());
    }
    for p in &faces.pieces {
        out.insert(format!("piece {}", p.id), p.svg.clone());
        if let Some(b) = &p.back {
            out.insert(format!("piece back {}", p.id), b.clone());
        }
    }
    out
}

/// A small resolution for the raster comparisons (the key holds it like any other).
const TEST_PX_PER_MM: f64 = 2.0;

/// A game's faces by what they are, and the sun-low front as a raster image.
type Drawn = (BTreeMap<String, String>, Vec<u8>);

/// The game's faces drawn as a build draws them, through the cache in `out` (kept there
/// afterwards, as a build that passed its check keeps them), with the sun-low front as a
/// raster image through the cache; and the same drawn without any cache.
fn warm_and_cold(data: &Path, out: &Path, bleed: f64) -> (Drawn, Drawn) {
    let game = load_game(data, SLUG).unwrap();
    let mut warm_options = options(out, true, &[]);
    warm_options.bleed = bleed;
    let (problems, faces) = face_report(&game, &warm_options);
    assert!(problems.is_empty(), "{problems:?}");
    let faces = faces.unwrap();
    faces
        .cache
        .as_ref()
        .expect("a build with the cache")
        .commit();
    let deck = &faces.decks[0];
    let front = |f: &Faces| {
        let d = &f.decks[0];
        let c = d.cards.iter().find(|c| c.id == "sun-low").unwrap();
        (sheets::single_face(&c.svg, d.size), d.size)
    };
    let (svg, size) = front(&faces);
    let warm_faces = snapshot(&faces);
    assert_eq!(deck.id, "deck");
    let b = GameBuild {
        game: &game,
        faces,
        options: &warm_options,
        dir: out.join(SLUG),
    };
    let warm_png = b.png(&svg, size, TEST_PX_PER_MM).unwrap();
    let mut cold_options = options(out, false, &[]);
    cold_options.bleed = bleed;
    let cold = draw_faces(&game, &cold_options).unwrap();
    let (svg, size) = front(&cold);
    let cold_png = png::render_png(&svg, size, TEST_PX_PER_MM, &cold.fonts, None).unwrap();
    ((warm_faces, warm_png), (snapshot(&cold), cold_png))
}

#[test]
fn every_kind_of_input_a_face_reads_changes_it_warm_as_cold() {
    let tmp = tempfile::tempdir().unwrap();
    let data = scaffolded(tmp.path());
    let dir = data.join(SLUG);
    let out = tmp.path().join("out");
    let (mut before, cold) = warm_and_cold(&data, &out, 3.0);
    assert_eq!(before, cold);
    let fronts: Vec<String> = [
        "sun-low",
        "sun-high",
        "moon-low",
        "moon-high",
        "star-low",
        "star-high",
    ]
    .iter()
    .map(|c| format!("front deck/{c}"))
    .collect();
    let all_fronts: Vec<&str> = fronts.iter().map(String::as_str).collect();
    let comet_back = "back deck/star-high";
    // Each change, and the faces it must change: exactly those.
    type Change<'a> = (&'a str, Box<dyn Fn() + 'a>, Vec<&'a str>);
    let changes: Vec<Change> = vec![
        (
            "template",
            Box::new(|| edit(&dir.join("templates/card.svg"), "#fbf8f1", "#f0e0c0")),
            all_fronts.clone(),
        ),
        (
            "data",
            Box::new(|| edit(&dir.join("cards.csv"), "Morning", "Daybreak")),
            vec!["front deck/sun-low"],
        ),
        (
            // The Comet's own back writes the card's name: its data reaches the back too.
            "data of a card with its own back",
            Box::new(|| edit(&dir.join("cards.csv"), ",Comet,", ",Meteor,")),
            vec!["front deck/star-high", comet_back],
        ),
        (
            "card's own back template",
            Box::new(|| edit(&dir.join("templates/comet-back.svg"), "#e9d8a6", "#c9e8a6")),
            vec![comet_back],
        ),
        (
            "template a card's own back is drawn by",
            Box::new(|| {
                edit(
                    &dir.join("cards.csv"),
                    "art/emblem.svg,comet-back",
                    "art/emblem.svg,basic-back",
                )
            }),
            vec![comet_back],
        ),
        (
            "deck's back",
            Box::new(|| {
                edit(
                    &dir.join("components.toml"),
                    "colour = \"#2f3e46\" }\ncards",
                    "colour = \"#3f2e46\" }\ncards",
                )
            }),
            // The Comet's back (now the deck's template) takes the deck's colour too.
            vec!["deck back deck", comet_back],
        ),
        (
            "symbol",
            Box::new(|| edit(&dir.join("components.toml"), "#e0a020", "#20a0e0")),
            vec!["front deck/sun-low", "front deck/sun-high"],
        ),
        (
            // The icon drawn in the Comet's text, made twice as wide: the text lays out anew.
            "icon",
            Box::new(|| {
                edit(
                    &dir.join("icons/marker.svg"),
                    "viewBox=\"0 0 24 24\" width=\"24\"",
                    "viewBox=\"0 0 48 24\" width=\"48\"",
                )
            }),
            vec!["front deck/star-high"],
        ),
        (
            // The names' font, every glyph wider: the faces name it as before (they still
            // fit), the images set the text in it.
            "font",
            Box::new(|| widen_font(&dir.join("fonts/DejaVuSerifCondensed-Italic.ttf"))),
            vec![],
        ),
        (
            "game-wide setting",
            Box::new(|| {
                edit(
                    &dir.join("game.toml"),
                    "[game]\n",
                    "[game]\nmin_text_pt = 12\n",
                )
            }),
            // Every front, and the token's back, whose label grows to the smallest type.
            [all_fronts.as_slice(), &["piece back marker"]].concat(),
        ),
    ];
    for (kind, change, expected) in &changes {
        change();
        let (after, cold) = warm_and_cold(&data, &out, 3.0);
        assert!(
            after.0 == cold.0,
            "{kind}: the warm build drew a stale face"
        );
        assert!(
            after.1 == cold.1,
            "{kind}: the warm build used a stale image"
        );
        let changed: BTreeSet<&str> = after
            .0
            .iter()
            .filter(|(k, v)| before.0.get(*k) != Some(v))
            .map(|(k, _)| k.as_str())
            .collect();
        let expected: BTreeSet<&str> = expected.iter().copied().collect();
        assert_eq!(changed, expected, "changing the {kind}");
        if expected.contains("front deck/sun-low") || *kind == "font" {
            assert_ne!(
                after.1, before.1,
                "{kind}: the image of sun-low is as it was"
            );
        }
        before = after;
    }
    // Art placed by path: the faces read the same, the images do not.
    edit(&dir.join("art/emblem.svg"), "#f3e3b5", "#b5d3f3");
    let (after, cold) = warm_and_cold(&data, &out, 3.0);
    assert_eq!(
        after, cold,
        "art: the warm build used a stale face or image"
    );
    assert_ne!(after.1, before.1, "art: the image of sun-low is as it was");
    before = after;
    // An option: the bleed every card face is drawn with.
    let (after, cold) = warm_and_cold(&data, &out, 2.0);
    assert_eq!(
        after, cold,
        "bleed: the warm build used a stale face or image"
    );
    let changed = after
        .0
        .iter()
        .filter(|(k, v)| before.0.get(*k) != Some(v))
        .count();
    assert_eq!(changed, 6 + 2, "every card's front and back, pieces not");
}

#[test]
fn a_whole_build_keeps_one_builds_worth_and_a_failed_check_keeps_nothing() {
    let tmp = tempfile::tempdir().unwrap();
    let data = scaffolded(tmp.path());
    let out = tmp.path().join("out");
    build(&data, &options(&out, true, &[]));
    let (faces, rasters) = (entries(&out, "face"), entries(&out, "raster"));
    edit(&data.join(SLUG).join("cards.csv"), "Morning", "Daybreak");
    build(&data, &options(&out, true, &[]));
    let (faces2, rasters2) = (entries(&out, "face"), entries(&out, "raster"));
    assert_eq!(faces2.len(), faces.len(), "the old face's entry was swept");
    assert_eq!(
        rasters2.len(),
        rasters.len(),
        "the old image's entries were swept"
    );
    assert_eq!(
        faces.iter().filter(|f| !faces2.contains(f)).count(),
        1,
        "one face changed"
    );

    // A game that does not pass its check writes no file, cache included.
    let fresh = tmp.path().join("fresh");
    edit(&data.join(SLUG).join("cards.csv"), ",sun,5,", ",sun,50,");
    let report = pipeline::build(
        &data,
        &[SLUG.to_string()],
        &options(&fresh, true, &[]),
        &|_| {},
    );
    assert!(!report.problems().is_empty());
    assert!(!fresh.join(CACHE_DIR).exists());
}
