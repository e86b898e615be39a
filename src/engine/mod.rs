//! The engine façade: what a protocol front-end drives. It owns the
//! position, the searcher and the tsume solver, runs every search on a
//! worker thread, and reports through [`EngineOutput`], so the front-end
//! stays responsive to `stop`, `ponderhit`, `isready` and `quit`.

pub mod options;

use crate::book::{Book, BookPolicy};
use crate::mate::{MateResult, MateSolver};
use crate::nnue::Network;
use crate::position::Position;
use crate::search::{
    BestMove, Bound, Limits, Reporter, Score, SearchControl, SearchInfo, SearchOptions, Searcher,
    TimePlan,
};
pub use options::OptionError;
use options::{EngineOptions, OptionEffect, NEVER_RESIGN};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// Where the engine's results go; implemented by the protocol layer.
pub trait EngineOutput: Reporter + Send + Sync {
    /// The answer to a `go` (exactly one per `go`, unless silenced by
    /// `gameover`). `ponder` moves are legal after the best move.
    fn best_move(&self, best: &BestMove);
    /// The answer to a `go mate` (exactly one).
    fn checkmate(&self, result: &MateResult);
    /// Which PV lines to print from now on: at most one per `interval_ms`
    /// (0: all), and aspiration fail-low/high lines only if `fail_bounds`.
    fn set_pv_output(&self, _interval_ms: u64, _fail_bounds: bool) {}
    /// Progress of a running `go mate` (about once a second).
    fn mate_progress(&self, _progress: &crate::mate::MateProgress) {}
}

/// A search or tsume running on its worker thread.
struct Job {
    control: Arc<SearchControl>,
    /// Set by `gameover`: the result is no longer wanted.
    silenced: Arc<AtomicBool>,
    /// Set by the worker just before its answer goes out: it is about to
    /// return, so joining it cannot block for long.
    answered: Arc<AtomicBool>,
    /// The `go` limits, to plan the clock at `ponderhit`.
    limits: Limits,
    handle: JoinHandle<Tools>,
}

/// What a worker hands back when it finishes.
struct Tools {
    searcher: Option<Searcher>,
    mate: Option<MateSolver>,
}

/// The engine state behind the protocol.
pub struct Engine {
    options: EngineOptions,
    position: Position,
    output: Arc<dyn EngineOutput>,
    /// `None` until first needed (so `usi` stays instant) or while a
    /// worker holds it.
    searcher: Option<Searcher>,
    searcher_hash_mb: usize,
    mate: Option<MateSolver>,
    mate_hash_mb: usize,
    job: Option<Job>,
    /// The NNUE network from `EvalFile` (the built-in one by default), or
    /// `None` for the linear evaluation (`<linear>`).
    network: Option<Arc<Network>>,
    /// The opening book from `BookFile` (loaded when first needed).
    book: Option<Book>,
    /// Feeds the book's random picks.
    book_random: u64,
    /// `setoption`s received during a search, applied when it ends.
    deferred_options: Vec<(String, Option<String>)>,
}

/// What became of a valid `setoption`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OptionApplied {
    /// Applied at once.
    Now,
    /// A search is running: the option applies when it ends, so no search
    /// ever sees its settings (or its tables) change under it.
    AfterSearch,
}

impl Engine {
    /// An idle engine at the start position; allocates nothing big yet.
    pub fn new(output: Arc<dyn EngineOutput>) -> Engine {
        Engine {
            options: EngineOptions::default(),
            position: Position::startpos(),
            output,
            searcher: None,
            searcher_hash_mb: 0,
            mate: None,
            mate_hash_mb: 0,
            job: None,
            network: Some(crate::eval::default_network()),
            book: None,
            book_random: std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.as_nanos() as u64),
            deferred_options: Vec::new(),
        }
    }

    /// Current options.
    pub fn options(&self) -> &EngineOptions {
        &self.options
    }

    /// The position the next `go` searches.
    pub fn position(&self) -> &Position {
        &self.position
    }

    /// Sets the position for the next `go`.
    pub fn set_position(&mut self, position: Position) {
        self.position = position;
    }

    /// Whether a search or tsume is running (or waiting for `stop`).
    pub fn is_busy(&mut self) -> bool {
        self.reap_finished();
        self.job.is_some()
    }

    /// Applies `setoption`; on error nothing changes.
    /// The value is checked at once; during a search it is applied when
    /// the search ends.
    pub fn set_option(
        &mut self,
        name: &str,
        value: Option<&str>,
    ) -> Result<OptionApplied, OptionError> {
        if self.is_busy() {
            self.options.clone().set(name, value)?;
            self.deferred_options
                .push((name.to_string(), value.map(str::to_string)));
            return Ok(OptionApplied::AfterSearch);
        }
        self.apply_option(name, value)?;
        Ok(OptionApplied::Now)
    }

    fn apply_option(&mut self, name: &str, value: Option<&str>) -> Result<(), OptionError> {
        match self.options.set(name, value)? {
            OptionEffect::ClearHash => self.new_game(),
            OptionEffect::LoadEvalFile(file) => self.load_eval_file(&file)?,
            OptionEffect::LoadBookFile(file) => self.load_book_file(&file)?,
            OptionEffect::None => {}
        }
        Ok(())
    }

    /// Loads the book `file` names (`<internal>`: the built-in one;
    /// `<empty>`: none). Bad lines are reported and skipped; a missing file
    /// is an error and the previous book stays.
    fn load_book_file(&mut self, file: &str) -> Result<(), OptionError> {
        let error = |message: String| OptionError::File {
            option: "BookFile",
            message,
        };
        let text = match file.trim() {
            "<internal>" => crate::book::INTERNAL.to_string(),
            f if crate::nnue::load::is_empty_value(f) => String::new(),
            f => {
                let path = crate::nnue::load::candidates(f)
                    .into_iter()
                    .find(|p| p.is_file())
                    .ok_or_else(|| error(format!("{f}: no such file")))?;
                std::fs::read_to_string(&path)
                    .map_err(|e| error(format!("{}: {e}", path.display())))?
            }
        };
        let (book, errors) = Book::parse(&text);
        for e in errors.iter().take(5) {
            self.output.info_string(&format!(
                "error: BookFile {}: {e}; line skipped",
                file.trim()
            ));
        }
        if errors.len() > 5 {
            self.output.info_string(&format!(
                "error: BookFile {}: {} more bad lines skipped",
                file.trim(),
                errors.len() - 5
            ));
        }
        self.book = Some(book);
        self.options.book_file = file.trim().to_string();
        Ok(())
    }

    /// A book move for the current position, if the book options allow
    /// one: announced with an `info` line, or `None` to search.
    fn book_move(&mut self, limits: &Limits) -> Option<BestMove> {
        if !self.options.own_book
            || limits.infinite
            || limits.ponder
            || self.position.game_ply() > self.options.book_moves
        {
            return None;
        }
        if self.book.is_none() {
            let file = self.options.book_file.clone();
            // The option was accepted when set, so only a file deleted
            // since can fail here: then play without a book.
            if let Err(e) = self.load_book_file(&file) {
                self.output.info_string(&format!("error: {e}"));
                self.book = Some(Book::default());
            }
        }
        self.book_random = self
            .book_random
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let random = self.book_random >> 11;
        if random % 100 < u64::from(self.options.book_ignore_rate) {
            return None;
        }
        let policy = if self.options.book_by_count {
            BookPolicy::Weighted
        } else {
            BookPolicy::Best
        };
        let chosen = self.book.as_ref()?.pick(&self.position, policy, random)?;
        let pv: Vec<String> = std::iter::once(chosen.mv)
            .chain(chosen.ponder)
            .map(|m| m.to_string())
            .collect();
        self.output.info(&crate::search::SearchInfo {
            depth: 1,
            seldepth: 1,
            time_ms: 0,
            nodes: 0,
            nps: 0,
            hashfull: 0,
            score: crate::search::Score::Cp(chosen.value),
            bound: crate::search::Bound::Exact,
            multipv: 1,
            pv: std::iter::once(chosen.mv).chain(chosen.ponder).collect(),
        });
        self.output.info_string(&format!(
            "book move {} (value {}, depth {}, count {})",
            pv.join(" "),
            chosen.value,
            chosen.depth,
            chosen.count
        ));
        Some(BestMove::Move {
            best: chosen.mv,
            ponder: chosen.ponder,
        })
    }

    /// Switches to the evaluation `file` names (see
    /// [`crate::eval::EvalChoice`]); on error the previous one stays.
    fn load_eval_file(&mut self, file: &str) -> Result<(), OptionError> {
        use crate::eval::EvalChoice;
        let net = match EvalChoice::parse(file) {
            EvalChoice::BuiltIn => {
                self.network = Some(crate::eval::default_network());
                self.options.eval_file = "<empty>".to_string();
                return Ok(());
            }
            EvalChoice::Linear => {
                self.network = None;
                self.options.eval_file = "<linear>".to_string();
                return Ok(());
            }
            EvalChoice::File(file) => {
                crate::eval::load_network(&file).map_err(|e| OptionError::File {
                    option: "EvalFile",
                    message: e.to_string(),
                })?
            }
        };
        self.output.info_string(&format!(
            "EvalFile {file}: {} network, L1 {}",
            net.feature_set().name(),
            net.l1()
        ));
        self.network = Some(Arc::new(net));
        self.options.eval_file = file.to_string();
        Ok(())
    }

    /// `isready`: does the heavy set-up (tables at their configured sizes)
    /// when idle. During a search it does nothing, so the search goes on.
    pub fn prepare(&mut self) {
        if self.is_busy() {
            return;
        }
        self.ensure_searcher();
        self.ensure_mate_solver();
    }

    /// `usinewgame` / `ClearHash`: forget the previous game (fast).
    pub fn new_game(&mut self) {
        self.finish_job(true);
        if let Some(s) = self.searcher.as_mut() {
            s.new_game();
        }
        if let Some(m) = self.mate.as_mut() {
            m.clear();
        }
    }

    /// Creates or resizes the searcher to the configured hash and threads.
    fn ensure_searcher(&mut self) {
        let hash = self.options.hash_mb;
        if self.searcher.is_none() || self.searcher_hash_mb != hash {
            match self.searcher.as_mut() {
                Some(s) => s.resize_hash(hash),
                None => self.searcher = Some(Searcher::new(hash, self.options.threads)),
            }
            self.searcher_hash_mb = hash;
            if cfg!(windows) {
                let pages = match self.searcher.as_ref() {
                    Some(s) if s.hash_in_large_pages() => "large pages",
                    _ => "ordinary pages (large pages need the Lock pages in memory right)",
                };
                self.output
                    .info_string(&format!("USI_Hash {hash} MB in {pages}"));
            }
        }
        if let Some(searcher) = self.searcher.as_mut() {
            searcher.set_threads(self.options.threads);
        }
    }

    /// Creates or resizes the tsume solver to the configured table size.
    fn ensure_mate_solver(&mut self) {
        let hash = self.options.mate_hash_mb;
        if self.mate.is_none() || self.mate_hash_mb != hash {
            match self.mate.as_mut() {
                Some(m) => m.resize(hash),
                None => self.mate = Some(MateSolver::new(hash)),
            }
            self.mate_hash_mb = hash;
        }
    }

    /// `go`: starts a search on a worker thread; its `bestmove` comes
    /// through the output. In infinite or ponder mode the result is held
    /// back until `stop` (or `ponderhit`).
    pub fn go(&mut self, mut limits: Limits) {
        let received = Instant::now();
        self.finish_job(false);
        // ConsiderationMode shows no fail-low/high lines, whatever OutputFailLHPV says.
        self.output.set_pv_output(
            self.options.pv_interval_ms,
            self.options.output_fail_lh_pv && !self.options.consideration_mode,
        );
        if let Some(best) = self.book_move(&limits) {
            self.output.best_move(&best);
            return;
        }
        // NodesLimit / DepthLimit cap every search, whatever `go` says.
        if self.options.nodes_limit > 0 {
            let cap = self.options.nodes_limit;
            limits.nodes = Some(limits.nodes.map_or(cap, |n| n.min(cap)));
        }
        if self.options.depth_limit > 0 {
            let cap = self.options.depth_limit;
            limits.depth = Some(limits.depth.map_or(cap, |d| d.min(cap)));
        }
        let plan = if limits.ponder {
            None
        } else {
            self.plan(&limits, received)
        };
        let control = Arc::new(SearchControl::new(received, plan, limits.ponder));
        let silenced = Arc::new(AtomicBool::new(false));
        let options = SearchOptions {
            multi_pv: self.options.multi_pv,
            entering_king_rule: self.options.entering_king_rule,
            max_moves_to_draw: self.options.max_moves_to_draw,
            draw_value: self.options.draw_value,
            skill_level: self.options.skill_level,
            consideration_mode: self.options.consideration_mode,
        };
        let mut searcher = {
            self.ensure_searcher();
            self.searcher.take().expect("ensure_searcher made one")
        };
        searcher.set_network(self.network.clone());
        let mate_budget = self.root_mate_budget(&limits, plan);
        let resign_value = self.options.resign_value;
        let mut solver = match mate_budget {
            Some(_) => {
                self.ensure_mate_solver();
                self.mate.take()
            }
            None => None,
        };
        let position = self.position.clone();
        let output = Arc::clone(&self.output);
        let answered = Arc::new(AtomicBool::new(false));
        let (worker_control, worker_silenced, worker_answered, worker_limits) = (
            Arc::clone(&control),
            Arc::clone(&silenced),
            Arc::clone(&answered),
            limits.clone(),
        );
        let handle = std::thread::Builder::new()
            .name("search".into())
            .stack_size(crate::mate::SOLVER_STACK)
            .spawn(move || {
                let mate = match (solver.as_mut(), mate_budget) {
                    (Some(solver), Some(budget)) => {
                        root_mate(solver, &position, budget, &worker_control, &*output)
                    }
                    _ => None,
                };
                let best = match mate {
                    Some(best) => best,
                    None => {
                        let outcome = searcher.search(
                            &position,
                            &worker_limits,
                            &options,
                            &worker_control,
                            &*output,
                        );
                        if !worker_limits.infinite && is_hopeless(outcome.score, resign_value) {
                            BestMove::Resign
                        } else {
                            outcome.best
                        }
                    }
                };
                // USI: no bestmove in infinite/ponder mode before stop/ponderhit.
                while (worker_limits.infinite || worker_control.is_pondering())
                    && !worker_control.is_stopped()
                {
                    std::thread::sleep(Duration::from_millis(1));
                }
                // Before the answer goes out: a command sent on seeing it
                // must find the job done (joining waits for the print).
                worker_answered.store(true, Ordering::Release);
                if !worker_silenced.load(Ordering::Acquire) {
                    output.best_move(&best);
                }
                Tools {
                    searcher: Some(searcher),
                    mate: solver,
                }
            })
            .expect("spawning the search thread");
        self.job = Some(Job {
            control,
            silenced,
            answered,
            limits,
            handle,
        });
    }

    /// `go mate`: solves a tsume on a worker thread; exactly one
    /// `checkmate` answer comes through the output. `time_ms` `None` means
    /// until `stop`; `nodes` caps the solver's nodes (`go mate nodes N`).
    pub fn go_mate(&mut self, time_ms: Option<u64>, nodes: Option<u64>) {
        let received = Instant::now();
        self.finish_job(false);
        // Keep a little of the margin, but never most of a short limit.
        let deadline = time_ms.map(|ms| {
            received
                + Duration::from_millis(
                    ms.saturating_sub(self.options.time.network_delay_ms.min(ms / 4))
                        .max(1),
                )
        });
        let control = Arc::new(SearchControl::new(received, None, false));
        let silenced = Arc::new(AtomicBool::new(false));
        let mut solver = {
            self.ensure_mate_solver();
            self.mate.take().expect("ensure_mate_solver made one")
        };
        solver.set_node_limit(nodes);
        let position = self.position.clone();
        let output = Arc::clone(&self.output);
        let answered = Arc::new(AtomicBool::new(false));
        let (worker_control, worker_silenced, worker_answered) = (
            Arc::clone(&control),
            Arc::clone(&silenced),
            Arc::clone(&answered),
        );
        let handle = std::thread::Builder::new()
            .name("mate".into())
            .stack_size(crate::mate::SOLVER_STACK)
            .spawn(move || {
                let result = solver.solve_reporting(
                    &position,
                    deadline,
                    worker_control.stop_flag(),
                    &mut |progress| output.mate_progress(progress),
                );
                solver.set_node_limit(None);
                worker_answered.store(true, Ordering::Release);
                if !worker_silenced.load(Ordering::Acquire) {
                    if let MateResult::Mate(line) = &result {
                        let stats = solver.stats();
                        if !stats.shortest {
                            output.info_string(&partial_mate_note(line.len(), stats.proven_len));
                        }
                    }
                    output.checkmate(&result);
                }
                Tools {
                    searcher: None,
                    mate: Some(solver),
                }
            })
            .expect("spawning the mate thread");
        self.job = Some(Job {
            control,
            silenced,
            answered,
            limits: Limits::default(),
            handle,
        });
    }

    /// `stop`: ends the running search; its answer follows at once.
    pub fn stop(&mut self) {
        self.finish_job(false);
    }

    /// `ponderhit`: the expected move was played; the clock starts now,
    /// from the `go ponder` times or from times given with `ponderhit`.
    pub fn ponderhit(&mut self, times: Option<Limits>) {
        let now = Instant::now();
        let Some(job) = &self.job else {
            return;
        };
        if !job.control.is_pondering() {
            return;
        }
        let mut limits = times.unwrap_or_else(|| job.limits.clone());
        limits.ponder = false;
        job.control.ponderhit(self.plan(&limits, now));
    }

    /// `gameover` (and `usinewgame`): stops any search without answering it.
    pub fn gameover(&mut self) {
        self.finish_job(true);
    }

    /// `quit`: stops everything and waits for the workers.
    pub fn quit(&mut self) {
        self.finish_job(false);
    }

    /// How long the tsume solver may look for a mate before a normal
    /// search: a small share of the planned time, as a forced mate found by
    /// df-pn is often far beyond the alpha-beta horizon. `None` for
    /// searches bounded by depth or nodes, which stay reproducible.
    fn root_mate_budget(&self, limits: &Limits, plan: Option<TimePlan>) -> Option<Duration> {
        let cap = Duration::from_millis(self.options.root_mate_ms);
        if cap.is_zero()
            || limits.depth.is_some()
            || limits.nodes.is_some()
            || !limits.searchmoves.is_empty()
        {
            return None;
        }
        match plan {
            Some(plan) => Some((plan.soft / 10).min(cap)),
            // Not while pondering: the solver's deadline is fixed when it
            // starts, so a `ponderhit` during it could not cut it short, and
            // a 100 ms solve would overrun a 100 ms byoyomi.
            None if limits.infinite => Some(cap),
            None => None,
        }
    }

    fn plan(&self, limits: &Limits, start: Instant) -> Option<TimePlan> {
        TimePlan::new(
            limits,
            self.position.side_to_move(),
            self.position.game_ply(),
            &self.options.time,
            start,
        )
    }

    /// Stops the running job (silently if `silence`) and takes its tools back.
    fn finish_job(&mut self, silence: bool) {
        let Some(job) = self.job.take() else {
            return;
        };
        if silence {
            job.silenced.store(true, Ordering::Release);
        }
        job.control.stop();
        self.take_back(job.handle);
    }

    /// Takes the tools back from a worker that has finished, or has sent
    /// its answer and is returning (so a `setoption` right after `bestmove`
    /// applies at once).
    fn reap_finished(&mut self) {
        if self
            .job
            .as_ref()
            .is_some_and(|j| j.handle.is_finished() || j.answered.load(Ordering::Acquire))
        {
            let job = self.job.take().expect("checked above");
            self.take_back(job.handle);
        }
    }

    /// Applies the `setoption`s that arrived during the search just ended.
    fn apply_deferred_options(&mut self) {
        for (name, value) in std::mem::take(&mut self.deferred_options) {
            if let Err(e) = self.apply_option(&name, value.as_deref()) {
                self.output
                    .info_string(&format!("error: {e}; keeping the old value"));
            }
        }
    }

    fn take_back(&mut self, handle: JoinHandle<Tools>) {
        match handle.join() {
            Ok(tools) => {
                if tools.searcher.is_some() {
                    self.searcher = tools.searcher;
                }
                if tools.mate.is_some() {
                    self.mate = tools.mate;
                }
            }
            // A panicking worker lost its tables; they are rebuilt on demand.
            Err(_) => self
                .output
                .info_string("error: the search thread failed; tables will be rebuilt"),
        }
        self.apply_deferred_options();
    }
}

/// Whether a search score is bad enough to resign under `ResignValue`:
/// mated by force, or at or below `-resign_value` centipawns.
/// The `info string` before a `checkmate` that is not known to be the
/// shortest: a mate of `proven` plies is proven; the line shown has
/// `shown` plies, fewer when it was read from the table after the clock
/// ran out and its defence is not the longest.
fn partial_mate_note(shown: usize, proven: i32) -> String {
    if shown as i32 >= proven {
        format!(
            "mate in {shown} plies, the shortest proven so far: a shorter mate was not \
             ruled out in time"
        )
    } else {
        format!(
            "mate proven within {proven} plies, a shorter one not ruled out in time; the \
             line shown ({shown} plies) was read from the table when time ran out, and its \
             defence may not be the longest"
        )
    }
}

fn is_hopeless(score: Option<Score>, resign_value: i32) -> bool {
    if resign_value >= NEVER_RESIGN {
        return false;
    }
    match score {
        Some(Score::Mate(n)) => n <= 0,
        Some(Score::Cp(cp)) => cp <= -resign_value,
        None => false,
    }
}

/// Runs the tsume solver on the root for `budget`; on a forced mate,
/// reports it as a principal variation and returns the first move.
fn root_mate(
    solver: &mut MateSolver,
    position: &Position,
    budget: Duration,
    control: &SearchControl,
    reporter: &dyn Reporter,
) -> Option<BestMove> {
    if position.in_check() {
        return None;
    }
    let start = Instant::now();
    let MateResult::Mate(moves) = solver.solve(position, Some(start + budget), control.stop_flag())
    else {
        return None;
    };
    let first = *moves.first()?;
    let ms = control.elapsed().as_millis() as u64;
    let nodes = solver.nodes();
    reporter.info(&SearchInfo {
        depth: moves.len() as u32,
        seldepth: moves.len() as u32,
        time_ms: ms,
        nodes,
        nps: nodes * 1000 / ms.max(1),
        hashfull: 0,
        score: Score::Mate(moves.len() as i32),
        bound: Bound::Exact,
        multipv: 1,
        pv: moves.clone(),
    });
    Some(BestMove::Move {
        best: first,
        ponder: moves.get(1).copied(),
    })
}

impl Drop for Engine {
    fn drop(&mut self) {
        self.finish_job(true);
    }
}

#[cfg(test)]
mod tests {
    use super::partial_mate_note;

    #[test]
    fn a_partial_mate_names_the_proven_bound_when_its_line_is_shorter() {
        let same = partial_mate_note(105, 105);
        assert!(
            same.starts_with("mate in 105 plies, the shortest proven so far"),
            "{same}"
        );
        let shorter = partial_mate_note(51, 105);
        assert!(
            shorter.starts_with("mate proven within 105 plies"),
            "{shorter}"
        );
        assert!(shorter.contains("(51 plies)"), "{shorter}");
    }
}
