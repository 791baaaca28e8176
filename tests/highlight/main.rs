use std::collections::HashMap;
use std::fmt;

/// A word and how often it occurs.
#[derive(Debug, Clone)]
pub struct Count<'a> {
    word: &'a str,
    n: usize,
}

const MAX_WORDS: usize = 1_000;

impl<'a> fmt::Display for Count<'a> {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "{}: {}", self.word, self.n)
    }
}

fn main() {
    let text = "a b a";
    let mut counts: HashMap<&str, usize> = HashMap::new();
    for w in text.split_whitespace().take(MAX_WORDS) {
        *counts.entry(w).or_insert(0) += 1; // count it
    }
    match counts.get("a") {
        Some(&n) if n > 1 => println!("{}", Count { word: "a", n }),
        _ => {}
    }
}
