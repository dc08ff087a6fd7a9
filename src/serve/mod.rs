//! `printplay serve` and `printplay table`: the game's rules enforced at a table in the
//! browser. Players join by link (one unguessable token per person seat, one for spectators),
//! bots take the other seats and think on the server, and every move is stored before it is
//! acknowledged.
//!
//! The parts: [`live`] puts a game behind one object-safe interface (an engine's game, later
//! the free table of a game without one), [`store`] keeps tables (SQLite), `faces` draws the
//! build's card faces for the page, `http` answers the page, the JSON API and the WebSocket,
//! and `page` holds the page's files, compiled in; `tables` makes, moves and drives tables,
//! `seats` says what each token opens and builds each seat's view, `reload` keeps each
//! game's data ([`Version`]) and its check, and `admin` closes, deletes and expires tables.
//! While serving, the data folder is watched:
//! a game's edited data that passes its check is used by new tables, running tables keep the
//! [`Version`] they started on and may start again on the new one.

mod admin;
pub mod faces;
mod http;
pub mod live;
mod page;
pub mod playtests;
mod reload;
mod seats;
pub mod store;
mod tables;
pub mod think;
mod voices;
mod words;

pub(crate) use reload::{Held, HeldRestart};
use reload::{catalog_of, watch_data};
pub(crate) use seats::Built;
use tables::Writer;

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::io::Write;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU64};
use std::sync::{Arc, RwLock};

use serde::Deserialize;
use serde_json::Value;
use tokio::sync::{Mutex, broadcast};

use crate::engine::view::Observer;
use crate::model::Game;
use crate::play::{PERSON, Transcript};
use live::Live;
use store::{Access, Store};

/// Where `serve` keeps its tables unless told.
pub const DEFAULT_DB: &str = "output/tables.sqlite";

/// How to run the server.
#[derive(Debug, Clone)]
pub struct ServeOptions {
    pub data: PathBuf,
    pub host: String,
    /// 0: a free port, chosen by the system (printed).
    pub port: u16,
    pub db: PathBuf,
    /// What a bot may spend on a move at most.
    pub budget: think::Budget,
    /// Tables nobody moved at (or that were closed) for this many days are deleted, at the
    /// start and every hour; 0 keeps them.
    pub expire_days: u32,
}

/// Days a table may sit idle (or closed) before it is deleted, unless `serve` says otherwise.
pub const DEFAULT_EXPIRE_DAYS: u32 = 30;

/// A table to make: the game, its seats and seed.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NewTable {
    pub game: String,
    /// Seats (0: the game's smallest count).
    #[serde(default)]
    pub players: usize,
    /// Who plays each seat: `person` or a bot spec; missing seats are persons.
    #[serde(default)]
    pub seats: Vec<String>,
    /// The seed (`None`: drawn from the OS).
    #[serde(default)]
    pub seed: Option<u64>,
    #[serde(default)]
    pub variants: BTreeMap<String, String>,
    /// The free table (the game's components, no rules) though an engine plays the game.
    #[serde(default)]
    pub free: bool,
}

/// A table just made: its id and links.
#[derive(Debug, Clone)]
pub struct Created {
    pub id: String,
    /// Each person seat's name and token, in seat order.
    pub seats: Vec<(String, String)>,
    pub spectator: String,
}

/// One game's data as loaded at one time. A table keeps the version it started on while
/// the designer edits the data; its faces and rules reference are drawn once, when first
/// asked for.
pub(crate) struct Version {
    pub(crate) game: Arc<Game>,
    /// A digest of the game's files ([`data_version`]).
    pub(crate) digest: String,
    /// Drawn once; tables asking while it is drawn wait for the same drawing.
    faces: tokio::sync::OnceCell<Result<Arc<faces::Faces>, String>>,
    /// Its rules reference by language, each drawn once.
    rules: std::sync::Mutex<HashMap<String, Result<String, String>>>,
    /// Its face files are in [`App::files`].
    served: AtomicBool,
    /// What `printplay check` says of it (`Err`: its problems), run once.
    check: tokio::sync::OnceCell<Result<(), Vec<String>>>,
}

/// Which view a connection is sent: what its token opens, and the language of its cards
/// (`None`: a game printing its cards in one language).
type ViewKey = (Access, Option<String>);

/// A running table.
pub(crate) struct Slot {
    id: String,
    /// The game's slug (for the card faces and the rules).
    game: String,
    /// The game's name.
    title: String,
    /// Each token's digest ([`store::token_digest`]) with what it opens.
    tokens: Vec<(Access, String)>,
    inner: Mutex<Inner>,
    /// Told of every change; each connection then sends its own view.
    changed: broadcast::Sender<()>,
    /// Counts the changes ([`Slot::touch`]): a view built at an older count is stale.
    generation: AtomicU64,
    /// The view of each token's seat built last, while a connection holds it.
    /// (By what a token opens and the language of the view's cards.)
    built: std::sync::Mutex<HashMap<ViewKey, std::sync::Weak<Built>>>,
    /// Deleted (by agreement, the admin or expiry): its connections close.
    deleted: AtomicBool,
    /// Who is connected: open connections by what their token opens ([`voices`]).
    present: std::sync::Mutex<BTreeMap<Access, usize>>,
    /// Each seat's (and the spectators') allowance of chat and notes ([`voices`]).
    voice_rate: std::sync::Mutex<HashMap<Access, voices::Rate>>,
}

struct Inner {
    live: Box<dyn Live>,
    /// The data the table plays on.
    version: Arc<Version>,
    /// A proposal to go back to this many moves, and the person seats that agree.
    undo: Option<(usize, BTreeSet<usize>)>,
    /// The person seats that agree to start again on newer data.
    restart: BTreeSet<usize>,
    /// A task is playing the bots' and chance's moves.
    driving: bool,
    /// Counts the times the log was taken back (an undo, a restart): a connection that
    /// knows the log of an earlier epoch is sent all of it again.
    epoch: u64,
    /// Closed: no one moves any more; kept (viewable) until it expires or is deleted.
    closed: bool,
    /// The person seats that agree to close the table, and to delete it.
    closing: BTreeSet<usize>,
    deleting: BTreeSet<usize>,
    /// What the testers said at the table, oldest first, as stored.
    voices: Vec<store::Voice>,
    /// The table's game: 0, then one more at each rematch ([`voices`]).
    round: usize,
    /// The person seats that agree to a rematch.
    rematch: BTreeSet<usize>,
}

/// The server's state.
pub(crate) struct App {
    data: PathBuf,
    /// Each game's newest data that passed its check (or loaded at the start).
    games: RwLock<BTreeMap<String, Arc<Version>>>,
    /// What stops a game's newest data from being used, by game folder (`""`: the data
    /// folder itself).
    problems: RwLock<BTreeMap<String, Vec<String>>>,
    /// The games as the home page lists them (`GET /api/games`).
    catalog: RwLock<Value>,
    /// Every face file drawn so far, by digest.
    files: RwLock<HashMap<String, Arc<[u8]>>>,
    store: Arc<dyn Store>,
    /// Where moves are saved: one thread, committing what queued meanwhile together.
    writer: Writer,
    tables: RwLock<HashMap<String, Arc<Slot>>>,
    /// Stored tables whose data changed since they began, by id: not resumed ([`Held`]).
    held: RwLock<BTreeMap<String, Held>>,
    /// The threads bots think on: one per core, taking turns in slices ([`think`]), so that
    /// many tables' bots never starve the server, nor one table's search another's bot.
    thinkers: think::Thinkers,
    /// The digest of the admin token ([`store::token_digest`]): drawn at each start, printed
    /// once, kept only so. It makes, closes and deletes tables.
    admin: String,
    /// Days after which idle and closed tables are deleted (0: never).
    expire_days: u32,
}

/// The seats of a table that persons play.
fn person_seats(t: &Transcript) -> Vec<usize> {
    (0..t.seats.len())
        .filter(|&s| t.seats[s] == PERSON)
        .collect()
}

/// An error of the API: the status and a sentence.
#[derive(Debug)]
pub(crate) struct ApiError(pub u16, pub String);

impl ApiError {
    pub(crate) fn forbidden() -> ApiError {
        ApiError(403, "unknown table or token".into())
    }

    pub(crate) fn gone() -> ApiError {
        ApiError(410, "this table was deleted".into())
    }
}

/// Whose eyes a token's holder sees through.
fn observer(access: Access) -> Observer {
    access.map_or(Observer::Public, Observer::Seat)
}

/// 128 bits from the operating system, as hex.
fn random_hex(bytes: usize) -> Result<String, String> {
    let mut buf = vec![0u8; bytes];
    getrandom::fill(&mut buf).map_err(|e| format!("the OS gave no random bytes: {e}"))?;
    Ok(buf.iter().map(|b| format!("{b:02x}")).collect())
}

/// Bytes of every token: 128 bits.
const TOKEN_BYTES: usize = 16;

fn now() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() as i64)
}

impl App {
    /// Loads the games, deletes the tables that expired and resumes every other stored
    /// table; answers the admin token too (printed once by the caller, kept as a digest).
    fn new(opts: &ServeOptions) -> Result<(App, String, Vec<String>), String> {
        let store = store::Sqlite::open(&opts.db)?;
        let mut games = BTreeMap::new();
        let mut problems = BTreeMap::new();
        match crate::model::game_slugs(&opts.data) {
            Ok(slugs) => {
                for slug in slugs {
                    // Checked beside serving ([`App::checked`]): a game that fails is
                    // listed with its problems and gets no table.
                    match crate::model::load_game(&opts.data, &slug) {
                        Ok(g) => {
                            games.insert(slug, Version::new(g));
                        }
                        Err(ps) => {
                            problems.insert(slug, ps.iter().map(|p| p.to_string()).collect());
                        }
                    }
                }
            }
            Err(p) => {
                problems.insert(String::new(), vec![p.to_string()]);
            }
        }
        let store: Arc<dyn Store> = Arc::new(store);
        let admin = random_hex(TOKEN_BYTES)?;
        let app = App {
            writer: Writer::start(store.clone())?,
            data: opts.data.clone(),
            catalog: RwLock::new(catalog_of(&games, &problems)),
            games: RwLock::new(games),
            problems: RwLock::new(problems),
            files: RwLock::new(HashMap::new()),
            store,
            tables: RwLock::new(HashMap::new()),
            held: RwLock::new(BTreeMap::new()),
            thinkers: think::Thinkers::start(
                std::thread::available_parallelism().map_or(1, |n| n.get()),
                opts.budget,
            )?,
            admin: store::token_digest(&admin),
            expire_days: opts.expire_days,
        };
        let mut notes = Vec::new();
        let expired = app.expire()?;
        if expired > 0 {
            notes.push(format!(
                "{expired} tables idle or closed for more than {} days deleted",
                app.expire_days
            ));
        }
        for stored in app.store.all()? {
            let id = stored.id.clone();
            match app.resume(stored) {
                Ok(None) => {}
                Ok(Some(held)) => notes.push(format!("table {id} not resumed: {held}")),
                Err(e) => notes.push(format!("table {id} not resumed: {e}")),
            }
        }
        Ok((app, admin, notes))
    }
}

/// How often idle and closed tables are looked for, to delete those that expired.
const EXPIRE_EVERY: std::time::Duration = std::time::Duration::from_secs(3600);

/// The address to print in links: a wildcard host is shown as this machine's loopback.
fn link_host(host: &str, addr: SocketAddr) -> String {
    let shown = match host {
        "0.0.0.0" | "::" | "[::]" => "127.0.0.1".to_string(),
        h if h.contains(':') && !h.starts_with('[') => format!("[{h}]"),
        h => h.to_string(),
    };
    format!("http://{shown}:{}", addr.port())
}

/// Why the server stopped or did not start.
#[derive(Debug, Clone, PartialEq)]
pub enum ServeError {
    /// The game of the first table fails its check: its problems (a data problem).
    Data(String),
    /// Anything else (flags, the address, the database, I/O).
    Other(String),
}

impl From<String> for ServeError {
    fn from(e: String) -> ServeError {
        ServeError::Other(e)
    }
}

/// Runs the server until Ctrl-C. With `first`, makes that table and prints one line per
/// person seat (`SEAT URL`), `spectator URL` and `admin URL`; else prints the address and
/// `admin URL` (the admin token is printed only then).
pub fn serve(
    opts: ServeOptions,
    first: Option<NewTable>,
    out: &mut dyn Write,
) -> Result<(), ServeError> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| format!("cannot start the server: {e}"))?;
    runtime.block_on(run(opts, first, out))
}

async fn run(
    opts: ServeOptions,
    first: Option<NewTable>,
    out: &mut dyn Write,
) -> Result<(), ServeError> {
    let (app, admin, notes) = App::new(&opts)?;
    let app = Arc::new(app);
    for note in notes {
        eprintln!("{note}");
    }
    if app.expire_days > 0 {
        let app = app.clone();
        tokio::spawn(async move {
            let mut every = tokio::time::interval(EXPIRE_EVERY);
            every.tick().await;
            loop {
                every.tick().await;
                let app = app.clone();
                match tokio::task::spawn_blocking(move || app.expire()).await {
                    Ok(Ok(0)) => {}
                    Ok(Ok(n)) => eprintln!("{n} tables idle or closed too long deleted"),
                    Ok(Err(e)) => eprintln!("deleting expired tables: {e}"),
                    Err(e) => eprintln!("deleting expired tables: {e}"),
                }
            }
        });
    }
    // Kept for as long as the server runs: edits to the data reach new tables.
    let _watching = match watch_data(app.clone()) {
        Ok(w) => Some(w),
        Err(e) => {
            eprintln!("edits to the data are not picked up while serving: {e}");
            None
        }
    };
    let listener = tokio::net::TcpListener::bind((opts.host.as_str(), opts.port))
        .await
        .map_err(|e| format!("cannot listen on {}:{}: {e}", opts.host, opts.port))?;
    let addr = listener
        .local_addr()
        .map_err(|e| format!("cannot listen: {e}"))?;
    let base = link_host(&opts.host, addr);
    let io = |e: std::io::Error| format!("writing to standard output: {e}");
    if matches!(opts.host.as_str(), "0.0.0.0" | "::" | "[::]") {
        eprintln!(
            "listening on every network interface: anyone who can reach this machine on port {} can open the home page (making, closing and deleting tables needs the admin link), and each link lets its holder play that seat; links print with 127.0.0.1, give others this machine's address instead",
            addr.port()
        );
    }
    let slots: Vec<Arc<Slot>> = app
        .tables
        .read()
        .map(|t| t.values().cloned().collect())
        .unwrap_or_default();
    for slot in slots {
        app.drive(slot).await;
    }
    // Every game's data is checked as `printplay check` checks it, beside serving, one game
    // after another: a game that fails is listed with its problems and gets no new table (a
    // table asked for meanwhile waits for its own game's check). With a first table, its
    // game is checked first and the others once its page's faces are drawn, so that they do
    // not slow its first view.
    let versions: Vec<Arc<Version>> = app
        .games
        .read()
        .map(|g| g.values().cloned().collect())
        .unwrap_or_default();
    let first_game = first.as_ref().and_then(|req| app.current(&req.game));
    {
        let app = app.clone();
        let first_game = first_game.clone();
        tokio::spawn(async move {
            if let Some(version) = &first_game {
                let _ = app.checked(version).await;
                app.faces(version).await;
            }
            for version in versions {
                let _ = app.checked(&version).await;
            }
        });
    }
    match first {
        Some(req) => {
            let (created, slot) = app.make(req).await.map_err(|e| match e.0 {
                409 => ServeError::Data(e.1),
                _ => ServeError::Other(e.1),
            })?;
            for (name, token) in &created.seats {
                writeln!(out, "{name} {base}/tables/{}?token={token}", created.id).map_err(io)?;
            }
            writeln!(
                out,
                "spectator {base}/tables/{}?token={}",
                created.id, created.spectator
            )
            .map_err(io)?;
            writeln!(out, "admin {base}/?admin={admin}").map_err(io)?;
            app.drive(slot).await;
        }
        None => {
            let n = app.tables.read().map(|t| t.len()).unwrap_or(0);
            writeln!(
                out,
                "printplay serve: {base}/ ({n} tables resumed; Ctrl-C stops)"
            )
            .map_err(io)?;
            writeln!(out, "admin {base}/?admin={admin}").map_err(io)?;
            eprintln!(
                "the admin link makes, closes and deletes tables; it is shown only now (a new one at each start)"
            );
        }
    }
    out.flush().map_err(io)?;
    let router = http::router(app.clone());
    axum::serve(
        listener,
        router.into_make_service_with_connect_info::<SocketAddr>(),
    )
    .with_graceful_shutdown(async {
        let _ = tokio::signal::ctrl_c().await;
    })
    .await
    .map_err(|e| ServeError::Other(format!("the server stopped: {e}")))
}
