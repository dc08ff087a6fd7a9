use clap::Parser;
use printplay::cli::{Cli, run};

fn main() {
    let cli = Cli::parse();
    std::process::exit(run(cli) as i32);
}
