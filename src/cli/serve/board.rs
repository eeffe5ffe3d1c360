//! The board as the page draws it: Oware's houses and stores, Dobutsu's squares and hands.

use std::collections::BTreeMap;

use perfectplay::dobutsu::{self, Kind, Square};
use perfectplay::game::GameEnd;
use perfectplay::oware::{self, Side};
use perfectplay::records::Recorded;
use perfectplay::variant::{GamePosition, Variant, VariantGame};

use super::reply::{BoardReply, PieceReply};

/// The board of `position` for the page to draw.
pub fn board_reply(position: GamePosition<'_>) -> BoardReply {
    match position {
        GamePosition::Oware(board) => oware_board(board),
        GamePosition::Dobutsu(position) => dobutsu_board(position),
    }
}

/// The board after the final counting of a game that ended with seeds given to the stores
/// (Oware's own rows, or the seeds split evenly): every house empty, the stores the result's;
/// `None` where the stores already hold the result (a capture past half the seeds, Dobutsu).
pub fn counted_board<G: VariantGame>(end: &GameEnd<G>) -> Option<Box<BoardReply>> {
    let GamePosition::Oware(board) = end.position.as_position() else {
        return None;
    };
    // Oware's end counts by the reason and the board alone, whoever won.
    let oware_end = GameEnd {
        reason: end.reason,
        winner: None,
        position: *board,
        ply: end.ply,
    };
    let stores = oware_end.stores();
    if stores == [board.store(Side::South), board.store(Side::North)] {
        return None;
    }
    Some(Box::new(BoardReply::Oware {
        houses: "ABCDEFabcdef"
            .chars()
            .map(|name| (name.to_string(), 0))
            .collect(),
        stores: BTreeMap::from([("South", stores[0]), ("North", stores[1])]),
        variant: Variant::of_oware(board.variant()).name(),
    }))
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
