//! Differential Keccak (FIPS 202) of pqlab-keccak against RustCrypto's `sha3` 0.10: SHA3-224,
//! SHA3-256, SHA3-384, SHA3-512 with the input absorbed in pieces the fuzzer cuts, SHAKE128 and
//! SHAKE256 absorbed in pieces and squeezed in pieces, and the multi-lane SHAKE (`ShakeX`,
//! 1 to 8 equal-length inputs) under every back end this CPU has. Outputs must be identical.
#![no_main]

use libfuzzer_sys::fuzz_target;
use pqlab_fuzz::Input;
use pqlab_keccak::{Shake128X, Shake256X};
use sha3::digest::{Digest, ExtendableOutput, Update, XofReader};

/// Cut points for `msg`, read from the input (sorted, within the message).
fn pieces<'a>(msg: &'a [u8], input: &mut Input<'_>) -> Vec<&'a [u8]> {
    let n = usize::from(input.byte() % 6);
    let mut cuts: Vec<usize> = (0..n)
        .map(|_| usize::from(input.u16()) % (msg.len() + 1))
        .collect();
    cuts.sort_unstable();
    let mut out = Vec::new();
    let mut at = 0;
    for c in cuts {
        out.push(&msg[at..c]);
        at = c;
    }
    out.push(&msg[at..]);
    out
}

fn sha3<D: Digest, const R: usize, const O: usize>(parts: &[&[u8]], msg: &[u8]) {
    let mut ours = pqlab_keccak::Sha3::<R, O>::new();
    for p in parts {
        ours.update(p);
    }
    assert_eq!(
        ours.finalize().as_slice(),
        D::digest(msg).as_slice(),
        "SHA3-{}",
        O * 8
    );
}

fn shake<X: Default + Update + ExtendableOutput, const R: usize>(
    parts: &[&[u8]],
    msg: &[u8],
    input: &mut Input<'_>,
) {
    let mut ours = pqlab_keccak::Shake::<R>::new();
    for p in parts {
        ours.absorb(p);
    }
    let mut rd = ours.finalize();
    let mut theirs = X::default();
    theirs.update(msg);
    let mut trd = theirs.finalize_xof();
    for _ in 0..usize::from(input.byte() % 5) + 1 {
        let n = usize::from(input.u16()) % 700;
        let mut a = vec![0u8; n];
        let mut b = vec![0u8; n];
        rd.squeeze(&mut a);
        trd.read(&mut b);
        assert_eq!(
            a,
            b,
            "SHAKE{} squeeze of {n}",
            if R == 168 { 128 } else { 256 }
        );
    }
}

fn multi(msg: &[u8], input: &mut Input<'_>) {
    let lanes = usize::from(input.byte() % 8) + 1;
    let len = msg.len() / lanes;
    let inputs: Vec<&[u8]> = (0..lanes).map(|l| &msg[l * len..(l + 1) * len]).collect();
    let blocks = usize::from(input.byte() % 4) + 1;
    for backend in pqlab_backend::available() {
        let mut x128 = Shake128X::new(backend, &inputs);
        let mut x256 = Shake256X::new(backend, &inputs);
        let mut want128: Vec<_> = inputs
            .iter()
            .map(|m| sha3::Shake128::default().chain(m).finalize_xof())
            .collect();
        let mut want256: Vec<_> = inputs
            .iter()
            .map(|m| sha3::Shake256::default().chain(m).finalize_xof())
            .collect();
        for _ in 0..blocks {
            let mut out128 = vec![[0u8; 168]; lanes];
            let mut out256 = vec![[0u8; 136]; lanes];
            x128.squeeze_blocks(&mut out128);
            x256.squeeze_blocks(&mut out256);
            for l in 0..lanes {
                let mut b = [0u8; 168];
                want128[l].read(&mut b);
                assert_eq!(out128[l], b, "Shake128X {backend:?} lane {l}");
                let mut b = [0u8; 136];
                want256[l].read(&mut b);
                assert_eq!(out256[l], b, "Shake256X {backend:?} lane {l}");
            }
        }
    }
}

fuzz_target!(|data: &[u8]| {
    let mut input = Input::new(data);
    let sel = input.byte();
    let msg = input.field(4096);
    let parts = pieces(msg, &mut input);
    match sel % 7 {
        0 => sha3::<sha3::Sha3_224, 144, 28>(&parts, msg),
        1 => sha3::<sha3::Sha3_256, 136, 32>(&parts, msg),
        2 => sha3::<sha3::Sha3_384, 104, 48>(&parts, msg),
        3 => sha3::<sha3::Sha3_512, 72, 64>(&parts, msg),
        4 => shake::<sha3::Shake128, 168>(&parts, msg, &mut input),
        5 => shake::<sha3::Shake256, 136>(&parts, msg, &mut input),
        _ => multi(msg, &mut input),
    }
});
