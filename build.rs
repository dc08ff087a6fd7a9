//! Rebuilds when a built-in template, message file or font changes: they are compiled into
//! the binary (`src/assets.rs`, `src/render/template.rs`, `src/render/fonts.rs`).
//!
//! It also fingerprints the code that draws (`PRINTPLAY_CODE_HASH`): the build cache
//! (`src/render/cache.rs`) keys every entry by it, so a printplay that draws differently never
//! reuses what another one drew.
//!
//! In the repository, krilla-svg is the patched copy in `vendor/krilla-svg` (glyph runs, see
//! its `PRINTPLAY.md`); a published crate ships no `vendor/` and no `[patch]`, and builds with
//! krilla-svg as published. `cfg(krilla_glyph_runs)` says which, for the one test that counts
//! glyph runs.
use std::hash::{Hash, Hasher};
use std::path::{Path, PathBuf};

fn main() {
    println!("cargo:rerun-if-changed=templates");
    println!("cargo:rerun-if-changed=fonts");
    println!("cargo:rerun-if-changed=src");
    println!("cargo:rerun-if-changed=profiles");
    println!("cargo:rerun-if-changed=Cargo.lock");
    println!("cargo:rerun-if-changed=vendor");
    println!("cargo::rustc-check-cfg=cfg(krilla_glyph_runs)");
    if Path::new("vendor/krilla-svg/Cargo.toml").is_file() {
        println!("cargo:rustc-cfg=krilla_glyph_runs");
    }
    // Stable within one compiler (fixed keys), which is all a fingerprint of one build needs.
    #[allow(deprecated)]
    let mut h = std::hash::SipHasher::new();
    for var in ["PROFILE", "TARGET", "OPT_LEVEL", "RUSTC"] {
        std::env::var(var).unwrap_or_default().hash(&mut h);
    }
    let mut files = Vec::new();
    for root in [
        "src",
        "templates",
        "fonts",
        "profiles",
        "vendor",
        "Cargo.lock",
    ] {
        walk(Path::new(root), &mut files);
    }
    files.sort();
    for file in files {
        file.hash(&mut h);
        std::fs::read(&file).unwrap_or_default().hash(&mut h);
    }
    println!("cargo:rustc-env=PRINTPLAY_CODE_HASH={:016x}", h.finish());
}

fn walk(path: &Path, out: &mut Vec<PathBuf>) {
    if path.is_dir() {
        for entry in std::fs::read_dir(path).into_iter().flatten().flatten() {
            walk(&entry.path(), out);
        }
    } else if path.is_file() {
        out.push(path.to_path_buf());
    }
}
