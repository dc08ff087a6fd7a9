//! The testers' voices at a table: chat (everyone at the table reads it), notes on a move or a
//! card (for the designer: the admin link and `printplay playtests`; for the other testers
//! only if the tester shares it), presence (who is connected), and the rematch (the same
//! seats and links, a new seed).
//!
//! Every line is untrusted text: at most [`VOICE_MAX_CHARS`] characters, at most
//! [`VOICE_MAX_PER_TABLE`] a table, [`VOICE_BURST`] at once from a seat and then one every
//! [`VOICE_EVERY_SECONDS`]; stored before it is acknowledged, and sent only to those who may
//! read it (the page shows it as text, never as markup).

use std::time::Instant;

use serde_json::{Value, json};

use std::collections::BTreeSet;
use std::sync::Arc;

use super::admin::{self, Asked, Who};
use super::store::{self, Access, Voice, VoiceKind};
use super::{ApiError, App, Inner, Slot, live, person_seats};
use crate::limits::{VOICE_BURST, VOICE_EVERY_SECONDS, VOICE_MAX_CHARS, VOICE_MAX_PER_TABLE};

/// Chat lines a seat's view carries: the newest (every one is stored and exported).
const CHAT_SHOWN: usize = 200;

/// A seat's allowance: [`VOICE_BURST`] lines, one more every [`VOICE_EVERY_SECONDS`].
#[derive(Debug, Clone, Copy)]
pub(crate) struct Rate {
    tokens: f64,
    last: Instant,
}

impl Rate {
    fn new() -> Rate {
        Rate {
            tokens: f64::from(VOICE_BURST),
            last: Instant::now(),
        }
    }

    fn allow(&mut self) -> bool {
        let now = Instant::now();
        let secs = now.duration_since(self.last).as_secs_f64();
        self.last = now;
        self.tokens =
            (self.tokens + secs / f64::from(VOICE_EVERY_SECONDS)).min(f64::from(VOICE_BURST));
        if self.tokens >= 1.0 {
            self.tokens -= 1.0;
            true
        } else {
            false
        }
    }
}

/// A line a tester sends: chat, or a note on a move (`move`, default the moves played now)
/// or a card (`card`), `shared` with the other testers or not.
#[derive(Debug, Clone, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct Said {
    pub text: String,
    #[serde(default, rename = "move")]
    pub at_move: Option<usize>,
    #[serde(default)]
    pub card: Option<String>,
    #[serde(default)]
    pub shared: bool,
}

/// Whether a text is within bounds: not empty (after trimming), at most [`VOICE_MAX_CHARS`].
fn bounded(what: &str, text: &str) -> Result<String, ApiError> {
    let text = text.trim();
    if text.is_empty() {
        return Err(ApiError(400, format!("an empty {what}")));
    }
    let n = text.chars().count();
    if n > VOICE_MAX_CHARS {
        return Err(ApiError(
            413,
            format!("a {what} is at most {VOICE_MAX_CHARS} characters, not {n}"),
        ));
    }
    Ok(text.to_string())
}

impl App {
    /// Keeps what `access` said at `slot` (stored before it is acknowledged) and tells every
    /// connection; refused past its bounds (413), too fast (429), or at a full table (409).
    pub(crate) async fn say(
        &self,
        slot: &Slot,
        access: Access,
        kind: VoiceKind,
        said: Said,
    ) -> Result<usize, ApiError> {
        let what = match kind {
            VoiceKind::Chat => "chat message",
            VoiceKind::Note => "note",
        };
        let text = bounded(what, &said.text)?;
        let card = match said.card.as_deref().map(str::trim) {
            Some(c) if !c.is_empty() => Some(bounded("card name", c)?),
            _ => None,
        };
        let allowed = slot
            .voice_rate
            .lock()
            .map(|mut r| r.entry(access).or_insert_with(Rate::new).allow())
            .unwrap_or(false);
        if !allowed {
            return Err(ApiError(
                429,
                format!(
                    "at most {VOICE_BURST} chat messages and notes at once, then one every {VOICE_EVERY_SECONDS} seconds; wait a moment"
                ),
            ));
        }
        let mut inner = slot.inner.lock().await;
        if inner.voices.len() >= VOICE_MAX_PER_TABLE {
            return Err(ApiError(
                409,
                format!("this table holds {VOICE_MAX_PER_TABLE} chat messages and notes, its most"),
            ));
        }
        let played = inner.live.transcript().moves.len();
        let voice = Voice {
            n: inner.voices.len(),
            round: inner.round,
            kind,
            seat: access,
            at: store::now_ms(),
            at_move: said.at_move.map_or(played, |m| m.min(played)),
            card: if kind == VoiceKind::Note { card } else { None },
            shared: kind == VoiceKind::Chat || said.shared,
            text,
        };
        let store = self.store.clone();
        let id = slot.id.clone();
        let kept = voice.clone();
        tokio::task::spawn_blocking(move || store.add_voice(&id, &kept))
            .await
            .map_err(|e| ApiError(500, e.to_string()))?
            .map_err(|e| ApiError(500, e))?;
        let n = voice.n;
        inner.voices.push(voice);
        slot.touch();
        Ok(n)
    }

    /// A rematch: the same seats, variants, data and links, a new seed (drawn from the OS:
    /// the old seed is told once a game is over, and one derived from it would tell the new
    /// game's hidden cards). At once for the admin; for a person, once every person at the
    /// table agrees (`decline` withdraws every agreement). The game played is kept as a past
    /// round ([`store::Round`]), for `printplay playtests`.
    pub(crate) async fn rematch(
        self: &Arc<Self>,
        slot: &Arc<Slot>,
        who: Who,
        decline: bool,
    ) -> Result<Asked, ApiError> {
        {
            let mut inner = slot.inner.lock().await;
            if inner.closed {
                return Err(ApiError(409, "the table is closed: no rematch here".into()));
            }
            let persons = person_seats(inner.live.transcript());
            if let Who::Seat(seat) = who {
                if decline {
                    inner.rematch.clear();
                } else {
                    inner.rematch.insert(seat);
                }
                if decline || !persons.iter().all(|s| inner.rematch.contains(s)) {
                    let waiting =
                        admin::proposal(inner.live.seat_names(), &persons, &inner.rematch);
                    slot.touch();
                    return Ok(Asked::Waiting(waiting));
                }
            }
            let mut fresh = inner.live.transcript().clone();
            fresh.moves.clear();
            let mut seed = [0u8; 8];
            getrandom::fill(&mut seed).map_err(|e| ApiError(500, e.to_string()))?;
            fresh.seed = u64::from_le_bytes(seed);
            let game = inner.version.game.clone();
            let started = live::open(&game, fresh.clone()).map_err(|e| ApiError(409, e))?;
            let expected = inner.live.transcript().moves.len();
            let store = self.store.clone();
            let id = slot.id.clone();
            tokio::task::spawn_blocking(move || store.rematch(&id, expected, &fresh))
                .await
                .map_err(|e| ApiError(500, e.to_string()))?
                .map_err(|e| ApiError(500, e))?;
            inner.live = started;
            inner.epoch += 1;
            inner.round += 1;
            inner.rematch = BTreeSet::new();
            inner.undo = None;
            inner.restart.clear();
            slot.touch();
        }
        self.drive(slot.clone()).await;
        Ok(Asked::Done)
    }

    /// Everything said at `slot`, for the designer (the admin link): every chat line and
    /// every note, shared or not.
    pub(crate) async fn voices(&self, slot: &Slot) -> Value {
        let inner = slot.inner.lock().await;
        let names = inner.live.seat_names();
        let all: Vec<Value> = inner.voices.iter().map(|v| line(v, names, None)).collect();
        json!({"id": slot.id, "game": slot.game, "voices": all})
    }
}

/// Who said it, by seat name (`spectator` for a spectator).
fn who(names: &[String], seat: Access) -> String {
    seat.and_then(|s| names.get(s).cloned())
        .unwrap_or_else(|| "spectator".to_string())
}

/// One line as JSON; `reader`: whose view it goes to (`mine` says whether that seat said it).
fn line(v: &Voice, names: &[String], reader: Option<Access>) -> Value {
    let mut out = json!({
        "n": v.n,
        "kind": v.kind,
        "who": who(names, v.seat),
        "at": v.at,
        "move": v.at_move,
        "text": v.text,
    });
    if v.kind == VoiceKind::Note {
        out["card"] = json!(v.card);
        out["shared"] = json!(v.shared);
    }
    if let Some(reader) = reader {
        out["mine"] = json!(v.seat == reader);
    }
    out
}

impl Slot {
    /// Marks a connection of `access` open (`true`) or closed; tells everyone when who is
    /// present changes.
    pub(crate) fn presence(&self, access: Access, open: bool) {
        let changed = match self.present.lock() {
            Ok(mut p) => {
                let n = p.entry(access).or_insert(0);
                let was = *n;
                *n = if open { was + 1 } else { was.saturating_sub(1) };
                let now = *n;
                if now == 0 {
                    p.remove(&access);
                }
                (was == 0) != (now == 0)
            }
            Err(_) => false,
        };
        if changed {
            self.touch();
        }
    }
}

/// The voices part of the view `access` gets: the newest chat lines, the notes it may read
/// (its own and those shared), and the rematch asked for.
pub(crate) fn view_parts(inner: &Inner, access: Access, view: &mut Value) {
    let names = inner.live.seat_names();
    let chat: Vec<&Voice> = inner
        .voices
        .iter()
        .filter(|v| v.kind == VoiceKind::Chat)
        .collect();
    let from = chat.len().saturating_sub(CHAT_SHOWN);
    view["chat"] = chat[from..]
        .iter()
        .map(|v| line(v, names, Some(access)))
        .collect();
    view["notes"] = inner
        .voices
        .iter()
        .filter(|v| v.kind == VoiceKind::Note && (v.shared || v.seat == access))
        .map(|v| line(v, names, Some(access)))
        .collect();
    let persons = person_seats(inner.live.transcript());
    view["rematch"] = json!({
        "round": inner.round,
        "asked": (!inner.rematch.is_empty())
            .then(|| admin::proposal(names, &persons, &inner.rematch)),
    });
}

impl Slot {
    /// Who is connected now, as the WebSocket tells it (`{"type": "presence", "present":
    /// {"seats": [names], "spectators": N}}`): not part of the view, which is the game's and
    /// the same over HTTP, where no one is connected.
    pub(crate) fn presence_message(&self, names: &[String]) -> String {
        let present = self.present.lock().map(|p| p.clone()).unwrap_or_default();
        json!({
            "type": "presence",
            "present": {
                "seats": present.keys().filter_map(|a| a.and_then(|s| names.get(s))).collect::<Vec<_>>(),
                "spectators": present.get(&None).copied().unwrap_or(0),
            },
        })
        .to_string()
    }
}
