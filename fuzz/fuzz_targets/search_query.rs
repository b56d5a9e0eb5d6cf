//! The local search (`smolweb_search`): byte 0 chooses the input. Even: a query as the
//! browser's address bar, `smolweb search` and the agents' `search_local` take it, parsed
//! and run over a small index (the next byte chooses who asks and the window): refused only
//! for a reason that holds, bounded, its hits within what the asker may see, each snippet one
//! line whose highlights fall on characters. Odd: a search queue file's text as the writer
//! reads it. `search::fuzzing` checks and panics.
#![no_main]
use libfuzzer_sys::fuzz_target;
use smolweb_fuzz::split_byte;

fuzz_target!(|data: &[u8]| {
    let (which, rest) = split_byte(data);
    if which & 1 == 0 {
        smolweb_search::fuzzing::query(&smolweb_fuzz::search::INDEX, rest);
    } else {
        smolweb_search::fuzzing::queue_file(rest);
    }
});
