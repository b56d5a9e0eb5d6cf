//! MIME guessing from magic bytes, for Gopher binaries (which carry no type beyond the item
//! type character). Only well-known signatures at fixed offsets; anything else is
//! "application/octet-stream".

/// (offset, magic, mime) checked in order.
const MAGIC: &[(usize, &[u8], &str)] = &[
    (0, b"\x89PNG\r\n\x1a\n", "image/png"),
    (0, b"GIF87a", "image/gif"),
    (0, b"GIF89a", "image/gif"),
    (0, b"\xFF\xD8\xFF", "image/jpeg"),
    (0, b"BM", "image/bmp"),
    (0, b"%PDF-", "application/pdf"),
    (0, b"PK\x03\x04", "application/zip"),
    (0, b"PK\x05\x06", "application/zip"),
    (0, b"\x1F\x8B", "application/gzip"),
    (0, b"BZh", "application/x-bzip2"),
    (0, b"\xFD7zXZ\x00", "application/x-xz"),
    (0, b"7z\xBC\xAF\x27\x1C", "application/x-7z-compressed"),
    (257, b"ustar", "application/x-tar"),
    (0, b"OggS", "audio/ogg"),
    (0, b"fLaC", "audio/flac"),
    (0, b"ID3", "audio/mpeg"),
    (4, b"ftyp", "video/mp4"),
    (0, b"\x7FELF", "application/x-elf"),
];

/// Guess a MIME type from magic bytes (PNG, GIF, JPEG, WebP, BMP, PDF, ZIP, gzip, bzip2, xz,
/// 7z, tar, Ogg, FLAC, MP3, WAV, MP4, ELF), else "application/octet-stream".
pub(crate) fn sniff_mime(bytes: &[u8]) -> &'static str {
    if let Some(kind) = riff(bytes) {
        return kind;
    }
    for (offset, magic, mime) in MAGIC {
        if bytes.get(*offset..).is_some_and(|b| b.starts_with(magic)) {
            // "BM" alone is weak: also require the BMP header size field to be plausible.
            if *mime == "image/bmp" && !bmp_header_ok(bytes) {
                continue;
            }
            return mime;
        }
    }
    if mp3_frame_sync(bytes) {
        return "audio/mpeg";
    }
    "application/octet-stream"
}

/// RIFF containers: WebP and WAV.
fn riff(bytes: &[u8]) -> Option<&'static str> {
    if !bytes.starts_with(b"RIFF") {
        return None;
    }
    match bytes.get(8..12)? {
        b"WEBP" => Some("image/webp"),
        b"WAVE" => Some("audio/wav"),
        _ => None,
    }
}

/// A BMP file header is 14 bytes followed by a DIB header whose size is one of a few values.
fn bmp_header_ok(bytes: &[u8]) -> bool {
    let Some(size) = bytes.get(14..18) else {
        return false;
    };
    let size = u32::from_le_bytes([size[0], size[1], size[2], size[3]]);
    matches!(size, 12 | 40 | 52 | 56 | 64 | 108 | 124)
}

/// An MPEG audio frame header: 11 sync bits, a valid version and layer III/II/I.
fn mp3_frame_sync(bytes: &[u8]) -> bool {
    match bytes {
        [0xFF, second, ..] => second & 0xE0 == 0xE0 && second & 0x06 != 0 && second & 0x18 != 0x08,
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tar_header() -> Vec<u8> {
        let mut v = vec![0u8; 512];
        v[257..262].copy_from_slice(b"ustar");
        v
    }

    fn bmp_header() -> Vec<u8> {
        let mut v = b"BM".to_vec();
        v.extend_from_slice(&[0u8; 12]);
        v.extend_from_slice(&40u32.to_le_bytes());
        v
    }

    #[test]
    fn sniff_table() {
        let tar = tar_header();
        let bmp = bmp_header();
        let cases: &[(&[u8], &str)] = &[
            (b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR", "image/png"),
            (b"GIF89a\x01\x00", "image/gif"),
            (b"GIF87a", "image/gif"),
            (b"\xFF\xD8\xFF\xE0\0\x10JFIF", "image/jpeg"),
            (b"RIFF\x10\0\0\0WEBPVP8 ", "image/webp"),
            (b"RIFF\x10\0\0\0WAVEfmt ", "audio/wav"),
            (b"RIFF\x10\0\0\0AVI LIST", "application/octet-stream"),
            (&bmp, "image/bmp"),
            (
                b"BMW is a car brand, not a bitmap",
                "application/octet-stream",
            ),
            (b"%PDF-1.7\n", "application/pdf"),
            (b"PK\x03\x04\x14\0", "application/zip"),
            (b"\x1F\x8B\x08\0", "application/gzip"),
            (b"BZh91AY&SY", "application/x-bzip2"),
            (b"\xFD7zXZ\x00\x00", "application/x-xz"),
            (b"7z\xBC\xAF\x27\x1C\0\x04", "application/x-7z-compressed"),
            (&tar, "application/x-tar"),
            (b"OggS\0\x02", "audio/ogg"),
            (b"fLaC\0\0\0\x22", "audio/flac"),
            (b"ID3\x04\0\0", "audio/mpeg"),
            (b"\xFF\xFB\x90\x64", "audio/mpeg"),
            (b"\0\0\0\x20ftypisom", "video/mp4"),
            (b"\x7FELF\x02\x01\x01", "application/x-elf"),
            (b"hello world", "application/octet-stream"),
            (b"", "application/octet-stream"),
            (b"\xFF", "application/octet-stream"),
        ];
        for (bytes, mime) in cases {
            assert_eq!(
                sniff_mime(bytes),
                *mime,
                "input {:?}",
                &bytes[..bytes.len().min(12)]
            );
        }
    }
}
