//! The sampler against a direct transcription of the round-3 reference (one ChaCha20 block at
//! a time, the 24-bit limbs of `sample`'s base sampler, one trial after the other), and the
//! AVX2 refill against the portable one.

use std::vec::Vec;

use pqlab_backend::Backend;
use pqlab_keccak::{Shake256, Shake256Reader};
use rand::{Rng, SeedableRng, rngs::StdRng};

use super::chacha::{BUF_LEN, CW, Prng, qround, refill_portable};
use super::{RCDT, Sampler};
use crate::fpr::Fpr;

/// The reference's `prng_refill` for one block: the 16 output words of the block of counter
/// cc (the reference's loop body).
fn ref_block(state: &[u32; 12], cc: u64) -> [u32; 16] {
    let mut st = [0u32; 16];
    st[..4].copy_from_slice(&CW);
    st[4..].copy_from_slice(state);
    st[14] ^= cc as u32;
    st[15] ^= (cc >> 32) as u32;
    for _ in 0..10 {
        qround(&mut st, 0, 4, 8, 12);
        qround(&mut st, 1, 5, 9, 13);
        qround(&mut st, 2, 6, 10, 14);
        qround(&mut st, 3, 7, 11, 15);
        qround(&mut st, 0, 5, 10, 15);
        qround(&mut st, 1, 6, 11, 12);
        qround(&mut st, 2, 7, 8, 13);
        qround(&mut st, 3, 4, 9, 14);
    }
    for v in 0..4 {
        st[v] = st[v].wrapping_add(CW[v]);
    }
    for v in 4..14 {
        st[v] = st[v].wrapping_add(state[v - 4]);
    }
    st[14] = st[14].wrapping_add(state[10] ^ cc as u32);
    st[15] = st[15].wrapping_add(state[11] ^ (cc >> 32) as u32);
    st
}

/// The reference's `prng_refill`: eight blocks, word v of block u at byte 4 u + 32 v.
fn ref_refill(state: &[u32; 12], counter: u64) -> [u8; BUF_LEN] {
    let mut buf = [0u8; BUF_LEN];
    for u in 0..8 {
        let st = ref_block(state, counter.wrapping_add(u as u64));
        for (v, w) in st.iter().enumerate() {
            let o = 4 * u + 32 * v;
            buf[o..o + 4].copy_from_slice(&w.to_le_bytes());
        }
    }
    buf
}

/// The reference's PRNG (`prng_init`, `prng_get_u64`, `prng_get_u8`).
struct RefPrng {
    buf: [u8; BUF_LEN],
    ptr: usize,
    state: [u32; 12],
    counter: u64,
}

impl RefPrng {
    fn new(src: &mut Shake256Reader) -> RefPrng {
        let mut tmp = [0u8; 56];
        src.squeeze(&mut tmp);
        let w = |i: usize| u32::from_le_bytes(tmp[4 * i..4 * i + 4].try_into().unwrap());
        let state = core::array::from_fn(w);
        let counter = u64::from(w(12)) | (u64::from(w(13)) << 32);
        RefPrng {
            buf: ref_refill(&state, counter),
            ptr: 0,
            state,
            counter: counter.wrapping_add(8),
        }
    }

    fn refill(&mut self) {
        self.buf = ref_refill(&self.state, self.counter);
        self.counter = self.counter.wrapping_add(8);
        self.ptr = 0;
    }

    fn next_u64(&mut self) -> u64 {
        if self.ptr >= BUF_LEN - 9 {
            self.refill();
        }
        let u = self.ptr;
        self.ptr = u + 8;
        u64::from_le_bytes(self.buf[u..u + 8].try_into().unwrap())
    }

    fn next_u8(&mut self) -> u32 {
        let v = self.buf[self.ptr];
        self.ptr += 1;
        if self.ptr == BUF_LEN {
            self.refill();
        }
        u32::from(v)
    }
}

/// The reference's `gaussian0_sampler` (three 24-bit limbs).
fn ref_base_sampler(p: &mut RefPrng) -> i32 {
    let lo = p.next_u64();
    let hi = p.next_u8();
    let v0 = (lo as u32) & 0xFF_FFFF;
    let v1 = ((lo >> 24) as u32) & 0xFF_FFFF;
    let v2 = ((lo >> 48) as u32) | (hi << 16);
    let mut z = 0;
    for w in RCDT.iter() {
        let mut cc = v0.wrapping_sub(w[2]) >> 31;
        cc = v1.wrapping_sub(w[1]).wrapping_sub(cc) >> 31;
        cc = v2.wrapping_sub(w[0]).wrapping_sub(cc) >> 31;
        z += cc as i32;
    }
    z
}

/// The reference's `BerExp`.
fn ref_ber_exp(p: &mut RefPrng, x: Fpr, ccs: Fpr) -> bool {
    let s = x.mul(Fpr::INV_LOG2).trunc() as i32;
    let r = x.sub(Fpr::of(i64::from(s)).mul(Fpr::LOG2));
    let mut sw = s as u32;
    sw ^= (sw ^ 63) & 0u32.wrapping_sub(63u32.wrapping_sub(sw) >> 31);
    let z = ((r.expm_p63(ccs) << 1).wrapping_sub(1)) >> sw;
    let mut i = 64;
    let mut w;
    loop {
        i -= 8;
        w = p.next_u8().wrapping_sub(((z >> i) as u32) & 0xFF);
        if w != 0 || i == 0 {
            break;
        }
    }
    (w >> 31) != 0
}

/// The reference's `sampler`.
fn ref_sample(p: &mut RefPrng, sigma_min: Fpr, mu: Fpr, isigma: Fpr) -> i64 {
    let s = mu.floor();
    let r = mu.sub(Fpr::of(s));
    let dss = isigma.sqr().half();
    let ccs = isigma.mul(sigma_min);
    loop {
        let z0 = ref_base_sampler(p);
        let b = (p.next_u8() & 1) as i32;
        let z = b + ((b << 1) - 1) * z0;
        let mut x = Fpr::of(i64::from(z)).sub(r).sqr().mul(dss);
        x = x.sub(Fpr::of(i64::from(z0 * z0)).mul(Fpr::INV_2SQRSIGMA0));
        if ref_ber_exp(p, x, ccs) {
            return s + i64::from(z);
        }
    }
}

fn shake(seed: u64) -> Shake256Reader {
    let mut sh = Shake256::new();
    sh.absorb(&seed.to_le_bytes());
    sh.finalize()
}

/// A state and a counter; the counters are often next to a carry into the high word, or to
/// the 64-bit wrap.
fn random_state(rng: &mut StdRng) -> ([u32; 12], u64) {
    let state = core::array::from_fn(|_| rng.r#gen());
    let counter = match rng.gen_range(0..4) {
        0 => rng.r#gen(),
        1 => u64::from(u32::MAX) - rng.gen_range(0..10),
        2 => u64::MAX - rng.gen_range(0..10),
        _ => rng.gen_range(0..20),
    };
    (state, counter)
}

#[test]
fn portable_refill_is_the_reference() {
    let mut rng = StdRng::seed_from_u64(1);
    for _ in 0..2000 {
        let (state, counter) = random_state(&mut rng);
        let mut buf = [0u8; BUF_LEN];
        refill_portable(&mut buf, &state, counter);
        assert_eq!(buf, ref_refill(&state, counter), "counter {counter:#x}");
    }
}

#[test]
fn refill_back_ends_agree() {
    const CASES: usize = 5000;
    pqlab_testutil::backends::each_available("ChaCha20 refill", CASES, |b| {
        let mut rng = StdRng::seed_from_u64(2);
        for _ in 0..CASES {
            let (state, counter) = random_state(&mut rng);
            let mut want = [0u8; BUF_LEN];
            refill_portable(&mut want, &state, counter);
            let mut got = [0u8; BUF_LEN];
            super::chacha::refill_with(b, &mut got, &state, counter);
            assert_eq!(got, want, "{b}, counter {counter:#x}");
        }
        CASES
    });
}

#[test]
fn base_sampler_matches_the_reference() {
    let mut rng = StdRng::seed_from_u64(3);
    // Random values, and every table entry, its neighbours, and the extremes.
    let mut vals: Vec<u128> = (0..200_000)
        .map(|_| u128::from(rng.r#gen::<u64>()) | (u128::from(rng.r#gen::<u8>()) << 64))
        .collect();
    for w in RCDT.iter() {
        let t = (u128::from(w[0]) << 48) | (u128::from(w[1]) << 24) | u128::from(w[2]);
        vals.extend([t.wrapping_sub(1), t, t + 1]);
    }
    vals.extend([0, (1u128 << 72) - 1, 1u128 << 64, (1u128 << 64) - 1]);
    for v in vals {
        let v = v & ((1u128 << 72) - 1);
        let (lo, hi) = (v as u64, (v >> 64) as u32);
        let v0 = (lo as u32) & 0xFF_FFFF;
        let v1 = ((lo >> 24) as u32) & 0xFF_FFFF;
        let v2 = ((lo >> 48) as u32) | (hi << 16);
        let mut want = 0;
        for w in RCDT.iter() {
            let mut cc = v0.wrapping_sub(w[2]) >> 31;
            cc = v1.wrapping_sub(w[1]).wrapping_sub(cc) >> 31;
            cc = v2.wrapping_sub(w[0]).wrapping_sub(cc) >> 31;
            want += cc as i32;
        }
        assert_eq!(super::base_sampler(lo, hi), want, "{v:#x}");
    }
}

/// SamplerZ against the reference, sample by sample: the same integers and the same PRNG
/// position (counter, read pointer) after each, over many refills (trials start at every
/// position of the buffer, so both refill points are reached, and so are BerExp's rare
/// multi-byte comparisons), for each back end.
#[test]
fn sampler_matches_the_reference() {
    const SEEDS: u64 = 4;
    const SAMPLES: usize = 20_000;
    for b in pqlab_backend::available() {
        let mut rng = StdRng::seed_from_u64(4);
        for seed in 0..SEEDS {
            for logn in [9, 10] {
                let sigma_min = Fpr::sigma_min(logn);
                let mut samp = Sampler {
                    prng: Prng::with_backend(&mut shake(seed), b),
                    sigma_min,
                    inv_sigma: Fpr::inv_sigma(logn),
                };
                let mut r = RefPrng::new(&mut shake(seed));
                for i in 0..SAMPLES {
                    // Every trial reads 11 bytes, rarely more: shift the phase now and then,
                    // so that trials start at every position, next to the refill points too.
                    if i % 16 == 0 {
                        for _ in 0..rng.gen_range(0..11) {
                            assert_eq!(samp.prng.next_u8(), r.next_u8());
                        }
                    }
                    let mu = Fpr::of(rng.gen_range(-(1i64 << 40)..1 << 40)).mul(Fpr::pow2(-30));
                    // sigma in [sigma_min, sigma_max = 1.8205], as the tree leaves hold.
                    let sigma = 1.2778 + rng.r#gen::<f64>() * (1.8205 - 1.2778);
                    let isigma = Fpr::from_bits((1.0 / sigma).to_bits());
                    let want = ref_sample(&mut r, sigma_min, mu, isigma);
                    let got = samp.sample(mu, isigma);
                    assert_eq!(got, want, "{b}, seed {seed}, sample {i}");
                    assert_eq!(
                        (samp.prng.ptr, samp.prng.counter),
                        (r.ptr, r.counter),
                        "{b}, seed {seed}, sample {i}"
                    );
                }
            }
        }
    }
}

#[test]
fn prng_reads_match_the_reference() {
    let mut rng = StdRng::seed_from_u64(5);
    for b in pqlab_backend::available() {
        let mut p = Prng::with_backend(&mut shake(9), b);
        let mut r = RefPrng::new(&mut shake(9));
        for _ in 0..100_000 {
            if rng.gen_range(0..3) == 0 {
                assert_eq!(p.next_u64(), r.next_u64());
            } else {
                assert_eq!(p.next_u8(), r.next_u8());
            }
            assert_eq!((p.ptr, p.counter), (r.ptr, r.counter));
        }
    }
}

/// Prng::new picks the selected back end.
#[test]
fn new_uses_the_selected_back_end() {
    let a = Prng::new(&mut shake(7));
    let b = Prng::with_backend(&mut shake(7), Backend::Portable);
    assert_eq!(a.buf, b.buf);
}

/// The estimate of the threshold's top byte that SamplerZ decides with is within one of the
/// exact threshold's (`ber_threshold`, the reference's BerExp), over BerExp's domain: x from 0
/// to beyond where the threshold is 0, ccs = sigma_min / sigma for sigma from sigma_min to
/// sigma_max, with the extremes and byte boundaries (x = ln(256 ccs / k)) included.
#[cfg(not(feature = "fpr-emu"))]
#[test]
fn threshold_top_byte_is_within_one() {
    use super::{ber_threshold, threshold_top_byte};
    let check = |x: f64, ccs: f64| {
        let (xf, cf) = (Fpr::from_bits(x.to_bits()), Fpr::from_bits(ccs.to_bits()));
        let exact = (ber_threshold(xf, cf) >> 56) as u32;
        let est = threshold_top_byte(x * core::f64::consts::LOG2_E, ccs * 256.0);
        assert!(
            exact.abs_diff(est) <= 1,
            "x {x:e}, ccs {ccs:e}: exact {exact}, estimate {est}"
        );
    };
    let mut rng = StdRng::seed_from_u64(5);
    let ccs_min = 1.277_833_697 / 1.8205;
    let mut cases = 0;
    for ccs in [ccs_min, 0.8, 0.9, 0.999_999, 1.0] {
        for x in [0.0, 1e-300, 1e-17, 1e-9, 0.5, 44.0, 45.0, 60.0, 200.0] {
            check(x, ccs);
            cases += 1;
        }
        for k in 1..=256 {
            let x0 = (256.0 * ccs / f64::from(k)).ln();
            for d in [-1e-12, 0.0, 1e-12] {
                if x0 + d >= 0.0 {
                    check(x0 + d, ccs);
                    cases += 1;
                }
            }
        }
    }
    for _ in 0..300_000 {
        let ccs = ccs_min + rng.r#gen::<f64>() * (1.0 - ccs_min);
        check(rng.r#gen::<f64>() * 50.0, ccs);
        check(rng.r#gen::<f64>() * 0.01, ccs);
        cases += 2;
    }
    assert_eq!(cases, 603_416);
}
