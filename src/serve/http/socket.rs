//! The WebSocket: live views, moves and presence.

use std::sync::Arc;

use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::{Path, Query, State};
use axum::http::HeaderMap;
use axum::response::Response;
use serde::Deserialize;
use serde_json::{Value, json};

use super::{MAX_MESSAGE, Params, READ_BUFFER, token};
use crate::serve::store::Access;
use crate::serve::{ApiError, App, Built, Slot};

use super::api::{parse, seat_of};
use super::guards::{Bucket, same_origin};

pub(super) async fn ws(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    Query(params): Params,
    headers: HeaderMap,
    upgrade: WebSocketUpgrade,
) -> Result<Response, ApiError> {
    if !same_origin(&headers) {
        return Err(ApiError(
            403,
            "a page of another site cannot open this table".into(),
        ));
    }
    let (slot, access) = app.open(&id, token(&params))?;
    let lang = super::lang(&params).map(str::to_string);
    Ok(upgrade
        .max_message_size(MAX_MESSAGE)
        .max_frame_size(MAX_MESSAGE)
        // A client's messages are small: a read buffer of tungstenite's 128 KiB (zeroed
        // as it reads) cost every connection that much memory and time.
        .read_buffer_size(READ_BUFFER)
        .on_upgrade(move |socket| live_socket(app, slot, access, lang, socket)))
}

/// What a WebSocket client may send.
#[derive(Debug, Deserialize)]
#[serde(tag = "type", rename_all = "lowercase")]
pub(super) enum Incoming {
    Move {
        index: usize,
        #[serde(default)]
        at: Option<usize>,
    },
    Undo {
        #[serde(default)]
        decline: bool,
    },
    /// The view now, or after `at` entries (time travel).
    View {
        #[serde(default)]
        at: Option<usize>,
    },
}

pub(super) async fn send(socket: &mut WebSocket, value: Value) -> bool {
    socket
        .send(Message::Text(value.to_string().into()))
        .await
        .is_ok()
}

/// What a connection has sent: the view it sent last (shared with every connection of its
/// seat asking in its language) and so the log it knows; and the language it asked its
/// cards in (`?lang=`).
#[derive(Default)]
pub(super) struct Sent(Option<Arc<Built>>, Option<String>);

impl Sent {
    fn knows(&self) -> Option<(u64, usize)> {
        self.0.as_ref().map(|b| (b.epoch, b.log_len))
    }
}

pub(super) async fn send_error(socket: &mut WebSocket, e: ApiError) -> bool {
    send(
        socket,
        json!({"type": "error", "status": e.0, "error": e.1}),
    )
    .await
}

/// Sends the view now: whole (`{"type": "view", "view": ...}`) the first time or when
/// asked, else what changed since the last one this connection sent (`{"type": "update",
/// "log_from": K, "view": {...}}`: the parts of the view that differ, and the log's entries
/// from entry K on), or nothing if nothing did.
pub(super) async fn send_view(
    socket: &mut WebSocket,
    app: &App,
    slot: &Slot,
    access: Access,
    sent: &mut Sent,
    whole: bool,
) -> bool {
    let knows = if whole { None } else { sent.knows() };
    let (built, from, log) = match slot.current(app, access, knows, sent.1.as_deref()).await {
        Ok(v) => v,
        Err(e) => return send_error(socket, e).await,
    };
    let text = match (&sent.0, whole) {
        (Some(before), false) => match built.update(before, from, &log) {
            Some(t) => t,
            None => return true,
        },
        _ => format!("{{\"type\":\"view\",\"view\":{}}}", built.whole(&log)),
    };
    sent.0 = Some(built);
    socket.send(Message::Text(text.into())).await.is_ok()
}

/// A view of the past (time travel), whole; the next view sent is whole again.
pub(super) async fn send_past(
    socket: &mut WebSocket,
    app: &App,
    slot: &Slot,
    access: Access,
    sent: &mut Sent,
    at: usize,
) -> bool {
    sent.0 = None;
    match slot.view(app, access, Some(at), sent.1.as_deref()).await {
        Ok(v) => {
            let text = format!("{{\"type\":\"view\",\"view\":{v}}}");
            socket.send(Message::Text(text.into())).await.is_ok()
        }
        Err(e) => send_error(socket, e).await,
    }
}

/// Tells who is connected, if it changed since this connection last told it (`told`).
pub(super) async fn send_presence(
    socket: &mut WebSocket,
    slot: &Slot,
    names: &[String],
    told: &mut String,
) -> bool {
    let now = slot.presence_message(names);
    if now == *told {
        return true;
    }
    *told = now.clone();
    socket.send(Message::Text(now.into())).await.is_ok()
}

/// A connection counted as present while it lives ([`Slot::presence`]).
pub(super) struct Present(Arc<Slot>, Access);

impl Drop for Present {
    fn drop(&mut self) {
        self.0.presence(self.1, false);
    }
}

pub(super) async fn live_socket(
    app: Arc<App>,
    slot: Arc<Slot>,
    access: Access,
    lang: Option<String>,
    mut socket: WebSocket,
) {
    slot.presence(access, true);
    let _present = Present(slot.clone(), access);
    let names = slot.inner.lock().await.live.seat_names().to_vec();
    let mut told = String::new();
    let mut changed = slot.changed.subscribe();
    let mut bucket = Bucket::new();
    let mut sent = Sent(None, lang);
    if !send_view(&mut socket, &app, &slot, access, &mut sent, true).await
        || !send_presence(&mut socket, &slot, &names, &mut told).await
    {
        return;
    }
    loop {
        tokio::select! {
            incoming = socket.recv() => {
                let text = match incoming {
                    Some(Ok(Message::Text(t))) => t,
                    Some(Ok(Message::Binary(_))) => {
                        let e = json!({"type": "error", "status": 400, "error": "send JSON text"});
                        if !send(&mut socket, e).await { return; }
                        continue;
                    }
                    Some(Ok(Message::Ping(_) | Message::Pong(_))) => continue,
                    Some(Ok(Message::Close(_))) | Some(Err(_)) | None => return,
                };
                if !bucket.allow() {
                    let e = json!({"type": "error", "status": 429, "error": "too many messages; wait a moment"});
                    if !send(&mut socket, e).await { return; }
                    continue;
                }
                let result = match parse::<Incoming>(text.as_bytes()) {
                    Err(e) => Err(e),
                    Ok(Incoming::View { at }) => {
                        let ok = match at {
                            None => send_view(&mut socket, &app, &slot, access, &mut sent, true).await,
                            Some(at) => send_past(&mut socket, &app, &slot, access, &mut sent, at).await,
                        };
                        if !ok { return; }
                        Ok(())
                    }
                    Ok(Incoming::Move { index, at }) => match seat_of(access) {
                        Ok(seat) => app.person_move(&slot, seat, index, at).await,
                        Err(e) => Err(e),
                    },
                    Ok(Incoming::Undo { decline }) => match seat_of(access) {
                        Ok(seat) => app.undo(&slot, seat, decline).await,
                        Err(e) => Err(e),
                    },
                };
                if let Err(e) = result
                    && !send_error(&mut socket, e).await
                {
                    return;
                }
            }
            note = changed.recv() => {
                if slot.deleted.load(std::sync::atomic::Ordering::SeqCst) {
                    let _ = send_error(&mut socket, ApiError::gone()).await;
                    return;
                }
                match note {
                    Ok(()) | Err(tokio::sync::broadcast::error::RecvError::Lagged(_)) => {
                        // Several changes may have come at once: one view of the latest.
                        while changed.try_recv().is_ok() {}
                        if !send_view(&mut socket, &app, &slot, access, &mut sent, false).await { return; }
                        if !send_presence(&mut socket, &slot, &names, &mut told).await { return; }
                    }
                    Err(_) => return,
                }
            }
        }
    }
}
