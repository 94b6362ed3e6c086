//! Structure-aware inputs for the fuzz targets and the proptests (`tests/fuzz_properties.rs`
//! includes this file): valid-looking combat cases and scenarios of every ruleset built from
//! arbitrary bytes, with numbers small mostly and any u32/i32 sometimes, written as RON so they go
//! through the real loaders. Numbers past the limits must be refused there; numbers within them
//! must never overflow in the rules.
#![allow(dead_code)]

use arbitrary::Arbitrary;
use std::fmt::Write;

/// The built-in rulesets by name, every combat system among them.
fn rulesets() -> Vec<&'static str> {
    hexfront::scenario::ruleset::BUILTIN
        .iter()
        .map(|(name, _)| *name)
        .collect()
}
const CLASSES: [&str; 13] = [
    "Infantry",
    "LightInfantry",
    "Mechanized",
    "Motorized",
    "Armor",
    "Artillery",
    "Rocket",
    "AntiTank",
    "Recon",
    "Engineer",
    "Cavalry",
    "Airborne",
    "Headquarters",
];
const SIZES: [&str; 7] = [
    "Company",
    "Battalion",
    "Regiment",
    "Brigade",
    "Division",
    "Corps",
    "Army",
];
const STATUSES: [&str; 9] = [
    "Disorganized",
    "Dispersed",
    "Tipped",
    "LowSupply",
    "OutOfSupply",
    "Disrupted",
    "Shocked",
    "Panicked",
    "Clearing",
];
const TRAITS: [&str; 2] = ["InfantrySupport", "Mobile"];
const TACTICS: [&str; 8] = [
    "Recce",
    "Infiltration(None)",
    "DefenseInDepth",
    "Withdraw",
    "ReserveArtillery",
    "Airstrike",
    "CarpetBombing",
    "PinningAttack",
];
const EDGES: [&str; 7] = [
    "River",
    "MajorRiver",
    "Bridge",
    "Road",
    "Lake",
    "Strait",
    "FortificationLine",
];
const WEATHER: [&str; 8] = [
    "Clear",
    "Overcast",
    "Rain",
    "Mud",
    "Snow",
    "Frost",
    "HardFrost",
    "Storm",
];
const RETREAT: [&str; 3] = ["Retreat", "Steps", "Mix(1)"];

/// A number: small (0..16) mostly, any u32 one time in 32.
#[derive(Arbitrary, Debug, Clone, Copy)]
struct N {
    kind: u8,
    raw: u32,
}

impl N {
    fn get(self) -> u32 {
        if self.kind.is_multiple_of(32) {
            self.raw
        } else {
            self.raw % 16
        }
    }
}

#[derive(Arbitrary, Debug)]
enum Values {
    Strength(N),
    AttackDefense(N, N),
    Steps(Vec<(N, N)>),
    Chit(N, N, N),
}

#[derive(Arbitrary, Debug)]
struct Unit {
    class: u8,
    size: u8,
    values: Values,
    lost: u8,
    armor: Option<N>,
    er: Option<N>,
    experience: N,
    status: Vec<u8>,
    traits: Vec<u8>,
    crossing: Vec<u8>,
    nation: bool,
    participating: bool,
}

#[derive(Arbitrary, Debug)]
struct Support {
    tactics: Vec<u8>,
    barrage: Vec<(N, N, N)>,
    prepared_positions: N,
    hexsides: N,
    flanking: bool,
    no_retreat: bool,
    extra: Vec<(u8, i32, bool)>,
}

#[derive(Arbitrary, Debug)]
pub struct Case {
    ruleset: u8,
    terrain: u8,
    weather: u8,
    attacker: Unit,
    attackers: Vec<Unit>,
    defender: Unit,
    defenders: Vec<Unit>,
    attack: Support,
    defense: Support,
    conditions: [bool; 5],
    choices: (u8, u8, [bool; 5]),
}

fn pick<'a>(list: &[&'a str], i: u8) -> &'a str {
    list[i as usize % list.len()]
}

fn units(out: &mut String, side: &str, first: &Unit, more: &[Unit]) {
    let _ = write!(out, "{side}: [");
    for (i, u) in std::iter::once(first).chain(more.iter().take(11)).enumerate() {
        let (values, steps) = match &u.values {
            Values::Steps(steps) if !steps.is_empty() => {
                let s: Vec<String> = steps
                    .iter()
                    .take(24)
                    .map(|(a, d)| format!("(attack: {}, defense: {})", a.get(), d.get()))
                    .collect();
                (format!("steps: [{}]", s.join(", ")), s.len())
            }
            Values::Strength(n) => (format!("strength: {}", n.get()), 1),
            Values::Steps(_) => (format!("strength: {}", 1 + u.class % 8), 1),
            Values::AttackDefense(a, d) => (format!("attack: {}, defense: {}", a.get(), d.get()), 1),
            Values::Chit(f, r, c) => {
                let chit = format!("chit: (full: {}, reduced: {}, cadre: {})", f.get(), r.get(), c.get());
                (chit, if f.get() >= 3 { 3 } else { 2 })
            }
        };
        let list_of = |names: &[&str], picks: &[u8]| {
            picks
                .iter()
                .take(4)
                .map(|p| pick(names, *p))
                .collect::<Vec<_>>()
                .join(", ")
        };
        let _ = write!(
            out,
            "(id: \"{side}{i}\", class: {}, size: {}, {values}, lost: {}, experience: {}, status: [{}], traits: [{}], crossing: [{}], nation: \"{}\", participating: {}",
            pick(&CLASSES, u.class),
            pick(&SIZES, u.size),
            // Mostly fewer than its steps (a valid unit), sometimes any number.
            if u.lost % 32 == 31 {
                u.lost as usize
            } else {
                u.lost as usize % steps
            },
            u.experience.get(),
            list_of(&STATUSES, &u.status),
            list_of(&TRAITS, &u.traits),
            list_of(&EDGES, &u.crossing),
            if u.nation { "german" } else { "soviet" },
            u.participating,
        );
        if let Some(a) = u.armor {
            let _ = write!(out, ", armor: {}", a.get());
        }
        if let Some(e) = u.er {
            let _ = write!(out, ", er: {}", e.get());
        }
        out.push_str("),");
    }
    out.push_str("],\n");
}

fn support(out: &mut String, side: &str, s: &Support, first_id: &str) {
    let tactics: Vec<&str> = s.tactics.iter().take(3).map(|t| pick(&TACTICS, *t)).collect();
    let barrage: Vec<String> = s
        .barrage
        .iter()
        .take(4)
        .enumerate()
        .map(|(i, (b, r, d))| {
            format!(
                "(id: \"{side}-bty{i}\", barrage: {}, range: {}, distance: {})",
                b.get(),
                r.get(),
                d.get()
            )
        })
        .collect();
    let extra: Vec<String> = s
        .extra
        .iter()
        .take(4)
        .map(|(kind, n, big)| {
            let n = if *big && kind.is_multiple_of(16) { *n } else { n % 8 };
            let effect = ["ColumnShift", "DieModifier", "HitShift"][*kind as usize % 3];
            format!("(source: \"x\", effect: {effect}({n}))")
        })
        .collect();
    let _ = writeln!(
        out,
        "{side}: (tactics: [{}], barrage: [{}], prepared_positions: {}, hexsides: {}, flanking: {}, no_retreat: {}, extra: [{}], lead: Some(\"{first_id}\")),",
        tactics.join(", "),
        barrage.join(", "),
        s.prepared_positions.get(),
        s.hexsides.get(),
        s.flanking,
        s.no_retreat,
        extra.join(", "),
    );
}

/// The combat case `case` describes, as RON (`None` if its ruleset is missing).
pub fn case_text(case: &Case) -> Option<String> {
    let ruleset = pick(&rulesets(), case.ruleset);
    let Some(Ok(rules)) = hexfront::scenario::Ruleset::builtin(ruleset) else {
        return None;
    };
    let mut terrains: Vec<&String> = rules.terrain_ids.keys().collect();
    terrains.sort();
    let terrain = terrains[case.terrain as usize % terrains.len()];
    let mut text = format!(
        "CombatCase(ruleset: \"{ruleset}\", terrain: \"{terrain}\", weather: {},\n",
        pick(&WEATHER, case.weather)
    );
    units(&mut text, "attackers", &case.attacker, &case.attackers);
    units(&mut text, "defenders", &case.defender, &case.defenders);
    support(&mut text, "attack", &case.attack, "attackers0");
    support(&mut text, "defense", &case.defense, "defenders0");
    let [surrounded, first_phase, black_sea, forts, fortified] = case.conditions;
    let _ = writeln!(
        text,
        "conditions: (surrounded: {surrounded}, first_phase: {first_phase}, black_sea_control: {black_sea}, fortifications_active: {forts}, fortified: {fortified}),"
    );
    let (a, d, [evade, withdraws, exchange, ignore, attrition]) = case.choices;
    let _ = write!(
        text,
        "choices: (attacker_retreat: {}, defender_retreat: {}, evade: {evade}, defender_withdraws: {withdraws}, german_exchange: {exchange}, hold: {ignore}, attrition_as_retreat: {attrition}),\n)",
        pick(&RETREAT, a),
        pick(&RETREAT, d)
    );
    Some(text)
}

#[derive(Arbitrary, Debug)]
struct GameUnit {
    red: bool,
    class: u8,
    size: u8,
    col: u8,
    row: u8,
    steps: Vec<(N, N)>,
    strength: N,
    movement: u8,
    er: Option<N>,
    experience: Option<N>,
    status: Option<u8>,
    traits: Option<u8>,
}

#[derive(Arbitrary, Debug)]
pub struct Game {
    ruleset: u8,
    pointy: bool,
    width: u8,
    height: u8,
    cells: Vec<u8>,
    edges: Vec<(u8, u8, u8, u8, u8)>,
    road: Vec<(u8, u8)>,
    objectives: Vec<(u8, u8, N, Option<bool>)>,
    win: Vec<(bool, Option<N>, bool, bool)>,
    otherwise: Option<bool>,
    turns: u8,
    red_first: bool,
    units: Vec<GameUnit>,
    pub seed: u64,
}

fn label(col: u8, row: u8) -> String {
    format!("{:02}{:02}", col as u32 + 1, row as u32 + 1)
}

/// The scenario `g` describes, as RON.
pub fn game_text(g: &Game) -> Option<String> {
    let ruleset = pick(&rulesets(), g.ruleset);
    let Some(Ok(rules)) = hexfront::scenario::Ruleset::builtin(ruleset) else {
        return None;
    };
    let mut terrains: Vec<&String> = rules.terrain_ids.keys().collect();
    terrains.sort();
    let letters = "abcdefghijklmnopqrstuvwxyz";
    let legend: Vec<String> = terrains
        .iter()
        .zip(letters.chars())
        .map(|(t, c)| format!("'{c}': \"{t}\""))
        .collect();
    let (w, h) = (g.width % 10 + 2, g.height % 8 + 2);
    let rows: Vec<String> = (0..h)
        .map(|r| {
            let row: String = (0..w)
                .map(|c| {
                    let i = (r as usize * w as usize + c as usize) % g.cells.len().max(1);
                    let t = g.cells.get(i).copied().unwrap_or(0) as usize % terrains.len();
                    letters.chars().nth(t).unwrap()
                })
                .collect();
            format!("\"{row}\"")
        })
        .collect();
    let grid = if ruleset == "rommel" {
        "Square(diagonals: false)"
    } else if g.pointy {
        "Hex(top: Pointy)"
    } else {
        "Hex(top: Flat)"
    };
    let mut text = format!(
        "Scenario(name: \"Fuzz\", setting: \"Fuzz\", description: \"Fuzz\", ruleset: \"{ruleset}\",\n  map: (grid: {grid}, width: {w}, height: {h}, legend: {{{}}}, rows: [{}],\n",
        legend.join(", "),
        rows.join(", ")
    );
    // The neighbour of (c, r) that is adjacent on every grid: below it on flat-topped hexes and
    // squares, beside it on pointy-topped hexes (a far cell one time in 16, to be refused).
    let pointy = g.pointy && ruleset != "rommel";
    let next = |c: u8, r: u8, far: bool| {
        if far {
            (c.wrapping_add(2) % w, r.wrapping_add(2) % h)
        } else if pointy {
            ((c % (w - 1)) + 1, r % h)
        } else {
            (c % w, (r % (h - 1)) + 1)
        }
    };
    let edges: Vec<String> = g
        .edges
        .iter()
        .take(8)
        .map(|(f, c, r, far, _)| {
            let (c, r) = if pointy {
                (c % (w - 1), r % h)
            } else {
                (c % w, r % (h - 1))
            };
            let (c2, r2) = next(c, r, far.is_multiple_of(16));
            format!(
                "(feature: {}, between: [(\"{}\", \"{}\")])",
                pick(&EDGES, *f),
                label(c, r),
                label(c2, r2)
            )
        })
        .collect();
    // A road along one column (or row, on pointy-topped hexes).
    let road: Vec<String> = g
        .road
        .first()
        .map(|(c, r)| {
            (0..g.road.len().min(8) as u8)
                .map(|k| {
                    if pointy {
                        label(k % w, r % h)
                    } else {
                        label(c % w, k % h)
                    }
                })
                .map(|l| format!("\"{l}\""))
                .collect()
        })
        .unwrap_or_default();
    let _ = write!(
        text,
        "    edges: [{}], roads: [[{}]]),\n  sides: [(id: \"blue\", name: \"Blue\", color: \"#3050c0\", home_edge: West), (id: \"red\", name: \"Red\", color: \"#c03030\", home_edge: East)],\n  first_side: \"{}\", turns: {},\n",
        edges.join(", "),
        road.join(", "),
        if g.red_first { "red" } else { "blue" },
        g.turns % 4 + 1
    );
    let side = |red: bool| if red { "red" } else { "blue" };
    let objectives: Vec<String> = g
        .objectives
        .iter()
        .take(3)
        .enumerate()
        .map(|(i, (c, r, p, held))| {
            let held = held.map(|r| format!(", held_by: \"{}\"", side(r))).unwrap_or_default();
            format!(
                "(cell: \"{}\", name: \"O{i}\", points: {}{held})",
                label(c % w, r % h),
                p.get()
            )
        })
        .collect();
    let win: Vec<String> = g
        .win
        .iter()
        .take(2)
        .map(|(red, points, more, sudden)| {
            let points = points.map(|p| format!("points: {}, ", p.get())).unwrap_or_default();
            format!(
                "(side: \"{}\", {points}more_points: {more}, sudden_death: {sudden})",
                side(*red)
            )
        })
        .collect();
    let otherwise = g
        .otherwise
        .map(|r| format!("otherwise: \"{}\", ", side(r)))
        .unwrap_or_default();
    let _ = write!(
        text,
        "  objectives: [{}], victory: \"Fuzz\", win: [{}], {otherwise}\n  units: [\n",
        objectives.join(", "),
        win.join(", ")
    );
    for (i, u) in g.units.iter().take(16).enumerate() {
        let values = if u.steps.is_empty() {
            format!("strength: {}", u.strength.get())
        } else {
            let s: Vec<String> = u
                .steps
                .iter()
                .take(4)
                .map(|(a, d)| format!("(attack: {}, defense: {})", a.get(), d.get()))
                .collect();
            format!("steps: [{}]", s.join(", "))
        };
        let mut extra = String::new();
        if let Some(er) = u.er {
            let _ = write!(extra, ", er: {}", er.get());
        }
        if let Some(x) = u.experience {
            let _ = write!(extra, ", experience: {}", x.get());
        }
        if let Some(s) = u.status {
            let _ = write!(extra, ", status: [{}]", pick(&STATUSES, s));
        }
        if let Some(t) = u.traits {
            let _ = write!(extra, ", traits: [{}]", pick(&TRAITS, t));
        }
        let _ = writeln!(
            text,
            "    (id: \"u{i}\", name: \"U{i}\", side: \"{}\", class: {}, size: {}, cell: \"{}\", {values}, movement: {}{extra}),",
            side(u.red),
            pick(&CLASSES, u.class),
            pick(&SIZES, u.size),
            label(
                if u.red {
                    w / 2 + u.col % (w - w / 2)
                } else {
                    u.col % (w / 2)
                },
                u.row % h
            ),
            u.movement % 10,
        );
    }
    text.push_str("  ],\n)\n");
    Some(text)
}
