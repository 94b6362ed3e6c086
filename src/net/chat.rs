//! A game's chat: a room for its players and one for its observers (each reads only its own), kept
//! in the database so whoever follows the game later reads the last lines too.

use super::hub::Event;
use super::protocol::ServerMessage;
use super::shared::Shared;
use super::store::{Store, now};

/// The longest chat line, in characters.
pub const MAX_CHAT: usize = 500;

/// Lines of history sent to whoever starts following a game.
const HISTORY: usize = 50;

/// The room of a seated player (`players`) or of anyone else (`observers`).
pub fn room(seated: bool) -> &'static str {
    if seated { "players" } else { "observers" }
}

/// A chat line as given, or why it cannot be one.
pub fn checked(text: &str) -> Result<String, String> {
    let text = text.trim();
    if text.is_empty() {
        return Err("chat: an empty line".into());
    }
    if text.chars().count() > MAX_CHAT {
        return Err(format!("chat: a line is at most {MAX_CHAT} characters"));
    }
    if text.chars().any(|c| c.is_control() && c != '\n') {
        return Err("chat: control characters are not allowed".into());
    }
    Ok(text.to_string())
}

/// Keeps `text` from `from` in `game`'s room and sends it to that room's followers.
pub async fn post(shared: &Shared, game: &str, from: &str, seated: bool, text: &str) -> Result<(), String> {
    let text = checked(text)?;
    let room = room(seated);
    let at = now();
    shared.store.add_chat(game, room, from, &text, at).await?;
    shared.hub.publish(
        game,
        Event::Chat {
            room: room.into(),
            from: from.into(),
            text,
            at,
        },
    );
    Ok(())
}

/// The last lines of the room a follower reads.
pub async fn history(store: &Store, game: &str, seated: bool) -> Result<Vec<ServerMessage>, String> {
    let room = room(seated);
    Ok(store
        .recent_chat(game, room, HISTORY)
        .await?
        .into_iter()
        .map(|(from, text, at)| ServerMessage::Chat {
            game: game.into(),
            room: room.into(),
            from,
            text,
            at,
        })
        .collect())
}
