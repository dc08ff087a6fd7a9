//! Colour vision: how a colour looks to a reader with one of the three dichromacies, how far
//! apart two colours look (CIEDE2000, with the `palette` crate), and the contrast of two
//! colours (WCAG 2). The proof sheet draws whole faces through the same matrices.
//!
//! The simulation is Machado, Oliveira and Fernandes, "A Physiologically-based Model for
//! Simulation of Color Vision Deficiency", IEEE Transactions on Visualization and Computer
//! Graphics 15(6), 2009, pp. 1291-1298: one 3x3 matrix per deficiency at severity 1.0 (the
//! paper's published table), applied to linear RGB.

use palette::color_difference::Ciede2000;
use palette::{FromColor, Lab, LinSrgb, Srgb};

/// A dichromacy: one kind of cone missing.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Vision {
    /// No green (M) cones: the most common (about 1 in 100 men).
    Deuteranopia,
    /// No red (L) cones.
    Protanopia,
    /// No blue (S) cones: rare, confuses blue with green and yellow with violet.
    Tritanopia,
}

impl Vision {
    /// All three, in the order messages and the proof name them.
    pub const ALL: [Vision; 3] = [Vision::Deuteranopia, Vision::Protanopia, Vision::Tritanopia];

    pub fn name(self) -> &'static str {
        match self {
            Vision::Deuteranopia => "deuteranopia",
            Vision::Protanopia => "protanopia",
            Vision::Tritanopia => "tritanopia",
        }
    }

    /// Machado et al. (2009), severity 1.0, rows of the matrix applied to linear (R, G, B).
    pub fn matrix(self) -> [[f64; 3]; 3] {
        match self {
            Vision::Protanopia => [
                [0.152286, 1.052583, -0.204868],
                [0.114503, 0.786281, 0.099216],
                [-0.003882, -0.048116, 1.051998],
            ],
            Vision::Deuteranopia => [
                [0.367322, 0.860646, -0.227968],
                [0.280085, 0.672501, 0.047413],
                [-0.011820, 0.042940, 0.968881],
            ],
            Vision::Tritanopia => [
                [1.255528, -0.076749, -0.178779],
                [-0.078411, 0.930809, 0.147602],
                [0.004733, 0.691367, 0.303900],
            ],
        }
    }

    /// `colour` as this reader sees it.
    pub fn simulate(self, colour: Srgb<f64>) -> Srgb<f64> {
        let lin: LinSrgb<f64> = colour.into_linear();
        let m = self.matrix();
        let v = [lin.red, lin.green, lin.blue];
        let out = |r: [f64; 3]| (r[0] * v[0] + r[1] * v[1] + r[2] * v[2]).clamp(0.0, 1.0);
        Srgb::from_linear(LinSrgb::new(out(m[0]), out(m[1]), out(m[2])))
    }
}

/// `#rrggbb` as an sRGB colour; `None` for anything else.
pub fn parse_hex(colour: &str) -> Option<Srgb<f64>> {
    let hex = colour.strip_prefix('#')?;
    if hex.len() != 6 || !hex.is_ascii() {
        return None;
    }
    let channel = |i: usize| -> Option<f64> {
        Some(f64::from(u8::from_str_radix(&hex[i..i + 2], 16).ok()?) / 255.0)
    };
    Some(Srgb::new(channel(0)?, channel(2)?, channel(4)?))
}

/// CIEDE2000 colour difference of two sRGB colours (D65): about 1 is the least difference
/// an eye sees side by side; categories read at a glance need several times that.
pub fn delta_e(a: Srgb<f64>, b: Srgb<f64>) -> f64 {
    let lab = |c: Srgb<f64>| Lab::from_color(c.into_linear());
    lab(a).difference(lab(b))
}

/// WCAG 2 contrast ratio (1 to 21) of two sRGB colours.
pub fn contrast(a: Srgb<f64>, b: Srgb<f64>) -> f64 {
    let y = |c: Srgb<f64>| {
        let l: LinSrgb<f64> = c.into_linear();
        0.2126 * l.red + 0.7152 * l.green + 0.0722 * l.blue
    };
    let (x, z) = (y(a), y(b));
    (x.max(z) + 0.05) / (x.min(z) + 0.05)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hex(s: &str) -> Srgb<f64> {
        parse_hex(s).unwrap()
    }

    #[test]
    fn each_matrix_keeps_white_and_black_and_greys() {
        // Every row of a Machado matrix sums to 1: neutral greys stay neutral.
        for v in Vision::ALL {
            for row in v.matrix() {
                assert!((row.iter().sum::<f64>() - 1.0).abs() < 1e-5, "{v:?}");
            }
            for g in ["#000000", "#808080", "#ffffff"] {
                assert!(delta_e(v.simulate(hex(g)), hex(g)) < 0.1, "{v:?} {g}");
            }
        }
    }

    #[test]
    fn red_and_green_collapse_for_deuteranopes_but_not_for_tritanopes() {
        // A pure red and a green of like lightness: far apart to most eyes, close to a
        // deuteranope's, still apart to a tritanope's.
        let (red, green) = (hex("#c0392b"), hex("#6b7d1a"));
        assert!(delta_e(red, green) > 30.0);
        let d = Vision::Deuteranopia;
        assert!(delta_e(d.simulate(red), d.simulate(green)) < 10.0);
        let t = Vision::Tritanopia;
        assert!(delta_e(t.simulate(red), t.simulate(green)) > 20.0);
        // Blue and green keep apart for red-green deficiencies.
        let blue = hex("#2f6db5");
        assert!(delta_e(d.simulate(blue), d.simulate(green)) > 20.0);
    }

    #[test]
    fn contrast_is_wcag() {
        assert!((contrast(hex("#ffffff"), hex("#000000")) - 21.0).abs() < 1e-9);
        assert!((contrast(hex("#777777"), hex("#ffffff")) - 4.48).abs() < 0.01);
    }
}
