//! The one click interpreter: what a left click on a board cell means, worked out once a frame
//! from the game's state (a retreat or advance asked about, the phase, the selection, a prepared
//! attack, Shift, whose units stand there) into `ThisClick`, which the HUD (select, move), the
//! attack window (pin, join or leave) and the after-combat choices each read for their own kinds.
//! `interpret` is pure and tested; `interpret_clicks` only gathers its facts.

use super::attack::{AttackPlan, enemies_in};
use super::choices::{AdvanceTicks, Asked};
use super::keymap::Keys;
use super::state::{BoardClick, ClickSystems, Hovered, PointerOverUi, Selection, ThisClick};
use crate::game::components::{MapIndex, Side, Unit};
use crate::game::phase::{GameState, Phase, TurnState};
use crate::rules::grid::Cell;
use bevy::prelude::*;

/// What the interpreter needs to know about a click on `cell`.
#[derive(Clone, Debug)]
pub struct ClickFacts {
    pub cell: Cell,
    pub combat_phase: bool,
    pub shift: bool,
    /// The side to play has a selection; the click is on one of the selected units' cell.
    pub selected: bool,
    pub clicked_selected: bool,
    pub attack_prepared: bool,
    pub enemies_here: bool,
    /// The side to play's units in the cell (ids).
    pub own: Vec<String>,
    /// The retreat asked about, when one of its paths ends here: the unit and that path.
    pub retreat_here: Option<(String, Vec<Cell>)>,
    /// The advance asked about, when the cell is an allowed target: who would go.
    pub advance_here: Option<Vec<String>>,
}

/// What the click means, in this order: a retreat or advance asked about, an attack (with Shift,
/// a stack joining or leaving the one prepared; else, preparing one), an attack outside a combat
/// phase (refused), a move of the selection, a selection.
pub fn interpret(f: ClickFacts) -> BoardClick {
    let cell = f.cell;
    if let Some((unit, path)) = f.retreat_here {
        return BoardClick::Retreat { unit, path };
    }
    if let Some(units) = f.advance_here.filter(|u| !u.is_empty()) {
        return BoardClick::Advance { units, to: cell };
    }
    if f.combat_phase && f.shift && f.attack_prepared {
        return BoardClick::JoinOrLeaveAttack(f.own);
    }
    if f.combat_phase && f.selected && f.enemies_here {
        return BoardClick::PinAttack(cell);
    }
    if f.enemies_here && f.clicked_selected {
        return BoardClick::AttackOutOfPhase(cell);
    }
    // A click moves the selection to a highlighted cell, or to an empty one (to be told why not);
    // on another of the side's stacks it selects it, unless Shift is held, which moves the
    // selection onto it to merge (out of reach too: the refusal says why it cannot).
    let moves = f.selected && !f.clicked_selected && (f.own.is_empty() || f.shift);
    if moves {
        BoardClick::Move(cell)
    } else {
        BoardClick::Select(f.own)
    }
}

/// Gathers the facts of this frame's left click on a cell (none over a panel) and interprets it.
#[allow(clippy::too_many_arguments)]
fn interpret_clicks(
    buttons: Res<ButtonInput<MouseButton>>,
    (keys, over_ui, hovered): (Res<Keys>, Res<PointerOverUi>, Res<Hovered>),
    (index, turn, phase): (Res<MapIndex>, Res<TurnState>, Res<State<Phase>>),
    (sides, units): (Query<&Side>, Query<(&Side, &Unit)>),
    (selection, plan): (Res<Selection>, Res<AttackPlan>),
    (asked, ticks): (Res<Asked>, Res<AdvanceTicks>),
    mut this: ResMut<ThisClick>,
) {
    this.0 = None;
    if over_ui.0 || !buttons.just_pressed(MouseButton::Left) {
        return;
    }
    let Some(cell) = hovered.0 else { return };
    let own: Vec<String> = index
        .stack(cell)
        .iter()
        .filter_map(|e| units.get(*e).ok())
        .filter(|(s, _)| **s == turn.active)
        .map(|(_, u)| u.id.clone())
        .collect();
    let retreat_here = asked.retreat.as_ref().and_then(|r| {
        let (path, ..) = r.paths.iter().find(|(p, ..)| p.last() == Some(&cell))?;
        Some((r.unit.clone(), path.clone()))
    });
    let advance_here = asked
        .advance
        .as_ref()
        .filter(|a| a.targets.iter().any(|(c, ok)| *c == cell && ok.is_ok()))
        .map(|a| a.going_to(ticks.chosen(a), cell));
    this.0 = Some(interpret(ClickFacts {
        cell,
        combat_phase: *phase.get() == Phase::Combat,
        shift: keys.shift(),
        selected: !selection.units.is_empty(),
        clicked_selected: own.iter().any(|id| selection.units.contains(id)),
        attack_prepared: plan.target.is_some(),
        enemies_here: enemies_in(cell, &index, &sides, turn.active),
        own,
        retreat_here,
        advance_here,
    }));
}

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<ThisClick>().add_systems(
        Update,
        interpret_clicks
            .in_set(ClickSystems)
            .run_if(super::state::no_dialog)
            .run_if(
                in_state(GameState::Playing)
                    .and_then(resource_exists::<super::layout::Layout>)
                    .and_then(not(resource_exists::<super::state::Replay>)),
            ),
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_click_means_one_thing_in_the_rules_order() {
        let cell = Cell::new(3, 4);
        let mine = || vec!["pz".to_string()];
        let base = ClickFacts {
            cell,
            combat_phase: false,
            shift: false,
            selected: false,
            clicked_selected: false,
            attack_prepared: false,
            enemies_here: false,
            own: Vec::new(),
            retreat_here: None,
            advance_here: None,
        };
        let with = |f: &dyn Fn(&mut ClickFacts)| {
            let mut facts = base.clone();
            f(&mut facts);
            interpret(facts)
        };
        let cases: Vec<(BoardClick, BoardClick)> = vec![
            // Nothing selected: select.
            (with(&|_| {}), BoardClick::Select(Vec::new())),
            // An empty cell: move (in reach or not: the refusal says why).
            (with(&|f| f.selected = true), BoardClick::Move(cell)),
            // Another own stack: select it; Shift+click moves onto it to merge.
            (
                with(&|f| (f.selected, f.own) = (true, mine())),
                BoardClick::Select(mine()),
            ),
            (
                with(&|f| (f.selected, f.own, f.shift) = (true, mine(), true)),
                BoardClick::Move(cell),
            ),
            // The selection itself, Shift or not: select.
            (
                with(&|f| (f.selected, f.own, f.clicked_selected) = (true, mine(), true)),
                BoardClick::Select(mine()),
            ),
            (
                with(&|f| (f.selected, f.own, f.clicked_selected, f.shift) = (true, mine(), true, true)),
                BoardClick::Select(mine()),
            ),
            (
                with(&|f| (f.selected, f.enemies_here, f.combat_phase) = (true, true, true)),
                BoardClick::PinAttack(cell),
            ),
            (
                with(&|f| (f.selected, f.enemies_here, f.clicked_selected) = (true, true, true)),
                BoardClick::AttackOutOfPhase(cell),
            ),
            (
                with(&|f| {
                    (f.combat_phase, f.shift, f.attack_prepared, f.enemies_here) = (true, true, true, true);
                    f.own = mine();
                }),
                BoardClick::JoinOrLeaveAttack(mine()),
            ),
            (
                with(&|f| {
                    (f.selected, f.enemies_here, f.combat_phase) = (true, true, true);
                    f.retreat_here = Some(("u".into(), vec![cell]));
                }),
                BoardClick::Retreat {
                    unit: "u".into(),
                    path: vec![cell],
                },
            ),
            (
                with(&|f| f.advance_here = Some(vec!["a".into()])),
                BoardClick::Advance {
                    units: vec!["a".into()],
                    to: cell,
                },
            ),
            // An allowed cell none of the units ticked may enter: a plain click there.
            (
                with(&|f| f.advance_here = Some(Vec::new())),
                BoardClick::Select(Vec::new()),
            ),
        ];
        for (i, (got, expected)) in cases.iter().enumerate() {
            assert_eq!(got, expected, "case {i}");
        }
    }
}
