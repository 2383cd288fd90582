//! The description of the machine a report was measured on (DESIGN §4 `machine`).

use std::time::Duration;

use crate::probe;

/// The machine: processor, cores, TSC rate, instruction-set features and compiler.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Machine {
    /// The processor's model name.
    pub cpu: String,
    /// Logical processors available to this process.
    pub cores: usize,
    /// The time-stamp counter's rate in Hz (estimated against the monotonic clock), if any.
    pub tsc_hz: Option<f64>,
    /// Instruction-set extensions detected at run time, and TSC properties.
    pub features: Vec<String>,
    /// The compiler that built the lab.
    pub rustc: String,
    /// Operating system and architecture.
    pub os: String,
    /// The back end of pqlab's ML-DSA and ML-KEM kernels in this run (`portable`, `avx2`,
    /// `avx512`: `pqlab_backend::selected()`, forced by `--backend` or `PQLAB_BACKEND`).
    pub backend: String,
    /// The back ends this machine can run.
    pub backends_available: Vec<String>,
}

/// The first `model name` of /proc/cpuinfo, or the architecture.
fn cpu_model(cpuinfo: &str) -> String {
    cpuinfo
        .lines()
        .find_map(|l| {
            let (k, v) = l.split_once(':')?;
            (k.trim() == "model name").then(|| v.trim().to_string())
        })
        .unwrap_or_else(|| std::env::consts::ARCH.to_string())
}

#[cfg(target_arch = "x86_64")]
fn isa_features() -> Vec<String> {
    let mut f = Vec::new();
    macro_rules! probe_features {
        ($($name:tt),*) => {
            $(if std::arch::is_x86_feature_detected!($name) { f.push($name.to_string()); })*
        };
    }
    probe_features!(
        "sse2", "sse4.1", "avx", "avx2", "bmi2", "adx", "fma", "aes", "sha", "avx512f", "avx512bw",
        "avx512vl", "avx512dq"
    );
    f
}

#[cfg(not(target_arch = "x86_64"))]
fn isa_features() -> Vec<String> {
    Vec::new()
}

impl Machine {
    /// Describes this machine (takes about 50 ms to estimate the TSC rate).
    pub fn detect() -> Machine {
        let cpuinfo = std::fs::read_to_string("/proc/cpuinfo").unwrap_or_default();
        let mut features = isa_features();
        let flags = cpuinfo
            .lines()
            .find(|l| l.starts_with("flags"))
            .unwrap_or_default();
        for tsc_flag in ["constant_tsc", "nonstop_tsc"] {
            if flags.split_whitespace().any(|w| w == tsc_flag) {
                features.push(tsc_flag.to_string());
            }
        }
        Machine {
            cpu: cpu_model(&cpuinfo),
            cores: std::thread::available_parallelism().map_or(1, |n| n.get()),
            tsc_hz: probe::tsc_hz(Duration::from_millis(50)),
            features,
            rustc: env!("PQLAB_RUSTC_VERSION").to_string(),
            os: format!("{} {}", std::env::consts::OS, std::env::consts::ARCH),
            backend: pqlab_backend::selected().name().to_string(),
            backends_available: pqlab_backend::available()
                .map(|b| b.name().to_string())
                .collect(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_model_name() {
        let info = "processor\t: 0\nmodel name\t: Example CPU @ 2.00GHz\nflags\t: fpu\n";
        assert_eq!(cpu_model(info), "Example CPU @ 2.00GHz");
        assert_eq!(cpu_model(""), std::env::consts::ARCH);
    }
}
