//! robots.txt as each protocol reads it (Gemini 2x, Gopher, HTTP 200): the first input line
//! is a path to check, the rest the robots.txt body.
#![no_main]
use libfuzzer_sys::fuzz_target;
use smolweb_fuzz::{split_line, text};
use smolweb_net::policy::http_robots::{WEB_AGENTS, http_robots_answer};
use smolweb_net::policy::robots::{GEMINI_AGENTS, GOPHER_AGENTS};
use smolweb_net::policy::{
    RobotsAnswer, gemini_robots_answer, gopher_robots_answer, robots_match_path,
};

fuzz_target!(|data: &[u8]| {
    let (path, body) = split_line(data);
    let path = robots_match_path(&text(path));
    let answers = [
        (gemini_robots_answer(20, body), GEMINI_AGENTS),
        (gopher_robots_answer(body), GOPHER_AGENTS),
        (http_robots_answer(200, body), WEB_AGENTS),
    ];
    for (answer, agents) in answers {
        let RobotsAnswer::Rules(robots) = answer else {
            panic!("a 2x answer is rules")
        };
        let _ = robots.allowed(agents, &path);
        let _ = robots.allowed(agents, "/");
    }
});
