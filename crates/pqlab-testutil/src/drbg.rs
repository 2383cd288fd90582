//! NIST's AES-256 CTR_DRBG `randombytes` of the PQC submission packages (`rng.c`: no derivation
//! function, no personalization, no reseeding), which produced the randomness of every NIST KAT
//! file: a test is seeded with a record's 48-byte `seed` and draws exactly as the submission's
//! `PQCgenKAT_sign` did, call by call.

use aes::Aes256;
use aes::cipher::{BlockEncrypt, KeyInit, generic_array::GenericArray};

/// The DRBG state: Key, V and the reseed counter (kept for fidelity; never reaches its limit
/// in tests).
pub struct NistDrbg {
    key: [u8; 32],
    v: [u8; 16],
    reseed_counter: u64,
}

impl NistDrbg {
    /// `randombytes_init(entropy_input, NULL, 256)`.
    pub fn new(entropy: &[u8; 48]) -> Self {
        let mut d = NistDrbg {
            key: [0; 32],
            v: [0; 16],
            reseed_counter: 0,
        };
        d.update(Some(entropy));
        d.reseed_counter = 1;
        d
    }

    /// V = V + 1 as a big-endian 128-bit counter.
    fn increment_v(&mut self) {
        for b in self.v.iter_mut().rev() {
            if *b == 0xFF {
                *b = 0;
            } else {
                *b += 1;
                break;
            }
        }
    }

    fn aes(&self, block: &[u8; 16]) -> [u8; 16] {
        let cipher = Aes256::new(GenericArray::from_slice(&self.key));
        let mut b = GenericArray::clone_from_slice(block);
        cipher.encrypt_block(&mut b);
        b.into()
    }

    /// `AES256_CTR_DRBG_Update(provided_data, Key, V)`.
    fn update(&mut self, provided: Option<&[u8; 48]>) {
        let mut temp = [0u8; 48];
        for i in 0..3 {
            self.increment_v();
            let out = self.aes(&self.v);
            temp[16 * i..16 * i + 16].copy_from_slice(&out);
        }
        if let Some(p) = provided {
            for (t, x) in temp.iter_mut().zip(p.iter()) {
                *t ^= x;
            }
        }
        self.key.copy_from_slice(&temp[..32]);
        self.v.copy_from_slice(&temp[32..]);
    }

    /// `randombytes(x, xlen)`: one call; each call ends with an Update.
    pub fn fill(&mut self, x: &mut [u8]) {
        for chunk in x.chunks_mut(16) {
            self.increment_v();
            let out = self.aes(&self.v);
            chunk.copy_from_slice(&out[..chunk.len()]);
        }
        self.update(None);
        self.reseed_counter += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::NistDrbg;

    /// The first record of every NIST PQC KAT file: seed 0..47 gives the well-known first
    /// `seed` line 061550234D158C5E... (PQCgenKAT draws it from a DRBG seeded with 0, 1, ..., 47).
    #[test]
    fn first_kat_seed() {
        let mut e = [0u8; 48];
        for (i, b) in e.iter_mut().enumerate() {
            *b = i as u8;
        }
        let mut d = NistDrbg::new(&e);
        let mut s = [0u8; 48];
        d.fill(&mut s);
        assert_eq!(
            hex::encode_upper(s),
            "061550234D158C5EC95595FE04EF7A25767F2E24CC2BC479D09D86DC9ABCFDE7056A8C266F9EF97ED08541DBD2E1FFA1"
        );
    }
}
