//! Modular arithmetic and number-theoretic transforms for the lattice schemes of pqlab.
//!
//! Each modulus has its own module; the kernels there are the portable back end, written so that
//! SIMD twins can later sit beside them with the same function names.
//!
//! * [`mldsa`]: q = 8380417 (FIPS 204): Montgomery reduction, NTT and inverse NTT of
//!   FIPS 204 Algorithms 41 and 42.
//! * [`mlkem`]: q = 3329 (FIPS 203): Barrett and Montgomery reduction, NTT and inverse NTT of
//!   FIPS 203 Algorithms 9 and 10, MultiplyNTTs and BaseCaseMultiply (Algorithms 11 and 12).
//! * [`reduce`]: modular-reduction strategies (Montgomery, Barrett, K-RED, K2-RED, generalised
//!   K-RED, `%`) behind one trait and NTTs generic over them (production: Montgomery by type;
//!   the reduction study instantiates the others).
//! * [`falcon`]: q = 12289 (Falcon v1.2): Barrett reduction and the negacyclic NTT for
//!   n = 2..1024 (generic over the reduction strategy, in [`reduce::ntt_falcon`]).
//! * [`falcon_solver`]: NTTs modulo the 31-bit primes of Falcon's NTRU solver (p = 1 mod
//!   2048, below 2^31), generic over Montgomery (R = 2^32), Barrett, generalised K-RED and `%`.
//! * [`ct`]: constant-time helpers shared by the schemes.
//! * [`wipe`]: fast, non-removable zeroing of secret buffers (the schemes' `Zeroize` impls).
//! * [`bytes`]: [`ByteArray`](bytes::ByteArray), the fixed-size byte strings that hold the
//!   schemes' encodings.
//! * [`array`](mod@array): [`FixedArray`](array::FixedArray), arrays of ring elements sized per
//!   parameter set.
#![no_std]

pub mod array;
pub mod bytes;
pub mod ct;
pub mod falcon;
pub mod falcon_solver;
pub mod mldsa;
pub mod mlkem;
pub mod reduce;
pub mod wipe;
