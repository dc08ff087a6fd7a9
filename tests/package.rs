//! What `cargo package` ships is what `cargo install` builds from: every file the code compiles
//! in (`include_str!`, `include_bytes!`, `include_dir!`) must be in the package, the build
//! script and the licence files too, and the whole well under crates.io's 10 MB limit. That the
//! package compiles as published (krilla-svg, resvg and usvg from crates.io, no `[patch]`) is
//! `.ci/run`'s `cargo package`, which verifies it.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;

fn manifest_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The files `cargo package --list` would ship, relative to the crate root.
fn package_list() -> BTreeSet<String> {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let out = Command::new(cargo)
        .args(["package", "--list", "--allow-dirty", "--offline"])
        .current_dir(manifest_dir())
        .output()
        .expect("cargo runs");
    assert!(
        out.status.success(),
        "cargo package --list failed:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout)
        .expect("utf-8 list")
        .lines()
        .map(str::to_string)
        .collect()
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("readable source folder") {
        let path = entry.expect("entry").path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

fn files_under(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("readable folder") {
        let path = entry.expect("entry").path();
        if path.is_dir() {
            files_under(&path, out);
        } else {
            out.push(path);
        }
    }
}

/// Every file the library and binary compile in, as paths relative to the crate root.
fn compiled_in() -> BTreeSet<String> {
    let root = manifest_dir();
    let mut sources = Vec::new();
    rust_files(&root.join("src"), &mut sources);
    let mut found = BTreeSet::new();
    for file in sources {
        let text = std::fs::read_to_string(&file).expect("readable source");
        for mac in ["include_str!(", "include_bytes!(", "include_dir!("] {
            for (at, _) in text.match_indices(mac) {
                let rest = &text[at + mac.len()..];
                let Some(open) = rest.find('"') else { continue };
                let rest = &rest[open + 1..];
                let Some(close) = rest.find('"') else {
                    continue;
                };
                let arg = &rest[..close];
                let path = match arg.strip_prefix("$CARGO_MANIFEST_DIR/") {
                    Some(rel) => root.join(rel),
                    None => file.parent().expect("parent").join(arg),
                };
                let path = path.canonicalize().unwrap_or_else(|e| {
                    panic!("{}: compiled-in {arg} not found: {e}", file.display())
                });
                let mut files = Vec::new();
                if path.is_dir() {
                    files_under(&path, &mut files);
                } else {
                    files.push(path);
                }
                let canon_root = root.canonicalize().expect("root");
                for f in files {
                    let rel = f.strip_prefix(&canon_root).expect("inside the crate");
                    found.insert(rel.to_string_lossy().replace('\\', "/"));
                }
            }
        }
    }
    found
}

#[test]
fn the_package_ships_every_compiled_in_file_and_the_licences() {
    let listed = package_list();
    let needed = compiled_in();
    assert!(
        needed.len() > 10,
        "the scan found too few compiled-in files: {needed:?}"
    );
    let missing: Vec<_> = needed.difference(&listed).collect();
    assert!(
        missing.is_empty(),
        "compiled in but not in the package (add them to Cargo.toml's `include`): {missing:?}"
    );
    for f in [
        // The build script: it sets `PRINTPLAY_CODE_HASH`, which the code reads with `env!`.
        "build.rs",
        "LICENSE-MIT",
        "LICENSE-APACHE",
        "README.md",
        "CHANGELOG.md",
        "Cargo.toml",
    ] {
        assert!(listed.contains(f), "{f} is not in the package");
    }
    assert!(
        !listed
            .iter()
            .any(|f| f.starts_with("output/") || f.starts_with("target/")),
        "generated files in the package"
    );
    let bytes: u64 = listed
        .iter()
        .filter_map(|f| std::fs::metadata(manifest_dir().join(f)).ok())
        .map(|m| m.len())
        .sum();
    assert!(
        bytes < 8 * 1024 * 1024,
        "the package holds {bytes} bytes before compression (fonts and profiles are most of it); crates.io takes at most 10 MB compressed"
    );
}
