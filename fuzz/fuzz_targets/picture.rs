//! A picture as the browser decodes it (`tui::picture::decode`): the format sniffed, the
//! declared size checked before any pixel is decoded, the first frame decoded under the
//! limits and scaled down to the kept size.
#![no_main]
use libfuzzer_sys::fuzz_target;
use smolweb_tui::picture::{KEPT_SIDE, MAX_PIXELS, MAX_SIDE, decode};

fuzz_target!(|data: &[u8]| {
    if let Ok(d) = decode(data) {
        assert!(u64::from(d.width) * u64::from(d.height) <= MAX_PIXELS);
        assert!(d.width <= MAX_SIDE && d.height <= MAX_SIDE);
        assert!(d.image.width() <= KEPT_SIDE && d.image.height() <= KEPT_SIDE);
    }
});
