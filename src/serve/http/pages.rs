//! The pages: home, a table's page, its assets, card faces and the rules reference.

use std::sync::Arc;

use axum::body::Bytes;
use axum::extract::{Path, Query, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};

use super::{FACE_CSP, Params, RULES_CSP, token};
use crate::serve::{ApiError, App, page};

pub(super) fn html(body: &'static str) -> Response {
    ([(header::CONTENT_TYPE, "text/html; charset=utf-8")], body).into_response()
}

pub(super) async fn home() -> Response {
    html(page::HOME)
}

pub(super) async fn table_page(
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

pub(super) async fn asset(Path(name): Path<String>) -> Response {
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
pub(super) async fn face(
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
pub(super) async fn rules(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    Query(params): Params,
) -> Result<Response, ApiError> {
    let (slot, _) = app.open(&id, token(&params))?;
    let html = app.rules(&slot, super::lang(&params)).await?;
    Ok((
        [
            (header::CONTENT_TYPE, "text/html; charset=utf-8"),
            (header::CONTENT_SECURITY_POLICY, RULES_CSP),
        ],
        html,
    )
        .into_response())
}
