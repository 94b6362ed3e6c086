//! What a file may ask for: every limit a scenario, ruleset, combat case or saved game is held
//! to, in one place (docs/formats.md lists them). Files come from strangers; a limit
//! turns a hostile or broken file into a clear error instead of a frozen or exhausted machine.

/// A file larger than this is refused before it is read (a 999×999 map is about 1 MiB).
pub const MAX_FILE_BYTES: u64 = 32 * 1024 * 1024;
/// Brackets nested deeper than this are refused by the parser (the formats nest about 6 deep).
pub const MAX_NESTING: usize = 64;
/// Cells each way on a map.
pub const MAX_MAP_SIDE: u32 = 999;
/// Units in one scenario.
pub const MAX_UNITS: usize = 4_000;
/// Units on one side of a combat case.
pub const MAX_CASE_UNITS: usize = 200;
/// Objectives in one scenario (one per cell).
pub const MAX_OBJECTIVES: usize = 1_000;
/// Win conditions in one scenario, and cells one of them names.
pub const MAX_WIN_CONDITIONS: usize = 16;
/// Sides in one scenario.
pub const MAX_SIDES: usize = 8;
/// Turns in one scenario.
pub const MAX_TURNS: u32 = 999;
/// Steps on one unit's step track.
pub const MAX_STEPS: usize = 20;
/// A combat value (strength, attack, defense, armor, a chit's values), experience, effectiveness
/// rating and stacking points.
pub const MAX_VALUE: u32 = 999;
/// A movement allowance, in movement points.
pub const MAX_MOVEMENT: f32 = 999.0;
/// Objective points (one objective, or a win condition's total).
pub const MAX_POINTS: u32 = 99_999;
/// Characters in an id (units, sides, terrain).
pub const MAX_ID_CHARS: usize = 64;
/// Characters in a name (scenario, side, unit, objective, place).
pub const MAX_NAME_CHARS: usize = 200;
/// Characters in a text (setting, description, victory, a log line).
pub const MAX_TEXT_CHARS: usize = 20_000;
/// Characters of a scenario's name used in a save's file name.
pub const MAX_SAVE_NAME_CHARS: usize = 60;
