//! Reading a PDF's text without holding up the async runtime: [`read_pdf`] hands the body to
//! a worker thread named [`PDF_THREAD`] that runs [`pdf::extract`] and sends the text back.
//!
//! Invariants:
//! - At most [`PDF_WORKERS`] PDFs are read at once per client (a permit travels with the
//!   worker and is released when it ends, so a worker still finishing after its call timed
//!   out keeps its place and nothing piles up).
//! - The call's deadline bounds the wait: past it the call fails with `TIMEOUT`, and the
//!   worker, which asks `keep_going` between pages and every few thousand operators, stops
//!   at its next check. The extraction's own limits ([`PdfLimits::for_body`]) bound its memory.
//! - A panic inside the PDF reader is caught on the worker and reported as an unreadable PDF;
//!   it never reaches the runtime (the browser's panic hook leaves [`PDF_THREAD`] alone).

use smolweb_core::pdf::{self, PdfError, PdfLimits, PdfText};
use smolweb_net::http::WebError;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;
use tokio::sync::Semaphore;
use tokio::time::Instant;

/// The name of the worker threads (a panic hook may recognise them).
pub const PDF_THREAD: &str = "smolweb-pdf";
/// PDFs read at once per client.
pub(super) const PDF_WORKERS: usize = 2;
/// The worker's stack (lopdf parses nested objects recursively, to a bounded depth).
const STACK_BYTES: usize = 8 << 20;

/// The workers' permits of one client.
pub(super) struct PdfSlots(Arc<Semaphore>);

impl Default for PdfSlots {
    fn default() -> PdfSlots {
        PdfSlots(Arc::new(Semaphore::new(PDF_WORKERS)))
    }
}

/// Read the text of `body` on a worker before `deadline` (see the module docs); the body
/// comes back with the result. `budget` is the call's whole timeout, for the error.
pub(super) async fn read_pdf(
    slots: &PdfSlots,
    body: Vec<u8>,
    deadline: Instant,
    budget: Duration,
) -> Result<(Vec<u8>, Result<PdfText, PdfError>), WebError> {
    let permit = match tokio::time::timeout_at(deadline, slots.0.clone().acquire_owned()).await {
        Ok(Ok(p)) => p,
        Ok(Err(_)) => return Err(WebError::Internal("the PDF workers are closed".into())),
        Err(_) => return Err(WebError::Timeout(budget)),
    };
    let stop = Arc::new(AtomicBool::new(false));
    let (tx, rx) = tokio::sync::oneshot::channel();
    let worker_stop = stop.clone();
    let std_deadline = deadline.into_std();
    std::thread::Builder::new()
        .name(PDF_THREAD.into())
        .stack_size(STACK_BYTES)
        .spawn(move || {
            let keep_going =
                || !worker_stop.load(Ordering::Relaxed) && std::time::Instant::now() < std_deadline;
            let limits = PdfLimits::for_body(body.len());
            let read = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                pdf::extract(&body, &limits, &keep_going)
            }))
            .unwrap_or_else(|_| {
                Err(PdfError::Malformed(
                    "the PDF reader failed on this file".into(),
                ))
            });
            drop(permit);
            let _ = tx.send((body, read));
        })
        .map_err(|e| WebError::Internal(format!("cannot start the PDF reader: {e}")))?;
    match tokio::time::timeout_at(deadline, rx).await {
        Ok(Ok((body, Err(PdfError::Stopped)))) => {
            drop(body);
            Err(WebError::Timeout(budget))
        }
        Ok(Ok(done)) => Ok(done),
        Ok(Err(_)) => Err(WebError::Internal(
            "the PDF reader ended without an answer".into(),
        )),
        Err(_) => {
            stop.store(true, Ordering::Relaxed);
            Err(WebError::Timeout(budget))
        }
    }
}

#[cfg(test)]
mod tests;
