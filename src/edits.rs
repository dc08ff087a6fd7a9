//! Edits to watched folders, as `watch` and `serve` both follow them: the paths written,
//! created, renamed or removed, gathered until the folders have been quiet for a while.
//!
//! Reading a file is no edit. Both commands read every file of a game on each round, and the
//! operating system reports each open and read: a watcher that counted them would start the
//! next round for ever, and a round started by its own reading could read a file while the
//! designer's editor is still writing it.

use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use notify::event::{AccessKind, AccessMode};
use notify::{EventKind, RecommendedWatcher, RecursiveMode, Watcher};

/// The folders being watched; watching stops when this is dropped, and [`Edits::next`] then
/// answers `None`.
pub struct Watching {
    _watcher: RecommendedWatcher,
}

/// The edits of the folders a [`Watching`] watches.
pub struct Edits {
    rx: mpsc::Receiver<PathBuf>,
}

/// Watches each of `dirs` and everything under it. The error names the folder that cannot be
/// watched.
pub fn watch(dirs: &[&Path]) -> Result<(Watching, Edits), (PathBuf, notify::Error)> {
    let (tx, rx) = mpsc::channel::<PathBuf>();
    let mut watcher = notify::recommended_watcher(move |event: notify::Result<notify::Event>| {
        let Ok(event) = event else { return };
        if is_edit(&event.kind) {
            for path in event.paths {
                let _ = tx.send(path);
            }
        }
    })
    .map_err(|e| (dirs.first().map(|d| d.to_path_buf()).unwrap_or_default(), e))?;
    for dir in dirs {
        watcher
            .watch(dir, RecursiveMode::Recursive)
            .map_err(|e| (dir.to_path_buf(), e))?;
    }
    Ok((Watching { _watcher: watcher }, Edits { rx }))
}

/// Whether an event changes what a file holds or where it is: everything but reading
/// (opening a file, or closing it unwritten).
fn is_edit(kind: &EventKind) -> bool {
    !matches!(kind, EventKind::Access(access) if *access != AccessKind::Close(AccessMode::Write))
}

impl Edits {
    /// The paths edited next, in the order first edited, each once: waits at most `wait` for
    /// a first edit (an empty list when there was none; `None` waits as long as it takes),
    /// then until `quiet` has passed without another, so that an editor saving a file in
    /// several writes, or several files, starts one round. `None` when watching has stopped.
    pub fn next(&self, wait: Option<Duration>, quiet: Duration) -> Option<Vec<PathBuf>> {
        let first = match wait {
            Some(wait) => match self.rx.recv_timeout(wait) {
                Ok(path) => path,
                Err(mpsc::RecvTimeoutError::Timeout) => return Some(Vec::new()),
                Err(mpsc::RecvTimeoutError::Disconnected) => return None,
            },
            None => self.rx.recv().ok()?,
        };
        let mut paths = vec![first];
        let mut last = Instant::now();
        while let Some(left) = (last + quiet).checked_duration_since(Instant::now()) {
            match self.rx.recv_timeout(left) {
                Ok(path) => {
                    if !paths.contains(&path) {
                        paths.push(path);
                    }
                    last = Instant::now();
                }
                Err(mpsc::RecvTimeoutError::Timeout) => break,
                // The edits gathered so far are still edits; the next call says it stopped.
                Err(mpsc::RecvTimeoutError::Disconnected) => break,
            }
        }
        Some(paths)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const QUIET: Duration = Duration::from_millis(40);
    /// Long enough for the system to report an event on a loaded machine; no timing test.
    const SOON: Duration = Duration::from_secs(20);

    #[test]
    fn reading_a_file_is_no_edit_and_writing_one_is_one() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = std::fs::canonicalize(tmp.path()).unwrap();
        let file = dir.join("cards.csv");
        std::fs::write(&file, "name\nDawn\n").unwrap();
        let (_watching, edits) = watch(&[&dir]).unwrap();
        // Read it, as a round does: nothing to report, however long we wait for it.
        for _ in 0..3 {
            assert_eq!(std::fs::read_to_string(&file).unwrap(), "name\nDawn\n");
        }
        assert_eq!(
            edits.next(Some(Duration::from_millis(500)), QUIET),
            Some(Vec::new()),
            "reading the file was taken for an edit"
        );
        // A save in three writes (truncate, write, write) is one edit of one file.
        {
            use std::io::Write;
            let mut f = std::fs::File::create(&file).unwrap();
            f.write_all(b"name\n").unwrap();
            f.flush().unwrap();
            f.write_all(b"Dusk\n").unwrap();
        }
        assert_eq!(edits.next(Some(SOON), QUIET), Some(vec![file.clone()]));
        // A new file is an edit too, and a removed one.
        let art = dir.join("sun.svg");
        std::fs::write(&art, "<svg/>").unwrap();
        assert_eq!(edits.next(Some(SOON), QUIET), Some(vec![art.clone()]));
        std::fs::remove_file(&art).unwrap();
        assert_eq!(edits.next(Some(SOON), QUIET), Some(vec![art]));
    }

    #[test]
    fn edits_end_when_watching_stops() {
        let tmp = tempfile::tempdir().unwrap();
        let (watching, edits) = watch(&[tmp.path()]).unwrap();
        drop(watching);
        assert_eq!(edits.next(None, QUIET), None);
    }

    #[test]
    fn a_folder_that_cannot_be_watched_is_named() {
        let tmp = tempfile::tempdir().unwrap();
        let missing = tmp.path().join("missing");
        match watch(&[tmp.path(), &missing]) {
            Err((dir, _)) => assert_eq!(dir, missing),
            Ok(_) => panic!("a missing folder was watched"),
        }
    }
}
