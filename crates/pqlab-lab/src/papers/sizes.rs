//! Sizes compared exactly: the published size tables and size claims beside this build's
//! encodings (FIPS 204 ML-DSA, FIPS 203 ML-KEM, Falcon round 3 v1.2), with the round-3
//! Dilithium sizes that FIPS 204 changed named.

use serde_json::Value;

use super::{Paper, SizeCheck, Verdict};
use crate::registry;

/// Round-3 Dilithium sizes that differ in FIPS 204: (alg, field, round-3 bytes, why).
const ROUND3: [(&str, &str, u64, &str); 5] = [
    (
        "ml-dsa-44",
        "secret_key",
        2528,
        "round-3 Dilithium2 secret key: FIPS 204 makes tr 64 bytes (was 32)",
    ),
    (
        "ml-dsa-65",
        "secret_key",
        4000,
        "round-3 Dilithium3 secret key: FIPS 204 makes tr 64 bytes (was 32)",
    ),
    (
        "ml-dsa-87",
        "secret_key",
        4864,
        "round-3 Dilithium5 secret key: FIPS 204 makes tr 64 bytes (was 32)",
    ),
    (
        "ml-dsa-65",
        "signature",
        3293,
        "round-3 Dilithium3 signature: FIPS 204 makes c~ lambda/4 = 48 bytes (was 32)",
    ),
    (
        "ml-dsa-87",
        "signature",
        4595,
        "round-3 Dilithium5 signature: FIPS 204 makes c~ lambda/4 = 64 bytes (was 32)",
    ),
];

/// Falcon's signature size as the specification lists it (v1.2, Table 3.3: sbytelen), which
/// the studies print. Signatures vary in length: pqlab's encoder allows up to the round-3 NIST
/// API bound (688 / 1328 bytes, which a KAT signature needs), and they average about 655 /
/// 1270 bytes.
const FALCON_SBYTELEN: [(&str, u64, u64); 2] =
    [("falcon-512", 666, 688), ("falcon-1024", 1280, 1328)];

/// This build's size of `field` (`public_key`, `secret_key`, `signature`, `ciphertext`,
/// `total` = public key + secret key + signature) for `alg`; the Falcon signature is the
/// specification's sbytelen (`FALCON_SBYTELEN`), since Falcon signatures vary in length.
pub fn ours(alg: &str, field: &str) -> Option<u64> {
    if field == "signature"
        && let Some(f) = FALCON_SBYTELEN.iter().find(|f| f.0 == alg)
    {
        return Some(f.1);
    }
    let e = registry::ours()
        .into_iter()
        .find(|e| e.info().alg == alg && e.variant().is_none())?;
    let i = e.info();
    let n = match field {
        "public_key" => Some(i.public_key),
        "secret_key" => Some(i.secret_key),
        "signature" => i.signature,
        "ciphertext" => i.ciphertext,
        "total" => {
            return Some(
                ours(alg, "public_key")? + ours(alg, "secret_key")? + ours(alg, "signature")?,
            );
        }
        _ => None,
    }?;
    u64::try_from(n).ok()
}

/// The round-3 size of `field` of `alg` where it differs from FIPS, with why.
fn round3(alg: &str, field: &str) -> Option<(u64, String)> {
    if field == "total" {
        let parts = ["public_key", "secret_key", "signature"];
        let mut why = Vec::new();
        let mut sum = 0;
        for p in parts {
            match round3(alg, p) {
                Some((n, w)) => {
                    sum += n;
                    why.push(w);
                }
                None => sum += ours(alg, p)?,
            }
        }
        return (!why.is_empty()).then(|| (sum, why.join("; ")));
    }
    ROUND3
        .iter()
        .find(|r| r.0 == alg && r.1 == field)
        .map(|r| (r.2, r.3.to_string()))
}

/// `published` bytes of `field` of `alg` against this build: exact, the round-3 size, or a
/// contradiction. `None` where this build has no such algorithm or field.
pub fn compare(alg: &str, field: &str, published: u64) -> Option<(u64, Verdict, String)> {
    let m = ours(alg, field)?;
    if m == published {
        let note = match FALCON_SBYTELEN.iter().find(|f| f.0 == alg) {
            Some(f) if field == "signature" || field == "total" => format!(
                "equal to the specification's sbytelen ({} B, Falcon v1.2 Table 3.3); signatures \
                 vary in length: pqlab encodes up to {} B (round-3 API bound), the run's mean \
                 is in the sizes table",
                f.1, f.2
            ),
            _ => "equal".into(),
        };
        return Some((m, Verdict::Confirms, note));
    }
    if let Some((r3, why)) = round3(alg, field)
        && r3 == published
    {
        return Some((
            m,
            Verdict::ConfirmsRound3,
            format!("{why}; FIPS 204: {m} B"),
        ));
    }
    let hint = if alg.starts_with("falcon") && field == "secret_key" {
        "; the round-3 encoded secret key (f, g, F) is this size"
    } else {
        ""
    };
    Some((
        m,
        Verdict::Contradicts,
        format!("differs: {published} B published, {m} B here{hint}"),
    ))
}

/// The field a table's column or row label names.
fn field_of(label: &str) -> Option<&'static str> {
    match label {
        "public_key_bytes" | "public key" | "pk_bytes" => Some("public_key"),
        "secret_key_bytes" | "private key" | "secret key" => Some("secret_key"),
        "signature_bytes" | "signature" => Some("signature"),
        "ciphertext_bytes" | "ciphertext" => Some("ciphertext"),
        "total" => Some("total"),
        _ => None,
    }
}

/// Every size cell of `paper`'s tables beside this build: tables with a `scheme_id` column
/// and `*_bytes` columns, and tables whose columns are schemes (`column_scheme_ids`) and
/// whose rows are sizes.
pub fn tables(stem: &str, paper: &Paper) -> Vec<SizeCheck> {
    let mut out = Vec::new();
    let mut push = |table: &str, alg: &str, field: &str, v: &Value| {
        let Some(p) = v.as_u64() else { return };
        if let Some((m, verdict, note)) = compare(alg, field, p) {
            out.push(SizeCheck {
                paper: stem.to_string(),
                table: table.to_string(),
                alg: alg.to_string(),
                field: field.to_string(),
                published: p,
                measured: m,
                verdict,
                note,
            });
        }
    };
    for t in &paper.tables {
        let size_table = t.caption.to_ascii_lowercase().contains("size");
        if let Some(ids) = &t.column_scheme_ids {
            if !size_table {
                continue;
            }
            for row in &t.rows {
                let Some(field) = row.first().and_then(Value::as_str).and_then(field_of) else {
                    continue;
                };
                for (alg, cell) in ids.iter().zip(row.iter().skip(row.len() - ids.len())) {
                    push(&t.id, alg, field, cell);
                }
            }
            continue;
        }
        let Some(sid) = t.columns.iter().position(|c| c == "scheme_id") else {
            continue;
        };
        let fields: Vec<(usize, &'static str)> = t
            .columns
            .iter()
            .enumerate()
            .filter_map(|(i, c)| {
                field_of(c)
                    .filter(|_| c.ends_with("_bytes"))
                    .map(|f| (i, f))
            })
            .collect();
        for row in &t.rows {
            let Some(alg) = row.get(sid).and_then(Value::as_str) else {
                continue;
            };
            for &(i, field) in &fields {
                push(&t.id, alg, field, &row[i]);
            }
        }
    }
    out
}
