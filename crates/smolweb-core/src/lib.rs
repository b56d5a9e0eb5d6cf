//! The pure core: parsers and windows over bytes and strings. Nothing in here touches files,
//! sockets, clocks, async runtimes, terminals or MCP (a layering test enforces it).

#![deny(missing_docs)]

pub mod charset;
pub mod code;
pub mod feed;
pub mod fingerprint;
pub mod follow;
pub mod gemtext;
pub mod gopher;
pub mod html;
pub mod page;
pub mod pdf;
pub mod response;
pub mod text;
pub mod url;
pub mod webtext;
pub mod window;
