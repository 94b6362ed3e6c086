//! The desktop client's link to a server (`net::remote`), over real sockets against the real
//! server on 127.0.0.1: connecting and registering, a game made and joined by its code, orders
//! answered, a connection lost (a TCP relay in between is cut) and made again with the game
//! caught up (an undo missed while away arrives as an undo; an order given while away is sent
//! when the link is back and carried out once), a server of another release refused and not
//! tried again, a server that is not there retried with a pause, and a hosted game's hash-chained
//! dice with the guest's chain written down and its links given.

mod common;

use common::online::*;
use hexfront::ai::{ComputerPlayer, Profile, side_to_act};
use hexfront::game::order::Order;
use hexfront::net::client::Follower;
use hexfront::net::protocol::{Opponent, ServerMessage};
use hexfront::net::remote::{Account, Command, Event, LinkState, Remote};
use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// A TCP relay to the server whose connections can be cut (a network that fails between one
/// client and the server, the server itself running on).
struct Relay {
    addr: SocketAddr,
    down: Arc<AtomicBool>,
    links: Arc<std::sync::Mutex<Vec<tokio::task::JoinHandle<()>>>>,
}

impl Relay {
    async fn start(to: SocketAddr) -> Self {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let down = Arc::new(AtomicBool::new(false));
        let links: Arc<std::sync::Mutex<Vec<tokio::task::JoinHandle<()>>>> = Default::default();
        let (d, l) = (down.clone(), links.clone());
        tokio::spawn(async move {
            while let Ok((mut inbound, _)) = listener.accept().await {
                if d.load(Ordering::SeqCst) {
                    continue;
                }
                l.lock().unwrap().push(tokio::spawn(async move {
                    if let Ok(mut out) = tokio::net::TcpStream::connect(to).await {
                        let _ = tokio::io::copy_bidirectional(&mut inbound, &mut out).await;
                    }
                }));
            }
        });
        Self { addr, down, links }
    }

    fn cut(&self) {
        self.down.store(true, Ordering::SeqCst);
        for link in self.links.lock().unwrap().drain(..) {
            link.abort();
        }
    }

    fn mend(&self) {
        self.down.store(false, Ordering::SeqCst);
    }
}

/// A player at a desktop client: the link, and a copy of the game kept from its events.
struct Player {
    remote: Remote,
    follower: Option<Follower>,
    ai: Option<ComputerPlayer>,
    token: Option<String>,
    /// Every link state seen, in order.
    states: Vec<LinkState>,
    /// Undos and reveals received (an undo missed while away comes as one).
    undos: usize,
    /// What the link said went wrong.
    troubles: Vec<String>,
}

impl Player {
    fn new(addr: SocketAddr, name: &str, dir: &std::path::Path) -> Self {
        let account = Account {
            address: format!("127.0.0.1:{}", addr.port()),
            name: name.into(),
            token: None,
            chains: Some(dir.join(format!("chains-{name}"))),
        };
        Self {
            remote: Remote::start(account, None),
            follower: None,
            ai: None,
            token: None,
            states: Vec::new(),
            undos: 0,
            troubles: Vec::new(),
        }
    }

    /// Takes events until one `wanted` picks (within 20 s), keeping the game's copy up to date.
    fn until<T>(&mut self, what: &str, mut wanted: impl FnMut(&Event) -> Option<T>) -> T {
        let end = Instant::now() + Duration::from_secs(20);
        while Instant::now() < end {
            let Some(event) = self.remote.wait(Duration::from_millis(100)) else {
                continue;
            };
            self.take(&event);
            if let Some(t) = wanted(&event) {
                return t;
            }
        }
        panic!("no {what} within 20 s; link states: {:?}", self.states);
    }

    fn take(&mut self, event: &Event) {
        match event {
            Event::Link(state) => self.states.push(state.clone()),
            Event::Registered { token, .. } => self.token = Some(token.clone()),
            Event::Server(ServerMessage::Game(view)) => {
                match &mut self.follower {
                    Some(f) if f.view.game == view.game => f.view = view.clone(),
                    _ => self.follower = Some(Follower::new(view.clone()).unwrap()),
                }
                if let Some(side) = self.follower.as_ref().unwrap().my_side()
                    && self.ai.is_none()
                {
                    self.ai = Some(ComputerPlayer::new(side, Profile::parse("standard").unwrap(), 7));
                }
            }
            Event::Server(
                m @ (ServerMessage::Entry { .. } | ServerMessage::Revealed { .. } | ServerMessage::Undone { .. }),
            ) => {
                self.undos += usize::from(matches!(m, ServerMessage::Undone { .. }));
                self.follower
                    .as_mut()
                    .expect("the game's description first")
                    .take(m)
                    .unwrap();
            }
            Event::Server(ServerMessage::Refused { reason, .. }) => panic!("an order was refused: {reason}"),
            Event::Trouble(why) => self.troubles.push(why.clone()),
            _ => {}
        }
    }

    fn len(&self) -> usize {
        self.follower.as_ref().map_or(0, Follower::len)
    }

    fn online(&mut self) {
        self.until("connection", |e| {
            matches!(e, Event::Link(LinkState::Online)).then_some(())
        });
    }

    /// Whether it is this player's side to act.
    fn acts(&mut self) -> bool {
        let f = self.follower.as_mut().unwrap();
        let mine = f.my_side();
        side_to_act(f.world()) == mine
    }

    /// The computer's choice for this player's side, given through the link.
    fn order(&mut self) -> Order {
        let f = self.follower.as_mut().unwrap();
        let order = self.ai.as_mut().unwrap().next_order(f.world()).expect("an order");
        self.remote.send(Command::Order {
            expect: f.len(),
            order: order.clone(),
        });
        order
    }
}

/// Reads `p`'s events until it holds `len` entries.
fn until_len(p: &mut Player, len: usize) {
    let end = Instant::now() + Duration::from_secs(20);
    while p.len() != len {
        assert!(
            Instant::now() < end,
            "{len} entries not held within 20 s (held {})",
            p.len()
        );
        if let Some(e) = p.remote.wait(Duration::from_millis(100)) {
            p.take(&e);
        }
    }
}

/// Anna makes a St. Vith game for Bert by invite; Bert joins by the code; both hold the game.
fn made_and_joined(anna: &mut Player, bert: &mut Player) -> String {
    anna.online();
    bert.online();
    anna.remote.send(Command::Create {
        scenario: "st-vith-1944".into(),
        side: "german".into(),
        opponent: Opponent::Invite,
        observer_delay: Default::default(),
        turn_time: None,
    });
    let (game, invite) = anna.until("created", |e| match e {
        Event::Server(ServerMessage::Created { game, invite, .. }) => Some((game.clone(), invite.clone())),
        _ => None,
    });
    assert!(invite.is_some(), "an invite game has a code");
    bert.remote.send(Command::Join {
        game: game.clone(),
        invite,
    });
    bert.until("joined", |e| {
        matches!(e, Event::Server(ServerMessage::Joined { .. })).then_some(())
    });
    bert.until("the game as a player", |e| {
        matches!(e, Event::Server(ServerMessage::Game(v)) if v.you.is_some() && v.started).then_some(())
    });
    // Anna's link looks again while the seat is free: the game started.
    anna.until("the seat taken", |e| {
        matches!(e, Event::Server(ServerMessage::Game(v)) if v.started).then_some(())
    });
    game
}

/// Plays the side to act's orders through the links until `count` more entries are held by both.
fn play(anna: &mut Player, bert: &mut Player, count: usize) {
    for _ in 0..count {
        let len = anna.len();
        if anna.acts() {
            anna.order();
        } else {
            assert!(bert.acts());
            bert.order();
        }
        until_len(anna, len + 1);
        until_len(bert, len + 1);
    }
}

#[test]
fn a_lost_connection_comes_back_and_catches_up_with_what_it_missed() {
    let dir = temp_dir("remote");
    let rt = runtime();
    let server = rt.block_on(start(&dir));
    let relay = rt.block_on(async { Relay::start(server.addr).await });
    let mut anna = Player::new(server.addr, "Anna", &dir);
    let mut bert = Player::new(relay.addr, "Bert", &dir);
    let game = made_and_joined(&mut anna, &mut bert);
    assert!(anna.token.as_ref().is_some_and(|t| t.len() == 64), "a token to keep");
    play(&mut anna, &mut bert, 3);
    let checked = |p: &Player| p.follower.as_ref().unwrap().checked;
    assert_eq!(
        (checked(&anna), checked(&bert)),
        (3, 3),
        "every entry's hash checked by both"
    );

    // Anna moves, Bert sees it; Bert's network fails; Anna takes the move back.
    assert!(anna.acts(), "St. Vith's German player turn is long");
    anna.order();
    until_len(&mut anna, 4);
    until_len(&mut bert, 4);
    relay.cut();
    bert.until("the loss noticed", |e| {
        matches!(e, Event::Link(LinkState::Lost { .. })).then_some(())
    });
    anna.remote.send(Command::Undo { expect: 4 });
    anna.until("taken back", |e| {
        matches!(e, Event::Server(ServerMessage::TakenBack { index: 3, .. })).then_some(())
    });
    until_len(&mut anna, 3);
    // Back: Bert's link follows the game again and hears of the undo it missed, once.
    relay.mend();
    bert.online();
    until_len(&mut bert, 3);
    assert_eq!(bert.undos, 1, "the undo missed while away came as one undo");
    // The game goes on; then Bert, away again, gives an order: it goes when the link is back.
    play(&mut anna, &mut bert, 1);
    let mut turns = 0;
    while !bert.acts() {
        play(&mut anna, &mut bert, 1);
        turns += 1;
        assert!(turns < 200, "Bert's side never came to act");
    }
    relay.cut();
    bert.until("the loss noticed", |e| {
        matches!(e, Event::Link(LinkState::Lost { .. })).then_some(())
    });
    let len = bert.len();
    bert.order();
    std::thread::sleep(Duration::from_millis(300));
    assert_eq!(anna.len(), len, "nothing reached the server while away");
    relay.mend();
    bert.online();
    bert.until("the order accepted", |e| {
        matches!(e, Event::Server(ServerMessage::Accepted { index, .. }) if *index == len).then_some(())
    });
    until_len(&mut anna, len + 1);
    until_len(&mut bert, len + 1);
    let (a, b) = (anna.follower.as_ref().unwrap(), bert.follower.as_ref().unwrap());
    assert_eq!(a.entries(), b.entries(), "both hold the same log");
    assert_eq!((a.checked, b.checked), (len + 1, len + 1));
    let states: Vec<&str> = bert
        .states
        .iter()
        .map(|s| match s {
            LinkState::Connecting { .. } => "connecting",
            LinkState::Online => "online",
            LinkState::Lost { .. } => "lost",
            LinkState::Refused(_) => "refused",
        })
        .collect();
    assert!(
        states.iter().filter(|s| **s == "lost").count() >= 2 && states.last() == Some(&"online"),
        "{states:?}"
    );
    // The lists: Anna's game, Bert named as her opponent and connected.
    anna.remote.send(Command::Games);
    let mine = anna.until("the lists", |e| match e {
        Event::Server(ServerMessage::Games { mine, .. }) => Some(mine.clone()),
        _ => None,
    });
    assert_eq!(mine.len(), 1);
    assert_eq!(
        (mine[0].game.as_str(), mine[0].opponent.as_deref()),
        (game.as_str(), Some("Bert"))
    );
    assert!(mine[0].opponent_online && mine[0].entries == len + 1 && !mine[0].ended);
    assert_eq!(
        (anna.troubles.len(), bert.troubles.len()),
        (0, 0),
        "{:?} {:?}",
        anna.troubles,
        bert.troubles
    );
    drop((anna, bert));
    rt.block_on(server.stop());
}

#[test]
fn another_release_is_refused_once_and_a_server_not_there_is_tried_again() {
    let dir = temp_dir("remote-refused");
    let rt = runtime();
    let server = rt.block_on(start(&dir));
    let account = Account {
        address: server.addr.to_string(),
        name: "Old".into(),
        token: None,
        chains: None,
    };
    let old = Remote::start_as(account.clone(), None, hexfront::net::protocol::PROTOCOL, "0.0.1".into());
    let mut seen = Vec::new();
    let end = Instant::now() + Duration::from_secs(5);
    while Instant::now() < end {
        if let Some(Event::Link(s)) = old.wait(Duration::from_millis(100)) {
            seen.push(s);
        }
    }
    let refused: Vec<&String> = seen
        .iter()
        .filter_map(|s| match s {
            LinkState::Refused(why) => Some(why),
            _ => None,
        })
        .collect();
    assert_eq!(refused.len(), 1, "refused once, not tried again: {seen:?}");
    assert!(refused[0].contains("both must be the same release"), "{}", refused[0]);
    assert!(refused[0].contains("0.0.1"), "{}", refused[0]);
    // Asked to, it tries again (and is refused again).
    old.send(Command::Retry);
    let again = std::iter::from_fn(|| old.wait(Duration::from_secs(5)))
        .find(|e| matches!(e, Event::Link(LinkState::Refused(_))));
    assert!(again.is_some());
    drop(old);
    rt.block_on(server.stop());
    // Nothing listens there now: lost, and tried again after a pause.
    let gone = Remote::start(account, None);
    let mut lost = Vec::new();
    let end = Instant::now() + Duration::from_secs(5);
    while Instant::now() < end && lost.len() < 2 {
        if let Some(Event::Link(LinkState::Lost { why, retry_in })) = gone.wait(Duration::from_millis(100)) {
            lost.push((why, retry_in));
        }
    }
    assert_eq!(lost.len(), 2, "tried twice within 5 s");
    assert!(lost[0].0.contains("is not answering"), "{}", lost[0].0);
    assert!(
        lost[1].1 > lost[0].1,
        "the pause grows: {:?}",
        lost.iter().map(|l| l.1).collect::<Vec<_>>()
    );
}

#[test]
fn a_hosted_game_rolls_with_the_guests_chain_written_down() {
    let dir = temp_dir("remote-chain");
    let rt = runtime();
    let options = hexfront::net::server::Options {
        chained_dice_by_default: true,
        ..Default::default()
    };
    let server = rt.block_on(async {
        let url = hexfront::net::store::Store::sqlite_url(&dir.join("hosted.db"));
        hexfront::net::server::start_with("127.0.0.1:0".parse().unwrap(), &url, options)
            .await
            .unwrap()
    });
    let mut anna = Player::new(server.addr, "Anna", &dir);
    let mut bert = Player::new(server.addr, "Bert", &dir);
    let game = made_and_joined(&mut anna, &mut bert);
    assert!(
        bert.follower.as_ref().unwrap().view.chained,
        "a hosted game chains its dice"
    );
    let chains = dir.join("chains-Bert");
    let written = std::fs::read_dir(&chains).unwrap().count();
    assert_eq!(written, 1, "Bert's chain written when he took the seat");
    // Play until a die is rolled: its entry carries Bert's link.
    let mut orders = 0;
    while !anna
        .follower
        .as_ref()
        .unwrap()
        .entries()
        .iter()
        .any(|e| !e.dice.is_empty())
    {
        play(&mut anna, &mut bert, 1);
        orders += 1;
        assert!(orders < 400, "no die rolled in 400 orders");
    }
    let entries = anna.follower.as_ref().unwrap().entries();
    let rolled: Vec<_> = entries.iter().filter(|e| !e.dice.is_empty()).collect();
    assert!(
        rolled.iter().all(|e| e.link.is_some()),
        "every roll mixes a link of Bert's chain"
    );
    let file = std::fs::read_dir(&chains)
        .unwrap()
        .map(|f| f.unwrap().path())
        .find(|p| p.extension().is_some_and(|x| x == "json"))
        .unwrap();
    let text = std::fs::read_to_string(file).unwrap();
    assert!(
        text.contains(&format!("\"next\":{}", rolled.len())),
        "the links given are written down: {text:.200}"
    );
    assert!(game.starts_with("g-"));
    drop((anna, bert));
    rt.block_on(server.stop());
}

#[test]
fn a_server_stopped_with_sigstop_is_noticed_and_the_link_comes_back_when_it_goes_on() {
    let dir = temp_dir("remote-sigstop");
    let db = hexfront::net::store::Store::sqlite_url(&dir.join("server.db"));
    let (mut server, addr) = spawn_server(&db, &dir.join("server.log"));
    let signal = |sig: &str| {
        let ok = std::process::Command::new("kill")
            .args([sig, &server.id().to_string()])
            .status()
            .unwrap()
            .success();
        assert!(ok, "kill {sig}");
    };
    let mut anna = Player::new(addr, "Anna", &dir);
    anna.online();
    // Stopped, its sockets stay open and say nothing: the silence counts as a loss, and the
    // attempts after it wait for a welcome a bounded time.
    signal("-STOP");
    let stopped = Instant::now();
    let why = anna.until("the silence noticed", |e| match e {
        Event::Link(LinkState::Lost { why, .. }) => Some(why.clone()),
        _ => None,
    });
    assert!(why.contains("stopped answering"), "{why}");
    assert!(
        stopped.elapsed() < Duration::from_secs(15),
        "noticed in {:?}",
        stopped.elapsed()
    );
    let why = anna.until("a bounded wait for the welcome", |e| match e {
        Event::Link(LinkState::Lost { why, .. }) => Some(why.clone()),
        _ => None,
    });
    assert!(why.contains("no welcome within"), "{why}");
    signal("-CONT");
    anna.online();
    assert!(anna.token.is_some());
    let _ = server.kill();
    let _ = server.wait();
}

#[test]
fn a_scenario_file_of_ones_own_is_uploaded_and_a_game_made_of_it() {
    use hexfront::net::user_scenarios::upload_request;
    let dir = temp_dir("remote-upload");
    let rt = runtime();
    let server = rt.block_on(start(&dir));
    let mut anna = Player::new(server.addr, "Anna", &dir);
    anna.online();
    let (_, text) = hexfront::scenario::SHIPPED
        .iter()
        .find(|(p, _)| p.ends_with("mortain-1944.ron"))
        .unwrap();
    let mine = dir.join("my-mortain.ron");
    std::fs::write(&mine, text).unwrap();
    let (request, scenario) = upload_request(&mine).unwrap();
    assert_eq!(request.scenario.file, "my-mortain.ron");
    anna.remote.send(Command::Upload(request));
    let id = anna.until("the upload's id", |e| match e {
        Event::Uploaded { scenario } => Some(scenario.clone()),
        _ => None,
    });
    assert!(id.starts_with("u-"), "{id}");
    anna.remote.send(Command::Create {
        scenario: id.clone(),
        side: scenario.sides[0].id.clone(),
        opponent: Opponent::Computer("novice".into()),
        observer_delay: Default::default(),
        turn_time: None,
    });
    let view = anna.until("the game of it", |e| match e {
        Event::Server(ServerMessage::Game(v)) => Some(v.clone()),
        _ => None,
    });
    assert_eq!(
        (view.scenario.as_str(), view.scenario_name.as_str(), view.started),
        ("my-mortain", scenario.raw.name.as_str(), true)
    );
    // A broken file is refused here, by file and line; a name the server does not take, there.
    let broken = dir.join("broken.ron");
    std::fs::write(&broken, text.replacen("units:", "unit:", 1)).unwrap();
    let err = upload_request(&broken).unwrap_err();
    assert!(err.contains("broken.ron:"), "{err}");
    let spaced = dir.join("my mortain.ron");
    std::fs::write(&spaced, text).unwrap();
    let (request, _) = upload_request(&spaced).unwrap();
    anna.remote.send(Command::Upload(request));
    anna.until("the server's refusal", |e| matches!(e, Event::Trouble(_)).then_some(()));
    let refusal = anna.troubles.last().unwrap();
    assert!(refusal.contains("my mortain.ron"), "{refusal}");
    drop(anna);
    rt.block_on(server.stop());
}
