//! Network: guard (to be implemented).
