//! The network layer's integration tests, one binary: Gemini and Gopher fetchers, TOFU and client
//! identities against in-process servers on 127.0.0.1.

mod net_gemini;
mod net_gopher;
mod net_identity;
mod net_tofu;
