//! How the book test reads and runs a page: its fenced blocks, the shell lines of an `sh`
//! block as a shell splits them, a command run as a reader's terminal shows it, the page
//! markup that holds a page to what the program does (`text,output`, `text,tree`, a command
//! that follows another), and the commands that run until Ctrl-C.

use std::collections::BTreeMap;
use std::path::Path;
use std::process::Command;

use printplay::cli::Cli;

use crate::common;

/// A fenced block: its info string, first line number and lines.
pub struct Block {
    pub info: String,
    pub line: usize,
    pub lines: Vec<String>,
}

pub fn blocks(text: &str) -> Vec<Block> {
    let mut out = Vec::new();
    let mut open: Option<Block> = None;
    for (i, line) in text.lines().enumerate() {
        let trimmed = line.trim_start();
        if let Some(rest) = trimmed.strip_prefix("```") {
            match open.take() {
                None => {
                    open = Some(Block {
                        info: rest.trim().to_string(),
                        line: i + 1,
                        lines: Vec::new(),
                    })
                }
                Some(b) => out.push(b),
            }
        } else if let Some(b) = open.as_mut() {
            b.lines.push(line.to_string());
        }
    }
    assert!(open.is_none(), "an unclosed code block");
    out
}

/// The shell lines of a block, continuations joined and comments dropped.
pub fn shell_lines(b: &Block) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    for l in &b.lines {
        let l = l.trim();
        if let Some(cont) = l.strip_suffix('\\') {
            cur.push_str(cont);
            cur.push(' ');
            continue;
        }
        cur.push_str(l);
        let line = std::mem::take(&mut cur);
        let line = strip_comment(&line);
        if !line.trim().is_empty() {
            out.push(line.trim().to_string());
        }
    }
    out
}

pub fn strip_comment(line: &str) -> String {
    let (mut single, mut double) = (false, false);
    let mut prev = ' ';
    for (i, c) in line.char_indices() {
        match c {
            '\'' if !double => single = !single,
            '"' if !single => double = !double,
            '#' if !single && !double && prev.is_whitespace() => return line[..i].to_string(),
            _ => {}
        }
        prev = c;
    }
    if line.starts_with('#') {
        return String::new();
    }
    line.to_string()
}

/// Words as a POSIX shell splits them (quotes, no expansions).
pub fn words(line: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let (mut single, mut double, mut any) = (false, false, false);
    for c in line.chars() {
        match c {
            '\'' if !double => {
                single = !single;
                any = true
            }
            '"' if !single => {
                double = !double;
                any = true
            }
            c if c.is_whitespace() && !single && !double => {
                if any || !cur.is_empty() {
                    out.push(std::mem::take(&mut cur));
                    any = false;
                }
            }
            c => cur.push(c),
        }
    }
    if any || !cur.is_empty() {
        out.push(cur);
    }
    out
}

/// Runs a command in `dir` as a reader's terminal would: whether it succeeded, and its
/// standard output and error as they were written, in one stream.
pub fn run_printing(argv: &[String], dir: &Path) -> (bool, String) {
    use std::io::Read;
    use std::process::Stdio;
    let (mut reader, writer) = std::io::pipe().unwrap();
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_printplay"));
    cmd.args(&argv[1..])
        .current_dir(dir)
        .env("NO_COLOR", "1")
        .stdin(Stdio::null())
        .stdout(writer.try_clone().unwrap())
        .stderr(writer);
    let mut child = cmd.spawn().unwrap();
    // The pipe ends only when no writer is left: the command holds two.
    drop(cmd);
    let mut bytes = Vec::new();
    reader.read_to_end(&mut bytes).unwrap();
    let status = child.wait().unwrap();
    (
        status.success(),
        String::from_utf8_lossy(&bytes).into_owned(),
    )
}

/// Whether `printed` is what the `shown` lines show (see
/// [`crate::every_command_in_the_book_parses_and_runs`]).
pub fn shows(shown: &[String], printed: &str) -> bool {
    fn trimmed<'a>(lines: impl Iterator<Item = &'a str>) -> Vec<&'a str> {
        let mut v: Vec<&str> = lines.map(str::trim_end).collect();
        while v.last() == Some(&"") {
            v.pop();
        }
        v
    }
    fn line_shows(pattern: &str, line: &str) -> bool {
        let parts: Vec<&str> = pattern.split("[..]").collect();
        if parts.len() == 1 {
            return pattern == line;
        }
        let (first, last) = (parts[0], parts[parts.len() - 1]);
        if !line.starts_with(first) || !line[first.len()..].ends_with(last) {
            return false;
        }
        let mut rest = &line[first.len()..line.len() - last.len()];
        for part in &parts[1..parts.len() - 1] {
            match rest.find(part) {
                Some(at) => rest = &rest[at + part.len()..],
                None => return false,
            }
        }
        first.len() + last.len() <= line.len()
    }
    fn matches(shown: &[&str], printed: &[&str]) -> bool {
        match shown.split_first() {
            None => printed.is_empty(),
            Some((&"...", rest)) => (0..=printed.len()).any(|k| matches(rest, &printed[k..])),
            Some((pattern, rest)) => printed
                .split_first()
                .is_some_and(|(line, more)| line_shows(pattern, line) && matches(rest, more)),
        }
    }
    let shown = trimmed(shown.iter().map(String::as_str));
    matches(&shown, &trimmed(printed.lines()))
}

/// What a `text,tree` block shows against the folder it names. Its first line is the folder
/// (relative to where the commands run, ending in `/`); each entry is indented two spaces
/// deeper than the folder that holds it and starts with its path (`name/` a folder), then
/// words that describe it; a line indented deeper still goes on describing. A folder shown
/// with entries shows all it holds; one shown without them stands for everything in it.
/// Hidden files (the build's cache) are left out, as `tree` and `ls` leave them out.
pub fn tree_problems(lines: &[String], dir: &Path) -> Vec<String> {
    let mut problems = Vec::new();
    let Some(top) = lines.first().map(|l| l.trim()) else {
        return vec!["an empty tree".into()];
    };
    if !top.ends_with('/') {
        return vec![format!("a tree's first line names a folder (`{top}`)")];
    }
    // (indent, path) of the folders open above the line; the folders and files shown.
    let mut open: Vec<(usize, String)> = vec![(0, top.to_string())];
    let mut files = Vec::new();
    let mut folders: BTreeMap<String, bool> = BTreeMap::from([(top.to_string(), false)]);
    for line in &lines[1..] {
        if line.trim().is_empty() {
            continue;
        }
        let indent = line.len() - line.trim_start().len();
        while open.len() > 1 && open.last().unwrap().0 >= indent {
            open.pop();
        }
        let (at, parent) = open.last().unwrap().clone();
        if indent != at + 2 {
            continue; // a description going on
        }
        let path = format!("{parent}{}", line.split_whitespace().next().unwrap());
        *folders.get_mut(&parent).unwrap() = true;
        if path.ends_with('/') {
            folders.insert(path.clone(), false);
            open.push((indent, path));
        } else {
            files.push(path);
        }
    }
    for f in &files {
        if !dir.join(f).is_file() {
            problems.push(format!(
                "the tree shows {f}, which the commands did not make"
            ));
        }
    }
    for f in folders.keys() {
        if !dir.join(f).is_dir() {
            problems.push(format!(
                "the tree shows {f}, which the commands did not make"
            ));
        }
    }
    fn walk(dir: &Path, rel: &str, out: &mut Vec<String>) {
        for e in std::fs::read_dir(dir).into_iter().flatten().flatten() {
            let name = e.file_name().to_string_lossy().into_owned();
            if name.starts_with('.') {
                continue;
            }
            let path = format!("{rel}{name}");
            if e.file_type().unwrap().is_dir() {
                walk(&e.path(), &format!("{path}/"), out);
            } else {
                out.push(path);
            }
        }
    }
    let mut made = Vec::new();
    walk(&dir.join(top), top, &mut made);
    made.sort();
    for f in made {
        let shown = files.contains(&f)
            || folders
                .iter()
                .any(|(folder, listed)| !listed && f.starts_with(folder.as_str()));
        if !shown {
            problems.push(format!("the tree leaves out {f}"));
        }
    }
    problems
}

/// What a page's earlier commands set up that a later one must follow: the last `simulate` of
/// each game (its block's line, its run, games, and whether it plays several readings) and the
/// last `build` (its block's line, paper and duplex).
#[derive(Default)]
pub struct PageRuns {
    pub simulated: BTreeMap<String, (usize, String, u64, bool)>,
    pub printed: Option<(usize, String)>,
}

/// A command that follows an earlier one on its page must do as that one did:
/// - `replay GAME --game K` after a `simulate GAME` replays one of that run's games: the run's
///   seed, seats, bots, variants and move cap, one reading, and K within its games;
/// - `calibrate` after a `build` calibrates the printer that build printed for: its paper and
///   duplex.
pub fn follows(cli: &Cli, runs: &mut PageRuns, line: usize) -> Result<(), String> {
    use printplay::cli::{Command as Cmd, RunArgs};
    fn run_of(r: &RunArgs) -> String {
        format!(
            "--seed {} --players {} --bots {} --variant {:?} --max-moves {}",
            r.seed,
            r.players.map_or("(the least)".into(), |p| p.to_string()),
            r.bots.join(","),
            r.variants,
            r.max_moves
        )
    }
    match &cli.command {
        Cmd::Simulate(args) => {
            let several = args.compare.is_some() || !args.sweep.is_empty();
            let run = (line, run_of(&args.run), args.games, several);
            runs.simulated.insert(args.run.game.clone(), run);
        }
        Cmd::Replay(args) => {
            let (Some(k), Some((at, want, games, several))) =
                (args.number, runs.simulated.get(&args.run.game))
            else {
                return Ok(());
            };
            let got = run_of(&args.run);
            if *want != got {
                return Err(format!(
                    "replays a game of another run than the `simulate` at line {at}: that run is `{want}`, this one `{got}`"
                ));
            }
            if *several {
                return Err(format!(
                    "the `simulate` at line {at} plays each game under several readings: which one is replayed?"
                ));
            }
            if k > *games {
                return Err(format!("the run at line {at} plays {games} games, not {k}"));
            }
        }
        Cmd::Build(args) => {
            let printer = format!("--paper {:?} --duplex {:?}", args.paper, args.duplex);
            runs.printed = Some((line, printer));
        }
        Cmd::Calibrate { paper, duplex, .. } => {
            let printer = format!("--paper {paper:?} --duplex {duplex:?}");
            if let Some((at, built)) = &runs.printed
                && *built != printer
            {
                return Err(format!(
                    "calibrates another printer than the `build` at line {at} prints for: that one is `{built}`, this one `{printer}`"
                ));
            }
        }
        _ => {}
    }
    Ok(())
}

/// Commands that run until Ctrl-C, with the line that says they are ready.
pub fn runs_until_stopped(argv: &[String]) -> Option<&'static str> {
    match argv.get(1).map(String::as_str) {
        Some("watch") => Some("watching"),
        Some("table") => Some("spectator http://"),
        Some("serve") => Some("printplay serve: http://"),
        _ => None,
    }
}

/// Runs a command that serves or watches until it prints `marker` (on a free port: `--port 0`
/// is added where the line names none), fetches every link it printed (each must answer 200,
/// and a table link's JSON view must name its legal moves), then stops it.
pub fn run_until_ready(argv: &[String], dir: &Path, marker: &str) -> Result<(), String> {
    use std::io::{BufRead, BufReader, Read};
    use std::process::Stdio;
    let mut args: Vec<String> = argv[1..].to_vec();
    if marker.contains("http") && !args.iter().any(|a| a.starts_with("--port")) {
        args.extend(["--port".into(), "0".into()]);
    }
    let mut child = Command::new(env!("CARGO_BIN_EXE_printplay"))
        .args(&args)
        .current_dir(dir)
        .env("NO_COLOR", "1")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| e.to_string())?;
    let (tx, rx) = std::sync::mpsc::channel::<String>();
    for stream in [
        Box::new(child.stdout.take().unwrap()) as Box<dyn Read + Send>,
        Box::new(child.stderr.take().unwrap()),
    ] {
        let tx = tx.clone();
        std::thread::spawn(move || {
            for line in BufReader::new(stream).lines().map_while(Result::ok) {
                let _ = tx.send(line);
            }
        });
    }
    drop(tx);
    let mut seen = Vec::new();
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(180);
    let outcome = loop {
        let left = deadline.saturating_duration_since(std::time::Instant::now());
        match rx.recv_timeout(left) {
            Ok(line) => {
                let ready = line.contains(marker);
                seen.push(line);
                if ready {
                    break Ok(());
                }
            }
            Err(_) => break Err(format!("never printed `{marker}`: {}", seen.join(" / "))),
        }
    };
    let fetched = outcome.and_then(|()| {
        for link in seen
            .iter()
            .filter_map(|l| l.split_whitespace().find(|w| w.starts_with("http://")))
        {
            let body = http_get(link)?;
            if link.contains("/tables/") {
                let api = link.replacen("/tables/", "/api/tables/", 1);
                let json = http_get(&api)?;
                if !json.contains("\"legal\"") {
                    return Err(format!("{api} answers without legal moves: {json}"));
                }
            } else if !body.contains("<html") {
                return Err(format!("{link} is not a page"));
            }
        }
        Ok(())
    });
    let _ = child.kill();
    let _ = child.wait();
    fetched
}

/// A GET on 127.0.0.1: the body of a 200 answer.
pub fn http_get(url: &str) -> Result<String, String> {
    match common::server::http("GET", url, b"") {
        (200, body) => Ok(body),
        (status, _) => Err(format!("{url} answers {status}")),
    }
}
