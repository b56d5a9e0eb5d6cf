//! A page's content stream read for its text: a streaming tokenizer (PDF 32000-1 §7.2, §7.8)
//! and a walker over the text operators (§9.4) that turns glyph runs and text positions into
//! lines and words.
//!
//! Invariants: the stream is read once, front to back, and only the operands of the operator
//! being read are held, at most [`MAX_OPERANDS`] of them and [`MAX_ARRAY`] elements of one
//! array (what is past those is skipped, not stored), so a hostile stream cannot make memory
//! grow with its length. Form XObjects are entered at most [`MAX_FORM_DEPTH`] deep. The walker
//! asks `keep_going` every [`CHECK_EVERY`] operators and stops when it says no. Nothing here
//! panics on any input.
//!
//! Layout is inferred from positions, not glyph widths: a text position on another baseline
//! starts a new line (a blank line when the jump is much larger than the last line gap), a
//! move along the same baseline or a wide gap in a `TJ` array is a space.

/// Operands kept for one operator (the text operators need at most six).
pub(super) const MAX_OPERANDS: usize = 16;
/// Elements kept of one array operand (a `TJ` line of kerned glyph runs).
pub(super) const MAX_ARRAY: usize = 8192;
/// Form XObjects nested in one another that are entered.
pub(super) const MAX_FORM_DEPTH: usize = 4;
/// Operators read between two `keep_going` checks.
pub(super) const CHECK_EVERY: usize = 4096;
/// A `TJ` adjustment below this (thousandths of a text unit, negative moves right) is a space.
const TJ_SPACE: f32 = -150.0;

/// One operand, as far as text extraction cares.
#[derive(Clone, Debug, PartialEq)]
pub(super) enum Operand {
    Number(f32),
    Str(Vec<u8>),
    Name(Vec<u8>),
    /// Strings and numbers of an array, in order (other elements dropped).
    Array(Vec<Operand>),
    /// A dictionary, boolean, null or anything else the walker ignores.
    Other,
}

/// What a named XObject is, for the walker.
pub(super) enum XObject<'r> {
    /// A form: its decoded content and the resources its text is read with.
    Form(Vec<u8>, Box<dyn Resources + 'r>),
    Image,
    Unknown,
}

/// The fonts and XObjects a content stream refers to by name.
pub(super) trait Resources {
    /// Append the text of `bytes` shown in font `font` (a name from `Tf`); false when the
    /// font is unknown.
    fn decode(&self, font: &[u8], bytes: &[u8], out: &mut String) -> bool;
    /// The XObject `name` (from `Do`).
    fn xobject(&self, name: &[u8]) -> XObject<'_>;
}

/// The text of one page, being built.
#[derive(Debug, Default)]
pub(super) struct PageText {
    pub(crate) text: String,
    /// An image was drawn (inline or as an XObject).
    pub(crate) saw_image: bool,
    /// `keep_going` said no: the text stops early.
    pub(crate) stopped: bool,
    font: Option<Vec<u8>>,
    /// Baseline of the last text shown.
    last_y: Option<f32>,
    /// Distance between the last two baselines.
    last_gap: f32,
    /// Current text line start (§9.4.2 Tlm), relative moves apply to it.
    line: (f32, f32),
    /// What must come before the next glyphs: nothing, a space, a newline or a blank line.
    pending: Break,
    ops: usize,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord)]
enum Break {
    #[default]
    None,
    Space,
    Line,
    Paragraph,
}

impl PageText {
    /// Read `content` with `res`, appending to this page's text.
    pub(super) fn read(
        &mut self,
        content: &[u8],
        res: &dyn Resources,
        keep_going: &dyn Fn() -> bool,
    ) {
        self.read_at(content, res, keep_going, 0);
    }

    fn read_at(
        &mut self,
        content: &[u8],
        res: &dyn Resources,
        keep_going: &dyn Fn() -> bool,
        depth: usize,
    ) {
        let mut lex = Lexer { s: content, i: 0 };
        let mut operands: Vec<Operand> = Vec::new();
        while let Some(tok) = lex.next_token() {
            match tok {
                Token::Operand(o) => {
                    if operands.len() < MAX_OPERANDS {
                        operands.push(o);
                    }
                }
                Token::Operator(op) => {
                    self.ops += 1;
                    if self.ops.is_multiple_of(CHECK_EVERY) && !keep_going() {
                        self.stopped = true;
                        return;
                    }
                    if op == b"BI" {
                        self.saw_image = true;
                        lex.skip_inline_image();
                    } else if op == b"Do" {
                        self.draw(&operands, res, keep_going, depth);
                    } else {
                        self.operator(op, &operands, res);
                    }
                    if self.stopped {
                        return;
                    }
                    operands.clear();
                }
            }
        }
    }

    fn draw(
        &mut self,
        operands: &[Operand],
        res: &dyn Resources,
        keep_going: &dyn Fn() -> bool,
        depth: usize,
    ) {
        let Some(Operand::Name(name)) = operands.last() else {
            return;
        };
        match res.xobject(name) {
            XObject::Form(content, inner) if depth < MAX_FORM_DEPTH => {
                let font = self.font.take();
                self.read_at(&content, inner.as_ref(), keep_going, depth + 1);
                self.font = font;
            }
            XObject::Image => self.saw_image = true,
            _ => {}
        }
    }

    fn operator(&mut self, op: &[u8], operands: &[Operand], res: &dyn Resources) {
        let num = |i: usize| match operands.get(i) {
            Some(Operand::Number(n)) => *n,
            _ => 0.0,
        };
        match op {
            b"BT" => self.line = (0.0, 0.0),
            b"Tf" => {
                self.font = operands.iter().find_map(|o| match o {
                    Operand::Name(n) => Some(n.clone()),
                    _ => None,
                });
            }
            b"Td" | b"TD" => {
                let (x, y) = self.line;
                self.move_to(x + num(0), y + num(1));
            }
            b"Tm" => self.move_to(num(4), num(5)),
            b"T*" => self.new_line(),
            b"Tj" => self.show(operands.first(), res),
            b"'" => {
                self.new_line();
                self.show(operands.first(), res);
            }
            b"\"" => {
                self.new_line();
                self.show(operands.get(2), res);
            }
            b"TJ" => {
                if let Some(Operand::Array(items)) = operands.first() {
                    for item in items {
                        match item {
                            Operand::Number(n) if *n < TJ_SPACE => self.want(Break::Space),
                            Operand::Str(_) => self.show(Some(item), res),
                            _ => {}
                        }
                    }
                }
            }
            _ => {}
        }
    }

    /// A new text line start at (x, y): on the last baseline a space, elsewhere a new line.
    fn move_to(&mut self, x: f32, y: f32) {
        self.line = (x, y);
        let Some(last) = self.last_y else {
            return;
        };
        let gap = (y - last).abs();
        if gap < 0.5 {
            self.want(Break::Space);
        } else if self.last_gap > 0.0 && gap > self.last_gap * 1.7 {
            self.want(Break::Paragraph);
        } else {
            self.want(Break::Line);
        }
    }

    /// `T*` and friends: the next line, one leading down (its size is not tracked).
    fn new_line(&mut self) {
        self.want(Break::Line);
    }

    fn want(&mut self, b: Break) {
        self.pending = self.pending.max(b);
    }

    fn show(&mut self, s: Option<&Operand>, res: &dyn Resources) {
        let Some(Operand::Str(bytes)) = s else {
            return;
        };
        let Some(font) = self.font.as_deref() else {
            return;
        };
        let mut glyphs = String::new();
        if !res.decode(font, bytes, &mut glyphs) {
            return;
        }
        let glyphs: String = glyphs
            .chars()
            .filter(|c| !c.is_control() || *c == '\n' || *c == '\t')
            .map(|c| if c == '\t' { ' ' } else { c })
            .collect();
        if glyphs.is_empty() {
            return;
        }
        self.flush_break();
        self.text.push_str(&glyphs);
        let y = self.line.1;
        if let Some(last) = self.last_y
            && (y - last).abs() >= 0.5
        {
            self.last_gap = (y - last).abs();
        }
        self.last_y = Some(y);
    }

    fn flush_break(&mut self) {
        let pending = std::mem::take(&mut self.pending);
        if self.text.is_empty() {
            return;
        }
        let ends_space = self.text.ends_with([' ', '\n']);
        match pending {
            Break::None => {}
            Break::Space if !ends_space => self.text.push(' '),
            Break::Space => {}
            Break::Line | Break::Paragraph => {
                while self.text.ends_with(' ') {
                    self.text.pop();
                }
                if !self.text.ends_with('\n') {
                    self.text.push('\n');
                }
                if pending == Break::Paragraph && !self.text.ends_with("\n\n") {
                    self.text.push('\n');
                }
            }
        }
    }
}

enum Token<'a> {
    Operand(Operand),
    Operator(&'a [u8]),
}

/// The content stream tokenizer.
struct Lexer<'a> {
    s: &'a [u8],
    i: usize,
}

fn is_space(b: u8) -> bool {
    matches!(b, b'\0' | b'\t' | b'\n' | b'\x0C' | b'\r' | b' ')
}

fn is_delim(b: u8) -> bool {
    matches!(
        b,
        b'(' | b')' | b'<' | b'>' | b'[' | b']' | b'{' | b'}' | b'/' | b'%'
    )
}

impl<'a> Lexer<'a> {
    fn peek(&self) -> Option<u8> {
        self.s.get(self.i).copied()
    }

    fn skip_space(&mut self) {
        while let Some(b) = self.peek() {
            if is_space(b) {
                self.i += 1;
            } else if b == b'%' {
                while let Some(c) = self.peek() {
                    if c == b'\n' || c == b'\r' {
                        break;
                    }
                    self.i += 1;
                }
            } else {
                break;
            }
        }
    }

    fn regular(&mut self) -> &'a [u8] {
        let start = self.i;
        while let Some(b) = self.peek() {
            if is_space(b) || is_delim(b) {
                break;
            }
            self.i += 1;
        }
        &self.s[start..self.i]
    }

    fn next_token(&mut self) -> Option<Token<'a>> {
        loop {
            self.skip_space();
            let b = self.peek()?;
            let tok = match b {
                b'(' => Token::Operand(Operand::Str(self.literal())),
                b'<' if self.s.get(self.i + 1) == Some(&b'<') => {
                    self.skip_dict();
                    Token::Operand(Operand::Other)
                }
                b'<' => Token::Operand(Operand::Str(self.hex())),
                b'[' => {
                    self.i += 1;
                    Token::Operand(Operand::Array(self.array()))
                }
                b'/' => {
                    self.i += 1;
                    Token::Operand(Operand::Name(self.regular().to_vec()))
                }
                b')' | b'>' | b']' | b'{' | b'}' => {
                    // Stray closers and PostScript braces: skipped.
                    self.i += 1;
                    continue;
                }
                _ => {
                    let word = self.regular();
                    match number(word) {
                        Some(n) => Token::Operand(Operand::Number(n)),
                        None if matches!(word, b"true" | b"false" | b"null") => {
                            Token::Operand(Operand::Other)
                        }
                        None => Token::Operator(word),
                    }
                }
            };
            return Some(tok);
        }
    }

    /// `(...)` with balanced parentheses and escapes (§7.3.4.2); the opening `(` is next.
    fn literal(&mut self) -> Vec<u8> {
        self.i += 1;
        let mut out = Vec::new();
        let mut depth = 1usize;
        while let Some(b) = self.peek() {
            self.i += 1;
            match b {
                b'\\' => {
                    let Some(e) = self.peek() else { break };
                    self.i += 1;
                    match e {
                        b'n' => out.push(b'\n'),
                        b'r' => out.push(b'\r'),
                        b't' => out.push(b'\t'),
                        b'b' => out.push(8),
                        b'f' => out.push(12),
                        b'0'..=b'7' => {
                            let mut v = u32::from(e - b'0');
                            for _ in 0..2 {
                                match self.peek() {
                                    Some(d @ b'0'..=b'7') => {
                                        v = v * 8 + u32::from(d - b'0');
                                        self.i += 1;
                                    }
                                    _ => break,
                                }
                            }
                            out.push((v & 0xFF) as u8);
                        }
                        b'\r' => {
                            if self.peek() == Some(b'\n') {
                                self.i += 1;
                            }
                        }
                        b'\n' => {}
                        other => out.push(other),
                    }
                }
                b'(' => {
                    depth += 1;
                    out.push(b);
                }
                b')' => {
                    depth -= 1;
                    if depth == 0 {
                        break;
                    }
                    out.push(b);
                }
                _ => out.push(b),
            }
        }
        out
    }

    /// `<...>` hex digits, whitespace ignored, an odd last digit padded with 0 (§7.3.4.3).
    fn hex(&mut self) -> Vec<u8> {
        self.i += 1;
        let mut out = Vec::new();
        let mut high: Option<u8> = None;
        while let Some(b) = self.peek() {
            self.i += 1;
            if b == b'>' {
                break;
            }
            let Some(v) = (b as char).to_digit(16) else {
                continue;
            };
            let v = v as u8;
            match high.take() {
                Some(h) => out.push(h << 4 | v),
                None => high = Some(v),
            }
        }
        if let Some(h) = high {
            out.push(h << 4);
        }
        out
    }

    /// The elements of an array after its `[`: strings and numbers kept, up to [`MAX_ARRAY`].
    fn array(&mut self) -> Vec<Operand> {
        let mut out = Vec::new();
        let mut depth = 1usize;
        loop {
            self.skip_space();
            let Some(b) = self.peek() else { break };
            match b {
                b']' => {
                    self.i += 1;
                    depth -= 1;
                    if depth == 0 {
                        break;
                    }
                }
                b'[' => {
                    self.i += 1;
                    depth += 1;
                }
                b'(' => {
                    let s = self.literal();
                    if out.len() < MAX_ARRAY {
                        out.push(Operand::Str(s));
                    }
                }
                b'<' if self.s.get(self.i + 1) == Some(&b'<') => self.skip_dict(),
                b'<' => {
                    let s = self.hex();
                    if out.len() < MAX_ARRAY {
                        out.push(Operand::Str(s));
                    }
                }
                b'/' => {
                    self.i += 1;
                    self.regular();
                }
                _ if is_delim(b) => self.i += 1,
                _ => {
                    let word = self.regular();
                    if let Some(n) = number(word)
                        && out.len() < MAX_ARRAY
                    {
                        out.push(Operand::Number(n));
                    }
                }
            }
        }
        out
    }

    /// Skip a `<< ... >>` dictionary (nested ones and the strings in it included).
    fn skip_dict(&mut self) {
        self.i += 2;
        let mut depth = 1usize;
        while let Some(b) = self.peek() {
            match b {
                b'<' if self.s.get(self.i + 1) == Some(&b'<') => {
                    self.i += 2;
                    depth += 1;
                }
                b'>' if self.s.get(self.i + 1) == Some(&b'>') => {
                    self.i += 2;
                    depth -= 1;
                    if depth == 0 {
                        return;
                    }
                }
                b'(' => {
                    self.literal();
                }
                b'<' => {
                    self.hex();
                }
                _ => self.i += 1,
            }
        }
    }

    /// After `BI`: skip the image dictionary, `ID`, and the data up to a whitespace-delimited
    /// `EI` (§8.9.7).
    fn skip_inline_image(&mut self) {
        while let Some(tok) = self.next_token() {
            if let Token::Operator(b"ID") = tok {
                break;
            }
        }
        self.i += 1;
        while self.i < self.s.len() {
            let at = &self.s[self.i..];
            let ends_here = at.starts_with(b"EI")
                && self.i > 0
                && self.s.get(self.i - 1).copied().is_some_and(is_space)
                && at.get(2).is_none_or(|b| is_space(*b) || is_delim(*b));
            if ends_here {
                self.i += 2;
                return;
            }
            self.i += 1;
        }
    }
}

/// A PDF number (`12`, `-3.5`, `.5`, `+1.`), as f32.
fn number(word: &[u8]) -> Option<f32> {
    let first = *word.first()?;
    if !(first.is_ascii_digit() || matches!(first, b'+' | b'-' | b'.')) {
        return None;
    }
    if !word
        .iter()
        .all(|b| b.is_ascii_digit() || matches!(b, b'+' | b'-' | b'.'))
    {
        return None;
    }
    let text = std::str::from_utf8(word).ok()?;
    text.parse::<f32>()
        .ok()
        .or_else(|| text.trim_end_matches('.').parse::<f32>().ok())
        .filter(|n| n.is_finite())
}

#[cfg(test)]
mod tests;
