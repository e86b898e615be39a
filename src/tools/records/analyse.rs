//! Headless analysis of a recorded game: search every position, write the
//! evaluation and the principal variation into the record the way GUIs
//! graph them (`*#評価値=N`, `*#読み筋=▲７六歩△３四歩`, Black's view, as
//! ShogiHome writes them), and mark the moves that lose more than 150 cp
//! (`?`) or 400 cp (`??`) from the mover's view.
//!
//! The evaluation attached to move N is that of the position after it;
//! the start position's goes into the game comments.

use super::chart;
use crate::moves::Move;
use crate::nnue::Network;
use crate::position::Position;
use crate::record::notation;
use crate::record::{Record, RecordError};
use crate::search::{
    BestMove, Limits, Reporter, Score, SearchControl, SearchInfo, SearchOptions, Searcher,
    TimeOptions, TimePlan,
};
use crate::types::Color;
use std::sync::{Arc, Mutex};
use std::time::Instant;

/// Centipawns a move must lose to be marked `?`.
pub const DUBIOUS_CP: i32 = 150;
/// Centipawns a move must lose to be marked `??`.
pub const BLUNDER_CP: i32 = 400;
/// Evaluations are clamped to this for losses and curves, so that a mate
/// found a move later does not count as a loss of thousands.
pub const CLAMP_CP: i32 = 2000;
/// Score written for mate in 0 (mate in n is this minus n), as USI engines
/// and GUIs scale it.
pub const MATE_CP: i32 = 32_000;

/// Comment prefixes this module writes; older ones are replaced when a
/// record is analysed again.
const OWN_PREFIXES: [&str; 6] = ["#評価値=", "#読み筋=", "#詰み=", "#候補", "#?", "#解析="];

/// How long and how widely to search each position.
#[derive(Clone)]
pub struct AnalyseOptions {
    /// Milliseconds per position.
    pub movetime_ms: Option<u64>,
    /// Nodes per position.
    pub nodes: Option<u64>,
    /// Depth per position.
    pub depth: Option<u32>,
    /// Lines per position (MultiPV).
    pub multipv: usize,
    /// Hash table size.
    pub hash_mb: usize,
    /// Search threads.
    pub threads: usize,
    /// NNUE network, or `None` for the linear evaluation.
    pub network: Option<Arc<Network>>,
}

impl Default for AnalyseOptions {
    fn default() -> Self {
        AnalyseOptions {
            movetime_ms: Some(1000),
            nodes: None,
            depth: None,
            multipv: 1,
            hash_mb: 64,
            threads: 1,
            network: None,
        }
    }
}

/// One line of a position's search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    /// Score from the side to move's view.
    pub score: Score,
    /// The moves, from the position.
    pub pv: Vec<Move>,
}

/// The search of one position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PositionAnalysis {
    /// Best line first; empty when the side to move has no move.
    pub lines: Vec<Line>,
    /// Score of the best line (side to move's view).
    pub score: Score,
    /// Nodes searched.
    pub nodes: u64,
}

impl PositionAnalysis {
    /// The recommended move, if any.
    pub fn best(&self) -> Option<Move> {
        self.lines.first().and_then(|l| l.pv.first().copied())
    }
}

/// `Mate(n)` as a centipawn number: ±(32000 − n).
pub fn score_cp(score: Score) -> i32 {
    match score {
        Score::Cp(cp) => cp,
        Score::Mate(n) if n > 0 => MATE_CP - n,
        Score::Mate(n) => -MATE_CP - n,
    }
}

/// `score` (side to move's view) as centipawns from Black's view.
fn black_view(score: Score, to_move: Color) -> i32 {
    match to_move {
        Color::Black => score_cp(score),
        Color::White => -score_cp(score),
    }
}

/// How bad a move was.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Mark {
    /// Lost more than [`DUBIOUS_CP`] (`?`).
    Dubious,
    /// Lost more than [`BLUNDER_CP`] (`??`).
    Blunder,
}

impl Mark {
    /// `?` or `??`.
    pub fn symbol(self) -> &'static str {
        match self {
            Mark::Dubious => "?",
            Mark::Blunder => "??",
        }
    }

    fn word(self) -> &'static str {
        match self {
            Mark::Dubious => "疑問手",
            Mark::Blunder => "悪手",
        }
    }
}

/// A whole game's analysis: one entry per position, the start first.
#[derive(Clone, Debug)]
pub struct Analysis {
    /// The searched positions (moves + 1).
    pub positions: Vec<PositionAnalysis>,
    /// Side to move in each position.
    pub to_move: Vec<Color>,
    /// The moves played.
    pub moves: Vec<Move>,
}

impl Analysis {
    /// Evaluation of position `i` from Black's view, in centipawns (mates
    /// as ±(32000 − n)).
    pub fn black_cp(&self, i: usize) -> i32 {
        black_view(self.positions[i].score, self.to_move[i])
    }

    /// Centipawns move `i` (from 0) lost from its mover's view (0 when it
    /// was the move the search preferred), on clamped evaluations.
    pub fn loss(&self, i: usize) -> i32 {
        let before = &self.positions[i];
        if before.best() == Some(self.moves[i]) {
            return 0;
        }
        let clamp = |s: Score| score_cp(s).clamp(-CLAMP_CP, CLAMP_CP);
        let best = clamp(before.score);
        let after = -clamp(self.positions[i + 1].score);
        (best - after).max(0)
    }

    /// The mark of move `i`, if it deserves one.
    pub fn mark(&self, i: usize) -> Option<Mark> {
        match self.loss(i) {
            l if l > BLUNDER_CP => Some(Mark::Blunder),
            l if l > DUBIOUS_CP => Some(Mark::Dubious),
            _ => None,
        }
    }

    /// Black's-view evaluations of all positions, clamped.
    pub fn curve(&self) -> Vec<i32> {
        (0..self.positions.len())
            .map(|i| self.black_cp(i).clamp(-CLAMP_CP, CLAMP_CP))
            .collect()
    }
}

/// Keeps the latest line of each MultiPV index.
struct Collect(Mutex<Vec<Option<SearchInfo>>>);

impl Reporter for Collect {
    fn info(&self, info: &SearchInfo) {
        let mut lines = self.0.lock().unwrap_or_else(|e| e.into_inner());
        let k = info.multipv.max(1);
        if lines.len() < k {
            lines.resize(k, None);
        }
        lines[k - 1] = Some(info.clone());
    }
    fn info_string(&self, _: &str) {}
}

/// Searches one position.
fn search_position(
    searcher: &mut Searcher,
    pos: &Position,
    opts: &AnalyseOptions,
) -> PositionAnalysis {
    let limits = Limits {
        movetime: opts.movetime_ms,
        nodes: opts.nodes,
        depth: opts.depth,
        ..Limits::default()
    };
    let options = SearchOptions {
        multi_pv: opts.multipv.max(1),
        ..SearchOptions::default()
    };
    let time = TimeOptions {
        network_delay_ms: 0,
        ..TimeOptions::default()
    };
    let now = Instant::now();
    let plan = TimePlan::new(&limits, pos.side_to_move(), pos.game_ply(), &time, now);
    let control = SearchControl::new(now, plan, false);
    let collect = Collect(Mutex::new(Vec::new()));
    let outcome = searcher.search(pos, &limits, &options, &control, &collect);
    let mut lines: Vec<Line> = collect
        .0
        .into_inner()
        .unwrap_or_else(|e| e.into_inner())
        .into_iter()
        .flatten()
        .filter(|info| !info.pv.is_empty())
        .map(|info| Line {
            score: info.score,
            pv: info.pv,
        })
        .collect();
    let score = match outcome.best {
        BestMove::DeclareWin => Score::Mate(1),
        _ => outcome.score.unwrap_or(Score::Cp(0)),
    };
    if let BestMove::Move { best, ponder } = outcome.best {
        // The search's move leads: bring its line first, or make one.
        match lines.iter().position(|l| l.pv.first() == Some(&best)) {
            Some(i) => {
                let line = lines.remove(i);
                lines.insert(0, line);
            }
            None if lines.is_empty() => lines.push(Line {
                score,
                pv: Vec::new(),
            }),
            None => lines[0].pv.clear(),
        }
        if lines[0].pv.is_empty() {
            lines[0].pv = std::iter::once(best).chain(ponder).collect();
        }
        lines[0].score = score;
    }
    lines.truncate(opts.multipv.max(1));
    PositionAnalysis {
        lines,
        score,
        nodes: outcome.nodes,
    }
}

/// Searches every position of `record`. `progress` is called after each
/// move is judged with (move index from 0, the analysis so far).
pub fn analyse(
    record: &Record,
    opts: &AnalyseOptions,
    progress: &mut dyn FnMut(usize, &Analysis),
) -> Result<Analysis, RecordError> {
    let positions = record.positions()?;
    let mut searcher = Searcher::new(opts.hash_mb.max(1), opts.threads.max(1));
    searcher.set_network(opts.network.clone());
    let mut analysis = Analysis {
        positions: Vec::with_capacity(positions.len()),
        to_move: positions.iter().map(Position::side_to_move).collect(),
        moves: record.move_list(),
    };
    for (i, pos) in positions.iter().enumerate() {
        analysis
            .positions
            .push(search_position(&mut searcher, pos, opts));
        if i > 0 {
            progress(i - 1, &analysis);
        }
    }
    Ok(analysis)
}

/// The one-line report of move `i` (from 0) for the progress output.
pub fn progress_line(
    record: &Record,
    positions: &[Position],
    analysis: &Analysis,
    i: usize,
) -> String {
    let previous = i.checked_sub(1).map(|j| analysis.moves[j].to());
    let played = notation::move_text(&positions[i], analysis.moves[i], previous);
    let best = analysis.positions[i]
        .best()
        .map(|b| notation::move_text(&positions[i], b, previous))
        .unwrap_or_default();
    let mark = match analysis.mark(i) {
        Some(m) => format!("  {} loses {} cp", m.symbol(), analysis.loss(i)),
        None => String::new(),
    };
    let pad = |s: &str, w: usize| {
        format!(
            "{s}{}",
            " ".repeat(w.saturating_sub(crate::record::kif::display_width(s)))
        )
    };
    let line = format!(
        "[{:>4}/{}] {} eval {:>+6}  best {}{}",
        i + 1,
        record.moves.len(),
        pad(&played, 14),
        analysis.black_cp(i + 1),
        pad(&best, 14),
        mark
    );
    line.trim_end().to_string()
}

/// The comment lines for position `i`, whose previous move landed on
/// `previous`.
fn position_comments(
    pos: &Position,
    a: &PositionAnalysis,
    previous: Option<crate::types::Square>,
) -> Vec<String> {
    let to_move = pos.side_to_move();
    let mut out = Vec::new();
    if let Score::Mate(n) = a.score {
        let winner = if n > 0 { to_move } else { to_move.flip() };
        let word = if winner == Color::Black {
            "先手勝ち"
        } else {
            "後手勝ち"
        };
        out.push(format!("#詰み={word}:{}手", n.abs()));
    }
    out.push(format!("#評価値={}", black_view(a.score, to_move)));
    for (k, line) in a.lines.iter().enumerate() {
        let text = notation::line_text(pos, &line.pv, previous);
        if k == 0 {
            out.push(format!("#読み筋={text}"));
        } else {
            let cp = black_view(line.score, to_move);
            out.push(format!("#候補{}=評価値 {cp:+} {text}", k + 1));
        }
    }
    out
}

/// A copy of `record` with the analysis written into its comments.
pub fn annotate(record: &Record, analysis: &Analysis) -> Result<Record, RecordError> {
    let positions = record.positions()?;
    let mut out = record.clone();
    let keep = |c: &String| !OWN_PREFIXES.iter().any(|p| c.starts_with(p));
    out.comments.retain(keep);
    out.comments.extend(position_comments(
        &positions[0],
        &analysis.positions[0],
        None,
    ));
    for i in 0..out.moves.len() {
        let previous = i.checked_sub(1).map(|j| analysis.moves[j].to());
        let mut comments: Vec<String> = out.moves[i]
            .comments
            .iter()
            .filter(|c| keep(c))
            .cloned()
            .collect();
        comments.extend(position_comments(
            &positions[i + 1],
            &analysis.positions[i + 1],
            Some(analysis.moves[i].to()),
        ));
        if let Some(mark) = analysis.mark(i) {
            let best = analysis.positions[i]
                .best()
                .map(|b| notation::move_text(&positions[i], b, previous))
                .unwrap_or_default();
            comments.push(format!(
                "#{} {} 損失 {} 最善手 {best}",
                mark.symbol(),
                mark.word(),
                analysis.loss(i)
            ));
        }
        out.moves[i].comments = comments;
    }
    Ok(out)
}

/// The summary: marked moves per side and the evaluation curve as text.
pub fn summary(record: &Record, analysis: &Analysis) -> String {
    let handicapped = crate::record::handicap::is_handicap(&record.start_sfen);
    let mut out = format!(
        "Moves losing more than {BLUNDER_CP} cp (??) or {DUBIOUS_CP} cp (?) from the mover's view:\n"
    );
    for color in Color::ALL {
        let name = match color {
            Color::Black => record.black.as_deref(),
            Color::White => record.white.as_deref(),
        };
        let marked: Vec<(usize, Mark)> = (0..analysis.moves.len())
            .filter(|&i| analysis.to_move[i] == color)
            .filter_map(|i| analysis.mark(i).map(|m| (i, m)))
            .collect();
        let count = |m: Mark| marked.iter().filter(|(_, x)| *x == m).count();
        let list: Vec<String> = marked
            .iter()
            .map(|(i, m)| format!("{}{}", i + 1, m.symbol()))
            .collect();
        out.push_str(&format!(
            "  {} {}{}: {} ??, {} ?{}\n",
            notation::mark(color),
            crate::record::kakinoki::player_word(color, handicapped),
            name.map(|n| format!(" {n}")).unwrap_or_default(),
            count(Mark::Blunder),
            count(Mark::Dubious),
            if list.is_empty() {
                String::new()
            } else {
                format!(" (moves {})", list.join(" "))
            }
        ));
    }
    out.push_str(&format!(
        "Evaluation curve (Black's view, cp, clamped to ±{CLAMP_CP}; x = move number):\n"
    ));
    out.push_str(&chart::text(&analysis.curve(), CLAMP_CP));
    out
}

/// The curve as an SVG picture, with marked moves drawn as dots.
pub fn svg(record: &Record, analysis: &Analysis) -> String {
    let marks: Vec<Option<Mark>> = (0..analysis.moves.len())
        .map(|i| analysis.mark(i))
        .collect();
    let title = match (&record.black, &record.white) {
        (Some(b), Some(w)) => format!("▲{b} vs △{w}"),
        _ => "gyoku analysis".to_string(),
    };
    chart::svg(&analysis.curve(), CLAMP_CP, &marks, &title)
}
