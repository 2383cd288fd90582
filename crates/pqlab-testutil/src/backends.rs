//! The driver of the back-end equivalence tests (one per scheme: every SIMD kernel against the
//! portable one).

use pqlab_backend::Backend;

/// Runs `check` on every back end this CPU has (portable first); `check(b)` compares the
/// kernels of `b` with the portable ones and returns how many cases it compared, which must be
/// `cases`. Fails, so that the test can fail, when the CPU has the features of a SIMD back end
/// (detected here directly, not through `pqlab_backend`) and that back end's cases did not run.
/// `what` names the kernels in the printed line.
pub fn each_available(what: &str, cases: usize, check: impl Fn(Backend) -> usize) {
    let mut ran = Vec::new();
    for b in pqlab_backend::available() {
        assert_eq!(check(b), cases, "{what}: cases run on {}", b.name());
        ran.push(b);
    }
    let names: Vec<&str> = ran.iter().map(|b| b.name()).collect();
    println!(
        "{what} checked against portable ({cases} cases) under: {}",
        names.join(", ")
    );
    assert!(
        ran.contains(&Backend::Portable),
        "{what}: portable did not run"
    );
    for b in cpu_back_ends() {
        assert!(
            ran.contains(&b),
            "{what}: the CPU has the features of {} but none of its cases ran",
            b.name()
        );
    }
}

/// The SIMD back ends whose CPU features this machine has.
#[cfg(target_arch = "x86_64")]
fn cpu_back_ends() -> Vec<Backend> {
    let mut out = Vec::new();
    if std::is_x86_feature_detected!("avx2")
        && std::is_x86_feature_detected!("bmi2")
        && std::is_x86_feature_detected!("popcnt")
    {
        out.push(Backend::Avx2);
        if std::is_x86_feature_detected!("avx512f")
            && std::is_x86_feature_detected!("avx512bw")
            && std::is_x86_feature_detected!("avx512vl")
            && std::is_x86_feature_detected!("avx512dq")
        {
            out.push(Backend::Avx512);
        }
    }
    out
}

#[cfg(not(target_arch = "x86_64"))]
fn cpu_back_ends() -> Vec<Backend> {
    Vec::new()
}
