//! Where a link may lead: the one rule for every link source (gemtext `=>` lines, Gopher menu
//! items and their `URL:` selectors, HTML `href`s, Gemini and web redirects, feed entries).
//!
//! A resolved link is a [`Destination::Fetch`] when its scheme is one of [`Scheme::ALL`] that a
//! link may lead to ([`Scheme::is_followed`]: every one but titan, since following never
//! uploads), built-in pages (about) included; a reference without a scheme is relative to the
//! page it is on, so it is one too. `mailto:` is
//! [`Destination::Mail`]: smolweb does not fetch it, but the person's browser may hand it to the
//! mail program, after asking. Every other scheme (`javascript:`, `data:`, `file:`,
//! `vbscript:`, `telnet:`, and any scheme not named here) is [`Destination::Refused`]: the link
//! stays visible as text, flagged with its scheme, and is never a `next_url`, never in a link
//! list, never followed and never handed to another program. The external opener only ever
//! receives http(s) and mailto URLs ([`opener_may_receive`]).

use super::Scheme;
use super::parse::scheme_of;

/// What a resolved link is to smolweb (see the module docs).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Destination {
    /// smolweb fetches it (gemini, gopher, http(s), the small protocols, about, or a relative
    /// reference).
    Fetch,
    /// A `mailto:` link: not fetched, but may be handed to the mail program after asking.
    Mail,
    /// Any other scheme: shown as text, never followed.
    Refused,
}

impl Destination {
    /// Fetch or Mail: a link that is offered (numbered, listed, followed).
    pub fn is_offered(self) -> bool {
        self != Destination::Refused
    }
}

/// Classify a resolved link (see the module docs).
pub fn destination(url: &str) -> Destination {
    let url = url.trim_start();
    let Some(scheme) = scheme_of(url) else {
        return if url.contains(':') && !relative_colon(url) {
            Destination::Refused
        } else {
            Destination::Fetch
        };
    };
    if Scheme::from_name(scheme).is_some_and(Scheme::is_followed) {
        Destination::Fetch
    } else if scheme.eq_ignore_ascii_case("mailto") {
        Destination::Mail
    } else {
        Destination::Refused
    }
}

/// A colon that belongs to a relative reference: after its first `/`, `?` or `#`.
fn relative_colon(url: &str) -> bool {
    let colon = url.find(':').unwrap_or(url.len());
    url.find(['/', '?', '#']).is_some_and(|i| i < colon)
}

/// The lowercase scheme of a refused link ("javascript", "file", ...); None for a destination.
/// A text that is not a valid scheme before its colon (`"java script:x"`) says `"invalid"`.
pub fn refused_scheme(url: &str) -> Option<String> {
    if destination(url) != Destination::Refused {
        return None;
    }
    Some(scheme_of(url.trim_start()).map_or_else(|| "invalid".to_string(), str::to_ascii_lowercase))
}

/// May the external opener (the browser's `$BROWSER`/xdg-open) receive `url`? Only an http,
/// https or mailto URL.
pub fn opener_may_receive(url: &str) -> bool {
    scheme_of(url.trim()).is_some_and(|s| {
        ["http", "https", "mailto"]
            .iter()
            .any(|o| o.eq_ignore_ascii_case(s))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_link_source_gets_the_same_answer() {
        use Destination::*;
        let cases = [
            ("gemini://a.example/", Fetch, None),
            ("GOPHER://a.example/1/", Fetch, None),
            ("https://a.example/x", Fetch, None),
            ("http://a.example/x", Fetch, None),
            ("about:home", Fetch, None),
            ("/relative/path", Fetch, None),
            ("page.gmi", Fetch, None),
            ("dir/a:b", Fetch, None),
            ("?q=a:b", Fetch, None),
            ("mailto:someone@example.org", Mail, None),
            ("javascript:alert(1)", Refused, Some("javascript")),
            ("JavaScript:alert(1)", Refused, Some("javascript")),
            ("  javascript:alert(1)", Refused, Some("javascript")),
            ("vbscript:msgbox", Refused, Some("vbscript")),
            ("data:text/html,<script>", Refused, Some("data")),
            ("file:///etc/passwd", Refused, Some("file")),
            ("telnet://bbs.example:23", Refused, Some("telnet")),
            ("ssh://host", Refused, Some("ssh")),
            ("x-unknown:thing", Refused, Some("x-unknown")),
            ("java script:alert(1)", Refused, Some("invalid")),
            ("1http://x", Refused, Some("invalid")),
        ];
        for (url, want, scheme) in cases {
            assert_eq!(destination(url), want, "{url}");
            assert_eq!(refused_scheme(url).as_deref(), scheme, "{url}");
        }
    }

    #[test]
    fn the_opener_gets_only_web_and_mail() {
        for ok in [
            "https://a.example/",
            "http://a.example",
            "mailto:a@b",
            "HTTPS://x",
        ] {
            assert!(opener_may_receive(ok), "{ok}");
        }
        for bad in [
            "javascript:alert(1)",
            "file:///etc/passwd",
            "gemini://a.example/",
            "telnet://x",
            "data:,x",
            "/relative",
            "",
        ] {
            assert!(!opener_may_receive(bad), "{bad}");
        }
    }
}
