//! USI front-end (placeholder until the engine façade lands).

/// Runs the USI loop on stdin/stdout; returns the exit code.
pub fn run() -> i32 {
    0
}
