//! Comparing two traces: where they part, the site of the branch (`addr2line`, sorted by
//! [`findings::expected_at`]), and with `--resync` the walk on past a known parting to the
//! point where the two traces run the same code again.

use std::collections::{BTreeMap, HashMap};
use std::process::Command;

use super::tracer;
use crate::findings::{self, Expected, Frame};

/// The load address of this executable (0 if it is not position-independent), to turn a
/// run-time address into the one `addr2line` reads.
pub fn load_bias(exe: &std::path::Path) -> Result<u64, String> {
    let elf = std::fs::read(exe).map_err(|e| format!("{}: {e}", exe.display()))?;
    // e_type at offset 16: 3 is ET_DYN (position-independent), 2 ET_EXEC.
    if elf.get(16..18) != Some(&[3, 0]) {
        return Ok(0);
    }
    let maps = std::fs::read_to_string("/proc/self/maps").map_err(|e| e.to_string())?;
    let exe = exe.to_string_lossy();
    maps.lines()
        .find(|l| l.ends_with(&*exe) && l.split_whitespace().nth(2) == Some("00000000"))
        .and_then(|l| l.split('-').next())
        .and_then(|a| u64::from_str_radix(a, 16).ok())
        .ok_or_else(|| "the executable's mapping is not in /proc/self/maps".into())
}

/// The source frames of the instructions at `addrs` (a branch and its callers' call sites),
/// innermost first (`addr2line -a -f -i -C`, [`parse_addr2line`]). The running image is read
/// through /proc, so that a rebuild of the file on disk does not matter.
fn frames_at(addrs: &[u64]) -> Result<Vec<Frame>, String> {
    let out = Command::new("addr2line")
        .arg("-e")
        .arg(format!("/proc/{}/exe", std::process::id()))
        .args(["-a", "-f", "-i", "-C"])
        .args(addrs.iter().map(|a| format!("{a:#x}")))
        .output()
        .map_err(|e| format!("addr2line (binutils): {e}"))?;
    let text = String::from_utf8_lossy(&out.stdout);
    // Each address's block starts with the address itself (-a).
    let mut frames = Vec::new();
    let mut block = String::new();
    for line in text.lines().chain(core::iter::once("0x")) {
        if line.starts_with("0x") {
            frames.extend(parse_addr2line(&block));
            block.clear();
        } else {
            block.push_str(line);
            block.push('\n');
        }
    }
    if frames.is_empty() {
        return Err(format!("addr2line found nothing at {:#x}", addrs[0]));
    }
    Ok(frames)
}

/// The branch `t[at]` and the call sites of the functions it runs in, innermost first (at most
/// `levels`): going back from `at`, the last `call` into a deeper frame (an instruction
/// followed by one a word deeper that is not the next instruction: a function's prologue
/// pushes are followed by the next one).
fn call_chain(t: &[u64], at: usize, levels: usize) -> Vec<u64> {
    let addr = |w: u64| w & tracer::ADDRESS;
    let is_call = |p: usize| {
        depth(t[p + 1]) == depth(t[p]) + 1
            && !(1..=15).contains(&addr(t[p + 1]).wrapping_sub(addr(t[p])))
    };
    let mut chain = vec![t[at]];
    let mut k = at;
    while chain.len() < levels {
        let d = depth(t[k]);
        match (0..k).rev().find(|&p| depth(t[p]) < d && is_call(p)) {
            Some(p) => {
                chain.push(t[p]);
                k = p;
            }
            None => break,
        }
    }
    chain
}

/// The frames of `addr2line -f -i` output (a function line, then a FILE:LINE line, per frame),
/// with files as memcheck prints them under `--fullpath-after=crates/`.
pub fn parse_addr2line(text: &str) -> Vec<Frame> {
    let lines: Vec<&str> = text.lines().collect();
    lines
        .chunks_exact(2)
        .map(|fl| {
            let loc = fl[1].split(" (discriminator").next().unwrap_or(fl[1]);
            let (file, line) = loc.rsplit_once(':').unwrap_or((loc, "0"));
            let file = file.split_once("crates/").map_or(file, |(_, f)| f);
            Frame {
                function: fl[0].to_string(),
                file: (file != "??").then(|| file.to_string()),
                line: line.parse().unwrap_or(0),
            }
        })
        .collect()
}

/// A known parting: its entry and its site (FILE:LINE), with how many times it was seen.
pub struct Known {
    pub entry: &'static Expected,
    pub site: String,
    pub count: usize,
}

/// How a pair's walk ended.
pub enum End {
    /// Both traces ran to their end, equal (after any known partings).
    Whole,
    /// The limit cut the traces.
    Limit,
    /// At the first known parting (without `--resync`).
    FirstParting,
    /// After a known parting one trace ended before the function that holds the branch
    /// returned (an attempt accepted by one secret and rejected by the other).
    NoResync,
}

/// The outcome of one pair.
pub enum Outcome {
    /// Equal instructions compared, the known partings by site, and how the walk ended.
    Clean(usize, Vec<Known>, End),
    /// A parting at a site no entry covers, after this many equal instructions.
    New(usize, Vec<Frame>),
}

/// The entry and site of a parting after a branch, by the branch and its call sites
/// ([`call_chain`]).
type Sites = HashMap<Vec<u64>, Result<(&'static Expected, String), Vec<Frame>>>;

/// Walks the traces `ta` and `tb`: equal instructions, then at each parting the site of the
/// branch; a site no entry covers ends the walk as [`Outcome::New`]. With `resync_on`, a known
/// parting is followed by [`resync`] (to the return of the function that holds the branch) and
/// the walk goes on.
pub fn walk(
    ta: &[u64],
    tb: &[u64],
    limited: bool,
    bias: u64,
    resync_on: bool,
) -> Result<Outcome, String> {
    let (mut i, mut j, mut equal) = (0, 0, 0);
    let mut sites: Sites = HashMap::new();
    let mut known: BTreeMap<(usize, String), Known> = BTreeMap::new();
    let finish = |known: BTreeMap<(usize, String), Known>, equal, end| {
        Ok(Outcome::Clean(equal, known.into_values().collect(), end))
    };
    loop {
        let same = ta[i..]
            .iter()
            .zip(&tb[j..])
            .take_while(|(x, y)| x == y)
            .count();
        (i, j, equal) = (i + same, j + same, equal + same);
        match (i == ta.len(), j == tb.len()) {
            (true, true) if !limited => return finish(known, equal, End::Whole),
            (true, _) | (_, true) if limited => return finish(known, equal, End::Limit),
            (true, _) | (_, true) => {
                return Err("one operation exits while the other runs on".into());
            }
            _ => {}
        }
        if i == 0 {
            return Err("the traces differ at their first instruction".into());
        }
        let chain: Vec<u64> = call_chain(ta, i - 1, LEVELS)
            .iter()
            .map(|w| (w & tracer::ADDRESS) - bias)
            .collect();
        let site = match sites.entry(chain) {
            std::collections::hash_map::Entry::Occupied(o) => o.into_mut(),
            std::collections::hash_map::Entry::Vacant(v) => {
                let frames = frames_at(v.key())?;
                v.insert(match findings::expected_at(&frames) {
                    Some(x) => Ok((x, site_name(&frames))),
                    None => Err(frames),
                })
            }
        };
        let (entry, site) = match site {
            Ok(x) => x.clone(),
            Err(frames) => return Ok(Outcome::New(equal, frames.clone())),
        };
        let order = expected_index(entry);
        known
            .entry((order, site.clone()))
            .or_insert(Known {
                entry,
                site,
                count: 0,
            })
            .count += 1;
        if !resync_on {
            return finish(known, equal, End::FirstParting);
        }
        match resync(ta, i, tb, j) {
            Some((ni, nj)) => (i, j) = (ni, nj),
            None => return finish(known, equal, End::NoResync),
        }
    }
}

/// The position of `entry` in [`findings::EXPECTED`] (to list partings in its order).
fn expected_index(entry: &Expected) -> usize {
    findings::EXPECTED
        .iter()
        .position(|x| core::ptr::eq(x, entry))
        .unwrap_or(usize::MAX)
}

/// FILE:LINE of the site of a stack.
fn site_name(frames: &[Frame]) -> String {
    findings::site_of(frames)
        .map(|f| format!("{}:{}", f.file.as_deref().unwrap_or("?"), f.line))
        .unwrap_or_default()
}

/// The most call sites looked up for a parting's stack.
const LEVELS: usize = 24;

/// The stack depth of a recorded word ([`tracer::ADDRESS`]).
fn depth(word: u64) -> u64 {
    word >> 47
}

/// After the traces parted at `ta[i]` / `tb[j]` (after the branch `ta[i - 1]`, at the same
/// place and depth of calls in both): the first instruction of each after the function that
/// holds the branch has returned (the first shallower than the branch), where both are back in
/// the same caller, or None where one trace ends first. The code of the two paths between is
/// not compared: it is the public branch's own.
fn resync(ta: &[u64], i: usize, tb: &[u64], j: usize) -> Option<(usize, usize)> {
    let d = depth(ta[i - 1]);
    let back = |t: &[u64], from: usize| t[from..].iter().position(|&w| depth(w) < d);
    Some((i + back(ta, i)?, j + back(tb, j)?))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn resync_goes_to_the_return_of_the_function() {
        let at = |addr: u64, depth: u64| addr | depth << 47;
        // Shared code at depth 1, a branch at depth 2 after which A runs 3 more instructions and
        // B 1 (both at depth 2 or deeper), then both return to depth 1.
        let mut a = vec![at(1, 1), at(2, 2), at(3, 2)];
        let mut b = a.clone();
        a.extend([at(10, 2), at(11, 3), at(12, 2)]);
        b.extend([at(20, 2)]);
        a.extend([at(4, 1), at(5, 1)]);
        b.extend([at(4, 1), at(5, 1)]);
        assert_eq!(resync(&a, 3, &b, 3), Some((6, 4)));
        // A trace that never returns: nothing.
        assert_eq!(resync(&a[..6], 3, &b, 3), None);
    }
}
