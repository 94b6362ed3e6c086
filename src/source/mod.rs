//! Text files and where things are in them: `Source` (a file's text, parsed as RON, with errors
//! located at a field), `LoadError` (file, line, column, field, message) and the RON dialect every
//! loader and saver shares. Below both the rules (combat tables are validated from ruleset text)
//! and the scenario layer, so neither imports the other for it.

pub mod error;
pub mod limits;
pub mod source_map;

pub use error::{LoadError, Source, list, read_file, ron_options, to_ron};
