//! The address guard: which destinations a fetch may reach.
//!
//! Owns host resolution for every fetch: [`resolve_checked`] resolves once, classifies every
//! address, and returns the checked socket addresses; fetchers connect only to those (no second
//! lookup, so a rebinding DNS answer cannot swap the address after the check). Gemini, Gopher
//! and every hop of a web fetch (`net::http`) go through [`check_addresses`].
//!
//! Invariants:
//! - If ANY resolved address is refused, the whole host is refused (`FetchError::Blocked`, the
//!   reason names the address class). Three tiers, whatever the face:
//!   1. Never reached, whatever the options say: cloud metadata endpoints ([`METADATA_V4`],
//!      [`METADATA_V6`], and the names of [`METADATA_NAMES`], refused by name before any
//!      lookup) and the unspecified "this host" addresses (0.0.0.0/8, `::`), which reach local
//!      services.
//!   2. `allow_private` (the person's browser, or `network.allow_private_addresses` for the
//!      agent) opens loopback, RFC 1918 and unique-local (ULA) addresses only.
//!   3. A host named in `allowed_hosts` (compared through the one host normalizer,
//!      `core::url::normalize_host`) may resolve to any address but those of tier 1: that is
//!      how a person reaches a capsule on a link-local or carrier-grade NAT (VPN) address.
//! - IPv6 forms that embed an IPv4 address (IPv4-mapped `::ffff:a.b.c.d`, IPv4-compatible
//!   `::a.b.c.d`, NAT64 `64:ff9b::/96`, 6to4 `2002::/16`) are judged by the embedded address,
//!   so `::ffff:169.254.169.254` is a metadata address too.
//! - Agent requests never reach a port of [`DANGEROUS_PORTS`], whatever the address options say:
//!   they are services that a line of text could talk to (mail, databases, caches, remote
//!   shells). Gopher (70), finger (79), Gemini (1965) and other ports are allowed.

use super::{BlockReason, DnsError, FetchError, NetOptions};
use smolweb_core::url::normalize_host;
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr};

/// Ports an agent request never connects to. Mostly the WHATWG fetch "bad ports" list (minus
/// finger, 79, which smolweb users do reach over gopher://), plus common databases, caches and
/// control APIs that listen on TCP without authentication by default.
pub(crate) const DANGEROUS_PORTS: &[u16] = &[
    0, 1, 7, 9, 11, 13, 15, 17, 19, 20, 21, 22, 23, 25, 37, 42, 43, 53, 69, 77, 87, 95, 101, 102,
    103, 104, 109, 110, 111, 113, 115, 117, 119, 123, 135, 137, 139, 143, 161, 179, 389, 427, 445,
    465, 512, 513, 514, 515, 526, 530, 531, 532, 540, 548, 554, 556, 563, 587, 601, 636, 989, 990,
    993, 995, 1433, 1521, 1719, 1720, 1723, 2049, 2375, 2376, 2379, 3306, 3659, 4045, 4190, 5060,
    5061, 5432, 5984, 6000, 6379, 6566, 6665, 6666, 6667, 6668, 6669, 6697, 9200, 10080, 10250,
    11211, 27017,
];

/// Cloud instance metadata services (credentials, user data): AWS, Azure, Google Cloud, Oracle,
/// OpenStack and DigitalOcean at 169.254.169.254; the AWS ECS task and EKS Pod Identity
/// endpoints; Alibaba Cloud at 100.100.100.200.
pub(crate) const METADATA_V4: &[Ipv4Addr] = &[
    Ipv4Addr::new(169, 254, 169, 254),
    Ipv4Addr::new(169, 254, 170, 2),
    Ipv4Addr::new(169, 254, 170, 23),
    Ipv4Addr::new(100, 100, 100, 200),
];

/// The IPv6 metadata endpoints (AWS instance metadata and EKS Pod Identity).
pub(crate) const METADATA_V6: &[Ipv6Addr] = &[
    Ipv6Addr::new(0xfd00, 0x0ec2, 0, 0, 0, 0, 0, 0x0254),
    Ipv6Addr::new(0xfd00, 0x0ec2, 0, 0, 0, 0, 0, 0x0023),
];

/// Names that the cloud's resolver points at a metadata service, refused before any lookup
/// (compared after the host normalizer: case and a final dot do not matter).
pub(crate) const METADATA_NAMES: &[&str] = &[
    "metadata",
    "metadata.google.internal",
    "instance-data",
    "instance-data.ec2.internal",
];

/// What kind of address an IP is, for the guard's purposes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AddressClass {
    /// Global unicast.
    Public,
    /// 127.0.0.0/8 and ::1.
    Loopback,
    /// RFC 1918.
    Private,
    /// 169.254.0.0/16 and fe80::/10.
    LinkLocal,
    /// fc00::/7 (and the deprecated site-local fec0::/10).
    UniqueLocal,
    /// 100.64.0.0/10, carrier-grade NAT.
    SharedCgnat,
    /// 224.0.0.0/4 and ff00::/8.
    Multicast,
    /// A cloud metadata endpoint ([`METADATA_V4`], [`METADATA_V6`]).
    Metadata,
    /// 0.0.0.0/8 and `::`: "this host", which a connect reaches as the local machine.
    Unspecified,
    /// 255.255.255.255.
    Broadcast,
    /// Documentation ranges (TEST-NETs, 2001:db8::/32, 3fff::/20).
    Documentation,
    /// 198.18.0.0/15 benchmarking.
    Benchmark,
    /// Everything else that is not global unicast (192.0.0/24, 240/4, 2001::/23, the NAT64
    /// local-use prefix 64:ff9b:1::/48, whose embedded address depends on the local translator).
    Reserved,
}

impl AddressClass {
    /// Refused whatever the options and the allow list say (tier 1 of the module docs).
    pub fn always_refused(self) -> bool {
        matches!(self, AddressClass::Metadata | AddressClass::Unspecified)
    }

    /// Opened by `allow_private`: loopback, RFC 1918 and unique-local addresses only.
    pub(crate) fn opened_by_allow_private(self) -> bool {
        matches!(
            self,
            AddressClass::Loopback | AddressClass::Private | AddressClass::UniqueLocal
        )
    }

    /// The class in a few words ("loopback", "carrier-grade NAT").
    pub fn label(self) -> &'static str {
        match self {
            AddressClass::Public => "public",
            AddressClass::Loopback => "loopback",
            AddressClass::Private => "private",
            AddressClass::LinkLocal => "link-local",
            AddressClass::UniqueLocal => "unique-local",
            AddressClass::SharedCgnat => "carrier-grade NAT",
            AddressClass::Multicast => "multicast",
            AddressClass::Metadata => "cloud metadata",
            AddressClass::Unspecified => "unspecified (\"this host\")",
            AddressClass::Broadcast => "broadcast",
            AddressClass::Documentation => "documentation",
            AddressClass::Benchmark => "benchmarking",
            AddressClass::Reserved => "reserved",
        }
    }
}

/// Classify any IP address.
pub(crate) fn classify(ip: IpAddr) -> AddressClass {
    match ip {
        IpAddr::V4(v4) => classify_v4(v4),
        IpAddr::V6(v6) => classify_v6(v6),
    }
}

fn in_v4(ip: Ipv4Addr, net: [u8; 4], prefix: u32) -> bool {
    let mask = if prefix == 0 {
        0
    } else {
        u32::MAX << (32 - prefix)
    };
    (u32::from(ip) & mask) == (u32::from(Ipv4Addr::from(net)) & mask)
}

/// Classify an IPv4 address.
pub(crate) fn classify_v4(ip: Ipv4Addr) -> AddressClass {
    use AddressClass::*;
    if METADATA_V4.contains(&ip) {
        return Metadata;
    }
    const TABLE: &[([u8; 4], u32, AddressClass)] = &[
        ([0, 0, 0, 0], 8, Unspecified),
        ([10, 0, 0, 0], 8, Private),
        ([100, 64, 0, 0], 10, SharedCgnat),
        ([127, 0, 0, 0], 8, Loopback),
        ([169, 254, 0, 0], 16, LinkLocal),
        ([172, 16, 0, 0], 12, Private),
        ([192, 0, 0, 0], 24, Reserved),
        ([192, 0, 2, 0], 24, Documentation),
        ([192, 88, 99, 0], 24, Reserved),
        ([192, 168, 0, 0], 16, Private),
        ([198, 18, 0, 0], 15, Benchmark),
        ([198, 51, 100, 0], 24, Documentation),
        ([203, 0, 113, 0], 24, Documentation),
        ([224, 0, 0, 0], 4, Multicast),
        ([255, 255, 255, 255], 32, Broadcast),
        ([240, 0, 0, 0], 4, Reserved),
    ];
    TABLE
        .iter()
        .find(|(net, prefix, _)| in_v4(ip, *net, *prefix))
        .map_or(Public, |(_, _, class)| *class)
}

fn in_v6(ip: Ipv6Addr, net: u128, prefix: u32) -> bool {
    let mask = if prefix == 0 {
        0
    } else {
        u128::MAX << (128 - prefix)
    };
    (u128::from(ip) & mask) == (net & mask)
}

/// The IPv4 address an IPv6 address stands for, when it embeds one.
pub(crate) fn embedded_v4(ip: Ipv6Addr) -> Option<Ipv4Addr> {
    let bits = u128::from(ip);
    let low32 = Ipv4Addr::from((bits & 0xffff_ffff) as u32);
    if in_v6(ip, 0xffff_0000_0000, 96) || in_v6(ip, 0x0064_ff9b << 96, 96) {
        return Some(low32);
    }
    // IPv4-compatible (deprecated): ::a.b.c.d, but not :: or ::1.
    if in_v6(ip, 0, 96) && bits > 1 {
        return Some(low32);
    }
    // 6to4: 2002:AABB:CCDD::/48 embeds AA.BB.CC.DD.
    if in_v6(ip, 0x2002 << 112, 16) {
        return Some(Ipv4Addr::from(((bits >> 80) & 0xffff_ffff) as u32));
    }
    None
}

/// Classify an IPv6 address (embedded IPv4 forms by the address they embed).
pub(crate) fn classify_v6(ip: Ipv6Addr) -> AddressClass {
    use AddressClass::*;
    let bits = u128::from(ip);
    if bits == 0 {
        return Unspecified;
    }
    if bits == 1 {
        return Loopback;
    }
    if let Some(v4) = embedded_v4(ip) {
        return classify_v4(v4);
    }
    if METADATA_V6.contains(&ip) {
        return Metadata;
    }
    const TABLE: &[(u128, u32, AddressClass)] = &[
        (0x0064_ff9b_0001 << 80, 48, Reserved),
        (0x0100 << 112, 64, Reserved),
        (0x2001_0db8 << 96, 32, Documentation),
        (0x2001 << 112, 23, Reserved),
        (0x3fff << 112, 20, Documentation),
        (0xfc00 << 112, 7, UniqueLocal),
        (0xfe80 << 112, 10, LinkLocal),
        (0xfec0 << 112, 10, UniqueLocal),
        (0xff00 << 112, 8, Multicast),
    ];
    if let Some((_, _, class)) = TABLE.iter().find(|(n, p, _)| in_v6(ip, *n, *p)) {
        return *class;
    }
    // Only 2000::/3 is allocated for global unicast.
    if in_v6(ip, 0x2000 << 112, 3) {
        Public
    } else {
        Reserved
    }
}

/// Is `port` refused for this request?
pub(crate) fn port_refused(port: u16, for_agent: bool) -> bool {
    for_agent && DANGEROUS_PORTS.contains(&port)
}

/// Is `host` named in the allow list? Both sides go through the one host normalizer
/// ([`normalize_host`]: case, brackets, a final dot, IDNA); an entry that is not a host (one
/// with a port or a scheme) names nothing.
pub(crate) fn host_allowed(host: &str, allowed_hosts: &[String]) -> bool {
    let Ok(host) = normalize_host(host) else {
        return false;
    };
    allowed_hosts
        .iter()
        .any(|h| normalize_host(h).is_ok_and(|h| h == host))
}

/// Is `host` the name of a cloud metadata service ([`METADATA_NAMES`])?
pub(crate) fn is_metadata_name(host: &str) -> bool {
    normalize_host(host).is_ok_and(|h| METADATA_NAMES.contains(&h.as_str()))
}

/// May an address of `class` be reached for this host (see the tiers in the module docs)?
fn reachable(class: AddressClass, listed: bool, opts: &NetOptions) -> bool {
    if class.always_refused() {
        return false;
    }
    class == AddressClass::Public
        || listed
        || (opts.allow_private && class.opened_by_allow_private())
}

/// Judge a host and its resolved addresses (pure): Ok when every address may be reached.
/// Called with no addresses before the lookup (the port and the metadata names are judged
/// then), and with the lookup's answer after it.
pub(crate) fn check_addresses(
    host: &str,
    port: u16,
    addrs: &[SocketAddr],
    opts: &NetOptions,
) -> Result<(), FetchError> {
    let blocked = |reason: BlockReason| FetchError::Blocked {
        host: host.to_string(),
        reason,
    };
    if port_refused(port, opts.for_agent) {
        return Err(blocked(BlockReason::Port(port)));
    }
    if is_metadata_name(host) {
        return Err(blocked(BlockReason::MetadataName));
    }
    let listed = host_allowed(host, &opts.allowed_hosts);
    for addr in addrs {
        let class = classify(addr.ip());
        if !reachable(class, listed, opts) {
            return Err(blocked(BlockReason::Address {
                ip: addr.ip(),
                class,
                private_allowed: opts.allow_private,
            }));
        }
    }
    Ok(())
}

/// Resolve `host:port` once and check every address. The caller applies the timeout budget.
pub(crate) async fn resolve_checked(
    host: &str,
    port: u16,
    opts: &NetOptions,
) -> Result<Vec<SocketAddr>, FetchError> {
    let dns = |reason: DnsError| FetchError::Dns {
        host: host.to_string(),
        reason,
    };
    // Refuse a dangerous port or a metadata name before any lookup.
    check_addresses(host, port, &[], opts)?;
    let bare = host.trim_start_matches('[').trim_end_matches(']');
    let addrs: Vec<SocketAddr> = tokio::net::lookup_host((bare, port))
        .await
        .map_err(|e| dns(DnsError::Lookup(std::sync::Arc::new(e))))?
        .collect();
    if addrs.is_empty() {
        return Err(dns(DnsError::NoAddress));
    }
    check_addresses(host, port, &addrs, opts)?;
    Ok(addrs)
}

#[cfg(test)]
mod tests;
