//! NIST ACVP ML-KEM vector sets (final FIPS 203): `ML-KEM-keyGen-FIPS203` (75 cases),
//! `ML-KEM-encapDecap-FIPS203` (165) and `ML-KEM-encapDecap-FIPS203-tr1` (195); the cases are in
//! `acvp_mlkem/cases.rs`.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod cases;

#[test]
fn acvp_key_gen() {
    cases::key_gen();
}

#[test]
fn acvp_encap_decap() {
    cases::encap_decap();
}

#[test]
fn acvp_encap_decap_tr1() {
    cases::encap_decap_tr1();
}
