//! Seats and their tokens: what a token opens at a table, and the view each seat (or the
//! spectator) gets, built once per change for every connection of that seat ([`Built`]).

use std::collections::BTreeSet;
use std::sync::Arc;
use std::sync::atomic::Ordering;

use serde_json::{Value, json};
use subtle::ConstantTimeEq;

use super::live::{Live, Next};
use super::store::{self, Access};
use super::{ApiError, App, Inner, Slot, admin, faces, observer, person_seats};

/// Which of `tokens` (digests with what they open) `token` opens: compared with every
/// digest in full, in constant time.
pub(super) fn access_of(tokens: &[(Access, String)], token: &str) -> Option<Access> {
    let digest = store::token_digest(token);
    let mut found = None;
    for (access, t) in tokens {
        if bool::from(t.as_bytes().ct_eq(digest.as_bytes())) {
            found = Some(*access);
        }
    }
    found
}

impl Slot {
    /// What a token opens at this table: its digest is compared with every token's in full,
    /// in constant time.
    pub(crate) fn access(&self, token: &str) -> Option<Access> {
        access_of(&self.tokens, token)
    }

    pub(super) fn person_seats(live: &dyn Live) -> Vec<usize> {
        person_seats(live.transcript())
    }

    /// Marks a change (a move, an undo, newer data): views built before it are stale, and
    /// every connection is told.
    pub(super) fn touch(&self) {
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
        lang: Option<&str>,
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
            // The languages the game prints its cards in (none: one only), and the one the
            // faces and their words are given in.
            "languages": crate::render::faces::languages::card_languages(&inner.version.game),
            "lang": lang,
        });
        super::voices::view_parts(inner, access, &mut view);
        if let Some(faces) = faces {
            faces.in_language(lang).annotate(&mut view, names, &self.id);
        }
        Ok(view)
    }

    /// The whole view a token's holder gets now (`at`: after the first `at` entries of the
    /// move list, time travel), log included, as JSON text; its cards in `lang` (one of the
    /// languages the game prints its cards in, else its first).
    pub(crate) async fn view(
        &self,
        app: &App,
        access: Access,
        at: Option<usize>,
        lang: Option<&str>,
    ) -> Result<String, ApiError> {
        match at {
            None => {
                let (built, _, log) = self.current(app, access, None, lang).await?;
                Ok(built.whole(&log))
            }
            Some(_) => {
                let (faces, inner) = self.locked(app).await;
                let lang = language(&inner, lang);
                let view = self.build(app, &inner, faces.as_deref(), access, at, lang.as_deref());
                let mut view = view?;
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
        lang: Option<&str>,
    ) -> Result<(Arc<Built>, usize, String), ApiError> {
        if self.deleted.load(Ordering::SeqCst) {
            return Err(ApiError::gone());
        }
        let (faces, inner) = self.locked(app).await;
        let lang = language(&inner, lang);
        let key = (access, lang.clone());
        // Changes are made under the lock: the count read here is the state's.
        let generation = self.generation.load(Ordering::SeqCst);
        let cached = self
            .built
            .lock()
            .ok()
            .and_then(|b| b.get(&key).and_then(std::sync::Weak::upgrade))
            .filter(|b| b.generation == generation && b.epoch == inner.epoch);
        let log = inner
            .live
            .log(observer(access))
            .map_err(|e| ApiError(500, e))?;
        let built = match cached {
            Some(b) => b,
            None => {
                let view =
                    self.build(app, &inner, faces.as_deref(), access, None, lang.as_deref())?;
                let built = Arc::new(Built::new(generation, inner.epoch, log.len(), view)?);
                if let Ok(mut b) = self.built.lock() {
                    b.insert(key, Arc::downgrade(&built));
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

/// The language a view's cards are given in: `asked` where the game prints its cards in it,
/// else the game's first (`None` for a game printing them in one language).
fn language(inner: &Inner, asked: Option<&str>) -> Option<String> {
    let langs = crate::render::faces::languages::card_languages(&inner.version.game);
    asked
        .filter(|l| langs.contains(l))
        .or(langs.first().copied())
        .map(str::to_string)
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

impl App {
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
}
