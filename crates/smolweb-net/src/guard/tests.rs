//! The guard's tables: address classes, the option tiers, metadata names, ports, resolution.

use super::*;
use AddressClass::*;

#[test]
fn classifies_addresses() {
    let cases: &[(&str, AddressClass)] = &[
        ("127.0.0.1", Loopback),
        ("127.255.1.2", Loopback),
        ("10.1.2.3", Private),
        ("172.16.0.1", Private),
        ("172.31.255.255", Private),
        ("172.32.0.1", Public),
        ("192.168.1.1", Private),
        ("169.254.169.254", Metadata),
        ("169.254.169.253", LinkLocal),
        ("169.254.170.2", Metadata),
        ("100.100.100.200", Metadata),
        ("100.100.100.201", SharedCgnat),
        ("100.64.0.1", SharedCgnat),
        ("100.128.0.1", Public),
        ("0.0.0.0", Unspecified),
        ("0.1.2.3", Unspecified),
        ("0.255.255.255", Unspecified),
        ("1.0.0.0", Public),
        ("192.0.0.8", Reserved),
        ("192.0.2.1", Documentation),
        ("198.18.0.1", Benchmark),
        ("198.19.255.1", Benchmark),
        ("198.51.100.7", Documentation),
        ("203.0.113.9", Documentation),
        ("224.0.0.1", Multicast),
        ("239.1.1.1", Multicast),
        ("240.0.0.1", Reserved),
        ("255.255.255.255", Broadcast),
        ("8.8.8.8", Public),
        ("93.184.216.34", Public),
        ("::", Unspecified),
        ("::1", Loopback),
        ("fe80::1", LinkLocal),
        ("fc00::1", UniqueLocal),
        ("fd12:3456::1", UniqueLocal),
        ("fec0::1", UniqueLocal),
        ("ff02::1", Multicast),
        ("2001:db8::1", Documentation),
        ("3fff::1", Documentation),
        ("2001::1", Reserved),
        ("100::1", Reserved),
        ("4000::1", Reserved),
        ("2606:4700::1111", Public),
        ("::ffff:127.0.0.1", Loopback),
        ("::ffff:10.0.0.1", Private),
        ("::ffff:8.8.8.8", Public),
        ("::127.0.0.1", Loopback),
        ("64:ff9b::7f00:1", Loopback),
        ("64:ff9b::a9fe:a9fe", Metadata),
        ("64:ff9b::a9fe:101", LinkLocal),
        ("64:ff9b::808:808", Public),
        ("64:ff9b:1::1", Reserved),
        ("fd00:ec2::254", Metadata),
        ("fd00:ec2::253", UniqueLocal),
        ("::ffff:169.254.169.254", Metadata),
        ("::169.254.169.254", Metadata),
        ("2002:a9fe:a9fe::1", Metadata),
        ("::ffff:100.100.100.200", Metadata),
        ("::ffff:0.0.0.0", Unspecified),
        ("::0.0.0.7", Unspecified),
        ("2002:7f00:1::1", Loopback),
        ("2002:808:808::1", Public),
    ];
    for (text, want) in cases {
        let ip: IpAddr = text.parse().unwrap();
        assert_eq!(classify(ip), *want, "{text}");
    }
}

#[test]
fn dangerous_ports_only_for_agents() {
    for port in [22, 23, 25, 110, 143, 445, 3306, 5432, 6379, 11211, 27017] {
        assert!(port_refused(port, true), "{port}");
        assert!(!port_refused(port, false), "{port}");
    }
    for port in [70, 79, 1965, 300, 7070, 8080, 40000] {
        assert!(!port_refused(port, true), "{port}");
    }
}

fn sa(text: &str) -> SocketAddr {
    SocketAddr::new(text.parse().unwrap(), 1965)
}

#[test]
fn any_refused_address_refuses_the_host() {
    let opts = NetOptions::default();
    let addrs = [sa("8.8.8.8"), sa("10.0.0.1")];
    let err = check_addresses("example.org", 1965, &addrs, &opts).unwrap_err();
    assert_eq!(err.code(), "BLOCKED");
    assert!(err.to_string().contains("private"), "{err}");
    assert!(check_addresses("example.org", 1965, &addrs[..1], &opts).is_ok());
}

#[test]
fn options_lift_the_address_refusal_but_not_the_port_list() {
    let addrs = [sa("127.0.0.1")];
    let private = NetOptions {
        allow_private: true,
        ..NetOptions::default()
    };
    assert!(check_addresses("localhost", 1965, &addrs, &private).is_ok());
    assert!(check_addresses("localhost", 22, &addrs, &private).is_err());
    let listed = NetOptions {
        allowed_hosts: vec!["LocalHost.".into()],
        ..NetOptions::default()
    };
    assert!(check_addresses("localhost", 1965, &addrs, &listed).is_ok());
    assert!(check_addresses("other", 1965, &addrs, &listed).is_err());
    let v6 = NetOptions {
        allowed_hosts: vec!["::1".into()],
        ..NetOptions::default()
    };
    assert!(check_addresses("[::1]", 1965, &[sa("::1")], &v6).is_ok());
}

/// (address, reachable by default, with allow_private, with the host in allowed_hosts)
const TIERS: &[(&str, bool, bool, bool)] = &[
    ("93.184.216.34", true, true, true),
    ("2606:4700::1111", true, true, true),
    ("127.0.0.1", false, true, true),
    ("::1", false, true, true),
    ("10.0.0.7", false, true, true),
    ("172.20.1.1", false, true, true),
    ("192.168.1.20", false, true, true),
    ("fd12:3456::1", false, true, true),
    ("::ffff:192.168.1.20", false, true, true),
    ("169.254.10.1", false, false, true),
    ("fe80::1", false, false, true),
    ("100.101.102.103", false, false, true),
    ("64:ff9b:1::1", false, false, true),
    ("169.254.169.254", false, false, false),
    ("169.254.170.2", false, false, false),
    ("100.100.100.200", false, false, false),
    ("fd00:ec2::254", false, false, false),
    ("::ffff:169.254.169.254", false, false, false),
    ("::169.254.169.254", false, false, false),
    ("64:ff9b::a9fe:a9fe", false, false, false),
    ("2002:a9fe:a9fe::", false, false, false),
    ("0.0.0.0", false, false, false),
    ("0.0.0.1", false, false, false),
    ("::", false, false, false),
    ("::ffff:0.0.0.0", false, false, false),
];

#[test]
fn options_open_their_tier_and_metadata_and_this_host_stay_refused() {
    let private = NetOptions {
        allow_private: true,
        ..NetOptions::default()
    };
    let listed = NetOptions {
        allowed_hosts: vec!["capsule.lan".into()],
        ..NetOptions::default()
    };
    let both = NetOptions {
        allow_private: true,
        allowed_hosts: vec!["capsule.lan".into()],
        for_agent: false,
        ..NetOptions::default()
    };
    for &(ip, default, with_private, with_listed) in TIERS {
        let addrs = [sa(ip)];
        let ok = |o: &NetOptions| check_addresses("capsule.lan", 1965, &addrs, o).is_ok();
        assert_eq!(ok(&NetOptions::default()), default, "{ip} by default");
        assert_eq!(ok(&private), with_private, "{ip} with allow_private");
        assert_eq!(ok(&listed), with_listed, "{ip} with allowed_hosts");
        assert_eq!(ok(&both), with_listed, "{ip} with both");
    }
}

#[test]
fn refusals_say_what_would_open_them() {
    let private = NetOptions {
        allow_private: true,
        ..NetOptions::default()
    };
    let err = check_addresses("h", 80, &[sa("169.254.169.254")], &private).unwrap_err();
    assert_eq!(err.code(), "BLOCKED");
    let text = err.to_string();
    assert!(
        text.contains("cloud metadata") && text.contains("never"),
        "{text}"
    );
    let err = check_addresses("h", 80, &[sa("0.0.0.0")], &private).unwrap_err();
    assert!(err.to_string().contains("this host"), "{err}");
    let err = check_addresses("h", 80, &[sa("100.64.1.1")], &private).unwrap_err();
    assert!(err.to_string().contains("allowed_hosts"), "{err}");
}

#[test]
fn metadata_names_are_refused_before_any_lookup_whatever_the_options() {
    let open = NetOptions {
        allow_private: true,
        allowed_hosts: vec!["metadata.google.internal".into(), "metadata".into()],
        for_agent: false,
        ..NetOptions::default()
    };
    for name in [
        "metadata",
        "METADATA.",
        "metadata.google.internal",
        "Metadata.Google.Internal.",
        "instance-data.ec2.internal",
    ] {
        let err = check_addresses(name, 80, &[], &open).unwrap_err();
        assert_eq!(err.code(), "BLOCKED", "{name}");
        assert!(err.to_string().contains("metadata"), "{err}");
    }
    for fine in ["metadata.example.org", "google.internal", "meta"] {
        assert!(check_addresses(fine, 80, &[], &open).is_ok(), "{fine}");
    }
}

#[test]
fn allow_list_entries_go_through_the_host_normalizer() {
    let addrs = [sa("127.0.0.1")];
    let opts = |entry: &str| NetOptions {
        allowed_hosts: vec![entry.into()],
        ..NetOptions::default()
    };
    let idn = opts("Bücher.Example");
    assert!(check_addresses("xn--bcher-kva.example", 1965, &addrs, &idn).is_ok());
    for not_a_host in ["localhost:1965", "gemini://localhost"] {
        let o = opts(not_a_host);
        assert!(
            check_addresses("localhost", 1965, &addrs, &o).is_err(),
            "{not_a_host}"
        );
    }
}

#[tokio::test]
async fn resolves_literals_and_refuses_loopback() {
    let opts = NetOptions::default();
    let err = resolve_checked("127.0.0.1", 1965, &opts).await.unwrap_err();
    assert!(err.to_string().contains("loopback"), "{err}");
    let err = resolve_checked("::ffff:127.0.0.1", 1965, &opts)
        .await
        .unwrap_err();
    assert_eq!(err.code(), "BLOCKED");
    let open = NetOptions {
        allow_private: true,
        ..NetOptions::default()
    };
    let addrs = resolve_checked("::1", 1965, &open).await.unwrap();
    assert_eq!(addrs, vec![sa("::1")]);
    for this_host in ["0.0.0.0", "0", "::", "[::]", "::ffff:169.254.169.254"] {
        let err = resolve_checked(this_host, 1965, &open).await.unwrap_err();
        assert_eq!(err.code(), "BLOCKED", "{this_host}");
    }
}

#[test]
fn local_names_are_known_without_a_lookup() {
    let cases: &[(&str, Option<AddressClass>)] = &[
        ("localhost", Some(Loopback)),
        ("LOCALHOST.", Some(Loopback)),
        ("app.localhost", Some(Loopback)),
        ("printer.local", Some(Private)),
        ("nas.home.arpa", Some(Private)),
        ("wiki.corp.internal", Some(Private)),
        ("localhost.example.org", None),
        ("local", Some(Private)),
        ("notlocal", None),
        ("capsule.onion", None),
        ("127.0.0.1", None),
    ];
    for (host, want) in cases {
        assert_eq!(local_name_class(host), *want, "{host}");
    }
}

#[test]
fn unresolved_hosts_are_judged_by_what_shows() {
    let proxy = Some(SocketAddr::from(([127, 0, 0, 1], 9050)));
    let agent = NetOptions {
        socks5: proxy,
        ..NetOptions::default()
    };
    let person = NetOptions {
        allow_private: true,
        for_agent: false,
        ..agent.clone()
    };
    for host in [
        "capsule.test",
        "example.org",
        "8.8.8.8",
        "[2606:4700::1111]",
    ] {
        assert!(check_unresolved(host, 1965, &agent).is_ok(), "{host}");
    }
    for host in [
        "127.0.0.1",
        "[::1]",
        "10.1.1.1",
        "localhost",
        "x.local",
        "[::ffff:10.0.0.1]",
    ] {
        assert!(check_unresolved(host, 1965, &agent).is_err(), "{host}");
        assert!(check_unresolved(host, 1965, &person).is_ok(), "{host}");
    }
    for host in ["169.254.169.254", "metadata.google.internal", "0.0.0.0"] {
        assert!(check_unresolved(host, 1965, &person).is_err(), "{host}");
    }
    assert!(check_unresolved("example.org", 25, &agent).is_err());
}
