//! An earlier version of a game: its folder at a git revision, or another folder.
//!
//! A revision is read with the `git` binary (`rev-parse`, `ls-tree`, `cat-file blob`), whose
//! plumbing output is documented and stable, into a temporary folder, and loaded from there by
//! [`crate::model::load_game`] as any game is. Only the game's own folder at that revision is
//! read: regular files only (a symbolic link or a submodule in the tree is left out, so nothing
//! outside the folder is reached), every path checked to stay inside it, no filters or hooks
//! run, and the number and size of the files bounded ([`crate::limits::REVISION_MAX_FILES`],
//! [`crate::limits::REVISION_MAX_BYTES`]) before any is written.

use std::path::{Component, Path, PathBuf};
use std::process::{Command, Stdio};

use crate::limits::{REVISION_MAX_BYTES, REVISION_MAX_FILES};
use crate::model::{Game, load_game};

/// Where the earlier version comes from (`--since REF`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Since {
    /// A git revision of the game's folder (`HEAD`, `v1.2`, `main~3`).
    Revision(String),
    /// Another copy of the game's folder.
    Folder(PathBuf),
}

impl Since {
    /// `REF` as the command line gives it: an existing folder, else a git revision.
    pub fn parse(text: &str) -> Since {
        let path = Path::new(text);
        if path.is_dir() {
            Since::Folder(path.to_path_buf())
        } else {
            Since::Revision(text.to_string())
        }
    }

    /// How reports name it: the revision as given (with its commit), or the folder.
    pub fn describe(&self) -> String {
        match self {
            Since::Revision(r) => r.clone(),
            Since::Folder(p) => p.display().to_string(),
        }
    }
}

/// An earlier version of a game, loaded; the temporary folder it was read into (if any) lives
/// as long as it does.
pub struct Earlier {
    pub game: Game,
    /// The commit a revision names (its full hash); `None` for a folder.
    pub commit: Option<String>,
    _dir: Option<tempfile::TempDir>,
}

impl std::fmt::Debug for Earlier {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Earlier")
            .field("slug", &self.game.slug)
            .field("commit", &self.commit)
            .finish()
    }
}

/// Why an earlier version could not be read: a usage error (exit 2), with git's own reason
/// when git gave one.
pub type Error = String;

/// Runs git in `dir` and returns its standard output, or git's reason.
fn git(dir: &Path, args: &[&str]) -> Result<Vec<u8>, Error> {
    let out = Command::new("git")
        .arg("-C")
        .arg(dir)
        .args(args)
        .stdin(Stdio::null())
        .output()
        .map_err(|e| format!("cannot run git (is it installed?): {e}"))?;
    if out.status.success() {
        Ok(out.stdout)
    } else {
        let reason = String::from_utf8_lossy(&out.stderr).trim().to_string();
        Err(if reason.is_empty() {
            format!("git {} failed ({})", args.join(" "), out.status)
        } else {
            reason
        })
    }
}

/// The commit `rev` names, seen from the folder `dir`: its full hash, or git's reason why
/// not (not a repository, no such revision). A revision starting with `-` is refused before
/// git sees it (it would be read as an option).
pub fn resolve(dir: &Path, rev: &str) -> Result<String, Error> {
    if rev.starts_with('-') || rev.is_empty() || rev.contains('\0') {
        return Err(format!("`{rev}` is not a revision"));
    }
    let out = git(
        dir,
        &[
            "rev-parse",
            "--verify",
            "--end-of-options",
            &format!("{rev}^{{commit}}"),
        ],
    )
    .map_err(|e| format!("`{rev}` in {}: {e}", dir.display()))?;
    Ok(String::from_utf8_lossy(&out).trim().to_string())
}

/// One regular file of the game's folder at a revision.
struct Blob {
    /// Relative to the game's folder.
    path: PathBuf,
    oid: String,
    size: u64,
}

/// The regular files of `dir` at `commit`, relative to `dir`; links and submodules left out.
fn blobs(dir: &Path, commit: &str) -> Result<Vec<Blob>, Error> {
    let prefix = String::from_utf8_lossy(&git(dir, &["rev-parse", "--show-prefix"])?)
        .trim_end_matches('\n')
        .to_string();
    let listing = git(
        dir,
        &[
            "ls-tree",
            "-r",
            "-z",
            "--long",
            "--full-name",
            commit,
            "--",
            ".",
        ],
    )?;
    let mut out = Vec::new();
    let mut total = 0u64;
    for entry in listing.split(|b| *b == 0).filter(|e| !e.is_empty()) {
        let entry = String::from_utf8_lossy(entry);
        let Some((meta, name)) = entry.split_once('\t') else {
            continue;
        };
        let parts: Vec<&str> = meta.split_whitespace().collect();
        // "<mode> <type> <object> <size>": regular files only (100644, 100755); a link
        // (120000) or a submodule (160000) is not read.
        let [mode, "blob", oid, size] = parts[..] else {
            continue;
        };
        if !matches!(mode, "100644" | "100755") {
            continue;
        }
        let Some(rel) = name.strip_prefix(prefix.as_str()) else {
            continue;
        };
        let rel = PathBuf::from(rel);
        if !rel.components().all(|c| matches!(c, Component::Normal(_))) {
            continue;
        }
        let size: u64 = size.parse().map_err(|_| format!("git listed `{meta}`"))?;
        total = total.saturating_add(size);
        if out.len() >= REVISION_MAX_FILES || total > REVISION_MAX_BYTES {
            return Err(format!(
                "{} at {commit} holds more than {REVISION_MAX_FILES} files or {} MB: \
                 more than a game folder (see the guide's limits)",
                dir.display(),
                REVISION_MAX_BYTES >> 20
            ));
        }
        out.push(Blob {
            path: rel,
            oid: oid.to_string(),
            size,
        });
    }
    Ok(out)
}

/// Writes the game's folder `dir` as it was at `commit` into `into`.
fn write_tree(dir: &Path, commit: &str, into: &Path) -> Result<(), Error> {
    let files = blobs(dir, commit)?;
    if files.is_empty() {
        return Err(format!("{} holds no files at {commit}", dir.display()));
    }
    for blob in files {
        let target = into.join(&blob.path);
        if let Some(parent) = target.parent() {
            std::fs::create_dir_all(parent).map_err(|e| format!("{}: {e}", parent.display()))?;
        }
        let file =
            std::fs::File::create(&target).map_err(|e| format!("{}: {e}", target.display()))?;
        // The blob as stored: no filters, no conversion; written straight to the file.
        let status = Command::new("git")
            .arg("-C")
            .arg(dir)
            .args(["cat-file", "blob", &blob.oid])
            .stdin(Stdio::null())
            .stdout(file)
            .stderr(Stdio::null())
            .status()
            .map_err(|e| format!("cannot run git: {e}"))?;
        let written = std::fs::metadata(&target).map(|m| m.len()).unwrap_or(0);
        if !status.success() || written != blob.size {
            return Err(format!(
                "git could not read {} at {commit}",
                blob.path.display()
            ));
        }
    }
    Ok(())
}

/// The game `now` as it was at `since`: its folder at a git revision, read into a temporary
/// folder, or another folder; loaded as any game is. The error is a usage error: git's
/// reason, or the problems of loading the earlier version.
pub fn earlier(now: &Game, since: &Since) -> Result<Earlier, Error> {
    let loaded = |data: &Path, name: &str| {
        load_game(data, name).map_err(|problems| {
            let said: Vec<String> = problems.iter().map(ToString::to_string).collect();
            format!(
                "the earlier version of {} does not load: {}",
                now.slug,
                said.join("; ")
            )
        })
    };
    match since {
        Since::Folder(folder) => {
            let folder = folder
                .canonicalize()
                .map_err(|e| format!("{}: {e}", folder.display()))?;
            let (Some(parent), Some(name)) = (folder.parent(), folder.file_name()) else {
                return Err(format!("{} is not a game folder", folder.display()));
            };
            let mut game = loaded(parent, &name.to_string_lossy())?;
            game.slug = now.slug.clone();
            Ok(Earlier {
                game,
                commit: None,
                _dir: None,
            })
        }
        Since::Revision(rev) => {
            let commit = resolve(&now.dir, rev)?;
            let tmp = tempfile::Builder::new()
                .prefix("printplay-since-")
                .tempdir()
                .map_err(|e| format!("cannot make a temporary folder: {e}"))?;
            write_tree(&now.dir, &commit, &tmp.path().join(&now.slug))?;
            let game = loaded(tmp.path(), &now.slug)?;
            Ok(Earlier {
                game,
                commit: Some(commit),
                _dir: Some(tmp),
            })
        }
    }
}
