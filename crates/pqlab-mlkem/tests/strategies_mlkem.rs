//! The ML-KEM ACVP vector sets (keyGen, encapDecap, encapDecap-tr1) under every reduction
//! strategy of `pqlab_arith::reduce`: the scheme's NTTs dispatch on the process-wide selector,
//! so this binary holds a single test that switches it sequentially (no other test here can
//! race with it).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

#[path = "acvp_mlkem/cases.rs"]
mod cases;
mod common;

use pqlab_arith::reduce::{Strategy, set_strategy, strategy};

#[test]
fn acvp_under_every_reduction_strategy() {
    if common::vectors_dir().is_none() {
        return;
    }
    for s in Strategy::ALL {
        set_strategy(s);
        assert_eq!(strategy(), s);
        println!("== reduction strategy {}", s.name());
        cases::key_gen();
        cases::encap_decap();
        cases::encap_decap_tr1();
    }
    set_strategy(Strategy::Montgomery);
    println!(
        "all ML-KEM ACVP sets passed under {} strategies",
        Strategy::ALL.len()
    );
}
