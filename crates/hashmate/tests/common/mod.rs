//! The shared test helpers (the `hashmate-test-support` dev-dependency).
#![allow(unused_imports)]

pub use hashmate_test_support::{
    data, find, peer_available, perft_cases, perft_file, python_chess, python_chess_oracle, run_ok,
};
