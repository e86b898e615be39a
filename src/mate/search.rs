//! Depth-limited df-pn (Nagai's depth-first proof-number search).
//!
//! OR nodes are the attacker to move (only checking moves), AND nodes the
//! defender (every legal evasion). Each node carries a *budget*: the most
//! plies a mate may take from it. An unlimited budget asks "is there a mate
//! at all"; a finite one asks "is there a mate within n plies", which the
//! solver uses to shrink a proof down to the shortest mate.
//!
//! Futile interpositions (無駄合): when the defender drops a piece between
//! its king and a distant checker, the attacker simply takes it and the
//! defender is left with nothing but more such drops, tsume convention does
//! not count the two plies. The node after a drop is a *bonus* node: such a
//! capture on the drop square costs no budget there, and the node has its
//! own table key because its lengths follow that rule. A drop after whose
//! capture the defender has a real reply is real resistance and counts.
//!
//! Repetition: a child whose full position (board, hands, side) is already
//! on the current path is a disproof for the attacker (perpetual check is no
//! mate, and a shortest mate never repeats). Such disproofs depend on the
//! path, so they are stored as path-dependent and never reported as an
//! absolute "no mate".

use super::tt::{MateTable, Value, INFINITE, UNLIMITED};
use crate::attacks::between;
use crate::hand::Hand;
use crate::moves::{Move, MoveList};
use crate::position::Position;
use crate::types::Square;
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
/// Salt mixed into the key of a bonus node, per drop square.
const BONUS_SALT: u64 = 0x9E37_79B9_7F4A_7C15;

/// Which side is to move at a node, and for a node right after a defender
/// drop, the square of that drop.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Node {
    /// Attacker to move; `bonus` is the square of the defender's last drop.
    Or { bonus: Option<Square> },
    /// Defender to move (in check).
    And,
}

impl Node {
    /// The node reached by playing `m` here.
    pub(crate) fn child(self, m: Move) -> Node {
        match self {
            Node::Or { .. } => Node::And,
            Node::And => Node::Or {
                bonus: m.is_drop().then(|| m.to()),
            },
        }
    }

    /// Budget of the child reached by `m` from a node with `budget` in
    /// `pos`, and the plies the move is not charged: 2 when the drop just
    /// played was futile (see [`is_futile_capture`]).
    pub(crate) fn child_budget(self, pos: &mut Position, m: Move, budget: i32) -> (i32, i32) {
        let discount = match self {
            Node::Or { bonus: Some(sq) } if is_futile_capture(pos, sq, m) => 2,
            _ => 0,
        };
        (saturating_add(budget, discount - 1), discount)
    }

    /// Table key of this node in `pos`.
    pub(crate) fn key(self, pos: &Position) -> u64 {
        self.key_from_board(pos.board_key())
    }

    /// Table key of this node on a board whose board key is `board`: a
    /// bonus node's lengths follow their own rule, so its key is salted.
    fn key_from_board(self, board: u64) -> u64 {
        match self {
            Node::Or { bonus: Some(sq) } => board ^ BONUS_SALT.wrapping_mul(sq.index() as u64 + 1),
            _ => board,
        }
    }

    /// What [`Node::key`] and [`Node::attacker_hand`] give for the child
    /// reached by the legal move `m` from this node in `pos`, and the
    /// child's full position key, all without playing `m`.
    pub(crate) fn child_keys(self, pos: &Position, m: Move) -> (u64, Hand, u64) {
        let key = self.child(m).key_from_board(pos.board_key_after(m));
        let hand = match self {
            // The attacker is moving: its hand changes with the move.
            Node::Or { .. } => pos.hand_after(m),
            Node::And => pos.hand(!pos.side_to_move()),
        };
        (key, hand, pos.key_after(m))
    }

    /// The attacker's hand in `pos`.
    pub(crate) fn attacker_hand(self, pos: &Position) -> Hand {
        match self {
            Node::Or { .. } => pos.hand(pos.side_to_move()),
            Node::And => pos.hand(!pos.side_to_move()),
        }
    }

    /// The moves searched here: checks at OR nodes, all moves at AND nodes.
    pub(crate) fn moves(self, pos: &Position) -> MoveList {
        match self {
            Node::Or { .. } => pos.legal_checks(),
            Node::And => pos.legal_moves(),
        }
    }
}

/// Whether the attacker's `m`, after the defender dropped a piece on `sq`,
/// shows that drop futile: `m` takes it with a piece whose line to the king
/// runs through `sq`, and afterwards the defender can still only drop
/// pieces in the way. Then the drop and its capture changed nothing but
/// the length, and are not counted. When the defender has any other reply
/// after the capture (a king move, a capture, a piece moved in the way),
/// the drop forced a different continuation and is real resistance; when
/// the capture mates, the drop is the last resistance and must be shown
/// for the line to end in mate, so it counts too.
fn is_futile_capture(pos: &mut Position, sq: Square, m: Move) -> bool {
    if m.to() != sq
        || m.is_drop()
        || !between(m.from(), pos.king_square(!pos.side_to_move())).contains(sq)
    {
        return false;
    }
    pos.do_move(m);
    let replies = pos.legal_moves();
    pos.undo_move(m);
    !replies.is_empty() && replies.iter().all(|r| r.is_drop())
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
    budget: i32,
    discount: i32,
    /// Decided without the table (a repetition, or a budget too small to
    /// mate in): its value must not be re-read from the table, which never
    /// stores it, or the node would search it again forever.
    settled: bool,
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
    /// Progress reports: when the solve started, when the next report is
    /// due, and where it goes.
    pub(crate) progress: Progress<'a>,
}

/// Where a solve reports its progress, about once a second.
pub(crate) struct Progress<'a> {
    pub(crate) started: Instant,
    pub(crate) next: Instant,
    pub(crate) report: &'a mut dyn FnMut(&super::MateProgress),
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
        let result = loop {
            let v = aggregate(node, budget, &children);
            if v.pn == 0 || v.dn == 0 || v.pn >= thpn || v.dn >= thdn || self.aborted {
                break v;
            }
            let (best, child_thpn, child_thdn) = select(node, &children, &v, thpn, thdn);
            let c = children[best];
            pos.do_move(c.mv);
            let value = self.mid(pos, node.child(c.mv), c.budget, child_thpn, child_thdn);
            pos.undo_move(c.mv);
            children[best].value = value;
            for (i, other) in children.iter_mut().enumerate() {
                if i != best && !other.settled {
                    if let Some(v) = self.table.probe_known(other.key, other.hand, other.budget) {
                        other.value = v;
                    }
                }
            }
        };
        self.path.pop();
        if !self.aborted {
            self.table
                .store(key, hand, result, self.nodes - start_nodes + 1);
        }
        result
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
        let mut children = Vec::with_capacity(moves.len());
        for &mv in &moves {
            let child_node = node.child(mv);
            let (child_budget, discount) = node.child_budget(pos, mv, budget);
            let (key, hand, full_key) = node.child_keys(pos, mv);
            let settled = if self.path.contains(&full_key) {
                Some(Value::disproven(UNLIMITED, true))
            } else {
                cutoff(child_node, child_budget)
            };
            if settled.is_none() {
                self.table.prefetch(key);
            }
            children.push(Child {
                mv,
                key,
                hand,
                budget: child_budget,
                discount,
                settled: settled.is_some(),
                value: settled.unwrap_or(Value::UNKNOWN),
            });
        }
        for c in children.iter_mut().filter(|c| !c.settled) {
            c.value = match self.table.probe_known(c.key, c.hand, c.budget) {
                Some(v) => v,
                None if node == Node::And => Value::UNKNOWN,
                None => {
                    // df-pn+: a check the defender has few answers to is
                    // closer to a proof. The estimate is the number of
                    // evasions, drops on one square counted once as in
                    // `and_pn`; none at all is mate.
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
        let now = Instant::now();
        if now < self.progress.next {
            return;
        }
        self.progress.next = now + REPORT_EVERY;
        let elapsed = now.duration_since(self.progress.started);
        let time_ms = elapsed.as_millis() as u64;
        (self.progress.report)(&super::MateProgress {
            nodes: self.nodes,
            time_ms,
            nps: (self.nodes as f64 / elapsed.as_secs_f64().max(1e-3)) as u64,
            hashfull: self.table.hashfull(),
        });
    }

    fn should_abort(&self) -> bool {
        self.stop.load(Ordering::Relaxed) || self.deadline.is_some_and(|d| Instant::now() >= d)
    }
}

/// The defender's replies in `pos` (in check), with the drops onto one
/// square counted once: the proof number its node gets once expanded.
fn evasion_estimate(pos: &Position) -> u32 {
    pos.count_legal_drops_by_square() as u32
}

/// A node decided by its budget alone, before generating moves.
fn cutoff(node: Node, budget: i32) -> Option<Value> {
    match node {
        // A mate from an OR node takes at least one ply.
        Node::Or { bonus: None } if budget < 1 => Some(Value::disproven(0, false)),
        // A bonus node's captures get one ply more than its budget, so the
        // smallest useful budget there is -1.
        Node::Or { bonus: Some(_) } if budget < -1 => Some(Value::disproven(-1, false)),
        // An AND node's mate length is never negative.
        Node::And if budget < 0 => Some(Value::disproven(-1, false)),
        _ => None,
    }
}

/// A node decided by its move list alone.
fn terminal(node: Node, budget: i32, moves: &MoveList) -> Option<Value> {
    match node {
        Node::Or { .. } if moves.is_empty() => Some(Value::disproven(UNLIMITED, false)),
        Node::And if moves.is_empty() => Some(Value::proven(0)),
        // With no budget left only futile drops could still be discounted;
        // a chain of them never spends budget and explodes combinatorially,
        // so "mate except for futile drops" is not searched for.
        Node::And if budget == 0 => Some(Value::disproven(0, false)),
        _ => None,
    }
}

/// The node's value from its children's (out of line: its scratch space
/// stays out of the [`Searcher::mid`] recursion's frames).
#[inline(never)]
fn aggregate(node: Node, budget: i32, children: &[Child]) -> Value {
    let sum = |f: fn(&Value) -> u32| {
        children
            .iter()
            .map(|c| u64::from(f(&c.value)))
            .sum::<u64>()
            .min(u64::from(INFINITE)) as u32
    };
    match node {
        Node::Or { .. } => {
            let proof = children
                .iter()
                .filter(|c| c.value.pn == 0)
                .map(|c| c.value.len + 1 - c.discount)
                .min();
            if let Some(len) = proof {
                return Value::proven(len);
            }
            let dn = sum(|v| v.dn);
            if dn == 0 {
                let depth = children
                    .iter()
                    .map(|c| saturating_add(c.value.depth, 1 - c.discount))
                    .min()
                    .unwrap_or(UNLIMITED)
                    .max(budget);
                let dependent = children.iter().any(|c| c.value.path_dependent);
                return Value::disproven(depth, dependent);
            }
            let pn = children
                .iter()
                .map(|c| c.value.pn)
                .min()
                .unwrap_or(INFINITE);
            Value {
                pn,
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
            let pn = and_pn(children);
            if pn == 0 {
                let len = children.iter().map(|c| c.value.len).max().unwrap_or(-1) + 1;
                return Value::proven(len);
            }
            let dn = children
                .iter()
                .map(|c| c.value.dn)
                .min()
                .unwrap_or(INFINITE);
            Value {
                pn,
                dn,
                ..Value::UNKNOWN
            }
        }
    }
}

/// An AND node's proof number: the sum over its children, except that the
/// drops on one square count once, as the largest of them. Every drop
/// between a distant checker and the king must be refuted, but they are
/// refuted alike (take it, check again), so summing all seven kinds on each
/// square of a long line made such a check look tens of times harder than
/// it is and sent the attacker to worse checks (the futile-interposition
/// blow-up); the real work still shows as each drop is searched in turn.
fn and_pn(children: &[Child]) -> u32 {
    let mut drops = [0u32; 81];
    let mut total = 0u64;
    for c in children {
        if c.mv.is_drop() {
            let slot = &mut drops[c.mv.to().index()];
            *slot = (*slot).max(c.value.pn);
        } else {
            total += u64::from(c.value.pn);
        }
    }
    total += drops.iter().map(|&n| u64::from(n)).sum::<u64>();
    total.min(u64::from(INFINITE)) as u32
}

/// What child `i` adds to [`and_pn`]: its own number, or for a drop the
/// largest number among the drops on its square.
fn group_pn(children: &[Child], i: usize) -> u32 {
    let c = &children[i];
    if !c.mv.is_drop() {
        return c.value.pn;
    }
    children
        .iter()
        .filter(|o| o.mv.is_drop() && o.mv.to() == c.mv.to())
        .map(|o| o.value.pn)
        .max()
        .unwrap_or(c.value.pn)
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
        Node::Or { .. } => c.value.pn,
        Node::And => c.value.dn,
    };
    let mut best = 0;
    let mut second = INFINITE;
    for (i, c) in children.iter().enumerate().skip(1) {
        let n = number(c);
        if n < number(&children[best]) {
            second = number(&children[best]);
            best = i;
        } else if n < second {
            second = n;
        }
    }
    let c = &children[best].value;
    match node {
        Node::Or { .. } => {
            let others = v.dn - c.dn;
            (
                best,
                thpn.min(widen(second)),
                thdn.saturating_sub(others).min(INFINITE),
            )
        }
        Node::And => {
            let others = v.pn - group_pn(children, best);
            (
                best,
                thpn.saturating_sub(others).min(INFINITE),
                thdn.min(widen(second)),
            )
        }
    }
}
