use clap::Parser;
use printplay::cli::{Cli, run};

/// mimalloc: the PDF stage allocates and frees many small nodes (SVG trees, glyph paths) on
/// several threads at once, where it spends markedly less time than the system allocator.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() {
    let cli = Cli::parse();
    std::process::exit(run(cli) as i32);
}
