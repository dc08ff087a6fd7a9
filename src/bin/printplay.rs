use clap::Parser;
use printplay::cli::{Cli, run};

/// mimalloc: the PDF stage allocates and frees many small nodes (SVG trees, glyph paths) on
/// several threads at once, where it spends markedly less time than the system allocator.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// mimalloc's `mi_option_purge_delay` (the enum in its `mimalloc.h`; libmimalloc-sys names no
/// constant for it).
const MI_OPTION_PURGE_DELAY: libmimalloc_sys::mi_option_t = 15;

fn main() {
    // mimalloc 3 gives freed memory back to the system a second after the last use, later
    // than a whole build takes: a build's peak memory was what every stage had ever held
    // (the four games: 102 to 124 MB). After 10 ms (mimalloc 2's delay) it is 63 to 71 MB,
    // in the same time.
    // SAFETY: sets one of mimalloc's options before any thread is started; any value is valid.
    unsafe { libmimalloc_sys::mi_option_set(MI_OPTION_PURGE_DELAY, 10) };
    quiet_on_closed_pipes();
    let cli = Cli::parse();
    std::process::exit(run(cli) as i32);
}

/// A reader that closes standard output or error early (`printplay ... 2>&1 | head -1`) makes
/// `println!` and `eprintln!` panic: the program stops there, quietly, with exit 2 (an I/O
/// problem) instead of a panic's 101 and a message nobody can read. Any other panic is
/// reported as before.
fn quiet_on_closed_pipes() {
    let report = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let message = info
            .payload()
            .downcast_ref::<String>()
            .map(String::as_str)
            .or_else(|| info.payload().downcast_ref::<&str>().copied())
            .unwrap_or("");
        if message.starts_with("failed printing to std") && message.contains("Broken pipe") {
            std::process::exit(2);
        }
        report(info);
    }));
}
