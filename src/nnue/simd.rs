//! The network's inner loops, in a scalar version and an AVX2 version that
//! give bit-identical results: adding or subtracting a feature-transformer
//! row, ClippedReLU from the i16 accumulator to u8, and the u8 x i8 dot
//! products of the hidden layers.
//!
//! A [`Kernel`] names the version to run. Its AVX2 value can only be built
//! where the CPU has AVX2, so holding one is the proof the unsafe calls need;
//! the scalar one is always available, which lets tests compare the two on
//! any machine.

/// Which implementation of the inner loops to run.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Kernel(Isa);

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Isa {
    Scalar,
    /// Only constructed after AVX2 was detected (see [`Kernel::avx2`]).
    #[cfg(target_arch = "x86_64")]
    Avx2,
}

#[cfg(target_arch = "x86_64")]
static HAS_AVX2: once_cell::sync::Lazy<bool> =
    once_cell::sync::Lazy::new(|| std::arch::is_x86_feature_detected!("avx2"));

impl Kernel {
    /// Plain Rust loops: runs everywhere, the reference for the others.
    pub const SCALAR: Kernel = Kernel(Isa::Scalar);

    /// The AVX2 kernel, if this CPU has AVX2 (checked once, then cached).
    pub fn avx2() -> Option<Kernel> {
        #[cfg(target_arch = "x86_64")]
        if *HAS_AVX2 {
            return Some(Kernel(Isa::Avx2));
        }
        None
    }

    /// The fastest kernel this CPU runs.
    pub fn best() -> Kernel {
        Kernel::avx2().unwrap_or(Kernel::SCALAR)
    }

    /// A short name for logs: `scalar` or `avx2`.
    pub fn name(self) -> &'static str {
        match self.0 {
            Isa::Scalar => "scalar",
            #[cfg(target_arch = "x86_64")]
            Isa::Avx2 => "avx2",
        }
    }

    /// `acc[i] += row[i]` (wrapping) over the common length.
    #[inline]
    pub fn add_row(self, acc: &mut [i16], row: &[i16]) {
        let n = acc.len().min(row.len());
        let (acc, row) = (&mut acc[..n], &row[..n]);
        match self.0 {
            Isa::Scalar => scalar::add_row(acc, row),
            #[cfg(target_arch = "x86_64")]
            // SAFETY: an Avx2 kernel exists only where AVX2 was detected;
            // both slices have length n.
            Isa::Avx2 => unsafe { avx2::add_row(acc, row) },
        }
    }

    /// `acc[i] -= row[i]` (wrapping) over the common length.
    #[inline]
    pub fn sub_row(self, acc: &mut [i16], row: &[i16]) {
        let n = acc.len().min(row.len());
        let (acc, row) = (&mut acc[..n], &row[..n]);
        match self.0 {
            Isa::Scalar => scalar::sub_row(acc, row),
            #[cfg(target_arch = "x86_64")]
            // SAFETY: an Avx2 kernel exists only where AVX2 was detected;
            // both slices have length n.
            Isa::Avx2 => unsafe { avx2::sub_row(acc, row) },
        }
    }

    /// `out[i] = clamp(input[i], 0, 127)` over the common length.
    #[inline]
    pub fn clipped_relu(self, input: &[i16], out: &mut [u8]) {
        let n = input.len().min(out.len());
        let (input, out) = (&input[..n], &mut out[..n]);
        match self.0 {
            Isa::Scalar => scalar::clipped_relu(input, out),
            #[cfg(target_arch = "x86_64")]
            // SAFETY: an Avx2 kernel exists only where AVX2 was detected;
            // both slices have length n.
            Isa::Avx2 => unsafe { avx2::clipped_relu(input, out) },
        }
    }

    /// A dense layer: `out[o] = biases[o] + dot(x, row o of weights)` for
    /// every `o < out.len()`, the rows `x.len()` long, one after another in
    /// `weights`. Same precondition as [`Kernel::dot`] (every `x[i]` at most
    /// 127).
    ///
    /// # Panics
    /// If `weights` or `biases` is shorter than the layer.
    #[inline]
    pub fn affine(self, x: &[u8], weights: &[i8], biases: &[i32], out: &mut [i32]) {
        let (rows, n) = (out.len(), x.len());
        let (weights, biases) = (&weights[..rows * n], &biases[..rows]);
        match self.0 {
            Isa::Scalar => scalar::affine(x, weights, biases, out),
            #[cfg(target_arch = "x86_64")]
            // SAFETY: an Avx2 kernel exists only where AVX2 was detected;
            // weights holds out.len() rows of x.len() and biases one per row.
            Isa::Avx2 => unsafe { avx2::affine(x, weights, biases, out) },
        }
    }

    /// `sum(x[i] * w[i])` over the common length, as i32.
    ///
    /// Every `x[i]` must be at most 127 (a ClippedReLU output) for the AVX2
    /// result to equal the scalar one: AVX2 multiplies pairs into saturating
    /// i16 (`maddubs`), and 127 * 128 * 2 = 32,512 stays below 32,767, so no
    /// pair saturates; a u8 up to 255 could.
    #[inline]
    pub fn dot(self, x: &[u8], w: &[i8]) -> i32 {
        let n = x.len().min(w.len());
        let (x, w) = (&x[..n], &w[..n]);
        match self.0 {
            Isa::Scalar => scalar::dot(x, w),
            #[cfg(target_arch = "x86_64")]
            // SAFETY: an Avx2 kernel exists only where AVX2 was detected;
            // both slices have length n.
            Isa::Avx2 => unsafe { avx2::dot(x, w) },
        }
    }
}

/// The reference loops; the AVX2 versions also use them for their tails.
mod scalar {
    pub fn add_row(acc: &mut [i16], row: &[i16]) {
        for (a, &r) in acc.iter_mut().zip(row) {
            *a = a.wrapping_add(r);
        }
    }

    pub fn sub_row(acc: &mut [i16], row: &[i16]) {
        for (a, &r) in acc.iter_mut().zip(row) {
            *a = a.wrapping_sub(r);
        }
    }

    pub fn clipped_relu(input: &[i16], out: &mut [u8]) {
        for (o, &v) in out.iter_mut().zip(input) {
            *o = v.clamp(0, 127) as u8;
        }
    }

    pub fn dot(x: &[u8], w: &[i8]) -> i32 {
        x.iter()
            .zip(w)
            .map(|(&a, &b)| i32::from(a) * i32::from(b))
            .sum()
    }

    pub fn affine(x: &[u8], weights: &[i8], biases: &[i32], out: &mut [i32]) {
        let n = x.len();
        for (o, value) in out.iter_mut().enumerate() {
            *value = biases[o].wrapping_add(dot(x, &weights[o * n..(o + 1) * n]));
        }
    }
}

/// AVX2 versions. Each takes slices of equal length, runs whole 256-bit
/// chunks with unaligned loads and stores, and leaves the tail to the scalar
/// loop, so any length is valid.
#[cfg(target_arch = "x86_64")]
mod avx2 {
    use std::arch::x86_64::*;

    /// i16 lanes in one 256-bit register.
    const I16_LANES: usize = 16;
    /// u8 / i8 lanes in one 256-bit register.
    const I8_LANES: usize = 32;

    #[target_feature(enable = "avx2")]
    pub fn add_row(acc: &mut [i16], row: &[i16]) {
        debug_assert_eq!(acc.len(), row.len());
        let whole = acc.len() / I16_LANES * I16_LANES;
        for i in (0..whole).step_by(I16_LANES) {
            // SAFETY: i + 16 <= whole <= both lengths, so the 32-byte
            // unaligned load and store stay inside the slices.
            unsafe {
                let a = _mm256_loadu_si256(acc.as_ptr().add(i).cast());
                let r = _mm256_loadu_si256(row.as_ptr().add(i).cast());
                _mm256_storeu_si256(acc.as_mut_ptr().add(i).cast(), _mm256_add_epi16(a, r));
            }
        }
        super::scalar::add_row(&mut acc[whole..], &row[whole..]);
    }

    #[target_feature(enable = "avx2")]
    pub fn sub_row(acc: &mut [i16], row: &[i16]) {
        debug_assert_eq!(acc.len(), row.len());
        let whole = acc.len() / I16_LANES * I16_LANES;
        for i in (0..whole).step_by(I16_LANES) {
            // SAFETY: i + 16 <= whole <= both lengths, so the 32-byte
            // unaligned load and store stay inside the slices.
            unsafe {
                let a = _mm256_loadu_si256(acc.as_ptr().add(i).cast());
                let r = _mm256_loadu_si256(row.as_ptr().add(i).cast());
                _mm256_storeu_si256(acc.as_mut_ptr().add(i).cast(), _mm256_sub_epi16(a, r));
            }
        }
        super::scalar::sub_row(&mut acc[whole..], &row[whole..]);
    }

    #[target_feature(enable = "avx2")]
    pub fn clipped_relu(input: &[i16], out: &mut [u8]) {
        debug_assert_eq!(input.len(), out.len());
        // Two registers of i16 make one of u8.
        let whole = input.len() / I8_LANES * I8_LANES;
        let zero = _mm256_setzero_si256();
        for i in (0..whole).step_by(I8_LANES) {
            // SAFETY: i + 32 <= whole <= both lengths: the two 32-byte loads
            // read input[i..i + 32] and the store writes out[i..i + 32].
            unsafe {
                let lo = _mm256_loadu_si256(input.as_ptr().add(i).cast());
                let hi = _mm256_loadu_si256(input.as_ptr().add(i + I16_LANES).cast());
                // Saturate to i8 (-128..127), raise negatives to 0, then undo
                // packs' per-128-bit-lane interleaving (qwords 0, 2, 1, 3).
                let packed = _mm256_max_epi8(_mm256_packs_epi16(lo, hi), zero);
                let ordered = _mm256_permute4x64_epi64::<0b11_01_10_00>(packed);
                _mm256_storeu_si256(out.as_mut_ptr().add(i).cast(), ordered);
            }
        }
        super::scalar::clipped_relu(&input[whole..], &mut out[whole..]);
    }

    #[target_feature(enable = "avx2")]
    pub fn dot(x: &[u8], w: &[i8]) -> i32 {
        debug_assert_eq!(x.len(), w.len());
        let whole = x.len() / I8_LANES * I8_LANES;
        let ones = _mm256_set1_epi16(1);
        let mut sum = _mm256_setzero_si256();
        for i in (0..whole).step_by(I8_LANES) {
            // SAFETY: i + 32 <= whole <= both lengths, so both 32-byte
            // unaligned loads stay inside the slices.
            let (xv, wv) = unsafe {
                (
                    _mm256_loadu_si256(x.as_ptr().add(i).cast()),
                    _mm256_loadu_si256(w.as_ptr().add(i).cast()),
                )
            };
            // u8 * i8 pairs summed to i16 (no saturation for x <= 127, see
            // Kernel::dot), then pairs of those summed to i32.
            let pairs = _mm256_maddubs_epi16(xv, wv);
            sum = _mm256_add_epi32(sum, _mm256_madd_epi16(pairs, ones));
        }
        horizontal_sum(sum) + super::scalar::dot(&x[whole..], &w[whole..])
    }

    /// [`super::Kernel::affine`]: four rows at a time when the rows are
    /// whole registers long (their partial sums reduced together), the
    /// rest row by row. `weights` holds `out.len()` rows of `x.len()`.
    #[target_feature(enable = "avx2")]
    pub fn affine(x: &[u8], weights: &[i8], biases: &[i32], out: &mut [i32]) {
        let n = x.len();
        debug_assert!(weights.len() >= out.len() * n && biases.len() >= out.len());
        let grouped = if n.is_multiple_of(I8_LANES) {
            out.len() / 4 * 4
        } else {
            0
        };
        let ones = _mm256_set1_epi16(1);
        for o in (0..grouped).step_by(4) {
            let mut sums = [_mm256_setzero_si256(); 4];
            for i in (0..n).step_by(I8_LANES) {
                // SAFETY: i + 32 <= n, and rows o..o + 4 lie inside weights
                // (o + 4 <= out.len()), so every 32-byte load is in bounds.
                let xv = unsafe { _mm256_loadu_si256(x.as_ptr().add(i).cast()) };
                for (r, sum) in sums.iter_mut().enumerate() {
                    let row = (o + r) * n + i;
                    // SAFETY: row + 32 <= (o + r + 1) * n <= weights.len().
                    let wv = unsafe { _mm256_loadu_si256(weights.as_ptr().add(row).cast()) };
                    let pairs = _mm256_maddubs_epi16(xv, wv);
                    *sum = _mm256_add_epi32(*sum, _mm256_madd_epi16(pairs, ones));
                }
            }
            // Per 128-bit half: [row 0, row 1, row 2, row 3] partial sums;
            // the halves added give the four rows' totals.
            let pairs01 = _mm256_hadd_epi32(sums[0], sums[1]);
            let pairs23 = _mm256_hadd_epi32(sums[2], sums[3]);
            let quads = _mm256_hadd_epi32(pairs01, pairs23);
            let totals = _mm_add_epi32(
                _mm256_castsi256_si128(quads),
                _mm256_extracti128_si256::<1>(quads),
            );
            // SAFETY: o + 4 <= grouped <= both biases.len() and out.len().
            unsafe {
                let bias = _mm_loadu_si128(biases.as_ptr().add(o).cast());
                _mm_storeu_si128(out.as_mut_ptr().add(o).cast(), _mm_add_epi32(totals, bias));
            }
        }
        for o in grouped..out.len() {
            out[o] = biases[o].wrapping_add(dot(x, &weights[o * n..(o + 1) * n]));
        }
    }

    /// The sum of the eight i32 lanes.
    #[target_feature(enable = "avx2")]
    fn horizontal_sum(v: __m256i) -> i32 {
        let quad = _mm_add_epi32(_mm256_castsi256_si128(v), _mm256_extracti128_si256::<1>(v));
        let pair = _mm_add_epi32(quad, _mm_shuffle_epi32::<0b01_00_11_10>(quad));
        let one = _mm_add_epi32(pair, _mm_shuffle_epi32::<0b10_11_00_01>(pair));
        _mm_cvtsi128_si32(one)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::util::rng::XorShift64;

    /// Lengths around the register widths, to cover the scalar tails too.
    const LENGTHS: [usize; 9] = [0, 1, 15, 16, 17, 31, 32, 64, 1024 + 7];

    fn avx2_or_skip() -> Option<Kernel> {
        let kernel = Kernel::avx2();
        if kernel.is_none() {
            eprintln!("no AVX2 on this CPU: skipped");
        }
        kernel
    }

    #[test]
    fn scalar_kernels_compute_the_definitions() {
        let mut acc = [i16::MAX, -5, 0];
        Kernel::SCALAR.add_row(&mut acc, &[1, 7, -3]);
        assert_eq!(acc, [i16::MIN, 2, -3], "add wraps like the SIMD add");
        Kernel::SCALAR.sub_row(&mut acc, &[1, 2, -3]);
        assert_eq!(acc, [i16::MAX, 0, 0]);
        let mut out = [9u8; 4];
        Kernel::SCALAR.clipped_relu(&[-300, 0, 127, 128], &mut out);
        assert_eq!(out, [0, 0, 127, 127]);
        assert_eq!(
            Kernel::SCALAR.dot(&[127, 2, 0], &[-128, 5, 99]),
            -16_256 + 10
        );
    }

    #[test]
    fn best_kernel_matches_detection() {
        assert_eq!(Kernel::best(), Kernel::avx2().unwrap_or(Kernel::SCALAR));
        assert_eq!(Kernel::SCALAR.name(), "scalar");
    }

    #[test]
    fn avx2_rows_equal_scalar_rows() {
        let Some(avx2) = avx2_or_skip() else { return };
        let mut rng = XorShift64::new(0x1234_5678_9ABC_DEF1);
        for &n in &LENGTHS {
            for _ in 0..20 {
                let start: Vec<i16> = (0..n).map(|_| rng.next_u64() as i16).collect();
                let row: Vec<i16> = (0..n).map(|_| rng.next_u64() as i16).collect();
                let (mut a, mut b) = (start.clone(), start.clone());
                Kernel::SCALAR.add_row(&mut a, &row);
                avx2.add_row(&mut b, &row);
                assert_eq!(a, b, "add, n = {n}");
                Kernel::SCALAR.sub_row(&mut a, &row);
                avx2.sub_row(&mut b, &row);
                assert_eq!(a, b, "sub, n = {n}");
                assert_eq!(a, start, "sub undoes add");
            }
        }
    }

    #[test]
    fn avx2_clipped_relu_equals_scalar() {
        let Some(avx2) = avx2_or_skip() else { return };
        let mut rng = XorShift64::new(0x0F0F_1234_ABCD_0001);
        for &n in &LENGTHS {
            for round in 0..20 {
                // Half the rounds near the clamp edges, half anywhere.
                let input: Vec<i16> = (0..n)
                    .map(|_| match round % 2 {
                        0 => (rng.next_u64() % 400) as i16 - 150,
                        _ => rng.next_u64() as i16,
                    })
                    .collect();
                let (mut a, mut b) = (vec![0u8; n], vec![0u8; n]);
                Kernel::SCALAR.clipped_relu(&input, &mut a);
                avx2.clipped_relu(&input, &mut b);
                assert_eq!(a, b, "n = {n}");
            }
        }
    }

    #[test]
    fn avx2_dot_equals_scalar() {
        let Some(avx2) = avx2_or_skip() else { return };
        let mut rng = XorShift64::new(0xDEAD_BEEF_0000_0042);
        for &n in &LENGTHS {
            for round in 0..20 {
                let x: Vec<u8> = (0..n).map(|_| (rng.next_u64() % 128) as u8).collect();
                // Also the extreme weights, where pairs come closest to
                // saturating the i16 intermediate.
                let w: Vec<i8> = (0..n)
                    .map(|_| match round % 3 {
                        0 => i8::MIN,
                        1 => i8::MAX,
                        _ => rng.next_u64() as i8,
                    })
                    .collect();
                assert_eq!(Kernel::SCALAR.dot(&x, &w), avx2.dot(&x, &w), "n = {n}");
            }
        }
        let x = [127u8; 64];
        let w = [i8::MIN; 64];
        assert_eq!(avx2.dot(&x, &w), 127 * -128 * 64);
    }

    #[test]
    fn affine_kernels_agree() {
        let mut rng = XorShift64::new(41);
        for n in [17usize, 32, 64, 96] {
            for rows in [1usize, 3, 4, 5, 8, 32] {
                let x: Vec<u8> = (0..n).map(|_| rng.below(128) as u8).collect();
                let w: Vec<i8> = (0..rows * n).map(|_| rng.below(256) as u8 as i8).collect();
                let b: Vec<i32> = (0..rows)
                    .map(|_| rng.below(20_001) as i32 - 10_000)
                    .collect();
                let mut expected = vec![0; rows];
                Kernel::SCALAR.affine(&x, &w, &b, &mut expected);
                for (o, &e) in expected.iter().enumerate() {
                    assert_eq!(e, b[o] + Kernel::SCALAR.dot(&x, &w[o * n..(o + 1) * n]));
                }
                for kernel in [Kernel::avx2()].into_iter().flatten() {
                    let mut got = vec![0; rows];
                    kernel.affine(&x, &w, &b, &mut got);
                    assert_eq!(got, expected, "{} n {n} rows {rows}", kernel.name());
                }
            }
        }
    }
}
