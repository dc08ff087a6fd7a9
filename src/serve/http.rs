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
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::time::Instant;

use axum::Router;
use axum::body::Bytes;
use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::{ConnectInfo, DefaultBodyLimit, Path, Query, Request, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use serde::Deserialize;
use serde_json::{Value, json};

use super::admin::{Asked, Who};
use super::store::VoiceKind;
use super::voices::Said;
use super::{ApiError, App, Built, HeldRestart, NewTable, Slot, page};
use crate::serve::store::Access;

/// The largest message a client may send (a move is a few bytes).
pub const MAX_MESSAGE: usize = 1024;
/// The largest chat message or note's request: its longest text, each character written as
/// JSON's longest escape, with room for the other fields.
const VOICE_BODY: usize = crate::limits::VOICE_MAX_CHARS * 6 + 1024;
/// A WebSocket's read buffer: a few of the largest messages.
const READ_BUFFER: usize = 4 * MAX_MESSAGE;
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

/// A token bucket.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Bucket {
    tokens: f64,
    last: Instant,
}

impl Bucket {
    pub(crate) fn new() -> Bucket {
        Bucket {
            tokens: RATE_BURST,
            last: Instant::now(),
        }
    }

    /// Takes one request's worth; false when the connection is over its rate.
    pub(crate) fn allow(&mut self) -> bool {
        let now = Instant::now();
        let secs = now.duration_since(self.last).as_secs_f64();
        self.last = now;
        self.tokens = (self.tokens + secs * RATE_PER_SECOND).min(RATE_BURST);
        if self.tokens >= 1.0 {
            self.tokens -= 1.0;
            true
        } else {
            false
        }
    }
}

/// Buckets per connection (the client's address and port).
#[derive(Default)]
struct Limiter(Mutex<HashMap<SocketAddr, Bucket>>);

async fn limit(
    State(limiter): State<Arc<Limiter>>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    request: Request,
    next: Next,
) -> Response {
    let allowed = match limiter.0.lock() {
        Ok(mut map) => {
            if map.len() > 10_000 {
                let now = Instant::now();
                map.retain(|_, b| now.duration_since(b.last).as_secs() < 60);
            }
            map.entry(peer).or_insert_with(Bucket::new).allow()
        }
        Err(_) => true,
    };
    if allowed {
        next.run(request).await
    } else {
        ApiError(
            429,
            "too many requests on this connection; wait a moment".into(),
        )
        .into_response()
    }
}

async fn headers(request: Request, next: Next) -> Response {
    let mut response = next.run(request).await;
    let h = response.headers_mut();
    if !h.contains_key(header::CONTENT_SECURITY_POLICY) {
        h.insert(
            header::CONTENT_SECURITY_POLICY,
            HeaderValue::from_static(CSP),
        );
    }
    h.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    // Links hold tokens: never send the address on to another site.
    h.insert(
        header::REFERRER_POLICY,
        HeaderValue::from_static("no-referrer"),
    );
    h.insert(header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
    if !h.contains_key(header::CACHE_CONTROL) {
        h.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    }
    response
}

/// Requests that change something: JSON only (a form cannot send it across sites without
/// the browser asking first), and only from this server's own pages when from a browser.
async fn guard(request: Request, next: Next) -> Response {
    let method = request.method();
    if method == axum::http::Method::GET || method == axum::http::Method::HEAD {
        return next.run(request).await;
    }
    if !same_origin(request.headers()) {
        return ApiError(
            403,
            "a page of another site cannot change anything here".into(),
        )
        .into_response();
    }
    let json = request
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split(';').next())
        .is_some_and(|v| v.trim().eq_ignore_ascii_case("application/json"));
    if !json {
        return ApiError(
            415,
            "send JSON, with `Content-Type: application/json`".into(),
        )
        .into_response();
    }
    next.run(request).await
}

pub(crate) fn router(app: Arc<App>) -> Router {
    Router::new()
        .route("/", get(home))
        .route("/tables/{id}", get(table_page))
        .route("/assets/{name}", get(asset))
        .route("/tables/{id}/faces/{file}", get(face))
        .route("/tables/{id}/rules", get(rules))
        // No icon: an empty answer rather than a 404 in every browser's console.
        .route("/favicon.ico", get(|| async { StatusCode::NO_CONTENT }))
        .route("/api/games", get(games))
        .route("/api/tables", post(create))
        .route("/api/tables/{id}", get(view))
        .route("/api/tables/{id}/moves", post(moves))
        .route("/api/tables/{id}/undo", post(undo))
        .route("/api/tables/{id}/restart", post(restart))
        .route("/api/tables/{id}/transcript", get(transcript))
        .route("/api/tables/{id}/close", post(close))
        .route("/api/tables/{id}/delete", post(delete))
        .route("/api/tables/{id}/ws", get(ws))
        .route(
            "/api/tables/{id}/chat",
            post(chat).layer(DefaultBodyLimit::max(VOICE_BODY)),
        )
        .route(
            "/api/tables/{id}/notes",
            post(notes).layer(DefaultBodyLimit::max(VOICE_BODY)),
        )
        .route("/api/tables/{id}/voices", get(voices))
        .route("/api/tables/{id}/rematch", post(rematch))
        .fallback(|| async { ApiError(404, "no such page".into()) })
        .layer(DefaultBodyLimit::max(MAX_MESSAGE))
        .layer(middleware::from_fn(guard))
        .layer(middleware::from_fn_with_state(
            Arc::new(Limiter::default()),
            limit,
        ))
        .layer(middleware::from_fn(headers))
        .with_state(app)
}

type Params = Query<HashMap<String, String>>;

fn token(params: &HashMap<String, String>) -> &str {
    params.get("token").map_or("", String::as_str)
}

fn at(params: &HashMap<String, String>) -> Result<Option<usize>, ApiError> {
    params
        .get("at")
        .map(|a| {
            a.parse::<usize>()
                .map_err(|_| ApiError(400, format!("`at` is a move count, not `{a}`")))
        })
        .transpose()
}

/// A view, written as JSON already.
fn json_text(body: String) -> Response {
    ([(header::CONTENT_TYPE, "application/json")], body).into_response()
}

fn html(body: &'static str) -> Response {
    ([(header::CONTENT_TYPE, "text/html; charset=utf-8")], body).into_response()
}

async fn home() -> Response {
    html(page::HOME)
}

async fn table_page(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    Query(params): Params,
) -> Response {
    match app.open(&id, token(&params)) {
        Ok(_) => html(page::TABLE),
        // A held table: the page shows what its API answers (why, and what to do).
        Err(ApiError(409, _)) => html(page::TABLE),
        Err(_) => (StatusCode::FORBIDDEN, html(page::FORBIDDEN)).into_response(),
    }
}

async fn asset(Path(name): Path<String>) -> Response {
    match page::asset(&name) {
        Some((kind, body)) => (
            [
                (header::CONTENT_TYPE, kind),
                (header::CACHE_CONTROL, "public, max-age=3600"),
            ],
            body,
        )
            .into_response(),
        None => ApiError(404, "no such file".into()).into_response(),
    }
}

/// A card face or back, `/tables/ID/faces/DIGEST.svg`: named by its content, so cached for
/// good. A face is no secret (the rules reference shows every card); which card lies where
/// is, and only a seat's view says that.
async fn face(
    State(app): State<Arc<App>>,
    Path((id, file)): Path<(String, String)>,
    headers: HeaderMap,
) -> Response {
    if app.slot(&id).is_none() {
        return ApiError::forbidden().into_response();
    }
    let Some(digest) = file.strip_suffix(".svg") else {
        return ApiError(404, "no such face".into()).into_response();
    };
    let Some(body) = app.file(digest) else {
        return ApiError(404, "no such face".into()).into_response();
    };
    let etag = format!("\"{digest}\"");
    let cache = [
        (
            header::CACHE_CONTROL,
            "public, max-age=31536000, immutable".to_string(),
        ),
        (header::ETAG, etag.clone()),
        (header::CONTENT_SECURITY_POLICY, FACE_CSP.to_string()),
    ];
    let fresh = headers
        .get(header::IF_NONE_MATCH)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.split(',').any(|t| t.trim() == etag || t.trim() == "*"));
    if fresh {
        return (StatusCode::NOT_MODIFIED, cache).into_response();
    }
    (
        cache,
        [(header::CONTENT_TYPE, "image/svg+xml".to_string())],
        Bytes::from_owner(body),
    )
        .into_response()
}

/// The rules reference of the data the table plays on, for anyone holding one of its links.
async fn rules(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    Query(params): Params,
) -> Result<Response, ApiError> {
    let (slot, _) = app.open(&id, token(&params))?;
    let html = app.rules(&slot).await?;
    Ok((
        [
            (header::CONTENT_TYPE, "text/html; charset=utf-8"),
            (header::CONTENT_SECURITY_POLICY, RULES_CSP),
        ],
        html,
    )
        .into_response())
}

/// The games, what keeps data from being used, and the tables held because their data
/// changed since they began.
async fn games(State(app): State<Arc<App>>) -> Response {
    let mut catalog = app.catalog();
    catalog["held"] = json!(app.held());
    axum::Json(catalog).into_response()
}

fn parse<T: for<'de> Deserialize<'de>>(body: &[u8]) -> Result<T, ApiError> {
    parse_within(body, MAX_MESSAGE)
}

fn parse_within<T: for<'de> Deserialize<'de>>(body: &[u8], most: usize) -> Result<T, ApiError> {
    if body.len() > most {
        return Err(ApiError(413, format!("messages are at most {most} bytes")));
    }
    serde_json::from_slice(body).map_err(|e| ApiError(400, format!("not a valid message: {e}")))
}

/// Whether the request carries the admin token (`?admin=A`).
fn admin(app: &App, params: &HashMap<String, String>) -> bool {
    params.get("admin").is_some_and(|a| app.is_admin(a))
}

async fn create(
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
fn who(
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

fn agreement(id: &str, done: &str, a: Asked) -> Response {
    match a {
        Asked::Done => axum::Json(json!({ done: id })).into_response(),
        Asked::Waiting(w) => (StatusCode::ACCEPTED, axum::Json(w)).into_response(),
    }
}

async fn close(
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

async fn delete(
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

async fn view(
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
    Ok(json_text(slot.view(&app, access, at(&params)?).await?))
}

/// A move as the POST and the WebSocket send it.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct MoveRequest {
    index: usize,
    /// The move count the client saw; refused if the table has moved on since.
    #[serde(default)]
    at: Option<usize>,
}

/// A person's say on an undo or a restart that needs every person's agreement: an empty body
/// agrees (or asks), `{"decline": true}` declines.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Agreement {
    #[serde(default)]
    decline: bool,
}

fn declines(body: &Bytes) -> Result<bool, ApiError> {
    if body.is_empty() {
        return Ok(false);
    }
    parse::<Agreement>(body).map(|a| a.decline)
}

fn seat_of(access: Access) -> Result<usize, ApiError> {
    access.ok_or_else(|| ApiError(403, "a spectator cannot move".into()))
}

async fn moves(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    Query(params): Params,
    body: Bytes,
) -> Result<Response, ApiError> {
    let (slot, access) = app.open(&id, token(&params))?;
    let seat = seat_of(access)?;
    let req: MoveRequest = parse(&body)?;
    app.person_move(&slot, seat, req.index, req.at).await?;
    Ok(json_text(slot.view(&app, access, None).await?))
}

async fn undo(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    Query(params): Params,
    body: Bytes,
) -> Result<Response, ApiError> {
    let (slot, access) = app.open(&id, token(&params))?;
    let seat = seat_of(access)?;
    app.undo(&slot, seat, declines(&body)?).await?;
    Ok(json_text(slot.view(&app, access, None).await?))
}

async fn restart(
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
            HeldRestart::Restarted(slot, access) => {
                Ok(json_text(slot.view(&app, access, None).await?))
            }
        };
    }
    let (slot, access) = app.open(&id, token(&params))?;
    let seat = seat_of(access)?;
    app.restart(&slot, seat, declines(&body)?).await?;
    Ok(json_text(slot.view(&app, access, None).await?))
}

async fn chat(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    Query(params): Params,
    body: Bytes,
) -> Result<Response, ApiError> {
    say(app, id, params, body, VoiceKind::Chat).await
}

async fn notes(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    Query(params): Params,
    body: Bytes,
) -> Result<Response, ApiError> {
    say(app, id, params, body, VoiceKind::Note).await
}

async fn say(
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
async fn voices(
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

async fn rematch(
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

async fn transcript(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    Query(params): Params,
) -> Result<Response, ApiError> {
    let (slot, _) = app.open(&id, token(&params))?;
    let inner = slot.inner.lock().await;
    if inner.live.next() != super::live::Next::Over {
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

/// Whether a WebSocket's `Origin` (sent by every browser) is this server: a page of another
/// site cannot open one. Clients without an `Origin` are not browsers and pass.
fn same_origin(headers: &HeaderMap) -> bool {
    let Some(origin) = headers.get(header::ORIGIN) else {
        return true;
    };
    let host = headers.get(header::HOST).and_then(|h| h.to_str().ok());
    match (origin.to_str().ok(), host) {
        (Some(o), Some(h)) => o == format!("http://{h}") || o == format!("https://{h}"),
        _ => false,
    }
}

async fn ws(
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
    Ok(upgrade
        .max_message_size(MAX_MESSAGE)
        .max_frame_size(MAX_MESSAGE)
        // A client's messages are small: a read buffer of tungstenite's 128 KiB (zeroed
        // as it reads) cost every connection that much memory and time.
        .read_buffer_size(READ_BUFFER)
        .on_upgrade(move |socket| live_socket(app, slot, access, socket)))
}

/// What a WebSocket client may send.
#[derive(Debug, Deserialize)]
#[serde(tag = "type", rename_all = "lowercase")]
enum Incoming {
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

async fn send(socket: &mut WebSocket, value: Value) -> bool {
    socket
        .send(Message::Text(value.to_string().into()))
        .await
        .is_ok()
}

/// What a connection has sent: the view it sent last (shared with every connection of its
/// seat) and so the log it knows.
#[derive(Default)]
struct Sent(Option<Arc<Built>>);

impl Sent {
    fn knows(&self) -> Option<(u64, usize)> {
        self.0.as_ref().map(|b| (b.epoch, b.log_len))
    }
}

async fn send_error(socket: &mut WebSocket, e: ApiError) -> bool {
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
async fn send_view(
    socket: &mut WebSocket,
    app: &App,
    slot: &Slot,
    access: Access,
    sent: &mut Sent,
    whole: bool,
) -> bool {
    let knows = if whole { None } else { sent.knows() };
    let (built, from, log) = match slot.current(app, access, knows).await {
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
async fn send_past(
    socket: &mut WebSocket,
    app: &App,
    slot: &Slot,
    access: Access,
    sent: &mut Sent,
    at: usize,
) -> bool {
    sent.0 = None;
    match slot.view(app, access, Some(at)).await {
        Ok(v) => {
            let text = format!("{{\"type\":\"view\",\"view\":{v}}}");
            socket.send(Message::Text(text.into())).await.is_ok()
        }
        Err(e) => send_error(socket, e).await,
    }
}

/// Tells who is connected, if it changed since this connection last told it (`told`).
async fn send_presence(
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
struct Present(Arc<Slot>, Access);

impl Drop for Present {
    fn drop(&mut self) {
        self.0.presence(self.1, false);
    }
}

async fn live_socket(app: Arc<App>, slot: Arc<Slot>, access: Access, mut socket: WebSocket) {
    slot.presence(access, true);
    let _present = Present(slot.clone(), access);
    let names = slot.inner.lock().await.live.seat_names().to_vec();
    let mut told = String::new();
    let mut changed = slot.changed.subscribe();
    let mut bucket = Bucket::new();
    let mut sent = Sent::default();
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
