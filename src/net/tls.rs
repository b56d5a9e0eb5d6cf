//! Network: tls (to be implemented).
