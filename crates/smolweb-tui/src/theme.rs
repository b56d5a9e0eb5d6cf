//! Colours of every screen element. Two bases: the dark one (the 16 basic colours, so it
//! works on any terminal with a dark background) and the light one (darker colours of the
//! 256-colour palette, whose values terminals keep fixed, readable on white). `[tui] theme`
//! chooses the base (`auto`: light when the terminal says its background is light, see
//! [`crate::probe`]) and maps element names to colours ("red", "lightblue", "#ff8800",
//! "245") that override that element's foreground. Unknown bases, elements or colours are
//! errors.

use ratatui::style::{Color, Modifier, Style};
use smolweb_client::config::ThemeConfig;
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
    #[error("[tui] theme: unknown base '{0}' (auto, light or dark)")]
    /// A base that is not auto, light or dark.
    UnknownBase(String),
}

/// The base colours: chosen, or following the terminal.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Base {
    /// Light when the terminal says its background is light, else dark.
    Auto,
    /// For a light background.
    Light,
    /// For a dark background.
    Dark,
}

impl Base {
    /// The base named `s` (case-insensitive).
    pub fn parse(s: &str) -> Option<Base> {
        Some(match s.trim().to_ascii_lowercase().as_str() {
            "auto" | "" => Base::Auto,
            "light" => Base::Light,
            "dark" => Base::Dark,
            _ => return None,
        })
    }
}

macro_rules! elements {
    ($( $field:ident, $name:literal, $dark:expr, $light:expr; )*) => {
        /// Styles of the screen elements.
        #[derive(Clone, Debug, PartialEq)]
        pub struct Theme {
            $( #[doc = concat!("The style of `", $name, "`.")] pub $field: Style, )*
        }

        /// The dark base.
        impl Default for Theme {
            fn default() -> Self {
                Theme { $( $field: $dark, )* }
            }
        }

        impl Theme {
            /// The light base.
            pub fn light() -> Theme {
                Theme { $( $field: $light, )* }
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

/// A colour of the 256-colour palette (its values are fixed in nearly every terminal, unlike
/// the 16 basic colours, which a light theme often leaves pale).
fn ix(n: u8) -> Style {
    fg(Color::Indexed(n))
}

// Element, name, dark base, light base. Light: 25/24/30 blues for headings, 19 deep blue
// links, 90 purple for links that leave, 94 brown for preformatted text, 242 gray for what
// is secondary, 28 green, 124 red; the highlights on pale yellow and orange.
elements! {
    text, "text", Style::new(), Style::new();
    heading1, "heading1", fg(Color::LightCyan).add_modifier(Modifier::BOLD), ix(25).add_modifier(Modifier::BOLD);
    heading2, "heading2", fg(Color::Cyan).add_modifier(Modifier::BOLD), ix(24).add_modifier(Modifier::BOLD);
    heading3, "heading3", fg(Color::Cyan), ix(30);
    link, "link", fg(Color::LightBlue), ix(19);
    link_number, "link_number", fg(Color::Blue), ix(242);
    link_external, "link_external", fg(Color::LightMagenta), ix(90);
    link_selected, "link_selected", Style::new().add_modifier(Modifier::REVERSED), Style::new().add_modifier(Modifier::REVERSED);
    list, "list", Style::new(), Style::new();
    quote, "quote", dim().add_modifier(Modifier::ITALIC), dim().add_modifier(Modifier::ITALIC);
    preformat, "preformat", fg(Color::Yellow), ix(94);
    alt_text, "alt_text", fg(Color::DarkGray).add_modifier(Modifier::ITALIC), ix(242).add_modifier(Modifier::ITALIC);
    menu_type, "menu_type", fg(Color::Green), ix(28);
    search_match, "search_match", Style::new().fg(Color::Black).bg(Color::Yellow), Style::new().fg(Color::Black).bg(Color::Indexed(229));
    search_current, "search_current", Style::new().fg(Color::Black).bg(Color::LightRed).add_modifier(Modifier::BOLD), Style::new().fg(Color::Black).bg(Color::Indexed(215)).add_modifier(Modifier::BOLD);
    tab_bar, "tab_bar", dim(), dim();
    tab_active, "tab_active", Style::new().add_modifier(Modifier::REVERSED | Modifier::BOLD), Style::new().add_modifier(Modifier::REVERSED | Modifier::BOLD);
    status, "status", dim(), dim();
    status_error, "status_error", fg(Color::LightRed), ix(124);
    badge, "badge", Style::new().fg(Color::Black).bg(Color::LightYellow), Style::new().fg(Color::Black).bg(Color::Indexed(222));
    prompt, "prompt", fg(Color::LightGreen), ix(22);
    warning, "warning", fg(Color::LightRed).add_modifier(Modifier::BOLD), ix(124).add_modifier(Modifier::BOLD);
    popup, "popup", Style::new(), Style::new();
    selected, "selected", Style::new().add_modifier(Modifier::REVERSED), Style::new().add_modifier(Modifier::REVERSED);
}

impl Theme {
    /// The base `[tui] theme` names (an unknown name is an error).
    pub fn base(config: &ThemeConfig) -> Result<Base, ThemeError> {
        Base::parse(&config.base).ok_or_else(|| ThemeError::UnknownBase(config.base.clone()))
    }

    /// `[tui] theme`: its base (for `auto`, light when `light_background`) with its colours
    /// over it.
    pub fn from_config(config: &ThemeConfig, light_background: bool) -> Result<Theme, ThemeError> {
        let light = match Theme::base(config)? {
            Base::Light => true,
            Base::Dark => false,
            Base::Auto => light_background,
        };
        let mut theme = if light {
            Theme::light()
        } else {
            Theme::default()
        };
        for (name, colour) in &config.colours {
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

    fn config(base: &str, pairs: &[(&str, &str)]) -> ThemeConfig {
        ThemeConfig {
            base: base.into(),
            colours: pairs
                .iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect(),
        }
    }

    #[test]
    fn config_overrides_one_element() {
        let map = config("auto", &[("link", "#ff8800"), ("heading1", "245")]);
        let t = Theme::from_config(&map, false).unwrap();
        assert_eq!(t.link.fg, Some(Color::Rgb(0xff, 0x88, 0)));
        assert_eq!(t.heading1.fg, Some(Color::Indexed(245)));
        assert!(t.heading1.add_modifier.contains(Modifier::BOLD));
        assert_eq!(t.quote, Theme::default().quote);
    }

    #[test]
    fn unknown_names_are_errors() {
        for (map, word) in [
            (config("auto", &[("linky", "red")]), "linky"),
            (config("auto", &[("link", "reddish")]), "reddish"),
            (config("sepia", &[]), "sepia"),
        ] {
            let e = Theme::from_config(&map, false).unwrap_err().to_string();
            assert!(e.contains(word), "{e}");
        }
    }

    #[test]
    fn the_base_follows_the_background_only_when_auto() {
        let light = Theme::light();
        let dark = Theme::default();
        assert_ne!(light.preformat, dark.preformat);
        for (base, light_bg, want) in [
            ("auto", true, &light),
            ("auto", false, &dark),
            ("light", false, &light),
            ("dark", true, &dark),
            ("Light", false, &light),
        ] {
            let t = Theme::from_config(&config(base, &[]), light_bg).unwrap();
            assert_eq!(&t, want, "{base} on a light background: {light_bg}");
        }
        // A colour set in the config wins over either base.
        let t = Theme::from_config(&config("light", &[("preformat", "red")]), true).unwrap();
        assert_eq!(t.preformat.fg, Some(Color::Red));
        assert_eq!(t.heading1, light.heading1);
    }

    /// The light base never uses the pale basic colours a white background hides (yellow,
    /// cyan, light cyan, white, gray) for text.
    #[test]
    fn the_light_base_has_no_pale_text() {
        let pale = [
            Color::Yellow,
            Color::LightYellow,
            Color::Cyan,
            Color::LightCyan,
            Color::White,
            Color::Gray,
            Color::LightGreen,
        ];
        let t = Theme::light();
        for (name, style) in [
            ("heading1", t.heading1),
            ("heading2", t.heading2),
            ("heading3", t.heading3),
            ("link", t.link),
            ("preformat", t.preformat),
            ("prompt", t.prompt),
            ("menu_type", t.menu_type),
        ] {
            assert!(
                !style.fg.is_some_and(|c| pale.contains(&c)),
                "{name}: {:?}",
                style.fg
            );
        }
    }
}
