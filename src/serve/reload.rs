//! A game's data while serving: each [`Version`] loaded, the check `printplay check` runs
//! beside serving, the home page's catalog, the card faces and rules drawn once per version,
//! the data folder watched and read again after an edit, and the stored tables held because
//! their data changed ([`Held`]).

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use serde_json::{Value, json};

use crate::model::Game;

use super::live;
use super::seats::access_of;
use super::store::{Access, StoredTable};
use super::{ApiError, App, Slot, Version, faces, person_seats};

impl Version {
    pub(super) fn new(game: Game) -> Arc<Version> {
        Arc::new(Version {
            digest: data_version(&game),
            game: Arc::new(game),
            faces: tokio::sync::OnceCell::new(),
            rules: std::sync::Mutex::default(),
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
    pub(super) fn has_rules(&self) -> bool {
        !(self.game.is_original() && self.game.rules.texts.is_empty())
    }

    /// The rules reference as HTML, in `asked` where the game is published in it, else in
    /// its first language (each drawn once).
    fn rules_html(&self, asked: Option<&str>) -> Result<String, String> {
        let langs = &self.game.info.languages;
        let lang = asked
            .filter(|l| langs.iter().any(|x| x == l))
            .map(str::to_string)
            .or_else(|| langs.first().cloned())
            .unwrap_or_else(|| "en".to_string());
        let mut drawn = self.rules.lock().map_err(|e| e.to_string())?;
        drawn
            .entry(lang.clone())
            .or_insert_with(|| {
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

/// A stored table that was not resumed because the data it began on is not the game's data
/// now: replaying its moves on other data would change the game without a word (or fail).
/// It waits, its links answering what happened, until the game's data is again the data it
/// began on; then it resumes where it stopped. Or, once every person at it agrees
/// ([`App::restart_held`]), it starts over on the game's data now, as a running table does.
pub(crate) struct Held {
    pub(super) stored: StoredTable,
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
    pub(super) fn message(&self) -> String {
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

/// What a person's agreement to start a held table over came to.
pub(crate) enum HeldRestart {
    /// Waiting for the other persons: the table's message now says who agreed.
    Waiting(String),
    /// Every person agreed: the table plays again, on the game's data now.
    Restarted(Arc<Slot>, Access),
}

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

impl App {
    /// Resumes a stored table on the data it began on; if the game's data is other data now,
    /// holds it ([`Held`]) and says why.
    pub(super) fn resume(&self, stored: StoredTable) -> Result<Option<String>, String> {
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
    pub(crate) async fn rules(&self, slot: &Slot, lang: Option<&str>) -> Result<String, ApiError> {
        let version = slot.inner.lock().await.version.clone();
        let lang = lang.map(str::to_string);
        tokio::task::spawn_blocking(move || version.rules_html(lang.as_deref()))
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
}

/// Each game for the home page: names, seat counts and names, variants, the bots on offer;
/// a game that cannot be played here says why.
pub(super) fn catalog_of(
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
                crate::simulate::variants(game).map_err(|e| e.message).map(|vs| {
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

/// How long the data folder must be quiet after a change before it is read again (an editor
/// saving several files, or one file in several writes).
const QUIET: std::time::Duration = std::time::Duration::from_millis(150);

/// Watches the data folder: a game folder whose files are edited ([`crate::edits`]) is read
/// again and checked ([`App::reload`]) on a thread of its own, so nothing running waits for
/// it. Watching stops when the returned value is dropped.
pub(super) fn watch_data(app: Arc<App>) -> Result<crate::edits::Watching, String> {
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
