//! gyoku: a USI shogi engine.
//!
//! Glossary: *sente*/Black moves first, *gote*/White second; *uchifuzume* is
//! checkmate by a pawn drop (illegal); *nifu* is two unpromoted pawns of one
//! side on a file (illegal); *sennichite* is fourfold repetition (a draw,
//! unless one side checked throughout: it loses); *nyugyoku* is the
//! entering-king declaration; *tsume* is a mating problem where every
//! attacking move checks.

pub mod attacks;
pub mod bitboard;
pub mod book;
pub mod cli;
pub mod engine;
pub mod eval;
pub mod hand;
pub mod large_table;
pub mod mate;
pub mod movegen;
pub mod moves;
pub mod nnue;
pub mod perft;
pub mod position;
pub mod record;
pub mod search;
#[cfg(windows)]
mod sys_windows;
pub mod text;
pub mod tools;
pub mod types;
pub mod usi;
pub mod util;
pub mod zobrist;

pub use bitboard::Bitboard;
pub use hand::Hand;
pub use moves::{Move, MoveList, MAX_MOVES};
pub use position::{EnteringKingRule, Position, Repetition, SfenError, START_SFEN};
pub use types::{Color, Piece, PieceType, Square};
