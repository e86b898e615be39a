//! USI front-end. Not written yet (issue 3): the binary says so instead of
//! pretending to be an engine.

/// Runs the USI loop on stdin/stdout; returns the exit code.
pub fn run() -> i32 {
    eprintln!("gyoku: the USI engine is not implemented yet; see `gyoku --help` for the perft and mate tools");
    2
}
