//! War Against Russia's exchange: which attackers pay it, the owner's named units first, then
//! the smallest total that covers the loss; Axis allies never pay in an Axis attack.

use super::{Nation, Prepared, Rules, nation};
use crate::combat::{Combatant, Role, Situation};

/// The attackers eliminated to lose at least `need_halves` factors: the units their owner named
/// first (`Combatant::loss_rank`), in order, then the smallest total that covers the rest (the
/// automatic choice), or `None` if the eligible units cannot cover it.
pub(super) fn exchange_losses(units: &[Combatant], eligible: &[bool], need_halves: u64) -> Option<Vec<usize>> {
    let mut named: Vec<usize> = (0..units.len())
        .filter(|&i| eligible[i] && units[i].loss_rank > 0)
        .collect();
    named.sort_by_key(|&i| units[i].loss_rank);
    let value = |i: usize| u64::from(units[i].value(Role::Attacker)) * 2;
    let mut picked = Vec::new();
    let mut paid = 0;
    for i in named {
        if paid >= need_halves {
            break;
        }
        paid += value(i);
        picked.push(i);
    }
    if !picked.is_empty() {
        if paid >= need_halves {
            return Some(picked);
        }
        let rest: Vec<bool> = (0..units.len()).map(|i| eligible[i] && !picked.contains(&i)).collect();
        picked.extend(cheapest_exchange(units, &rest, need_halves - paid)?);
        return Some(picked);
    }
    cheapest_exchange(units, eligible, need_halves)
}

/// The smallest total of eligible attackers that covers `need_halves` (the fewest units among
/// equals).
fn cheapest_exchange(units: &[Combatant], eligible: &[bool], need_halves: u64) -> Option<Vec<usize>> {
    let pool: Vec<usize> = (0..units.len()).filter(|&i| eligible[i]).collect();
    let value = |i: usize| u64::from(units[i].value(Role::Attacker)) * 2;
    if pool.iter().map(|&i| value(i)).sum::<u64>() < need_halves {
        return None;
    }
    if pool.len() <= 16 {
        let mut best: Option<(u64, u32)> = None;
        for mask in 1u32..(1 << pool.len()) {
            let total: u64 = (0..pool.len())
                .filter(|b| mask & (1 << b) != 0)
                .map(|b| value(pool[b]))
                .sum();
            if total >= need_halves && best.is_none_or(|(t, m)| (total, mask.count_ones()) < (t, m.count_ones())) {
                best = Some((total, mask));
            }
        }
        let (_, mask) = best?;
        return Some(
            (0..pool.len())
                .filter(|b| mask & (1 << b) != 0)
                .map(|b| pool[b])
                .collect(),
        );
    }
    // Large stacks: strongest first.
    let mut sorted = pool;
    sorted.sort_by_key(|&i| std::cmp::Reverse(value(i)));
    let mut total = 0;
    let mut picked = Vec::new();
    for i in sorted {
        if total >= need_halves {
            break;
        }
        total += value(i);
        picked.push(i);
    }
    Some(picked)
}

/// Attackers that may pay an exchange: in Axis attacks, never Hungarian, Italian or Romanian.
pub(super) fn exchangeable(r: &Rules, s: &Situation, p: &Prepared) -> Vec<bool> {
    s.attackers
        .iter()
        .map(|u| !(p.german_attack && nation(r, u) == Nation::AxisAlly))
        .collect()
}
