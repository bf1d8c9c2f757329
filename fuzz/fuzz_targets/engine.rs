//! The one engine a UCI fuzz target drives (not a target itself): made
//! once with a small table, shared by the runs of the process.
use hashmate_engine::uci::Engine;
use std::sync::{Mutex, OnceLock};

pub fn engine() -> &'static Mutex<Engine> {
    static E: OnceLock<Mutex<Engine>> = OnceLock::new();
    E.get_or_init(|| Mutex::new(Engine::new().expect("an engine with a small table")))
}
