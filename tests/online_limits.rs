//! Limits per address, for requests that need no token: over plain HTTP an address may make 20
//! requests a second (60 at once) and add a new player every ten seconds (20 at once); past
//! either it is answered 429 or an error naming the limit, while other addresses go on. A
//! request from this machine counts for the address a proxy here forwards (`X-Forwarded-For`).

mod common;

use common::online::*;
use hexfront::net::protocol::ClientMessage;

fn from(address: &str) -> String {
    format!("X-Forwarded-For: {address}\r\n")
}

#[test]
fn an_address_that_floods_is_held_back_and_the_others_are_not() {
    let dir = temp_dir("limits");
    let rt = runtime();
    let server = rt.block_on(async { start(&dir).await });
    let addr = server.addr;
    let (made, answered) = std::thread::spawn(move || {
        let register = serde_json::to_string(&ClientMessage::Register { name: "Spam".into() }).unwrap();
        let post = |who: &str| http_request(addr, "POST", "/api/request", None, Some(&register), &from(who));
        // Twenty new players from one address at once, then no more.
        let mut made = 0;
        let mut refused = None;
        for _ in 0..25 {
            match post("203.0.113.7") {
                (200, _) => made += 1,
                (status, body) => {
                    refused = Some((status, body));
                    break;
                }
            }
        }
        assert_eq!(made, 20, "{refused:?}");
        let (status, body) = refused.unwrap();
        assert!(
            status == 400 && body.contains("too many new players from 203.0.113.7"),
            "{status} {body}"
        );
        // Another address registers as before.
        assert_eq!(post("198.51.100.2").0, 200);
        // Requests: 60 at once from one address, then 429 naming the limit.
        let get = |who: &str| http_request(addr, "GET", "/api/version", None, None, &from(who));
        let answered = (0..70).take_while(|_| get("192.0.2.44").0 == 200).count();
        assert!((60..=62).contains(&answered), "{answered} requests answered");
        let (status, body) = get("192.0.2.44");
        assert!(status == 429 && body.contains("at most 20 a second"), "{status} {body}");
        assert_eq!(get("192.0.2.45").0, 200, "another address is not held back");
        // A client's own X-Forwarded-For before the proxy's address does not change whose it is.
        let spoofed = http_request(addr, "GET", "/api/version", None, None, &from("10.9.8.7, 192.0.2.44"));
        assert_eq!(spoofed.0, 429, "the proxy's address (the last) is the one limited");
        // This machine without a proxy's word (a local bot, the tests): no per-address limit.
        assert!((0..100).all(|_| http_get(addr, "/api/version").0 == 200));
        (made, answered)
    })
    .join()
    .unwrap();
    println!("per-address limits: {made} players then a refusal; {answered} requests then 429");
    rt.block_on(server.stop());
}
