//! A deterministic article page of about `bytes` bytes for the web benchmarks: a head with
//! styles and scripts, a navigation bar, an article of paragraphs with inline links and
//! emphasis, lists, a table and code, asides, and a footer, the way news pages look.

pub(crate) fn article(bytes: usize) -> String {
    let mut out = String::with_capacity(bytes + 4096);
    out.push_str(
        "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>The long \
         article | Bench Times</title><meta name=\"description\" content=\"A long page.\">\
         <style>body{font-family:serif}.nav a{margin:1em}</style>\
         <script>window.dataLayer=[];function track(){}</script></head><body>\
         <header class=\"nav\"><nav>",
    );
    for i in 0..60 {
        out.push_str(&format!("<a href=\"/section/{i}\">Section {i}</a> "));
    }
    out.push_str("</nav></header><main><article><h1>The long article</h1>");
    let mut i = 0usize;
    while out.len() < bytes {
        match i % 12 {
            0 => out.push_str(&format!("<h2>Part {i}</h2>")),
            5 => {
                out.push_str("<ul>");
                for j in 0..5 {
                    out.push_str(&format!(
                        "<li>Point {j} of part {i}, with <em>stress</em></li>"
                    ));
                }
                out.push_str("</ul>");
            }
            8 => out.push_str(&format!(
                "<table><tr><th>Year</th><th>Value</th></tr><tr><td>{i}</td><td>{}</td></tr>\
                 </table>",
                i * 7
            )),
            10 => out.push_str(&format!(
                "<pre><code>fn part_{i}() -> u32 {{ {i} }}</code></pre>\
                 <aside class=\"ad\"><a href=\"/ads/{i}\">Buy now</a></aside>"
            )),
            _ => out.push_str(&format!(
                "<p>Paragraph {i} of the article goes on about the harbour, the tides and the \
                 people who live by them, with a <a href=\"/notes/{i}\">link to notes</a> and \
                 some <strong>strong words</strong> for good measure, until the line is long \
                 enough to look like real prose written by a patient reporter.</p>"
            )),
        }
        i += 1;
    }
    out.push_str(
        "</article></main><footer><p>Copyright Bench Times. All rights reserved.</p>\
         <script src=\"/app.js\"></script></footer></body></html>",
    );
    out
}
