//! Incremental builds (`src/render/cache.rs`): a warm build writes exactly what a cold one
//! writes, rewrites no file whose bytes did not change, takes faces from the cache, never
//! uses a damaged or stale entry (each kind of input a face reads is changed in turn), keeps
//! one build's worth, and keeps the cache out of the game's published folder.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

use printplay::pipeline;
use printplay::render::BuildOptions;
use printplay::render::cache::CACHE_DIR;

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
    // Six fronts, a back and a token.
    assert_eq!(faces.len(), 8, "{faces:?}");

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

#[test]
fn every_kind_of_input_a_face_reads_changes_it_warm_as_cold() {
    let tmp = tempfile::tempdir().unwrap();
    let data = scaffolded(tmp.path());
    let dir = data.join(SLUG);
    let (warm, cold) = (tmp.path().join("warm"), tmp.path().join("cold"));
    let only = ["cards", "png"];
    let outputs = |out: &Path| {
        let f = files(&out.join(SLUG));
        (f["cards.pdf"].clone(), f["png/sun-low.png"].clone())
    };
    build(&data, &options(&warm, true, &only));
    let mut before = outputs(&warm);
    type Change<'a> = (&'a str, Box<dyn Fn() + 'a>);
    let changes: Vec<Change> = vec![
        (
            "template",
            Box::new(|| edit(&dir.join("templates/card.svg"), "#fbf8f1", "#f0e0c0")),
        ),
        (
            "data",
            Box::new(|| edit(&dir.join("cards.csv"), "Morning", "Daybreak")),
        ),
        (
            "art",
            Box::new(|| edit(&dir.join("art/emblem.svg"), "#f3e3b5", "#b5d3f3")),
        ),
        (
            "font",
            Box::new(|| widen_font(&dir.join("fonts/DejaVuSerifCondensed-Italic.ttf"))),
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
        ),
    ];
    for (kind, change) in &changes {
        change();
        build(&data, &options(&warm, true, &only));
        let after = outputs(&warm);
        assert_ne!(
            after.1, before.1,
            "changing the {kind} left the card's image as it was"
        );
        assert_ne!(
            after.0, before.0,
            "changing the {kind} left cards.pdf as it was"
        );
        // What a build without any cache makes of the changed data.
        let _ = std::fs::remove_dir_all(&cold);
        build(&data, &options(&cold, false, &only));
        assert!(
            outputs(&warm) == outputs(&cold),
            "{kind}: the warm build used a stale face"
        );
        before = after;
    }
    // An option: the bleed every face is drawn with.
    let mut wider = options(&warm, true, &only);
    wider.bleed = 2.0;
    build(&data, &wider);
    let after = outputs(&warm);
    assert_ne!(after.0, before.0, "another bleed left cards.pdf as it was");
    let _ = std::fs::remove_dir_all(&cold);
    let mut wider_cold = options(&cold, false, &only);
    wider_cold.bleed = 2.0;
    build(&data, &wider_cold);
    assert!(
        outputs(&warm) == outputs(&cold),
        "bleed: the warm build used a stale face"
    );
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
