//! The JSON API: games, tables made, viewed, moved, undone, restarted, closed, deleted and
//! played again, chat, notes and transcripts.

use std::collections::HashMap;
use std::sync::Arc;

use axum::body::Bytes;
use axum::extract::{Path, Query, State};
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde::Deserialize;
use serde_json::json;

use super::{MAX_MESSAGE, Params, VOICE_BODY, at, json_text, lang, token};
use crate::serve::admin::{Asked, Who};
use crate::serve::store::Access;
use crate::serve::store::VoiceKind;
use crate::serve::voices::Said;
use crate::serve::{ApiError, App, HeldRestart, NewTable, Slot};

/// The games, what keeps data from being used, and the tables held because their data
/// changed since they began.
pub(super) async fn games(State(app): State<Arc<App>>) -> Response {
    let mut catalog = app.catalog();
    catalog["held"] = json!(app.held());
    axum::Json(catalog).into_response()
}

pub(super) fn parse<T: for<'de> Deserialize<'de>>(body: &[u8]) -> Result<T, ApiError> {
    parse_within(body, MAX_MESSAGE)
}

pub(super) fn parse_within<T: for<'de> Deserialize<'de>>(
    body: &[u8],
    most: usize,
) -> Result<T, ApiError> {
    if body.len() > most {
        return Err(ApiError(413, format!("messages are at most {most} bytes")));
    }
    serde_json::from_slice(body).map_err(|e| ApiError(400, format!("not a valid message: {e}")))
}

/// Whether the request carries the admin token (`?admin=A`).
pub(super) fn admin(app: &App, params: &HashMap<String, String>) -> bool {
    params.get("admin").is_some_and(|a| app.is_admin(a))
}

pub(super) async fn create(
    State(app): State<Arc<App>>,
    Query(params): Params,
    body: Bytes,
) -> Result<Response, ApiError> {
    if !admin(&app, &params) {
        return Err(ApiError(
            403,
            "making a table needs the admin link the server printed when it started (`/?admin=...`)".into(),
        ));
    }
    let req: NewTable = parse(&body)?;
    let (created, slot) = app.make(req).await?;
    app.drive(slot).await;
    let link = |t: &str| format!("/tables/{}?token={t}", created.id);
    Ok((
        StatusCode::CREATED,
        axum::Json(json!({
            "id": created.id,
            "seats": created.seats.iter().map(|(n, t)| json!({"seat": n, "link": link(t)})).collect::<Vec<_>>(),
            "spectator": link(&created.spectator),
        })),
    )
        .into_response())
}

/// Who asks, by the admin token or a person's token at table `id`.
pub(super) fn who(
    app: &App,
    id: &str,
    params: &HashMap<String, String>,
) -> Result<(Option<Arc<Slot>>, Who), ApiError> {
    if admin(app, params) {
        return Ok((app.slot(id), Who::Admin));
    }
    let (slot, access) = app.open(id, token(params))?;
    let seat = access.ok_or_else(|| {
        ApiError(
            403,
            "a spectator cannot close, delete or rematch the table".into(),
        )
    })?;
    Ok((Some(slot), Who::Seat(seat)))
}

pub(super) fn agreement(id: &str, done: &str, a: Asked) -> Response {
    match a {
        Asked::Done => axum::Json(json!({ done: id })).into_response(),
        Asked::Waiting(w) => (StatusCode::ACCEPTED, axum::Json(w)).into_response(),
    }
}

pub(super) async fn close(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    Query(params): Params,
    body: Bytes,
) -> Result<Response, ApiError> {
    let (slot, who) = who(&app, &id, &params)?;
    let Some(slot) = slot else {
        return Err(match app.open(&id, "") {
            Err(ApiError(409, _)) => ApiError(
                409,
                "a held table cannot be closed; delete it or start it over".into(),
            ),
            _ => ApiError::forbidden(),
        });
    };
    let done = app.close(&slot, who, declines(&body)?).await?;
    Ok(agreement(&id, "closed", done))
}

pub(super) async fn delete(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    Query(params): Params,
    body: Bytes,
) -> Result<Response, ApiError> {
    let (slot, who) = who(&app, &id, &params)?;
    let done = app
        .delete(&id, slot.as_ref(), who, declines(&body)?)
        .await?;
    Ok(agreement(&id, "deleted", done))
}

pub(super) async fn view(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    Query(params): Params,
) -> Result<Response, ApiError> {
    let (slot, access) = match app.open(&id, token(&params)) {
        // A held table: why, and whether the link is the spectator's (who has no say on
        // starting it over, so its page offers no such button).
        Err(ApiError(409, why)) => {
            let spectator = app.held_access(&id, token(&params)) == Some(None);
            let body = json!({"error": why, "spectator": spectator});
            return Ok((StatusCode::CONFLICT, axum::Json(body)).into_response());
        }
        opened => opened?,
    };
    Ok(json_text(
        slot.view(&app, access, at(&params)?, lang(&params)).await?,
    ))
}

/// A move as the POST and the WebSocket send it.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct MoveRequest {
    index: usize,
    /// The move count the client saw; refused if the table has moved on since.
    #[serde(default)]
    at: Option<usize>,
}

/// A person's say on an undo or a restart that needs every person's agreement: an empty body
/// agrees (or asks), `{"decline": true}` declines.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct Agreement {
    #[serde(default)]
    decline: bool,
}

pub(super) fn declines(body: &Bytes) -> Result<bool, ApiError> {
    if body.is_empty() {
        return Ok(false);
    }
    parse::<Agreement>(body).map(|a| a.decline)
}

pub(super) fn seat_of(access: Access) -> Result<usize, ApiError> {
    access.ok_or_else(|| ApiError(403, "a spectator cannot move".into()))
}

pub(super) async fn moves(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    Query(params): Params,
    body: Bytes,
) -> Result<Response, ApiError> {
    let (slot, access) = app.open(&id, token(&params))?;
    let seat = seat_of(access)?;
    let req: MoveRequest = parse(&body)?;
    app.person_move(&slot, seat, req.index, req.at).await?;
    Ok(json_text(
        slot.view(&app, access, None, lang(&params)).await?,
    ))
}

pub(super) async fn undo(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    Query(params): Params,
    body: Bytes,
) -> Result<Response, ApiError> {
    let (slot, access) = app.open(&id, token(&params))?;
    let seat = seat_of(access)?;
    app.undo(&slot, seat, declines(&body)?).await?;
    Ok(json_text(
        slot.view(&app, access, None, lang(&params)).await?,
    ))
}

pub(super) async fn restart(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    Query(params): Params,
    body: Bytes,
) -> Result<Response, ApiError> {
    if app.slot(&id).is_none() {
        // A held table: a person's say on starting it over on the game's data now.
        return match app
            .restart_held(&id, token(&params), declines(&body)?)
            .await?
        {
            HeldRestart::Waiting(held) => {
                Ok((StatusCode::ACCEPTED, axum::Json(json!({ "held": held }))).into_response())
            }
            HeldRestart::Restarted(slot, access) => Ok(json_text(
                slot.view(&app, access, None, lang(&params)).await?,
            )),
        };
    }
    let (slot, access) = app.open(&id, token(&params))?;
    let seat = seat_of(access)?;
    app.restart(&slot, seat, declines(&body)?).await?;
    Ok(json_text(
        slot.view(&app, access, None, lang(&params)).await?,
    ))
}

pub(super) async fn chat(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    Query(params): Params,
    body: Bytes,
) -> Result<Response, ApiError> {
    say(app, id, params, body, VoiceKind::Chat).await
}

pub(super) async fn notes(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    Query(params): Params,
    body: Bytes,
) -> Result<Response, ApiError> {
    say(app, id, params, body, VoiceKind::Note).await
}

pub(super) async fn say(
    app: Arc<App>,
    id: String,
    params: HashMap<String, String>,
    body: Bytes,
    kind: VoiceKind,
) -> Result<Response, ApiError> {
    let (slot, access) = app.open(&id, token(&params))?;
    let said: Said = parse_within(&body, VOICE_BODY)?;
    if kind == VoiceKind::Chat && (said.card.is_some() || said.at_move.is_some() || said.shared) {
        return Err(ApiError(
            400,
            "a chat message is `{\"text\": ...}` alone; a note names a move or a card".into(),
        ));
    }
    let n = app.say(&slot, access, kind, said).await?;
    Ok((StatusCode::CREATED, axum::Json(json!({ "n": n }))).into_response())
}

/// Every chat line and note of a table, for the designer (the admin link).
pub(super) async fn voices(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    Query(params): Params,
) -> Result<Response, ApiError> {
    if !admin(&app, &params) {
        return Err(ApiError(
            403,
            "a table's notes are the designer's: they need the admin link".into(),
        ));
    }
    let slot = app.slot(&id).ok_or_else(ApiError::forbidden)?;
    Ok(axum::Json(app.voices(&slot).await).into_response())
}

pub(super) async fn rematch(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    Query(params): Params,
    body: Bytes,
) -> Result<Response, ApiError> {
    let (slot, who) = who(&app, &id, &params)?;
    let slot = slot.ok_or_else(ApiError::forbidden)?;
    let done = app.rematch(&slot, who, declines(&body)?).await?;
    Ok(agreement(&id, "rematch", done))
}

pub(super) async fn transcript(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    Query(params): Params,
) -> Result<Response, ApiError> {
    let (slot, _) = app.open(&id, token(&params))?;
    let inner = slot.inner.lock().await;
    if inner.live.next() != crate::serve::live::Next::Over {
        // The seed and the moves would tell every hidden card.
        return Err(ApiError(
            409,
            "the transcript is given once the game is over".into(),
        ));
    }
    let text = inner.live.transcript().to_toml();
    Ok((
        [
            (
                header::CONTENT_TYPE,
                "application/toml; charset=utf-8".to_string(),
            ),
            (
                header::CONTENT_DISPOSITION,
                format!("attachment; filename=\"{}-{id}.toml\"", slot.game),
            ),
        ],
        text,
    )
        .into_response())
}
