//! What the rest of the client needs to know of an online game: that the board is one (the side
//! this window plays), and the orders and undos its player gives, which go to the server instead
//! of being carried out here.

use crate::game::order::Order;
use bevy::prelude::*;

/// A game played on a server is on the board: the side this window plays (`None`: watching).
/// The game changes only by the entries the server sends back.
#[derive(Resource, Clone, Copy, Debug, PartialEq, Eq)]
pub struct OnlineSeat(pub Option<usize>);

/// An order or undo of this window's player, for the server.
#[derive(Message, Clone, Debug, PartialEq)]
pub enum ToServer {
    Order(Order),
    Undo,
}
