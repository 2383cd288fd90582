//! The tools of the M4 lab: the toolchain check, building the firmware images (or finding
//! prebuilt ones) and running an image under QEMU.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::LabError;

/// The Rust target of the firmware.
pub const THUMB: &str = "thumbv7em-none-eabihf";

/// The firmware crate: `PQLAB_M4_LAB_DIR`, else `embedded/m4-lab` of the source tree this
/// lab was built from.
pub fn firmware_dir() -> PathBuf {
    std::env::var_os("PQLAB_M4_LAB_DIR")
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../../embedded/m4-lab"))
}

fn tool_missing(what: &str, how: &str) -> LabError {
    LabError::Config(format!("--target cortex-m4: {what} not found ({how})"))
}

fn runs(cmd: &str, args: &[&str]) -> bool {
    Command::new(cmd)
        .args(args)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

/// Checks for QEMU and, where images must be built, for the Rust target and (for PQClean)
/// the GCC cross compiler; one line naming what is missing.
pub fn check_tools(build: bool, pqclean: bool) -> Result<(), LabError> {
    if !runs("qemu-system-arm", &["--version"]) {
        return Err(tool_missing(
            "qemu-system-arm",
            "install QEMU's ARM system emulator, e.g. apt-get install qemu-system-arm",
        ));
    }
    if !build {
        return Ok(());
    }
    let libdir = Command::new("rustc")
        .args(["--print", "target-libdir", "--target", THUMB])
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map(|o| PathBuf::from(String::from_utf8_lossy(&o.stdout).trim()));
    let has_core = libdir
        .and_then(|d| std::fs::read_dir(d).ok())
        .is_some_and(|mut it| {
            it.any(|e| e.is_ok_and(|e| e.file_name().to_string_lossy().starts_with("libcore-")))
        });
    if !has_core {
        return Err(tool_missing(
            &format!("the Rust target {THUMB}"),
            &format!("rustup target add {THUMB}"),
        ));
    }
    if pqclean && !has_cross_gcc() {
        return Err(tool_missing(
            "arm-none-eabi-gcc (for PQClean's C code, --peers)",
            "e.g. apt-get install gcc-arm-none-eabi",
        ));
    }
    if !firmware_dir().join("Cargo.toml").is_file() {
        return Err(tool_missing(
            &format!("the firmware crate at {}", firmware_dir().display()),
            "set PQLAB_M4_LAB_DIR to embedded/m4-lab, or PQLAB_M4_IMAGES to prebuilt images",
        ));
    }
    Ok(())
}

/// Whether the GCC cross compiler that builds PQClean's C code is installed.
pub fn has_cross_gcc() -> bool {
    runs("arm-none-eabi-gcc", &["--version"])
}

/// The RAM an image gives its process stack: the chip's 128 KiB, or QEMU's 192 KiB of SRAM
/// (the `emulator-ram` feature), only to measure what an operation that does not fit needs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ram {
    /// The STM32F405's 128 KiB.
    Chip,
    /// QEMU's 192 KiB at the same address (more than the chip has there).
    Emulator,
}

/// pqlab's configurations other than the library's default, by the schemes they apply to
/// (a prefix of the parameter set's name): `small-memory` (ML-DSA and ML-KEM, less stack),
/// `fpr-emu` (Falcon with integer-only binary64 instead of native `f64`, which is soft-float
/// calls on the Cortex-M4F), [`OPT_SIZE`] (every scheme: the same code built for size), and
/// small memory built for size (ML-DSA and ML-KEM). A configuration is a comma-separated list
/// of firmware features, and [`OPT_SIZE`], which picks the firmware's `release-size` profile.
pub const CONFIGS: [(&str, &str); 4] = [
    ("small-memory", "ml-"),
    ("fpr-emu", "falcon-"),
    (OPT_SIZE, ""),
    ("small-memory,opt-size", "ml-"),
];

/// The size-optimised image configuration: not a feature but the firmware's cargo profile
/// `release-size` (`opt-level = "s"`, LTO, one codegen unit; embedded/m4-lab/Cargo.toml)
/// instead of `release` (`opt-level = 3`).
pub const OPT_SIZE: &str = "opt-size";

/// The cargo profile and the firmware features of `config` (see [`CONFIGS`]).
pub fn profile_and_features(config: &str) -> (&'static str, Vec<&str>) {
    let parts = config.split(',').filter(|c| !c.is_empty());
    let size = parts.clone().any(|c| c == OPT_SIZE);
    let features = parts.filter(|&c| c != OPT_SIZE).collect();
    (if size { "release-size" } else { "release" }, features)
}

/// The file name of an image (`config`: "" for the default configuration, else another of
/// [`CONFIGS`], its commas written `+`).
pub fn image_name(implementation: &str, alg: &str, config: &str, ram: Ram) -> String {
    let config = if config.is_empty() {
        String::new()
    } else {
        format!("-{}", config.replace(',', "+"))
    };
    match ram {
        Ram::Chip => format!("{implementation}-{alg}{config}.elf"),
        Ram::Emulator => format!("{implementation}-{alg}{config}-emulator-ram.elf"),
    }
}

/// Where the images are: `PQLAB_M4_IMAGES` (prebuilt, nothing is built) or a folder under
/// the cargo target directory (built here).
pub fn images_dir() -> (PathBuf, bool) {
    if let Some(d) = std::env::var_os("PQLAB_M4_IMAGES").filter(|v| !v.is_empty()) {
        return (PathBuf::from(d), false);
    }
    let target = std::env::var_os("CARGO_TARGET_DIR")
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
        .unwrap_or_else(|| firmware_dir().join("../../target"));
    (target.join("m4-lab"), true)
}

/// Builds the image of `implementation` (`pqlab`, `pqclean` or `baseline`), `alg` and
/// `config` (see [`image_name`]) with `ram` into `dir` with cargo (the firmware crate's
/// `release` profile, or `release-size` for [`OPT_SIZE`]) and returns its path.
pub fn build_image(
    dir: &Path,
    implementation: &str,
    alg: &str,
    config: &str,
    ram: Ram,
) -> Result<PathBuf, LabError> {
    let mut features = match implementation {
        "baseline" => "baseline".to_string(),
        "pqclean" => format!("{alg},pqclean"),
        _ => alg.to_string(),
    };
    let (profile, config_features) = profile_and_features(config);
    for f in config_features {
        features = format!("{features},{f}");
    }
    if ram == Ram::Emulator {
        features.push_str(",emulator-ram");
    }
    let fw = firmware_dir();
    let out = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()))
        .current_dir(&fw)
        .args([
            "build",
            "--profile",
            profile,
            "--quiet",
            "--features",
            &features,
        ])
        .arg("--target-dir")
        .arg(dir.join("build"))
        .stdin(Stdio::null())
        .output()
        .map_err(|e| LabError::Config(format!("--target cortex-m4: cannot run cargo: {e}")))?;
    if !out.status.success() {
        let err = String::from_utf8_lossy(&out.stderr);
        let last = err
            .lines()
            .rev()
            .find(|l| !l.trim().is_empty())
            .unwrap_or("");
        return Err(LabError::Implementation(format!(
            "building the M4 image {implementation} {alg} {config} failed: {last}"
        )));
    }
    let built = dir
        .join("build")
        .join(THUMB)
        .join(profile)
        .join("pqlab-m4-lab");
    let image = dir.join(image_name(implementation, alg, config, ram));
    std::fs::copy(&built, &image)
        .map_err(|e| LabError::Implementation(format!("copying {}: {e}", built.display())))?;
    Ok(image)
}

/// Runs `image` under QEMU's netduinoplus2 with `-icount shift=0` and the command line
/// `args`; returns its output (QEMU 7.2 writes the semihosting console to its standard error;
/// standard output is appended). A run longer than `limit` is stopped.
pub fn run_image(image: &Path, args: &str, limit: Duration) -> Result<String, LabError> {
    let mut child = Command::new("qemu-system-arm")
        .args([
            "-M",
            "netduinoplus2",
            "-display",
            "none",
            "-monitor",
            "none",
        ])
        .args(["-serial", "none", "-icount", "shift=0"])
        .args(["-semihosting-config", "enable=on,target=native", "-kernel"])
        .arg(image)
        .args(["-append", args])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| LabError::Config(format!("cannot run qemu-system-arm: {e}")))?;
    let stdout = child.stdout.take();
    let stderr = child.stderr.take();
    let read_all = |pipe: Option<Box<dyn std::io::Read + Send>>| {
        std::thread::spawn(move || {
            let mut s = String::new();
            if let Some(mut p) = pipe {
                let _ = p.read_to_string(&mut s);
            }
            s
        })
    };
    let reader = read_all(stderr.map(|p| Box::new(p) as Box<dyn std::io::Read + Send>));
    let reader_out = read_all(stdout.map(|p| Box::new(p) as Box<dyn std::io::Read + Send>));
    let start = Instant::now();
    loop {
        match child.try_wait() {
            Ok(Some(_)) => break,
            Ok(None) if start.elapsed() > limit => {
                let _ = child.kill();
                let _ = child.wait();
                return Err(LabError::Implementation(format!(
                    "{} ({args}) ran longer than {} s under QEMU",
                    image.display(),
                    limit.as_secs()
                )));
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(20)),
            Err(e) => return Err(LabError::Implementation(format!("qemu: {e}"))),
        }
    }
    let mut text = reader.join().unwrap_or_default();
    text.push_str(&reader_out.join().unwrap_or_default());
    Ok(text)
}
