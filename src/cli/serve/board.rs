//! The board as the page draws it: Oware's houses and stores, Dobutsu's squares and hands.

use std::collections::BTreeMap;

use perfectplay::dobutsu::{self, Kind, Square};
use perfectplay::oware::{self, Side};
use perfectplay::records::Recorded;
use perfectplay::variant::{GamePosition, Variant};

use super::reply::{BoardReply, PieceReply};

/// The board of `position` for the page to draw.
pub fn board_reply(position: GamePosition<'_>) -> BoardReply {
    match position {
        GamePosition::Oware(board) => oware_board(board),
        GamePosition::Dobutsu(position) => dobutsu_board(position),
    }
}

/// An Oware board: seeds by house (`A`-`F` South's, `a`-`f` North's), the stores, the variant.
fn oware_board(board: &oware::Board) -> BoardReply {
    let names = "ABCDEFabcdef".chars();
    BoardReply::Oware {
        houses: names
            .zip(board.houses())
            .map(|(name, seeds)| (name.to_string(), seeds))
            .collect(),
        stores: BTreeMap::from([
            ("South", board.store(Side::South)),
            ("North", board.store(Side::North)),
        ]),
        variant: Variant::of_oware(board.variant()).name(),
    }
}

/// A Dobutsu position: pieces by square, and each side's hand.
fn dobutsu_board(position: &dobutsu::Position) -> BoardReply {
    let player = |p: dobutsu::Player| <dobutsu::Position as Recorded>::PLAYER_NAMES[p.index()];
    let squares = Square::all()
        .filter_map(|sq| {
            let piece = position.piece_at(sq)?;
            let reply = PieceReply {
                kind: piece.kind.letter().to_string(),
                owner: player(piece.owner),
            };
            Some((sq.to_string(), reply))
        })
        .collect();
    // The droppable kinds, and the enemy Lion once it has been captured (the game's end).
    let hand = |holder| -> BTreeMap<String, u8> {
        Kind::DROPPABLE
            .iter()
            .chain([&Kind::Lion])
            .map(|&k| (k.letter().to_string(), position.in_hand(holder, k)))
            .collect()
    };
    BoardReply::Dobutsu {
        squares,
        hands: BTreeMap::from([
            ("Sente", hand(dobutsu::Player::Sente)),
            ("Gote", hand(dobutsu::Player::Gote)),
        ]),
    }
}
