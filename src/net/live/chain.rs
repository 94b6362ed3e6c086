//! Hash-chained dice on the server (a game hosted by one of its players): an order that rolls is
//! carried out once to learn that it rolls, taken back, and held until the player holding the
//! chain sends its next link; then it is carried out with that link mixed into its dice.

use super::super::hub::{Event, LinkWanted};
use super::{LiveGame, Refusal, Worker, forget_narration, no_seat};
use crate::game::dice_proof;
use crate::game::log::OrderLog;
use crate::game::order::IssuedOrder;

/// A game's hash chain: whose it is, the last link revealed, the order waiting for the next.
pub(super) struct Chain {
    /// The side whose player's client holds the chain.
    pub holder: usize,
    /// The last link revealed (the committed end before the first).
    pub last: String,
    /// The order that waits for the next link.
    pub pending: Option<Pending>,
}

/// An order fixed as entry `index` that waits for the next link, and how its holder was asked.
#[derive(Clone)]
pub(super) struct Pending {
    pub index: usize,
    pub issued: IssuedOrder,
    pub asked: LinkWanted,
}

impl Chain {
    /// The chain of `game` as its seats and log stand (`None`: the game does not chain its
    /// dice).
    pub fn of(game: &LiveGame) -> Option<Chain> {
        if !game.row.chained {
            return None;
        }
        let holder = game.seats.iter().position(|s| s.chain_end.is_some())?;
        let log = &game.app.world().resource::<OrderLog>().entries;
        let last = log
            .iter()
            .rev()
            .find_map(|e| e.link.clone())
            .or_else(|| game.seats[holder].chain_end.clone())?;
        Some(Chain {
            holder,
            last,
            pending: None,
        })
    }
}

impl Worker {
    /// After `issued` was carried out as entry `index` without a link in a game whose dice are
    /// chained: if it rolled, the game goes back to before it, the order waits for the holder's
    /// next link (`Refusal::Held`), and the holder is asked for it.
    pub(super) fn hold_for_link(&mut self, id: &str, index: usize, issued: &IssuedOrder) -> Result<(), Refusal> {
        let Some(game) = self.games.get_mut(id) else {
            return Ok(());
        };
        let Some(chain) = &game.chain else { return Ok(()) };
        let log = &game.app.world().resource::<OrderLog>().entries;
        if issued.link.is_some() || log[index].dice.is_empty() {
            return Ok(());
        }
        let chain_holder = chain.holder;
        let holder = game.side_ids[chain_holder].clone();
        let (order, words) = if issued.order.has_secret() && issued.side != holder {
            (issued.order.without_secrets().0, log[index].public.clone())
        } else {
            (issued.order.clone(), log[index].words.clone())
        };
        let reveals = super::newly_revealed(log, index)
            .into_iter()
            .map(|j| (j, log[j].side.clone(), log[j].order.clone(), log[j].public_words(true)))
            .collect();
        let before = log[..index].to_vec();
        let world = game.app.world_mut();
        if let Err(e) = crate::game::undo::rebuild(world, &before) {
            self.games.remove(id);
            return Err(Refusal::Failed(format!("game `{id}` does not replay: {e}")));
        }
        forget_narration(world);
        let asked = LinkWanted {
            index,
            holder,
            side: issued.side.clone(),
            order,
            words,
            reveals,
        };
        if let Some(chain) = &mut game.chain {
            chain.pending = Some(Pending {
                index,
                issued: issued.clone(),
                asked: asked.clone(),
            });
        }
        self.hub.publish(id, Event::LinkWanted(asked));
        // The game waits for the holder now: its clock and its notices are the holder's.
        let holder_player = game.seats[chain_holder].player.clone();
        let now = super::super::store::now();
        let holder_id = game.side_ids[chain_holder].clone();
        match self.block(self.store.set_waiting(id, &holder_id, holder_player.as_deref(), now)) {
            Ok(()) => {
                if let Some(game) = self.games.get_mut(id) {
                    game.row.waiting = Some((holder_id, now));
                }
            }
            Err(e) => eprintln!("game `{id}`: {e}"),
        }
        Err(Refusal::Held(index))
    }

    /// Carries out the order waiting for a link with `link`, the next of `player`'s chain.
    pub(super) fn link(&mut self, id: &str, player: &str, index: usize, link: String) -> Result<usize, Refusal> {
        let refuse = |why: String| Err(Refusal::Refused(why));
        let Some(game) = self.live(id).map_err(Refusal::Refused)? else {
            return refuse(format!("game `{id}` waits for a player to take its free seat"));
        };
        let Some(chain) = &mut game.chain else {
            return refuse(format!("game `{id}` does not chain its dice"));
        };
        if game.seats.get(chain.holder).and_then(|s| s.player.as_deref()) != Some(player) {
            return refuse(no_seat(id).replace("you do not hold that seat", "you do not hold the chain"));
        }
        let log = &game.app.world().resource::<OrderLog>().entries;
        if log.get(index).is_some_and(|e| e.link.as_ref() == Some(&link)) {
            // Sent again (asked again after a reconnect): it was taken.
            return Ok(index);
        }
        let Some(Pending { index: at, issued, .. }) = chain.pending.clone() else {
            return refuse("no order waits for a link".into());
        };
        if at != index {
            return refuse(format!("the order waiting for a link is entry {at}, not {index}"));
        }
        match dice_proof::chain_step(&link) {
            Ok(step) if step == chain.last => {}
            Ok(_) => return refuse("link: it does not hash to your chain's last link; send the next one".into()),
            Err(e) => return refuse(format!("link: {e}")),
        }
        chain.pending = None;
        let done = self.carry_out(id, issued.with_link(link.clone()));
        if done.is_ok()
            && let Some(chain) = self.games.get_mut(id).and_then(|g| g.chain.as_mut())
        {
            chain.last = link;
        }
        done
    }
}
