//! What every request passes: the rate limit per connection, the headers of every answer,
//! and the guard on requests that change something (JSON only, from this server's pages).

use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::time::Instant;

use axum::extract::{ConnectInfo, Request, State};
use axum::http::{HeaderMap, HeaderValue, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use super::{CSP, RATE_BURST, RATE_PER_SECOND};
use crate::serve::ApiError;

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
pub(super) struct Limiter(Mutex<HashMap<SocketAddr, Bucket>>);

pub(super) async fn limit(
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

pub(super) async fn headers(request: Request, next: Next) -> Response {
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
pub(super) async fn guard(request: Request, next: Next) -> Response {
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

/// Whether a WebSocket's `Origin` (sent by every browser) is this server: a page of another
/// site cannot open one. Clients without an `Origin` are not browsers and pass.
pub(super) fn same_origin(headers: &HeaderMap) -> bool {
    let Some(origin) = headers.get(header::ORIGIN) else {
        return true;
    };
    let host = headers.get(header::HOST).and_then(|h| h.to_str().ok());
    match (origin.to_str().ok(), host) {
        (Some(o), Some(h)) => o == format!("http://{h}") || o == format!("https://{h}"),
        _ => false,
    }
}
