//! PDF loading limits and the small helpers.

use super::*;

#[test]
fn the_header_alone_makes_a_pdf() {
    assert!(is_pdf(b"%PDF-1.4\n"));
    assert!(!is_pdf(b" %PDF-1.4"));
    assert!(!is_pdf(b"<html>%PDF-1.4"));
    assert!(!is_pdf(b"%PDF"));
}

#[test]
fn markers_and_plurals() {
    assert_eq!(page_marker(3, 12), "--- page 3 of 12 ---");
    assert_eq!(pages_words(1), "1 page");
    assert_eq!(pages_words(0), "0 pages");
}

#[test]
fn weight_counts_nodes_and_bytes_and_stops_at_the_cap() {
    let node = std::mem::size_of::<Object>();
    let leaf = Object::Integer(1);
    assert_eq!(weight(&leaf, usize::MAX), node);
    let s = Object::string_literal("abcd");
    assert_eq!(weight(&s, usize::MAX), node + 4);
    let array = Object::Array(vec![Object::Integer(0); 1000]);
    assert_eq!(weight(&array, usize::MAX), node * 1001);
    // Past the cap the walk ends early (the result is only known to exceed it).
    assert!(weight(&array, 10 * node) > 10 * node);
    assert!(weight(&array, 10 * node) < 1001 * node);
}

#[test]
fn tidy_trims_lines_and_keeps_single_blank_lines() {
    assert_eq!(tidy("\n\n a  \n\n\n\nb \n\n"), " a\n\nb");
    assert_eq!(tidy("   \n"), "");
}

#[test]
fn a_pdf_without_a_body_is_malformed_and_limits_scale() {
    let limits = PdfLimits::for_body(100);
    assert!(matches!(
        extract(b"%PDF-1.7\nnothing else", &limits, &|| true),
        Err(PdfError::Malformed(_))
    ));
    let limits = PdfLimits::for_body(10 << 20);
    assert_eq!(limits.max_object_bytes, 60 << 20);
    assert_eq!(PdfLimits::for_body(0).max_object_bytes, 32 << 20);
}
