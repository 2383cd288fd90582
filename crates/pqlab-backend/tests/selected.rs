//! Which back end a test run uses: the one `PQLAB_BACKEND` names when it is set (CI runs the
//! ML-DSA / ML-KEM / Keccak suites once per back end the CPU has, with this test beside them),
//! else the best the CPU has. A named back end that the CPU lacks fails here, so that a run
//! meant for it cannot silently test another.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

#[test]
fn runs_on_the_back_end_asked_for() {
    let selected = pqlab_backend::selected();
    println!(
        "back end: {selected} (available: {})",
        pqlab_backend::available()
            .map(|b| b.name())
            .collect::<Vec<_>>()
            .join(", ")
    );
    match pqlab_backend::from_env() {
        Ok(Some(b)) => assert_eq!(selected, b),
        Ok(None) => assert_eq!(selected, pqlab_backend::best_available()),
        Err(e) => panic!("PQLAB_BACKEND: {e}"),
    }
}
