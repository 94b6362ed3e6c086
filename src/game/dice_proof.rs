//! Dice no one can predict, checked after the game: a server's secret, committed to with BLAKE3
//! when the game is made, mixed with a random value from each player, gives the game's seed; the
//! secret is revealed when the game ends, and anyone can check the commitment and the seed.
//!
//! A game hosted by one of its players (who could read the secret) also mixes into each order
//! that rolls a link of the other player's BLAKE3 hash chain, revealed only once that order was
//! fixed: the player committed to the chain's end when taking the seat, each link is the hash
//! preimage of the one before, so no one can know a die before its order is fixed.

use serde::{Deserialize, Serialize};

/// BLAKE3 `derive_key` context for the seed (keeps this use apart from any other).
const SEED_CONTEXT: &str = "hexfront 2026-11-27 online game dice seed";

/// How a game played on a server got its dice: the commitment published at creation, each
/// seat's contribution (by side), and the secret revealed at the end. All hex.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DiceProof {
    pub commitment: String,
    pub contributions: Vec<String>,
    pub secret: String,
    /// The end of the guest's hash chain (a game hosted by one of its players), committed when
    /// the seat was taken.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub chain_end: Option<String>,
}

/// The link before `link` in a hash chain (its BLAKE3 hash, hex), or why `link` is no link.
pub fn chain_step(link: &str) -> Result<String, String> {
    // One spelling a link: else the same link written in other cases would draw other dice.
    if link.bytes().any(|b| b.is_ascii_uppercase()) {
        return Err("lowercase hex only".into());
    }
    let bytes = from_hex(link)?;
    Ok(hex(blake3::hash(&bytes).as_bytes()))
}

/// A hash chain of `length` links from a random start: its end (to commit to) first, then the
/// links in the order they are revealed.
pub fn chain(start: [u8; 32], length: usize) -> (String, Vec<String>) {
    let mut links = Vec::with_capacity(length + 1);
    let mut at = start;
    links.push(hex(&at));
    for _ in 0..length {
        at = *blake3::hash(&at).as_bytes();
        links.push(hex(&at));
    }
    let end = links.pop().expect("one link at least");
    links.reverse();
    (end, links)
}

/// The commitment to `secret` (hex).
pub fn commitment(secret: &[u8; 32]) -> String {
    hex(blake3::hash(secret).as_bytes())
}

/// The game's seed from the server's secret and the seats' contributions, in side order.
pub fn seed(secret: &[u8; 32], contributions: &[[u8; 32]]) -> u64 {
    let mut material = Vec::with_capacity(32 * (1 + contributions.len()));
    material.extend_from_slice(secret);
    for c in contributions {
        material.extend_from_slice(c);
    }
    let key = blake3::derive_key(SEED_CONTEXT, &material);
    u64::from_le_bytes(key[..8].try_into().expect("8 bytes"))
}

/// Bytes as lowercase hex.
pub fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// 32 bytes from 64 hex digits, or what is wrong with them.
pub fn from_hex(text: &str) -> Result<[u8; 32], String> {
    if text.len() != 64 || !text.bytes().all(|b| b.is_ascii_hexdigit()) {
        return Err(format!(
            "expected 64 hex digits (0-9, a-f), got {} characters",
            text.chars().count()
        ));
    }
    let mut out = [0u8; 32];
    for (i, byte) in out.iter_mut().enumerate() {
        *byte = u8::from_str_radix(&text[2 * i..2 * i + 2], 16)
            .map_err(|_| format!("`{}` is not hex", &text[2 * i..2 * i + 2]))?;
    }
    Ok(out)
}

impl DiceProof {
    /// Checks the proof against the seed the game was played with: the secret matches the
    /// commitment, and secret and contributions give `seed`.
    pub fn check(&self, played_seed: u64) -> Result<(), String> {
        let secret = from_hex(&self.secret).map_err(|e| format!("online.secret: {e}"))?;
        if commitment(&secret) != self.commitment {
            return Err(format!(
                "online.secret does not match the commitment published when the game was made ({})",
                self.commitment
            ));
        }
        let contributions = self
            .contributions
            .iter()
            .enumerate()
            .map(|(i, c)| from_hex(c).map_err(|e| format!("online.contributions[{i}]: {e}")))
            .collect::<Result<Vec<_>, _>>()?;
        let derived = seed(&secret, &contributions);
        if derived != played_seed {
            return Err(format!(
                "the seed {played_seed} is not the one the secret and the players' values give ({derived}): the dice were not the committed ones"
            ));
        }
        Ok(())
    }

    /// Checks the links mixed into the dice of a game's log, given as each entry's (whether it
    /// rolled, its link) (a game hosted by one of its players): every entry that rolled carries
    /// one, and each is the preimage of the one before (the first, of the committed chain end);
    /// a game without a chain carries none.
    pub fn check_chain<'a>(&self, log: impl IntoIterator<Item = (bool, Option<&'a str>)>) -> Result<(), String> {
        let mut walk = ChainWalk {
            chained: self.chain_end.is_some(),
            last: self.chain_end.clone(),
        };
        for (i, (rolled, link)) in log.into_iter().enumerate() {
            walk.step(rolled, link)
                .map_err(|e| format!("log entry {}: {e}", i + 1))?;
        }
        Ok(())
    }
}

/// A walk along a game's entries checking their chain links.
#[derive(Clone, Debug, Default)]
pub struct ChainWalk {
    /// Whether the game chains its dice.
    pub chained: bool,
    /// The last link seen (the committed end before the first), if known.
    pub last: Option<String>,
}

impl ChainWalk {
    /// Checks the next entry: whether it `rolled`, and its link.
    pub fn step(&mut self, rolled: bool, link: Option<&str>) -> Result<(), String> {
        match link {
            None if self.chained && rolled => Err("dice rolled without the other player's chain link".into()),
            None => Ok(()),
            Some(_) if !self.chained => Err("a chain link in a game that committed to no chain".into()),
            Some(link) => {
                let step = chain_step(link).map_err(|e| format!("link: {e}"))?;
                if self.last.as_ref().is_some_and(|last| *last != step) {
                    return Err("its chain link does not hash to the one before: a link was skipped or made up".into());
                }
                self.last = Some(link.to_string());
                Ok(())
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_proof_checks_and_any_change_breaks_it() {
        let secret = [7u8; 32];
        let contributions = [[1u8; 32], [2u8; 32]];
        let s = seed(&secret, &contributions);
        let proof = DiceProof {
            commitment: commitment(&secret),
            contributions: contributions.iter().map(|c| hex(c)).collect(),
            secret: hex(&secret),
            chain_end: None,
        };
        assert_eq!(proof.check(s), Ok(()));
        assert!(proof.check(s ^ 1).unwrap_err().contains("not the one"));
        let mut other = proof.clone();
        other.secret = hex(&[8u8; 32]);
        assert!(other.check(s).unwrap_err().contains("commitment"));
        let mut swapped = proof.clone();
        swapped.contributions.reverse();
        assert!(swapped.check(s).is_err());
        assert_eq!(from_hex(&hex(&secret)), Ok(secret));
        assert!(from_hex("zz").is_err());
        // Multi-byte characters and signs are not hex, whatever their length in bytes.
        assert!(from_hex(&format!("a{}a", "é".repeat(31))).is_err());
        assert!(from_hex(&format!("+f{}", "0".repeat(62))).is_err());
    }

    #[test]
    fn each_link_of_a_chain_hashes_to_the_one_before_and_a_skipped_or_made_up_link_is_caught() {
        let (end, links) = chain([9u8; 32], 5);
        assert_eq!(links.len(), 5);
        let mut before = end.clone();
        for link in &links {
            assert_eq!(chain_step(link).unwrap(), before);
            before = link.clone();
        }
        // In order, each entry that rolls with its link: the walk holds.
        let mut walk = ChainWalk {
            chained: true,
            last: Some(end.clone()),
        };
        assert_eq!(walk.step(false, None), Ok(()));
        assert_eq!(walk.step(true, Some(&links[0])), Ok(()));
        assert_eq!(walk.step(true, Some(&links[1])), Ok(()));
        // Skipping a link (trying the dice with one, then with the next) breaks it.
        let mut skipped = walk.clone();
        assert!(skipped.step(true, Some(&links[3])).unwrap_err().contains("skipped"));
        // So does a made-up link, dice without a link, and a link in a game without a chain.
        assert!(walk.clone().step(true, Some(&hex(&[1u8; 32]))).is_err());
        assert!(walk.clone().step(true, None).unwrap_err().contains("without"));
        assert!(ChainWalk::default().step(true, Some(&links[0])).is_err());
        assert!(walk.step(true, Some("zz")).unwrap_err().contains("hex"));
    }
}
