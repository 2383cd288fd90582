//! NIST ACVP conformance tests for ML-DSA (FIPS 204): keyGen, sigGen (revisions FIPS204 and
//! FIPS204-tr1) and sigVer, from `<vectors>/acvp/`. See the vector folder's README for the
//! file formats; the cases are in `acvp_mldsa/cases.rs`.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

#[path = "acvp_mldsa/cases.rs"]
mod cases;
mod common;

#[test]
fn acvp_keygen() {
    cases::keygen();
}

#[test]
fn acvp_siggen() {
    cases::siggen();
}

#[test]
fn acvp_siggen_tr1() {
    cases::siggen_tr1();
}

#[test]
fn acvp_sigver() {
    cases::sigver();
}
