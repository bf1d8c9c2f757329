//! The two hot loops of inference — the accumulator update and the output
//! layer — in a portable scalar form and, on x86-64 processors that have
//! them, AVX2 and AVX-512 forms chosen at run time. All give bit-identical
//! results: the accumulators are `i16` with wrapping arithmetic in each,
//! and the output sums exact products (the vector forms multiply
//! `clamp(a) × w` in `i16`, which is exact only while `|w| ≤ 128`, so a
//! net with larger output weights, or a hidden size that is not a
//! multiple of 16, always takes the scalar form; see [`Kernel::for_net`]).
//!
//! The default build stays portable (x86-64 baseline): the vector
//! functions are compiled with `#[target_feature(enable = …)]` and called
//! only after `is_x86_feature_detected!` said yes.

use crate::QA;

/// Lanes of `i16` in one AVX2 register; hidden sizes that are multiples of
/// it can use the AVX2 kernels.
pub(crate) const LANES: usize = 16;

/// Lanes of `i16` in one AVX-512 register; hidden sizes that are multiples
/// of it can use the AVX-512 kernels.
pub(crate) const LANES_512: usize = 32;

/// Which implementation evaluates a network on this processor.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kernel {
    /// Plain Rust, any processor.
    Scalar,
    /// AVX2 intrinsics (x86-64 only, detected at run time).
    Avx2,
    /// AVX-512 (F and BW) intrinsics (x86-64 only, detected at run time).
    Avx512,
}

impl Kernel {
    /// The fastest kernel this processor has, whatever the net.
    pub(crate) fn detect() -> Kernel {
        #[cfg(target_arch = "x86_64")]
        {
            if std::is_x86_feature_detected!("avx512f")
                && std::is_x86_feature_detected!("avx512bw")
                && std::is_x86_feature_detected!("avx2")
            {
                return Kernel::Avx512;
            }
            if std::is_x86_feature_detected!("avx2") {
                return Kernel::Avx2;
            }
        }
        Kernel::Scalar
    }

    /// Every kernel this processor can run, the fastest first (for tests
    /// that compare them).
    #[cfg(test)]
    pub(crate) fn available() -> Vec<Kernel> {
        let mut all = Vec::new();
        if Kernel::detect() == Kernel::Avx512 {
            all.push(Kernel::Avx512);
        }
        if Kernel::detect() != Kernel::Scalar {
            all.push(Kernel::Avx2);
        }
        all.push(Kernel::Scalar);
        all
    }

    /// The kernel for a net of `hidden` neurons whose output weights are
    /// `out_weights`: AVX2 where the processor has it and the net's shape
    /// and weights keep its arithmetic exact, otherwise scalar.
    pub(crate) fn for_net(hidden: usize, out_weights: &[i16]) -> Kernel {
        let exact =
            hidden.is_multiple_of(LANES) && out_weights.iter().all(|w| w.unsigned_abs() <= 128);
        match Kernel::detect() {
            _ if !exact => Kernel::Scalar,
            Kernel::Avx512 if !hidden.is_multiple_of(LANES_512) => Kernel::Avx2,
            best => best,
        }
    }
}

/// `out = from + Σ add − Σ sub`, lane by lane with wrapping `i16`
/// arithmetic; every slice has `out.len()` elements.
#[inline]
pub(crate) fn update(
    kernel: Kernel,
    out: &mut [i16],
    from: &[i16],
    add: &[&[i16]],
    sub: &[&[i16]],
) {
    debug_assert!(from.len() == out.len());
    debug_assert!(add.iter().chain(sub).all(|c| c.len() == out.len()));
    match kernel {
        #[cfg(target_arch = "x86_64")]
        Kernel::Avx2 => {
            // Safety: `Kernel::Avx2` is only made by `Kernel::detect` after
            // the processor reported AVX2, and `for_net` chooses it only for
            // lengths that are multiples of `LANES`; the function checks
            // every slice's length before reading it.
            #[allow(unsafe_code)]
            unsafe {
                avx2::update(out, from, add, sub)
            }
        }
        #[cfg(target_arch = "x86_64")]
        Kernel::Avx512 => {
            // Safety: `Kernel::Avx512` is only made by `Kernel::detect`
            // after the processor reported AVX-512 F and BW, and `for_net`
            // chooses it only for lengths that are multiples of
            // `LANES_512`; the function checks every slice's length.
            #[allow(unsafe_code)]
            unsafe {
                avx512::update(out, from, add, sub)
            }
        }
        _ => update_scalar(out, from, add, sub),
    }
}

/// The scalar form of [`update`].
pub(crate) fn update_scalar(out: &mut [i16], from: &[i16], add: &[&[i16]], sub: &[&[i16]]) {
    out.copy_from_slice(from);
    for col in add {
        crate::accumulator::add_column(out, col);
    }
    for col in sub {
        crate::accumulator::sub_column(out, col);
    }
}

/// `Σ clamp(acc[i], 0, QA)² × w[i]` over one perspective's half, exact.
#[inline]
pub(crate) fn screlu_dot(kernel: Kernel, acc: &[i16], w: &[i16]) -> i64 {
    debug_assert!(acc.len() == w.len());
    match kernel {
        #[cfg(target_arch = "x86_64")]
        Kernel::Avx2 => {
            // Safety: as in `update`: AVX2 is present, and the function
            // checks the slices' lengths; `for_net` chose AVX2 only for
            // output weights of magnitude ≤ 128, for which the products
            // are exact in `i16`.
            #[allow(unsafe_code)]
            unsafe {
                avx2::screlu_dot(acc, w)
            }
        }
        #[cfg(target_arch = "x86_64")]
        Kernel::Avx512 => {
            // Safety: as in `update`: AVX-512 F and BW are present, and
            // the function checks the slices' lengths; the weights are
            // within ±128, as for AVX2.
            #[allow(unsafe_code)]
            unsafe {
                avx512::screlu_dot(acc, w)
            }
        }
        _ => screlu_dot_scalar(acc, w),
    }
}

/// The scalar form of [`screlu_dot`].
pub(crate) fn screlu_dot_scalar(acc: &[i16], w: &[i16]) -> i64 {
    acc.iter()
        .zip(w)
        .map(|(&a, &w)| {
            let c = i64::from(a.clamp(0, QA as i16));
            c * c * i64::from(w)
        })
        .sum()
}

/// The vector kernels, written once for both register widths: `$feature`
/// the target features, `$lanes` the `i16` lanes of a register (`$words`
/// its `i32` lanes), and the intrinsics of that width.
#[cfg(target_arch = "x86_64")]
macro_rules! vector_kernels {
    (
        $feature:literal, $lanes:expr, $words:expr,
        load: $load:ident, store: $store:ident, zero: $zero:ident, splat: $splat:ident,
        add: $add:ident, sub: $sub:ident, min: $min:ident, max: $max:ident,
        mullo: $mullo:ident, madd: $madd:ident, add32: $add32:ident $(,)?
    ) => {
        use crate::QA;
        use std::arch::x86_64::*;

        /// `i16` lanes of one register.
        const LANES: usize = $lanes;

        /// # Safety
        /// The processor must have the module's target features.
        #[target_feature(enable = $feature)]
        pub(super) unsafe fn update(out: &mut [i16], from: &[i16], add: &[&[i16]], sub: &[&[i16]]) {
            // The moves' usual shapes (quiet: one in, one out; capture or
            // en passant: one in, two out; castling: two and two) with
            // their column counts fixed, so that the loop over the columns
            // unrolls (BENCHMARKS §6). Safety (each call): the target
            // features are present, as this function requires.
            unsafe {
                match (add, sub) {
                    ([a], [s]) => update_n(out, from, [*a], [*s]),
                    ([a], [s, t]) => update_n(out, from, [*a], [*s, *t]),
                    ([a, b], [s, t]) => update_n(out, from, [*a, *b], [*s, *t]),
                    _ => update_any(out, from, add, sub),
                }
            }
        }

        /// [`update`] for `A` added and `S` removed columns.
        ///
        /// # Safety
        /// The processor must have the module's target features.
        #[target_feature(enable = $feature)]
        #[inline]
        unsafe fn update_n<const A: usize, const S: usize>(
            out: &mut [i16],
            from: &[i16],
            add: [&[i16]; A],
            sub: [&[i16]; S],
        ) {
            // Safety: the same target features.
            unsafe { update_any(out, from, &add, &sub) }
        }

        /// [`update`] for any number of columns (inlined into
        /// `update_n`, where the counts are constants).
        ///
        /// # Safety
        /// The processor must have the module's target features.
        #[target_feature(enable = $feature)]
        #[inline]
        unsafe fn update_any(out: &mut [i16], from: &[i16], add: &[&[i16]], sub: &[&[i16]]) {
            let n = out.len();
            assert!(n.is_multiple_of(LANES) && from.len() == n);
            assert!(add.iter().chain(sub).all(|c| c.len() == n));
            let mut i = 0;
            while i < n {
                // Safety: `i + LANES <= n` and every slice has `n`
                // elements, so each unaligned load and store of one
                // register is in bounds.
                unsafe {
                    let mut v = $load(from.as_ptr().add(i).cast());
                    for col in add {
                        v = $add(v, $load(col.as_ptr().add(i).cast()));
                    }
                    for col in sub {
                        v = $sub(v, $load(col.as_ptr().add(i).cast()));
                    }
                    $store(out.as_mut_ptr().add(i).cast(), v);
                }
                i += LANES;
            }
        }

        /// # Safety
        /// The processor must have the module's target features, and every
        /// `|w[i]| ≤ 128` for the result to equal the scalar one.
        #[target_feature(enable = $feature)]
        pub(super) unsafe fn screlu_dot(acc: &[i16], w: &[i16]) -> i64 {
            let n = acc.len();
            assert!(n.is_multiple_of(LANES) && w.len() == n);
            let zero = $zero();
            let qa = $splat(QA as i16);
            let mut total = 0i64;
            // Each lane of `sum` gains at most 2 × 255 × 255 × 128 ≈
            // 16.6 M a step; 64 steps stay below i32::MAX before they are
            // moved to i64.
            for block in (0..n).step_by(64 * LANES) {
                let end = (block + 64 * LANES).min(n);
                let mut sum = $zero();
                let mut i = block;
                while i < end {
                    // Safety: `i + LANES <= n` for both slices of `n`
                    // elements.
                    let (a, x) = unsafe {
                        (
                            $load(acc.as_ptr().add(i).cast()),
                            $load(w.as_ptr().add(i).cast()),
                        )
                    };
                    let c = $min($max(a, zero), qa);
                    let cw = $mullo(c, x);
                    sum = $add32(sum, $madd(c, cw));
                    i += LANES;
                }
                let mut lanes = [0i32; $words];
                // Safety: `lanes` has the size of one register.
                unsafe { $store(lanes.as_mut_ptr().cast(), sum) };
                total += lanes.iter().map(|&v| i64::from(v)).sum::<i64>();
            }
            total
        }
    };
}

#[cfg(target_arch = "x86_64")]
#[allow(unsafe_code)]
mod avx2 {
    vector_kernels!(
        "avx2", 16, 8,
        load: _mm256_loadu_si256, store: _mm256_storeu_si256,
        zero: _mm256_setzero_si256, splat: _mm256_set1_epi16,
        add: _mm256_add_epi16, sub: _mm256_sub_epi16,
        min: _mm256_min_epi16, max: _mm256_max_epi16,
        mullo: _mm256_mullo_epi16, madd: _mm256_madd_epi16, add32: _mm256_add_epi32,
    );
}

#[cfg(target_arch = "x86_64")]
#[allow(unsafe_code)]
mod avx512 {
    vector_kernels!(
        "avx512f,avx512bw", 32, 16,
        load: _mm512_loadu_si512, store: _mm512_storeu_si512,
        zero: _mm512_setzero_si512, splat: _mm512_set1_epi16,
        add: _mm512_add_epi16, sub: _mm512_sub_epi16,
        min: _mm512_min_epi16, max: _mm512_max_epi16,
        mullo: _mm512_mullo_epi16, madd: _mm512_madd_epi16, add32: _mm512_add_epi32,
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    fn random(n: usize, seed: u64, range: i32) -> Vec<i16> {
        let mut s = seed;
        (0..n)
            .map(|_| {
                s = s
                    .wrapping_mul(6_364_136_223_846_793_005)
                    .wrapping_add(1_442_695_040_888_963_407);
                (((s >> 33) as i32).rem_euclid(2 * range + 1) - range) as i16
            })
            .collect()
    }

    #[test]
    fn kernels_agree_on_random_vectors() {
        let kernels = Kernel::available();
        if kernels == [Kernel::Scalar] {
            eprintln!("no AVX2 on this processor: only the scalar kernel runs");
        }
        for best in kernels {
            for (seed, n) in [
                (1u64, 32usize),
                (2, 128),
                (3, 256),
                (4, 1024),
                (5, 4096),
                (6, 16),
            ] {
                if best == Kernel::Avx512 && !n.is_multiple_of(LANES_512) {
                    continue;
                }
                // Accumulators over the whole i16 range (they wrap), weights at
                // the extremes the exact form allows.
                let acc = random(n, seed, 32767);
                let w = random(n, seed + 100, 128);
                assert_eq!(
                    screlu_dot(best, &acc, &w),
                    screlu_dot_scalar(&acc, &w),
                    "{best:?}: n = {n}"
                );
                let from = random(n, seed + 200, 32767);
                let cols: Vec<Vec<i16>> =
                    (0..4).map(|k| random(n, seed + 300 + k, 32767)).collect();
                for (adds, subs) in [(1, 1), (1, 2), (2, 2), (0, 0), (2, 0)] {
                    let add: Vec<&[i16]> = cols[..adds].iter().map(Vec::as_slice).collect();
                    let sub: Vec<&[i16]> = cols[2..2 + subs].iter().map(Vec::as_slice).collect();
                    let mut a = vec![0; n];
                    let mut b = vec![0; n];
                    update(best, &mut a, &from, &add, &sub);
                    update_scalar(&mut b, &from, &add, &sub);
                    assert_eq!(a, b, "{best:?}: n = {n}, {adds} adds, {subs} subs");
                }
            }
        }
    }

    #[test]
    fn large_output_weights_or_odd_sizes_take_the_scalar_kernel() {
        assert_eq!(Kernel::for_net(128, &[129, 0]), Kernel::Scalar);
        assert_eq!(Kernel::for_net(128, &[-129]), Kernel::Scalar);
        assert_eq!(Kernel::for_net(8, &[1; 16]), Kernel::Scalar);
        assert_eq!(Kernel::for_net(128, &[128, -128]), Kernel::detect());
        // 48 neurons: AVX2's width, not AVX-512's.
        let k48 = Kernel::for_net(48, &[1]);
        assert!(k48 == Kernel::Avx2 || k48 == Kernel::Scalar, "{k48:?}");
    }
}
