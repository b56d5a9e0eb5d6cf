//! robots.txt: a pure, tolerant parser and the matching rule smolweb applies.
//!
//! Parsing: lines `field: value`, field names case-insensitive, `#` starts a comment, junk
//! lines are skipped. Consecutive `User-agent` lines open one group; the `Allow`/`Disallow`
//! lines after them belong to it; a `User-agent` line after rules opens a new group. Rules
//! before any `User-agent` line are ignored. Several groups naming the same agent are merged.
//!
//! Matching a path against one group: the longest matching pattern wins; on a tie `Allow` wins;
//! no matching rule means allowed. An empty `Disallow:` matches nothing. Patterns are prefixes;
//! `*` matches any run of characters and a trailing `$` anchors the end.
//!
//! Choosing the group for an agent name: the groups naming it (case-insensitive); when none
//! does, the `*` groups. smolweb asks for several names at once (Gemini: `webproxy`, `indexer`
//! and `*`; Gopher: `*`) and a path is disallowed when the group chosen for ANY of those names
//! disallows it — a capsule that shuts out any of the roles we play is obeyed.

/// Gemini virtual agents smolweb answers to (Gemini robots.txt companion spec).
pub const GEMINI_AGENTS: &[&str] = &["webproxy", "indexer", "*"];
/// Gopher has no virtual agents.
pub const GOPHER_AGENTS: &[&str] = &["*"];

#[derive(Clone, Debug, PartialEq, Eq)]
struct Rule {
    allow: bool,
    pattern: String,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct Group {
    agents: Vec<String>,
    rules: Vec<Rule>,
}

/// A parsed robots.txt.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Robots {
    groups: Vec<Group>,
}

/// Split a line into a lowercase field name and a trimmed value, comments removed.
fn field(line: &str) -> Option<(String, &str)> {
    let line = line.split('#').next().unwrap_or("").trim();
    let (name, value) = line.split_once(':')?;
    Some((name.trim().to_ascii_lowercase(), value.trim()))
}

impl Robots {
    /// Allows everything (no robots.txt, or one that could not be used).
    pub(crate) fn allow_all() -> Robots {
        Robots::default()
    }

    /// Parse robots.txt text; never fails (unknown or broken lines are skipped).
    pub fn parse(text: &str) -> Robots {
        let mut groups: Vec<Group> = Vec::new();
        let mut open: Option<Group> = None;
        for line in text.lines() {
            let Some((name, value)) = field(line) else {
                continue;
            };
            match name.as_str() {
                "user-agent" => {
                    let agent = value.to_ascii_lowercase();
                    match open.as_mut() {
                        Some(g) if g.rules.is_empty() => g.agents.push(agent),
                        _ => {
                            groups.extend(open.take());
                            open = Some(Group {
                                agents: vec![agent],
                                rules: Vec::new(),
                            });
                        }
                    }
                }
                "allow" | "disallow" => {
                    if let Some(g) = open.as_mut()
                        && !value.is_empty()
                    {
                        g.rules.push(Rule {
                            allow: name == "allow",
                            pattern: value.to_string(),
                        });
                    }
                }
                _ => {}
            }
        }
        groups.extend(open);
        Robots { groups }
    }

    /// The merged rules of the groups that apply to `agent` (its own groups, else `*`).
    fn rules_for(&self, agent: &str) -> Vec<&Rule> {
        let agent = agent.to_ascii_lowercase();
        let named = |name: &str| {
            self.groups
                .iter()
                .filter(|g| g.agents.iter().any(|a| a == name))
                .flat_map(|g| g.rules.iter())
                .collect::<Vec<_>>()
        };
        let own = named(&agent);
        let has_own = self.groups.iter().any(|g| g.agents.contains(&agent));
        if has_own { own } else { named("*") }
    }

    /// Is `path` allowed for one agent name?
    pub(crate) fn allowed_for(&self, agent: &str, path: &str) -> bool {
        let mut best: Option<(usize, bool)> = None;
        for rule in self.rules_for(agent) {
            if !pattern_matches(&rule.pattern, path) {
                continue;
            }
            let len = rule.pattern.len();
            best = match best {
                Some((l, a)) if l > len || (l == len && a) => Some((l, a)),
                _ => Some((len, rule.allow)),
            };
        }
        best.is_none_or(|(_, allow)| allow)
    }

    /// Is `path` allowed for every one of `agents`?
    pub fn allowed(&self, agents: &[&str], path: &str) -> bool {
        agents.iter().all(|a| self.allowed_for(a, path))
    }
}

/// Does a robots pattern (`*` wildcards, optional trailing `$`) match the start of `path`?
pub(crate) fn pattern_matches(pattern: &str, path: &str) -> bool {
    let (pattern, anchored) = match pattern.strip_suffix('$') {
        Some(p) => (p, true),
        None => (pattern, false),
    };
    let mut parts = pattern.split('*');
    let first = parts.next().unwrap_or("");
    let Some(mut rest) = path.strip_prefix(first) else {
        return false;
    };
    let pieces: Vec<&str> = parts.collect();
    if pieces.is_empty() {
        return !anchored || rest.is_empty();
    }
    let last = pieces.len() - 1;
    for (i, piece) in pieces.iter().enumerate() {
        if i == last && anchored {
            return rest.ends_with(piece);
        }
        match rest.find(piece) {
            Some(at) => rest = &rest[at + piece.len()..],
            None => return false,
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn patterns() {
        for (pattern, path, want) in [
            ("/", "/anything", true),
            ("/a", "/a", true),
            ("/a", "/ab/c", true),
            ("/a", "/b", false),
            ("/a$", "/a", true),
            ("/a$", "/ab", false),
            ("/*.gmi", "/x/y.gmi", true),
            ("/*.gmi$", "/x/y.gmi.bak", false),
            ("/*.gmi$", "/x/y.gmi", true),
            ("/a*b*c", "/aXbYc/z", true),
            ("/a*b*c", "/aXcYb", false),
            ("*", "/", true),
            ("/$", "/", true),
            ("/$", "/x", false),
        ] {
            assert_eq!(pattern_matches(pattern, path), want, "{pattern} vs {path}");
        }
    }

    const SAMPLE: &str = "\
# comment line
User-agent: *
Disallow: /private/   # trailing comment
Allow: /private/open

user-AGENT: webproxy
USER-AGENT: researcher
disallow: /cgi-bin/

this line is junk
Sitemap: gemini://x/sitemap

User-agent: archiver
Disallow: /
";

    #[test]
    fn groups_and_fallback() {
        let r = Robots::parse(SAMPLE);
        let cases = [
            ("indexer", "/private/x", false), // falls back to *
            ("indexer", "/private/open/y", true),
            ("indexer", "/cgi-bin/q", true),
            ("webproxy", "/cgi-bin/q", false), // own group
            ("webproxy", "/private/x", true),  // own group replaces *
            ("researcher", "/cgi-bin/", false),
            ("archiver", "/anything", false),
            ("*", "/public", true),
        ];
        for (agent, path, want) in cases {
            assert_eq!(r.allowed_for(agent, path), want, "{agent} {path}");
        }
    }

    #[test]
    fn any_of_our_agents_disallowing_wins() {
        let r = Robots::parse(SAMPLE);
        assert!(!r.allowed(GEMINI_AGENTS, "/cgi-bin/x"), "webproxy forbids");
        assert!(
            !r.allowed(GEMINI_AGENTS, "/private/x"),
            "* and indexer forbid"
        );
        assert!(r.allowed(GEMINI_AGENTS, "/docs/"));
        assert!(r.allowed(GEMINI_AGENTS, "/private/open"));
    }

    #[test]
    fn longest_match_and_allow_wins_ties() {
        let r = Robots::parse("User-agent: *\nDisallow: /a\nAllow: /a/b\nDisallow: /a/b/c\n");
        assert!(!r.allowed_for("*", "/a/x"));
        assert!(r.allowed_for("*", "/a/b/x"));
        assert!(!r.allowed_for("*", "/a/b/c/d"));
        let tie = Robots::parse("User-agent: *\nDisallow: /same\nAllow: /same\n");
        assert!(tie.allowed_for("*", "/same/page"));
    }

    #[test]
    fn merges_groups_for_one_agent_and_ignores_orphan_rules() {
        let r = Robots::parse(
            "Disallow: /orphan\nUser-agent: *\nDisallow: /a\n\nUser-agent: *\nDisallow: /b\n",
        );
        assert!(r.allowed_for("*", "/orphan"));
        assert!(!r.allowed_for("*", "/a"));
        assert!(!r.allowed_for("*", "/b"));
    }

    #[test]
    fn empty_disallow_and_junk_allow_everything() {
        for text in [
            "",
            "User-agent: *\nDisallow:\n",
            "\u{0}\u{1}garbage\n:::\n",
            "3Not found\terror.host\t1\r\n",
            "<html>not robots</html>",
        ] {
            let r = Robots::parse(text);
            assert!(r.allowed(GEMINI_AGENTS, "/x"), "{text:?}");
        }
        assert_eq!(Robots::parse(""), Robots::allow_all());
    }

    #[test]
    fn crlf_and_case() {
        let r = Robots::parse("USER-AGENT: WebProxy\r\nDISALLOW: /Secret\r\n");
        assert!(!r.allowed_for("webproxy", "/Secret/x"));
        assert!(
            r.allowed_for("webproxy", "/secret/x"),
            "paths are case-sensitive"
        );
    }
}
