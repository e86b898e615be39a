//! Game-end rules that depend on history or material: sennichite
//! (repetition, with perpetual check) and the entering-king declaration.

use super::Position;
use crate::bitboard::Bitboard;
use crate::types::{Color, PieceType};

/// How the current position relates to earlier ones with the same side to move.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Repetition {
    /// No earlier occurrence found.
    None,
    /// Same position, neither side checking throughout: a draw.
    Draw,
    /// Same position, the side to move has given check with every move of
    /// the cycle: it is the perpetual checker and loses.
    Loss,
    /// Same position, the opponent has checked throughout: the side to move wins.
    Win,
    /// Same board, the side to move now holds a superior hand (good for it).
    Superior,
    /// Same board, the side to move now holds an inferior hand (bad for it).
    Inferior,
}

/// The entering-king (jishogi) rule a game is played under.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum EnteringKingRule {
    /// No declaration is possible.
    None,
    /// CSA 24-point rule: declaring with 31+ points wins, 24..=30 draws;
    /// we only declare a win.
    Csa24,
    /// CSA 27-point rule: 28 points for Black, 27 for White.
    Csa27,
}

impl Position {
    /// Compares the position with earlier ones in the history, looking back
    /// at most `max_plies` plies (and never across a null move).
    ///
    /// `occurrences` is how many earlier occurrences make it count: 1 in
    /// search (any repetition is treated as final), 3 for the game rule
    /// (fourfold repetition). Superior/inferior hands are only reported when
    /// `occurrences` is 1.
    pub fn repetition(&self, max_plies: usize, occurrences: usize) -> Repetition {
        let st = self.state();
        let n = self.states.len();
        let limit = (st.plies_since_null as usize).min(max_plies).min(n - 1);
        let us = self.side;
        let them = us.flip();
        let mut found = 0;
        let mut distance = 4;
        while distance <= limit {
            let earlier = &self.states[n - 1 - distance];
            if earlier.board_key == st.board_key {
                if earlier.hand_key == st.hand_key {
                    found += 1;
                    if found >= occurrences {
                        // Each side made distance/2 moves in the cycle.
                        let moves = (distance / 2) as u16;
                        if st.continuous_checks[them.index()] >= moves {
                            return Repetition::Win;
                        }
                        if st.continuous_checks[us.index()] >= moves {
                            return Repetition::Loss;
                        }
                        return Repetition::Draw;
                    }
                } else if occurrences == 1 {
                    let now = self.hands[us.index()];
                    let before = self.hand_at(n - 1 - distance, us);
                    if now.is_superior_or_equal(before) {
                        return Repetition::Superior;
                    }
                    if before.is_superior_or_equal(now) {
                        return Repetition::Inferior;
                    }
                }
            }
            distance += 2;
        }
        Repetition::None
    }

    /// `color`'s hand at history index `index`, rebuilt from the captures and
    /// drops made since then.
    fn hand_at(&self, index: usize, color: Color) -> crate::hand::Hand {
        let mut hand = self.hands[color.index()];
        // Walk back from the newest state, undoing hand changes of `color`.
        let mut mover = self.side.flip();
        for i in (index + 1..self.states.len()).rev() {
            let st = &self.states[i];
            if mover == color {
                if let Some(m) = st.last_move {
                    if let Some(kind) = m.dropped_kind() {
                        hand.add(kind);
                    } else if let Some(kind) = st.captured.kind() {
                        hand.remove(kind.unpromote());
                    }
                }
            }
            mover = mover.flip();
        }
        hand
    }

    /// Whether the side to move may declare a win by entering king under `rule`.
    pub fn can_declare_win(&self, rule: EnteringKingRule) -> bool {
        let (black_needs, white_needs) = match rule {
            EnteringKingRule::None => return false,
            EnteringKingRule::Csa24 => (31, 31),
            EnteringKingRule::Csa27 => (28, 27),
        };
        let us = self.side;
        if self.in_check() || !self.has_king(us) {
            return false;
        }
        let zone = Bitboard::promotion_zone(us);
        if !zone.contains(self.king_square(us)) {
            return false;
        }
        let ours_in_zone = (self.pieces_of(us) & zone).without(self.king_square(us));
        if ours_in_zone.count() < 10 {
            return false;
        }
        let big = ours_in_zone
            & (self.pieces_of_kind(PieceType::Rook)
                | self.pieces_of_kind(PieceType::Dragon)
                | self.pieces_of_kind(PieceType::Bishop)
                | self.pieces_of_kind(PieceType::Horse));
        let hand = self.hand(us);
        let hand_big = hand.count(PieceType::Rook) + hand.count(PieceType::Bishop);
        let points = ours_in_zone.count() + 4 * big.count() + hand.total() + 4 * hand_big;
        let needed = if us == Color::Black {
            black_needs
        } else {
            white_needs
        };
        points >= needed
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::Position;

    fn play(pos: &mut Position, moves: &str) {
        for text in moves.split_whitespace() {
            let m = pos.parse_usi_move(text).unwrap();
            pos.do_move(m);
        }
    }

    #[test]
    fn fourfold_repetition_is_a_draw() {
        let mut pos = Position::startpos();
        let cycle = "5i5h 5a5b 5h5i 5b5a ";
        play(&mut pos, &cycle.repeat(2));
        assert_eq!(pos.repetition(64, 3), Repetition::None);
        assert_eq!(pos.repetition(64, 1), Repetition::Draw);
        play(&mut pos, cycle);
        assert_eq!(pos.repetition(64, 3), Repetition::Draw);
    }

    #[test]
    fn perpetual_checker_loses() {
        // Black's rook checks with every move while White's king shuffles
        // between 4b and 4c; the fourth occurrence is reached with White to move.
        let mut pos = Position::from_sfen("4k4/9/9/9/9/9/9/9/R3K4 b - 1").unwrap();
        play(&mut pos, "9i9a 5a4b 9a9b 4b4c 9b9c");
        play(&mut pos, &"4c4b 9c9b 4b4c 9b9c ".repeat(3));
        assert_eq!(pos.repetition(64, 3), Repetition::Win);
        // One ply later Black, the checker, is to move in a repeated position.
        play(&mut pos, "4c4b");
        assert_eq!(pos.repetition(64, 3), Repetition::Loss);
    }

    #[test]
    fn declaration_needs_points_and_pieces() {
        // Black king in the zone with ten pieces there (18 points) plus 12 in hand.
        let win = Position::from_sfen("+R+B+P+P+PK3/+P+P+P+P+P4/9/9/9/9/9/9/4k4 b RB2G 1").unwrap();
        assert!(win.can_declare_win(EnteringKingRule::Csa27));
        let short = Position::from_sfen("+R+B+P+P+PK3/+P+P+P+P+P4/9/9/9/9/9/9/4k4 b - 1").unwrap();
        assert!(!short.can_declare_win(EnteringKingRule::Csa27));
        assert!(!win.can_declare_win(EnteringKingRule::None));
    }
}
