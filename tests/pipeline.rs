//! The build pipeline as a designer meets it: `--only`, an installed binary away from the
//! source checkout, and `watch` picking up an edit.

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

mod common;

use common::{copy_dir, repo, run_in};

const BIN: &str = env!("CARGO_BIN_EXE_printplay");

/// Every file under `dir`, relative to it, sorted.
fn files_under(dir: &Path) -> Vec<String> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else {
                out.push(p.strip_prefix(dir).unwrap().display().to_string());
            }
        }
    }
    out.sort();
    out
}

/// A scaffolded game in a fresh data folder.
fn scaffolded(tmp: &Path, slug: &str) -> PathBuf {
    let data = tmp.join("data");
    let status = Command::new(BIN)
        .args(["--data", data.to_str().unwrap(), "new", slug])
        .stdout(Stdio::null())
        .status()
        .unwrap();
    assert!(status.success());
    data
}

#[test]
fn only_cards_writes_cards_pdf_and_nothing_else() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("out");
    let status = Command::new(BIN)
        .args(["build", "capek-golems", "--only", "cards", "--out"])
        .arg(&out)
        .stdout(Stdio::null())
        .status()
        .unwrap();
    assert!(status.success());
    // Beside the build cache (`.cache/`, faces kept for the next build; tests/incremental.rs).
    let written: Vec<String> = files_under(&out)
        .into_iter()
        .filter(|f| !f.starts_with(".cache/"))
        .collect();
    assert_eq!(written, vec!["capek-golems/cards.pdf".to_string()]);
}

#[test]
fn an_unknown_output_is_a_usage_error_listing_the_outputs() {
    let out = Command::new(BIN)
        .args(["build", "capek-golems", "--only", "cards,pdfs"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("`pdfs`") && err.contains("tokens, boxes, board"),
        "{err}"
    );
}

#[test]
fn installed_binary_builds_away_from_the_source_checkout() {
    let tmp = tempfile::tempdir().unwrap();
    // Only the binary and a game's data, in a folder with no templates/ beside it.
    let bin = tmp.path().join("bin/printplay");
    std::fs::create_dir_all(bin.parent().unwrap()).unwrap();
    std::fs::copy(BIN, &bin).unwrap();
    copy_dir(Path::new("data/aether"), &tmp.path().join("games/aether"));
    let out = Command::new(&bin)
        .current_dir(tmp.path())
        .env_remove("PRINTPLAY_TEMPLATES")
        .args(["--data", "games", "build", "--only", "rules,cards"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let built = files_under(&tmp.path().join("output/aether"));
    // Aether is published in Finnish and English: a card file per language, no `cards.pdf`.
    assert!(!built.contains(&"cards.pdf".to_string()), "{built:?}");
    for f in [
        "cards.fi.pdf",
        "cards.en.pdf",
        "rules.fi.html",
        "rules.en.html",
        "rules.en.md",
    ] {
        assert!(built.contains(&f.to_string()), "{f} missing from {built:?}");
    }
    // Nothing in the binary points back at the checkout's templates folder.
    let bytes = std::fs::read(&bin).unwrap();
    let checkout_templates = format!("{}/templates", env!("CARGO_MANIFEST_DIR"));
    assert!(
        !bytes
            .windows(checkout_templates.len())
            .any(|w| w == checkout_templates.as_bytes()),
        "the binary names {checkout_templates}"
    );
}

#[test]
fn the_scaffold_checks_and_builds_with_its_sheet_art_font_token_and_board() {
    let tmp = tempfile::tempdir().unwrap();
    let data = scaffolded(tmp.path(), "my-game");
    let out = tmp.path().join("out");
    let run = run_in(
        repo(),
        &[
            "--data",
            data.to_str().unwrap(),
            "build",
            "--out",
            out.to_str().unwrap(),
        ],
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    let built = files_under(&out.join("my-game"));
    for f in [
        "cards.pdf",
        "tokens.pdf",
        "board.pdf",
        "png/marker.png",
        "index.html",
    ] {
        assert!(built.contains(&f.to_string()), "{f} missing from {built:?}");
    }
    // Every card of the sheet, each `count` times: 6 designs x 2 = 12 fronts.
    let pdf = std::fs::read(out.join("my-game/cards.pdf")).unwrap();
    let doc = lopdf::Document::load_mem(&pdf).unwrap();
    let fonts: Vec<String> = doc
        .objects
        .values()
        .filter_map(|o| o.as_dict().ok())
        .filter_map(|d| d.get(b"BaseFont").ok())
        .filter_map(|n| n.as_name().ok())
        .map(|n| String::from_utf8_lossy(n).into_owned())
        .collect();
    assert!(
        fonts
            .iter()
            .any(|f| f.ends_with("DejaVuSerifCondensed-Italic")),
        "the game's own font is not embedded: {fonts:?}"
    );
    let index = std::fs::read_to_string(out.join("my-game/index.html")).unwrap();
    // The gallery: 6 card designs and the marker, then the backs (the deck's, a card's own
    // and the marker's) and the boards (hex board and mat).
    assert_eq!(
        index.matches("<figure>").count(),
        12,
        "6 card designs, the marker, 3 backs and 2 boards"
    );
    assert!(
        !index.contains("http-equiv=\"refresh\""),
        "only watch reloads"
    );
    for link in [
        "cards.pdf",
        "board.pdf",
        "rules.en.html",
        "tts/my-game.json",
    ] {
        assert!(
            index.contains(&format!("href=\"{link}\"")),
            "no link to {link}"
        );
    }
}

/// A running `printplay watch` whose output lines arrive on a channel; killed when dropped.
struct Watcher {
    child: Child,
    lines: mpsc::Receiver<String>,
}

impl Watcher {
    fn start(data: &Path, out: &Path) -> Watcher {
        Watcher::start_logging(data, out, &[], Stdio::null())
    }

    /// As [`Watcher::start`], with more arguments and the diagnostics (stderr) going to
    /// `stderr`.
    fn start_logging(data: &Path, out: &Path, args: &[&str], stderr: impl Into<Stdio>) -> Watcher {
        let mut child = Command::new(BIN)
            .args(["--data", data.to_str().unwrap(), "watch", "--out"])
            .arg(out)
            .args(args)
            .stdout(Stdio::piped())
            .stderr(stderr)
            .spawn()
            .unwrap();
        let stdout = child.stdout.take().unwrap();
        let (tx, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Watcher { child, lines }
    }

    /// Waits (at most `limit`) for a round's closing line ("built ... in N ms; watching ..."
    /// or "GAME not built (N problems); watching ..."); the lines before it and, last, that
    /// line.
    fn next_round(&self, limit: Duration) -> Vec<String> {
        let deadline = Instant::now() + limit;
        let mut seen = Vec::new();
        while let Some(left) = deadline.checked_duration_since(Instant::now()) {
            match self.lines.recv_timeout(left) {
                Ok(line) if line.ends_with("(Ctrl-C stops)") => {
                    seen.push(line);
                    return seen;
                }
                Ok(line) => seen.push(line),
                Err(_) => break,
            }
        }
        panic!("no rebuild within {limit:?}; output so far: {seen:?}");
    }
}

impl Drop for Watcher {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[test]
fn watch_rebuilds_a_game_when_its_data_changes_and_keeps_output_when_it_breaks() {
    let tmp = tempfile::tempdir().unwrap();
    let data = scaffolded(tmp.path(), "my-game");
    let out = tmp.path().join("out");
    // Generous bounds: a debug build on a loaded 2-core machine; this is no timing test.
    let limit = Duration::from_secs(180);
    let watcher = Watcher::start(&data, &out);
    watcher.next_round(limit);
    let pdf = out.join("my-game/cards.pdf");
    let first = std::fs::read(&pdf).unwrap();
    let index = std::fs::read_to_string(out.join("my-game/index.html")).unwrap();
    assert!(index.contains("http-equiv=\"refresh\""), "{index}");

    // One cell of the spreadsheet deck: a card's name.
    let sheet = data.join("my-game/cards.csv");
    let text = std::fs::read_to_string(&sheet).unwrap();
    let renamed = text.replacen(",Morning,", ",Dawn,", 1);
    assert_ne!(text, renamed);
    std::fs::write(&sheet, &renamed).unwrap();
    let lines = watcher.next_round(limit);
    assert!(
        lines.iter().any(|l| l.starts_with("my-game: wrote")),
        "{lines:?}"
    );
    // The round was started by that edit, and by nothing the first round only read.
    let changed: Vec<&String> = lines
        .iter()
        .filter(|l| l.starts_with("changed: "))
        .collect();
    assert!(
        !changed.is_empty() && changed.iter().all(|l| l.ends_with("cards.csv")),
        "{lines:?}"
    );
    let second = std::fs::read(&pdf).unwrap();
    assert_ne!(first, second, "cards.pdf was not rewritten");
    // The round read again only the face that changed (the others were kept from the first
    // round, and came from the cache): it wrote what a build from nothing writes.
    let fresh = tmp.path().join("fresh");
    let run = run_in(
        repo(),
        &[
            "--data",
            data.to_str().unwrap(),
            "build",
            "my-game",
            "--only",
            "cards",
            "--no-cache",
            "--out",
            fresh.to_str().unwrap(),
        ],
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        std::fs::read(fresh.join("my-game/cards.pdf")).unwrap() == second,
        "the watched cards.pdf differs from a fresh build's"
    );

    // A broken cell: reported, and the previous files stay as they were.
    std::fs::write(&sheet, renamed.replacen(",Dawn,2,", ",Dawn,two,", 1)).unwrap();
    let lines = watcher.next_round(limit);
    assert!(lines.iter().any(|l| l.contains("not built")), "{lines:?}");
    // The round that built nothing does not say it built.
    let last = lines.last().unwrap();
    assert!(!last.starts_with("built"), "{lines:?}");
    assert_eq!(std::fs::read(&pdf).unwrap(), second);
}

#[test]
fn an_unknown_face_in_the_scaffolds_template_is_one_error_at_its_line() {
    let tmp = tempfile::tempdir().unwrap();
    let data = scaffolded(tmp.path(), "my-game");
    let template = data.join("my-game/templates/card.svg");
    let text = std::fs::read_to_string(&template).unwrap();
    let face = "face=\"DejaVu Serif SemiCondensed Italic\"";
    let at = text.find(face).expect("the scaffold names its own face");
    let line = text[..at].matches('\n').count() + 1;
    std::fs::write(&template, text.replacen(face, "face=\"Nope Sans\"", 1)).unwrap();
    let run = Command::new(BIN)
        .args(["--data", data.to_str().unwrap(), "check", "my-game"])
        .output()
        .unwrap();
    assert_eq!(run.status.code(), Some(1));
    let err = String::from_utf8_lossy(&run.stderr);
    assert_eq!(err.matches("unknown face `Nope Sans`").count(), 1, "{err}");
    assert!(
        err.contains(&format!("templates/card.svg:{line}:")),
        "the error should stand at line {line}: {err}"
    );
}

#[test]
fn watch_prints_the_checks_warnings_once_per_round() {
    let tmp = tempfile::tempdir().unwrap();
    let data = tmp.path().join("data");
    let slug = "designer-game";
    copy_dir(
        &common::repo().join("tests/fixtures").join(slug),
        &data.join(slug),
    );
    // Art placed over three times the card: it prints below 200 dpi.
    let template = data.join(slug).join("templates/emblem-card.svg");
    let text = std::fs::read_to_string(&template).unwrap();
    let enlarged = text.replacen("w=w - 6, h=40", "w=w * 3, h=h * 3", 1);
    assert_ne!(text, enlarged);
    std::fs::write(&template, enlarged).unwrap();
    let log = tmp.path().join("watch.log");
    // Only the cards: rasterising the enlarged art at 300 dpi takes minutes in a debug build.
    let watcher = Watcher::start_logging(
        &data,
        &tmp.path().join("out"),
        &["--only", "cards"],
        std::fs::File::create(&log).unwrap(),
    );
    let lines = watcher.next_round(Duration::from_secs(180));
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with(&format!("{slug}: wrote"))),
        "a warning does not stop the build: {lines:?}"
    );
    drop(watcher);
    let err = std::fs::read_to_string(&log).unwrap();
    assert_eq!(
        err.matches("image `art/emblem.png` prints at").count(),
        1,
        "{err}"
    );
    assert!(err.contains("cards.csv:2:32"), "{err}");
}
