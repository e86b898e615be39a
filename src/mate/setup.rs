//! Reading tsume positions, which often leave out the attacker's king.

use crate::position::{Position, SfenError};

/// Parses a tsume SFEN. The attacker may have no king: the position is then
/// solved without one (no king is invented, so nothing can block a line,
/// cover a square or pin a piece that the problem does not have). See
/// [`Position::from_tsume_sfen`].
pub fn tsume_position(sfen: &str) -> Result<Position, SfenError> {
    Position::from_tsume_sfen(sfen)
}
