//! Who may make, close and delete tables, and when tables expire.
//!
//! The server draws an admin token at each start, prints it once (as the home page's link
//! `/?admin=TOKEN`) and keeps only its digest. Making a table needs it. Closing a table (no
//! one moves any more; it stays viewable until it expires) and deleting one (its stored data
//! is gone) need it too, or every person at that table agreeing, as an undo does. A table
//! nobody moved at, or that was closed, for `serve --expire-days` days is deleted at the start
//! and every hour after.

use std::collections::BTreeSet;
use std::sync::Arc;
use std::sync::atomic::Ordering;

use serde_json::{Value, json};
use subtle::ConstantTimeEq;

use super::{ApiError, App, Inner, Slot, now, person_seats, store};

/// Who asks to close or delete a table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Who {
    /// The holder of the admin token.
    Admin,
    /// A person at the table.
    Seat(usize),
}

/// What an ask to close or delete a table came to.
#[derive(Debug)]
pub(crate) enum Asked {
    /// Done (closed, or deleted).
    Done,
    /// Waiting for the other persons: who agreed, who has not.
    Waiting(Value),
}

/// Which of two things every person must agree to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Ask {
    Close,
    Delete,
}

/// `{"agreed": [names], "waiting": [names]}` of a table's person seats.
pub(crate) fn proposal(names: &[String], persons: &[usize], agreed: &BTreeSet<usize>) -> Value {
    let named = |keep: bool| -> Vec<&String> {
        persons
            .iter()
            .filter(|s| agreed.contains(s) == keep)
            .filter_map(|&s| names.get(s))
            .collect()
    };
    json!({"agreed": named(true), "waiting": named(false)})
}

impl App {
    /// Whether `token` is the admin token (its digest compared in full, in constant time).
    pub(crate) fn is_admin(&self, token: &str) -> bool {
        let digest = store::token_digest(token);
        bool::from(digest.as_bytes().ct_eq(self.admin.as_bytes()))
    }

    /// Deletes the tables idle or closed for longer than the admin's rule says, stored and
    /// running (their connections are told and closed); how many.
    pub(crate) fn expire(&self) -> Result<usize, String> {
        if self.expire_days == 0 {
            return Ok(0);
        }
        let before = now() - i64::from(self.expire_days) * 86_400;
        let ids = self.store.expire(before)?;
        for id in &ids {
            self.forget(id);
        }
        Ok(ids.len())
    }

    /// Takes a deleted table out of the server: its links answer 403 from now on, and its
    /// connections close.
    fn forget(&self, id: &str) {
        let slot = self.tables.write().ok().and_then(|mut t| t.remove(id));
        if let Some(slot) = slot {
            slot.deleted.store(true, Ordering::SeqCst);
            slot.touch();
        }
        if let Ok(mut held) = self.held.write() {
            held.remove(id);
        }
    }

    /// Closes the table `id`: at once for the admin; for a person, once every person at it
    /// agrees (`decline` withdraws every agreement).
    pub(crate) async fn close(
        &self,
        slot: &Arc<Slot>,
        who: Who,
        decline: bool,
    ) -> Result<Asked, ApiError> {
        let mut inner = slot.inner.lock().await;
        if inner.closed {
            return Ok(Asked::Done);
        }
        if let Some(waiting) = agree(slot, &mut inner, Ask::Close, who, decline) {
            return Ok(Asked::Waiting(waiting));
        }
        let store = self.store.clone();
        let id = slot.id.clone();
        tokio::task::spawn_blocking(move || store.close(&id, now()))
            .await
            .map_err(|e| ApiError(500, e.to_string()))?
            .map_err(|e| ApiError(500, e))?;
        inner.closed = true;
        inner.closing.clear();
        inner.undo = None;
        slot.touch();
        Ok(Asked::Done)
    }

    /// Deletes the table `id` with everything stored of it: at once for the admin (a held
    /// table too); for a person, once every person at it agrees.
    pub(crate) async fn delete(
        &self,
        id: &str,
        slot: Option<&Arc<Slot>>,
        who: Who,
        decline: bool,
    ) -> Result<Asked, ApiError> {
        let mut locked = match slot {
            Some(slot) => Some(slot.inner.lock().await),
            None => None,
        };
        if let (Some(slot), Some(inner)) = (slot, locked.as_mut())
            && let Some(waiting) = agree(slot, inner, Ask::Delete, who, decline)
        {
            return Ok(Asked::Waiting(waiting));
        }
        let store = self.store.clone();
        let key = id.to_string();
        let stored = tokio::task::spawn_blocking(move || store.delete(&key))
            .await
            .map_err(|e| ApiError(500, e.to_string()))?
            .map_err(|e| ApiError(500, e))?;
        drop(locked);
        self.forget(id);
        if stored || slot.is_some() {
            Ok(Asked::Done)
        } else {
            Err(ApiError::forbidden())
        }
    }
}

/// A person's say (or the admin's word) on closing or deleting: `None` when it is decided
/// (the admin asked, or every person now agrees), else who agreed and who has not.
fn agree(slot: &Slot, inner: &mut Inner, ask: Ask, who: Who, decline: bool) -> Option<Value> {
    let Who::Seat(seat) = who else {
        return None;
    };
    let persons = person_seats(inner.live.transcript());
    let agreed = match ask {
        Ask::Close => &mut inner.closing,
        Ask::Delete => &mut inner.deleting,
    };
    if decline {
        agreed.clear();
    } else {
        agreed.insert(seat);
        if persons.iter().all(|s| agreed.contains(s)) {
            return None;
        }
    }
    let waiting = proposal(inner.live.seat_names(), &persons, agreed);
    slot.touch();
    Some(waiting)
}
