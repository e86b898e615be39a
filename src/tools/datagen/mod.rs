//! Training data for an NNUE evaluation: self-play positions in
//! YaneuraOu's 40-byte `PackedSfenValue` records, so that our data and the
//! shogi NNUE tooling (YaneuraOu's learner, nnue-pytorch's shogi forks,
//! cshogi) can read each other's files.
//!
//! # Commands
//!
//! ```text
//! gyoku gensfen --out DIR [--chunks A..B] [--games-per-chunk N] [--seed S]
//!               [--threads T] [--nodes M] [--depth D] [--hash MB]
//!               [--random-moves K] [--random-plies P] [--random-multipv K]
//!               [--random-multipv-diff CP] [--write-min-ply N]
//!               [--max-ply N] [--eval-limit CP] [--adjudicate-plies N]
//!               [--progress-secs N] [--eval builtin|linear|NET]
//! gyoku gensfen-info [--dump] FILE...
//! ```
//!
//! `gensfen` writes chunk `k` (for `k` in `A..B`; also `A..=B`, or one
//! number) to `DIR/gensfen-<k>.bin`, through `gensfen-<k>.bin.tmp` renamed
//! when the chunk is complete; a chunk whose file exists is skipped, so an
//! interrupted run is resumed by running the same command again. Chunk
//! `k` holds `N` games whose content depends only on `(S, k)` and the
//! options (not on `T`): see [`gensfen`]. Defaults: 200 games a chunk, seed
//! 1, 5000 nodes a move (unless `--depth` is given; `--nodes 0` means no
//! node limit), 8 MiB hash per thread, 8 random moves within plies 1..24
//! (any legal move; with `--random-multipv K` one of the best K lines
//! within `--random-multipv-diff` centipawns, default 100, of the best),
//! positions written from ply 16, draw at 320 plies, adjudication after 4
//! consecutive searches with |score| >= 3000, the engine's built-in network
//! (`--eval linear`: the linear evaluation; or a network file). Progress
//! goes to stderr every few seconds, then a summary line.
//!
//! What is written: every searched position from `--write-min-ply` on,
//! including positions in check and those whose best move captures or
//! promotes (filtering them is the trainer's choice: the move is kept);
//! positions where a random move was played are not written. Repeats of
//! a position (same [`crate::Position::key`]) are dropped within a chunk,
//! the first occurrence in game order kept; the set is per chunk (so that
//! a chunk is the same whether generated alone or in a longer run, and
//! whatever ran before), so the same position can recur in other chunks
//! and other runs: deduplicate across files at shuffling time if needed.
//! Draws are written with result 0.
//!
//! `gensfen-info` prints, per file and in total, the record count, results
//! W/D/L, how many positions are in check or have a capturing or
//! promoting move, the mean ply and a score histogram, and validates every
//! record (it unpacks to a legal position, its move is legal there, its
//! result is -1, 0 or 1); the exit code is 1 if any record is invalid.
//! `--dump` also prints each record as `sfen<TAB>move<TAB>score<TAB>result`
//! on stdout (the reports then go to stderr).
//!
//! # Compatibility
//!
//! The packer follows YaneuraOu's `sfen_packer.cpp` (read, not copied); it
//! reproduces the bytes of cshogi's own packing test, and
//! `tools/psv-crosscheck.py` checks both directions against the cshogi
//! Python package (cshogi 1.1.0 decoded our records to the same
//! positions and moves and re-packed them bit for bit, and we decoded
//! 9156 cshogi-packed positions from random games, hands of up to 26
//! pieces, to the same SFENs and moves).
//!
//! # Record layout (40 bytes, little-endian)
//!
//! | bytes | type | field | meaning |
//! |---|---|---|---|
//! | 0..32 | `u8[32]` | `sfen` | the position, Huffman-coded in 256 bits ([`packed`]) |
//! | 32..34 | `i16` | `score` | search score, side to move's view; mate in n plies = +-(32000 - n) |
//! | 34..36 | `u16` | `move` | best move, YaneuraOu's `Move16` (= our [`crate::Move::bits`]) |
//! | 36..38 | `u16` | `gamePly` | move number of the position (1 = the start position) |
//! | 38 | `i8` | `game_result` | 1 win, 0 draw, -1 loss for the side to move |
//! | 39 | `u8` | `padding` | 0 |
//!
//! `Move16`: bits 0-6 the destination square, bits 7-13 the origin square
//! (or the dropped kind, pawn 1 .. rook 6, gold 7), bit 14 drop, bit 15
//! promotion; squares are `file * 9 + rank` with file 0 = USI file 1 and
//! rank 0 = rank a.

pub mod gensfen;
pub mod info;
pub mod packed;

use gensfen::GensfenConfig;
use std::collections::HashMap;
use std::path::PathBuf;

const USAGE: &str = "usage: gyoku gensfen --out DIR [--chunks A..B|A..=B|K] [--games-per-chunk N] [--seed S] [--threads T]
                     [--nodes M] [--depth D] [--hash MB] [--random-moves K] [--random-plies P]
                     [--random-multipv K] [--random-multipv-diff CP]
                     [--write-min-ply N] [--max-ply N] [--eval-limit CP] [--adjudicate-plies N] [--progress-secs N]
                     [--eval builtin|linear|NET]
       gyoku gensfen-info [--dump] FILE...";

/// Parses `A..B` (end excluded), `A..=B` (end included) or `K`.
fn parse_chunks(text: &str) -> Option<std::ops::Range<u64>> {
    if let Some((a, b)) = text.split_once("..=") {
        let (a, b): (u64, u64) = (a.parse().ok()?, b.parse().ok()?);
        return Some(a..b.checked_add(1)?);
    }
    if let Some((a, b)) = text.split_once("..") {
        return Some(a.parse().ok()?..b.parse().ok()?);
    }
    let k: u64 = text.parse().ok()?;
    Some(k..k.checked_add(1)?)
}

fn parse_config(args: &[String], threads: usize) -> Result<GensfenConfig, String> {
    let mut flags = crate::tools::tune::parse_flags(args)?;
    fn get<T: std::str::FromStr>(
        flags: &mut HashMap<String, String>,
        name: &str,
        default: T,
    ) -> Result<T, String> {
        match flags.remove(name) {
            None => Ok(default),
            Some(v) => v
                .parse()
                .map_err(|_| format!("bad value '{v}' for --{name}")),
        }
    }
    let d = GensfenConfig::default();
    let out_dir: PathBuf = flags.remove("out").ok_or("--out DIR is required")?.into();
    let chunks = match flags.remove("chunks") {
        None => d.chunks.clone(),
        Some(text) => parse_chunks(&text).ok_or_else(|| format!("bad --chunks '{text}'"))?,
    };
    let depth: Option<u32> = match flags.remove("depth") {
        None => None,
        Some(v) => Some(v.parse().map_err(|_| format!("bad --depth '{v}'"))?),
    };
    let nodes: u64 = get(&mut flags, "nodes", if depth.is_some() { 0 } else { 5000 })?;
    let config = GensfenConfig {
        out_dir,
        chunks,
        games_per_chunk: get(&mut flags, "games-per-chunk", d.games_per_chunk)?,
        seed: get(&mut flags, "seed", d.seed)?,
        threads,
        nodes: (nodes > 0).then_some(nodes),
        depth,
        hash_mb: get(&mut flags, "hash", d.hash_mb)?,
        random_moves: get(&mut flags, "random-moves", d.random_moves)?,
        random_plies: get(&mut flags, "random-plies", d.random_plies)?,
        random_multipv: get(&mut flags, "random-multipv", d.random_multipv)?,
        random_multipv_diff: get(&mut flags, "random-multipv-diff", d.random_multipv_diff)?,
        write_min_ply: get(&mut flags, "write-min-ply", d.write_min_ply)?,
        max_ply: get(&mut flags, "max-ply", d.max_ply)?,
        eval_limit: get(&mut flags, "eval-limit", d.eval_limit)?,
        adjudicate_plies: get(&mut flags, "adjudicate-plies", d.adjudicate_plies)?,
        progress_secs: get(&mut flags, "progress-secs", d.progress_secs)?,
        network: crate::eval::EvalChoice::parse(flags.remove("eval").as_deref().unwrap_or(""))
            .network()
            .map_err(|e| format!("--eval {e}"))?,
    };
    if let Some(unknown) = flags.keys().next() {
        return Err(format!("unknown flag --{unknown}"));
    }
    if config.nodes.is_none() && config.depth.is_none() {
        return Err("give a node limit (--nodes M) or a depth (--depth D)".into());
    }
    if config.games_per_chunk == 0 {
        return Err("--games-per-chunk must be at least 1".into());
    }
    Ok(config)
}

/// Runs `gyoku gensfen ...` (arguments after `gensfen`, `--threads`
/// already taken out); returns the exit code.
pub fn run_gensfen(args: &[String], threads: usize) -> i32 {
    if args.iter().any(|a| a == "--help" || a == "-h") {
        println!("{USAGE}");
        return 0;
    }
    let config = match parse_config(args, threads) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("{e}\n{USAGE}");
            return 2;
        }
    };
    match gensfen::generate(&config) {
        Ok(_) => 0,
        Err(e) => {
            eprintln!("gensfen: {e}");
            1
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(text: &str) -> Vec<String> {
        text.split_whitespace().map(String::from).collect()
    }

    #[test]
    fn chunk_ranges_parse() {
        assert_eq!(parse_chunks("3..7"), Some(3..7));
        assert_eq!(parse_chunks("3..=7"), Some(3..8));
        assert_eq!(parse_chunks("5"), Some(5..6));
        assert_eq!(parse_chunks("a..2"), None);
    }

    #[test]
    fn flags_parse_with_defaults() {
        let c = parse_config(&args("--out /tmp/x --chunks 0..4 --nodes 300"), 3).unwrap();
        assert_eq!(c.chunks, 0..4);
        assert_eq!((c.nodes, c.depth, c.threads), (Some(300), None, 3));
        assert_eq!(
            (c.random_moves, c.random_plies, c.write_min_ply),
            (8, 24, 16)
        );
        let c = parse_config(&args("--out d --depth 6"), 1).unwrap();
        assert_eq!((c.nodes, c.depth), (None, Some(6)));
        assert!(parse_config(&args("--chunks 0..4"), 1).is_err());
        assert!(parse_config(&args("--out d --nodes 0"), 1).is_err());
        assert!(parse_config(&args("--out d --bogus 1"), 1).is_err());
    }
}
