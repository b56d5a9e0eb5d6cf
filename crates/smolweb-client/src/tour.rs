//! The tour (links to read next, kept in `tour.toml` by `smolweb_store::tour`) as both faces
//! use it: the browser's tour keys and `smolweb tour` for the person, the `tour_*` tools for
//! agents. This is the one place that says which links may go on it: an absolute URL of a
//! scheme smolweb opens (never `about:`, never a query), and for an agent also one the
//! address guard lets an agent reach (the same judgement as every other agent URL, under the
//! SOCKS5 proxy too). What an agent sees of the tour is all of it: the person's links and
//! every agent's, with who added them and why.

use super::Client;
use smolweb_core::url::{Destination, Scheme, Url, destination};
use smolweb_net::{FetchError, RequestError};
use smolweb_store::StoreError;
use smolweb_store::tour::{Added, NewStop, Stop, Tour};

/// Why a URL cannot go on the tour; None when it can.
fn unfit(url: &str) -> Option<String> {
    match destination(url) {
        Destination::Fetch => {}
        Destination::Mail => return Some("mail links are not pages to read".into()),
        Destination::Refused => {
            let scheme = smolweb_core::url::refused_scheme(url).unwrap_or_else(|| "this".into());
            return Some(format!("smolweb does not open {scheme}: links"));
        }
    }
    match Url::parse(url.trim()) {
        Err(e) => Some(e.to_string()),
        Ok(u) if u.scheme() == Scheme::About => {
            Some("about: pages are the browser's own, not links to read".into())
        }
        Ok(u) if destination(&u.to_string()) != Destination::Fetch => Some(format!(
            "{}: links are not opened by smolweb",
            u.scheme().as_str()
        )),
        Ok(_) => None,
    }
}

impl Client {
    fn tour_file(&self) -> Tour {
        Tour::new(self.paths.tour())
    }

    /// The links on the tour, the next first.
    pub fn tour(&self) -> Result<Vec<Stop>, StoreError> {
        self.tour_file().list()
    }

    /// Put the person's links at the end of the tour, in order; links that cannot go on it
    /// are in [`Added::refused`] with why.
    pub fn tour_add(&self, links: &[NewStop]) -> Result<Added, StoreError> {
        let mut refused = Vec::new();
        let fit: Vec<NewStop> = links
            .iter()
            .filter(|l| match unfit(&l.url) {
                Some(why) => {
                    refused.push((l.url.clone(), why));
                    false
                }
                None => true,
            })
            .cloned()
            .collect();
        let mut added = self.tour_file().add(&fit, self.now())?;
        refused.append(&mut added.refused);
        added.refused = refused;
        Ok(added)
    }

    /// Put a link an agent chose at the end of the tour, with its reason: refused (nothing
    /// kept) when the guard would refuse the agent that URL, or when it cannot go on the tour.
    /// `client` and `session` say who, as the activity log does.
    pub async fn tour_add_for_agent(
        &self,
        url: &str,
        reason: &str,
        client: &str,
        session: &str,
    ) -> Result<Added, FetchError> {
        let invalid = |why: String| FetchError::store(StoreError::Invalid(why));
        if let Some(why) = unfit(url) {
            return Err(invalid(why));
        }
        let parsed = Url::parse(url.trim()).map_err(RequestError::Url)?;
        self.check_destination(&parsed).await?;
        let added = self
            .tour_file()
            .add_for_agent(url.trim(), reason, client, session, self.now())
            .map_err(FetchError::store)?;
        match added.refused.first() {
            Some((_, why)) => Err(invalid(why.clone())),
            None => Ok(added),
        }
    }

    /// Take the next link off the tour, with how many wait after it (None: it is empty).
    pub fn tour_next(&self) -> Result<Option<(Stop, usize)>, StoreError> {
        self.tour_file().next()
    }

    /// Take one link off the tour, wherever it waits; whether it was there.
    pub fn tour_remove(&self, url: &str) -> Result<bool, StoreError> {
        self.tour_file().remove(url)
    }

    /// Take every link off the tour; how many there were.
    pub fn tour_clear(&self) -> Result<usize, StoreError> {
        self.tour_file().clear()
    }
}

#[cfg(test)]
mod tests {
    use super::unfit;

    #[test]
    fn only_links_smolweb_opens_go_on_the_tour() {
        for ok in [
            "gemini://a.test/",
            "gopher://b.test/1/",
            "https://c.test/x",
            "nex://d.test/",
        ] {
            assert_eq!(unfit(ok), None, "{ok}");
        }
        for bad in [
            "about:home",
            "javascript:alert(1)",
            "mailto:a@b.test",
            "relative/path",
            "",
        ] {
            assert!(unfit(bad).is_some(), "{bad}");
        }
    }
}
