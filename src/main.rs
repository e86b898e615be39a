//! The `gyoku` binary: the USI engine on stdin/stdout, or a command-line tool.

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    std::process::exit(gyoku::cli::run(&args));
}
