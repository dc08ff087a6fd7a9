//! Files of a game's folder are read only from inside it: every read of the game's data
//! (its TOML files, spreadsheets, art, fonts, templates, the rules prose's images, its
//! `engine.lua`) resolves the path here first, so no name and no symbolic link can make
//! printplay read a file of the machine that is outside the folder.

use std::path::{Component, Path, PathBuf};

/// Resolves `rel`, a path the data gives relative to the game's folder `dir`, to the file it
/// names; refuses absolute paths, `..` and symbolic links that lead out of the folder, and
/// files that do not exist. The message says what is wrong.
pub fn resolve_in(dir: &Path, rel: &str) -> Result<PathBuf, String> {
    let path = Path::new(rel);
    if rel.trim().is_empty() {
        return Err("the path is empty".into());
    }
    if path.is_absolute() || path.has_root() {
        return Err(format!(
            "`{rel}` is an absolute path; name files relative to the game's folder"
        ));
    }
    if path
        .components()
        .any(|c| matches!(c, Component::ParentDir | Component::Prefix(_)))
    {
        return Err(format!(
            "`{rel}` leaves the game's folder (`..`); keep the file inside it"
        ));
    }
    let joined = dir.join(path);
    let real = joined.canonicalize().map_err(|e| match e.kind() {
        std::io::ErrorKind::NotFound => format!("`{rel}` does not exist in {}", dir.display()),
        _ => format!("`{rel}` cannot be read: {}", crate::diag::io_words(&e)),
    })?;
    let root = dir
        .canonicalize()
        .map_err(|e| format!("{}: {e}", dir.display()))?;
    if !real.starts_with(&root) {
        return Err(format!(
            "`{rel}` is a link to {}, outside the game's folder",
            real.display()
        ));
    }
    if !real.is_file() {
        return Err(format!("`{rel}` is not a file"));
    }
    Ok(real)
}

/// Reads the file `rel` names inside the game's folder `dir` (see [`resolve_in`]).
pub fn read_in(dir: &Path, rel: &str) -> Result<Vec<u8>, String> {
    let real = resolve_in(dir, rel)?;
    std::fs::read(&real)
        .map_err(|e| format!("`{rel}` cannot be read: {}", crate::diag::io_words(&e)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_stay_inside_the_folder() {
        let dir = tempfile::tempdir().unwrap();
        let game = dir.path().join("game");
        std::fs::create_dir_all(game.join("art")).unwrap();
        std::fs::write(game.join("art/a.png"), b"x").unwrap();
        std::fs::write(dir.path().join("secret.png"), b"x").unwrap();
        assert!(resolve_in(&game, "art/a.png").is_ok());
        assert!(
            resolve_in(&game, "art/missing.png")
                .unwrap_err()
                .contains("does not exist")
        );
        assert!(
            resolve_in(&game, "../secret.png")
                .unwrap_err()
                .contains("..")
        );
        let abs = dir.path().join("secret.png");
        assert!(
            resolve_in(&game, abs.to_str().unwrap())
                .unwrap_err()
                .contains("absolute")
        );
        assert!(resolve_in(&game, "art").unwrap_err().contains("not a file"));
        #[cfg(unix)]
        {
            std::os::unix::fs::symlink(dir.path().join("secret.png"), game.join("art/out.png"))
                .unwrap();
            assert!(
                resolve_in(&game, "art/out.png")
                    .unwrap_err()
                    .contains("outside")
            );
        }
    }
}
