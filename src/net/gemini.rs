//! Network: gemini (to be implemented).
