//! Sampling.
