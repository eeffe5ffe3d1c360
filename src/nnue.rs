//! A small quantized perceptron (binary inputs, one hidden layer with a clipped ReLU, one
//! output) evaluated in integers: the shape of both games' evaluation networks
//! ([`crate::oware::net`], [`crate::dobutsu::net`]), which a game's module feeds with its own
//! inputs ([`ActiveInputs`]).
//!
//! The hidden sums start at the hidden biases ([`Network::start`]); each active input adds its
//! row of weights ([`Network::add`]); [`Network::output`] clips them and takes the weighted sum.
//! [`Network::output_of`] does all three for a position, with AVX2 where the processor has it.
//! Input weights and hidden biases are `i16` scaled by [`QA`] (the clipped ReLU's 1.0) within
//! [`WEIGHT_LIMIT`], so a hidden sum of up to `i16::MAX / WEIGHT_LIMIT - 1` active inputs fits
//! an `i16`; output weights are `i16` scaled by [`QB`]; the output is an `i32`, the logit times
//! `QA × QB`.
//!
//! The file ([`Network::from_bytes`]), little-endian: a four-byte magic naming the game's
//! network, the version (u32), the input and hidden counts (u32 each), the input weights (i16,
//! `INPUTS × HIDDEN`, input-major), the hidden biases (i16), the output weights (i16) and the
//! output bias (i32).

/// The scale of the input weights and hidden biases: the clipped ReLU's 1.0.
pub const QA: i32 = 255;
/// The scale of the output weights.
pub const QB: i32 = 64;
/// The largest input weight or hidden bias, in units of `1 / QA`.
pub const WEIGHT_LIMIT: i32 = 2 * QA;
/// The file format's version.
const VERSION: u32 = 1;

/// A position as a network sees it: its active inputs.
pub trait ActiveInputs {
    /// Gives `sink` the index of each active input (each below the network's input count, at
    /// most `i16::MAX / WEIGHT_LIMIT - 1` of them), in any order.
    ///
    /// Implementations should be `#[inline(always)]`, so that the adds are compiled into
    /// [`Network::output_of`]'s AVX2 version.
    fn for_each_active(&self, sink: &mut impl InputSink);
}

/// What is done with each active input of a position: added to the hidden sums
/// ([`Network::output_of`]), or listed.
///
/// A trait with an always-inlined method rather than a closure, so that the inference's adds
/// are compiled into its AVX2 version whatever the compiler's inlining says.
pub trait InputSink {
    /// Takes input `input`.
    fn add(&mut self, input: usize);

    /// Takes the inputs `base + i` for each bit `i` set in `bits`; the default takes them one
    /// by one.
    #[inline(always)]
    fn add_group(&mut self, base: usize, mut bits: u16) {
        while bits != 0 {
            self.add(base + bits.trailing_zeros() as usize);
            bits &= bits - 1;
        }
    }
}

/// A set of active inputs as bits (input `i` is bit `i % 64` of word `i / 64`), for networks
/// of at most 256 inputs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct InputSet(pub [u64; 4]);

impl InputSink for InputSet {
    #[inline(always)]
    fn add(&mut self, input: usize) {
        self.0[input / 64] |= 1 << (input % 64);
    }

    /// Bits past input 255 are left out (no network has them).
    #[inline(always)]
    fn add_group(&mut self, base: usize, bits: u16) {
        let (word, shift) = (base / 64, base % 64);
        self.0[word] |= u64::from(bits) << shift;
        if shift > 48 {
            if let Some(next) = self.0.get_mut(word + 1) {
                *next |= u64::from(bits) >> (64 - shift);
            }
        }
    }
}

/// The hidden sums of a position's inputs kept with the inputs themselves, so that a position
/// that differs in a few inputs (a child, seen from the same side) is evaluated by adding and
/// removing only those ([`Network::output_from`]).
#[derive(Clone, Debug)]
pub struct Accumulated<const H: usize> {
    /// The inputs summed.
    set: InputSet,
    /// Their hidden sums, biases included.
    sums: [i16; H],
}

/// The hidden sums of a network, as its inputs are added.
struct Sums<'a, const I: usize, const H: usize> {
    net: &'a Network<I, H>,
    acc: [i16; H],
}

impl<const I: usize, const H: usize> InputSink for Sums<'_, I, H> {
    #[inline(always)]
    fn add(&mut self, input: usize) {
        self.net.add(&mut self.acc, input);
    }
}

/// A quantized network of `I` inputs and `H` hidden units.
#[derive(Clone, PartialEq, Eq)]
pub struct Network<const I: usize, const H: usize> {
    /// Input weights, `[input][hidden]`, scaled by [`QA`], within [`WEIGHT_LIMIT`].
    w1: Box<[[i16; H]; I]>,
    /// Hidden biases, scaled by [`QA`], within [`WEIGHT_LIMIT`].
    b1: [i16; H],
    /// Output weights, scaled by [`QB`].
    w2: [i16; H],
    /// Output bias, scaled by `QA × QB`.
    b2: i32,
}

impl<const I: usize, const H: usize> std::fmt::Debug for Network<I, H> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Network({I}x{H}x1)")
    }
}

/// Why a network file could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum NetworkError {
    /// Not a network file of this magic, or another version.
    #[error("not a network file '{magic}' of version {VERSION}")]
    Magic {
        /// The magic expected.
        magic: String,
    },
    /// Another shape than this build's.
    #[error("the network is {inputs}x{hidden}, this build needs {want_inputs}x{want_hidden}")]
    Shape {
        /// Its inputs.
        inputs: u32,
        /// Its hidden units.
        hidden: u32,
        /// The inputs this build needs.
        want_inputs: usize,
        /// The hidden units this build needs.
        want_hidden: usize,
    },
    /// An input weight or hidden bias beyond [`WEIGHT_LIMIT`].
    #[error("an input weight or hidden bias is beyond ±{WEIGHT_LIMIT}")]
    Range,
    /// Too short or too long.
    #[error("the network file has {got} bytes, not {want}")]
    Length {
        /// Its length.
        got: usize,
        /// The length of this shape's file.
        want: usize,
    },
}

impl<const I: usize, const H: usize> Network<I, H> {
    /// The length of a network file of this shape.
    pub const FILE_LEN: usize = 16 + 2 * (I * H + 2 * H) + 4;

    /// Reads a network file of this shape whose first four bytes are `magic` (the module docs
    /// give the format).
    pub fn from_bytes(bytes: &[u8], magic: &[u8; 4]) -> Result<Self, NetworkError> {
        let u32_at = |at: usize| u32::from_le_bytes(bytes[at..at + 4].try_into().expect("4 bytes"));
        if bytes.len() < 16 || &bytes[..4] != magic || u32_at(4) != VERSION {
            return Err(NetworkError::Magic {
                magic: String::from_utf8_lossy(magic).into_owned(),
            });
        }
        let (inputs, hidden) = (u32_at(8), u32_at(12));
        if (inputs as usize, hidden as usize) != (I, H) {
            return Err(NetworkError::Shape {
                inputs,
                hidden,
                want_inputs: I,
                want_hidden: H,
            });
        }
        if bytes.len() != Self::FILE_LEN {
            return Err(NetworkError::Length {
                got: bytes.len(),
                want: Self::FILE_LEN,
            });
        }
        let mut at = 16;
        let mut next = || {
            let v = i16::from_le_bytes([bytes[at], bytes[at + 1]]);
            at += 2;
            v
        };
        let mut w1 = Box::new([[0; H]; I]);
        w1.iter_mut().flatten().for_each(|w| *w = next());
        let b1 = std::array::from_fn(|_| next());
        let w2 = std::array::from_fn(|_| next());
        let b2 = u32_at(Self::FILE_LEN - 4) as i32;
        let within = |w: &i16| i32::from(*w).abs() <= WEIGHT_LIMIT;
        if !w1.iter().flatten().chain(&b1).all(within) {
            return Err(NetworkError::Range);
        }
        Ok(Network { w1, b1, w2, b2 })
    }

    /// The file of this network under `magic` ([`Network::from_bytes`] reads it back).
    pub fn to_bytes(&self, magic: &[u8; 4]) -> Vec<u8> {
        let mut out = Vec::with_capacity(Self::FILE_LEN);
        out.extend_from_slice(magic);
        for x in [VERSION, I as u32, H as u32] {
            out.extend_from_slice(&x.to_le_bytes());
        }
        let mut push = |v: i16| out.extend_from_slice(&v.to_le_bytes());
        self.w1.iter().flatten().for_each(|&w| push(w));
        self.b1.iter().for_each(|&w| push(w));
        self.w2.iter().for_each(|&w| push(w));
        out.extend_from_slice(&self.b2.to_le_bytes());
        out
    }

    /// A network of the float weights a trainer holds (`w1[input][hidden]`, `I` rows),
    /// quantized: each weight rounded to its scale, the input weights and hidden biases clamped
    /// to [`WEIGHT_LIMIT`], the output weights to an `i16`.
    pub fn quantize(w1: &[[f32; H]], b1: &[f32; H], w2: &[f32; H], b2: f32) -> Self {
        assert_eq!(w1.len(), I);
        let q = |x: f32, scale: i32| {
            let limit = if scale == QA { WEIGHT_LIMIT } else { 32767 } as f32;
            (x * scale as f32).round().clamp(-limit, limit) as i16
        };
        let mut qw1 = Box::new([[0; H]; I]);
        for (row, src) in qw1.iter_mut().zip(w1) {
            for (w, &x) in row.iter_mut().zip(src) {
                *w = q(x, QA);
            }
        }
        Network {
            w1: qw1,
            b1: b1.map(|x| q(x, QA)),
            w2: w2.map(|x| q(x, QB)),
            b2: (b2 * (QA * QB) as f32).round() as i32,
        }
    }

    /// The hidden sums before any input: the biases.
    #[inline(always)]
    pub fn start(&self) -> [i16; H] {
        self.b1
    }

    /// Adds input `input`'s weights to the hidden sums `acc`.
    #[inline(always)]
    pub fn add(&self, acc: &mut [i16; H], input: usize) {
        for (a, w) in acc.iter_mut().zip(&self.w1[input]) {
            *a += w;
        }
    }

    /// The output of hidden sums `acc`: the logit times `QA × QB`.
    #[inline(always)]
    pub fn output(&self, acc: &[i16; H]) -> i32 {
        let mut out = 0;
        for (a, w) in acc.iter().zip(&self.w2) {
            out += i32::from((*a).clamp(0, QA as i16)) * i32::from(*w);
        }
        out + self.b2
    }

    /// The output for `position`'s active inputs: the logit times `QA × QB`.
    #[inline]
    pub fn output_of(&self, position: &impl ActiveInputs) -> i32 {
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("avx2") {
            // SAFETY: the processor has AVX2, as just checked.
            return unsafe { self.output_avx2(position) };
        }
        self.output_portable(position)
    }

    /// [`Network::output_of`] compiled for AVX2: 16 hidden sums an instruction instead of 8.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    unsafe fn output_avx2(&self, position: &impl ActiveInputs) -> i32 {
        self.output_portable(position)
    }

    /// The hidden sums of `position`'s active inputs, with the inputs, for
    /// [`Network::output_from`].
    ///
    /// # Panics
    /// If the network has more than 256 inputs.
    #[inline]
    pub fn accumulate(&self, position: &impl ActiveInputs) -> Accumulated<H> {
        assert!(I <= 256, "an input set holds 256 inputs");
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("avx2") {
            // SAFETY: the processor has AVX2, as just checked.
            return unsafe { self.accumulate_avx2(position) };
        }
        self.accumulate_portable(position)
    }

    /// [`Network::accumulate`] compiled for AVX2.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    unsafe fn accumulate_avx2(&self, position: &impl ActiveInputs) -> Accumulated<H> {
        self.accumulate_portable(position)
    }

    #[inline(always)]
    fn accumulate_portable(&self, position: &impl ActiveInputs) -> Accumulated<H> {
        let none = Accumulated {
            set: InputSet::default(),
            sums: self.start(),
        };
        self.sums_from(&none, position)
    }

    /// The output for `position`'s active inputs, from the sums of another position's (`base`):
    /// the inputs `base` lacks are added, those `position` lacks removed. The same as
    /// [`Network::output_of`], faster when the two differ in fewer inputs than `position` has.
    #[inline]
    pub fn output_from(&self, base: &Accumulated<H>, position: &impl ActiveInputs) -> i32 {
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("avx2") {
            // SAFETY: the processor has AVX2, as just checked.
            return unsafe { self.output_from_avx2(base, position) };
        }
        self.output_from_portable(base, position)
    }

    /// [`Network::output_from`] compiled for AVX2.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    unsafe fn output_from_avx2(&self, base: &Accumulated<H>, position: &impl ActiveInputs) -> i32 {
        self.output_from_portable(base, position)
    }

    #[inline(always)]
    fn output_from_portable(&self, base: &Accumulated<H>, position: &impl ActiveInputs) -> i32 {
        self.output(&self.sums_from(base, position).sums)
    }

    /// The sums of `position`'s active inputs from those of `base`: the inputs `base` lacks
    /// added, those `position` lacks removed.
    #[inline(always)]
    fn sums_from(&self, base: &Accumulated<H>, position: &impl ActiveInputs) -> Accumulated<H> {
        let mut set = InputSet::default();
        position.for_each_active(&mut set);
        let mut acc = base.sums;
        // Removed first: every partial sum is then the bias and a subset of one position's
        // inputs, so it fits an `i16` as the whole sums do.
        for (w, (&old, &new)) in base.set.0.iter().zip(&set.0).enumerate() {
            let mut gone = old & !new;
            while gone != 0 {
                let row = &self.w1[64 * w + gone.trailing_zeros() as usize];
                for (a, x) in acc.iter_mut().zip(row) {
                    *a -= x;
                }
                gone &= gone - 1;
            }
        }
        for (w, (&old, &new)) in base.set.0.iter().zip(&set.0).enumerate() {
            let mut came = new & !old;
            while came != 0 {
                self.add(&mut acc, 64 * w + came.trailing_zeros() as usize);
                came &= came - 1;
            }
        }
        Accumulated { set, sums: acc }
    }

    #[inline(always)]
    fn output_portable(&self, position: &impl ActiveInputs) -> i32 {
        let mut sums = Sums {
            net: self,
            acc: self.start(),
        };
        position.for_each_active(&mut sums);
        self.output(&sums.acc)
    }

    /// The logit of the inputs `active` computed in floats from the quantized weights, with no
    /// integer rounding but the weights' own: the reference the tests hold the integer path to.
    pub fn logit_float(&self, active: &[u16]) -> f32 {
        let mut logit = self.b2 as f32 / (QA * QB) as f32;
        for h in 0..H {
            let mut x = f32::from(self.b1[h]) / QA as f32;
            for &i in active {
                x += f32::from(self.w1[i as usize][h]) / QA as f32;
            }
            logit += x.clamp(0.0, 1.0) * (f32::from(self.w2[h]) / QB as f32);
        }
        logit
    }
}

/// What the games' network tests share.
#[cfg(test)]
pub(crate) mod testing {
    use super::Network;

    /// Checks a built-in network file: its length, its checksum (`crate::retro::file::Checksum`,
    /// as the trainers print it), and that it reads back and writes again the same.
    pub(crate) fn check_built_in<const I: usize, const H: usize>(
        file: &[u8],
        magic: &[u8; 4],
        checksum: &str,
    ) {
        assert_eq!(file.len(), Network::<I, H>::FILE_LEN);
        let mut sum = crate::retro::file::Checksum::default();
        sum.update(file);
        assert_eq!(format!("{:016x}", sum.finish()), checksum);
        let net = Network::<I, H>::from_bytes(file, magic).expect("a valid network");
        assert_eq!(net.to_bytes(magic), file);
    }

    /// The integer inference `int` of each of `positions` against the float reference `float`
    /// (the logit in the evaluation's unit, clamped as the evaluation is): within 1, and the
    /// truncation differing on fewer than 10 positions.
    pub(crate) fn integer_matches_float<P: std::fmt::Debug>(
        positions: &[P],
        int: impl Fn(&P) -> i32,
        float: impl Fn(&P) -> f32,
    ) {
        let mut differ = 0;
        for pos in positions {
            let (int, float) = (int(pos), float(pos));
            assert!(
                (int as f32 - float).abs() < 1.0,
                "{pos:?}: {int} against {float}"
            );
            differ += usize::from(int != float.trunc() as i32);
        }
        assert!(differ < 10, "{differ} truncations differ");
    }

    /// A thread's cache of evaluations (`cached`) returns what the network computes
    /// (`direct`), also for positions that share an entry and when asked again.
    pub(crate) fn cache_matches<P: std::fmt::Debug>(
        positions: &[P],
        cached: impl Fn(&P) -> i32,
        direct: impl Fn(&P) -> i32,
    ) {
        for _ in 0..2 {
            for pos in positions {
                assert_eq!(cached(pos), direct(pos), "{pos:?}");
            }
        }
    }

    /// How a network and the linear evaluation do on held-out positions of known result.
    #[derive(Debug)]
    pub(crate) struct Holdout {
        /// The positions.
        pub n: usize,
        /// The (won, lost) pairs: each won position with the next lost one, in order.
        pub pairs: usize,
        /// The share of the pairs the network ranks right (ties count half).
        pub net: f64,
        /// The same for the linear evaluation.
        pub linear: f64,
        /// The summed squared error of `sigmoid(K × network evaluation)` against the result.
        pub net_error: f64,
        /// The same for the linear evaluation.
        pub linear_error: f64,
    }

    /// The figures of `positions`, each the network's evaluation, the linear one and the
    /// result for the mover (1, 1/2 or 0), with `k` the logit per unit of evaluation.
    pub(crate) fn holdout(positions: impl IntoIterator<Item = (i32, i32, f64)>, k: f32) -> Holdout {
        let (mut won, mut lost) = (Vec::new(), Vec::new());
        let (mut net_error, mut linear_error, mut n) = (0.0, 0.0, 0);
        let p = |eval: i32| 1.0 / (1.0 + (-f64::from(k) * f64::from(eval)).exp());
        for (net, lin, target) in positions {
            net_error += (p(net) - target) * (p(net) - target);
            linear_error += (p(lin) - target) * (p(lin) - target);
            n += 1;
            if target == 1.0 {
                won.push((net, lin));
            } else if target == 0.0 {
                lost.push((net, lin));
            }
        }
        let pairs = won.len().min(lost.len());
        let share = |pick: fn(&(i32, i32)) -> i32| {
            let right: f64 = won
                .iter()
                .zip(&lost)
                .map(|(w, l)| match pick(w).cmp(&pick(l)) {
                    std::cmp::Ordering::Greater => 1.0,
                    std::cmp::Ordering::Equal => 0.5,
                    std::cmp::Ordering::Less => 0.0,
                })
                .sum();
            right / pairs as f64
        };
        Holdout {
            n,
            pairs,
            net: share(|x| x.0),
            linear: share(|x| x.1),
            net_error,
            linear_error,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A position given as its list of active inputs.
    struct Listed<'a>(&'a [usize]);

    impl ActiveInputs for Listed<'_> {
        fn for_each_active(&self, sink: &mut impl InputSink) {
            self.0.iter().for_each(|&i| sink.add(i));
        }
    }

    /// A 3x2 network worked out by hand: hidden unit 0 sums inputs 0 and 2 (0.5 + 0.75, clipped
    /// to 1.0), unit 1 gets -0.25 (clipped to 0); output weight 1.5 (96/64) on unit 0 and the
    /// bias 0.25: the logit is 1.75, times QA × QB.
    #[test]
    fn a_hand_made_network_gives_its_hand_worked_output() {
        let w1 = [[0.5, -0.25], [9.0, 9.0], [0.75, 0.0]];
        let net = Network::<3, 2>::quantize(&w1, &[0.0; 2], &[1.5, 3.0], 0.25);
        let mut acc = net.start();
        net.add(&mut acc, 0);
        net.add(&mut acc, 2);
        assert_eq!(acc, [128 + 191, -64]);
        assert_eq!(net.output(&acc), QA * 96 + QA * QB / 4);
        assert_eq!(net.output_of(&Listed(&[2, 0])), QA * 96 + QA * QB / 4);
        assert_eq!(net.output_of(&Listed(&[])), QA * QB / 4);
        assert_eq!(net.logit_float(&[0, 2]), 1.75);
        // Input 1's weights were clamped to the limit.
        let bytes = net.to_bytes(b"TEST");
        assert_eq!(bytes.len(), Network::<3, 2>::FILE_LEN);
        let back = Network::<3, 2>::from_bytes(&bytes, b"TEST").expect("reads back");
        assert_eq!(back, net);
        assert_eq!(back.w1[1], [WEIGHT_LIMIT as i16; 2]);
    }

    /// Sums kept with their inputs give another set's output by its difference: the
    /// hand-made network's sums of inputs {0, 1} turned into those of {0, 2} (input 1's weights
    /// at the limit removed, input 2's added), of {} and of {1}.
    #[test]
    fn an_output_from_other_sums_is_the_outputs_own() {
        let w1 = [[0.5, -0.25], [9.0, 9.0], [0.75, 0.0]];
        let net = Network::<3, 2>::quantize(&w1, &[0.0; 2], &[1.5, 3.0], 0.25);
        let base = net.accumulate(&Listed(&[1, 0]));
        assert_eq!(base.sums, [128 + 510, -64 + 510]);
        assert_eq!(base.set, InputSet([0b11, 0, 0, 0]));
        for inputs in [&[0, 2][..], &[], &[1]] {
            let alone = net.output_of(&Listed(inputs));
            assert_eq!(net.output_from(&base, &Listed(inputs)), alone, "{inputs:?}");
        }
        assert_eq!(
            net.output_from(&base, &Listed(&[0, 2])),
            QA * 96 + QA * QB / 4
        );
    }

    /// An input set takes groups of inputs across its words' edges.
    #[test]
    fn an_input_set_takes_groups_across_words() {
        let mut set = InputSet::default();
        set.add_group(60, 0b1_0001_0001);
        set.add(255);
        set.add_group(0, 0b101);
        assert_eq!(set, InputSet([1 << 60 | 0b101, 1 | 1 << 4, 0, 1 << 63]));
        // A group at the last word's edge keeps its bits up to input 255.
        set.add_group(250, 0b11_1111_1111);
        assert_eq!(set.0[3], 1 << 63 | 0b11_1111 << 58);
    }

    /// Every malformed file is an error naming what is wrong.
    #[test]
    fn malformed_files_are_refused() {
        let net = Network::<3, 2>::quantize(&[[0.0; 2]; 3], &[0.0; 2], &[0.0; 2], 0.0);
        let bytes = net.to_bytes(b"TEST");
        assert!(matches!(
            Network::<3, 2>::from_bytes(&bytes, b"OTHR"),
            Err(NetworkError::Magic { .. })
        ));
        assert!(matches!(
            Network::<4, 2>::from_bytes(&bytes, b"TEST"),
            Err(NetworkError::Shape { inputs: 3, .. })
        ));
        assert!(matches!(
            Network::<3, 2>::from_bytes(&bytes[..20], b"TEST"),
            Err(NetworkError::Length { got: 20, .. })
        ));
        assert!(matches!(
            Network::<3, 2>::from_bytes(&bytes[..10], b"TEST"),
            Err(NetworkError::Magic { .. })
        ));
        let mut bad = bytes.clone();
        bad[16..18].copy_from_slice(&(WEIGHT_LIMIT as i16 + 1).to_le_bytes());
        assert_eq!(
            Network::<3, 2>::from_bytes(&bad, b"TEST"),
            Err(NetworkError::Range)
        );
    }
}
