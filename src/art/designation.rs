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
/// capitals kept (`CCB, 3rd Armored Division` → `CCB/3`, `17th SS Panzergrenadier` → `17 SS`);
/// without numbers, the initials of its other words (`Führer Begleit Brigade` → `FB`, `Western
/// Front` → `WF`), or a lone word's first letters (`Reserve` → `Res`). Empty for an empty name.
pub fn short_name(name: &str) -> String {
    let words: Vec<&str> = name
        .split(|c: char| c.is_whitespace() || ",:;()/".contains(c))
        .filter(|w| !w.is_empty())
        .collect();
    let numbers: Vec<String> = words.iter().filter_map(|w| number_in(w)).collect();
    let capitals: Vec<&str> = words
        .iter()
        .copied()
        .filter(|w| w.chars().count() >= 2 && w.chars().all(|c| c.is_uppercase()) && !is_roman(w))
        .collect();
    let short = if !numbers.is_empty() {
        // Whole numbers only: as many as fit.
        let numbers = numbers.iter().fold(String::new(), |mut kept, n| {
            if kept.is_empty() {
                kept.push_str(n);
            } else if kept.chars().count() + 1 + n.chars().count() <= MOST_CHARS {
                kept.push('/');
                kept.push_str(n);
            }
            kept
        });
        match capitals.first() {
            // A prefix when the name starts with it (CCB, 3rd …), else after the number.
            Some(c) if words.first() == Some(c) => format!("{c}/{numbers}"),
            Some(c) => format!("{numbers} {c}"),
            None => numbers,
        }
    } else {
        let proper: Vec<&str> = words
            .iter()
            .copied()
            .filter(|w| !KIND_WORDS.contains(&w.to_lowercase().as_str()))
            .collect();
        match proper.as_slice() {
            [] => words.first().map_or(String::new(), |w| w.chars().take(3).collect()),
            [one] if one.chars().all(char::is_uppercase) => one.to_string(),
            [one] => one.chars().take(3).collect(),
            many => many
                .iter()
                .filter_map(|w| w.chars().next())
                .flat_map(char::to_uppercase)
                .collect(),
        }
    };
    short.chars().take(MOST_CHARS).collect()
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
