//! Perft speed, single thread, bulk counting at the leaves: start position depth 5 and
//! "matsuri" depth 4. Criterion reports the throughput in leaf nodes per second (elem/s).
//!
//!     cargo bench --bench perft

use std::time::Duration;

use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};
use hayate::perft::perft;
use hayate::Position;

const CASES: [(&str, &str, u32, u64); 2] = [
    (
        "startpos_d5",
        "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
        5,
        19_861_490,
    ),
    (
        "matsuri_d4",
        "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1",
        4,
        516_925_165,
    ),
];

fn perft_speed(c: &mut Criterion) {
    let mut group = c.benchmark_group("perft");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(20))
        .warm_up_time(Duration::from_secs(2));
    for (name, sfen, depth, nodes) in CASES {
        let mut pos = Position::from_sfen(sfen).unwrap();
        group.throughput(Throughput::Elements(nodes));
        group.bench_function(name, |b| {
            b.iter(|| {
                let n = perft(&mut pos, black_box(depth));
                assert_eq!(n, nodes);
                n
            })
        });
    }
    group.finish();
}

criterion_group!(benches, perft_speed);
criterion_main!(benches);
