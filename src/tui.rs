//! The human's face: the terminal browser. The only module that knows ratatui and crossterm.
