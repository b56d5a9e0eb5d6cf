//! The reassembly against every order a network (or a hostile server) may deliver.

use super::*;

const MAX: u64 = 1 << 20;

fn first(seq: u64, mime: &str, data: &str) -> Vec<u8> {
    format!("{seq} {mime}\r\n{data}").into_bytes()
}

fn chunk(seq: u64, data: &str) -> Vec<u8> {
    format!("{seq}\r\n{data}").into_bytes()
}

/// Feed `packets`; the answer when one came, with every step.
fn run(t: &mut Transfer, packets: &[Vec<u8>]) -> (Vec<Step>, Option<GuppyResponse>) {
    let mut steps = Vec::new();
    for p in packets {
        match t.take(p).unwrap() {
            Step::Done { ack, answer } => {
                steps.push(Step::Done {
                    ack,
                    answer: answer.clone(),
                });
                return (steps, Some(answer));
            }
            other => steps.push(other),
        }
    }
    (steps, None)
}

fn document(body: &str) -> GuppyResponse {
    GuppyResponse::Document {
        mime: "text/gemini".into(),
        body: body.as_bytes().to_vec(),
    }
}

#[test]
fn in_order_every_packet_is_acknowledged_and_the_end_completes() {
    let mut t = Transfer::new(MAX);
    let packets = [
        first(100, "text/gemini", "# Title\n"),
        chunk(101, "Paragraph\n"),
        chunk(102, ""),
    ];
    let (steps, answer) = run(&mut t, &packets);
    assert_eq!(steps[..2], [Step::Ack(100), Step::Ack(101)]);
    assert!(matches!(steps[2], Step::Done { ack: Some(102), .. }));
    assert_eq!(answer, Some(document("# Title\nParagraph\n")));
}

#[test]
fn reordered_and_duplicated_packets_make_the_same_document() {
    let orders: [&[usize]; 4] = [
        &[3, 2, 1, 0],
        &[0, 0, 2, 2, 1, 3],
        &[2, 3, 0, 1],
        &[1, 0, 1, 0, 3, 2],
    ];
    let packets = [
        first(7, "text/gemini", "a"),
        chunk(8, "b"),
        chunk(9, "c"),
        chunk(10, ""),
    ];
    for order in orders {
        let mut t = Transfer::new(MAX);
        let sent: Vec<Vec<u8>> = order.iter().map(|&i| packets[i].clone()).collect();
        let (steps, answer) = run(&mut t, &sent);
        assert_eq!(answer, Some(document("abc")), "{order:?}: {steps:?}");
    }
}

#[test]
fn a_duplicate_after_it_was_appended_is_acknowledged_again() {
    let mut t = Transfer::new(MAX);
    assert_eq!(
        t.take(&first(50, "text/plain", "x")).unwrap(),
        Step::Ack(50)
    );
    assert_eq!(t.take(&chunk(51, "y")).unwrap(), Step::Ack(51));
    // Our acknowledgements were lost: the server sends both again.
    assert_eq!(
        t.take(&first(50, "text/plain", "x")).unwrap(),
        Step::Ack(50)
    );
    assert_eq!(t.take(&chunk(51, "y")).unwrap(), Step::Ack(51));
    let (_, answer) = run(&mut t, &[chunk(52, "")]);
    let want = GuppyResponse::Document {
        mime: "text/plain".into(),
        body: b"xy".to_vec(),
    };
    assert_eq!(answer, Some(want), "nothing appended twice");
}

#[test]
fn statuses_end_at_once_and_undefined_ones_are_protocol_errors() {
    for (packet, want) in [
        (
            "1 Your name?\r\n",
            GuppyResponse::Input("Your name?".into()),
        ),
        (
            "3 /elsewhere\r\n",
            GuppyResponse::Redirect("/elsewhere".into()),
        ),
        ("4 Not found\r\n", GuppyResponse::Error("Not found".into())),
    ] {
        let step = Transfer::new(MAX).take(packet.as_bytes()).unwrap();
        assert_eq!(
            step,
            Step::Done {
                ack: None,
                answer: want
            },
            "{packet:?}"
        );
    }
    for bad in ["0 x\r\n", "2 x\r\n", "5 x\r\n"] {
        let err = Transfer::new(MAX).take(bad.as_bytes()).unwrap_err();
        assert_eq!(err.code(), "PROTOCOL_ERROR", "{bad:?}");
    }
}

#[test]
fn garbage_is_ignored_and_named_when_nothing_else_came() {
    let mut t = Transfer::new(MAX);
    for junk in [
        &b""[..],
        b"\r\n",
        b"hello",
        b"x1 y\r\n",
        b"12345678901234567890 a\r\n",
    ] {
        assert_eq!(t.take(junk).unwrap(), Step::Ignore, "{junk:?}");
    }
    assert_eq!(t.gave_up(Duration::from_secs(1)).code(), "PROTOCOL_ERROR");
    let mut quiet = Transfer::new(MAX);
    assert_eq!(
        quiet.take(&first(9, "text/gemini", "a")).unwrap(),
        Step::Ack(9)
    );
    assert_eq!(quiet.gave_up(Duration::from_secs(1)).code(), "TIMEOUT");
}

#[test]
fn strays_before_the_first_or_after_the_end_are_not_ours() {
    let mut t = Transfer::new(MAX);
    assert_eq!(
        t.take(&first(20, "text/gemini", "a")).unwrap(),
        Step::Ack(20)
    );
    assert_eq!(t.take(&chunk(19, "old")).unwrap(), Step::Ignore);
    assert_eq!(
        t.take(&first(300, "text/gemini", "other")).unwrap(),
        Step::Ignore
    );
    assert_eq!(
        t.take(&chunk(23, "")).unwrap(),
        Step::Ack(23),
        "the end, early"
    );
    assert_eq!(t.take(&chunk(24, "after the end")).unwrap(), Step::Ignore);
    assert_eq!(t.take(&chunk(23, "data on the end")).unwrap(), Step::Ignore);
    assert_eq!(t.take(&b"4 late error\r\n"[..]).unwrap(), Step::Ignore);
    let (_, answer) = run(&mut t, &[chunk(22, "c"), chunk(21, "b")]);
    assert_eq!(answer, Some(document("abc")));
}

#[test]
fn chunks_before_the_first_packet_are_kept_for_it() {
    let mut t = Transfer::new(MAX);
    assert_eq!(t.take(&chunk(31, "b")).unwrap(), Step::Ack(31));
    assert_eq!(t.take(&chunk(32, "")).unwrap(), Step::Ack(32));
    assert_eq!(
        t.take(&chunk(12, "another answer's")).unwrap(),
        Step::Ack(12)
    );
    let (_, answer) = run(&mut t, &[first(30, "text/gemini", "a")]);
    assert_eq!(answer, Some(document("ab")));
}

#[test]
fn endless_packets_stop_at_the_body_limit_and_far_ones_are_not_kept() {
    let mut t = Transfer::new(10);
    assert_eq!(
        t.take(&first(6, "text/plain", "12345")).unwrap(),
        Step::Ack(6)
    );
    assert_eq!(t.take(&chunk(7, "6789")).unwrap(), Step::Ack(7));
    let err = t.take(&chunk(8, "ab")).unwrap_err();
    assert_eq!(err.code(), "RESPONSE_TOO_LARGE");
    let mut t = Transfer::new(MAX);
    assert_eq!(t.take(&first(6, "text/plain", "a")).unwrap(), Step::Ack(6));
    let far = 7 + MAX_AHEAD + 1;
    assert_eq!(
        t.take(&chunk(far, "x")).unwrap(),
        Step::Ignore,
        "not acknowledged"
    );
    assert_eq!(t.received(), 1);
}

#[test]
fn the_first_packet_may_name_no_type() {
    let mut t = Transfer::new(MAX);
    let (_, answer) = run(&mut t, &[b"6 \r\nhi".to_vec(), chunk(7, "")]);
    assert_eq!(answer, Some(document("hi")));
}

#[test]
fn request_lines() {
    let u = Url::parse("guppy://example.org/a?q").unwrap();
    assert_eq!(request_line(&u).unwrap(), "guppy://example.org/a?q\r\n");
    let long = Url::parse(&format!("guppy://example.org/{}", "a".repeat(1100))).unwrap();
    assert_eq!(request_line(&long).unwrap_err().code(), "INVALID_REQUEST");
    let g = Url::parse("gemini://example.org/").unwrap();
    assert!(request_line(&g).is_err());
}
