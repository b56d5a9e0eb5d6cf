//! The server certificate a Gemini capsule presents (DER), as the TOFU verifier reads it:
//! fingerprint and validity dates (`net::tls::verifier::cert_details`).
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(info) = smolweb::net::tls::verifier::cert_details(data) {
        assert!(info.fingerprint.starts_with("sha256:"));
    }
});
