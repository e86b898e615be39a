//! Small helpers shared by the engine and the tools that belong to no
//! shogi module: this module depends on nothing else in the crate.

pub mod rng;
