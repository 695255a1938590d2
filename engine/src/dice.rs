//! Dice: a seeded, portable random stream, or a scripted list.
//!
//! The stream is ChaCha8 seeded from a splitmix64 of the match seed; a die is drawn with
//! Lemire's method written here, so no change in the `rand` family's distributions can
//! change a recorded match.

use rand_chacha::ChaCha8Rng;
use rand_core::{Rng, SeedableRng};

/// Where dice come from.
pub trait DiceSource {
    /// One die with `sides` sides, for the roll named `label`. `Err` carries a message
    /// when no die can be given (a scripted list ran out).
    fn roll(&mut self, sides: u8, label: &str) -> Result<u8, String>;
}

/// splitmix64, to spread a seed over the generator's key.
pub fn splitmix64(mut x: u64) -> u64 {
    x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = x;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// A portable random stream.
#[derive(Clone, Debug)]
pub struct Stream {
    rng: ChaCha8Rng,
}

impl Stream {
    /// The stream for a seed and a purpose (dice, home agent, away agent...).
    pub fn new(seed: u64, stream: u64) -> Self {
        let mut key = [0u8; 32];
        let mut x = seed;
        for chunk in key.chunks_mut(8) {
            x = splitmix64(x);
            chunk.copy_from_slice(&x.to_le_bytes());
        }
        let mut rng = ChaCha8Rng::from_seed(key);
        rng.set_stream(stream);
        Stream { rng }
    }

    /// A uniform integer in `0..n` (Lemire's nearly divisionless method). `n` must be > 0.
    pub fn below(&mut self, n: u32) -> u32 {
        let n = n.max(1);
        let mut m = u64::from(self.rng.next_u32()) * u64::from(n);
        let mut low = m as u32;
        if low < n {
            let threshold = n.wrapping_neg() % n;
            while low < threshold {
                m = u64::from(self.rng.next_u32()) * u64::from(n);
                low = m as u32;
            }
        }
        (m >> 32) as u32
    }
}

/// Dice from a seeded stream.
#[derive(Clone, Debug)]
pub struct SeededDice(pub Stream);

impl SeededDice {
    /// Dice for a match seed.
    pub fn new(seed: u64) -> Self {
        SeededDice(Stream::new(seed, 0))
    }
}

impl DiceSource for SeededDice {
    fn roll(&mut self, sides: u8, _label: &str) -> Result<u8, String> {
        Ok(self.0.below(u32::from(sides)) as u8 + 1)
    }
}

/// Dice from a list, consumed in order (scenarios, tests).
#[derive(Clone, Debug, Default)]
pub struct ScriptedDice {
    /// The dice still to come.
    pub list: std::collections::VecDeque<u8>,
    /// How many were used.
    pub used: usize,
}

impl ScriptedDice {
    /// A script of dice.
    pub fn new(list: impl IntoIterator<Item = u8>) -> Self {
        ScriptedDice {
            list: list.into_iter().collect(),
            used: 0,
        }
    }
}

impl DiceSource for ScriptedDice {
    fn roll(&mut self, sides: u8, label: &str) -> Result<u8, String> {
        match self.list.pop_front() {
            Some(d) if d >= 1 && d <= sides => {
                self.used += 1;
                Ok(d)
            }
            Some(d) => Err(format!(
                "scripted die {} is {d}, but the roll \"{label}\" uses a d{sides}",
                self.used + 1
            )),
            None => Err(format!(
                "the scripted dice ran out after {} dice: the roll \"{label}\" asked for one more",
                self.used
            )),
        }
    }
}
