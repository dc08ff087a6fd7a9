//! The images of a CMYK PDF: every image krilla writes for the art a game can hold is
//! separated or kept, none refused.
//!
//! - RGB images (PNG of 1 to 16 bits a sample, WebP, RGB JPEG, with or without their own ICC
//!   profile) are separated pixel by pixel through their own profile, else as sRGB, into
//!   8-bit CMYK (Flate); a JPEG is decoded for it.
//! - CMYK images (a CMYK JPEG, with or without its own profile) keep the ink they hold: the
//!   designer separated them for print, so their numbers go to the press as they are
//!   (DeviceCMYK), as prepress's "preserve CMYK numbers" does.
//! - Indexed RGB images get a CMYK palette; grey images and soft masks stay grey, which a
//!   CMYK press prints with black ink.

use std::collections::BTreeSet;
use std::io::Cursor;

use lcms2::{ColorSpaceSignature, Flags, Intent, PixelFormat, Profile, Transform};
use lopdf::{Document, Object, ObjectId, Stream};

use super::Separation;

/// How an image stores its colours, as far as separation cares.
#[derive(Debug, Clone)]
pub(super) enum Space {
    /// RGB, with its own ICC profile when it has one.
    Rgb(Option<Vec<u8>>),
    /// CMYK ink; `true` when named through an ICC profile (made DeviceCMYK).
    Cmyk(bool),
    /// Grey (device or ICC): left as it is.
    Gray,
    /// A palette over an RGB base: `hival` and the base's colour of each index.
    Indexed {
        base: Option<Vec<u8>>,
        hival: i64,
        lookup: Vec<u8>,
    },
    /// Anything else, by its name.
    Other(String),
}

/// The object an operand names, references followed.
fn resolved<'a>(doc: &'a Document, o: &'a Object) -> Result<&'a Object, String> {
    match o {
        Object::Reference(id) => doc.get_object(*id).map_err(|e| e.to_string()),
        other => Ok(other),
    }
}

fn stream_bytes(s: &Stream) -> Vec<u8> {
    if s.dict.get(b"Filter").is_ok() {
        s.decompressed_content()
            .unwrap_or_else(|_| s.content.clone())
    } else {
        s.content.clone()
    }
}

/// Reads an image's colour space.
pub(super) fn space_of(doc: &Document, o: &Object) -> Result<Space, String> {
    match resolved(doc, o)? {
        Object::Name(n) => Ok(match n.as_slice() {
            b"DeviceRGB" => Space::Rgb(None),
            b"DeviceCMYK" => Space::Cmyk(false),
            b"DeviceGray" => Space::Gray,
            other => Space::Other(String::from_utf8_lossy(other).into_owned()),
        }),
        Object::Array(a) => {
            let name = match a.first().map(|o| resolved(doc, o)) {
                Some(Ok(Object::Name(n))) => n.clone(),
                _ => return Err("a colour space array without a name".into()),
            };
            match name.as_slice() {
                b"ICCBased" => {
                    let stream = a
                        .get(1)
                        .map(|o| resolved(doc, o))
                        .ok_or("ICCBased without a profile")??
                        .as_stream()
                        .map_err(|e| e.to_string())?;
                    let n = stream.dict.get(b"N").and_then(Object::as_i64).unwrap_or(0);
                    Ok(match n {
                        1 => Space::Gray,
                        3 => Space::Rgb(Some(stream_bytes(stream))),
                        4 => Space::Cmyk(true),
                        _ => Space::Other(format!("ICCBased with {n} components")),
                    })
                }
                b"Indexed" => {
                    let base = space_of(doc, a.get(1).ok_or("Indexed without a base")?)?;
                    let hival = a
                        .get(2)
                        .map(|o| resolved(doc, o))
                        .ok_or("Indexed without hival")??
                        .as_i64()
                        .map_err(|e| e.to_string())?;
                    let lookup = match a.get(3).map(|o| resolved(doc, o)) {
                        Some(Ok(Object::String(s, _))) => s.clone(),
                        Some(Ok(Object::Stream(s))) => stream_bytes(s),
                        _ => return Err("Indexed without a palette".into()),
                    };
                    Ok(match base {
                        Space::Rgb(icc) => Space::Indexed {
                            base: icc,
                            hival,
                            lookup,
                        },
                        Space::Cmyk(_) | Space::Gray => Space::Gray,
                        Space::Indexed { .. } => Space::Other("Indexed over Indexed".into()),
                        Space::Other(n) => Space::Other(format!("Indexed over {n}")),
                    })
                }
                other => Ok(Space::Other(String::from_utf8_lossy(other).into_owned())),
            }
        }
        other => Err(format!("an image colour space is {other:?}")),
    }
}

/// Every image of the document to separate or keep, with its colour space: image
/// XObjects that are no soft mask and no stencil mask.
pub(super) fn images(doc: &Document) -> Result<Vec<(ObjectId, Space)>, String> {
    let masks: BTreeSet<ObjectId> = doc
        .objects
        .values()
        .filter_map(|o| o.as_stream().ok())
        .filter_map(|s| s.dict.get(b"SMask").ok()?.as_reference().ok())
        .collect();
    let mut out = Vec::new();
    for (&id, object) in &doc.objects {
        let Object::Stream(s) = object else { continue };
        if !super::is(&s.dict, b"Subtype", b"Image")
            || masks.contains(&id)
            || matches!(s.dict.get(b"ImageMask"), Ok(Object::Boolean(true)))
        {
            continue;
        }
        let space = match s.dict.get(b"ColorSpace") {
            Ok(cs) => space_of(doc, cs)?,
            // A JPEG 2000 image names its space in its data; krilla writes none.
            Err(_) => Space::Other("none".into()),
        };
        out.push((id, space));
    }
    Ok(out)
}

/// Separates or keeps one image, as the module says.
pub(super) fn convert(image: &mut Stream, space: &Space, sep: &Separation) -> Result<(), String> {
    match space {
        Space::Gray | Space::Cmyk(false) => Ok(()),
        Space::Cmyk(true) => {
            image
                .dict
                .set("ColorSpace", Object::Name(b"DeviceCMYK".to_vec()));
            Ok(())
        }
        Space::Rgb(icc) => {
            let rgb = rgb_pixels(image)?;
            let cmyk = sep.separate_from(icc.as_deref(), &rgb)?;
            let bytes: Vec<u8> = cmyk
                .iter()
                .flat_map(|p| p.map(|v| (v / 257) as u8))
                .collect();
            image.dict.remove(b"Filter");
            image.dict.remove(b"DecodeParms");
            image.dict.remove(b"Decode");
            image.dict.set("BitsPerComponent", 8);
            image
                .dict
                .set("ColorSpace", Object::Name(b"DeviceCMYK".to_vec()));
            image.set_plain_content(bytes);
            image.compress().map_err(|e| format!("image: {e}"))
        }
        Space::Indexed {
            base,
            hival,
            lookup,
        } => {
            let entries = usize::try_from(*hival + 1).map_err(|_| "a palette of no colours")?;
            if lookup.len() < entries * 3 {
                return Err("a palette shorter than its colours".into());
            }
            let rgb: Vec<[u16; 3]> = lookup[..entries * 3]
                .chunks_exact(3)
                .map(|c| [c[0], c[1], c[2]].map(|v| u16::from(v) * 257))
                .collect();
            let cmyk = sep.separate_from(base.as_deref(), &rgb)?;
            let table: Vec<u8> = cmyk
                .iter()
                .flat_map(|p| p.map(|v| (v / 257) as u8))
                .collect();
            image.dict.set(
                "ColorSpace",
                Object::Array(vec![
                    Object::Name(b"Indexed".to_vec()),
                    Object::Name(b"DeviceCMYK".to_vec()),
                    Object::Integer(*hival),
                    Object::string_literal(table),
                ]),
            );
            Ok(())
        }
        Space::Other(name) => Err(format!(
            "an image in the colour space `{name}` cannot be separated into CMYK"
        )),
    }
}

/// The filters of a stream, in order.
fn filters(s: &Stream) -> Vec<Vec<u8>> {
    match s.dict.get(b"Filter") {
        Ok(Object::Name(n)) => vec![n.clone()],
        Ok(Object::Array(a)) => a
            .iter()
            .filter_map(|o| o.as_name().ok().map(<[u8]>::to_vec))
            .collect(),
        _ => Vec::new(),
    }
}

/// An RGB image's pixels at 16 bits a sample, whatever its depth and compression.
fn rgb_pixels(image: &Stream) -> Result<Vec<[u16; 3]>, String> {
    let dim = |key: &[u8]| {
        image
            .dict
            .get(key)
            .and_then(Object::as_i64)
            .ok()
            .and_then(|v| usize::try_from(v).ok())
            .ok_or_else(|| format!("an image without its {}", String::from_utf8_lossy(key)))
    };
    let (w, h) = (dim(b"Width")?, dim(b"Height")?);
    let pixels = w.checked_mul(h).ok_or("an image too large to separate")?;
    if filters(image).iter().any(|f| f == b"DCTDecode") {
        if filters(image) != [b"DCTDecode".to_vec()] {
            return Err("a JPEG image under another filter".into());
        }
        return jpeg_rgb(&image.content, pixels);
    }
    let bits = dim(b"BitsPerComponent")?;
    let bytes = if filters(image).is_empty() {
        image.content.clone()
    } else {
        image
            .decompressed_content()
            .map_err(|e| format!("image: {e}"))?
    };
    let samples = unpack(&bytes, w * 3, h, bits)?;
    Ok(samples
        .chunks_exact(3)
        .map(|p| [p[0], p[1], p[2]])
        .collect())
}

/// Samples of `bits` bits (1, 2, 4, 8 or 16), rows of `per_row` samples each starting on a
/// byte, as 16-bit values.
fn unpack(bytes: &[u8], per_row: usize, rows: usize, bits: usize) -> Result<Vec<u16>, String> {
    let row_bytes = (per_row * bits).div_ceil(8);
    if !matches!(bits, 1 | 2 | 4 | 8 | 16) {
        return Err(format!("an image of {bits} bits a sample"));
    }
    if bytes.len() < row_bytes * rows {
        return Err(format!(
            "an image of {} bytes where {} are needed",
            bytes.len(),
            row_bytes * rows
        ));
    }
    let max = (1u32 << bits) - 1;
    let mut out = Vec::with_capacity(per_row * rows);
    for row in bytes.chunks_exact(row_bytes).take(rows) {
        match bits {
            16 => out.extend(
                row.chunks_exact(2)
                    .map(|b| u16::from_be_bytes([b[0], b[1]])),
            ),
            8 => out.extend(row.iter().map(|&v| u16::from(v) * 257)),
            _ => out.extend((0..per_row).map(|i| {
                let bit = i * bits;
                let v = (u32::from(row[bit / 8]) >> (8 - bits - bit % 8)) & max;
                (v * 65535 / max) as u16
            })),
        }
    }
    Ok(out)
}

/// A JPEG's pixels in RGB (a grey JPEG's grey in all three), 16 bits a sample.
fn jpeg_rgb(bytes: &[u8], pixels: usize) -> Result<Vec<[u16; 3]>, String> {
    use zune_jpeg::zune_core::colorspace::ColorSpace;
    use zune_jpeg::zune_core::options::DecoderOptions;
    let options = DecoderOptions::default()
        .jpeg_set_out_colorspace(ColorSpace::RGB)
        .set_max_width(usize::from(u16::MAX))
        .set_max_height(usize::from(u16::MAX));
    let mut decoder = zune_jpeg::JpegDecoder::new_with_options(Cursor::new(bytes), options);
    let rgb = decoder
        .decode()
        .map_err(|e| format!("a JPEG image: {e:?}"))?;
    if rgb.len() != pixels * 3 {
        return Err(format!(
            "a JPEG image of {} samples for {pixels} pixels",
            rgb.len()
        ));
    }
    Ok(rgb
        .chunks_exact(3)
        .map(|p| [p[0], p[1], p[2]].map(|v| u16::from(v) * 257))
        .collect())
}

/// An RGB-to-CMYK transform from an image's own ICC profile into the condition's.
pub(super) fn own_transform(icc: &[u8], cmyk: &[u8]) -> Option<Transform<[u16; 3], [u16; 4]>> {
    let own = Profile::new_icc(icc)
        .ok()
        .filter(|p| p.color_space() == ColorSpaceSignature::RgbData)?;
    let cmyk = Profile::new_icc(cmyk).ok()?;
    Transform::new_flags(
        &own,
        PixelFormat::RGB_16,
        &cmyk,
        PixelFormat::CMYK_16,
        Intent::RelativeColorimetric,
        Flags::BLACKPOINT_COMPENSATION,
    )
    .ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn samples_of_every_depth_unpack_to_16_bits() {
        // Two rows of three samples: 1-bit rows are padded to a byte.
        assert_eq!(
            unpack(&[0b1010_0000, 0b0100_0000], 3, 2, 1).unwrap(),
            vec![65535, 0, 65535, 0, 65535, 0]
        );
        assert_eq!(
            unpack(&[0b1100_0110], 2, 1, 4).unwrap(),
            vec![0xC * 4369, 0x6 * 4369]
        );
        assert_eq!(unpack(&[0x12, 0x34], 1, 1, 16).unwrap(), vec![0x1234]);
        assert_eq!(unpack(&[255, 0], 2, 1, 8).unwrap(), vec![65535, 0]);
        assert!(unpack(&[0], 2, 1, 8).is_err(), "too short");
        assert!(unpack(&[0; 8], 2, 1, 12).is_err());
    }
}
