//! Tables and their lifecycle: made, moved at by persons and driven by bots and chance,
//! undone and started again by agreement, every change stored (through the [`Writer`]) before
//! it is acknowledged. Closing, deleting and expiry are in `admin`.

use std::collections::{BTreeSet, HashMap};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use tokio::sync::{Mutex, broadcast};

use crate::play::{PERSON, Transcript};

use super::live::{self, Live, Next};
use super::store::{self, Save, Store, StoredTable};
use super::{ApiError, App, Created, Inner, NewTable, Slot, TOKEN_BYTES, Version, now, random_hex};

/// The thread that saves moves. Tables that move at the same time queue their saves; the
/// thread commits everything queued in one transaction and only then answers each, so a
/// move is still stored before it is acknowledged, while many tables cost one commit and no
/// thread each.
pub(super) struct Writer(
    std::sync::mpsc::Sender<(Save, tokio::sync::oneshot::Sender<Result<(), String>>)>,
);

/// Saves committed in one transaction at most.
const BATCH: usize = 512;

impl Writer {
    pub(super) fn start(store: Arc<dyn Store>) -> Result<Writer, String> {
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

impl App {
    pub(super) fn insert(
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
                voices: stored.voices.clone(),
                round: stored.rounds.len(),
                rematch: BTreeSet::new(),
            }),
            changed,
            generation: AtomicU64::new(0),
            built: std::sync::Mutex::new(HashMap::new()),
            deleted: AtomicBool::new(false),
            present: std::sync::Mutex::new(Default::default()),
            voice_rate: std::sync::Mutex::new(HashMap::new()),
        });
        if let Ok(mut tables) = self.tables.write() {
            tables.insert(stored.id.clone(), slot.clone());
        }
        slot
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
            times: Vec::new(),
            voices: Vec::new(),
            rounds: Vec::new(),
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
