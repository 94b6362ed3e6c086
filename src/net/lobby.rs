//! Players and games before play: registering (a random token, only its hash kept), making a
//! game of a shipped or uploaded scenario (the server's secret drawn and committed to), taking a seat, and
//! the game as a client sees it.

use super::protocol::{GameView, ObserverDelay, Opponent, SeatView, TurnTime};
use super::store::{GameRow, SeatRow, Store};
use crate::game::dice_proof::{self, hex};
use crate::scenario::{SHIPPED, Scenario};

/// Random bytes from the operating system.
pub fn random_bytes<const N: usize>() -> [u8; N] {
    let mut out = [0u8; N];
    getrandom::fill(&mut out).expect("the operating system gives random bytes");
    out
}

/// The hash the server keeps of a token.
pub fn token_hash(token: &str) -> String {
    hex(blake3::hash(token.as_bytes()).as_bytes())
}

/// A display name as given, or why it cannot be one.
fn checked_name(name: &str) -> Result<String, String> {
    let name = name.trim();
    if name.is_empty() || name.chars().count() > 40 || name.chars().any(char::is_control) {
        return Err("a player's name is 1 to 40 characters, none of them control characters".into());
    }
    Ok(name.to_string())
}

/// Makes a player: (id, token).
pub async fn register(store: &Store, name: &str) -> Result<(String, String), String> {
    let name = checked_name(name)?;
    let id = format!("p-{}", hex(&random_bytes::<8>()));
    let token = hex(&random_bytes::<32>());
    store.add_player(&id, &token_hash(&token), &name).await?;
    Ok((id, token))
}

/// A shipped scenario by its file name without `.ron`: (its text, the scenario).
pub fn shipped(name: &str) -> Result<(&'static str, Scenario), String> {
    let (path, text) = SHIPPED
        .iter()
        .find(|(path, _)| path.strip_prefix("scenarios/").and_then(|p| p.strip_suffix(".ron")) == Some(name))
        .ok_or_else(|| {
            let names: Vec<&str> = SHIPPED
                .iter()
                .filter_map(|(p, _)| p.strip_prefix("scenarios/")?.strip_suffix(".ron"))
                .collect();
            format!("no shipped scenario `{name}`: one of {}", names.join(", "))
        })?;
    let scenario = Scenario::from_ron_str(*path, text).map_err(|e| e.to_string())?;
    Ok((text, scenario))
}

/// The scenario a new game is made from: its name, its texts and the scenario.
struct ChosenScenario {
    name: String,
    text: String,
    ruleset_text: Option<String>,
    scenario: Scenario,
}

/// A shipped scenario by its name, or an uploaded one by its id (`u-…`).
async fn chosen_scenario(store: &Store, name: &str) -> Result<ChosenScenario, String> {
    if !name.starts_with("u-") {
        let (text, scenario) = shipped(name)?;
        return Ok(ChosenScenario {
            name: name.to_string(),
            text: text.to_string(),
            ruleset_text: None,
            scenario,
        });
    }
    let upload = store
        .upload(name)
        .await?
        .ok_or_else(|| format!("scenario: no uploaded scenario `{name}` (POST /api/scenarios answers with the id)"))?;
    let stem = upload.file.strip_suffix(".ron").unwrap_or(&upload.file).to_string();
    let (scenario_text, ruleset_text) = (upload.scenario_text.clone(), upload.ruleset_text.clone());
    let name = stem.clone();
    let scenario = tokio::task::spawn_blocking(move || {
        super::user_scenarios::scenario_of(&name, &scenario_text, ruleset_text.as_deref())
    })
    .await
    .map_err(|e| format!("reading the scenario stopped: {e}"))??;
    Ok(ChosenScenario {
        name: stem,
        text: upload.scenario_text,
        ruleset_text: upload.ruleset_text,
        scenario,
    })
}

/// A stored game's scenario, parsed on a blocking thread (an uploaded text may be large).
async fn parsed(row: &GameRow) -> Result<Scenario, String> {
    let row = row.clone();
    tokio::task::spawn_blocking(move || row.scenario())
        .await
        .map_err(|e| format!("reading the scenario stopped: {e}"))?
}

/// Uploads checked at once, at most: a flood of large files queues here rather than taking
/// every core from the games.
static UPLOAD_CHECKS: tokio::sync::Semaphore = tokio::sync::Semaphore::const_new(1);

/// Checks and stores a scenario `player` uploaded: its id and the scenario. Parsing runs on a
/// blocking thread (a large file must not hold up the connections' tasks), one upload at a time.
pub async fn upload(
    store: &Store,
    player: &str,
    request: super::user_scenarios::UploadRequest,
) -> Result<(String, Scenario), String> {
    use super::user_scenarios::MAX_UPLOADS_A_PLAYER;
    if store.uploads_of(player).await? >= MAX_UPLOADS_A_PLAYER {
        return Err(format!(
            "you keep {MAX_UPLOADS_A_PLAYER} uploaded scenarios on this server already, its limit a player"
        ));
    }
    let _turn = UPLOAD_CHECKS
        .acquire()
        .await
        .map_err(|e| format!("checking the upload stopped: {e}"))?;
    let (request, scenario) = tokio::task::spawn_blocking(move || {
        let checked = super::user_scenarios::check(&request);
        (request, checked)
    })
    .await
    .map_err(|e| format!("checking the upload stopped: {e}"))?;
    let scenario = scenario?;
    let ruleset_text = request.ruleset.map(|r| r.text);
    let upload = super::store::Upload {
        id: super::store::Upload::id_of(&request.scenario.text, ruleset_text.as_deref()),
        file: request.scenario.file,
        scenario_text: request.scenario.text,
        ruleset_text,
    };
    store.add_upload(&upload, player).await?;
    Ok((upload.id, scenario))
}

/// What the creator of a game chooses.
#[derive(Clone, Debug)]
pub struct NewGame<'a> {
    pub scenario: &'a str,
    pub side: &'a str,
    pub opponent: &'a Opponent,
    pub contribution: &'a str,
    pub observer_delay: ObserverDelay,
    pub turn_time: Option<TurnTime>,
    /// Hash-chained dice (a game hosted by one of its players).
    pub chain: bool,
}

/// The longest time per turn a game may set: thirty days.
const MAX_TURN_SECONDS: u32 = 30 * 86_400;

/// A new game: (id, invite code, commitment).
pub async fn create(store: &Store, player: &str, new: NewGame<'_>) -> Result<(String, Option<String>, String), String> {
    let NewGame {
        scenario: scenario_name,
        side,
        opponent,
        contribution,
        observer_delay,
        turn_time,
        chain,
    } = new;
    dice_proof::from_hex(contribution).map_err(|e| format!("contribution: {e}"))?;
    if chain && matches!(opponent, Opponent::Computer(_)) {
        return Err(
            "chain: hash-chained dice need a second player whose client reveals the links, not the server's computer"
                .into(),
        );
    }
    if chain && store.is_postgres() {
        return Err("chain: hash-chained dice are for games hosted on a player's computer; this server shares a PostgreSQL database with other processes".into());
    }
    if let Some(t) = turn_time
        && !(1..=MAX_TURN_SECONDS).contains(&t.seconds)
    {
        return Err(format!(
            "turn_time.seconds: {} is not between 1 and {MAX_TURN_SECONDS} (thirty days)",
            t.seconds
        ));
    }
    if let ObserverDelay::Seconds(s) = observer_delay
        && s > MAX_TURN_SECONDS
    {
        return Err(format!(
            "observer_delay.seconds: {s} is more than {MAX_TURN_SECONDS} (thirty days)"
        ));
    }
    let chosen = chosen_scenario(store, scenario_name).await?;
    let scenario = &chosen.scenario;
    let sides: Vec<&str> = scenario.raw.sides.iter().map(|s| s.id.as_str()).collect();
    let mine = sides.iter().position(|s| s.eq_ignore_ascii_case(side)).ok_or_else(|| {
        format!(
            "side: `{side}` is not a side of {scenario_name}: one of {}",
            sides.join(", ")
        )
    })?;
    let computer = match opponent {
        Opponent::Computer(level) => Some(crate::ai::Profile::parse(level).map(|_| level.clone())?),
        _ => None,
    };
    let secret = random_bytes::<32>();
    let invite = matches!(opponent, Opponent::Invite).then(|| hex(&random_bytes::<5>()));
    let row = GameRow {
        id: format!("g-{}", hex(&random_bytes::<6>())),
        scenario: chosen.name,
        scenario_text: chosen.text,
        ruleset_text: chosen.ruleset_text,
        edition: crate::game::edition::CURRENT_EDITION,
        secret: hex(&secret),
        commitment: dice_proof::commitment(&secret),
        invite: invite.clone(),
        listed: matches!(opponent, Opponent::Open),
        ended: false,
        observer_delay,
        turn_time,
        waiting: None,
        chained: chain,
    };
    let seats: Vec<SeatRow> = (0..sides.len())
        .map(|i| match (i == mine, &computer) {
            (true, _) => SeatRow {
                side: i,
                player: Some(player.to_string()),
                contribution: Some(contribution.to_string()),
                ..SeatRow::default()
            },
            (false, Some(level)) => SeatRow {
                side: i,
                computer: Some(level.clone()),
                contribution: Some(hex(&random_bytes::<32>())),
                ..SeatRow::default()
            },
            (false, None) => SeatRow {
                side: i,
                ..SeatRow::default()
            },
        })
        .collect();
    store.add_game(&row, &seats).await?;
    Ok((row.id, invite, row.commitment))
}

/// Takes the first free seat of `game` (`seed`: the player's contribution and, for a game with
/// hash-chained dice, chain end): the side's id.
pub async fn join(
    store: &Store,
    player: &str,
    game: &str,
    invite: Option<&str>,
    seed: (&str, Option<&str>),
) -> Result<String, String> {
    let (contribution, chain_end) = seed;
    dice_proof::from_hex(contribution).map_err(|e| format!("contribution: {e}"))?;
    let row = store
        .game(game)
        .await?
        .ok_or_else(|| format!("game: no game `{game}`"))?;
    match (row.chained, chain_end) {
        (true, None) => {
            return Err(format!(
                "chain_end: game `{game}` has hash-chained dice: send the end of your client's chain"
            ));
        }
        (true, Some(end)) => {
            dice_proof::from_hex(end).map_err(|e| format!("chain_end: {e}"))?;
        }
        (false, Some(_)) => {
            return Err(format!(
                "chain_end: game `{game}` does not chain its dice; leave chain_end out"
            ));
        }
        (false, None) => {}
    }
    if row.ended {
        return Err(format!("game `{game}` is over"));
    }
    if let Some(code) = &row.invite
        && invite != Some(code.as_str())
    {
        return Err(format!(
            "invite: game `{game}` takes players by invite code, and this is not it"
        ));
    }
    if row.invite.is_none() && !row.listed {
        return Err(format!("game `{game}` is not open to other players"));
    }
    let seats = store.seats(game).await?;
    if seats.iter().any(|s| s.player.as_deref() == Some(player)) {
        return Err(format!("you already hold a seat in game `{game}`"));
    }
    let free = seats
        .iter()
        .find(|s| !s.taken())
        .ok_or_else(|| format!("game `{game}` has no free seat"))?;
    if !store
        .take_seat(game, free.side, player, (contribution, chain_end))
        .await?
    {
        return Err(format!("game `{game}`: somebody took the seat first"));
    }
    Ok(parsed(&row).await?.raw.sides[free.side].id.clone())
}

/// The game as `player` (if any) sees it.
pub async fn game_view(store: &Store, game: &str, player: Option<&str>) -> Result<GameView, String> {
    let row = store
        .game(game)
        .await?
        .ok_or_else(|| format!("game: no game `{game}`"))?;
    let seats = store.seats(game).await?;
    let scenario = parsed(&row).await?;
    let mut views = Vec::new();
    for s in &seats {
        let side = &scenario.raw.sides[s.side];
        let taken_by = match (&s.player, &s.computer) {
            (Some(p), _) => store.player_name(p).await?,
            (None, Some(level)) => Some(format!("computer ({level})")),
            _ => None,
        };
        views.push(SeatView {
            side: side.id.clone(),
            name: side.name.clone(),
            taken_by,
        });
    }
    let you = seats
        .iter()
        .find(|s| player.is_some() && s.player.as_deref() == player)
        .map(|s| scenario.raw.sides[s.side].id.clone());
    let view = GameView {
        game: row.id.clone(),
        scenario: row.scenario.clone(),
        scenario_name: scenario.raw.name.clone(),
        scenario_text: row.scenario_text.clone(),
        ruleset_text: row.ruleset_text.clone(),
        edition: row.edition,
        started: seats.iter().all(SeatRow::taken),
        seats: views,
        commitment: row.commitment.clone(),
        contributions: seats.iter().map(|s| s.contribution.clone()).collect(),
        you,
        observer_delay: row.observer_delay,
        turn_time: row.turn_time,
        chained: row.chained,
        chain_ends: if row.chained {
            seats.iter().map(|s| s.chain_end.clone()).collect()
        } else {
            Vec::new()
        },
    };
    Ok(view)
}
