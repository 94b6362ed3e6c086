//! Taking step losses: the bookkeeping every combat system shares, and the owner's default
//! preference (lose the step that costs the least combat value) used where the rules let the
//! owner choose.

use super::{Combatant, Role, UnitResult};

/// Steps a unit still has, counting what this combat has taken.
pub fn remaining(u: &Combatant, r: &UnitResult) -> u32 {
    (u.steps.remaining() as u32).saturating_sub(r.steps_lost)
}

/// The unit's value for `role` after this combat's losses so far (0 once eliminated).
pub fn value_now(u: &Combatant, r: &UnitResult, role: Role) -> u32 {
    if remaining(u, r) == 0 {
        return 0;
    }
    let v = u.steps.values[u.steps.lost + r.steps_lost as usize];
    match role {
        Role::Attacker => v.attack,
        Role::Defender => v.defense,
    }
}

/// Takes one step from unit `i`; false if it had none.
pub fn lose_step(units: &[Combatant], res: &mut [UnitResult], i: usize) -> bool {
    if remaining(&units[i], &res[i]) == 0 {
        return false;
    }
    res[i].steps_lost += 1;
    if remaining(&units[i], &res[i]) == 0 {
        res[i].eliminated = true;
    }
    true
}

/// Eliminates unit `i`, returning the steps it lost.
pub fn eliminate(units: &[Combatant], res: &mut [UnitResult], i: usize) -> u32 {
    let n = remaining(&units[i], &res[i]);
    res[i].steps_lost += n;
    res[i].eliminated = true;
    n
}

/// What losing one more step costs unit `i` in combat value (its whole value if it dies).
pub fn step_cost(u: &Combatant, r: &UnitResult, role: Role) -> u32 {
    let now = value_now(u, r, role);
    let mut next = *r;
    next.steps_lost += 1;
    now - value_now(u, &next, role).min(now)
}

/// The owner's pick among `candidates` for the next step: the owner's named order first
/// (`Combatant::loss_rank`), then the cheapest in value, then the unit with more steps left, then
/// the first listed.
pub fn cheapest(
    units: &[Combatant],
    res: &[UnitResult],
    role: Role,
    candidates: impl Iterator<Item = usize>,
) -> Option<usize> {
    candidates
        .filter(|&i| remaining(&units[i], &res[i]) > 0)
        .min_by_key(|&i| {
            (
                match units[i].loss_rank {
                    0 => u32::MAX,
                    rank => rank,
                },
                step_cost(&units[i], &res[i], role),
                std::cmp::Reverse(remaining(&units[i], &res[i])),
                i,
            )
        })
}

/// The owner's pick for the next step: a participating unit first, then any (Killing Ground 8.94).
pub fn next_cheapest(units: &[Combatant], res: &[UnitResult], role: Role) -> Option<usize> {
    cheapest(units, res, role, (0..units.len()).filter(|&i| units[i].participating))
        .or_else(|| cheapest(units, res, role, 0..units.len()))
}

/// Takes `n` steps by the owner's preference from participating units first, then from the rest
/// (Killing Ground 8.94). Returns the steps actually taken.
pub fn take_cheapest(units: &[Combatant], res: &mut [UnitResult], role: Role, n: u32) -> u32 {
    let mut taken = 0;
    while taken < n {
        match next_cheapest(units, res, role) {
            Some(i) => {
                lose_step(units, res, i);
                taken += 1;
            }
            None => break,
        }
    }
    taken
}

/// Total steps the side can still lose.
pub fn steps_left(units: &[Combatant], res: &[UnitResult]) -> u32 {
    units.iter().zip(res).map(|(u, r)| remaining(u, r)).sum()
}
