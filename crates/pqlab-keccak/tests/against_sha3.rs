//! Differential tests of our SHA-3 and SHAKE against the RustCrypto `sha3` crate, on seeded
//! random inputs of every length below 600 bytes and on random incremental absorb and squeeze
//! schedules, plus the NIST known answers for the empty string.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use pqlab_keccak::{Sha3, Sha3_224, Sha3_256, Sha3_384, Sha3_512, Shake, Shake128, Shake256};
use rand::rngs::StdRng;
use rand::{Rng, RngCore, SeedableRng};
use sha3::Digest;
use sha3::digest::{ExtendableOutput, Update, XofReader};

/// SHAKE output lengths to try: empty, short, exactly one rate of each SHAKE, and several blocks.
const SHAKE_OUT_LENS: [usize; 9] = [0, 1, 31, 32, 64, 136, 168, 337, 500];

fn hex(s: &str) -> Vec<u8> {
    assert!(s.len().is_multiple_of(2));
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap())
        .collect()
}

fn random_vec(rng: &mut StdRng, max_len: usize) -> Vec<u8> {
    let len = rng.gen_range(0..max_len);
    random_bytes(rng, len)
}

fn random_bytes(rng: &mut StdRng, len: usize) -> Vec<u8> {
    let mut v = vec![0u8; len];
    rng.fill_bytes(&mut v);
    v
}

/// Splits `len` into random pieces: some empty, some longer than a block.
fn random_split(rng: &mut StdRng, len: usize) -> Vec<usize> {
    let mut pieces = Vec::new();
    let mut left = len;
    while left > 0 {
        let piece = match rng.gen_range(0..6) {
            0 => 0,
            1 => rng.gen_range(1..=8).min(left),
            2 => rng.gen_range(0..=400).min(left),
            3 => left,
            _ => rng.gen_range(0..=left),
        };
        pieces.push(piece);
        left -= piece;
    }
    // A few empty calls at random places, also at the ends.
    for _ in 0..rng.gen_range(0..4) {
        let at = rng.gen_range(0..=pieces.len());
        pieces.insert(at, 0);
    }
    pieces
}

// ---------------------------------------------------------------------------------------------
// Reference wrappers
// ---------------------------------------------------------------------------------------------

fn ref_sha3<D: Digest>(data: &[u8]) -> Vec<u8> {
    D::digest(data).to_vec()
}

fn ref_shake<X: Default + Update + ExtendableOutput>(data: &[u8], out_len: usize) -> Vec<u8> {
    let mut h = X::default();
    h.update(data);
    let mut out = vec![0u8; out_len];
    h.finalize_xof().read(&mut out);
    out
}

// ---------------------------------------------------------------------------------------------
// Checks for one function, generic over the parameters
// ---------------------------------------------------------------------------------------------

fn sha3_one_shot<const R: usize, const O: usize, D: Digest>(name: &str, data: &[u8]) {
    let expected = ref_sha3::<D>(data);
    assert_eq!(
        Sha3::<R, O>::digest(data).as_slice(),
        expected.as_slice(),
        "{name} digest, input length {}",
        data.len()
    );
    let mut h = Sha3::<R, O>::new();
    h.update(data);
    assert_eq!(
        h.finalize().as_slice(),
        expected.as_slice(),
        "{name} new/update/finalize, input length {}",
        data.len()
    );
}

fn sha3_split<const R: usize, const O: usize, D: Digest>(name: &str, rng: &mut StdRng) {
    let len = rng.gen_range(0..2000);
    let data = random_bytes(rng, len);
    let expected = ref_sha3::<D>(&data);
    let pieces = random_split(rng, len);
    let mut h = Sha3::<R, O>::default();
    let mut at = 0;
    for p in &pieces {
        h.update(&data[at..at + p]);
        at += p;
    }
    assert_eq!(at, len);
    // A clone taken before finalizing must give the same digest as the original.
    let h2 = h.clone();
    assert_eq!(
        h.finalize().as_slice(),
        expected.as_slice(),
        "{name} split absorb, length {len}, pieces {pieces:?}"
    );
    assert_eq!(
        h2.finalize().as_slice(),
        expected.as_slice(),
        "{name} clone"
    );
}

fn shake_one_shot<const R: usize, X: Default + Update + ExtendableOutput>(name: &str, data: &[u8]) {
    for &out_len in &SHAKE_OUT_LENS {
        let expected = ref_shake::<X>(data, out_len);
        let mut out = vec![0u8; out_len];
        Shake::<R>::digest_parts(&[data], &mut out);
        assert_eq!(
            out,
            expected,
            "{name} digest_parts, input length {}, output length {out_len}",
            data.len()
        );
        let mut h = Shake::<R>::new();
        h.absorb(data);
        let mut out = vec![0u8; out_len];
        h.finalize().squeeze(&mut out);
        assert_eq!(
            out,
            expected,
            "{name} absorb/finalize/squeeze, input length {}, output length {out_len}",
            data.len()
        );
    }
}

fn shake_split<const R: usize, X: Default + Update + ExtendableOutput>(
    name: &str,
    rng: &mut StdRng,
) {
    let len = rng.gen_range(0..2000);
    let out_len = rng.gen_range(0..1500);
    let data = random_bytes(rng, len);
    let expected = ref_shake::<X>(&data, out_len);

    // Absorb in random pieces.
    let in_pieces = random_split(rng, len);
    let mut h = Shake::<R>::new();
    let mut parts: Vec<&[u8]> = Vec::new();
    let mut at = 0;
    for p in &in_pieces {
        h.absorb(&data[at..at + p]);
        parts.push(&data[at..at + p]);
        at += p;
    }
    assert_eq!(at, len);
    let mut reader = h.finalize();

    // Squeeze in random pieces; together they must equal one big squeeze.
    let out_pieces = random_split(rng, out_len);
    let mut out = vec![0u8; out_len];
    let mut at = 0;
    for p in &out_pieces {
        reader.squeeze(&mut out[at..at + p]);
        at += p;
    }
    assert_eq!(at, out_len);
    assert_eq!(
        out, expected,
        "{name}: input {len} in {in_pieces:?}, output {out_len} in {out_pieces:?}"
    );

    // The same parts through digest_parts.
    let mut out2 = vec![0u8; out_len];
    Shake::<R>::digest_parts(&parts, &mut out2);
    assert_eq!(out2, expected, "{name} digest_parts with {in_pieces:?}");

    // And through reader_of_parts, squeezed in the same pieces.
    let mut reader = Shake::<R>::reader_of_parts(&parts);
    let mut out3 = vec![0u8; out_len];
    let mut at = 0;
    for p in &out_pieces {
        reader.squeeze(&mut out3[at..at + p]);
        at += p;
    }
    assert_eq!(out3, expected, "{name} reader_of_parts with {in_pieces:?}");
}

/// squeeze_block, alone and mixed with squeeze calls that leave the reader mid-block, equals the
/// reference stream.
fn shake_blocks<const R: usize, X: Default + Update + ExtendableOutput>(
    name: &str,
    rng: &mut StdRng,
) {
    let len = rng.gen_range(0..700);
    let data = random_bytes(rng, len);
    let lead = match rng.gen_range(0..3) {
        0 => 0,
        1 => R,
        _ => rng.gen_range(0..3 * R),
    };
    let blocks = rng.gen_range(1..5);
    let tail = rng.gen_range(0..2 * R);
    let total = lead + blocks * R + tail;
    let expected = ref_shake::<X>(&data, total);

    let mut h = Shake::<R>::new();
    h.absorb(&data);
    let mut reader = h.finalize();
    let mut got = vec![0u8; lead];
    reader.squeeze(&mut got);
    for _ in 0..blocks {
        // A clone of the reader continues the same stream.
        let mut peek = reader.clone();
        let block = reader.squeeze_block();
        assert_eq!(block.len(), R);
        assert_eq!(peek.squeeze_block(), block, "{name} cloned reader");
        got.extend_from_slice(&block);
    }
    let mut t = vec![0u8; tail];
    reader.squeeze(&mut t);
    got.extend_from_slice(&t);
    assert_eq!(
        got, expected,
        "{name}: input {len}, lead {lead}, {blocks} blocks, tail {tail}"
    );
}

// ---------------------------------------------------------------------------------------------
// Tests
// ---------------------------------------------------------------------------------------------

#[test]
fn every_length_below_600_all_six_functions() {
    let mut rng = StdRng::seed_from_u64(0x5EED_0001);
    for len in 0..600 {
        let data = random_bytes(&mut rng, len);
        sha3_one_shot::<144, 28, sha3::Sha3_224>("SHA3-224", &data);
        sha3_one_shot::<136, 32, sha3::Sha3_256>("SHA3-256", &data);
        sha3_one_shot::<104, 48, sha3::Sha3_384>("SHA3-384", &data);
        sha3_one_shot::<72, 64, sha3::Sha3_512>("SHA3-512", &data);
        shake_one_shot::<168, sha3::Shake128>("SHAKE128", &data);
        shake_one_shot::<136, sha3::Shake256>("SHAKE256", &data);
    }
}

#[test]
fn every_back_end_against_the_reference() {
    // Each back end this CPU has, forced in turn: the single-state permutation is the portable
    // one, the BMI2 build (AVX2) or the AVX-512 build. Forcing is process-wide; the other tests
    // of this binary may run meanwhile under the forced back end, which changes only speed.
    let mut rng = StdRng::seed_from_u64(0x5EED_0B4C);
    let mut ran = [0usize; 3];
    for backend in pqlab_backend::available() {
        pqlab_backend::with_forced(backend, || {
            for len in (0..400).step_by(7) {
                let data = random_bytes(&mut rng, len);
                sha3_one_shot::<136, 32, sha3::Sha3_256>("SHA3-256", &data);
                sha3_one_shot::<72, 64, sha3::Sha3_512>("SHA3-512", &data);
                shake_one_shot::<168, sha3::Shake128>("SHAKE128", &data);
                shake_one_shot::<136, sha3::Shake256>("SHAKE256", &data);
                ran[backend as usize] += 1;
            }
        })
        .unwrap();
    }
    eprintln!("SHA-3 / SHAKE per back end (portable, avx2, avx512): {ran:?} inputs");
    assert!(ran[0] > 0);
    #[cfg(target_arch = "x86_64")]
    if std::is_x86_feature_detected!("avx512f")
        && std::is_x86_feature_detected!("avx512bw")
        && std::is_x86_feature_detected!("avx512vl")
        && std::is_x86_feature_detected!("avx512dq")
        && std::is_x86_feature_detected!("avx2")
        && std::is_x86_feature_detected!("bmi2")
    {
        assert!(ran[2] > 0, "the CPU has AVX-512 but no AVX-512 case ran");
    }
}

#[test]
fn sha3_random_absorb_splits() {
    let mut rng = StdRng::seed_from_u64(0x5EED_0002);
    for _ in 0..300 {
        sha3_split::<144, 28, sha3::Sha3_224>("SHA3-224", &mut rng);
        sha3_split::<136, 32, sha3::Sha3_256>("SHA3-256", &mut rng);
        sha3_split::<104, 48, sha3::Sha3_384>("SHA3-384", &mut rng);
        sha3_split::<72, 64, sha3::Sha3_512>("SHA3-512", &mut rng);
    }
}

#[test]
fn shake_random_absorb_and_squeeze_splits() {
    let mut rng = StdRng::seed_from_u64(0x5EED_0003);
    for _ in 0..400 {
        shake_split::<168, sha3::Shake128>("SHAKE128", &mut rng);
        shake_split::<136, sha3::Shake256>("SHAKE256", &mut rng);
    }
}

#[test]
fn shake_squeeze_block_mixed_with_squeeze() {
    let mut rng = StdRng::seed_from_u64(0x5EED_0004);
    for _ in 0..200 {
        shake_blocks::<168, sha3::Shake128>("SHAKE128", &mut rng);
        shake_blocks::<136, sha3::Shake256>("SHAKE256", &mut rng);
    }
}

#[test]
fn shake_squeeze_byte_by_byte_and_zero_length_calls() {
    let mut rng = StdRng::seed_from_u64(0x5EED_0005);
    let data = random_bytes(&mut rng, 333);
    let expected128 = ref_shake::<sha3::Shake128>(&data, 3 * 168 + 5);
    let expected256 = ref_shake::<sha3::Shake256>(&data, 3 * 136 + 5);

    let mut h = Shake128::new();
    for b in &data {
        h.absorb(&[]);
        h.absorb(core::slice::from_ref(b));
    }
    let mut r = h.finalize();
    let mut got = Vec::new();
    for _ in 0..expected128.len() {
        r.squeeze(&mut []);
        let mut b = [0u8; 1];
        r.squeeze(&mut b);
        got.push(b[0]);
    }
    assert_eq!(got, expected128, "SHAKE128 byte by byte");

    let mut h = Shake256::default();
    for b in &data {
        h.absorb(core::slice::from_ref(b)).absorb(&[]);
    }
    let mut r = h.finalize();
    let mut got = Vec::new();
    for _ in 0..expected256.len() {
        let mut b = [0u8; 1];
        r.squeeze(&mut b);
        r.squeeze(&mut []);
        got.push(b[0]);
    }
    assert_eq!(got, expected256, "SHAKE256 byte by byte");
}

#[test]
fn absorbing_state_clone_forks_the_stream() {
    let mut rng = StdRng::seed_from_u64(0x5EED_0006);
    for _ in 0..50 {
        let a = random_vec(&mut rng, 400);
        let b = random_vec(&mut rng, 400);
        let c = random_vec(&mut rng, 400);
        let mut h = Shake256::new();
        h.absorb(&a);
        let mut fork = h.clone();
        h.absorb(&b);
        fork.absorb(&c);
        let mut out = [0u8; 200];
        h.finalize().squeeze(&mut out);
        assert_eq!(
            out.as_slice(),
            ref_shake::<sha3::Shake256>(&[a.as_slice(), &b].concat(), 200)
        );
        fork.finalize().squeeze(&mut out);
        assert_eq!(
            out.as_slice(),
            ref_shake::<sha3::Shake256>(&[a.as_slice(), &c].concat(), 200)
        );
    }
}

#[test]
fn nist_empty_string_known_answers() {
    assert_eq!(
        Sha3_224::digest(b"").to_vec(),
        hex("6b4e03423667dbb73b6e15454f0eb1abd4597f9a1b078e3f5b5a6bc7")
    );
    assert_eq!(
        Sha3_256::digest(b"").to_vec(),
        hex("a7ffc6f8bf1ed76651c14756a061d662f580ff4de43b49fa82d80a4b80f8434a")
    );
    assert_eq!(
        Sha3_384::digest(b"").to_vec(),
        hex(
            "0c63a75b845e4f7d01107d852e4c2485c51a50aaaa94fc61995e71bbee983a2a\
             c3713831264adb47fb6bd1e058d5f004"
        )
    );
    assert_eq!(
        Sha3_512::digest(b"").to_vec(),
        hex(
            "a69f73cca23a9ac5c8b567dc185a756e97c982164fe25859e0d1dcc1475c80a6\
             15b2123af1f5f94c11e3e9402c3ac558f500199d95b6d3e301758586281dcd26"
        )
    );
    let mut out = [0u8; 32];
    Shake128::digest_parts(&[], &mut out);
    assert_eq!(
        out.to_vec(),
        hex("7f9c2ba4e88f827d616045507605853ed73b8093f6efbc88eb1a6eacfa66ef26")
    );
    let mut out = [0u8; 64];
    Shake256::digest_parts(&[], &mut out);
    assert_eq!(
        out.to_vec(),
        hex(
            "46b9dd2b0ba88d13233b3feb743eeb243fcd52ea62b81b82b50c27646ed5762f\
             d75dc4ddd8c0f200cb05019d67b592f6fc821c49479ab48640292eacb3b7c4be"
        )
    );
    // "abc" (FIPS 202 examples).
    assert_eq!(
        Sha3_256::digest(b"abc").to_vec(),
        hex("3a985da74fe225b2045c172d6bd390bd855f086e3e9d525b46bfe24511431532")
    );
}
