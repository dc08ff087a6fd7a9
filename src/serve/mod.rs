//! `printplay serve` and `printplay table`: the game's rules enforced at a table in the
//! browser. Players join by link (one unguessable token per person seat, one for spectators),
//! bots take the other seats and think on the server, and every move is stored before it is
//! acknowledged.
//!
//! The parts: [`live`] puts a game behind one object-safe interface (an engine's game, later
//! the free table of a game without one), [`store`] keeps tables (SQLite), `faces` draws the
//! build's card faces for the page, `http` answers the page, the JSON API and the WebSocket,
//! and `page` holds the page's files, compiled in. While serving, the data folder is watched:
//! a game's edited data that passes its check is used by new tables, running tables keep the
//! [`Version`] they started on and may start again on the new one.

mod admin;
pub mod faces;
mod http;
pub mod live;
mod page;
pub mod playtests;
pub mod store;
pub mod think;

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::io::Write;
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, OnceLock, RwLock};

use serde::Deserialize;
use serde_json::{Value, json};
use subtle::ConstantTimeEq;
use tokio::sync::{Mutex, broadcast};

use crate::engine::view::Observer;
use crate::model::Game;
use crate::play::{PERSON, Transcript};
use live::{Live, Next};
use store::{Access, Save, Store, StoredTable};

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
    rules: OnceLock<Result<String, String>>,
    /// Its face files are in [`App::files`].
    served: AtomicBool,
    /// What `printplay check` says of it (`Err`: its problems), run once.
    check: tokio::sync::OnceCell<Result<(), Vec<String>>>,
}

impl Version {
    fn new(game: Game) -> Arc<Version> {
        Arc::new(Version {
            digest: data_version(&game),
            game: Arc::new(game),
            faces: tokio::sync::OnceCell::new(),
            rules: OnceLock::new(),
            served: AtomicBool::new(false),
            check: tokio::sync::OnceCell::new(),
        })
    }

    /// A version whose data passed the check already.
    fn passed(game: Game) -> Arc<Version> {
        let version = Version::new(game);
        let _ = version.check.set(Ok(()));
        version
    }

    /// Its check's problems, if the check has run and failed.
    fn failed(&self) -> Option<&Vec<String>> {
        self.check.get().and_then(|c| c.as_ref().err())
    }

    /// Whether the game has a rules reference to show.
    fn has_rules(&self) -> bool {
        !(self.game.is_original() && self.game.rules.texts.is_empty())
    }

    /// The rules reference as HTML, in the game's first language (drawn once).
    fn rules_html(&self) -> Result<String, String> {
        self.rules
            .get_or_init(|| {
                if !self.has_rules() {
                    return Err(format!("{} has no rules reference", self.game.slug));
                }
                let joined = |ps: Vec<crate::diag::Problem>| {
                    ps.iter()
                        .map(|p| p.to_string())
                        .collect::<Vec<_>>()
                        .join("; ")
                };
                let assets = crate::rules::Assets::load_default().map_err(|p| joined(vec![p]))?;
                let lang = self
                    .game
                    .info
                    .languages
                    .first()
                    .cloned()
                    .unwrap_or_else(|| "en".to_string());
                let files =
                    crate::rules::render(&self.game, &lang, crate::rules::Format::Html, &assets)
                        .map_err(joined)?;
                files
                    .into_iter()
                    .next()
                    .map(|f| f.text)
                    .ok_or_else(|| "the reference rendered no page".to_string())
            })
            .clone()
    }
}

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
    built: std::sync::Mutex<HashMap<Access, std::sync::Weak<Built>>>,
    /// Deleted (by agreement, the admin or expiry): its connections close.
    deleted: AtomicBool,
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

/// The thread that saves moves. Tables that move at the same time queue their saves; the
/// thread commits everything queued in one transaction and only then answers each, so a
/// move is still stored before it is acknowledged, while many tables cost one commit and no
/// thread each.
struct Writer(std::sync::mpsc::Sender<(Save, tokio::sync::oneshot::Sender<Result<(), String>>)>);

/// Saves committed in one transaction at most.
const BATCH: usize = 512;

impl Writer {
    fn start(store: Arc<dyn Store>) -> Result<Writer, String> {
        let (tx, rx) = std::sync::mpsc::channel::<(Save, tokio::sync::oneshot::Sender<_>)>();
        std::thread::Builder::new()
            .name("printplay-store".into())
            .spawn(move || {
                while let Ok(first) = rx.recv() {
                    let mut jobs = vec![first];
                    while jobs.len() < BATCH {
                        match rx.try_recv() {
                            Ok(job) => jobs.push(job),
                            Err(_) => break,
                        }
                    }
                    let (saves, replies): (Vec<Save>, Vec<_>) = jobs.into_iter().unzip();
                    let results = store.save_batch(&saves);
                    for (reply, result) in replies.into_iter().zip(results) {
                        let _ = reply.send(result);
                    }
                }
            })
            .map_err(|e| format!("cannot start the thread that stores moves: {e}"))?;
        Ok(Writer(tx))
    }

    /// Stores `save`; returns once it is committed.
    async fn save(&self, save: Save) -> Result<(), ApiError> {
        let stopped = || ApiError(500, "the thread that stores moves stopped".into());
        let (tx, rx) = tokio::sync::oneshot::channel();
        self.0.send((save, tx)).map_err(|_| stopped())?;
        rx.await
            .map_err(|_| stopped())?
            .map_err(|e| ApiError(500, e))
    }
}

/// A stored table that was not resumed because the data it began on is not the game's data
/// now: replaying its moves on other data would change the game without a word (or fail).
/// It waits, its links answering what happened, until the game's data is again the data it
/// began on; then it resumes where it stopped. Or, once every person at it agrees
/// ([`App::restart_held`]), it starts over on the game's data now, as a running table does.
pub(crate) struct Held {
    stored: StoredTable,
    /// The game's data now ([`Version::digest`]); `None`: no data of the game loads.
    now: Option<String>,
    /// The person seats that agreed to start over on the data now. Data that changes again
    /// makes a new `Held`: an agreement holds for the data it was given for.
    agreed: BTreeSet<usize>,
    /// The seats' names, as the game's data now names them (`seat N` where it cannot).
    names: Vec<String>,
}

impl Held {
    fn new(stored: StoredTable, now: Option<&Version>) -> Held {
        let t = &stored.transcript;
        let named = now.and_then(|v| live::seating(&v.game, t.players, t.free).ok());
        let names = match named {
            Some((names, _, _)) if names.len() == t.seats.len() => names,
            _ => (1..=t.seats.len()).map(|n| format!("seat {n}")).collect(),
        };
        Held {
            now: now.map(|v| v.digest.clone()),
            stored,
            agreed: BTreeSet::new(),
            names,
        }
    }

    /// What happened and what the designer can do, for the table's page and the home page.
    fn message(&self) -> String {
        let t = &self.stored.transcript;
        let now = match &self.now {
            Some(v) => format!("is now version {v}"),
            None => "no longer loads".to_string(),
        };
        let over = if self.now.is_none() {
            String::new()
        } else {
            let names = |agreed: bool| {
                let seats = self.person_seats();
                let names: Vec<&str> = seats
                    .iter()
                    .filter(|s| self.agreed.contains(s) == agreed)
                    .filter_map(|&s| self.names.get(s).map(String::as_str))
                    .collect();
                if names.is_empty() {
                    "nobody".to_string()
                } else {
                    names.join(", ")
                }
            };
            format!(
                " Or start this table over on the game's data now, with the same seats, seed and variants and the same links, once every person at it agrees (agreed: {}; waiting for: {}).",
                names(true),
                names(false)
            )
        };
        format!(
            "This table of {} began on the game's data version {}, and that data {now}. Its {} moves are not replayed on other data, which would change the game. To go on, put the game's data back as it was when the table began: the table resumes as soon as the server sees it (or when it starts again).{over}",
            t.game,
            self.stored.data_version,
            t.moves.len()
        )
    }

    fn person_seats(&self) -> Vec<usize> {
        person_seats(&self.stored.transcript)
    }

    fn json(&self) -> Value {
        json!({
            "id": self.stored.id,
            "game": self.stored.transcript.game,
            "began": self.stored.data_version,
            "now": self.now,
            "moves": self.stored.transcript.moves.len(),
            "note": self.message(),
        })
    }
}

/// The seats of a table that persons play.
fn person_seats(t: &Transcript) -> Vec<usize> {
    (0..t.seats.len())
        .filter(|&s| t.seats[s] == PERSON)
        .collect()
}

/// What a person's agreement to start a held table over came to.
pub(crate) enum HeldRestart {
    /// Waiting for the other persons: the table's message now says who agreed.
    Waiting(String),
    /// Every person agreed: the table plays again, on the game's data now.
    Restarted(Arc<Slot>, Access),
}

/// Which of `tokens` (digests with what they open) `token` opens: compared with every
/// digest in full, in constant time.
fn access_of(tokens: &[(Access, String)], token: &str) -> Option<Access> {
    let digest = store::token_digest(token);
    let mut found = None;
    for (access, t) in tokens {
        if bool::from(t.as_bytes().ct_eq(digest.as_bytes())) {
            found = Some(*access);
        }
    }
    found
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

impl Slot {
    /// What a token opens at this table: its digest is compared with every token's in full,
    /// in constant time.
    pub(crate) fn access(&self, token: &str) -> Option<Access> {
        access_of(&self.tokens, token)
    }

    fn person_seats(live: &dyn Live) -> Vec<usize> {
        person_seats(live.transcript())
    }

    /// Marks a change (a move, an undo, newer data): views built before it are stale, and
    /// every connection is told.
    fn touch(&self) {
        self.generation.fetch_add(1, Ordering::SeqCst);
        let _ = self.changed.send(());
    }

    /// The table's state locked, with the faces of the data it plays on (drawn the first
    /// time without holding the lock).
    async fn locked(
        &self,
        app: &App,
    ) -> (
        Option<Arc<faces::Faces>>,
        tokio::sync::MutexGuard<'_, Inner>,
    ) {
        loop {
            let version = self.inner.lock().await.version.clone();
            let faces = app.faces(&version).await;
            let inner = self.inner.lock().await;
            // A restart on other data in between: its faces instead.
            if Arc::ptr_eq(&inner.version, &version) {
                return (faces, inner);
            }
        }
    }

    /// The view a token's holder gets, with the seats, the undo proposal, who it is, the
    /// faces of the cards it shows and whether newer data is waiting; without the log.
    fn build(
        &self,
        app: &App,
        inner: &Inner,
        faces: Option<&faces::Faces>,
        access: Access,
        at: Option<usize>,
    ) -> Result<Value, ApiError> {
        let mut view = view_of(inner, access, at)?;
        let newer = app
            .current(&self.game)
            .is_some_and(|v| v.digest != inner.version.digest);
        let names = inner.live.seat_names();
        let persons = Slot::person_seats(inner.live.as_ref());
        let restart = (!inner.restart.is_empty()).then(|| {
            json!({
                "agreed": inner.restart.iter().map(|&s| &names[s]).collect::<Vec<_>>(),
                "waiting": persons.iter().filter(|s| !inner.restart.contains(s)).map(|&s| &names[s]).collect::<Vec<_>>(),
            })
        });
        view["title"] = json!(self.title);
        let asked = |agreed: &BTreeSet<usize>| {
            (!agreed.is_empty()).then(|| admin::proposal(names, &persons, agreed))
        };
        view["data"] = json!({
            "version": inner.version.digest,
            "newer": newer,
            "restart": restart,
            "rules": inner.version.has_rules(),
            "closed": inner.closed,
            "close": asked(&inner.closing),
            "delete": asked(&inner.deleting),
        });
        if let Some(faces) = faces {
            faces.annotate(&mut view, names, &self.id);
        }
        Ok(view)
    }

    /// The whole view a token's holder gets now (`at`: after the first `at` entries of the
    /// move list, time travel), log included, as JSON text.
    pub(crate) async fn view(
        &self,
        app: &App,
        access: Access,
        at: Option<usize>,
    ) -> Result<String, ApiError> {
        match at {
            None => {
                let (built, _, log) = self.current(app, access, None).await?;
                Ok(built.whole(&log))
            }
            Some(_) => {
                let (faces, inner) = self.locked(app).await;
                let mut view = self.build(app, &inner, faces.as_deref(), access, at)?;
                let log = inner
                    .live
                    .log(observer(access))
                    .map_err(|e| ApiError(500, e))?;
                let shown = at.map_or(log.len(), |a| a.min(log.len()));
                view["log"] = json!(&log[..shown]);
                Ok(view.to_string())
            }
        }
    }

    /// The view a token's holder gets now, built once for every connection of that seat
    /// until the table changes, with the log's entries after those the caller `knows` (its
    /// epoch and length; `None`: all of it): the view, where the entries start, and the
    /// entries as JSON text.
    pub(crate) async fn current(
        &self,
        app: &App,
        access: Access,
        knows: Option<(u64, usize)>,
    ) -> Result<(Arc<Built>, usize, String), ApiError> {
        if self.deleted.load(Ordering::SeqCst) {
            return Err(ApiError::gone());
        }
        let (faces, inner) = self.locked(app).await;
        // Changes are made under the lock: the count read here is the state's.
        let generation = self.generation.load(Ordering::SeqCst);
        let cached = self
            .built
            .lock()
            .ok()
            .and_then(|b| b.get(&access).and_then(std::sync::Weak::upgrade))
            .filter(|b| b.generation == generation && b.epoch == inner.epoch);
        let log = inner
            .live
            .log(observer(access))
            .map_err(|e| ApiError(500, e))?;
        let built = match cached {
            Some(b) => b,
            None => {
                let view = self.build(app, &inner, faces.as_deref(), access, None)?;
                let built = Arc::new(Built::new(generation, inner.epoch, log.len(), view)?);
                if let Ok(mut b) = self.built.lock() {
                    b.insert(access, Arc::downgrade(&built));
                }
                built
            }
        };
        let from = match knows {
            Some((epoch, len)) if epoch == inner.epoch => len.min(log.len()),
            _ => 0,
        };
        let entries =
            serde_json::to_string(&log[from..]).map_err(|e| ApiError(500, e.to_string()))?;
        Ok((built, from, entries))
    }
}

/// The table's move list as `edit` leaves it, to store if the stored list is still the one
/// `inner` plays (the caller changes `inner` to match once it is committed).
fn edited(slot: &Slot, inner: &Inner, edit: impl FnOnce(&mut Vec<usize>)) -> Save {
    let mut transcript = inner.live.transcript().clone();
    edit(&mut transcript.moves);
    Save {
        id: slot.id.clone(),
        expected: inner.live.transcript().moves.len(),
        transcript,
    }
}

/// Whose eyes a token's holder sees through.
fn observer(access: Access) -> Observer {
    access.map_or(Observer::Public, Observer::Seat)
}

/// A seat's view now, each part but the log written as JSON once: every connection of the
/// seat sends it until the table changes, and a connection that sent an earlier one sends
/// only the parts that differ ([`Built::update`]).
pub(crate) struct Built {
    /// The table's change count it was built at ([`Slot::touch`]).
    generation: u64,
    /// The log's epoch ([`Inner::epoch`]) and length when built.
    pub(crate) epoch: u64,
    pub(crate) log_len: usize,
    /// Each part of the view but the log, by key, as JSON.
    parts: Vec<(String, String)>,
}

impl Built {
    fn new(generation: u64, epoch: u64, log_len: usize, view: Value) -> Result<Built, ApiError> {
        let Value::Object(map) = view else {
            return Err(ApiError(500, "a view that is not an object".into()));
        };
        let parts = map
            .into_iter()
            .filter(|(k, _)| k != "log")
            .map(|(k, v)| serde_json::to_string(&v).map(|t| (k, t)))
            .collect::<Result<Vec<_>, _>>()
            .map_err(|e| ApiError(500, e.to_string()))?;
        Ok(Built {
            generation,
            epoch,
            log_len,
            parts,
        })
    }

    /// The view with `log` (its entries as JSON) as one JSON object.
    pub(crate) fn whole(&self, log: &str) -> String {
        let mut out = String::with_capacity(
            self.parts
                .iter()
                .map(|(k, v)| k.len() + v.len() + 4)
                .sum::<usize>()
                + log.len()
                + 8,
        );
        out.push('{');
        for (k, v) in &self.parts {
            push_key(&mut out, k);
            out.push_str(v);
            out.push(',');
        }
        out.push_str("\"log\":");
        out.push_str(log);
        out.push('}');
        out
    }

    /// What changed since `before` was sent: the parts that differ and the log's new entries
    /// (`log`, from entry `from` on), as the WebSocket's `update`; `None` if nothing did.
    pub(crate) fn update(&self, before: &Built, from: usize, log: &str) -> Option<String> {
        let mut out = format!("{{\"type\":\"update\",\"log_from\":{from},\"view\":{{");
        let mut any = log != "[]" || from != before.log_len;
        for (k, v) in &self.parts {
            if before.parts.iter().any(|(bk, bv)| bk == k && bv == v) {
                continue;
            }
            any = true;
            push_key(&mut out, k);
            out.push_str(v);
            out.push(',');
        }
        for (k, _) in &before.parts {
            if !self.parts.iter().any(|(nk, _)| nk == k) {
                any = true;
                push_key(&mut out, k);
                out.push_str("null,");
            }
        }
        out.push_str("\"log\":");
        out.push_str(log);
        out.push_str("}}");
        any.then_some(out)
    }
}

/// `"key":` (keys are the server's own words, but written as JSON all the same).
fn push_key(out: &mut String, key: &str) {
    out.push_str(&Value::String(key.to_string()).to_string());
    out.push(':');
}

fn view_of(inner: &Inner, access: Access, at: Option<usize>) -> Result<Value, ApiError> {
    let live = &inner.live;
    let observer = observer(access);
    let mut view = live
        .table_view(observer, at)
        .map_err(|e| ApiError(500, e))?;
    let names = live.seat_names();
    let t = live.transcript();
    let seats: Vec<Value> = names
        .iter()
        .zip(&t.seats)
        .map(|(name, plays)| json!({"name": name, "plays": plays}))
        .collect();
    let undo = inner.undo.as_ref().map(|(to, agreed)| {
        let persons = Slot::person_seats(live.as_ref());
        json!({
            "to": to,
            "agreed": agreed.iter().map(|&s| &names[s]).collect::<Vec<_>>(),
            "waiting": persons.iter().filter(|s| !agreed.contains(s)).map(|&s| &names[s]).collect::<Vec<_>>(),
        })
    });
    if let Value::Object(map) = &mut view {
        map.insert("seats".into(), json!(seats));
        map.insert("you".into(), json!(access.map(|s| &names[s])));
        map.insert("undo".into(), json!(undo));
        // The seed decides every hidden card: told only once the game is over.
        let over = live.next() == Next::Over;
        map.insert("seed".into(), json!(over.then_some(t.seed)));
    }
    Ok(view)
}

/// 128 bits from the operating system, as hex.
fn random_hex(bytes: usize) -> Result<String, String> {
    let mut buf = vec![0u8; bytes];
    getrandom::fill(&mut buf).map_err(|e| format!("the OS gave no random bytes: {e}"))?;
    Ok(buf.iter().map(|b| format!("{b:02x}")).collect())
}

/// Bytes of every token: 128 bits.
const TOKEN_BYTES: usize = 16;

/// A digest of every file in the game's folder (names and contents, in name order; hidden
/// files left out): which data a table started on.
fn data_version(game: &Game) -> String {
    use sha2::{Digest, Sha256};
    fn walk(dir: &Path, rel: &str, hash: &mut Sha256) {
        let Ok(entries) = std::fs::read_dir(dir) else {
            return;
        };
        let mut names: Vec<(String, PathBuf)> = entries
            .filter_map(Result::ok)
            .filter_map(|e| Some((e.file_name().into_string().ok()?, e.path())))
            .filter(|(n, _)| !n.starts_with('.'))
            .collect();
        names.sort();
        for (name, path) in names {
            let rel = format!("{rel}/{name}");
            // Only what lies inside the folder: a link out of it is not followed.
            let Ok(meta) = std::fs::symlink_metadata(&path) else {
                continue;
            };
            if meta.is_dir() {
                walk(&path, &rel, hash);
            } else if meta.is_file() {
                hash.update(rel.as_bytes());
                hash.update([0]);
                if let Ok(bytes) = std::fs::read(&path) {
                    hash.update(&bytes);
                }
                hash.update([0xff]);
            }
        }
    }
    let mut hash = Sha256::new();
    hash.update(game.game_file.text.as_bytes());
    hash.update(game.components_file.text.as_bytes());
    walk(&game.dir, "", &mut hash);
    hash.finalize()[..8]
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

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

    /// Resumes a stored table on the data it began on; if the game's data is other data now,
    /// holds it ([`Held`]) and says why.
    fn resume(&self, stored: StoredTable) -> Result<Option<String>, String> {
        let version = self.current(&stored.transcript.game);
        match version {
            Some(version) if version.digest == stored.data_version => {
                let live = live::open(&version.game, stored.transcript.clone())?;
                self.insert(&stored, live, version);
                Ok(None)
            }
            other => {
                let held = Held::new(stored, other.as_deref());
                let note = held.message();
                if let Ok(mut h) = self.held.write() {
                    h.insert(held.stored.id.clone(), held);
                }
                Ok(Some(note))
            }
        }
    }

    /// The held tables, for the home page.
    pub(crate) fn held(&self) -> Vec<Value> {
        self.held
            .read()
            .map(|h| h.values().map(Held::json).collect())
            .unwrap_or_default()
    }

    /// The newest usable data of a game.
    pub(crate) fn current(&self, slug: &str) -> Option<Arc<Version>> {
        self.games.read().ok()?.get(slug).cloned()
    }

    /// The games as the home page lists them.
    pub(crate) fn catalog(&self) -> Value {
        self.catalog
            .read()
            .map(|c| c.clone())
            .unwrap_or(Value::Null)
    }

    /// A face file by its digest.
    pub(crate) fn file(&self, digest: &str) -> Option<Arc<[u8]>> {
        self.files.read().ok()?.get(digest).cloned()
    }

    /// The faces of a version, drawn on a blocking thread the first time; `None` when they
    /// cannot be drawn (the view then shows words only).
    pub(crate) async fn faces(&self, version: &Arc<Version>) -> Option<Arc<faces::Faces>> {
        let drawn = version
            .faces
            .get_or_init(|| async {
                let game = version.game.clone();
                tokio::task::spawn_blocking(move || faces::Faces::draw(&game).map(Arc::new))
                    .await
                    .map_err(|e| e.to_string())?
            })
            .await;
        let faces = drawn.clone().ok()?;
        if !version.served.swap(true, Ordering::SeqCst)
            && let Ok(mut files) = self.files.write()
        {
            for (k, f) in &faces.files {
                files.insert(k.clone(), f.clone());
            }
        }
        Some(faces)
    }

    /// The rules reference of the data a table plays on.
    pub(crate) async fn rules(&self, slot: &Slot) -> Result<String, ApiError> {
        let version = slot.inner.lock().await.version.clone();
        tokio::task::spawn_blocking(move || version.rules_html())
            .await
            .map_err(|e| ApiError(500, e.to_string()))?
            .map_err(|e| ApiError(404, e))
    }

    /// Reads a game's folder again after an edit. Data that loads and passes the check
    /// becomes the game's newest version (new tables use it; running tables are told that
    /// it waits); data that fails is listed on the home page and changes nothing else. Held
    /// tables whose data is back resume: returned, for their bots to be started.
    pub(crate) fn reload(&self, slug: &str) -> Vec<Arc<Slot>> {
        let outcome = match crate::model::load_game(&self.data, slug) {
            Err(ps) => Err(ps.iter().map(|p| p.to_string()).collect::<Vec<_>>()),
            Ok(game) => {
                let digest = data_version(&game);
                let current = self.current(slug).filter(|v| v.digest == digest);
                if let Some(ps) = current.as_ref().and_then(|v| v.failed().cloned()) {
                    // The data that failed its check at the start, unchanged.
                    Err(ps)
                } else if current.is_some() {
                    Ok(None)
                } else {
                    let report = crate::check::check_game_report(&game);
                    if report.problems.is_empty() {
                        Ok(Some(game))
                    } else {
                        Err(report.problems.iter().map(|p| p.to_string()).collect())
                    }
                }
            }
        };
        // The same data as before, still passing: nothing to tell anyone.
        let had_problems = self.problems.read().is_ok_and(|p| p.contains_key(slug));
        if matches!(outcome, Ok(None)) && !had_problems {
            return Vec::new();
        }
        if let Ok(mut problems) = self.problems.write() {
            match &outcome {
                Ok(_) => {
                    problems.remove(slug);
                }
                Err(ps) => {
                    problems.insert(slug.to_string(), ps.clone());
                }
            }
        }
        if let Ok(Some(game)) = outcome
            && let Ok(mut games) = self.games.write()
        {
            games.insert(slug.to_string(), Version::passed(game));
        }
        // Held tables of the game whose data is back resume; the others learn the new version.
        let waiting: Vec<StoredTable> = self
            .held
            .write()
            .map(|mut held| {
                let ids: Vec<String> = held
                    .iter()
                    .filter(|(_, h)| h.stored.transcript.game == slug)
                    .map(|(id, _)| id.clone())
                    .collect();
                ids.iter()
                    .filter_map(|id| held.remove(id))
                    .map(|h| h.stored)
                    .collect()
            })
            .unwrap_or_default();
        let mut resumed = Vec::new();
        for stored in waiting {
            let id = stored.id.clone();
            match self.resume(stored) {
                Ok(None) => resumed.extend(self.slot(&id)),
                Ok(Some(_)) => {}
                Err(e) => eprintln!("table {id} not resumed: {e}"),
            }
        }
        if let (Ok(games), Ok(problems), Ok(mut catalog)) = (
            self.games.read(),
            self.problems.read(),
            self.catalog.write(),
        ) {
            *catalog = catalog_of(&games, &problems);
        }
        // Running tables of the game learn that newer data waits.
        let slots: Vec<Arc<Slot>> = self
            .tables
            .read()
            .map(|t| t.values().filter(|s| s.game == slug).cloned().collect())
            .unwrap_or_default();
        for slot in slots {
            slot.touch();
        }
        resumed
    }

    fn insert(
        &self,
        stored: &StoredTable,
        live: Box<dyn Live>,
        version: Arc<Version>,
    ) -> Arc<Slot> {
        let (changed, _) = broadcast::channel(16);
        let slot = Arc::new(Slot {
            id: stored.id.clone(),
            game: stored.transcript.game.clone(),
            title: version.game.info.name.clone(),
            tokens: stored.tokens.clone(),
            inner: Mutex::new(Inner {
                live,
                version,
                undo: None,
                restart: BTreeSet::new(),
                driving: false,
                epoch: 0,
                closed: stored.closed.is_some(),
                closing: BTreeSet::new(),
                deleting: BTreeSet::new(),
            }),
            changed,
            generation: AtomicU64::new(0),
            built: std::sync::Mutex::new(HashMap::new()),
            deleted: AtomicBool::new(false),
        });
        if let Ok(mut tables) = self.tables.write() {
            tables.insert(stored.id.clone(), slot.clone());
        }
        slot
    }

    pub(crate) fn slot(&self, id: &str) -> Option<Arc<Slot>> {
        self.tables.read().ok()?.get(id).cloned()
    }

    /// The table `id` and what `token` opens there; 403 for either unknown.
    /// A held table answers its own links (409) with what happened to it.
    pub(crate) fn open(&self, id: &str, token: &str) -> Result<(Arc<Slot>, Access), ApiError> {
        let Some(slot) = self.slot(id) else {
            let held = self.held.read().ok().and_then(|h| {
                let held = h.get(id)?;
                access_of(&held.stored.tokens, token)?;
                Some(held.message())
            });
            return Err(held.map_or_else(ApiError::forbidden, |m| ApiError(409, m)));
        };
        let access = slot.access(token).ok_or_else(ApiError::forbidden)?;
        Ok((slot, access))
    }

    /// What `token` opens at the held table `id`, if it is one.
    pub(crate) fn held_access(&self, id: &str, token: &str) -> Option<Access> {
        let held = self.held.read().ok()?;
        access_of(&held.get(id)?.stored.tokens, token)
    }

    /// Whether a version's data passes the check `printplay check` runs (run once, on a
    /// blocking thread); the failure (409) lists its problems, which the home page lists too.
    pub(crate) async fn checked(&self, version: &Arc<Version>) -> Result<(), ApiError> {
        let result = version
            .check
            .get_or_init(|| async {
                let game = version.game.clone();
                tokio::task::spawn_blocking(move || {
                    let report = crate::check::check_game_report(&game);
                    if report.problems.is_empty() {
                        Ok(())
                    } else {
                        Err(report.problems.iter().map(|p| p.to_string()).collect())
                    }
                })
                .await
                .unwrap_or_else(|e| Err(vec![format!("the check stopped: {e}")]))
            })
            .await;
        let Err(problems) = result else {
            return Ok(());
        };
        let slug = &version.game.slug;
        // Listed on the home page, once, while it is the game's data.
        let current = self.current(slug).is_some_and(|v| Arc::ptr_eq(&v, version));
        let listed = self
            .problems
            .read()
            .is_ok_and(|p| p.get(slug) == Some(problems));
        if current
            && !listed
            // The order every other path takes them in: the games, then the problems.
            && let (Ok(games), Ok(mut ps)) = (self.games.read(), self.problems.write())
        {
            ps.insert(slug.clone(), problems.clone());
            if let Ok(mut catalog) = self.catalog.write() {
                *catalog = catalog_of(&games, &ps);
            }
        }
        Err(ApiError(
            409,
            format!(
                "{slug} fails its check, so no table of it is made here until its data is fixed: {}",
                problems.join("; ")
            ),
        ))
    }

    /// Makes a table ([`App::create`]) once the game's data has passed its check.
    pub(crate) async fn make(
        self: &Arc<Self>,
        req: NewTable,
    ) -> Result<(Created, Arc<Slot>), ApiError> {
        if let Some(version) = self.current(&req.game) {
            self.checked(&version).await?;
        }
        let app = self.clone();
        tokio::task::spawn_blocking(move || app.create(req))
            .await
            .map_err(|e| ApiError(500, e.to_string()))?
    }

    /// Makes a table: checks the seats and bots, draws the tokens, stores it.
    pub(crate) fn create(&self, req: NewTable) -> Result<(Created, Arc<Slot>), ApiError> {
        let bad = |e: String| ApiError(400, e);
        let version = self
            .current(&req.game)
            .ok_or_else(|| bad(format!("no game `{}` here", req.game)))?;
        let game = &version.game;
        let (names, min, _) = live::seating(game, req.players, req.free).map_err(bad)?;
        let players = if req.players == 0 { min } else { req.players };
        if req.seats.len() > players {
            return Err(bad(format!(
                "{} seats given for {players} players",
                req.seats.len()
            )));
        }
        let budget = self.thinkers.budget();
        for spec in &req.seats {
            budget.allows(spec).map_err(bad)?;
        }
        let mut seats = req.seats.clone();
        seats.resize(players, PERSON.to_string());
        let seed = match req.seed {
            Some(s) => s,
            None => {
                let mut b = [0u8; 8];
                getrandom::fill(&mut b).map_err(|e| ApiError(500, e.to_string()))?;
                u64::from_le_bytes(b)
            }
        };
        let transcript = Transcript {
            game: game.slug.clone(),
            seed,
            players,
            free: req.free,
            variants: req.variants,
            seats,
            moves: Vec::new(),
        };
        let live = live::open(game, transcript.clone()).map_err(bad)?;
        let names = if names.len() == players {
            names
        } else {
            live.seat_names().to_vec()
        };
        let hex = |n| random_hex(n).map_err(|e| ApiError(500, e));
        let mut tokens = Vec::new();
        for (seat, who) in transcript.seats.iter().enumerate() {
            if who == PERSON {
                tokens.push((Some(seat), hex(TOKEN_BYTES)?));
            }
        }
        tokens.push((None, hex(TOKEN_BYTES)?));
        // Only the tokens' digests are kept: the links are given once, here.
        let stored = StoredTable {
            id: hex(8)?,
            data_version: version.digest.clone(),
            transcript,
            tokens: tokens
                .iter()
                .map(|(a, t)| (*a, store::token_digest(t)))
                .collect(),
            created: now(),
            closed: None,
        };
        self.store.create(&stored).map_err(|e| ApiError(500, e))?;
        let slot = self.insert(&stored, live, version.clone());
        let created = Created {
            id: stored.id.clone(),
            seats: tokens
                .iter()
                .filter_map(|(a, t)| a.map(|s| (names[s].clone(), t.clone())))
                .collect(),
            spectator: tokens
                .iter()
                .find(|(a, _)| a.is_none())
                .map(|(_, t)| t.clone())
                .unwrap_or_default(),
        };
        Ok((created, slot))
    }

    /// Stores one more move, then plays it and tells every connection. The move must be
    /// open at this point (the callers check it against the legal moves).
    async fn commit(&self, slot: &Slot, inner: &mut Inner, index: usize) -> Result<(), ApiError> {
        self.writer
            .save(edited(slot, inner, |moves| moves.push(index)))
            .await?;
        inner.live.play(index).map_err(|e| ApiError(500, e))?;
        inner.undo = None;
        slot.touch();
        Ok(())
    }

    /// A person's move: `index` into the seat's legal moves, at `at` moves if given.
    pub(crate) async fn person_move(
        self: &Arc<Self>,
        slot: &Arc<Slot>,
        seat: usize,
        index: usize,
        at: Option<usize>,
    ) -> Result<(), ApiError> {
        {
            let mut inner = slot.inner.lock().await;
            let len = inner.live.transcript().moves.len();
            if at.is_some_and(|a| a != len) {
                return Err(ApiError(
                    409,
                    format!("the table is at move {len}, not {}", at.unwrap_or(0)),
                ));
            }
            if inner.closed {
                return Err(ApiError(
                    409,
                    "the table is closed: no one moves here any more".into(),
                ));
            }
            if inner.live.next() != Next::Person(seat) {
                return Err(ApiError(409, "it is not this seat's turn".into()));
            }
            let open = inner.live.legal(seat).len();
            if index >= open {
                return Err(ApiError(
                    400,
                    format!("there is no move {index}: the moves are 0 to {}", open - 1),
                ));
            }
            self.commit(slot, &mut inner, index).await?;
        }
        self.drive(slot.clone()).await;
        Ok(())
    }

    /// Undo by agreement. Without a proposal, `seat` proposes to take back its last
    /// decision; with one, `seat` agrees to it (or, with `decline`, withdraws it). The moves
    /// go back once every person seat agrees.
    pub(crate) async fn undo(
        self: &Arc<Self>,
        slot: &Arc<Slot>,
        seat: usize,
        decline: bool,
    ) -> Result<(), ApiError> {
        {
            let mut inner = slot.inner.lock().await;
            if decline {
                if inner.undo.take().is_some() {
                    slot.touch();
                }
                return Ok(());
            }
            match &mut inner.undo {
                Some((_, agreed)) => {
                    agreed.insert(seat);
                }
                None => {
                    let Some(&to) = inner.live.decisions(seat).last() else {
                        return Err(ApiError(
                            409,
                            "nothing to undo: no decision of this seat yet".into(),
                        ));
                    };
                    inner.undo = Some((to, BTreeSet::from([seat])));
                }
            }
            let persons = Slot::person_seats(inner.live.as_ref());
            let (to, agreed) = inner.undo.clone().unwrap_or_default();
            if persons.iter().all(|s| agreed.contains(s)) {
                let save = edited(slot, &inner, |moves| moves.truncate(to));
                self.writer.save(save).await?;
                inner.live.rewind(to).map_err(|e| ApiError(500, e))?;
                inner.epoch += 1;
                inner.undo = None;
            }
            slot.touch();
        }
        self.drive(slot.clone()).await;
        Ok(())
    }

    /// Starting again on the game's newest data, by agreement: `seat` agrees (or, with
    /// `decline`, withdraws every agreement). Once every person seat agrees, the table starts
    /// over on the new data with the same seats, seed and variants; the links stay the same.
    pub(crate) async fn restart(
        self: &Arc<Self>,
        slot: &Arc<Slot>,
        seat: usize,
        decline: bool,
    ) -> Result<(), ApiError> {
        {
            let mut inner = slot.inner.lock().await;
            if decline {
                inner.restart.clear();
                slot.touch();
                return Ok(());
            }
            let version = self
                .current(&slot.game)
                .filter(|v| v.digest != inner.version.digest)
                .ok_or_else(|| ApiError(409, "the table already plays the newest data".into()))?;
            inner.restart.insert(seat);
            let persons = Slot::person_seats(inner.live.as_ref());
            if persons.iter().all(|s| inner.restart.contains(s)) {
                let mut fresh = inner.live.transcript().clone();
                fresh.moves.clear();
                let live = live::open(&version.game, fresh.clone()).map_err(|e| {
                    ApiError(409, format!("the new data cannot seat this table: {e}"))
                })?;
                let expected = inner.live.transcript().moves.len();
                let store = self.store.clone();
                let id = slot.id.clone();
                let digest = version.digest.clone();
                tokio::task::spawn_blocking(move || store.restart(&id, expected, &digest, &fresh))
                    .await
                    .map_err(|e| ApiError(500, e.to_string()))?
                    .map_err(|e| ApiError(500, e))?;
                inner.live = live;
                inner.epoch += 1;
                inner.version = version;
                inner.restart.clear();
                inner.undo = None;
            }
            slot.touch();
        }
        self.drive(slot.clone()).await;
        Ok(())
    }

    /// A person's say on starting the held table `id` over on the game's data now
    /// ([`Held`]): `token` must open one of its seats. Declining withdraws every agreement.
    /// Once every person seat agrees, the table starts over with the same seats, seed and
    /// variants, is stored so, and plays again behind the same links.
    pub(crate) async fn restart_held(
        self: &Arc<Self>,
        id: &str,
        token: &str,
        decline: bool,
    ) -> Result<HeldRestart, ApiError> {
        let (stored, version, access) = {
            let mut held = self
                .held
                .write()
                .map_err(|_| ApiError(500, "the held tables are out of reach".into()))?;
            let h = held.get_mut(id).ok_or_else(ApiError::forbidden)?;
            let access = access_of(&h.stored.tokens, token).ok_or_else(ApiError::forbidden)?;
            let seat = access.ok_or_else(|| {
                ApiError(
                    403,
                    "a spectator cannot agree to start the table over".into(),
                )
            })?;
            if decline {
                h.agreed.clear();
                return Ok(HeldRestart::Waiting(h.message()));
            }
            let version = self
                .current(&h.stored.transcript.game)
                .ok_or_else(|| ApiError(409, h.message()))?;
            h.agreed.insert(seat);
            if !h.person_seats().iter().all(|s| h.agreed.contains(s)) {
                return Ok(HeldRestart::Waiting(h.message()));
            }
            let Some(h) = held.remove(id) else {
                return Err(ApiError::forbidden());
            };
            (h.stored, version, access)
        };
        let mut fresh = stored.transcript.clone();
        fresh.moves.clear();
        let started = live::open(&version.game, fresh.clone()).map_err(|e| {
            ApiError(
                409,
                format!("the game's data now cannot seat this table: {e}"),
            )
        });
        let saved = match started {
            Ok(live) => {
                let store = self.store.clone();
                let (id, expected) = (stored.id.clone(), stored.transcript.moves.len());
                let digest = version.digest.clone();
                let fresh = fresh.clone();
                tokio::task::spawn_blocking(move || store.restart(&id, expected, &digest, &fresh))
                    .await
                    .map_err(|e| ApiError(500, e.to_string()))
                    .and_then(|r| r.map_err(|e| ApiError(500, e)))
                    .map(|()| live)
            }
            Err(e) => Err(e),
        };
        let live = match saved {
            Ok(live) => live,
            Err(e) => {
                // Nothing changed: the table waits as it did, agreements withdrawn.
                if let Ok(mut held) = self.held.write() {
                    held.insert(stored.id.clone(), Held::new(stored, Some(&version)));
                }
                return Err(e);
            }
        };
        let stored = StoredTable {
            data_version: version.digest.clone(),
            transcript: fresh,
            ..stored
        };
        let slot = self.insert(&stored, live, version);
        self.drive(slot.clone()).await;
        Ok(HeldRestart::Restarted(slot, access))
    }

    /// Starts playing chance's and the bots' moves at `slot` until a person is to act,
    /// unless that is already under way. Bots think on blocking threads.
    pub(crate) async fn drive(self: &Arc<Self>, slot: Arc<Slot>) {
        {
            let mut inner = slot.inner.lock().await;
            if inner.driving
                || inner.closed
                || !matches!(inner.live.next(), Next::Bot(_) | Next::Chance)
            {
                return;
            }
            inner.driving = true;
        }
        let app = self.clone();
        tokio::spawn(async move {
            if let Err(e) = app.drive_loop(&slot).await {
                eprintln!("table {}: {}", slot.id, e.1);
            }
            slot.inner.lock().await.driving = false;
        });
    }

    async fn drive_loop(&self, slot: &Arc<Slot>) -> Result<(), ApiError> {
        loop {
            let mut inner = slot.inner.lock().await;
            if inner.closed || slot.deleted.load(Ordering::SeqCst) {
                inner.driving = false;
                return Ok(());
            }
            match inner.live.next() {
                Next::Chance => {
                    let index = inner.live.chance_index().map_err(|e| ApiError(500, e))?;
                    self.commit(slot, &mut inner, index).await?;
                }
                Next::Bot(_) => {
                    let Some(job) = inner.live.bot_job() else {
                        return Ok(());
                    };
                    drop(inner);
                    let done = self
                        .thinkers
                        .think(job)
                        .await
                        .map_err(|e| ApiError(500, e))?;
                    let mut inner = slot.inner.lock().await;
                    if let Some(index) = inner.live.bot_done(done)
                        && !inner.closed
                        && !slot.deleted.load(Ordering::SeqCst)
                    {
                        self.commit(slot, &mut inner, index).await?;
                    }
                }
                Next::Person(_) | Next::Over => {
                    inner.driving = false;
                    return Ok(());
                }
            }
        }
    }
}

/// Each game for the home page: names, seat counts and names, variants, the bots on offer;
/// a game that cannot be played here says why.
fn catalog_of(
    games: &BTreeMap<String, Arc<Version>>,
    problems: &BTreeMap<String, Vec<String>>,
) -> Value {
    let list: Vec<Value> = games
        .values()
        .map(|version| {
            let game = &version.game;
            let mut entry = json!({
                "slug": game.slug,
                "name": game.info.name,
                "summary": game.info.summary,
            });
            if let Some(ps) = version.failed() {
                entry["playable"] = json!(false);
                entry["note"] = json!(format!(
                    "its data fails the check ({} problems): {}",
                    ps.len(),
                    ps.join("; ")
                ));
                entry["problems"] = json!(ps);
                entry["version"] = json!(version.digest);
                return entry;
            }
            // A game without an engine gets the free table: its variants are the table's.
            let free = !crate::engine::free::has_rules(game);
            let seating = live::seating(game, 0, free);
            let variants = if free {
                Ok(crate::engine::free::VARIANTS
                    .iter()
                    .map(|v| json!({"name": v.name, "values": v.values, "ambiguity": v.doc}))
                    .collect::<Vec<_>>())
            } else {
                crate::simulate::variants(game).map(|vs| {
                    vs.iter()
                        .map(|v| json!({"name": v.name, "values": v.values, "ambiguity": v.ambiguity}))
                        .collect()
                })
            };
            match (seating, variants) {
                (Ok((_, min, max)), Ok(variants)) => {
                    let seats: BTreeMap<String, Vec<String>> = (min..=max)
                        .filter_map(|n| {
                            live::seating(game, n, free).ok().map(|s| (n.to_string(), s.0))
                        })
                        .collect();
                    entry["playable"] = json!(true);
                    entry["free"] = json!(free);
                    entry["version"] = json!(version.digest);
                    entry["players"] = json!({"min": min, "max": max});
                    entry["seats"] = json!(seats);
                    entry["variants"] = json!(variants);
                    entry["bots"] = if free {
                        json!(["random"])
                    } else {
                        json!(["heuristic", "random", "mcts:200"])
                    };
                }
                (Err(e), _) | (_, Err(e)) => {
                    entry["playable"] = json!(false);
                    entry["note"] = json!(e);
                }
            }
            entry
        })
        .collect();
    let problems: Vec<&String> = problems.values().flatten().collect();
    json!({"games": list, "problems": problems})
}

/// How often idle and closed tables are looked for, to delete those that expired.
const EXPIRE_EVERY: std::time::Duration = std::time::Duration::from_secs(3600);

/// How long the data folder must be quiet after a change before it is read again (an editor
/// saving several files, or one file in several writes).
const QUIET: std::time::Duration = std::time::Duration::from_millis(150);

/// Watches the data folder: a game folder whose files are edited ([`crate::edits`]) is read
/// again and checked ([`App::reload`]) on a thread of its own, so nothing running waits for
/// it. Watching stops when the returned value is dropped.
fn watch_data(app: Arc<App>) -> Result<crate::edits::Watching, String> {
    let data =
        std::fs::canonicalize(&app.data).map_err(|e| format!("{}: {e}", app.data.display()))?;
    let (watching, edits) =
        crate::edits::watch(&[&data]).map_err(|(dir, e)| format!("{}: {e}", dir.display()))?;
    let runtime = tokio::runtime::Handle::current();
    std::thread::spawn(move || {
        while let Some(paths) = edits.next(None, QUIET) {
            let mut slugs = BTreeSet::new();
            for path in paths {
                let Ok(rel) = path.strip_prefix(&data) else {
                    continue;
                };
                let Some(first) = rel.components().next() else {
                    continue;
                };
                let name = first.as_os_str().to_string_lossy().to_string();
                if !name.starts_with('.') && data.join(&name).is_dir() {
                    slugs.insert(name);
                }
            }
            for slug in slugs {
                for slot in app.reload(&slug) {
                    let app = app.clone();
                    runtime.spawn(async move { app.drive(slot).await });
                }
            }
        }
    });
    Ok(watching)
}

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
