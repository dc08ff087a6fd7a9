//! A `printplay table`/`serve` process for tests, and the plain HTTP and WebSocket clients
//! that talk to it (127.0.0.1 only).

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdout, Command, Stdio};
use std::sync::{Arc, Mutex};

/// The server, killed when dropped.
pub struct Server {
    pub child: Child,
    _out: BufReader<ChildStdout>,
    /// The first lines it printed (the links).
    pub lines: Vec<String>,
}

impl Server {
    /// The address of a `serve` process, from its first line (`http://HOST:PORT`).
    pub fn base(&self) -> String {
        self.lines[0]
            .split_whitespace()
            .find(|w| w.starts_with("http://"))
            .expect("the address")
            .trim_end_matches('/')
            .to_string()
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Starts the binary with `args` and reads its first `lines` lines.
pub fn start(args: &[&str], lines: usize) -> Server {
    let mut child = Command::new(env!("CARGO_BIN_EXE_printplay"))
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("the binary starts");
    let mut out = BufReader::new(child.stdout.take().expect("stdout"));
    let mut got = Vec::new();
    for _ in 0..lines {
        let mut line = String::new();
        out.read_line(&mut line).expect("a line");
        assert!(!line.is_empty(), "the server ended early after {got:?}");
        got.push(line.trim_end().to_string());
    }
    Server {
        child,
        _out: out,
        lines: got,
    }
}

/// One HTTP/1.1 request on a fresh connection: the status and the body.
pub fn http(method: &str, url: &str, body: &[u8]) -> (u16, String) {
    let (status, _, body) = http_with(method, url, body, "");
    (status, body)
}

/// A request with `extra` header lines: the status, the head (lower case) and the body.
pub fn http_with(method: &str, url: &str, body: &[u8], extra: &str) -> (u16, String, String) {
    let rest = url.strip_prefix("http://").expect("an http URL");
    let slash = rest.find('/').expect("a path");
    let (host, path) = rest.split_at(slash);
    let mut s = TcpStream::connect(host).expect("the server answers");
    write!(
        s,
        "{method} {path} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\nContent-Type: application/json\r\n{extra}Content-Length: {}\r\n\r\n",
        body.len()
    )
    .unwrap();
    s.write_all(body).unwrap();
    let mut buf = Vec::new();
    s.read_to_end(&mut buf).unwrap();
    let text = String::from_utf8_lossy(&buf).to_string();
    let (head, body) = text.split_once("\r\n\r\n").expect("a response");
    let status = head.split(' ').nth(1).and_then(|s| s.parse().ok()).unwrap();
    (status, head.to_lowercase(), body.to_string())
}

/// A seat's link as the API's address: `/tables/ID?token=T` -> `/api/tables/ID?token=T`.
pub fn api(link: &str) -> String {
    link.replacen("/tables/", "/api/tables/", 1)
}

/// `/api/tables/ID?token=T` -> `/api/tables/ID/SUB?token=T`.
pub fn with_path(api: &str, sub: &str) -> String {
    api.replacen('?', &format!("/{sub}?"), 1)
}

/// The URL of the `SEAT URL` line the server printed for `seat`.
pub fn link_of(lines: &[String], seat: &str) -> String {
    lines
        .iter()
        .find_map(|l| l.strip_prefix(&format!("{seat} ")))
        .unwrap_or_else(|| panic!("no `{seat} URL` line in {lines:?}"))
        .to_string()
}

/// Every text a client received: each HTTP body and each WebSocket frame.
pub type Seen = Arc<Mutex<Vec<String>>>;

/// Listens on a table's WebSocket in the background, keeping every frame, until the game's
/// outcome arrives or 5 s pass without a frame.
pub fn listen(url: &str, seen: Seen) -> std::thread::JoinHandle<()> {
    let ws = url.replacen("http://", "ws://", 1).replacen('?', "/ws?", 1);
    std::thread::spawn(move || {
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        rt.block_on(async move {
            use futures_util::StreamExt;
            use tokio_tungstenite::tungstenite::Message;
            let (mut socket, _) = tokio_tungstenite::connect_async(&ws)
                .await
                .expect("a socket");
            let idle = std::time::Duration::from_secs(5);
            while let Ok(Some(Ok(msg))) = tokio::time::timeout(idle, socket.next()).await {
                if let Message::Text(t) = msg {
                    let done = t.contains("\"outcome\":{");
                    seen.lock().unwrap().push(t.to_string());
                    if done {
                        break;
                    }
                }
            }
        })
    })
}

/// Whether `text` is a view a WebSocket sent: whole (`view`) or what changed (`update`).
pub fn is_live_view(text: &str) -> bool {
    text.starts_with(r#"{"type":"view""#) || text.starts_with(r#"{"type":"update""#)
}

/// The view a WebSocket's messages (among `texts`; others are skipped) build, as the page
/// builds it: each whole `view` replaces it, each `update` sets the parts it carries and
/// puts its log entries from entry `log_from` on.
pub fn composed(texts: &[String]) -> Option<serde_json::Value> {
    use serde_json::Value;
    let mut now: Option<Value> = None;
    for text in texts.iter().filter(|t| is_live_view(t)) {
        let mut msg: Value = serde_json::from_str(text).unwrap();
        let mut part = msg["view"].take();
        if msg["type"] == "view" {
            now = Some(part);
            continue;
        }
        let view = now.as_mut().expect("an update before any whole view");
        let from = msg["log_from"].as_u64().expect("log_from") as usize;
        let mut log = view["log"].as_array().expect("a log").clone();
        assert!(
            from <= log.len(),
            "an update's log starts after the log's end"
        );
        log.truncate(from);
        log.extend(
            part["log"]
                .take()
                .as_array()
                .expect("the new entries")
                .clone(),
        );
        for (k, v) in part.as_object().unwrap() {
            if k != "log" {
                view[k] = v.clone();
            }
        }
        view["log"] = Value::Array(log);
    }
    now
}

/// Where Playwright (`tests/browser`, after `npm ci`) and Chromium are, if this machine has
/// them.
pub fn browser_tools() -> Option<(PathBuf, PathBuf)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/browser");
    let chromium = ["/usr/bin/chromium", "/usr/bin/chromium-browser"]
        .iter()
        .map(PathBuf::from)
        .find(|p| p.exists())?;
    let node = Command::new("node").arg("--version").output().ok()?;
    (node.status.success() && dir.join("node_modules/playwright-core").exists())
        .then_some((dir, chromium))
}

/// Runs the Playwright script `script` of `tests/browser` (found by [`browser_tools`]) with
/// `cfg` as its JSON config file (written into `dir`), and answers the JSON it prints. The
/// script failing fails the test, with what it printed on stderr.
pub fn browser_script(
    browser_dir: &Path,
    script: &str,
    cfg: &serde_json::Value,
    dir: &Path,
) -> serde_json::Value {
    let cfg_file = dir.join(format!("{script}.json"));
    std::fs::write(&cfg_file, cfg.to_string()).unwrap();
    let out = Command::new("node")
        .arg(browser_dir.join(script))
        .arg(&cfg_file)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

/// The admin token of the `admin URL` line a server printed (`.../?admin=TOKEN`).
pub fn admin_of(lines: &[String]) -> String {
    let link = link_of(lines, "admin");
    link.split_once("?admin=")
        .expect("an admin link")
        .1
        .to_string()
}
