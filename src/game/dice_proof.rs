//! Dice no one can predict, checked after the game: a server's secret, committed to with BLAKE3
//! when the game is made, mixed with a random value from each player, gives the game's seed; the
//! secret is revealed when the game ends, and anyone can check the commitment and the seed.

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
}
