//! Not a fuzz target: writes the seed corpora of every target (`.ci/fuzz` runs it once, with
//! `PQLAB_FUZZ_CORPUS` naming the output folder and `PQLAB_VECTORS` the test vectors, then
//! exits). It is built as a fuzz binary so that it needs no second, uninstrumented build of the
//! dependencies. Seeds: keys, signatures and ciphertexts from the vectors (ACVP, Wycheproof,
//! the Falcon KAT files), in each target's input layout, plus what only our own code can make
//! (signatures by the fixed keys the targets verify with, PKCS#8 / SPKI / PEM of every
//! algorithm, ClientHellos of pqlab's TLS client for every group).
#![no_main]

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use libfuzzer_sys::fuzz_target;
use pqlab_fuzz::{falcon_key, mldsa_key, mlkem_key};
use pqlab_tls::cert::{CertAlg, Keypair};
use pqlab_tls::rustls::pki_types::ServerName;
use pqlab_tls::rustls::{ClientConfig, ClientConnection, RootCertStore};

/// The seeds, per target, deduplicated.
#[derive(Default)]
struct Seeds(BTreeMap<&'static str, Vec<Vec<u8>>>);

impl Seeds {
    fn add(&mut self, target: &'static str, seed: Vec<u8>) {
        let v = self.0.entry(target).or_default();
        if v.len() < 300 && !v.contains(&seed) {
            v.push(seed);
        }
    }

    fn write(&self, out: &Path) {
        for (target, seeds) in &self.0 {
            let dir = out.join(target);
            std::fs::create_dir_all(&dir).expect("corpus folder");
            for (i, s) in seeds.iter().enumerate() {
                std::fs::write(dir.join(format!("seed-{i:04}")), s).expect("write seed");
            }
            println!("seed_corpus: {target}: {} seeds", seeds.len());
        }
    }
}

fn cat(parts: &[&[u8]]) -> Vec<u8> {
    parts.concat()
}

fn len16(b: &[u8]) -> Vec<u8> {
    let n = u16::try_from(b.len()).expect("short field");
    let mut v = n.to_le_bytes().to_vec();
    v.extend_from_slice(b);
    v
}

/// Every string field named `key` anywhere in `json`, hex-decoded.
fn collect(json: &serde_json::Value, key: &str, out: &mut Vec<Vec<u8>>) {
    match json {
        serde_json::Value::Object(m) => {
            for (k, v) in m {
                if k == key
                    && let Some(b) = v.as_str().and_then(|s| hex::decode(s).ok())
                {
                    out.push(b);
                }
                collect(v, key, out);
            }
        }
        serde_json::Value::Array(a) => a.iter().for_each(|v| collect(v, key, out)),
        _ => {}
    }
}

fn json_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<_> = rd.flatten().map(|e| e.path()).collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            json_files(&p, out);
        } else if p.extension().is_some_and(|e| e == "json")
            && !p.to_string_lossy().contains("schema")
        {
            out.push(p);
        }
    }
}

const DSA_PK: [usize; 3] = [1312, 1952, 2592];
const DSA_SK: [usize; 3] = [2560, 4032, 4896];
const DSA_SIG: [usize; 3] = [2420, 3309, 4627];
const KEM_EK: [usize; 3] = [800, 1184, 1568];
const KEM_DK: [usize; 3] = [1632, 2400, 3168];
const KEM_CT: [usize; 3] = [768, 1088, 1568];

fn from_vectors(vectors: &Path, s: &mut Seeds) {
    let mut files = Vec::new();
    json_files(vectors, &mut files);
    for f in &files {
        let Ok(text) = std::fs::read_to_string(f) else {
            continue;
        };
        let Ok(json) = serde_json::from_str::<serde_json::Value>(&text) else {
            continue;
        };
        let fields = |k: &str| {
            let mut v = Vec::new();
            collect(&json, k, &mut v);
            v
        };
        let kem = f.to_string_lossy().to_lowercase().contains("kem");
        for pk in fields("pk").into_iter().chain(fields("publicKey")) {
            if let Some(i) = DSA_PK.iter().position(|&l| l == pk.len()) {
                s.add("mldsa_vk", cat(&[&[i as u8], &pk]));
            }
        }
        for sk in fields("sk").into_iter().chain(fields("privateKey")) {
            if let Some(i) = DSA_SK.iter().position(|&l| l == sk.len()) {
                s.add("mldsa_sk", cat(&[&[i as u8], &sk]));
            }
        }
        for sig in fields("signature").into_iter().chain(fields("sig")) {
            if let Some(i) = DSA_SIG.iter().position(|&l| l == sig.len()) {
                s.add(
                    "mldsa_sig",
                    cat(&[&[i as u8], &len16(b""), &len16(b""), &sig]),
                );
            }
        }
        if kem {
            for ek in fields("ek").into_iter().chain(fields("publicKey")) {
                if let Some(i) = KEM_EK.iter().position(|&l| l == ek.len()) {
                    s.add("mlkem_ek", cat(&[&[i as u8], &[0; 32], &ek]));
                    s.add("tls_kx", cat(&[&[(i as u8) << 1], &ek]));
                }
            }
            let cts: Vec<_> = fields("c").into_iter().chain(fields("ct")).collect();
            for dk in fields("dk").into_iter().chain(fields("privateKey")) {
                if let Some(i) = KEM_DK.iter().position(|&l| l == dk.len()) {
                    let ct = cts
                        .iter()
                        .find(|c| c.len() == KEM_CT[i])
                        .cloned()
                        .unwrap_or_default();
                    s.add(
                        "mlkem_dk",
                        cat(&[&[i as u8], &pqlab_fuzz::fit(&ct, 1568), &dk]),
                    );
                }
            }
            for ct in &cts {
                if let Some(i) = KEM_CT.iter().position(|&l| l == ct.len()) {
                    s.add("mlkem_ct", cat(&[&[i as u8], &[0; 32], ct]));
                    s.add("tls_kx", cat(&[&[((i as u8) << 1) | 1], ct]));
                }
            }
        }
    }
    // Falcon KAT files: pk, sk and the detached form of sm.
    for (n, logn) in [(512usize, 9u8), (1024, 10)] {
        let path = vectors.join(format!("falcon-kat/falcon{n}-KAT.rsp"));
        let Ok(text) = std::fs::read_to_string(&path) else {
            continue;
        };
        let mut mlen = 0usize;
        let sel = u8::from(n == 1024);
        for line in text.lines().take(400) {
            let Some((k, v)) = line.split_once(" = ") else {
                continue;
            };
            match k {
                "mlen" => mlen = v.parse().unwrap_or(0),
                "pk" => s.add(
                    "falcon_vk",
                    cat(&[&[sel], &len16(b""), &hex::decode(v).unwrap_or_default()]),
                ),
                "sk" => s.add(
                    "falcon_sk",
                    cat(&[&[sel], &hex::decode(v).unwrap_or_default()]),
                ),
                "sm" => {
                    let sm = hex::decode(v).unwrap_or_default();
                    if sm.len() > 2 + 40 + mlen + 1 {
                        let msg = &sm[42..42 + mlen];
                        let sig = cat(&[&[0x30 + logn], &sm[2..42], &sm[42 + mlen + 1..]]);
                        s.add("falcon_sig", cat(&[&[sel], &len16(msg), &sig]));
                    }
                }
                _ => {}
            }
        }
    }
}

fn mldsa_own<P: pqlab_mldsa::ParameterSet>(
    i: u8,
    cell: &'static std::sync::OnceLock<pqlab_mldsa::SigningKey<P>>,
    s: &mut Seeds,
) {
    let sk = mldsa_key(cell);
    for (msg, ctx) in [
        (&b""[..], &b""[..]),
        (b"fuzz", b"ctx"),
        (&[0xA5; 64][..], &[1; 255][..]),
    ] {
        let sig = sk.sign_deterministic(msg, ctx).expect("sign");
        s.add(
            "mldsa_sig",
            cat(&[&[i], &len16(ctx), &len16(msg), sig.as_bytes()]),
        );
        // diff_mldsa mode 1 (sign, then mutate the signature) and mode 0 (as given).
        s.add(
            "diff_mldsa",
            cat(&[&[i + 3], &len16(ctx), &len16(msg), &[7; 32], &[0; 6]]),
        );
        let pk = sk.verifying_key();
        s.add(
            "diff_mldsa",
            cat(&[
                &[i],
                &len16(ctx),
                &len16(msg),
                pk.as_bytes(),
                sig.as_bytes(),
            ]),
        );
    }
    s.add("mldsa_sk", cat(&[&[i | 0x80], sk.to_expanded().as_ref()]));
    s.add("mldsa_vk", cat(&[&[i], sk.verifying_key().as_bytes()]));
}

fn mlkem_own<P: pqlab_mlkem::ParameterSet>(
    i: u8,
    cell: &'static std::sync::OnceLock<pqlab_mlkem::DecapsulationKey<P>>,
    s: &mut Seeds,
) {
    let dk = mlkem_key(cell);
    let ek = dk.encapsulation_key();
    let (ct, _) = ek.encapsulate_deterministic(&[3; 32]);
    s.add("mlkem_ct", cat(&[&[i], &[3; 32], ct.as_bytes()]));
    s.add("mlkem_ek", cat(&[&[i], &[3; 32], ek.as_bytes()]));
    s.add(
        "mlkem_dk",
        cat(&[
            &[i],
            &pqlab_fuzz::fit(ct.as_bytes(), 1568),
            dk.to_expanded().as_ref(),
        ]),
    );
    s.add(
        "diff_mlkem",
        cat(&[&[i], &[3; 32], &[9; 32], &[10; 32], &[1]]),
    );
    s.add(
        "diff_mlkem",
        cat(&[&[i], &[3; 32], &[9; 32], &[10; 32], &[3, 5, 0, 1]]),
    );
    s.add(
        "diff_mlkem",
        cat(&[&[i], &[3; 32], &[9; 32], &[10; 32], &[0], ct.as_bytes()]),
    );
    s.add(
        "diff_mlkem",
        cat(&[&[i + 3], &[3; 32], ek.as_bytes(), &[0]]),
    );
}

fn falcon_own<const N: usize>(
    i: u8,
    cell: &'static std::sync::OnceLock<pqlab_falcon::SigningKey<N>>,
    s: &mut Seeds,
) {
    let sk = falcon_key(cell);
    let ek = pqlab_falcon::ExpandedKey::<N>::new(sk);
    for msg in [&b""[..], b"fuzz", &[0x5A; 64]] {
        let sig = ek.sign_with_seed(msg, &[1; 40], &[2; 48]);
        let mut out = vec![0u8; pqlab_falcon::Signature::<N>::MAX_LEN];
        let len = sig.encode(&mut out).expect("encode");
        s.add("falcon_sig", cat(&[&[i], &len16(msg), &out[..len]]));
        let mut pk = vec![0u8; pqlab_falcon::VerifyingKey::<N>::ENCODED_LEN];
        sk.verifying_key().encode(&mut pk).expect("pk");
        s.add("falcon_vk", cat(&[&[i], &len16(&out[..len]), &pk]));
    }
}

fn pkcs(s: &mut Seeds) {
    for (_, alg) in CertAlg::ALL {
        let kp = Keypair::generate(alg).expect("key");
        let der = kp.pkcs8_der().to_vec();
        for sel in 0..3u8 {
            s.add("pkcs_pkcs8", cat(&[&[sel], &der]));
        }
        let spki = kp.spki_der().expect("spki");
        s.add("pkcs_spki", spki.clone());
        let pem = kp.pkcs8_pem().expect("pem");
        s.add("pkcs_pem", cat(&[&[1], pem.as_bytes()]));
        s.add("pkcs_pem", cat(&[&[2], pem.as_bytes()]));
        let spki_pem =
            der::pem::encode_string("PUBLIC KEY", der::pem::LineEnding::LF, &spki).expect("pem");
        s.add("pkcs_pem", cat(&[&[0], spki_pem.as_bytes()]));
    }
    // ML-KEM keys in the three private-key forms, and their SPKI.
    let dk = pqlab_mlkem::DecapsulationKey::<pqlab_mlkem::MlKem768>::from_seed(&[4; 32], &[5; 32]);
    let oid = <pqlab_mlkem::MlKem768 as pqlab_mlkem::ParameterSet>::OID;
    s.add(
        "pkcs_spki",
        pqlab_tls::pkcs8::encode_spki(oid, dk.encapsulation_key().as_bytes()).expect("spki"),
    );
    let seed = pqlab_tls::pkcs8::encode_seed_pkcs8(oid, dk.seed().expect("seed")).expect("pkcs8");
    s.add("pkcs_pkcs8", cat(&[&[0], &seed]));
}

fn tls(s: &mut Seeds) {
    for &group in pqlab_tls::kx::ALL_KX_GROUPS {
        let provider = pqlab_tls::provider_with_groups(vec![group]);
        let cfg = ClientConfig::builder_with_provider(Arc::new(provider))
            .with_protocol_versions(pqlab_tls::TLS13_ONLY)
            .expect("versions")
            .with_root_certificates(RootCertStore::empty())
            .with_no_client_auth();
        let name = ServerName::try_from("localhost").expect("name");
        let mut conn = ClientConnection::new(Arc::new(cfg), name).expect("client");
        let mut hello = Vec::new();
        while conn.wants_write() {
            conn.write_tls(&mut hello).expect("write");
        }
        s.add("tls_server", cat(&[&[0], &hello]));
        s.add("tls_server", cat(&[&[1], &hello]));
        s.add("tls_server", cat(&[&[6], &hello]));
        // Key shares for tls_kx: the client's (to the server side) and the server's answer.
        let client = group.start().expect("start");
        let idx = match group.name() {
            n if n == pqlab_tls::kx::MLKEM512.name() => 0u8,
            n if n == pqlab_tls::kx::MLKEM768.name() => 1,
            n if n == pqlab_tls::kx::MLKEM1024.name() => 2,
            n if n == pqlab_tls::kx::X25519MLKEM768.name() => 3,
            _ => continue,
        };
        let done = group
            .start_and_complete(client.pub_key())
            .expect("complete");
        s.add("tls_kx", cat(&[&[idx << 1], client.pub_key()]));
        s.add("tls_kx", cat(&[&[(idx << 1) | 1], &done.pub_key]));
    }
}

fn small(s: &mut Seeds) {
    for (i, msg) in [&b""[..], b"abc", &[0x61; 200], &[0x62; 1000]]
        .iter()
        .enumerate()
    {
        for sel in 0..7u8 {
            s.add(
                "diff_keccak",
                cat(&[
                    &[sel],
                    &len16(msg),
                    &[2, (i * 37) as u8, 0, 9, 1, 3, 100, 0, 8, 0],
                ]),
            );
        }
    }
}

fn generate(out: &Path, vectors: &Path) {
    static D44: std::sync::OnceLock<pqlab_mldsa::SigningKey<pqlab_mldsa::MlDsa44>> =
        std::sync::OnceLock::new();
    static D65: std::sync::OnceLock<pqlab_mldsa::SigningKey<pqlab_mldsa::MlDsa65>> =
        std::sync::OnceLock::new();
    static D87: std::sync::OnceLock<pqlab_mldsa::SigningKey<pqlab_mldsa::MlDsa87>> =
        std::sync::OnceLock::new();
    static K512: std::sync::OnceLock<pqlab_mlkem::DecapsulationKey<pqlab_mlkem::MlKem512>> =
        std::sync::OnceLock::new();
    static K768: std::sync::OnceLock<pqlab_mlkem::DecapsulationKey<pqlab_mlkem::MlKem768>> =
        std::sync::OnceLock::new();
    static K1024: std::sync::OnceLock<pqlab_mlkem::DecapsulationKey<pqlab_mlkem::MlKem1024>> =
        std::sync::OnceLock::new();
    static F512: std::sync::OnceLock<pqlab_falcon::SigningKey<512>> = std::sync::OnceLock::new();
    static F1024: std::sync::OnceLock<pqlab_falcon::SigningKey<1024>> = std::sync::OnceLock::new();
    let mut s = Seeds::default();
    mldsa_own(0, &D44, &mut s);
    mldsa_own(1, &D65, &mut s);
    mldsa_own(2, &D87, &mut s);
    mlkem_own(0, &K512, &mut s);
    mlkem_own(1, &K768, &mut s);
    mlkem_own(2, &K1024, &mut s);
    falcon_own(0, &F512, &mut s);
    falcon_own(1, &F1024, &mut s);
    pkcs(&mut s);
    tls(&mut s);
    small(&mut s);
    from_vectors(vectors, &mut s);
    s.write(out);
}

fuzz_target!(
    init: {
        if let Some(out) = std::env::var_os("PQLAB_FUZZ_CORPUS") {
            let vectors = std::env::var_os("PQLAB_VECTORS").map_or_else(
                || PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../shared/vectors"),
                PathBuf::from,
            );
            if !vectors.is_dir() {
                eprintln!("seed_corpus: no vectors at {} (seeds from our own code only)", vectors.display());
            }
            generate(Path::new(&out), &vectors);
            std::process::exit(0);
        }
    },
    |_data: &[u8]| {}
);
