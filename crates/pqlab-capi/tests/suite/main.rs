//! The integration tests of the C API in one test binary (each test binary links the three
//! schemes again). The modules are the former binaries (`cargo test -p pqlab-capi --test suite
//! c_program::` runs one of them). `header` (which `PQLAB_BLESS_HEADER=1 cargo test -p
//! pqlab-capi --test header` runs to rewrite `include/pqlab.h`) stays a binary of its own.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod c_program;
mod ffi;
