//! Comparing a picture a test made with the one committed in the book.

use std::path::Path;

/// The RGB pixels of a PNG file, with its size.
fn rgb(path: &Path) -> Option<(u32, u32, Vec<u8>)> {
    let decoder = png::Decoder::new(std::io::BufReader::new(std::fs::File::open(path).ok()?));
    let mut reader = decoder.read_info().ok()?;
    let mut buf = vec![0; reader.output_buffer_size()?];
    let info = reader.next_frame(&mut buf).ok()?;
    let channels = info.color_type.samples();
    let px: Vec<u8> = buf[..info.buffer_size()]
        .chunks(channels)
        .flat_map(|c| match channels {
            1 | 2 => [c[0], c[0], c[0]],
            _ => [c[0], c[1], c[2]],
        })
        .collect();
    Some((info.width, info.height, px))
}

/// Mean absolute difference of two images of one size, from 0 to 1 (1 when sizes differ or
/// one is missing).
pub fn difference(a: &Path, b: &Path) -> f64 {
    match (rgb(a), rgb(b)) {
        (Some((wa, ha, pa)), Some((wb, hb, pb))) if (wa, ha) == (wb, hb) => {
            let sum: u64 = pa
                .iter()
                .zip(&pb)
                .map(|(x, y)| u64::from(x.abs_diff(*y)))
                .sum();
            sum as f64 / (pa.len() as f64 * 255.0)
        }
        _ => 1.0,
    }
}
