//! The `[data]` section: how the data directory's files are guarded (see
//! `smolweb_store::perms`).

use serde::{Deserialize, Serialize};
use smolweb_store::perms::Loose;

#[derive(Clone, Debug, Default, PartialEq, Deserialize, Serialize)]
#[serde(default, deny_unknown_fields)]
/// `[data]`: the data directory's files.
pub struct Data {
    /// A store file group or others can read, or a data directory others can write:
    /// `refuse` it (naming the file and the chmod that fixes it), or `warn` and use it.
    pub loose_permissions: Loose,
}
