//! Tests of the M4 comparison's rows (the model, the does-not-fit reasons).

use super::rows::{common_variant, does_not_fit};
use super::*;

const F512: Image = Image {
    implementation: "pqlab",
    alg: "falcon-512",
    config: "",
};

#[test]
fn rows_carry_the_model_and_the_does_not_fit_reason() {
    let out = "m4-lab impl=pqlab alg=falcon-512 ops=keygen,sign,sign-expanded,verify\n\
               start op=sign-expanded available=126000\n\
               call op=sign-expanded i=0 instructions=1000 stack=500\n\
               call op=sign-expanded i=1 instructions=3000 stack=700\n\
               call op=sign-expanded i=2 instructions=2000 stack=600\n\
               start op=keygen available=126000\n\
               fault overflow=1 window=125900 psp=0x1ffffff0 cfsr=0x9200 bfar=0x1ffffff0\n";
    let run = parse::parse(out).unwrap();
    let fp = elf::Footprint {
        flash: 5000,
        ram: 40,
    };
    let base = elf::Footprint {
        flash: 1000,
        ram: 8,
    };
    let r = row(F512, &run.results[0], (fp, base), None).unwrap();
    assert_eq!(
        (r.op, r.variant.as_deref()),
        (Op::Sign, Some("expanded key"))
    );
    assert_eq!(r.instructions.unwrap().median_ns, 2000.0);
    assert_eq!(r.median_cycles, Some(2000.0 * model::CPI));
    let ms = 2000.0 * model::CPI / 168e6 * 1e3;
    assert!((r.median_ms.unwrap() - ms).abs() < 1e-12);
    assert_eq!(r.stack_bytes, Some(700));
    assert_eq!(
        r.footprint,
        elf::Footprint {
            flash: 4000,
            ram: 32
        }
    );
    let rr = result_row(&r, &run.results[0]).unwrap();
    assert!((rr.summary.median_ns - ms * 1e6).abs() < 1e-6);
    assert_eq!(rr.summary.median_cycles, Some(2000.0 * model::CPI));
    let k = row(F512, &run.results[1], (fp, base), None).unwrap();
    assert!(k.does_not_fit.as_deref().unwrap().contains("125900 bytes"));
    assert!(k.instructions.is_none() && result_row(&k, &run.results[1]).is_none());
    assert!(cross_check(&k).is_none());
    // The same keygen on QEMU's 192 KiB: it completes, and gives the row its numbers.
    let big = parse::parse(
        "m4-lab impl=pqlab alg=falcon-512 ops=keygen calls=2\n\
         start op=keygen available=190000\n\
         call op=keygen i=0 instructions=9000 stack=150000\n\
         call op=keygen i=1 instructions=7000 stack=150400\n\
         end op=keygen\ndone failures=0\n",
    )
    .unwrap();
    let b = &big.results[0];
    let k = row(F512, &run.results[1], (fp, base), Some(b)).unwrap();
    let why = k.does_not_fit.as_deref().unwrap();
    assert!(why.starts_with("does not fit (needs 150400 bytes of stack, has 125900"));
    assert_eq!(k.instructions.unwrap().median_ns, 8000.0);
    assert_eq!((k.calls, k.stack_bytes), (2, Some(150400)));
    let measured = measured_run(&run.results[1], Some(b));
    assert_eq!(result_row(&k, measured).unwrap().sample_ns.len(), 2);
    // An emulator run that overflows too: a lower bound.
    let mut over = b.clone();
    over.calls.clear();
    over.fault = run.results[1].fault.clone();
    let k = row(F512, &run.results[1], (fp, base), Some(&over)).unwrap();
    assert!(k.does_not_fit.unwrap().contains(
        "needs more than the 125900 bytes of stack it has left beside its inputs \
                 (which take 64100) in QEMU's 192 KiB too"
    ));
    assert!(k.instructions.is_none());
    // A call whose inputs took most of the stack before it (an expanded key).
    let f = parse::Fault {
        overflow: true,
        window: 26_000,
        line: String::new(),
    };
    let why = does_not_fit(&run.results[1], &f, None);
    assert!(why.contains(
        "26000 bytes of stack it has of the 128 KiB RAM left beside its \
                         inputs (which take 100000)"
    ));
    assert_eq!(lab_op("sign-expanded"), Some((Op::Sign, true)));
    assert_eq!(firmware_op(Op::Sign, true), "sign-expanded");
    assert_eq!(lab_op("nope"), None);
}

#[test]
fn full_runs_add_the_other_configurations_beside_the_default() {
    if std::env::var_os("PQLAB_M4_CONFIGS").is_some() {
        return; // the variable overrides the rule tested here
    }
    let mut config = Config::quick();
    config.algs = vec!["ml-kem-512".into(), "falcon-512".into()];
    config.peers = true;
    let names = |c: &Config| -> Vec<String> { images(c).into_iter().map(label).collect() };
    assert_eq!(
        names(&config),
        [
            "pqlab falcon-512",
            "pqlab ml-kem-512",
            "pqclean falcon-512",
            "pqclean ml-kem-512"
        ]
    );
    config.quick = false;
    assert_eq!(
        names(&config),
        [
            "pqlab falcon-512",
            "pqlab falcon-512 (fpr-emu)",
            "pqlab falcon-512 (opt-size)",
            "pqlab ml-kem-512",
            "pqlab ml-kem-512 (small-memory)",
            "pqlab ml-kem-512 (opt-size)",
            "pqlab ml-kem-512 (small-memory,opt-size)",
            "pqclean falcon-512",
            "pqclean ml-kem-512",
        ]
    );
    assert_eq!(
        qemu::image_name("pqlab", "ml-kem-512", "small-memory", qemu::Ram::Emulator),
        "pqlab-ml-kem-512-small-memory-emulator-ram.elf"
    );
    assert_eq!(
        qemu::image_name("pqclean", "ml-kem-512", "", qemu::Ram::Chip),
        "pqclean-ml-kem-512.elf"
    );
    assert_eq!(
        qemu::image_name(
            "pqlab",
            "ml-dsa-44",
            "small-memory,opt-size",
            qemu::Ram::Chip
        ),
        "pqlab-ml-dsa-44-small-memory+opt-size.elf"
    );
    // opt-size is the firmware's size profile, not a feature.
    assert_eq!(
        qemu::profile_and_features("small-memory,opt-size"),
        ("release-size", vec!["small-memory"])
    );
    assert_eq!(qemu::profile_and_features(""), ("release", vec![]));
    assert_eq!(
        qemu::profile_and_features("fpr-emu"),
        ("release", vec!["fpr-emu"])
    );
    // The common report's variant names both the expanded key and the configuration.
    let out = "m4-lab impl=pqlab alg=falcon-512 ops=sign-expanded\n\
               start op=sign-expanded available=126000\n\
               call op=sign-expanded i=0 instructions=1000 stack=500\n";
    let run = parse::parse(out).unwrap();
    let fp = elf::Footprint { flash: 1, ram: 0 };
    let emu = Image {
        config: "fpr-emu",
        ..F512
    };
    let r = row(emu, &run.results[0], (fp, fp), None).unwrap();
    assert_eq!(r.config.as_deref(), Some("fpr-emu"));
    assert_eq!(common_variant(&r).as_deref(), Some("expanded key, fpr-emu"));
    assert!(r.distribution.is_none(), "one call has no spread");
}

#[test]
fn deterministic_signing_rows_carry_the_loops_and_the_report_compares_per_iteration() {
    let ours = "m4-lab impl=pqlab alg=ml-dsa-44 ops=sign\n\
                start op=sign available=126000\n\
                call op=sign i=0 instructions=5800 stack=500 loops=3 sig=e90f73891d09a515\n\
                call op=sign i=1 instructions=3400 stack=500 loops=1 sig=8d27f77333872e99\n\
                call op=sign i=2 instructions=7000 stack=500 loops=4 sig=928aeb4da9222934\n\
                end op=sign\ndone failures=0\n";
    let theirs = "m4-lab impl=pqclean alg=ml-dsa-44 ops=sign\n\
                  start op=sign available=126000\n\
                  call op=sign i=0 instructions=6000 stack=600 sig=e90f73891d09a515\n\
                  call op=sign i=1 instructions=3500 stack=600 sig=8d27f77333872e99\n\
                  call op=sign i=2 instructions=7600 stack=600 sig=928aeb4da9222934\n\
                  end op=sign\ndone failures=0\n";
    let image = |implementation| Image {
        implementation,
        alg: "ml-dsa-44",
        config: "",
    };
    let runs = [
        parse::parse(ours).unwrap().results.remove(0),
        parse::parse(theirs).unwrap().results.remove(0),
    ];
    let signed = signing::check(&[
        (image("pqlab"), Some(&runs[0])),
        (image("pqclean"), Some(&runs[1])),
    ])
    .unwrap();
    let fp = elf::Footprint { flash: 1, ram: 0 };
    let mut rows = Vec::new();
    for ((run, loops), imp) in runs.iter().zip(signed.loops).zip(["pqlab", "pqclean"]) {
        let mut r = row(image(imp), run, (fp, fp), None).unwrap();
        let instr: Vec<f64> = run.calls.iter().map(|c| c.0 as f64).collect();
        r.set_loops(loops.unwrap(), &instr);
        rows.push(r);
    }
    assert_eq!(rows[1].loops, [3, 1, 4]);
    // 16200 / 8 and 17100 / 8 instructions per iteration.
    assert_eq!(rows[0].instructions_per_loop, Some(2025.0));
    assert_eq!(rows[1].instructions_per_loop, Some(2137.5));
    let l = rows[0].signing_loops.as_ref().unwrap();
    assert_eq!((l.signatures, l.histogram.len()), (3, 3));
    assert!((l.loop_ns.unwrap() - 1200.0).abs() < 1e-6, "{l:?}");
    let rr = result_row(&rows[0], &runs[0]).unwrap();
    let ns = rr.signing_loops.unwrap().ns_per_loop.unwrap();
    assert!((ns - model::ns(2025.0)).abs() < 1e-6);
    let config = Config::quick();
    let m = M4Report {
        report: common_report(&config, Vec::new(), Vec::new(), &[]),
        rows,
        calibration_loops: Vec::new(),
        baseline: fp,
        cross_checks: signed.checks,
    };
    let t = report::text(&m);
    assert!(t.contains("ML-DSA signs deterministically (rnd = 0"), "{t}");
    assert!(t.contains("ml-dsa-44: 3 calls, loop iterations per call 3 1 4 (mean 2.67)"));
    assert!(t.contains("pqlab / pqclean: 0.947 per loop iteration, 0.967 of the medians, "));
    assert!(t.contains("known answers: pqclean ml-dsa-44 sign: 3 deterministic signatures"));
    assert!(
        t.contains("3 calls (fresh messages, rnd = 0), median"),
        "{t}"
    );
    let json = report::json(&m).unwrap();
    assert!(json.contains("\"instructions_per_loop\": 2137.5"));
    assert!(report::html(&m).unwrap().contains("per loop iteration"));
}
