//! USI front-end: reads commands on stdin, drives the [`Engine`], and is the
//! only writer of stdout.
//!
//! The main thread reads and dispatches lines; searches run on worker
//! threads, so `stop`, `ponderhit`, `isready` and `quit` act at once even
//! while the engine thinks.

pub mod parse;

use crate::engine::options::EngineOptions;
use crate::engine::{Engine, EngineOutput, OptionApplied};
use crate::mate::MateResult;
use crate::search::{BestMove, Bound, Reporter, Score, SearchInfo};
use crate::text::shorten;
use parse::{parse_go, parse_position, parse_setoption, MateTime};
use std::fmt::Write as _;
use std::io::{BufRead, Write};
use std::sync::{Arc, Mutex};

/// Engine name sent in `id name`.
pub const ENGINE_NAME: &str = concat!("gyoku ", env!("CARGO_PKG_VERSION"));
/// Author line sent in `id author`.
pub const ENGINE_AUTHOR: &str = "the gyoku developers";

/// Lines longer than this are not commands any GUI sends; they are dropped
/// unread so a runaway input cannot exhaust memory.
const MAX_LINE_BYTES: usize = 1 << 20;

/// Serialises every line written to the protocol stream and flushes each.
pub struct UsiWriter<W: Write + Send> {
    out: Mutex<W>,
    /// Which PV lines are printed (`PvInterval`, `OutputFailLHPV`).
    pv: Mutex<PvFilter>,
}

/// `PvInterval` and `OutputFailLHPV`: GUIs that redraw on every PV line
/// ask for fewer. A line held back is printed before `bestmove`, so the
/// last PV of a search is always shown.
#[derive(Debug, Default)]
struct PvFilter {
    interval_ms: u64,
    hide_bounds: bool,
    last_printed: Option<std::time::Instant>,
    held_back: Option<String>,
}

impl<W: Write + Send> UsiWriter<W> {
    /// Wraps `out`.
    pub fn new(out: W) -> Self {
        UsiWriter {
            out: Mutex::new(out),
            pv: Mutex::new(PvFilter::default()),
        }
    }

    /// Prints the PV line held back by `PvInterval`, if any.
    fn flush_held_pv(&self) {
        let held = self
            .pv
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .held_back
            .take();
        if let Some(line) = held {
            self.line(&line);
        }
    }

    /// Writes one line and flushes. A closed pipe is ignored: the GUI is gone.
    pub fn line(&self, text: &str) {
        let mut out = self.out.lock().unwrap_or_else(|e| e.into_inner());
        let _ = writeln!(out, "{text}").and_then(|_| out.flush());
    }
}

impl<W: Write + Send> Reporter for UsiWriter<W> {
    fn info(&self, info: &SearchInfo) {
        let line = format_info(info);
        let mut pv = self.pv.lock().unwrap_or_else(|e| e.into_inner());
        if pv.hide_bounds && info.bound != Bound::Exact {
            return;
        }
        let now = std::time::Instant::now();
        let due = pv
            .last_printed
            .is_none_or(|t| now.duration_since(t).as_millis() as u64 >= pv.interval_ms);
        if pv.interval_ms > 0 && !due {
            pv.held_back = Some(line);
            return;
        }
        pv.last_printed = Some(now);
        pv.held_back = None;
        drop(pv);
        self.line(&line);
    }

    fn info_string(&self, text: &str) {
        // One line, whatever the text holds.
        self.line(&format!("info string {}", text.replace(['\n', '\r'], " ")));
    }
}

impl<W: Write + Send> EngineOutput for UsiWriter<W> {
    fn best_move(&self, best: &BestMove) {
        self.flush_held_pv();
        if let Ok(mut pv) = self.pv.lock() {
            pv.last_printed = None;
        }
        self.line(&format_best_move(best));
    }

    fn set_pv_output(&self, interval_ms: u64, fail_bounds: bool) {
        let mut pv = self.pv.lock().unwrap_or_else(|e| e.into_inner());
        pv.interval_ms = interval_ms;
        pv.hide_bounds = !fail_bounds;
    }

    fn checkmate(&self, result: &MateResult) {
        self.line(&format_checkmate(result));
    }

    fn mate_progress(&self, p: &crate::mate::MateProgress) {
        let mut line = format!(
            "info time {} nodes {} nps {} hashfull {}",
            p.time_ms, p.nodes, p.nps, p.hashfull
        );
        if let Some(moves) = p.line {
            let _ = write!(line, " score mate {} pv", moves.len());
            for m in moves {
                let _ = write!(line, " {m}");
            }
        }
        self.line(&line);
    }
}

/// `info depth ... pv ...`, with `pv` last as GUIs split on spaces.
pub fn format_info(info: &SearchInfo) -> String {
    let mut s = format!(
        "info depth {} seldepth {}",
        info.depth.max(1),
        info.seldepth.max(info.depth).max(1)
    );
    let _ = write!(s, " multipv {}", info.multipv);
    match info.score {
        Score::Cp(cp) => {
            let _ = write!(s, " score cp {cp}");
        }
        Score::Mate(plies) => {
            let _ = write!(s, " score mate {plies}");
        }
    }
    match info.bound {
        Bound::Exact => {}
        Bound::Lower => s.push_str(" lowerbound"),
        Bound::Upper => s.push_str(" upperbound"),
    }
    let _ = write!(
        s,
        " nodes {} nps {} time {} hashfull {}",
        info.nodes, info.nps, info.time_ms, info.hashfull
    );
    if !info.pv.is_empty() {
        s.push_str(" pv");
        for m in &info.pv {
            let _ = write!(s, " {m}");
        }
    }
    s
}

/// `bestmove ...`.
pub fn format_best_move(best: &BestMove) -> String {
    match best {
        BestMove::Move {
            best,
            ponder: Some(p),
        } => format!("bestmove {best} ponder {p}"),
        BestMove::Move { best, ponder: None } => format!("bestmove {best}"),
        BestMove::Resign => "bestmove resign".to_string(),
        BestMove::DeclareWin => "bestmove win".to_string(),
    }
}

/// `checkmate ...`.
pub fn format_checkmate(result: &MateResult) -> String {
    match result {
        MateResult::Mate(moves) => {
            let mut s = "checkmate".to_string();
            for m in moves {
                let _ = write!(s, " {m}");
            }
            s
        }
        MateResult::NoMate => "checkmate nomate".to_string(),
        MateResult::Timeout => "checkmate timeout".to_string(),
    }
}

/// Whether the loop goes on after a command.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Flow {
    Continue,
    Quit,
}

/// The USI session: an engine plus the writer it reports through.
pub struct Session<W: Write + Send + 'static> {
    engine: Engine,
    out: Arc<UsiWriter<W>>,
}

impl<W: Write + Send + 'static> Session<W> {
    /// A session writing to `out`.
    pub fn new(out: W) -> Self {
        let out = Arc::new(UsiWriter::new(out));
        let engine = Engine::new(Arc::clone(&out) as Arc<dyn EngineOutput>);
        Session { engine, out }
    }

    fn error(&self, text: &str) {
        self.out.info_string(&format!("error: {text}"));
    }

    /// Handles one input line; returns false after `quit`.
    pub fn handle_line(&mut self, line: &str) -> bool {
        self.dispatch(line) == Flow::Continue
    }

    fn dispatch(&mut self, line: &str) -> Flow {
        let line = line.trim();
        let (command, rest) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
        let tokens: Vec<&str> = rest.split_whitespace().collect();
        match command {
            "" => {}
            "usi" => {
                self.out.line(&format!("id name {ENGINE_NAME}"));
                self.out.line(&format!("id author {ENGINE_AUTHOR}"));
                for option in EngineOptions::declarations() {
                    self.out.line(&option);
                }
                self.out.line("usiok");
            }
            "isready" => {
                self.engine.prepare();
                self.out.line("readyok");
            }
            "setoption" => match parse_setoption(rest) {
                Ok((name, value)) => match self.engine.set_option(&name, value.as_deref()) {
                    Ok(OptionApplied::Now) => {}
                    Ok(OptionApplied::AfterSearch) => self.out.info_string(&format!(
                        "setoption {}: applies when the current search ends",
                        shorten(&name)
                    )),
                    Err(e) => self.error(&format!("{e}; keeping the old value")),
                },
                Err(e) => self.error(&e.to_string()),
            },
            "usinewgame" => self.engine.new_game(),
            // shogiarena asks for the SPSA-tunable parameters this way.
            "usi_tunables" if cfg!(feature = "tune") => {
                self.out.line(&format!(
                    "info string shogiarena_tunables_json {}",
                    crate::search::params::tune_manifest_json()
                ));
                self.out.line("usi_tunablesok");
            }
            "position" => {
                // GUIs never send this mid-search; a search must not see its root change.
                self.engine.stop();
                match parse_position(&tokens) {
                    Ok(parsed) => {
                        for w in &parsed.warnings {
                            self.out.info_string(w);
                        }
                        self.engine.set_position(parsed.position);
                    }
                    Err(e) => self.error(&format!("{e}; keeping the previous position")),
                }
            }
            "go" => self.go(&tokens),
            "stop" => self.engine.stop(),
            "ponderhit" => {
                let times = if tokens.is_empty() {
                    None
                } else {
                    Some(parse_go(&tokens, self.engine.position()).limits)
                };
                self.engine.ponderhit(times);
            }
            "gameover" => {
                if !matches!(tokens.first(), Some(&("win" | "lose" | "draw"))) {
                    self.error("gameover expects win, lose or draw");
                }
                self.engine.gameover();
            }
            "quit" => {
                self.engine.quit();
                return Flow::Quit;
            }
            // Developer commands.
            "d" | "sfen" => self
                .out
                .info_string(&format!("sfen {}", self.engine.position().to_sfen())),
            _ => self.error(&format!("unknown command '{}'", shorten(command))),
        }
        Flow::Continue
    }

    fn go(&mut self, tokens: &[&str]) {
        let go = parse_go(tokens, self.engine.position());
        for w in &go.warnings {
            self.error(w);
        }
        if let Some(depth) = go.perft {
            self.engine.stop();
            let mut text = Vec::new();
            let threads = self.engine.options().threads;
            if crate::perft::print_divide(&mut text, self.engine.position(), depth, threads).is_ok()
            {
                for line in String::from_utf8_lossy(&text).lines() {
                    self.out.line(line);
                }
            }
            return;
        }
        match go.mate {
            Some(MateTime::Millis(ms)) => self.engine.go_mate(Some(ms), go.limits.nodes),
            Some(MateTime::Infinite) => self.engine.go_mate(None, go.limits.nodes),
            None => self.engine.go(go.limits),
        }
    }
}

/// Runs the USI loop on stdin/stdout; returns the exit code.
pub fn run() -> i32 {
    let mut session = Session::new(std::io::stdout());
    let stdin = std::io::stdin();
    let mut input = stdin.lock();
    let mut buffer = Vec::new();
    loop {
        buffer.clear();
        match read_line_bounded(&mut input, &mut buffer) {
            Ok(None) => break,
            Ok(Some(true)) => {
                let line = decode_line(&buffer);
                if !session.handle_line(&line) {
                    return 0;
                }
            }
            Ok(Some(false)) => {
                session.error(&format!("input line over {MAX_LINE_BYTES} bytes ignored"))
            }
            Err(e) => {
                session.error(&format!("reading stdin failed: {e}"));
                break;
            }
        }
    }
    // The GUI closed our input: behave as after `quit`.
    session.handle_line("quit");
    0
}

/// An input line as text: UTF-8 when it is valid UTF-8; otherwise, on
/// Windows, the system's ANSI code page (Shift_JIS on Japanese Windows,
/// which some GUIs use for file names in `setoption`); failing both, UTF-8
/// with the bad bytes replaced.
fn decode_line(bytes: &[u8]) -> std::borrow::Cow<'_, str> {
    if let Ok(text) = std::str::from_utf8(bytes) {
        return text.into();
    }
    #[cfg(windows)]
    if let Some(text) = crate::sys_windows::decode_ansi(bytes) {
        return text.into();
    }
    String::from_utf8_lossy(bytes)
}

/// Reads one line into `buffer` (without the newline). `None` at end of
/// input; `Some(false)` when the line was too long and was skipped.
fn read_line_bounded(
    input: &mut impl BufRead,
    buffer: &mut Vec<u8>,
) -> std::io::Result<Option<bool>> {
    let mut too_long = false;
    let mut any = false;
    loop {
        let chunk = input.fill_buf()?;
        if chunk.is_empty() {
            return Ok(if any { Some(!too_long) } else { None });
        }
        any = true;
        let (take, done) = match chunk.iter().position(|&b| b == b'\n') {
            Some(i) => (i + 1, true),
            None => (chunk.len(), false),
        };
        if !too_long {
            let body = &chunk[..if done { take - 1 } else { take }];
            if buffer.len() + body.len() > MAX_LINE_BYTES {
                too_long = true;
                buffer.clear();
            } else {
                buffer.extend_from_slice(body);
            }
        }
        input.consume(take);
        if done {
            return Ok(Some(!too_long));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_lines_are_skipped_and_the_next_is_read() {
        let mut data = vec![b'x'; MAX_LINE_BYTES + 10];
        data.extend_from_slice(b"\nisready\r\n");
        let mut input = std::io::Cursor::new(data);
        let mut buf = Vec::new();
        assert_eq!(
            read_line_bounded(&mut input, &mut buf).unwrap(),
            Some(false)
        );
        buf.clear();
        assert_eq!(read_line_bounded(&mut input, &mut buf).unwrap(), Some(true));
        assert_eq!(String::from_utf8_lossy(&buf).trim(), "isready");
        buf.clear();
        assert_eq!(read_line_bounded(&mut input, &mut buf).unwrap(), None);
    }

    #[test]
    fn lines_decode_as_utf8_first() {
        assert_eq!(
            decode_line("EvalFile 評価.bin".as_bytes()),
            "EvalFile 評価.bin"
        );
        // Shift_JIS "評価": the ANSI code page on Japanese Windows, else
        // replacement characters; never a panic.
        let text = decode_line(b"value \x95\x5d\x89\xbf.bin");
        assert!(
            text.starts_with("value ") && text.ends_with(".bin"),
            "{text}"
        );
    }

    #[test]
    fn info_puts_pv_last_and_marks_bounds() {
        let info = SearchInfo {
            depth: 3,
            seldepth: 5,
            time_ms: 10,
            nodes: 100,
            nps: 10000,
            hashfull: 1,
            score: Score::Mate(-2),
            bound: Bound::Upper,
            multipv: 1,
            pv: vec![crate::Move::from_usi("7g7f").unwrap()],
        };
        let s = format_info(&info);
        assert!(s.ends_with(" pv 7g7f"), "{s}");
        assert!(s.contains("score mate -2 upperbound"), "{s}");
        assert!(!s.contains("  "));
    }
}
