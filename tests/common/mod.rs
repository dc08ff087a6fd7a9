//! A copy of the shipped data in a temporary folder, edited by a test and checked by the binary.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::Command;

pub mod hidden;
pub mod pdf_read;
pub mod pictures;
pub mod server;

pub struct Fixture {
    pub dir: tempfile::TempDir,
}

/// What a run of the binary printed, and how it exited.
pub struct Run {
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
}

impl Fixture {
    /// A data folder holding a copy of the named shipped games.
    pub fn with_games(slugs: &[&str]) -> Fixture {
        let dir = tempfile::tempdir().expect("temp dir");
        for slug in slugs {
            copy_dir(&repo().join("data").join(slug), &dir.path().join(slug));
        }
        Fixture { dir }
    }

    /// A data folder holding a copy of a game folder from anywhere (a test fixture).
    pub fn with_folder(from: &Path, slug: &str) -> Fixture {
        let dir = tempfile::tempdir().expect("temp dir");
        copy_dir(from, &dir.path().join(slug));
        Fixture { dir }
    }

    pub fn data(&self) -> &Path {
        self.dir.path()
    }

    pub fn file(&self, game: &str, name: &str) -> PathBuf {
        self.data().join(game).join(name)
    }

    /// Replaces the first occurrence of `from` by `to` and returns the 1-based line it is on.
    pub fn edit(&self, game: &str, name: &str, from: &str, to: &str) -> usize {
        let path = self.file(game, name);
        let text = std::fs::read_to_string(&path).expect("read fixture");
        let at = text
            .find(from)
            .unwrap_or_else(|| panic!("`{from}` not found in {name}"));
        let line = text[..at].matches('\n').count() + 1;
        std::fs::write(&path, text.replacen(from, to, 1)).expect("write fixture");
        line
    }

    /// Runs `printplay --data <fixture> ARGS...`.
    pub fn run(&self, args: &[&str]) -> Run {
        let mut all = vec!["--data", self.data().to_str().unwrap()];
        all.extend_from_slice(args);
        run_in(repo(), &all)
    }
}

pub fn repo() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// Runs the binary in `cwd` with `args`.
pub fn run_in(cwd: &Path, args: &[&str]) -> Run {
    let out = Command::new(env!("CARGO_BIN_EXE_printplay"))
        .args(args)
        .current_dir(cwd)
        .output()
        .expect("run printplay");
    Run {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

/// Copies a folder tree.
pub fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), target).unwrap();
        }
    }
}

/// HTML as text: tags dropped (each leaves a space), entities decoded, spaces collapsed.
pub fn html_text(html: &str) -> String {
    let mut text = String::new();
    let mut in_tag = false;
    for c in html.chars() {
        match c {
            '<' => in_tag = true,
            '>' => {
                in_tag = false;
                text.push(' ');
            }
            c if !in_tag => text.push(c),
            _ => {}
        }
    }
    let text = text
        .replace("&quot;", "\"")
        .replace("&#39;", "'")
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&amp;", "&");
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Chromium for the browser tests: `$CHROMIUM`, else Debian's or Google's; `None` when none
/// is installed (the test then says it skipped).
pub fn chromium() -> Option<PathBuf> {
    if let Some(p) = std::env::var_os("CHROMIUM") {
        return Some(PathBuf::from(p));
    }
    [
        "/usr/bin/chromium",
        "/usr/bin/chromium-browser",
        "/usr/bin/google-chrome",
    ]
    .iter()
    .map(PathBuf::from)
    .find(|p| p.is_file())
}

/// Chromium headless with a fresh profile in `profile` and no network chatter.
pub fn headless(chrome: &Path, profile: &Path) -> Command {
    let mut c = Command::new(chrome);
    c.args([
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
    ])
    .arg(format!("--user-data-dir={}", profile.display()));
    c
}

/// Runs `printplay --data DATA ARGS...` with `input` on its standard input.
pub fn run_with_input(data: &Path, args: &[&str], input: &str) -> Run {
    use std::io::Write;
    use std::process::Stdio;
    let mut child = Command::new(env!("CARGO_BIN_EXE_printplay"))
        .arg("--data")
        .arg(data)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run printplay");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    Run {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

/// Page `page` of `pdf` drawn by pdftoppm at `dpi`: its width, height and RGB bytes.
pub fn page_rgb(pdf: &Path, page: usize, dpi: u32) -> (usize, usize, Vec<u8>) {
    let page = page.to_string();
    let out = Command::new("pdftoppm")
        .args(["-r", &dpi.to_string(), "-f", &page, "-l", &page])
        .arg(pdf)
        .output()
        .expect("pdftoppm");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let (_, w, h, px) = read_pnm(&out.stdout);
    (w, h, px)
}

/// Reads a binary PPM (`P6`, RGB) or PGM (`P5`, grey) as pdftoppm writes it: the magic
/// number, width, height and the pixels (three bytes or one each).
pub fn read_pnm(bytes: &[u8]) -> (String, usize, usize, Vec<u8>) {
    let mut fields = Vec::new();
    let mut i = 0;
    while fields.len() < 4 {
        while bytes[i].is_ascii_whitespace() {
            i += 1;
        }
        let start = i;
        while !bytes[i].is_ascii_whitespace() {
            i += 1;
        }
        fields.push(String::from_utf8_lossy(&bytes[start..i]).into_owned());
    }
    (
        fields[0].clone(),
        fields[1].parse().unwrap(),
        fields[2].parse().unwrap(),
        bytes[i + 1..].to_vec(),
    )
}

/// Every shipped game (each folder of `data/`) and the scaffold's new game with a Lua engine,
/// loaded; the returned folder keeps the new game alive.
pub fn shipped_and_scaffold_games() -> (tempfile::TempDir, Vec<printplay::model::Game>) {
    use printplay::model::{game_slugs, load_game};
    let data = repo().join("data");
    let dir = tempfile::tempdir().unwrap();
    printplay::scaffold::new_game_with_engine(dir.path(), "my-game", "lua").unwrap();
    let mut games: Vec<_> = game_slugs(&data)
        .unwrap()
        .iter()
        .map(|slug| load_game(&data, slug).unwrap())
        .collect();
    assert!(games.len() >= 4, "the shipped games are missing");
    games.push(load_game(dir.path(), "my-game").unwrap());
    (dir, games)
}
