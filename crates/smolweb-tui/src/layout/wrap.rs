//! Word wrapping for the view: the core's one wrapper (`smolweb_core::text::wrap`).

pub(crate) use smolweb_core::text::wrap::{display_width, wrap};
