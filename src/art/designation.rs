//! What a counter prints about who a unit is, from the scenario's words: a short designation from
//! the unit's name ("2nd Bn, 120th Infantry" → `2/120`) and from its formation's ("30th Infantry
//! Division" → `30`), and the formation band's colour, one per formation of a side.

/// Words that say what kind of unit a name is, not which one: left out of a short name.
const KIND_WORDS: &[&str] = &[
    "army",
    "armored",
    "armoured",
    "artillery",
    "bde",
    "bn",
    "battalion",
    "battlegroup",
    "brigade",
    "cavalry",
    "co",
    "company",
    "corps",
    "detachment",
    "div",
    "division",
    "field",
    "grenadier",
    "group",
    "infantry",
    "mechanized",
    "motorized",
    "panzer",
    "panzergrenadier",
    "regiment",
    "rgt",
    "security",
    "tank",
    "the",
    "of",
    "and",
    "de",
    "du",
    "la",
    "das",
    "der",
    "die",
];

/// The most characters a short name keeps.
pub const MOST_CHARS: usize = 6;

/// A Roman numeral as printed on counters (`II`, `XIX`, `IV`): capitals from I, V, X, L, C only.
fn is_roman(word: &str) -> bool {
    !word.is_empty() && word.len() <= 6 && word.chars().all(|c| "IVXLC".contains(c))
}

/// The number a word starts with, its ordinal suffix dropped (`120th` → `120`), or the word
/// itself when it is a Roman numeral.
fn number_in(word: &str) -> Option<String> {
    let digits: String = word.chars().take_while(char::is_ascii_digit).collect();
    if !digits.is_empty() {
        return Some(digits);
    }
    is_roman(word).then(|| word.to_string())
}

/// A name's short form for a counter, at most `MOST_CHARS` characters: its numbers joined by `/`
/// (`2nd Bn, 120th Infantry` → `2/120`, `II Corps` → `II`, `Panzer Rgt 3` → `3`) with a name's
/// capitals kept (`CCB, 3rd Armored Division` → `CCB/3`, `17th SS Panzergrenadier` → `17 SS`,
/// `G Co, 3/1st Armored Rgt` → `G/3/1`);
/// without numbers, the initials of its other words (`Führer Begleit Brigade` → `FB`, `Western
/// Front` → `WF`), or a lone word's first letters (`Reserve` → `Res`). A name's words in
/// parentheses are left out (`4th Tank Bn (FCM 36)` → `4`); a name `parent: unit` gives the
/// unit's own short form first, then its parent's when there is room (`CCA 7th Armored: 40th
/// Tank Bn` → `40/CCA`), and so does `formation, unit` (`ROK 6th Infantry Division, 19th Rgt` →
/// `19/ROK`). Only whole parts are kept: a short form never ends in a cut-off number
/// or a separator. Empty for an empty name.
pub fn short_name(name: &str) -> String {
    let plain = without_parentheses(name);
    match parent_first(&plain) {
        Some((parent, unit)) => {
            let own = short_part(unit, MOST_CHARS);
            // The parent by its capitals when it has them (CCA 7th Armored → CCA).
            let room = MOST_CHARS.saturating_sub(own.chars().count() + 1);
            let parent = match capitals(parent) {
                Some(c) => c.to_string(),
                None => short_part(parent, room),
            };
            let joined = format!("{own}/{parent}");
            if !parent.is_empty() && joined.chars().count() <= MOST_CHARS {
                joined
            } else {
                own
            }
        }
        _ => short_part(&plain, MOST_CHARS),
    }
}

/// Formation words: a name's part that holds one names the unit's parent.
const FORMATION_WORDS: &[&str] = &["division", "corps", "army", "front"];

/// A name that gives the parent first and then the unit: `parent: unit`, or `parent, unit` when
/// the first part names a formation (`ROK 6th Infantry Division, 19th Rgt`).
fn parent_first(name: &str) -> Option<(&str, &str)> {
    if let Some((parent, unit)) = name.split_once(':') {
        return (!unit.trim().is_empty()).then_some((parent, unit));
    }
    let (parent, unit) = name.split_once(',')?;
    let names_formation = parent
        .split_whitespace()
        .any(|w| FORMATION_WORDS.contains(&w.to_lowercase().as_str()));
    (names_formation && !unit.trim().is_empty()).then_some((parent, unit))
}

/// `text` without what stands in parentheses.
fn without_parentheses(text: &str) -> String {
    let mut depth = 0usize;
    let mut out = String::new();
    for c in text.chars() {
        match c {
            '(' => depth += 1,
            ')' => depth = depth.saturating_sub(1),
            _ if depth == 0 => out.push(c),
            _ => {}
        }
    }
    out
}

/// Joins `parts` with `sep`, as many whole ones as fit in `room` characters.
fn fitting(parts: &[String], sep: char, room: usize) -> String {
    parts.iter().fold(String::new(), |mut kept, n| {
        let len = kept.chars().count();
        if len == 0 && n.chars().count() <= room {
            kept.push_str(n);
        } else if len > 0 && len + 1 + n.chars().count() <= room {
            kept.push(sep);
            kept.push_str(n);
        }
        kept
    })
}

/// A name's first word in capitals that is not a Roman numeral (`CCA`, `SS`, `ROK`, `G`).
fn capitals(name: &str) -> Option<&str> {
    name.split(|c: char| c.is_whitespace() || ",:;/".contains(c))
        .find(|w| !w.is_empty() && w.chars().all(char::is_uppercase) && !is_roman(w))
}

/// One name's short form in at most `room` characters (see `short_name`).
fn short_part(name: &str, room: usize) -> String {
    let words: Vec<&str> = name
        .split(|c: char| c.is_whitespace() || ",:;/".contains(c))
        .filter(|w| !w.is_empty())
        .collect();
    let numbers: Vec<String> = words.iter().filter_map(|w| number_in(w)).collect();
    let capital = capitals(name);
    if !numbers.is_empty() {
        let Some(c) = capital.filter(|c| c.chars().count() < room) else {
            return fitting(&numbers, '/', room);
        };
        // A prefix when the name starts with it (CCB, 3rd …), else after the numbers.
        let kept = fitting(&numbers, '/', room - c.chars().count() - 1);
        return match kept.is_empty() {
            true => c.to_string(),
            false if words.first() == Some(&c) => format!("{c}/{kept}"),
            false => format!("{kept} {c}"),
        };
    }
    let proper: Vec<&str> = words
        .iter()
        .copied()
        .filter(|w| !KIND_WORDS.contains(&w.to_lowercase().as_str()))
        .collect();
    let short: String = match proper.as_slice() {
        [] => words.first().map_or(String::new(), |w| w.chars().take(3).collect()),
        [one] if one.chars().all(char::is_uppercase) => one.to_string(),
        [one] => one.chars().take(3).collect(),
        many => many
            .iter()
            .filter_map(|w| w.chars().next())
            .flat_map(char::to_uppercase)
            .collect(),
    };
    short.chars().take(room).collect()
}

/// The most characters a counter's band holds, its two texts together: more would crowd the
/// band in the window's monospaced face.
pub const BAND_CHARS: usize = 7;

/// What a counter's band prints for a unit `name`d so, of formation `element`: its designation
/// on the left, its formation's on the right; the formation's left out when the two together
/// would pass `BAND_CHARS` (the band's colour still tells the formation).
pub fn band_texts(name: &str, element: Option<&str>) -> (String, String) {
    let own = short_name(name);
    let formation = element.map(short_name).unwrap_or_default();
    if own.chars().count() + formation.chars().count() <= BAND_CHARS {
        (own, formation)
    } else {
        (own, String::new())
    }
}

/// The formation bands' colours: light tints that tell a side's formations apart, black ink on
/// each at 4.5:1 or more (a test checks), none the counter's own face.
pub const BANDS: [[u8; 3]; 10] = [
    [240, 200, 90],
    [150, 205, 240],
    [245, 165, 150],
    [175, 225, 150],
    [215, 180, 240],
    [245, 240, 150],
    [205, 205, 205],
    [250, 190, 120],
    [150, 225, 210],
    [240, 175, 215],
];

/// The band of a unit of `element` on a side whose formations are `formations` (in the order the
/// scenario first names them): each formation its own colour, round again after ten; `None` for
/// a unit without a formation, or one the side does not list.
pub fn band_color(formations: &[String], element: Option<&str>) -> Option<[u8; 3]> {
    let element = element?;
    let i = formations.iter().position(|f| f == element)?;
    Some(BANDS[i % BANDS.len()])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_shorten_as_counters_print_them() {
        let cases = [
            ("2nd Bn, 120th Infantry (Hill 317)", "2/120"),
            ("120th Infantry Rgt", "120"),
            ("Panzer Rgt 3", "3"),
            ("StuG Battalion 177", "177"),
            ("II Corps", "II"),
            ("XIX Panzer Corps", "XIX"),
            ("CCB, 3rd Armored Division", "CCB/3"),
            ("17th SS Panzergrenadier Division", "17 SS"),
            ("Führer Begleit Brigade", "FB"),
            ("SS Division Das Reich", "SR"),
            ("Western Front", "WF"),
            ("Reserve", "Res"),
            ("Infantry Regiment Grossdeutschland", "Gro"),
            ("ROK 5th Mechanized Division", "ROK/5"),
            ("Army Group Centre reserve", "CR"),
            ("", ""),
            ("Division", "Div"),
            ("1st 2nd 3rd 4th 5th", "1/2/3"),
            ("CCA 7th Armored: 40th Tank Bn", "40/CCA"),
            ("ROK 6th Infantry Division, 19th Rgt", "19/ROK"),
            ("US 2nd Infantry Division, Stryker BCT", "SB/US"),
            ("4th Tank Bn (FCM 36)", "4"),
            ("Führer Begleit Bde: Grenadier Bn II", "II/FB"),
            ("CCB 7th Armored: 23rd Armored Infantry Bn", "23/CCB"),
            ("G Co, 3/1st Armored Rgt", "G/3/1"),
        ];
        for (name, short) in cases {
            assert_eq!(short_name(name), short, "{name}");
        }
        // Every shipped unit and formation gets a short name that fits the counter.
        let mut checked = 0;
        for i in 0..crate::scenario::SHIPPED.len() {
            let s = crate::scenario::shipped_scenario(i).unwrap();
            for u in &s.units {
                for text in std::iter::once(u.name.as_str()).chain(u.element.as_deref()) {
                    let short = short_name(text);
                    assert!(
                        !short.is_empty() && short.chars().count() <= MOST_CHARS,
                        "{text}: {short}"
                    );
                    checked += 1;
                }
            }
        }
        assert!(checked > 700, "{checked}");
        assert_eq!(
            band_texts("2nd Bn, 120th Infantry", Some("30th Infantry Division")),
            ("2/120".into(), "30".into())
        );
        assert_eq!(
            band_texts("SS Panzer Rgt 2", Some("2nd SS Panzer Division")),
            ("SS/2".into(), String::new())
        );
        assert_eq!(band_texts("Reserve", None), ("Res".into(), String::new()));
        // Counters of one formation tell apart: no two of a side's units in one formation share
        // both designation and class (the 40th and 23rd of CCB, 7th Armored; ROK regiments).
        for i in 0..crate::scenario::SHIPPED.len() {
            let s = crate::scenario::shipped_scenario(i).unwrap();
            let mut seen = std::collections::BTreeMap::new();
            for u in &s.units {
                let key = (u.side, u.element.clone(), short_name(&u.name), format!("{:?}", u.class));
                if let Some(other) = seen.insert(key, u.name.clone()) {
                    panic!("{}: {} and {other} print alike", s.raw.name, u.name);
                }
            }
        }
    }

    #[test]
    fn each_formation_of_a_side_has_its_band_and_ink_reads_on_it() {
        let ink = super::super::counter::INK;
        for band in BANDS {
            let ratio = super::super::contrast(ink, band);
            assert!(ratio >= 4.5, "{band:?}: {ratio:.2}");
        }
        for (i, a) in BANDS.iter().enumerate() {
            for b in &BANDS[i + 1..] {
                assert!(super::super::delta_e(*a, *b) >= 15.0, "{a:?} {b:?}");
            }
        }
        let s = crate::scenario::default_scenario().unwrap();
        let german = &s.sides[0].formations;
        assert!(german.len() >= 4, "{german:?}");
        let colours: Vec<_> = german.iter().map(|f| band_color(german, Some(f)).unwrap()).collect();
        for (i, c) in colours.iter().enumerate() {
            assert!(!colours[i + 1..].contains(c), "{german:?}");
        }
        assert_eq!(band_color(german, None), None);
        assert_eq!(band_color(german, Some("No such division")), None);
    }
}
