//! The reader view's document: a converted page (markdown) rewritten as gemtext, so the
//! browser shows a web page with the renderer and styles it has for Gemini.
//!
//! Mapping: headings 1-3 keep their level (4-6 become level 3); paragraphs become text lines;
//! list items `* ` lines; block quotes `> ` lines; code blocks and tables preformatted blocks
//! (table cells joined by ` | `); each link of a block becomes a `=> URL label` line right
//! after the block (gemtext links stand on their own line), images `=> URL label (image)`.
//! URLs are absolute already (the conversion made them so); other schemes pass through.
//! The markdown is read by pulldown-cmark with tables enabled; no HTML is interpreted.

use pulldown_cmark::{CodeBlockKind, Event, HeadingLevel, Options, Parser, Tag, TagEnd};

#[derive(Default)]
struct Writer {
    out: String,
    /// The text of the block being built.
    line: String,
    /// Links met in the current block: (url, label, image).
    links: Vec<(String, String, bool)>,
    /// Prefix of the current block ("# ", "* ", "> ", "").
    prefix: String,
    quote_depth: usize,
    in_code: bool,
    /// Inside a link: its URL and where its label starts in `line`.
    link: Option<(String, usize, bool)>,
    table_row: Vec<String>,
    in_cell: bool,
}

impl Writer {
    fn text(&mut self, t: &str) {
        if self.in_code {
            self.out.push_str(t);
            return;
        }
        if self.in_cell {
            if let Some(cell) = self.table_row.last_mut() {
                cell.push_str(t);
            }
            return;
        }
        self.line.push_str(t);
    }

    /// End the current block: write its line (if any) and its links.
    fn flush(&mut self) {
        let text = self.line.split_whitespace().collect::<Vec<_>>().join(" ");
        if !text.is_empty() {
            let quote = if self.quote_depth > 0 && self.prefix.is_empty() {
                "> "
            } else {
                ""
            };
            self.out.push_str(quote);
            self.out.push_str(&self.prefix);
            self.out.push_str(&text);
            self.out.push('\n');
        }
        for (url, label, image) in self.links.drain(..) {
            let label = label.split_whitespace().collect::<Vec<_>>().join(" ");
            let label = match (label.is_empty(), image) {
                (true, true) => "(image)".to_string(),
                (true, false) => String::new(),
                (false, true) => format!("{label} (image)"),
                (false, false) => label,
            };
            if label.is_empty() {
                self.out.push_str(&format!("=> {url}\n"));
            } else {
                self.out.push_str(&format!("=> {url} {label}\n"));
            }
        }
        self.line.clear();
        self.prefix.clear();
    }

    fn blank(&mut self) {
        if !self.out.is_empty() && !self.out.ends_with("\n\n") {
            self.out.push('\n');
        }
    }
}

fn heading_prefix(level: HeadingLevel) -> &'static str {
    match level {
        HeadingLevel::H1 => "# ",
        HeadingLevel::H2 => "## ",
        _ => "### ",
    }
}

/// Rewrite markdown as gemtext (see the module docs).
pub fn markdown_to_gemtext(markdown: &str) -> String {
    let mut w = Writer::default();
    for event in Parser::new_ext(markdown, Options::ENABLE_TABLES) {
        match event {
            Event::Start(tag) => start(&mut w, tag),
            Event::End(end) => finish(&mut w, end),
            Event::Text(t) | Event::Code(t) => w.text(&t),
            Event::SoftBreak => w.text(" "),
            Event::HardBreak => {
                if w.in_code {
                    w.out.push('\n');
                } else {
                    w.flush();
                }
            }
            Event::Rule => {
                w.flush();
                w.out.push_str("───\n");
            }
            Event::Html(_) | Event::InlineHtml(_) => {}
            Event::InlineMath(t) | Event::DisplayMath(t) | Event::FootnoteReference(t) => {
                w.text(&t)
            }
            Event::TaskListMarker(done) => w.text(if done { "[x] " } else { "[ ] " }),
        }
    }
    w.flush();
    let trimmed = w.out.trim_end_matches('\n');
    let mut out = trimmed.to_string();
    if !out.is_empty() {
        out.push('\n');
    }
    out
}

fn start(w: &mut Writer, tag: Tag) {
    match tag {
        Tag::Heading { level, .. } => {
            w.flush();
            w.blank();
            w.prefix = heading_prefix(level).to_string();
        }
        Tag::Paragraph if w.prefix.is_empty() => w.flush(),
        Tag::Item => {
            w.flush();
            w.prefix = "* ".to_string();
        }
        Tag::BlockQuote(_) => {
            w.flush();
            w.quote_depth += 1;
        }
        Tag::CodeBlock(kind) => {
            w.flush();
            let lang = match kind {
                CodeBlockKind::Fenced(l) => l.to_string(),
                CodeBlockKind::Indented => String::new(),
            };
            w.out.push_str(&format!("```{lang}\n"));
            w.in_code = true;
        }
        Tag::Table(_) => {
            w.flush();
            w.out.push_str("```table\n");
        }
        Tag::TableHead | Tag::TableRow => w.table_row.clear(),
        Tag::TableCell => {
            w.table_row.push(String::new());
            w.in_cell = true;
        }
        Tag::Link { dest_url, .. } => {
            w.link = Some((dest_url.to_string(), w.line.len(), false));
        }
        Tag::Image { dest_url, .. } => {
            w.link = Some((dest_url.to_string(), w.line.len(), true));
        }
        _ => {}
    }
}

fn finish(w: &mut Writer, end: TagEnd) {
    match end {
        TagEnd::Heading(_) => {
            w.flush();
            w.blank();
        }
        TagEnd::Paragraph if w.prefix != "* " => {
            w.flush();
            w.blank();
        }
        TagEnd::Item => w.flush(),
        TagEnd::List(_) => w.blank(),
        TagEnd::BlockQuote(_) => {
            w.flush();
            w.quote_depth = w.quote_depth.saturating_sub(1);
            w.blank();
        }
        TagEnd::CodeBlock => {
            if !w.out.ends_with('\n') {
                w.out.push('\n');
            }
            w.out.push_str("```\n");
            w.in_code = false;
            w.blank();
        }
        TagEnd::TableHead | TagEnd::TableRow => {
            let row: Vec<String> = w
                .table_row
                .drain(..)
                .map(|c| c.split_whitespace().collect::<Vec<_>>().join(" "))
                .collect();
            w.out.push_str(row.join(" | ").trim_end());
            w.out.push('\n');
        }
        TagEnd::TableCell => w.in_cell = false,
        TagEnd::Table => {
            w.out.push_str("```\n");
            w.blank();
        }
        TagEnd::Link | TagEnd::Image => {
            if let Some((url, at, image)) = w.link.take() {
                let label = w.line.get(at..).unwrap_or_default().to_string();
                if image {
                    // The alt text stays in the line only through the link line.
                    w.line.truncate(at);
                }
                w.links.push((url, label, image));
            }
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blocks_and_links() {
        let md = "# Title\n\nSome [link](https://a.example/x) text.\n\n#### Deep\n\n\
                  * one\n* two [b](gemini://b.example/)\n\n> quoted\n\n```rust\nfn x() {}\n```\n\n\
                  ![A bay](https://a.example/bay.jpg)\n\n| a | b |\n|---|---|\n| 1 | 2 |\n";
        let g = markdown_to_gemtext(md);
        let lines: Vec<&str> = g.lines().collect();
        let want = [
            "# Title",
            "",
            "Some link text.",
            "=> https://a.example/x link",
            "",
            "### Deep",
            "",
            "* one",
            "* two b",
            "=> gemini://b.example/ b",
            "",
            "> quoted",
            "",
            "```rust",
            "fn x() {}",
            "```",
            "",
            "=> https://a.example/bay.jpg A bay (image)",
            "",
            "```table",
            "a | b",
            "1 | 2",
            "```",
        ];
        assert_eq!(lines, want, "{g}");
    }
}
