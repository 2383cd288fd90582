//! The section "Published vs measured": the studies' claims beside this run
//! ([`crate::papers::Published`]), as terminal text and as HTML (anchor `#published`).

use std::fmt::Write as _;

use crate::papers::{Published, Verdict};

/// Escapes text for HTML.
fn esc(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// The one-line count of verdicts.
fn tally_line(p: &Published) -> String {
    let t = p.tally;
    format!(
        "{} claims of {} studies: {} confirmed, {} contradicted, {} not measurable here; {} size \
         cells compared exactly ({} equal, {} round-3 sizes that FIPS 204 changed, {} different)",
        p.claims.len(),
        p.papers.len(),
        t.confirms,
        t.contradicts,
        t.not_measurable,
        p.sizes.len(),
        count_sizes(p, Verdict::Confirms),
        count_sizes(p, Verdict::ConfirmsRound3),
        count_sizes(p, Verdict::Contradicts),
    )
}

fn count_sizes(p: &Published, v: Verdict) -> usize {
    p.sizes.iter().filter(|s| s.verdict == v).count()
}

/// The section as terminal text: the count, then the measurable claims (one line each), then
/// the size cells that differ; the not-measurable claims as a count per reason.
pub fn text(p: &Published) -> String {
    let mut s = String::from("\nPublished vs measured\n");
    for line in &p.problems {
        let _ = writeln!(s, "  {line}");
    }
    if p.papers.is_empty() {
        return s;
    }
    let _ = writeln!(s, "  {}", tally_line(p));
    for c in p
        .claims
        .iter()
        .filter(|c| c.verdict != Verdict::NotMeasurable)
    {
        let _ = writeln!(
            s,
            "  {:<12} {:<4} {:<19} published {}; measured {}",
            short(&c.paper),
            c.claim,
            c.verdict.words(),
            c.published,
            c.measured.as_deref().unwrap_or("-")
        );
    }
    for z in p.sizes.iter().filter(|z| z.verdict != Verdict::Confirms) {
        let _ = writeln!(
            s,
            "  {:<12} {:<8} {} {}: {} B published, {} B here ({}): {}",
            short(&z.paper),
            z.table,
            z.alg,
            z.field,
            z.published,
            z.measured,
            z.verdict.words(),
            z.note
        );
    }
    s
}

/// The section in brief for the terminal's one screen: the count of verdicts (or why there
/// is none) and where the details are.
pub fn brief(p: &Published) -> String {
    let mut s = String::new();
    for line in &p.problems {
        let _ = writeln!(s, "published vs measured: {line}");
    }
    if !p.papers.is_empty() {
        let _ = writeln!(
            s,
            "published vs measured: {} (each claim: --verbose, or the HTML report's section)",
            tally_line(p)
        );
    }
    s
}

/// The study's file stem shortened for the terminal (`m4-dilithium-falcon` -> `m4`).
fn short(stem: &str) -> &str {
    stem.split('-').next().unwrap_or(stem)
}

/// The section as HTML: `<section id="published">` with the claims' table and the size table.
pub fn html(p: &Published) -> String {
    let mut h = String::from(
        "<section id=\"published\"><h2>Published vs measured</h2>\
         <p class=\"note\">Each quantitative claim of the studies this lab reproduces \
         (<code>../shared/papers/</code>) beside the same quantity measured in this run: as a \
         ratio on one machine where the platforms differ, exact for sizes. Tolerances are in \
         each row.</p>",
    );
    for line in &p.problems {
        let _ = write!(h, "<p>{}</p>", esc(line));
    }
    if p.papers.is_empty() {
        h.push_str("</section>");
        return h;
    }
    let _ = write!(h, "<p>{}.</p><ul>", esc(&tally_line(p)));
    for (stem, title) in &p.papers {
        let _ = write!(h, "<li><code>{}</code>: {}</li>", esc(stem), esc(title));
    }
    h.push_str(
        "</ul><table id=\"published-claims\"><tr><th>study</th><th>claim</th><th>text</th>\
         <th>published</th><th>measured here</th><th>verdict</th><th>tolerance or reason</th></tr>",
    );
    for c in &p.claims {
        let _ = write!(
            h,
            "<tr id=\"claim-{}-{}\"><td>{}</td><td>{}</td><td style=\"text-align:left\">{}</td>\
             <td style=\"text-align:left\">{}</td><td style=\"text-align:left\">{}</td>\
             <td class=\"verdict-{:?}\">{}</td><td style=\"text-align:left\">{}</td></tr>",
            esc(&c.paper),
            esc(&c.claim),
            esc(short(&c.paper)),
            esc(&c.claim),
            esc(&c.text),
            esc(&c.published),
            esc(c.measured.as_deref().unwrap_or("-")),
            c.verdict,
            esc(c.verdict.words()),
            esc(&c.reason)
        );
    }
    h.push_str(
        "</table><h3>Size tables, compared exactly</h3><table id=\"published-sizes\"><tr>\
         <th>study</th><th>table</th><th>algorithm</th><th>field</th><th>published (B)</th>\
         <th>this build (B)</th><th>verdict</th><th>note</th></tr>",
    );
    for z in &p.sizes {
        let _ = write!(
            h,
            "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td>\
             <td style=\"text-align:left\">{}</td></tr>",
            esc(short(&z.paper)),
            esc(&z.table),
            esc(&z.alg),
            esc(&z.field),
            z.published,
            z.measured,
            esc(z.verdict.words()),
            esc(&z.note)
        );
    }
    h.push_str("</table></section>");
    h
}
