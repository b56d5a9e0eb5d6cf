//! The core's integration tests, one binary: PDF extraction on generated files, and the purity
//! rule Cargo cannot check (no clock, file or socket from std).

mod layering;
mod web_pdf;
