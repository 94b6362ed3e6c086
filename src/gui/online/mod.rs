//! Online play in the client: the start screen's Online tab (a server, a name, my games, games to
//! join and watch, a new game, hosting one on this computer), an online game on the board (orders
//! to the server, its entries played out, presence, chat, the end's dice check) and watching.
//! All network work is `net::remote`'s, off the frame: each frame reads what came, never waits.
//!
//! Inside: `seat` (what the rest of the client reads), `account`, `host` and `form` at the bottom;
//! `play` (the game on the board) over them; `tab` and `panels` (what is drawn) on top.

mod account;
mod form;
mod host;
mod panels;
mod play;
mod seat;
pub mod tab;

pub use play::{Fairness, OnlineGame};
pub use seat::{OnlineSeat, ToServer};

use crate::game::execute::OrderRefused;
use crate::game::phase::GameState;
use crate::net::protocol::{GameView, ListedGame, MyGame, ServerMessage};
use crate::net::remote::{Account, Command, Event, LinkState, Remote};
use bevy::prelude::*;

/// The client's online state: the link, who the player is, the lists, the hosted server.
#[derive(Resource, Default)]
pub struct Online {
    pub file: account::OnlineFile,
    /// The online settings file could not be read (it is not written over).
    pub file_error: Option<String>,
    pub remote: Option<Remote>,
    pub link: Option<LinkState>,
    /// (player id, name) once logged in.
    pub me: Option<(String, String)>,
    pub mine: Vec<MyGame>,
    pub open: Vec<ListedGame>,
    pub live: Vec<ListedGame>,
    /// The last thing to tell on the Online tab: (text, whether it is a failure).
    pub notice: Option<(String, bool)>,
    /// The code of the game just made, to give the friend (`GAME.INVITE`).
    pub invite_code: Option<String>,
    /// The game to put on the board when its description comes.
    pub opening: Option<String>,
    pub hosted: host::Hosted,
    pub form: form::Form,
}

impl Online {
    /// Connects (again) to the server in the settings, as the player kept for it.
    pub fn connect(&mut self, waker: Option<crate::net::remote::Waker>) {
        let address = self.file.address.trim().to_string();
        let account = Account {
            token: self.file.token(&address),
            address,
            name: self.file.name.trim().to_string(),
            chains: Some(account::chains_dir()),
        };
        self.remote = Some(Remote::start(account, waker));
        self.link = None;
        self.me = None;
        self.mine.clear();
        self.open.clear();
        self.live.clear();
    }

    pub fn online(&self) -> bool {
        self.link == Some(LinkState::Online)
    }

    /// Whether players other than this one are connected to the server hosted here.
    pub fn hosting_others(&self) -> bool {
        let me = self.me.as_ref().map(|(id, _)| id.as_str());
        self.hosted.others(me) > 0
    }

    /// Games waiting for this player.
    pub fn to_play(&self) -> usize {
        self.mine.iter().filter(|g| g.your_turn && !g.ended).count()
    }

    fn save_file(&mut self) {
        if self.file_error.is_some() {
            return;
        }
        if let Err(e) = self.file.write(&account::online_path()) {
            self.notice = Some((format!("The online settings were not written: {e}"), true));
        }
    }
}

/// `--online ADDRESS [--name NAME]`: the Online tab shown and connected once the window is up.
#[derive(Resource, Clone, Debug)]
pub struct ConnectAtStart {
    pub address: String,
    pub name: Option<String>,
}

fn connect_at_start(world: &mut World, mut looked: Local<bool>) {
    // A player kept for the server last used connects at once: My games and the title's count
    // are there without a click.
    if !std::mem::replace(&mut *looked, true) && !world.contains_resource::<ConnectAtStart>() {
        let w = waker(world);
        let mut o = world.resource_mut::<Online>();
        if o.remote.is_none() && o.file.token(&o.file.address.clone()).is_some() {
            o.connect(w);
        }
        return;
    }
    let Some(start) = world.remove_resource::<ConnectAtStart>() else {
        return;
    };
    let w = waker(world);
    let mut o = world.resource_mut::<Online>();
    o.file.address = start.address;
    if let Some(name) = start.name {
        o.file.name = name;
    }
    if o.file.name.trim().is_empty() {
        o.file.name = "Player".into();
    }
    o.form.shown = true;
    o.save_file();
    o.connect(w);
}

/// Whether players other than this one are connected to a server hosted in this window.
pub fn hosting_others(world: &World) -> bool {
    world.get_resource::<Online>().is_some_and(Online::hosting_others)
}

/// Sends `command` over the link, if there is one.
pub(crate) fn send(world: &mut World, command: Command) {
    if let Some(remote) = &world.resource::<Online>().remote {
        remote.send(command);
    }
}

/// Wakes the window when the link has news (it sleeps between inputs otherwise).
fn waker(world: &World) -> Option<crate::net::remote::Waker> {
    world.get_resource::<bevy::winit::EventLoopProxyWrapper>().map(waker_of)
}

fn waker_of(proxy: &bevy::winit::EventLoopProxyWrapper) -> crate::net::remote::Waker {
    let proxy = std::sync::Mutex::new((**proxy).clone());
    std::sync::Arc::new(move || {
        if let Ok(p) = proxy.lock() {
            let _ = p.send_event(bevy::winit::WinitUserEvent::WakeUp);
        }
    })
}

pub(super) fn plugin(app: &mut App) {
    let mut online = Online::default();
    match account::OnlineFile::read(&account::online_path()) {
        Ok(file) => online.file = file,
        Err(e) => online.file_error = Some(e),
    }
    if online.file.address.is_empty() {
        online.file.address = format!("127.0.0.1:{}", host::DEFAULT_PORT);
    }
    online.form = form::Form::new();
    app.insert_resource(online)
        .add_plugins((play::plugin, panels::plugin, tab::plugin))
        .add_systems(Update, (connect_at_start, pump, lists_now_and_then, title).chain())
        .add_systems(OnEnter(GameState::NoGame), left_the_game)
        .add_systems(Update, no_autosave.run_if(resource_exists::<OnlineSeat>));
}

/// Reads what the link and the hosted server have for this frame.
fn pump(world: &mut World) {
    let hosted_now = world.resource_mut::<Online>().hosted.poll();
    if hosted_now {
        let port = world.resource::<Online>().hosted.port().unwrap_or(host::DEFAULT_PORT);
        let w = waker(world);
        let mut online = world.resource_mut::<Online>();
        online.file.address = format!("127.0.0.1:{port}");
        online.save_file();
        online.connect(w);
    }
    let events = world
        .resource::<Online>()
        .remote
        .as_ref()
        .map(Remote::poll)
        .unwrap_or_default();
    for event in events {
        take(world, event);
    }
}

fn take(world: &mut World, event: Event) {
    match event {
        Event::Link(state) => {
            let online = state == LinkState::Online;
            world.resource_mut::<Online>().link = Some(state);
            if online {
                send(world, Command::Games);
            }
        }
        Event::Registered { player, token } => {
            let mut o = world.resource_mut::<Online>();
            let address = o.file.address.clone();
            o.file.set_token(&address, Some(token));
            let name = o.file.name.clone();
            o.me = Some((player, name));
            o.save_file();
        }
        Event::LoggedIn { player, name } => world.resource_mut::<Online>().me = Some((player, name)),
        Event::Server(m) => server_message(world, m),
        Event::Trouble(why) => {
            let mut o = world.resource_mut::<Online>();
            o.form.uploading = None;
            o.notice = Some((why, true));
        }
        Event::Uploaded { scenario } => {
            let mut o = world.resource_mut::<Online>();
            if let Some(name) = o.form.uploaded(scenario) {
                o.notice = Some((
                    format!("{name} is on the server: Create game makes a game of it"),
                    false,
                ));
            }
        }
    }
}

fn server_message(world: &mut World, m: ServerMessage) {
    match m {
        ServerMessage::Games { mine, open, live } => {
            if let Some(mut g) = world.get_resource_mut::<OnlineGame>() {
                let id = g.view.game.clone();
                g.opponent_online = mine.iter().find(|m| m.game == id).map(|m| m.opponent_online);
            }
            let mut o = world.resource_mut::<Online>();
            (o.mine, o.open, o.live) = (mine, open, live);
        }
        ServerMessage::Created { game, invite, .. } => {
            let mut o = world.resource_mut::<Online>();
            o.invite_code = invite.map(|i| format!("{game}.{i}"));
            match &o.invite_code {
                Some(code) => info!("online game {game} made: the code for your friend is {code}"),
                None => info!("online game {game} made"),
            }
            o.opening = Some(game);
        }
        ServerMessage::Joined { game, .. } => {
            let mut o = world.resource_mut::<Online>();
            o.opening = Some(game);
            o.form.code.clear();
        }
        ServerMessage::Game(view) => game_view(world, view),
        ServerMessage::Refused { reason, .. } => {
            let words = world
                .get_resource_mut::<OnlineGame>()
                .and_then(|mut g| g.waiting.take())
                .map_or_else(String::new, |(_, w)| w);
            world.write_message(OrderRefused { order: words, reason });
        }
        ServerMessage::TakenBack { .. } => {
            world.resource_mut::<crate::gui::state::HistoryNote>().0 = Some("Undone on the server".into());
            if let Some(mut g) = world.get_resource_mut::<OnlineGame>() {
                g.waiting = None;
            }
        }
        ServerMessage::Error { message } => {
            let mut o = world.resource_mut::<Online>();
            o.notice = Some((message, true));
            o.opening = None;
            if let Some(mut g) = world.get_resource_mut::<OnlineGame>() {
                g.waiting = None;
            }
        }
        m @ (ServerMessage::Entry { .. }
        | ServerMessage::Revealed { .. }
        | ServerMessage::Undone { .. }
        | ServerMessage::Options { .. }
        | ServerMessage::Accepted { .. }
        | ServerMessage::Chat { .. }
        | ServerMessage::Ended { .. }
        | ServerMessage::TimeLapsed { .. }) => {
            if let Some(mut g) = world.get_resource_mut::<OnlineGame>() {
                g.take(m);
            }
        }
        _ => {}
    }
}

/// A game's description: the game to open goes on the board; the game on the board takes it in
/// (a seat taken).
fn game_view(world: &mut World, view: GameView) {
    if let Some(mut g) = world.get_resource_mut::<OnlineGame>()
        && g.view.game == view.game
    {
        g.view = view;
        return;
    }
    if world.resource::<Online>().opening.as_ref() != Some(&view.game) {
        return;
    }
    world.resource_mut::<Online>().opening = None;
    if let Err(e) = start_board(world, view) {
        world.resource_mut::<Online>().notice = Some((e, true));
    }
}

/// Puts the online game `view` describes on the board, at its start (its entries follow).
fn start_board(world: &mut World, view: GameView) -> Result<(), String> {
    let game = crate::net::client::board_game(&view)?;
    let online_game = OnlineGame::new(view);
    let me = online_game.my_side();
    // The other seat is another person's, on their own screen (or the server's computer): to
    // this window it is like a computer's seat, asked nothing here and never handed over to.
    let seats = (0..online_game.view.seats.len())
        .map(|i| (Some(i) != me).then(crate::ai::Profile::standard))
        .collect();
    world.insert_resource(crate::gui::state::Seats(seats));
    world.insert_resource(OnlineSeat(me));
    world.insert_resource(online_game);
    world.insert_resource(crate::gui::state::StartGame {
        game,
        watch: None,
        from: None,
    });
    Ok(())
}

/// Left the board: the link stops following the game (it stays on the server).
fn left_the_game(world: &mut World) {
    if world.remove_resource::<OnlineGame>().is_some() {
        world.remove_resource::<OnlineSeat>();
        send(world, Command::Unfollow);
        send(world, Command::Games);
    }
}

/// An online game is the server's: no local autosave of a copy that cannot be continued alone.
fn no_autosave(world: &mut World) {
    world.remove_resource::<crate::game::autosave::Autosave>();
}

/// The lists again every five seconds on the start screen (in a game the link asks for them
/// itself, for the opponent's presence).
fn lists_now_and_then(world: &mut World, mut last: Local<Option<std::time::Instant>>) {
    let start_screen = *world.resource::<State<GameState>>().get() == GameState::NoGame;
    if !start_screen || !world.resource::<Online>().online() {
        return;
    }
    if last.is_some_and(|t| t.elapsed().as_secs_f32() < 5.0) {
        return;
    }
    *last = Some(std::time::Instant::now());
    send(world, Command::Games);
}

/// The window's title counts the games waiting for this player.
fn title(
    online: Res<Online>,
    mut windows: Query<&mut Window, With<bevy::window::PrimaryWindow>>,
    mut last: Local<usize>,
) {
    let n = online.to_play();
    if n == *last {
        return;
    }
    *last = n;
    for mut w in &mut windows {
        let base = w.title.split(" (").next().unwrap_or("Hexfront").to_string();
        w.title = if n == 0 { base } else { format!("{base} ({n} to play)") };
    }
}
