//! Network: gopher (to be implemented).
