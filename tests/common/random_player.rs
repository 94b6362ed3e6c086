//! The random legal player lives in the library (the balance lab uses it as a baseline).

#[allow(unused_imports)]
pub use hexfront::ai::random::random_order;
