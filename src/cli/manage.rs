//! `smolweb trust ...` and `smolweb identity ...`: the human's own commands, applied at once,
//! and the approval queue for what agents asked.

use anyhow::{Result, anyhow, bail};
use clap::Subcommand;
use smolweb_client::{Client, Decider};
use smolweb_core::text::sanitize_line;
use smolweb_core::url::{Scheme, Url};
use smolweb_store::identity::{CreatedBy, KeyAlgorithm, NewIdentity, Scope};
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Debug, Subcommand)]
pub(crate) enum TrustCommand {
    /// List pinned server certificates.
    List,
    /// Forget the pinned certificate of HOST[:PORT] (the next visit pins again).
    Remove { host: String },
    /// Agents' pending trust requests.
    Pending,
    /// Perform a pending trust request.
    Approve { id: String },
    /// Drop a pending trust request.
    Deny { id: String },
}

#[derive(Debug, Subcommand)]
pub(crate) enum IdentityCommand {
    /// List client identities.
    List,
    /// Create an identity for a capsule scope (gemini://host[:port]/path).
    Create {
        url: String,
        #[arg(long)]
        name: Option<String>,
        /// Validity in days (default from the config, 365).
        #[arg(long)]
        days: Option<u32>,
        /// Key type: ecdsa-p256 (default) or ed25519.
        #[arg(long)]
        algorithm: Option<String>,
        /// Do not let agents present this identity.
        #[arg(long)]
        no_agent: bool,
    },
    /// Import an identity made elsewhere (Lagrange, amfora, openssl): a PEM certificate and
    /// its unencrypted PEM private key, checked to belong together; the key is kept 0600 and
    /// never printed.
    Import {
        /// The certificate file (PEM).
        cert: PathBuf,
        /// The private key file (PEM: PKCS#8, EC or RSA, not encrypted).
        key: PathBuf,
        /// Where to present it (gemini://host[:port]/path).
        #[arg(long, value_name = "URL")]
        scope: String,
        /// Its name (default: the certificate's common name).
        #[arg(long)]
        name: Option<String>,
        /// Let agents present this identity too (they may not by default).
        #[arg(long)]
        agent_use: bool,
    },
    /// Delete an identity and its private key.
    Remove { fingerprint: String },
    /// Write NAME.crt and NAME.key (PEM) into DIR.
    Export { fingerprint: String, dir: PathBuf },
    /// Allow or forbid agents to present an identity.
    AgentUse {
        fingerprint: String,
        #[arg(action = clap::ArgAction::Set, value_parser = clap::builder::BoolishValueParser::new())]
        allowed: bool,
    },
    /// Agents' pending identity requests.
    Pending,
    /// Perform a pending identity request.
    Approve { id: String },
    /// Drop a pending identity request.
    Deny { id: String },
}

/// `HOST[:PORT]` through the one host normalizer (the form a fetch looks up).
fn host_port(arg: &str) -> Result<(String, u16)> {
    smolweb_core::url::host_and_port(arg, Scheme::Gemini.default_port()).map_err(|e| {
        anyhow!("{e}: give HOST or HOST:PORT, as in `smolweb trust remove example.org:1966`")
    })
}

fn date(t: Option<time::OffsetDateTime>) -> String {
    t.map(|t| t.date().to_string())
        .unwrap_or_else(|| "unknown".into())
}

fn pending(client: &Client, identity: bool) -> Result<ExitCode> {
    let list = client.pending_approvals()?;
    let list: Vec<_> = list
        .into_iter()
        .filter(|a| a.request.is_identity() == identity)
        .collect();
    if list.is_empty() {
        println!("no pending requests");
    }
    for a in list {
        // The client's name is what it declared about itself, and the request's fields came
        // from it too: remote text, made safe before the terminal sees it.
        println!(
            "{}  {}  (asked by {}, expires {})",
            sanitize_line(&a.id),
            sanitize_line(&a.request.describe()),
            sanitize_line(&a.client),
            date(Some(a.expires_at))
        );
    }
    Ok(ExitCode::SUCCESS)
}

fn approve(client: &Client, id: &str, identity: bool) -> Result<ExitCode> {
    let found = client.pending_approvals()?.into_iter().find(|a| a.id == id);
    match found {
        Some(a) if a.request.is_identity() != identity => {
            let other = if identity { "trust" } else { "identity" };
            bail!("{id} is not this kind of request: use `smolweb {other} approve {id}`")
        }
        None => bail!("no pending request {id} (it may have expired or been handled)"),
        Some(_) => {}
    }
    let done = client.approve(id, Decider::Cli)?;
    println!("{}", sanitize_line(&done.message));
    Ok(ExitCode::SUCCESS)
}

fn deny(client: &Client, id: &str) -> Result<ExitCode> {
    let a = client.deny(id, Decider::Cli)?;
    println!("denied: {}", sanitize_line(&a.request.describe()));
    Ok(ExitCode::SUCCESS)
}

pub(super) fn trust(client: &Client, cmd: &TrustCommand) -> Result<ExitCode> {
    match cmd {
        TrustCommand::List => {
            let pins = client.pinned_hosts()?;
            if pins.is_empty() {
                println!("no pinned certificates");
            } else {
                println!("(last seen is updated at most once an hour)");
            }
            for p in pins {
                println!(
                    "{}:{}  {}  expires {}  first seen {}  last seen {}",
                    p.host,
                    p.port,
                    p.fingerprint,
                    date(p.not_after),
                    date(Some(p.first_seen)),
                    date(Some(p.last_seen))
                );
            }
            Ok(ExitCode::SUCCESS)
        }
        TrustCommand::Remove { host } => {
            let (h, port) = host_port(host)?;
            if client.forget_pin(&h, port)? {
                println!("forgot the certificate of {h}:{port}");
                Ok(ExitCode::SUCCESS)
            } else {
                eprintln!("smolweb: no certificate is pinned for {h}:{port}");
                Ok(ExitCode::from(1))
            }
        }
        TrustCommand::Pending => pending(client, false),
        TrustCommand::Approve { id } => approve(client, id, false),
        TrustCommand::Deny { id } => deny(client, id),
    }
}

fn scope_of(url: &str) -> Result<Scope> {
    let u = Url::parse(url).map_err(|e| anyhow!("{url}: {e}"))?;
    if u.scheme() != Scheme::Gemini {
        bail!("identities are for gemini:// URLs");
    }
    Ok(Scope {
        host: u.host().to_string(),
        port: u.port(),
        path: u.path().to_string(),
    })
}

pub(super) fn identity(client: &Client, cmd: &IdentityCommand) -> Result<ExitCode> {
    match cmd {
        IdentityCommand::List => {
            let scan = client.scan_identities()?;
            for bad in &scan.unreadable {
                eprintln!(
                    "smolweb: warning: cannot read identity file {} ({}); it is left as it is",
                    bad.path.display(),
                    sanitize_line(&bad.reason)
                );
            }
            let list = scan.identities;
            if list.is_empty() {
                println!("no identities");
            }
            let now = client.now();
            for i in list {
                let state = if i.expired(now) { "EXPIRED" } else { "valid" };
                let by = match i.created_by {
                    CreatedBy::Human => "you",
                    CreatedBy::Agent => "an agent (approved by you)",
                };
                let agent = if i.agent_use {
                    "agents may use it"
                } else {
                    "agents may not use it"
                };
                println!(
                    "{}  {}  {}\n    {state} until {}, made by {by}, {agent}",
                    i.fingerprint,
                    sanitize_line(&i.name),
                    i.scope.url(),
                    date(Some(i.not_after))
                );
                // Said now, not only when the key is next presented and refused.
                if let Err(e) = client.check_identity_key(&i) {
                    eprintln!("smolweb: warning: {}", sanitize_line(&e.to_string()));
                }
            }
            Ok(ExitCode::SUCCESS)
        }
        IdentityCommand::Create {
            url,
            name,
            days,
            algorithm,
            no_agent,
        } => {
            let scope = scope_of(url)?;
            let cfg = &client.config().identity;
            let alg_name = algorithm.as_deref().unwrap_or(&cfg.algorithm);
            let algorithm = KeyAlgorithm::from_name(alg_name)
                .ok_or_else(|| anyhow!("unknown key type {alg_name} (ecdsa-p256 or ed25519)"))?;
            let new = NewIdentity {
                name: name.clone().unwrap_or_else(|| scope.host.clone()),
                scope,
                days: days.unwrap_or(cfg.days),
                algorithm,
                created_by: CreatedBy::Human,
                agent_use: !no_agent,
            };
            let made = client.create_identity(new)?;
            println!(
                "created identity '{}' for {}\n{}  valid until {}",
                sanitize_line(&made.name),
                made.scope.url(),
                made.fingerprint,
                date(Some(made.not_after))
            );
            Ok(ExitCode::SUCCESS)
        }
        IdentityCommand::Import {
            cert,
            key,
            scope,
            name,
            agent_use,
        } => {
            let scope = scope_of(scope)?;
            let imported = smolweb_store::identity::import::read_files(cert, key)?;
            let made = client.import_identity(imported, scope, name.as_deref(), *agent_use)?;
            let agents = if made.agent_use { "may" } else { "may not" };
            println!(
                "imported identity '{}' for {}\n{}  {} until {}, agents {agents} use it",
                sanitize_line(&made.name),
                made.scope.url(),
                made.fingerprint,
                if made.expired(client.now()) {
                    "EXPIRED"
                } else {
                    "valid"
                },
                date(Some(made.not_after))
            );
            Ok(ExitCode::SUCCESS)
        }
        IdentityCommand::Remove { fingerprint } => {
            let gone = client.remove_identity(fingerprint)?;
            println!(
                "deleted identity '{}' for {}",
                sanitize_line(&gone.name),
                gone.scope.url()
            );
            Ok(ExitCode::SUCCESS)
        }
        IdentityCommand::Export { fingerprint, dir } => {
            let (crt, key) = client.export_identity(fingerprint, dir)?;
            println!("wrote {} and {}", crt.display(), key.display());
            Ok(ExitCode::SUCCESS)
        }
        IdentityCommand::AgentUse {
            fingerprint,
            allowed,
        } => {
            let allowed = *allowed;
            let i = client.set_identity_agent_use(fingerprint, allowed)?;
            let what = if allowed { "may" } else { "may not" };
            println!(
                "agents {what} present identity '{}'",
                sanitize_line(&i.name)
            );
            Ok(ExitCode::SUCCESS)
        }
        IdentityCommand::Pending => pending(client, true),
        IdentityCommand::Approve { id } => approve(client, id, true),
        IdentityCommand::Deny { id } => deny(client, id),
    }
}
