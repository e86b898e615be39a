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
    /// The 24-point rule for handicap games: White (the handicap giver)
    /// needs fewer points by what the handicap took off the board.
    Csa24Handicap,
    /// The 27-point rule for handicap games, White's need reduced likewise.
    Csa27Handicap,
    /// Try rule: a king that reaches the enemy king's starting square (5a
    /// for Black, 5i for White) safely wins; no declaration.
    Try,
}

/// Points of all pieces of a full set but the kings: 4 big pieces at 5,
/// 34 small ones at 1.
const FULL_SET_POINTS: u32 = 54;

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
            EnteringKingRule::None | EnteringKingRule::Try => return false,
            EnteringKingRule::Csa24 => (31, 31),
            EnteringKingRule::Csa27 => (28, 27),
            EnteringKingRule::Csa24Handicap => (31, 31u32.saturating_sub(self.handicap_points())),
            EnteringKingRule::Csa27Handicap => (28, 27u32.saturating_sub(self.handicap_points())),
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

    /// Points of the pieces missing from the board and both hands, compared
    /// with a full set: what a handicap took away (0 in an even game).
    fn handicap_points(&self) -> u32 {
        let kings = self.pieces_of_kind(PieceType::King).count();
        let on_board = self.occupied().count() - kings;
        let big_on_board = (self.pieces_of_kind(PieceType::Rook)
            | self.pieces_of_kind(PieceType::Dragon)
            | self.pieces_of_kind(PieceType::Bishop)
            | self.pieces_of_kind(PieceType::Horse))
        .count();
        let mut points = on_board + 4 * big_on_board;
        for color in Color::ALL {
            let hand = self.hand(color);
            points +=
                hand.total() + 4 * (hand.count(PieceType::Rook) + hand.count(PieceType::Bishop));
        }
        FULL_SET_POINTS.saturating_sub(points)
    }

    /// Under the try rule, the king move onto the enemy king's starting
    /// square that wins the game at once, if the side to move has one.
    pub fn try_move(&self, rule: EnteringKingRule) -> Option<crate::moves::Move> {
        if rule != EnteringKingRule::Try || !self.has_king(self.side) {
            return None;
        }
        let target = match self.side {
            Color::Black => crate::types::Square::new(4, 0),
            Color::White => crate::types::Square::new(4, 8),
        };
        let from = self.king_square(self.side);
        let m = crate::moves::Move::normal(from, target, false);
        (crate::attacks::king_attacks(from).contains(target) && self.is_legal(m)).then_some(m)
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
        assert!(!win.can_declare_win(EnteringKingRule::Try));
        // 24-point rule: `win` has 30 points (18 in the zone, 12 in hand):
        // not enough; 31 are.
        assert!(!win.can_declare_win(EnteringKingRule::Csa24));
        let more =
            Position::from_sfen("+R+B+P+P+PK3/+P+P+P+P+P4/9/9/9/9/9/9/4k4 b RB3G 1").unwrap();
        assert!(more.can_declare_win(EnteringKingRule::Csa24));
        // Points enough, but only nine pieces in the zone besides the king.
        let nine =
            Position::from_sfen("+R+B+P+P+PK3/+P+P+P+P5/9/9/9/9/9/9/4k4 b RB2G4S 1").unwrap();
        assert!(!nine.can_declare_win(EnteringKingRule::Csa27));
    }

    #[test]
    fn handicap_rules_lower_whites_need_by_the_missing_points() {
        // White (the handicap giver) in Black's camp with 10 pieces (14
        // points) and 7 points in hand: 21. A rook and a bishop are missing
        // from the game (10 points): 27 - 10 = 17 needed under CSARule27H,
        // while CSARule27 asks for 27.
        let sfen = "4K4/9/9/9/9/9/9/+p+p+p+p+p+p3/+b+p+p+p1k3 w R2G2S4N4L6P2g2s3p 1";
        let pos = Position::from_sfen(sfen).unwrap();
        assert_eq!(pos.handicap_points(), 10);
        assert!(!pos.can_declare_win(EnteringKingRule::Csa27));
        assert!(pos.can_declare_win(EnteringKingRule::Csa27Handicap));
        // An even game's pieces are all there: the variants change nothing.
        assert_eq!(Position::startpos().handicap_points(), 0);
    }

    #[test]
    fn try_rule_wins_by_reaching_the_enemy_kings_square_safely() {
        let pos = Position::from_sfen("9/4K4/9/9/9/9/9/9/4k4 b - 1").unwrap();
        assert_eq!(
            pos.try_move(EnteringKingRule::Try).map(|m| m.to_string()),
            Some("5b5a".to_string())
        );
        assert_eq!(pos.try_move(EnteringKingRule::Csa27), None);
        // The square is guarded: no try.
        let guarded = Position::from_sfen("3g5/4K4/9/9/9/9/9/9/4k4 b - 1").unwrap();
        assert_eq!(guarded.try_move(EnteringKingRule::Try), None);
        // White tries onto 5i.
        let white = Position::from_sfen("4K4/9/9/9/9/9/9/4k4/9 w - 1").unwrap();
        assert_eq!(
            white.try_move(EnteringKingRule::Try).map(|m| m.to_string()),
            Some("5h5i".to_string())
        );
    }
}
