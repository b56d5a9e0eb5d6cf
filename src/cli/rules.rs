//! `smolweb rules list | add | remove | regions`: the person's site rules (which part of a
//! site's web pages the reader view, `smolweb get` and agents' `fetch_url` keep), from a
//! shell. The browser makes them too (its region key on a web page); agents cannot.
//!
//! `regions URL` fetches the page and lists the regions a rule could keep, each with the
//! selector to give `add --content`.
//!
//! Exit codes: 0 done; 1 the rules file could not be read or written, or the page could
//! not be fetched; 2 a rule or site that cannot be used; 3 `remove` found no rule.

use anyhow::Result;
use clap::Subcommand;
use smolweb_client::Client;
use smolweb_client::web::{WebFormat, WebQuery};
use smolweb_core::html::{Extract, SiteRule};
use smolweb_core::text::one_line;
use smolweb_store::StoreError;
use std::process::ExitCode;

#[derive(Debug, Subcommand)]
pub(crate) enum RulesCommand {
    /// List the rules: site, content selector, what is removed, when made.
    List,
    /// Make or replace the rule for a site.
    Add {
        /// The site (a host: `forum.example`; `www.` is the same site).
        site: String,
        /// CSS selector of the content to keep (every match, in page order).
        #[arg(long, value_name = "SELECTOR")]
        content: String,
        /// CSS selector of something to drop inside the content (repeat for more).
        #[arg(long, value_name = "SELECTOR")]
        remove: Vec<String>,
    },
    /// Remove the rule for a site.
    Remove {
        /// The site (a host).
        site: String,
    },
    /// Fetch a web page and list the regions a rule could keep, with their selectors.
    Regions {
        /// The page (http:// or https://).
        url: String,
    },
}

fn failed(e: impl std::fmt::Display, code: u8) -> Result<ExitCode> {
    eprintln!("smolweb: {e}");
    Ok(ExitCode::from(code))
}

fn store_code(e: &StoreError) -> u8 {
    match e {
        StoreError::Invalid(_) => 2,
        StoreError::NotFound(_) => 3,
        _ => 1,
    }
}

pub(super) fn run(client: &Client, cmd: &RulesCommand) -> Result<ExitCode> {
    match cmd {
        RulesCommand::List => {
            let rules = match client.site_rules() {
                Ok(r) => r,
                Err(e) => return failed(e, 1),
            };
            if rules.is_empty() {
                eprintln!(
                    "no site rules: make one in the browser on a web page, or with smolweb rules add"
                );
            }
            for r in &rules {
                println!("{}", one_line(&r.site, None));
                println!("    content  {}", one_line(&r.content, None));
                for sel in &r.remove {
                    println!("    remove   {}", one_line(sel, None));
                }
                let when = r
                    .added
                    .format(&time::format_description::well_known::Rfc3339)
                    .unwrap_or_default();
                println!("    made     {when}");
            }
            Ok(ExitCode::SUCCESS)
        }
        RulesCommand::Add {
            site,
            content,
            remove,
        } => {
            let rule = SiteRule {
                content: content.clone(),
                remove: remove.clone(),
            };
            match client.set_site_rule(site, &rule) {
                Ok(made) => {
                    println!(
                        "rule made for {}: keep {}",
                        made.site,
                        one_line(&made.content, None)
                    );
                    Ok(ExitCode::SUCCESS)
                }
                Err(e) => failed(&e, store_code(&e)),
            }
        }
        RulesCommand::Remove { site } => match client.remove_site_rule(site) {
            Ok(gone) => {
                println!("rule removed for {}", gone.site);
                Ok(ExitCode::SUCCESS)
            }
            Err(e) => failed(&e, store_code(&e)),
        },
        RulesCommand::Regions { url } => regions(client, url),
    }
}

fn regions(client: &Client, url: &str) -> Result<ExitCode> {
    let q = WebQuery {
        url: url.to_string(),
        format: WebFormat::Raw,
        extract: Extract::Main,
        max_bytes: None,
    };
    let fetched = match crate::cli::runtime()?.block_on(client.fetch_web(&q)) {
        Ok(f) => f,
        Err(e) => return failed(e, 1),
    };
    let page = &fetched.page;
    if let Some(e) = page.status_error() {
        return failed(e, 1);
    }
    let found = smolweb_core::html::regions(page.body.text(), &page.final_url);
    if found.is_empty() {
        eprintln!("no region of this page holds enough text to be a rule's content");
        return Ok(ExitCode::SUCCESS);
    }
    let host = smolweb_core::url::Url::parse(&page.final_url)
        .map(|u| u.host().to_string())
        .unwrap_or_default();
    for (i, r) in found.iter().enumerate() {
        let many = match r.matches {
            1 => String::new(),
            n => format!(", {n} elements"),
        };
        println!(
            "{:>2}. {}  ({} characters{many})",
            i + 1,
            one_line(&r.selector, None),
            r.chars
        );
        println!("    {}", one_line(&r.preview, Some(100)));
    }
    eprintln!(
        "keep one with: smolweb rules add {host} --content '{}'",
        found[0].selector
    );
    Ok(ExitCode::SUCCESS)
}
