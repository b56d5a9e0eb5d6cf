//! Politeness and safety policy: robots.txt per host, per-host pacing, redirect rules.
