//! Helpers of the ML-KEM conformance tests: the shared vector helpers of `pqlab-testutil`
//! (locating the vector folder, reading JSON, gzip and hex, CCTV fields, tallying results), and
//! dispatching on a parameter-set name.
#![allow(dead_code)]

pub use pqlab_testutil::vectors::*;

/// Runs `$f::<P>(args..)` for the ML-KEM parameter set named `$name` ("ML-KEM-512", ...).
#[macro_export]
macro_rules! with_param_set {
    ($name:expr, $f:ident ( $($arg:expr),* $(,)? )) => {
        match $name {
            "ML-KEM-512" => $f::<pqlab_mlkem::MlKem512>($($arg),*),
            "ML-KEM-768" => $f::<pqlab_mlkem::MlKem768>($($arg),*),
            "ML-KEM-1024" => $f::<pqlab_mlkem::MlKem1024>($($arg),*),
            other => panic!("unknown parameter set {other:?}"),
        }
    };
}

/// The three parameter-set names, in order.
pub const PARAM_SETS: [&str; 3] = ["ML-KEM-512", "ML-KEM-768", "ML-KEM-1024"];
