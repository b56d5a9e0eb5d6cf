//! The worker: the body comes back with the result, a spent deadline is a timeout, and the
//! permits come back when a worker ends.

use super::*;

/// One empty page, no cross-reference table (lopdf rebuilds it).
const BLANK: &[u8] = b"%PDF-1.4\n1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj\n2 0 obj << /Type /Pages /Kids [3 0 R] /Count 1 >> endobj\n3 0 obj << /Type /Page /Parent 2 0 R /Contents 4 0 R >> endobj\n4 0 obj << /Length 8 >> stream\n0 0 m S\nendstream endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n";

#[tokio::test]
async fn the_body_comes_back_with_the_verdict() {
    let slots = PdfSlots::default();
    let deadline = Instant::now() + Duration::from_secs(30);
    let (body, read) = read_pdf(&slots, BLANK.to_vec(), deadline, Duration::from_secs(30))
        .await
        .unwrap();
    assert_eq!(body, BLANK);
    assert_eq!(read, Err(PdfError::NoText { pages: 1 }));
    // Every permit is back once the workers are done.
    for _ in 0..PDF_WORKERS * 2 {
        let (_, read) = read_pdf(&slots, BLANK.to_vec(), deadline, Duration::from_secs(30))
            .await
            .unwrap();
        assert!(read.is_err());
    }
    assert_eq!(slots.0.available_permits(), PDF_WORKERS);
}

#[tokio::test]
async fn a_spent_deadline_is_a_timeout_and_the_worker_stops() {
    let slots = PdfSlots::default();
    let budget = Duration::from_secs(7);
    let e = read_pdf(&slots, BLANK.to_vec(), Instant::now(), budget)
        .await
        .unwrap_err();
    assert_eq!(e, WebError::Timeout(budget));
    // The worker saw the deadline and ended, giving its permit back.
    let permits = tokio::time::timeout(Duration::from_secs(30), async {
        while slots.0.available_permits() < PDF_WORKERS {
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
    })
    .await;
    assert!(permits.is_ok());
}
