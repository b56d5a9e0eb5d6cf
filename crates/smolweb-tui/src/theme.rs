//! Colours of every screen element. Defaults use the 16 basic colours so they work on any
//! terminal; `[tui.theme]` maps an element name to a colour ("red", "lightblue", "#ff8800",
//! "245") and overrides that element's foreground. Unknown elements or colours are errors.

use ratatui::style::{Color, Modifier, Style};
use std::collections::BTreeMap;
use std::str::FromStr;

/// A `[tui.theme]` entry that cannot be used.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ThemeError {
    #[error("[tui.theme] {element}: unknown colour '{colour}'")]
    /// An element names a colour that does not exist.
    UnknownColour {
        /// The element.
        element: String,
        /// The colour it names.
        colour: String,
    },
    #[error("[tui.theme]: unknown element '{0}'")]
    /// A name that is no element.
    UnknownElement(String),
}

macro_rules! elements {
    ($( $field:ident, $name:literal, $style:expr; )*) => {
        /// Styles of the screen elements.
        #[derive(Clone, Debug, PartialEq)]
        pub struct Theme {
            $( #[doc = concat!("The style of `", $name, "`.")] pub $field: Style, )*
        }

        impl Default for Theme {
            fn default() -> Self {
                Theme { $( $field: $style, )* }
            }
        }

        impl Theme {
            /// Element names accepted in `[tui.theme]`.
            pub const ELEMENTS: &'static [&'static str] = &[$($name),*];

            fn slot(&mut self, name: &str) -> Option<&mut Style> {
                match name {
                    $( $name => Some(&mut self.$field), )*
                    _ => None,
                }
            }
        }
    };
}

fn fg(c: Color) -> Style {
    Style::new().fg(c)
}

/// The terminal's own colour, dimmed: readable on a light background as on a dark one (the
/// basic "gray" is near white, which a light theme shows as nothing).
fn dim() -> Style {
    Style::new().add_modifier(Modifier::DIM)
}

elements! {
    text, "text", Style::new();
    heading1, "heading1", fg(Color::LightCyan).add_modifier(Modifier::BOLD);
    heading2, "heading2", fg(Color::Cyan).add_modifier(Modifier::BOLD);
    heading3, "heading3", fg(Color::Cyan);
    link, "link", fg(Color::LightBlue);
    link_number, "link_number", fg(Color::Blue);
    link_external, "link_external", fg(Color::LightMagenta);
    link_selected, "link_selected", Style::new().add_modifier(Modifier::REVERSED);
    list, "list", Style::new();
    quote, "quote", dim().add_modifier(Modifier::ITALIC);
    preformat, "preformat", fg(Color::Yellow);
    alt_text, "alt_text", fg(Color::DarkGray).add_modifier(Modifier::ITALIC);
    menu_type, "menu_type", fg(Color::Green);
    search_match, "search_match", Style::new().fg(Color::Black).bg(Color::Yellow);
    search_current, "search_current", Style::new().fg(Color::Black).bg(Color::LightRed).add_modifier(Modifier::BOLD);
    tab_bar, "tab_bar", dim();
    tab_active, "tab_active", Style::new().add_modifier(Modifier::REVERSED | Modifier::BOLD);
    status, "status", dim();
    status_error, "status_error", fg(Color::LightRed);
    badge, "badge", Style::new().fg(Color::Black).bg(Color::LightYellow);
    prompt, "prompt", fg(Color::LightGreen);
    warning, "warning", fg(Color::LightRed).add_modifier(Modifier::BOLD);
    popup, "popup", Style::new();
    selected, "selected", Style::new().add_modifier(Modifier::REVERSED);
}

impl Theme {
    /// Defaults overridden by `[tui.theme]`.
    pub fn from_config(map: &BTreeMap<String, String>) -> Result<Theme, ThemeError> {
        let mut theme = Theme::default();
        for (name, colour) in map {
            let c = Color::from_str(colour).map_err(|_| ThemeError::UnknownColour {
                element: name.clone(),
                colour: colour.clone(),
            })?;
            let slot = theme
                .slot(name)
                .ok_or_else(|| ThemeError::UnknownElement(name.clone()))?;
            *slot = slot.fg(c);
        }
        Ok(theme)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn config_overrides_one_element() {
        let mut map = BTreeMap::new();
        map.insert("link".to_string(), "#ff8800".to_string());
        map.insert("heading1".to_string(), "245".to_string());
        let t = Theme::from_config(&map).unwrap();
        assert_eq!(t.link.fg, Some(Color::Rgb(0xff, 0x88, 0)));
        assert_eq!(t.heading1.fg, Some(Color::Indexed(245)));
        assert!(t.heading1.add_modifier.contains(Modifier::BOLD));
        assert_eq!(t.quote, Theme::default().quote);
    }

    #[test]
    fn unknown_names_are_errors() {
        let mut map = BTreeMap::new();
        map.insert("linky".to_string(), "red".to_string());
        assert!(
            Theme::from_config(&map)
                .unwrap_err()
                .to_string()
                .contains("linky")
        );
        let mut map = BTreeMap::new();
        map.insert("link".to_string(), "reddish".to_string());
        assert!(
            Theme::from_config(&map)
                .unwrap_err()
                .to_string()
                .contains("reddish")
        );
    }
}
