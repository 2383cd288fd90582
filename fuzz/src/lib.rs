//! Helpers shared by the fuzz targets of `fuzz_targets/`: splitting the fuzz input into fields,
//! fitting a field to the exact length a decoder wants, and the fixed keys the targets that fuzz
//! a signature or a ciphertext verify or decapsulate with.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::sync::OnceLock;

/// Reads the fuzz input field by field; a field past the end of the input is empty or zero.
pub struct Input<'a> {
    data: &'a [u8],
}

impl<'a> Input<'a> {
    /// A reader over the whole input.
    pub fn new(data: &'a [u8]) -> Self {
        Self { data }
    }

    /// One byte (0 past the end).
    pub fn byte(&mut self) -> u8 {
        match self.data.split_first() {
            Some((&b, rest)) => {
                self.data = rest;
                b
            }
            None => 0,
        }
    }

    /// A little-endian u16 (0 past the end).
    pub fn u16(&mut self) -> u16 {
        u16::from(self.byte()) | (u16::from(self.byte()) << 8)
    }

    /// Up to `n` bytes (fewer at the end of the input).
    pub fn bytes(&mut self, n: usize) -> &'a [u8] {
        let n = n.min(self.data.len());
        let (a, b) = self.data.split_at(n);
        self.data = b;
        a
    }

    /// A field whose length (up to `max`) is given by the next two bytes.
    pub fn field(&mut self, max: usize) -> &'a [u8] {
        let n = usize::from(self.u16()) % (max + 1);
        self.bytes(n)
    }

    /// Exactly `N` bytes, zero-padded past the end of the input.
    pub fn array<const N: usize>(&mut self) -> [u8; N] {
        let mut out = [0u8; N];
        let b = self.bytes(N);
        out[..b.len()].copy_from_slice(b);
        out
    }

    /// Exactly `n` bytes, zero-padded past the end of the input.
    pub fn fitted(&mut self, n: usize) -> Vec<u8> {
        fit(self.bytes(n), n)
    }

    /// What is left.
    pub fn rest(&mut self) -> &'a [u8] {
        core::mem::take(&mut self.data)
    }
}

/// `data` cut or zero-padded to exactly `len` bytes.
pub fn fit(data: &[u8], len: usize) -> Vec<u8> {
    let mut v = data[..data.len().min(len)].to_vec();
    v.resize(len, 0);
    v
}

/// Applies up to `count` mutations read from `input` to `buf`: each is a 16-bit position
/// (modulo the length) and a byte XORed there (a zero byte flips bit 0).
pub fn mutate(buf: &mut [u8], input: &mut Input<'_>, count: usize) {
    if buf.is_empty() {
        return;
    }
    for _ in 0..count {
        let pos = usize::from(input.u16()) % buf.len();
        let x = input.byte();
        buf[pos] ^= if x == 0 { 1 } else { x };
    }
}

/// The ML-DSA key pairs of the fixed seed [7; 32], made once per process.
pub fn mldsa_key<P: pqlab_mldsa::ParameterSet>(
    cell: &'static OnceLock<pqlab_mldsa::SigningKey<P>>,
) -> &'static pqlab_mldsa::SigningKey<P> {
    cell.get_or_init(|| pqlab_mldsa::SigningKey::<P>::from_seed(&[7; 32]))
}

/// The verifying key of [`mldsa_key`]'s key, made once per process.
pub fn mldsa_vk<P: pqlab_mldsa::ParameterSet>(
    cell: &'static OnceLock<pqlab_mldsa::VerifyingKey<P>>,
) -> &'static pqlab_mldsa::VerifyingKey<P> {
    cell.get_or_init(|| pqlab_mldsa::SigningKey::<P>::from_seed(&[7; 32]).verifying_key())
}

/// The ML-KEM decapsulation key of the fixed seed [9; 64], made once per process.
pub fn mlkem_key<P: pqlab_mlkem::ParameterSet>(
    cell: &'static OnceLock<pqlab_mlkem::DecapsulationKey<P>>,
) -> &'static pqlab_mlkem::DecapsulationKey<P> {
    cell.get_or_init(|| pqlab_mlkem::DecapsulationKey::<P>::from_seed(&[9; 32], &[10; 32]))
}

/// The Falcon key of the fixed seed [11; 48], made once per process.
pub fn falcon_key<const N: usize>(
    cell: &'static OnceLock<pqlab_falcon::SigningKey<N>>,
) -> &'static pqlab_falcon::SigningKey<N> {
    cell.get_or_init(|| pqlab_falcon::SigningKey::<N>::generate_from_seed(&[11; 48]))
}

/// The 12-bit coefficients of ByteDecode12 (FIPS 203, Algorithm 6, d = 12) of `bytes`, as read
/// here independently of pqlab-mlkem: true when every one is below q = 3329.
pub fn mlkem_reduced(bytes: &[u8]) -> bool {
    bytes.chunks_exact(3).all(|c| {
        let a = u16::from(c[0]) | ((u16::from(c[1]) & 0x0F) << 8);
        let b = (u16::from(c[1]) >> 4) | (u16::from(c[2]) << 4);
        a < 3329 && b < 3329
    })
}

/// ByteEncode12(ByteDecode12(bytes) mod q) (FIPS 203, Algorithms 5 and 6 with d = 12): the
/// canonical form of a string of 12-bit coefficients, written here independently of
/// pqlab-mlkem.
pub fn mlkem_reduce12(bytes: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(bytes.len());
    for c in bytes.chunks_exact(3) {
        let a = (u16::from(c[0]) | ((u16::from(c[1]) & 0x0F) << 8)) % 3329;
        let b = ((u16::from(c[1]) >> 4) | (u16::from(c[2]) << 4)) % 3329;
        out.push(a as u8);
        out.push(((a >> 8) as u8) | ((b << 4) as u8));
        out.push((b >> 4) as u8);
    }
    out
}
