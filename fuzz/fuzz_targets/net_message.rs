//! A client's frame → the server's message decoder (`net::protocol::ClientMessage::parse`): never
//! panics, and a message it reads writes back to text it reads the same.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    if let Ok(message) = hexfront::net::protocol::ClientMessage::parse(text) {
        let again = serde_json::to_string(&message).expect("a message read writes back");
        assert_eq!(hexfront::net::protocol::ClientMessage::parse(&again), Ok(message));
    }
});
