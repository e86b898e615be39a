//! Depth-limited df-pn (Nagai's depth-first proof-number search).
//!
//! OR nodes are the attacker to move (only checking moves), AND nodes the
//! defender (every legal evasion). Each node carries a *budget*: the most
//! plies a mate may take from it. An unlimited budget asks "is there a mate
//! at all"; a finite one asks "is there a mate within n plies", which the
//! solver uses to shrink a proof down to the shortest mate.
//!
//! Every ply counts, interpositions included: a defender's drop between
//! its king and a distant checker is resistance like any other reply, even
//! when the attacker just takes it (see the README's "Interpositions"). This
//! is the convention of KomoringHeights (MinLength) and of the YaneuraOu
//! mate sets, whose lengths the public test sets carry.
//!
//! Repetition: a child whose full position (board, hands, side) is already
//! on the current path is a disproof for the attacker (perpetual check is no
//! mate, and a shortest mate never repeats). Such disproofs, and every
//! disproof built on one, depend on the path: they are stored under the key
//! of the whole path from the root and read back only by a node reached by
//! that same path, where they hold. At the root every repetition is one of
//! the problem's own lines, so a disproof there is final either way.

use super::tt::{MateTable, Value, INFINITE, UNLIMITED};
use crate::hand::Hand;
use crate::moves::{Move, MoveList};
use crate::position::Position;
use crate::types::PieceType;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

/// Paths longer than this are cut (as a path-dependent disproof) so the
/// recursion stays within the stack. A [`Searcher::mid`] frame takes about
/// 640 bytes in a release build (the move list lives in
/// [`Searcher::expand`]'s frame), so 1800 plies need some 1.2 MB; the
/// engine gives its solver threads [`SOLVER_STACK`]. Long enough for the
/// longest classic problem (Microcosmos, 1525 plies): at 400 nothing over
/// 400 plies could ever be proven.
const MAX_PATH: usize = 1800;

/// Stack size for a thread that runs the solver: paths run up to 1800
/// plies deep, about 640 bytes of stack each.
pub const SOLVER_STACK: usize = 64 << 20;

/// How often (in nodes) the stop flag and the deadline are polled. A node
/// costs about 5 us on long problems, so 1024 let a deadline slip by 5 ms;
/// reading the clock every 16 nodes costs well under 1%.
const POLL_INTERVAL: u64 = 16;
/// Which side is to move at a node.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Node {
    /// Attacker to move (checks only).
    Or,
    /// Defender to move (in check).
    And,
}

impl Node {
    /// The node reached by playing `m` here.
    pub(crate) fn child(self) -> Node {
        match self {
            Node::Or => Node::And,
            Node::And => Node::Or,
        }
    }

    /// Table key of this node in `pos`.
    pub(crate) fn key(self, pos: &Position) -> u64 {
        pos.board_key()
    }

    /// What [`Node::key`] and [`Node::attacker_hand`] give for the child
    /// reached by the legal move `m` from this node in `pos`, and the
    /// child's full position key, all without playing `m`.
    pub(crate) fn child_keys(self, pos: &Position, m: Move) -> (u64, Hand, u64) {
        let key = pos.board_key_after(m);
        let hand = match self {
            // The attacker is moving: its hand changes with the move.
            Node::Or => pos.hand_after(m),
            Node::And => pos.hand(!pos.side_to_move()),
        };
        (key, hand, pos.key_after(m))
    }

    /// The attacker's hand in `pos`.
    pub(crate) fn attacker_hand(self, pos: &Position) -> Hand {
        match self {
            Node::Or => pos.hand(pos.side_to_move()),
            Node::And => pos.hand(!pos.side_to_move()),
        }
    }

    /// The moves searched here: checks at OR nodes, all moves at AND nodes.
    pub(crate) fn moves(self, pos: &Position) -> MoveList {
        match self {
            Node::Or => pos.legal_checks(),
            Node::And => pos.legal_moves(),
        }
    }
}

/// The key of the path that continues the path `path_key` with the
/// position whose full key is `full_key` (the root's path key is
/// `path_key_after(0, root)`): the sequence of positions, not just the last.
pub(crate) fn path_key_after(path_key: u64, full_key: u64) -> u64 {
    (path_key.rotate_left(17) ^ full_key)
        .wrapping_mul(0x9E37_79B9_7F4A_7C15)
        .max(1)
}

/// `budget + delta`, keeping an unlimited budget unlimited.
pub(crate) fn saturating_add(budget: i32, delta: i32) -> i32 {
    if budget >= UNLIMITED {
        UNLIMITED
    } else {
        budget + delta
    }
}

#[derive(Copy, Clone)]
struct Child {
    mv: Move,
    key: u64,
    hand: Hand,
    /// Key of the path from the root to this child.
    path_key: u64,
    /// Decided without the table (a repetition, or a budget too small to
    /// mate in): its value must not be re-read from the table, which never
    /// stores it, or the node would search it again forever.
    settled: bool,
    /// The child searched before this one in its delay chain (see
    /// [`link_delay_chains`]), if any.
    prev: Option<u8>,
    value: Value,
}

/// One df-pn search over a shared table.
pub(crate) struct Searcher<'a> {
    pub(crate) table: &'a mut MateTable,
    pub(crate) nodes: u64,
    /// `go mate nodes N`: abort once this many nodes are searched.
    pub(crate) node_limit: Option<u64>,
    pub(crate) deadline: Option<Instant>,
    pub(crate) stop: &'a AtomicBool,
    /// Set once the stop flag or the deadline fired; results are then partial.
    pub(crate) aborted: bool,
    /// Full keys of the positions on the current path.
    pub(crate) path: Vec<u64>,
    /// Key of the whole path from the root to the node being searched (see
    /// [`path_key_after`]).
    pub(crate) path_key: u64,
    /// Set when a path was cut at [`MAX_PATH`]: a disproof then rests on
    /// the cut, not on a repetition, and is no answer.
    pub(crate) path_cut: bool,
    /// Progress reports: when the solve started, when the next report is
    /// due, and where it goes.
    pub(crate) progress: Progress<'a>,
}

/// Where a solve reports its progress, about once a second.
pub(crate) struct Progress<'a> {
    pub(crate) started: Instant,
    pub(crate) next: Instant,
    pub(crate) report: &'a mut dyn FnMut(&super::MateProgress),
    /// The best mating line so far and the proof bound it came from
    /// (see `remember_line`): the answer if the clock runs out.
    pub(crate) best: Option<(i32, Vec<Move>)>,
}

/// Time between two progress reports.
const REPORT_EVERY: std::time::Duration = std::time::Duration::from_secs(1);

impl Searcher<'_> {
    /// Searches `pos` (a `node` with `budget`) until it is solved or its
    /// numbers reach the thresholds.
    pub(crate) fn mid(
        &mut self,
        pos: &mut Position,
        node: Node,
        budget: i32,
        thpn: u32,
        thdn: u32,
    ) -> Value {
        self.nodes += 1;
        if self.node_limit.is_some_and(|n| self.nodes > n) {
            self.aborted = true;
        }
        if self.nodes.is_multiple_of(POLL_INTERVAL) {
            if self.should_abort() {
                self.aborted = true;
            }
            self.maybe_report();
        }
        if self.aborted {
            return Value::UNKNOWN;
        }
        if let Some(v) = cutoff(node, budget) {
            return v;
        }
        let key = node.key(pos);
        let hand = node.attacker_hand(pos);
        if self.path.len() >= MAX_PATH {
            self.path_cut = true;
            return Value::disproven(UNLIMITED, true);
        }
        let mut children = match self.expand(pos, node, budget) {
            Ok(children) => children,
            Err(v) => {
                self.table.store(key, hand, v, 1);
                return v;
            }
        };
        self.path.push(pos.key());
        let start_nodes = self.nodes;
        // Every move spends one ply of the budget.
        let child_budget = saturating_add(budget, -1);
        let result = loop {
            let v = aggregate(node, budget, &children);
            if v.pn == 0 || v.dn == 0 || v.pn >= thpn || v.dn >= thdn || self.aborted {
                break v;
            }
            let (best, child_thpn, child_thdn) = select(node, &children, &v, thpn, thdn);
            let c = children[best];
            pos.do_move(c.mv);
            let value = self.mid_on_path(
                pos,
                node.child(),
                c.path_key,
                child_budget,
                child_thpn,
                child_thdn,
            );
            pos.undo_move(c.mv);
            children[best].value = value;
            // Unsolved siblings may have moved on through transpositions.
            // A solved one is kept: a path-dependent disproof is not in the
            // board's entry, and reading that back would take it away.
            for (i, other) in children.iter_mut().enumerate() {
                if i != best && !other.settled && other.value.pn != 0 && other.value.dn != 0 {
                    if let Some(v) = self.table.probe_known(other.key, other.hand, child_budget) {
                        other.value = v;
                    }
                }
            }
        };
        self.path.pop();
        // Partial numbers of an aborted search are not stored.
        if !self.aborted {
            if result.dn == 0 && result.path_dependent {
                // The disproof for this path; the board's entry gets only
                // numbers that steer other paths away (see `MateTable::store`).
                self.table.store_repetition(self.path_key, result.depth);
            }
            self.table
                .store(key, hand, result, self.nodes - start_nodes + 1);
        }
        result
    }

    /// Puts the search at the root `pos`: the path is the root alone and
    /// nothing has been cut at the path limit yet.
    pub(crate) fn at_root(&mut self, pos: &Position) {
        self.path_cut = false;
        self.path_key = path_key_after(0, pos.key());
    }

    /// [`Searcher::mid`] of `pos`, a node reached by the path whose key is
    /// `path_key` (see [`path_key_after`]); the current path key is kept.
    pub(crate) fn mid_on_path(
        &mut self,
        pos: &mut Position,
        node: Node,
        path_key: u64,
        budget: i32,
        thpn: u32,
        thdn: u32,
    ) -> Value {
        let parent_path_key = std::mem::replace(&mut self.path_key, path_key);
        let value = self.mid(pos, node, budget, thpn, thdn);
        self.path_key = parent_path_key;
        value
    }

    /// The children of `node`, or its value when its move list alone
    /// decides it. Kept out of line so that the move list (a few kB) lives
    /// in this short-lived frame and not in every frame of the [`mid`]
    /// recursion, which must reach [`MAX_PATH`] plies within a thread's
    /// stack.
    ///
    /// [`mid`]: Searcher::mid
    #[inline(never)]
    fn expand(&mut self, pos: &mut Position, node: Node, budget: i32) -> Result<Vec<Child>, Value> {
        let moves = node.moves(pos);
        if let Some(v) = terminal(node, budget, &moves) {
            return Err(v);
        }
        // Two passes: the keys first, each bucket prefetched, then the
        // probes, so the table's cache misses overlap instead of queueing.
        let child_budget = saturating_add(budget, -1);
        // The same for every child: a budget too small to mate in.
        let cut = cutoff(node.child(), child_budget);
        let mut children = Vec::with_capacity(moves.len());
        for &mv in &moves {
            let (key, hand, full_key) = node.child_keys(pos, mv);
            let path_key = path_key_after(self.path_key, full_key);
            let settled = if self.path.contains(&full_key) {
                Some(Value::disproven(UNLIMITED, true))
            } else {
                cut
            };
            if settled.is_none() {
                self.table.prefetch(key);
            }
            children.push(Child {
                mv,
                key,
                hand,
                path_key,
                settled: settled.is_some(),
                prev: None,
                value: settled.unwrap_or(Value::UNKNOWN),
            });
        }
        link_delay_chains(pos, node, &mut children);
        for c in children.iter_mut().filter(|c| !c.settled) {
            // A disproof on this very path beats the board's numbers.
            let known = match self.table.probe_known(c.key, c.hand, child_budget) {
                Some(v) if v.pn == 0 || v.dn == 0 => Some(v),
                numbers => self
                    .table
                    .probe_repetition(c.path_key, child_budget)
                    .or(numbers),
            };
            c.value = match known {
                Some(v) => v,
                None if node == Node::And => evasion_estimate_value(pos, c.mv),
                None => {
                    // df-pn+: a check the defender has few answers to is
                    // closer to a proof. The estimate is the number of
                    // evasions, drops on one square counted once (they
                    // share a delay chain); none at all is mate.
                    pos.do_move(c.mv);
                    let evasions = evasion_estimate(pos);
                    pos.undo_move(c.mv);
                    let value = if evasions == 0 {
                        Value::proven(0)
                    } else {
                        Value {
                            pn: evasions,
                            ..Value::UNKNOWN
                        }
                    };
                    // Stored so that the next expansion of this node reads
                    // it back instead of playing the move again.
                    self.table.store(c.key, c.hand, value, 1);
                    value
                }
            };
        }
        Ok(children)
    }

    /// Sends a progress report if one is due (polled with the clock).
    fn maybe_report(&mut self) {
        if Instant::now() >= self.progress.next {
            self.report_now();
        }
    }

    /// Sends a progress report now; the next is due a second later.
    pub(crate) fn report_now(&mut self) {
        let now = Instant::now();
        self.progress.next = now + REPORT_EVERY;
        let elapsed = now.duration_since(self.progress.started);
        let time_ms = elapsed.as_millis() as u64;
        (self.progress.report)(&super::MateProgress {
            nodes: self.nodes,
            time_ms,
            nps: (self.nodes as f64 / elapsed.as_secs_f64().max(1e-3)) as u64,
            hashfull: self.table.hashfull(),
            line: self.progress.best.as_ref().map(|(_, line)| line.as_slice()),
        });
    }

    fn should_abort(&self) -> bool {
        self.stop.load(Ordering::Relaxed) || self.deadline.is_some_and(|d| Instant::now() >= d)
    }
}

/// The defender's replies in `pos` (in check), with the drops onto one
/// square counted once: about the proof number its node gets once
/// expanded (where each delay chain counts once).
fn evasion_estimate(pos: &Position) -> u32 {
    pos.count_legal_drops_by_square() as u32
}

/// df-pn+ numbers for the defender's unseen evasion `m` in `pos`, from the
/// squares alone (no move played). A capture or a well-defended block is
/// the defender's best try: harder to prove (pn 2) and tried first (dn 1).
/// A block the attacker covers more than the defender does is likely
/// hopeless: cheap to prove (pn 1) and tried late (dn 2). King moves stay
/// at 1/1. The units match the attacker's estimate (one reply = 1).
fn evasion_estimate_value(pos: &Position, m: Move) -> Value {
    let (pn, dn) = if pos.is_capture(m) {
        (2, 1)
    } else if !m.is_drop() && m.from() == pos.king_square(pos.side_to_move()) {
        (1, 1)
    } else {
        let us = pos.side_to_move();
        let occupied = pos.occupied();
        let defenders = pos.attackers_to(us, m.to(), occupied).count();
        let attackers = pos.attackers_to(!us, m.to(), occupied).count();
        // A dropped piece is not yet among the defenders of its square.
        if attackers < defenders + u32::from(m.is_drop()) {
            (2, 1)
        } else {
            (1, 2)
        }
    };
    Value {
        pn,
        dn,
        ..Value::UNKNOWN
    }
}

/// A node decided by its budget alone, before generating moves.
fn cutoff(node: Node, budget: i32) -> Option<Value> {
    match node {
        // A mate from an OR node takes at least one ply.
        Node::Or if budget < 1 => Some(Value::disproven(0, false)),
        // An AND node's mate length is never negative.
        Node::And if budget < 0 => Some(Value::disproven(-1, false)),
        _ => None,
    }
}

/// A node decided by its move list alone.
fn terminal(node: Node, budget: i32, moves: &MoveList) -> Option<Value> {
    match node {
        Node::Or if moves.is_empty() => Some(Value::disproven(UNLIMITED, false)),
        Node::And if moves.is_empty() => Some(Value::proven(0)),
        // A defender with a move is not mated within zero plies.
        Node::And if budget == 0 => Some(Value::disproven(0, false)),
        _ => None,
    }
}

/// Delay chains (KomoringHeights' delayed moves): moves that are refuted
/// alike are searched one after another instead of side by side, so that
/// the node's numbers count each group once and only its current member
/// is searched. A member becomes active once every member before it is
/// resolved the way that lets the node go on (proven at the defender's
/// node, disproven at the attacker's). Chained are:
/// - the defender's drops onto one square (each piece kind must be
///   refuted, but they are refuted alike), and all its drops onto squares
///   it does not defend that give no check (the interpositions between a
///   distant checker and the king that the attacker usually just takes);
/// - a move with and without promotion of a pawn, bishop or rook in the
///   zone, or of a lance to the second rank, promotion first.
///
/// Solved values do not change: a node is proven (or disproven) only when
/// every member of every chain is, and any solved member decides as before.
fn link_delay_chains(pos: &Position, node: Node, children: &mut [Child]) {
    const MAX_CHAINS: usize = 16;
    // (chain key, index of its last member so far)
    let mut tails: [(u32, u8); MAX_CHAINS] = [(0, 0); MAX_CHAINS];
    let mut len = 0;
    let us = pos.side_to_move();
    let occupied = pos.occupied();
    for i in 0..children.len().min(u8::MAX as usize) {
        let m = children[i].mv;
        let key = if m.is_drop() {
            if node != Node::And {
                continue;
            }
            let undefended = pos.attackers_to(us, m.to(), occupied).is_empty();
            if undefended && !pos.gives_check(m) {
                1
            } else {
                2 + m.to().index() as u32
            }
        } else {
            // The kind before the move: a promotion and its twin agree.
            let kind = pos.piece_on(m.from()).kind_unchecked();
            let in_zone = m.from().in_promotion_zone(us) || m.to().in_promotion_zone(us);
            let pair = match kind {
                PieceType::Pawn | PieceType::Bishop | PieceType::Rook => in_zone,
                PieceType::Lance => m.to().relative_rank(us) == 1,
                _ => false,
            };
            if !pair {
                continue;
            }
            100 + (m.from().index() * 81 + m.to().index()) as u32
        };
        match tails[..len].iter_mut().find(|(k, _)| *k == key) {
            Some((_, tail)) => {
                let t = usize::from(*tail);
                if !m.is_drop() && m.is_promotion() && !children[t].mv.is_promotion() {
                    // Promotion first: it goes in front of its pair.
                    children[t].prev = Some(i as u8);
                    children[i].prev = None;
                } else {
                    children[i].prev = Some(*tail);
                    *tail = i as u8;
                }
            }
            None if len < MAX_CHAINS => {
                tails[len] = (key, i as u8);
                len += 1;
            }
            None => {}
        }
    }
}

/// Whether child `i` is the member of its delay chain to search now: every
/// member before it is resolved (proven at an AND node, disproven at an OR
/// node).
#[inline]
fn is_active(node: Node, children: &[Child], i: usize) -> bool {
    let mut at = i;
    while let Some(p) = children[at].prev {
        let p = usize::from(p);
        let v = &children[p].value;
        let resolved = match node {
            Node::Or => v.dn == 0,
            Node::And => v.pn == 0,
        };
        if !resolved {
            return false;
        }
        at = p;
    }
    true
}

/// The node's value from its children's (out of line: its scratch space
/// stays out of the [`Searcher::mid`] recursion's frames).
#[inline(never)]
fn aggregate(node: Node, budget: i32, children: &[Child]) -> Value {
    let active = || {
        children
            .iter()
            .enumerate()
            .filter(|&(i, _)| is_active(node, children, i))
            .map(|(_, c)| c)
    };
    let sum = |f: fn(&Value) -> u32| {
        active()
            .map(|c| u64::from(f(&c.value)))
            .sum::<u64>()
            .min(u64::from(INFINITE)) as u32
    };
    let min = |f: fn(&Value) -> u32| active().map(|c| f(&c.value)).min().unwrap_or(INFINITE);
    match node {
        Node::Or => {
            let proof = children
                .iter()
                .filter(|c| c.value.pn == 0)
                .map(|c| c.value.len + 1)
                .min();
            if let Some(len) = proof {
                return Value::proven(len);
            }
            // Zero only when every child is disproven (chains included).
            let dn = sum(|v| v.dn);
            if dn == 0 {
                let depth = children
                    .iter()
                    .map(|c| saturating_add(c.value.depth, 1))
                    .min()
                    .unwrap_or(UNLIMITED)
                    .max(budget);
                let dependent = children.iter().any(|c| c.value.path_dependent);
                return Value::disproven(depth, dependent);
            }
            Value {
                pn: min(|v| v.pn),
                dn,
                ..Value::UNKNOWN
            }
        }
        Node::And => {
            let disproofs = children.iter().filter(|c| c.value.dn == 0);
            let absolute = disproofs
                .clone()
                .filter(|c| !c.value.path_dependent)
                .map(|c| saturating_add(c.value.depth, 1))
                .max();
            if let Some(depth) = absolute {
                return Value::disproven(depth, false);
            }
            if let Some(depth) = disproofs.map(|c| saturating_add(c.value.depth, 1)).max() {
                return Value::disproven(depth, true);
            }
            // Zero only when every child is proven (chains included).
            let pn = sum(|v| v.pn);
            if pn == 0 {
                let len = children.iter().map(|c| c.value.len).max().unwrap_or(-1) + 1;
                return Value::proven(len);
            }
            Value {
                pn,
                dn: min(|v| v.dn),
                ..Value::UNKNOWN
            }
        }
    }
}

/// The threshold a best child gets from the second best's number `second`:
/// `second * (1 + 1/4) + 1` (Pawlewicz and Lew's 1+ε trick) instead of
/// `second + 1`. With `+ 1` alone two siblings of nearly equal numbers take
/// turns, each search returning after a node or two and re-reading all
/// siblings from the table (the seesaw effect), which on long problems
/// costs most of the time; the slack lets the best child run longer.
fn widen(second: u32) -> u32 {
    second.saturating_add(second / 4).saturating_add(1)
}

/// The child to search next and its thresholds.
#[inline(never)]
fn select(node: Node, children: &[Child], v: &Value, thpn: u32, thdn: u32) -> (usize, u32, u32) {
    let number = |c: &Child| match node {
        Node::Or => c.value.pn,
        Node::And => c.value.dn,
    };
    let mut best = usize::MAX;
    let mut best_number = INFINITE;
    let mut second = INFINITE;
    for (i, c) in children.iter().enumerate() {
        if !is_active(node, children, i) {
            continue;
        }
        let n = number(c);
        if best == usize::MAX || n < best_number {
            second = best_number;
            best = i;
            best_number = n;
        } else if n < second {
            second = n;
        }
    }
    let c = &children[best].value;
    match node {
        Node::Or => {
            let others = v.dn - c.dn;
            (
                best,
                thpn.min(widen(second)),
                thdn.saturating_sub(others).min(INFINITE),
            )
        }
        Node::And => {
            let others = v.pn - c.pn;
            (
                best,
                thpn.saturating_sub(others).min(INFINITE),
                thdn.min(widen(second)),
            )
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn children(pos: &Position, node: Node) -> Vec<Child> {
        let mut children: Vec<Child> = node
            .moves(pos)
            .iter()
            .map(|&mv| Child {
                mv,
                key: 0,
                hand: Hand::EMPTY,
                path_key: 0,
                settled: false,
                prev: None,
                value: Value::UNKNOWN,
            })
            .collect();
        link_delay_chains(pos, node, &mut children);
        children
    }

    /// The members of the chain whose last member is `i`, last first.
    fn chain_from(children: &[Child], mut i: usize) -> Vec<usize> {
        let mut members = vec![i];
        while let Some(p) = children[i].prev {
            i = usize::from(p);
            assert!(!members.contains(&i), "a chain loops");
            members.push(i);
        }
        members
    }

    #[test]
    fn drops_chain_by_square_and_undefended_drops_chain_together() {
        // White king 5a in check from the rook on 5i; gold and silver in
        // hand: 2 drops on 5b (next to the king, defended) and 12 on 5c-5h.
        let pos = Position::from_sfen("4k4/9/9/9/9/9/9/9/K3R4 w gs 1").unwrap();
        let children = children(&pos, Node::And);
        let drops: Vec<usize> = (0..children.len())
            .filter(|&i| children[i].mv.is_drop())
            .collect();
        assert_eq!(drops.len(), 14);
        let heads: Vec<usize> = drops
            .iter()
            .copied()
            .filter(|&i| children[i].prev.is_none())
            .collect();
        assert_eq!(
            heads.len(),
            2,
            "one chain for 5b, one for the undefended squares"
        );
        let longest = drops
            .iter()
            .map(|&i| chain_from(&children, i).len())
            .max()
            .unwrap();
        assert_eq!(longest, 12);
        // Only one member of each chain is searched at first.
        let active = drops
            .iter()
            .filter(|&&i| is_active(Node::And, &children, i))
            .count();
        assert_eq!(active, 2);
        // King moves are never chained.
        assert!(children
            .iter()
            .filter(|c| !c.mv.is_drop())
            .all(|c| c.prev.is_none()));
    }

    #[test]
    fn a_proven_member_hands_the_search_to_the_next() {
        let pos = Position::from_sfen("4k4/9/9/9/9/9/9/9/K3R4 w gs 1").unwrap();
        let mut children = children(&pos, Node::And);
        let head = (0..children.len())
            .find(|&i| children[i].mv.is_drop() && children[i].prev.is_none())
            .unwrap();
        let next = (0..children.len())
            .find(|&i| children[i].prev == Some(head as u8))
            .unwrap();
        assert!(!is_active(Node::And, &children, next));
        children[head].value = Value::proven(1);
        assert!(is_active(Node::And, &children, next));
        // The node is proven only when every member is.
        let v = aggregate(Node::And, UNLIMITED, &children);
        assert_ne!(v.pn, 0);
    }

    #[test]
    fn promotion_goes_before_its_non_promoting_twin() {
        // Black's rook on 4d checks the king on 5a from 4a, with or without
        // promotion.
        let pos = Position::from_sfen("4k4/9/9/5R3/9/9/9/9/K8 b - 1").unwrap();
        let children = children(&pos, Node::Or);
        let mut pairs = 0;
        for (i, c) in children.iter().enumerate() {
            if !c.mv.is_promotion() {
                if let Some(p) = c.prev {
                    let twin = &children[usize::from(p)];
                    assert!(twin.mv.is_promotion());
                    assert_eq!((twin.mv.from(), twin.mv.to()), (c.mv.from(), c.mv.to()));
                    assert!(!is_active(Node::Or, &children, i));
                    pairs += 1;
                }
            } else {
                assert!(c.prev.is_none());
            }
        }
        assert!(pairs >= 1, "{pairs} pairs");
    }
}
