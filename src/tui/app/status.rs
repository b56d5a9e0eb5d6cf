//! The status line room: the last message (information or error) and when it was set.

/// A status line message.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Status {
    pub text: String,
    pub error: bool,
}

impl Status {
    pub fn info(text: impl Into<String>) -> Status {
        Status {
            text: text.into(),
            error: false,
        }
    }
    pub fn error(text: impl Into<String>) -> Status {
        Status {
            text: text.into(),
            error: true,
        }
    }
    pub fn clear(&mut self) {
        *self = Status::default();
    }
}
