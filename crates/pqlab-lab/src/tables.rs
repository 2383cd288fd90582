//! The precomputed tables of pqlab's algorithms (read-only data, besides stack and heap): the
//! bytes of each constant table an algorithm's code reads, from `core::mem::size_of_val` of
//! the constants themselves in their crates.

use pqlab_arith::{falcon, mldsa, mlkem};

/// One table.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Table {
    /// The crate that holds it.
    #[serde(rename = "crate")]
    pub krate: &'static str,
    /// What it is.
    pub name: &'static str,
    /// Its size in bytes.
    pub bytes: usize,
}

/// The tables of one algorithm.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct TableSizes {
    /// Algorithm.
    pub alg: String,
    /// The tables.
    pub tables: Vec<Table>,
    /// Their total size in bytes.
    pub total_bytes: usize,
}

fn t(krate: &'static str, name: &'static str, bytes: usize) -> Table {
    Table { krate, name, bytes }
}

/// The tables that the code of `alg` reads.
pub fn tables(alg: &str) -> Vec<Table> {
    let keccak = t(
        "pqlab-keccak",
        "Keccak-f round constants RC",
        pqlab_keccak::round_constants_bytes(),
    );
    if alg.starts_with("ml-dsa") {
        vec![
            keccak,
            t(
                "pqlab-arith",
                "NTT zetas (mod 8380417)",
                size_of_val(&mldsa::ZETAS),
            ),
        ]
    } else if alg.starts_with("ml-kem") {
        vec![
            keccak,
            t(
                "pqlab-arith",
                "NTT zetas (mod 3329)",
                size_of_val(&mlkem::ZETAS),
            ),
            t(
                "pqlab-arith",
                "base-case gammas",
                size_of_val(&mlkem::GAMMAS),
            ),
        ]
    } else if alg.starts_with("falcon") {
        let mut v = vec![
            keccak,
            t(
                "pqlab-arith",
                "NTT psi powers (mod 12289)",
                size_of_val(&falcon::PSI_POWERS),
            ),
            t(
                "pqlab-arith",
                "inverse NTT psi powers",
                size_of_val(&falcon::PSI_INV_POWERS),
            ),
        ];
        v.extend(
            pqlab_falcon::table_sizes()
                .into_iter()
                .map(|(name, bytes)| t("pqlab-falcon", name, bytes)),
        );
        v
    } else {
        Vec::new()
    }
}

/// The tables of each algorithm in `algs`.
pub fn for_algs(algs: &[String]) -> Vec<TableSizes> {
    algs.iter()
        .map(|a| {
            let tables = tables(a);
            TableSizes {
                alg: a.clone(),
                total_bytes: tables.iter().map(|t| t.bytes).sum(),
                tables,
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_sizes_are_those_of_the_constants() {
        let dsa = tables("ml-dsa-65");
        assert_eq!(dsa.iter().map(|t| t.bytes).collect::<Vec<_>>(), [192, 1024]);
        let kem = tables("ml-kem-512");
        assert_eq!(kem.iter().map(|t| t.bytes).sum::<usize>(), 192 + 256 + 256);
        let fal = tables("falcon-1024");
        // RC, two 1024-entry u16 tables, 2048 u64 FFT roots, 18 x 3 u32 RCDT.
        assert_eq!(
            fal.iter().map(|t| t.bytes).collect::<Vec<_>>(),
            [192, 2048, 2048, 16384, 216]
        );
        let all = for_algs(&["falcon-512".to_string()]);
        assert_eq!(all[0].total_bytes, 192 + 4096 + 16384 + 216);
    }
}
