// The linker set-up of an image on the shared runtime (`embedded/m4-rt`), included by the
// build scripts of `embedded/m4-lab` and `embedded/m4-smoke` (`include!`).

/// Writes `memory.x` into OUT_DIR (1 MiB of flash; `sram_kib` of SRAM at 0x20000000: the top
/// 4 KiB for .data, .bss and the main stack, the rest the process stack), passes the shared
/// `link.x`, and `-nostartfiles` when the linker is a GCC driver (`arm-none-eabi-gcc`, used
/// with Debian's rustc, which has no `rust-lld`).
fn link_runtime(sram_kib: u32) {
    let manifest = std::env::var("CARGO_MANIFEST_DIR").unwrap_or_else(|_| ".".into());
    let rt = std::path::Path::new(&manifest).join("../m4-rt");
    let out = std::path::PathBuf::from(std::env::var_os("OUT_DIR").expect("OUT_DIR"));
    let memory = format!(
        "MEMORY\n{{\n  FLASH : ORIGIN = 0x08000000, LENGTH = 1024K\n  \
         STACK : ORIGIN = 0x20000000, LENGTH = {}K\n  \
         RAM   : ORIGIN = 0x20000000 + {}K, LENGTH = 4K\n}}\n",
        sram_kib - 4,
        sram_kib - 4
    );
    std::fs::write(out.join("memory.x"), memory).expect("write memory.x");
    println!("cargo:rustc-link-search={}", rt.display());
    println!("cargo:rustc-link-search={}", out.display());
    println!("cargo:rustc-link-arg-bins=-Tlink.x");
    if std::env::var("RUSTC_LINKER").is_ok_and(|l| l.ends_with("gcc")) {
        println!("cargo:rustc-link-arg-bins=-nostartfiles");
    }
    println!("cargo:rerun-if-changed={}", rt.join("link.x").display());
    println!("cargo:rerun-if-changed={}", rt.join("link.rs").display());
    println!("cargo:rerun-if-env-changed=RUSTC_LINKER");
}
