//! Self-play training data in reproducible, resumable chunks (`gyoku
//! gensfen`); see the module docs of [`crate::tools::datagen`] for the command.
//!
//! Each game starts from the start position; at `random_moves` distinct
//! plies drawn from `1..=random_plies` a random move is played (that
//! position is not written): a uniformly random legal move, or with
//! `random_multipv` K a uniform pick among the MultiPV-K search's lines
//! within `random_multipv_diff` of the best, which keeps the openings
//! varied without throwing the game away. Every other move is the
//! search's best under the node and/or depth limit. Game `g`
//! of chunk `k` uses its own generator seeded from `(seed, k, g)` and a
//! searcher whose tables are cleared first, so a chunk's content depends
//! only on the seed, the chunk number and the options, never on the
//! thread count or on the chunks generated before it.

use super::packed::{PackedSfen, PackedSfenValue};
use crate::position::{EnteringKingRule, Position, Repetition};
use crate::search::{
    BestMove, Limits, Score, SearchControl, SearchOptions, Searcher, SilentReporter,
};
use crate::types::Color;
use crate::util::rng::SplitMix64;
use std::collections::HashSet;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// Mate score magnitude in records (YaneuraOu's `VALUE_MATE`); mate in
/// `n` plies is written as `+-(32000 - n)`.
pub const RECORD_MATE: i32 = 32_000;

/// Settings of a `gensfen` run.
#[derive(Clone, Debug)]
pub struct GensfenConfig {
    /// Output directory; chunk `k` goes to `DIR/gensfen-<k>.bin`.
    pub out_dir: PathBuf,
    /// Chunk numbers to generate (files already present are skipped).
    pub chunks: std::ops::Range<u64>,
    /// Games per chunk.
    pub games_per_chunk: u64,
    /// Seed of the whole data set.
    pub seed: u64,
    /// Worker threads (each with its own 1-thread searcher).
    pub threads: usize,
    /// Node limit per searched move.
    pub nodes: Option<u64>,
    /// Depth limit per searched move.
    pub depth: Option<u32>,
    /// Hash table per worker, in MiB.
    pub hash_mb: usize,
    /// Random moves per game...
    pub random_moves: u32,
    /// ...at distinct plies drawn from `1..=random_plies`.
    pub random_plies: u32,
    /// 0: a random move is any legal move; K > 0: one of the best K lines
    /// of a MultiPV search (K times the node limit)...
    pub random_multipv: u32,
    /// ...scoring within this many centipawns of the best line.
    pub random_multipv_diff: i32,
    /// Positions are written from this move number on (1 = the start).
    pub write_min_ply: u32,
    /// A game still going after this many plies is a draw.
    pub max_ply: u32,
    /// A score at or beyond this (either sign) counts towards adjudication.
    pub eval_limit: i32,
    /// The game is adjudicated when the same side led by `eval_limit` in
    /// this many consecutive searches.
    pub adjudicate_plies: u32,
    /// Seconds between progress lines on stderr (0: none).
    pub progress_secs: u64,
    /// The network the searches evaluate with; `None` for the linear
    /// evaluation.
    pub network: Option<std::sync::Arc<crate::nnue::Network>>,
}

impl Default for GensfenConfig {
    fn default() -> Self {
        GensfenConfig {
            out_dir: PathBuf::from("tools/data/gensfen"),
            chunks: 0..1,
            games_per_chunk: 200,
            seed: 1,
            threads: 1,
            nodes: Some(5000),
            depth: None,
            hash_mb: 8,
            random_moves: 8,
            random_plies: 24,
            random_multipv: 0,
            random_multipv_diff: 100,
            write_min_ply: 16,
            max_ply: 320,
            eval_limit: 3000,
            adjudicate_plies: 4,
            progress_secs: 5,
            network: None,
        }
    }
}

/// How a game ended.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum GameEnd {
    /// The side to move had no legal move.
    Mate,
    /// The side to move declared an entering-king win.
    Declaration,
    /// Fourfold repetition (a draw, or a loss for a perpetual checker).
    Repetition,
    /// The ply limit: a draw.
    MaxPly,
    /// One side's score stayed beyond the eval limit.
    Adjudicated,
}

/// One played game: its written positions (with their keys, for
/// deduplication) in game order, results filled in.
#[derive(Clone, Debug)]
pub struct GameRecord {
    /// `(pos.key(), record)` for each written position.
    pub positions: Vec<(u64, PackedSfenValue)>,
    /// The winner; `None` for a draw.
    pub winner: Option<Color>,
    /// How the game ended.
    pub end: GameEnd,
    /// Plies played.
    pub plies: u32,
}

/// The seed of game `game` of chunk `chunk`.
pub fn game_seed(seed: u64, chunk: u64, game: u64) -> u64 {
    let mut s = SplitMix64::new(seed);
    let a = s.next_u64() ^ chunk;
    let mut s = SplitMix64::new(a);
    let b = s.next_u64() ^ game;
    SplitMix64::new(b).next_u64()
}

/// A search score as a record score: centipawns clamped to +-29999,
/// mates as YaneuraOu writes them (`+-(32000 - plies)`).
pub fn record_score(score: Score) -> i16 {
    let v = match score {
        Score::Cp(cp) => cp.clamp(-29_999, 29_999),
        Score::Mate(n) if n > 0 => RECORD_MATE - n.min(1000),
        Score::Mate(n) => -RECORD_MATE - n.max(-1000),
    };
    v.clamp(-RECORD_MATE, RECORD_MATE) as i16
}

/// Plays game `game` of chunk `chunk` with `searcher` (whose tables are
/// cleared first) and returns its written positions.
pub fn play_game(
    config: &GensfenConfig,
    searcher: &mut Searcher,
    chunk: u64,
    game: u64,
) -> GameRecord {
    let mut rng = SplitMix64::new(game_seed(config.seed, chunk, game));
    // Distinct random plies: a partial Fisher-Yates shuffle of 1..=P.
    let mut plies: Vec<u32> = (1..=config.random_plies).collect();
    let count = (config.random_moves as usize).min(plies.len());
    for i in 0..count {
        let j = i + rng.below(plies.len() - i);
        plies.swap(i, j);
    }
    let random_at: HashSet<u32> = plies[..count].iter().copied().collect();

    searcher.new_game();
    // No move limit for the search: a label should not depend on how far
    // the game happens to be from the generator's max ply.
    let options = SearchOptions {
        entering_king_rule: EnteringKingRule::Csa27,
        ..SearchOptions::default()
    };
    let limits = Limits {
        depth: config.depth,
        nodes: config.nodes,
        ..Limits::default()
    };
    let mut pos = Position::startpos();
    let mut kept: Vec<(u64, Color, PackedSfenValue)> = Vec::new();
    let mut leader: Option<(Color, u32)> = None;
    let (winner, end) = loop {
        let us = pos.side_to_move();
        if !pos.has_legal_move() {
            break (Some(us.flip()), GameEnd::Mate);
        }
        match pos.repetition(usize::MAX, 3) {
            Repetition::Draw => break (None, GameEnd::Repetition),
            Repetition::Loss => break (Some(us.flip()), GameEnd::Repetition),
            Repetition::Win => break (Some(us), GameEnd::Repetition),
            _ => {}
        }
        if pos.moves_played() >= config.max_ply as usize {
            break (None, GameEnd::MaxPly);
        }
        if pos.can_declare_win(options.entering_king_rule) {
            break (Some(us), GameEnd::Declaration);
        }
        let ply = pos.game_ply();
        if random_at.contains(&ply) {
            let mv = random_move(config, searcher, &pos, &limits, &options, &mut rng);
            pos.do_move(mv);
            continue;
        }
        let control = SearchControl::new(Instant::now(), None, false);
        let outcome = searcher.search(&pos, &limits, &options, &control, &SilentReporter);
        let best = match outcome.best {
            BestMove::Move { best, .. } => best,
            BestMove::Resign => break (Some(us.flip()), GameEnd::Mate),
            BestMove::DeclareWin => break (Some(us), GameEnd::Declaration),
        };
        if let Some(score) = outcome.score.map(record_score) {
            if ply >= config.write_min_ply {
                if let Ok(sfen) = PackedSfen::pack(&pos) {
                    let record = PackedSfenValue {
                        sfen,
                        score,
                        mv: best.bits(),
                        game_ply: ply.min(u32::from(u16::MAX)) as u16,
                        game_result: 0,
                        padding: 0,
                    };
                    kept.push((pos.key(), us, record));
                }
            }
            let score = i32::from(score);
            leader = if score.abs() >= config.eval_limit {
                let side = if score > 0 { us } else { us.flip() };
                match leader {
                    Some((c, n)) if c == side => Some((c, n + 1)),
                    _ => Some((side, 1)),
                }
            } else {
                None
            };
            if let Some((c, n)) = leader {
                if n >= config.adjudicate_plies.max(1) {
                    break (Some(c), GameEnd::Adjudicated);
                }
            }
        }
        pos.do_move(best);
    };
    let positions = kept
        .into_iter()
        .map(|(key, color, mut record)| {
            record.game_result = match winner {
                None => 0,
                Some(w) if w == color => 1,
                Some(_) => -1,
            };
            (key, record)
        })
        .collect();
    GameRecord {
        positions,
        winner,
        end,
        plies: pos.moves_played() as u32,
    }
}

/// A score on one scale for comparing lines: mates beyond every
/// centipawn value, shorter mates better.
fn comparable(score: Score) -> i64 {
    match score {
        Score::Cp(cp) => i64::from(cp),
        Score::Mate(n) if n > 0 => 1_000_000 - i64::from(n),
        Score::Mate(n) => -1_000_000 - i64::from(n),
    }
}

/// The move played at a random ply (see [`GensfenConfig::random_multipv`]).
fn random_move(
    config: &GensfenConfig,
    searcher: &mut Searcher,
    pos: &Position,
    limits: &Limits,
    options: &SearchOptions,
    rng: &mut SplitMix64,
) -> crate::moves::Move {
    let moves = pos.legal_moves();
    let k = config.random_multipv as usize;
    if k == 0 || moves.len() == 1 {
        return moves[rng.below(moves.len())];
    }
    let options = SearchOptions {
        multi_pv: k,
        ..*options
    };
    let limits = Limits {
        nodes: limits.nodes.map(|n| n.saturating_mul(k as u64)),
        ..limits.clone()
    };
    let control = SearchControl::new(Instant::now(), None, false);
    let outcome = searcher.search(pos, &limits, &options, &control, &SilentReporter);
    let Some(best) = outcome.lines.iter().map(|l| comparable(l.1)).max() else {
        // No search ran (a mate in one): play the move it found.
        return match outcome.best {
            BestMove::Move { best, .. } => best,
            _ => moves[rng.below(moves.len())],
        };
    };
    let close: Vec<_> = outcome
        .lines
        .iter()
        .filter(|l| comparable(l.1) >= best - i64::from(config.random_multipv_diff))
        .collect();
    close[rng.below(close.len())].0
}

/// Concatenates a chunk's games in game order, keeping only the first
/// record of each position key; returns the records and how many
/// duplicates were dropped.
pub fn dedup_chunk(games: &[GameRecord]) -> (Vec<PackedSfenValue>, u64) {
    let mut seen = HashSet::new();
    let mut out = Vec::new();
    let mut dropped = 0;
    for (key, record) in games.iter().flat_map(|g| &g.positions) {
        if seen.insert(*key) {
            out.push(*record);
        } else {
            dropped += 1;
        }
    }
    (out, dropped)
}

/// The file of chunk `chunk` in `dir`.
pub fn chunk_path(dir: &Path, chunk: u64) -> PathBuf {
    dir.join(format!("gensfen-{chunk}.bin"))
}

/// Writes `records` to `path` through a temporary file renamed at the
/// end, so that a chunk file exists only when complete.
fn write_chunk(path: &Path, records: &[PackedSfenValue]) -> std::io::Result<()> {
    let tmp = path.with_extension("bin.tmp");
    let file = std::fs::File::create(&tmp)?;
    let mut out = std::io::BufWriter::new(file);
    for record in records {
        out.write_all(&record.to_bytes())?;
    }
    let file = out.into_inner().map_err(|e| e.into_error())?;
    file.sync_all()?;
    std::fs::rename(&tmp, path)
}

/// What a run did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Summary {
    /// Chunk files written.
    pub chunks_written: u64,
    /// Chunks skipped because their file existed.
    pub chunks_skipped: u64,
    /// Games played.
    pub games: u64,
    /// Records written.
    pub positions: u64,
    /// Records dropped as repeats within their chunk.
    pub duplicates: u64,
}

/// A chunk being filled by the workers.
struct PendingChunk {
    chunk: u64,
    games: Vec<Option<GameRecord>>,
    done: u64,
}

fn duration_text(secs: f64) -> String {
    let s = secs.max(0.0).round() as u64;
    format!("{}h{:02}m{:02}s", s / 3600, s / 60 % 60, s % 60)
}

/// Generates every missing chunk of `config.chunks`, games spread over
/// `config.threads` workers; progress and a summary go to stderr.
pub fn generate(config: &GensfenConfig) -> std::io::Result<Summary> {
    std::fs::create_dir_all(&config.out_dir)?;
    let mut summary = Summary::default();
    let mut pending: Vec<PendingChunk> = Vec::new();
    for chunk in config.chunks.clone() {
        if chunk_path(&config.out_dir, chunk).exists() {
            summary.chunks_skipped += 1;
        } else {
            pending.push(PendingChunk {
                chunk,
                games: vec![None; config.games_per_chunk as usize],
                done: 0,
            });
        }
    }
    let per_chunk = config.games_per_chunk;
    let total_games = pending.len() as u64 * per_chunk;
    let start = Instant::now();
    let next_job = AtomicUsize::new(0);
    let abort = AtomicBool::new(false);
    let chunk_ids: Vec<u64> = pending.iter().map(|p| p.chunk).collect();
    let (tx, rx) = mpsc::channel::<(usize, u64, GameRecord)>();
    let mut error = None;
    // Records played so far (before deduplication), for the progress line.
    let mut played = 0u64;
    std::thread::scope(|scope| {
        for _ in 0..config.threads.max(1).min(total_games.max(1) as usize) {
            let tx = tx.clone();
            let (next_job, abort, chunk_ids) = (&next_job, &abort, &chunk_ids);
            let spawned = std::thread::Builder::new()
                .name("gensfen".into())
                .stack_size(16 << 20)
                .spawn_scoped(scope, move || {
                    let mut searcher = Searcher::new(config.hash_mb.max(1), 1);
                    searcher.set_network(config.network.clone());
                    while !abort.load(Ordering::Relaxed) {
                        let job = next_job.fetch_add(1, Ordering::Relaxed) as u64;
                        if job >= total_games {
                            break;
                        }
                        let (slot, game) = ((job / per_chunk) as usize, job % per_chunk);
                        let record = play_game(config, &mut searcher, chunk_ids[slot], game);
                        if tx.send((slot, game, record)).is_err() {
                            break;
                        }
                    }
                });
            if let Err(e) = spawned {
                error = Some(e);
                abort.store(true, Ordering::Relaxed);
                break;
            }
        }
        drop(tx);
        let interval = Duration::from_secs(config.progress_secs.max(1));
        let mut next_report = Instant::now() + interval;
        loop {
            let wait = next_report.saturating_duration_since(Instant::now());
            match rx.recv_timeout(wait) {
                Ok((slot, game, record)) => {
                    summary.games += 1;
                    played += record.positions.len() as u64;
                    let entry = &mut pending[slot];
                    entry.games[game as usize] = Some(record);
                    entry.done += 1;
                    if entry.done == per_chunk && error.is_none() {
                        let games: Vec<GameRecord> = std::mem::take(&mut entry.games)
                            .into_iter()
                            .flatten()
                            .collect();
                        let (records, dropped) = dedup_chunk(&games);
                        let path = chunk_path(&config.out_dir, entry.chunk);
                        match write_chunk(&path, &records) {
                            Ok(()) => {
                                summary.chunks_written += 1;
                                summary.positions += records.len() as u64;
                                summary.duplicates += dropped;
                            }
                            Err(e) => {
                                error = Some(e);
                                abort.store(true, Ordering::Relaxed);
                            }
                        }
                    }
                }
                Err(mpsc::RecvTimeoutError::Timeout) => {}
                Err(mpsc::RecvTimeoutError::Disconnected) => break,
            }
            if config.progress_secs > 0 && Instant::now() >= next_report {
                next_report += interval;
                let secs = start.elapsed().as_secs_f64();
                let eta = if summary.games > 0 {
                    duration_text(
                        secs / summary.games as f64 * (total_games - summary.games) as f64,
                    )
                } else {
                    "?".to_string()
                };
                eprintln!(
                    "gensfen: games {}/{} chunks {}/{} positions {} ({:.0}/s) elapsed {} ETA {}",
                    summary.games,
                    total_games,
                    summary.chunks_written,
                    pending.len(),
                    played,
                    played as f64 / secs.max(1e-9),
                    duration_text(secs),
                    eta
                );
            }
        }
    });
    if let Some(e) = error {
        return Err(e);
    }
    let secs = start.elapsed().as_secs_f64();
    eprintln!(
        "gensfen: done: {} chunks written, {} skipped (existing), {} games, {} positions \
         ({} duplicates dropped) in {} ({:.0} positions/s)",
        summary.chunks_written,
        summary.chunks_skipped,
        summary.games,
        summary.positions,
        summary.duplicates,
        duration_text(secs),
        summary.positions as f64 / secs.max(1e-9)
    );
    Ok(summary)
}

#[cfg(test)]
#[path = "gensfen_tests.rs"]
mod tests;
