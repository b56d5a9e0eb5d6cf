//! The server certificate a Gemini capsule presents (DER), as the TOFU verifier reads it:
//! fingerprint and validity dates (`net::tls::verifier::cert_details`).
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Some(info) = smolweb_net::fuzzing::cert_details(data) {
        assert!(info.fingerprint.starts_with("sha256:"));
    }
});
