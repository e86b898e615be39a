//! Developer tools behind the `gyoku` subcommands: they use the engine's
//! modules, and no engine module uses them (`tests/layout.rs` checks that
//! outside this folder only `cli.rs` reaches in here).
//!
//! - [`bench`](mod@bench): `gyoku bench`, fixed-depth searches whose node count is
//!   the search's signature;
//! - [`datagen`]: `gyoku gensfen` and `gyoku gensfen-info`, NNUE training
//!   records in YaneuraOu's packed format;
//! - [`evalbench`]: `gyoku evalbench`, nanoseconds per evaluation;
//! - [`makebook`]: `gyoku makebook`, an opening book from our own search
//!   (the engine's book reader stays in `crate::book`);
//! - [`mate_suite`]: `gyoku mate-suite`, the tsume solver against files of
//!   problems with known answers;
//! - [`records`]: `gyoku convert` and `gyoku analyse`, game records
//!   converted, and analysed move by move with evaluation curves;
//! - [`train`]: `gyoku nnue train|random|export`, the NNUE trainer;
//! - [`tune`]: `gyoku tune`, self-play data and Texel tuning of the
//!   evaluation's weights.

pub mod bench;
pub mod datagen;
pub mod evalbench;
pub mod makebook;
pub mod mate_suite;
pub mod records;
pub mod train;
pub mod tune;
