//! robots.txt for the web (agent face), read with the shared parser of [`super::robots`].
//!
//! How an answer to `/robots.txt` is read: 2xx is parsed; 401 and 403 mean everything is
//! disallowed; other 4xx (404 and the like) mean there is no robots.txt, so everything is
//! allowed; 5xx (and a robots.txt that could not be fetched at all) mean "unavailable": the
//! page is refused for now, and a retry later may succeed. The agent name is `smolweb`: its
//! own group when the file has one, else the `*` group.

use super::RobotsAnswer;
use super::robots::Robots;
use std::sync::Arc;

/// The agent names smolweb matches on the web (its own group, else `*`).
pub const WEB_AGENTS: &[&str] = &["smolweb"];

/// Read an HTTP answer to `/robots.txt`.
pub fn http_robots_answer(status: u16, body: &[u8]) -> RobotsAnswer {
    match status {
        200..=299 => RobotsAnswer::Rules(Arc::new(Robots::parse(&String::from_utf8_lossy(body)))),
        401 | 403 => RobotsAnswer::Rules(Arc::new(Robots::parse("User-agent: *\nDisallow: /\n"))),
        500..=599 => RobotsAnswer::Unavailable,
        _ => RobotsAnswer::Rules(Arc::new(Robots::allow_all())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn allowed(status: u16, body: &str, path: &str) -> Option<bool> {
        match http_robots_answer(status, body.as_bytes()) {
            RobotsAnswer::Rules(r) => Some(r.allowed(WEB_AGENTS, path)),
            RobotsAnswer::Unavailable => None,
        }
    }

    #[test]
    fn statuses_and_groups() {
        let file =
            "User-agent: *\nDisallow: /private\n\nUser-agent: smolweb\nDisallow: /no-smolweb\n";
        assert_eq!(allowed(200, file, "/private/x"), Some(true));
        assert_eq!(allowed(200, file, "/no-smolweb/x"), Some(false));
        let star_only = "User-agent: *\nDisallow: /private\n";
        assert_eq!(allowed(200, star_only, "/private/x"), Some(false));
        assert_eq!(allowed(200, star_only, "/public"), Some(true));
        assert_eq!(allowed(401, "", "/"), Some(false));
        assert_eq!(allowed(403, "", "/anything"), Some(false));
        assert_eq!(allowed(404, "", "/anything"), Some(true));
        assert_eq!(allowed(410, "", "/anything"), Some(true));
        assert_eq!(allowed(503, "", "/"), None);
    }
}
