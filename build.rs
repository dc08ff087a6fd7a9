//! Rebuilds when a built-in template, message file or font changes: they are compiled into
//! the binary (`src/assets.rs`, `src/render/template.rs`, `src/render/fonts.rs`).
fn main() {
    println!("cargo:rerun-if-changed=templates");
    println!("cargo:rerun-if-changed=fonts");
}
