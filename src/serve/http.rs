//! The server's routes: the pages, the JSON API and the WebSocket.
//!
//! - `GET /` the home page; `GET /tables/ID?token=T` a table's page (the same page for every
//!   seat; its script asks the API with the token in the address);
//! - `GET /api/games`; `POST /api/tables?admin=A` makes a table and answers its links (201;
//!   the admin token `A` is the one the server printed at its start, 403 without it);
//! - `GET /api/tables/ID?token=T[&at=K]` the view of the token's seat (or the spectator's),
//!   `at`: after the first K entries of the move list (time travel);
//! - `POST /api/tables/ID/moves?token=T` `{"index": I, "at": N}` plays a legal move;
//! - `POST /api/tables/ID/undo?token=T` `{"decline": false}` proposes or agrees to an undo;
//! - `POST /api/tables/ID/restart?token=T` `{"decline": false}` agrees to start again on the
//!   game's newer data (once every person seat agrees); at a held table (below) it answers
//!   202 `{"held": why}` until every person agrees, then the new view;
//! - `GET /tables/ID/faces/DIGEST.svg` a card face or back, named by its content (cached
//!   for good);
//! - `GET /tables/ID/rules?token=T` the rules reference of the data the table plays on;
//! - `GET /api/tables/ID/transcript?token=T` the transcript once the game is over;
//! - `POST /api/tables/ID/close?admin=A` or `?token=T` closes the table (no one moves any more;
//!   it stays viewable until it expires): at once for the admin, for a person once every
//!   person at it agrees (202 `{"agreed": [...], "waiting": [...]}` until then;
//!   `{"decline": true}` withdraws the agreements);
//! - `POST /api/tables/ID/delete?admin=A` or `?token=T` deletes the table and everything
//!   stored of it, likewise (the admin may delete a held table too);
//! - `POST /api/tables/ID/chat?token=T` `{"text": "..."}` says something to everyone at the
//!   table (201 `{"n": N}`); `POST /api/tables/ID/notes?token=T` `{"text": "...", "move": K,
//!   "card": "name", "shared": false}` keeps a note on a move or a card for the designer (and,
//!   if `shared`, the other testers); both refuse a text past its bound (413) or sent too
//!   often (429) ([`super::voices`]), and the view carries `chat`, `notes` and `rematch`;
//! - `GET /api/tables/ID/voices?admin=A` every chat line and note, shared or not (the
//!   designer's);
//! - `POST /api/tables/ID/rematch?admin=A` or `?token=T` plays again behind the same links
//!   with the same seats and a new seed (the game played is kept for `playtests`): at once for
//!   the admin, for a person once every person agrees (202 until then, as closing);
//! - `GET /api/tables/ID/ws?token=T` live views: first the whole view (`{"type": "view",
//!   "view": ...}`), then after each change what changed (`{"type": "update", "log_from": K,
//!   "view": ...}`: the parts of the view that differ and the log's entries from entry K on);
//!   takes `{"type": "move", ...}` as the POST; and, first and whenever it changes, who is
//!   connected (`{"type": "presence", "present": {"seats": [names], "spectators": N}}`).
//!
//! A table held because its data changed since it began answers its links with 409 and
//! why. Unknown tables and tokens get 403; messages over [`MAX_MESSAGE`] bytes or not in the form
//! above get an error and change nothing; each connection may send [`RATE_PER_SECOND`]
//! requests a second (bursts of [`RATE_BURST`]). Every request that changes something (any
//! method but GET and HEAD) must say `Content-Type: application/json` (415 otherwise) and, if
//! it comes from a browser (which names the page's `Origin`), come from this server's own
//! pages (403 otherwise): a page of another site, or a form anywhere, changes nothing here.

use std::collections::HashMap;
use std::sync::Arc;

use axum::Router;
use axum::extract::{DefaultBodyLimit, Query};
use axum::http::{StatusCode, header};
use axum::middleware;
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use serde_json::json;

use super::{ApiError, App};

mod api;
mod guards;
mod pages;
mod socket;

/// The largest message a client may send (a move is a few bytes).
pub const MAX_MESSAGE: usize = 1024;
/// The largest chat message or note's request: its longest text, each character written as
/// JSON's longest escape, with room for the other fields.
pub(super) const VOICE_BODY: usize = crate::limits::VOICE_MAX_CHARS * 6 + 1024;
/// A WebSocket's read buffer: a few of the largest messages.
pub(super) const READ_BUFFER: usize = 4 * MAX_MESSAGE;
/// Requests a connection may make each second, on average.
pub const RATE_PER_SECOND: f64 = 20.0;
/// Requests a connection may make at once.
pub const RATE_BURST: f64 = 40.0;

/// The page's policy: only the server's own scripts, styles, images and connections.
pub const CSP: &str = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; \
                       connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

/// A card face's policy (opened on its own): no script, only its own art and styles.
pub const FACE_CSP: &str =
    "default-src 'none'; img-src data:; style-src 'unsafe-inline'; frame-ancestors 'none'";

/// The rules reference's policy: its own inline styles, no script.
pub const RULES_CSP: &str = "default-src 'none'; style-src 'unsafe-inline'; img-src 'self' data:; \
                             base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let status = StatusCode::from_u16(self.0).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
        (status, axum::Json(json!({"error": self.1}))).into_response()
    }
}

pub(crate) fn router(app: Arc<App>) -> Router {
    Router::new()
        .route("/", get(pages::home))
        .route("/tables/{id}", get(pages::table_page))
        .route("/assets/{name}", get(pages::asset))
        .route("/tables/{id}/faces/{file}", get(pages::face))
        .route("/tables/{id}/rules", get(pages::rules))
        // No icon: an empty answer rather than a 404 in every browser's console.
        .route("/favicon.ico", get(|| async { StatusCode::NO_CONTENT }))
        .route("/api/games", get(api::games))
        .route("/api/tables", post(api::create))
        .route("/api/tables/{id}", get(api::view))
        .route("/api/tables/{id}/moves", post(api::moves))
        .route("/api/tables/{id}/undo", post(api::undo))
        .route("/api/tables/{id}/restart", post(api::restart))
        .route("/api/tables/{id}/transcript", get(api::transcript))
        .route("/api/tables/{id}/close", post(api::close))
        .route("/api/tables/{id}/delete", post(api::delete))
        .route("/api/tables/{id}/ws", get(socket::ws))
        .route(
            "/api/tables/{id}/chat",
            post(api::chat).layer(DefaultBodyLimit::max(VOICE_BODY)),
        )
        .route(
            "/api/tables/{id}/notes",
            post(api::notes).layer(DefaultBodyLimit::max(VOICE_BODY)),
        )
        .route("/api/tables/{id}/voices", get(api::voices))
        .route("/api/tables/{id}/rematch", post(api::rematch))
        .fallback(|| async { ApiError(404, "no such page".into()) })
        .layer(DefaultBodyLimit::max(MAX_MESSAGE))
        .layer(middleware::from_fn(guards::guard))
        .layer(middleware::from_fn_with_state(
            Arc::new(guards::Limiter::default()),
            guards::limit,
        ))
        .layer(middleware::from_fn(guards::headers))
        .with_state(app)
}

pub(super) type Params = Query<HashMap<String, String>>;

pub(super) fn token(params: &HashMap<String, String>) -> &str {
    params.get("token").map_or("", String::as_str)
}

/// The language a page asks its cards in (`?lang=`); the table gives them in it where the
/// game prints its cards in it, else in the game's first.
pub(super) fn lang(params: &HashMap<String, String>) -> Option<&str> {
    params.get("lang").map(String::as_str)
}

pub(super) fn at(params: &HashMap<String, String>) -> Result<Option<usize>, ApiError> {
    params
        .get("at")
        .map(|a| {
            a.parse::<usize>()
                .map_err(|_| ApiError(400, format!("`at` is a move count, not `{a}`")))
        })
        .transpose()
}

/// A view, written as JSON already.
pub(super) fn json_text(body: String) -> Response {
    ([(header::CONTENT_TYPE, "application/json")], body).into_response()
}
