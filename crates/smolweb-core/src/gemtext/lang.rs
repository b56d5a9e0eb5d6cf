//! Guessing the language of a preformatted block from its alt text.
//!
//! The first word of the alt text, lowercased, is looked up in a list of common language names
//! and aliases; failing that, a file name's extension ("main.rs") is looked up. Unknown: None.

/// (name or alias, canonical language name).
const NAMES: &[(&str, &str)] = &[
    ("rust", "rust"),
    ("python", "python"),
    ("python3", "python"),
    ("sh", "sh"),
    ("shell", "sh"),
    ("bash", "bash"),
    ("zsh", "zsh"),
    ("fish", "fish"),
    ("c", "c"),
    ("cpp", "cpp"),
    ("c++", "cpp"),
    ("go", "go"),
    ("golang", "go"),
    ("js", "javascript"),
    ("javascript", "javascript"),
    ("ts", "typescript"),
    ("typescript", "typescript"),
    ("json", "json"),
    ("toml", "toml"),
    ("yaml", "yaml"),
    ("yml", "yaml"),
    ("html", "html"),
    ("xml", "xml"),
    ("css", "css"),
    ("sql", "sql"),
    ("diff", "diff"),
    ("patch", "diff"),
    ("lisp", "lisp"),
    ("scheme", "scheme"),
    ("clojure", "clojure"),
    ("elisp", "elisp"),
    ("haskell", "haskell"),
    ("ocaml", "ocaml"),
    ("ruby", "ruby"),
    ("perl", "perl"),
    ("lua", "lua"),
    ("zig", "zig"),
    ("nim", "nim"),
    ("java", "java"),
    ("kotlin", "kotlin"),
    ("swift", "swift"),
    ("csharp", "csharp"),
    ("c#", "csharp"),
    ("php", "php"),
    ("r", "r"),
    ("julia", "julia"),
    ("erlang", "erlang"),
    ("elixir", "elixir"),
    ("fortran", "fortran"),
    ("pascal", "pascal"),
    ("forth", "forth"),
    ("awk", "awk"),
    ("make", "make"),
    ("makefile", "make"),
    ("dockerfile", "dockerfile"),
    ("markdown", "markdown"),
    ("gemtext", "gemtext"),
    ("ini", "ini"),
    ("asm", "asm"),
    ("nix", "nix"),
    ("d", "d"),
];

/// (file extension, canonical language name).
const EXTENSIONS: &[(&str, &str)] = &[
    ("rs", "rust"),
    ("py", "python"),
    ("sh", "sh"),
    ("bash", "bash"),
    ("c", "c"),
    ("h", "c"),
    ("cc", "cpp"),
    ("cpp", "cpp"),
    ("hpp", "cpp"),
    ("go", "go"),
    ("js", "javascript"),
    ("mjs", "javascript"),
    ("ts", "typescript"),
    ("json", "json"),
    ("toml", "toml"),
    ("yaml", "yaml"),
    ("yml", "yaml"),
    ("html", "html"),
    ("htm", "html"),
    ("xml", "xml"),
    ("css", "css"),
    ("sql", "sql"),
    ("diff", "diff"),
    ("patch", "diff"),
    ("lisp", "lisp"),
    ("el", "elisp"),
    ("scm", "scheme"),
    ("clj", "clojure"),
    ("hs", "haskell"),
    ("ml", "ocaml"),
    ("rb", "ruby"),
    ("pl", "perl"),
    ("lua", "lua"),
    ("zig", "zig"),
    ("nim", "nim"),
    ("java", "java"),
    ("kt", "kotlin"),
    ("swift", "swift"),
    ("cs", "csharp"),
    ("php", "php"),
    ("jl", "julia"),
    ("erl", "erlang"),
    ("ex", "elixir"),
    ("exs", "elixir"),
    ("md", "markdown"),
    ("gmi", "gemtext"),
    ("ini", "ini"),
    ("nix", "nix"),
    ("s", "asm"),
];

fn lookup(table: &[(&str, &'static str)], key: &str) -> Option<&'static str> {
    table
        .iter()
        .find(|(k, _)| k.eq_ignore_ascii_case(key))
        .map(|(_, v)| *v)
}

/// The language named by `alt`'s first word, or by its file extension.
pub(super) fn guess(alt: &str) -> Option<&'static str> {
    let word = alt.split_ascii_whitespace().next()?;
    let word = word.trim_end_matches([',', ':', ';']);
    if let Some(lang) = lookup(NAMES, word) {
        return Some(lang);
    }
    let (stem, ext) = word.rsplit_once('.')?;
    if stem.is_empty() && word.len() > 1 {
        // ".bashrc"-style names carry no extension.
        return None;
    }
    lookup(EXTENSIONS, ext)
}
