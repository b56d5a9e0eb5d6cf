//! A PDF as the web reader reads it (`core::pdf::extract`), within the limits the client
//! gives a body of its size (`PdfLimits::for_body`) and a deadline it checks between pages
//! and operators (here 2 s, as a call's budget would). A panic here is a finding even though
//! the client runs the reader behind `catch_unwind`.
#![no_main]
use libfuzzer_sys::fuzz_target;
use smolweb_core::pdf::{PdfLimits, extract};
use std::time::{Duration, Instant};

fuzz_target!(|data: &[u8]| {
    let limits = PdfLimits::for_body(data.len());
    let deadline = Instant::now() + Duration::from_secs(2);
    let keep_going = || Instant::now() < deadline;
    if let Ok(text) = extract(data, &limits, &keep_going) {
        assert!(text.pages >= 1);
        assert!(text.truncated || !text.text.is_empty());
    }
});
