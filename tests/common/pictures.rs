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

/// A TIFF separation from Ghostscript's `tiffsep`: width, height and 8-bit samples
/// (uncompressed, one or more strips).
pub fn read_tiff_plate(path: &Path) -> (u32, u32, Vec<u8>) {
    let b = std::fs::read(path).unwrap();
    let le = &b[..2] == b"II";
    let u16_at = |o: usize| {
        let v = [b[o], b[o + 1]];
        if le {
            u16::from_le_bytes(v)
        } else {
            u16::from_be_bytes(v)
        }
    };
    let u32_at = |o: usize| {
        let v = [b[o], b[o + 1], b[o + 2], b[o + 3]];
        if le {
            u32::from_le_bytes(v)
        } else {
            u32::from_be_bytes(v)
        }
    };
    let ifd = u32_at(4) as usize;
    let (mut w, mut h, mut offsets, mut counts) = (0, 0, Vec::new(), Vec::new());
    for i in 0..u16_at(ifd) as usize {
        let e = ifd + 2 + 12 * i;
        let (tag, kind, n) = (u16_at(e), u16_at(e + 2), u32_at(e + 4) as usize);
        let value = |k: usize| -> u32 {
            let size = if kind == 3 { 2 } else { 4 };
            let base = if n * size <= 4 {
                e + 8
            } else {
                u32_at(e + 8) as usize
            };
            if kind == 3 {
                u32::from(u16_at(base + 2 * k))
            } else {
                u32_at(base + 4 * k)
            }
        };
        match tag {
            256 => w = value(0),
            257 => h = value(0),
            259 => assert_eq!(value(0), 1, "uncompressed"),
            258 => assert_eq!(value(0), 8, "8 bits a sample"),
            273 => offsets = (0..n).map(value).collect(),
            279 => counts = (0..n).map(value).collect(),
            _ => {}
        }
    }
    let data: Vec<u8> = offsets
        .iter()
        .zip(&counts)
        .flat_map(|(&o, &c)| b[o as usize..(o + c) as usize].iter().copied())
        .collect();
    assert_eq!(data.len(), (w * h) as usize, "{}", path.display());
    (w, h, data)
}

/// The four plates Ghostscript's `tiffsep` device separates each page of `pdf` into, at
/// `dpi`: per page, cyan, magenta, yellow and black, 0 full ink to 255 none.
pub fn plates(pdf: &Path, dpi: u32) -> Vec<[(u32, u32, Vec<u8>); 4]> {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("page%d.tif");
    let status = std::process::Command::new("gs")
        .args(["-q", "-dNOPAUSE", "-dBATCH", "-dSAFER", "-sDEVICE=tiffsep"])
        .arg(format!("-r{dpi}"))
        .arg("-sCompression=none")
        .arg(format!("-sOutputFile={}", out.display()))
        .arg(pdf)
        .status()
        .unwrap();
    assert!(status.success(), "gs on {}", pdf.display());
    (1..)
        .map_while(|n| {
            let plate = |ink: &str| dir.path().join(format!("page{n}({ink}).tif"));
            plate("Cyan").exists().then(|| {
                ["Cyan", "Magenta", "Yellow", "Black"].map(|ink| read_tiff_plate(&plate(ink)))
            })
        })
        .collect()
}

/// The book's pictures of a game's table, `docs/src/images/<book>-<width>-<scheme>.png` (1280
/// and 390 px wide, light and dark), are the ones a test took into `shots` as
/// `<taken>-<width>-<scheme>.png`: a committed picture that no longer matches fails the test;
/// with `PRINTPLAY_UPDATE_SCREENSHOTS=1` the new ones are written in their place, to be looked
/// at and committed.
#[allow(dead_code)]
pub fn book_pictures(shots: &Path, taken: &str, book: &str) {
    pictures_for_book(shots, taken, book, true);
}

/// [`book_pictures`] for pictures of a game a bot plays in too, which a bot's timing can take
/// a move earlier or later: written in the book with `PRINTPLAY_UPDATE_SCREENSHOTS=1`, never
/// compared.
#[allow(dead_code)]
pub fn book_pictures_of_a_moving_game(shots: &Path, taken: &str, book: &str) {
    pictures_for_book(shots, taken, book, false);
}

fn pictures_for_book(shots: &Path, taken: &str, book: &str, compare: bool) {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/src/images");
    let update = std::env::var_os("PRINTPLAY_UPDATE_SCREENSHOTS").is_some();
    if !compare && !update {
        return;
    }
    let mut stale = Vec::new();
    for w in [1280, 390] {
        for scheme in ["light", "dark"] {
            let new = shots.join(format!("{taken}-{w}-{scheme}.png"));
            assert!(new.is_file(), "no picture {}", new.display());
            let name = format!("{book}-{w}-{scheme}.png");
            let old = dir.join(&name);
            let d = difference(&new, &old);
            // Anti-aliasing and font hinting differ a little between machines; a changed
            // layout, colour or text moves far more than 2 % of the image.
            if d > 0.02 {
                if update {
                    std::fs::copy(&new, &old).unwrap();
                }
                stale.push(format!("{name} (difference {:.1} %)", d * 100.0));
            }
        }
    }
    assert!(
        update || stale.is_empty(),
        "pictures of the table in the book no longer match the page; run with PRINTPLAY_UPDATE_SCREENSHOTS=1, look at them and commit them: {stale:?}"
    );
}
