//! Helpers of the ML-DSA conformance tests: the shared vector helpers of `pqlab-testutil`
//! (locating the vector folder, reading JSON and hex, tallying results), and dispatching on a
//! parameter-set name.

pub use pqlab_testutil::vectors::*;

/// Runs `$f::<P>(args..)` for the ML-DSA parameter set named `$name` ("ML-DSA-44", ...).
#[macro_export]
macro_rules! with_param_set {
    ($name:expr, $f:ident ( $($arg:expr),* $(,)? )) => {
        match $name {
            "ML-DSA-44" => $f::<pqlab_mldsa::MlDsa44>($($arg),*),
            "ML-DSA-65" => $f::<pqlab_mldsa::MlDsa65>($($arg),*),
            "ML-DSA-87" => $f::<pqlab_mldsa::MlDsa87>($($arg),*),
            other => panic!("unknown parameter set {other:?}"),
        }
    };
}
