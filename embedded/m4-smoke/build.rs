//! Passes the linker script, and `-nostartfiles` when the linker is a GCC driver
//! (`arm-none-eabi-gcc`, used with Debian's rustc, which has no `rust-lld`).

use std::env;

fn main() {
    let dir = env::var("CARGO_MANIFEST_DIR").unwrap_or_else(|_| ".".into());
    println!("cargo:rustc-link-search={dir}");
    println!("cargo:rustc-link-arg-bins=-Tlink.x");
    if env::var("RUSTC_LINKER").is_ok_and(|l| l.ends_with("gcc")) {
        println!("cargo:rustc-link-arg-bins=-nostartfiles");
    }
    println!("cargo:rerun-if-changed=link.x");
    println!("cargo:rerun-if-env-changed=RUSTC_LINKER");
}
