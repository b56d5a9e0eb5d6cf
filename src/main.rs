//! The `smolweb` command line.

fn main() {}
