//! CMYK print-shop PDFs (`--color cmyk`): the finished RGB PDF's colours separated into
//! CMYK through the bundled profile, which the PDF names as its output intent.
//!
//! krilla-svg writes every SVG colour as DeviceRGB (`rg`/`RG`) or DeviceGray (`g`/`G`), so
//! the PDF is drawn as usual and its colour operators rewritten afterwards (lopdf): the RGB
//! outputs stay exactly as they were. Colours go through Little CMS (sRGB to the profile,
//! relative colorimetric with black point compensation); neutral greys are printed with
//! black ink alone, matched to their lightness, and greys as dark as `#222222` or darker
//! (the templates' text colour is `#1a1a1a`) as 100 % K, so text never needs registering
//! four plates. Images are separated pixel by pixel and CMYK art keeps its ink ([`images`]);
//! gradients have their stop colours separated. What this cannot convert (a sampled
//! gradient function, an unusual colour space) is an error, never a file with RGB left in
//! it.

mod images;

use std::collections::{BTreeMap, BTreeSet};
use std::sync::{Mutex, OnceLock};

use lcms2::{Flags, Intent, PixelFormat, Profile, Transform};
use lopdf::content::{Content, Operation};
use lopdf::{Dictionary, Document, Object, ObjectId, Stream, dictionary};

/// The bundled CMYK profile (see `profiles/README.md`): made with ArgyllCMS from the FOGRA39
/// characterisation data (coated paper, offset), total ink limited to 300 %.
pub const PROFILE: &[u8] = include_bytes!("../../../../profiles/printplay-cmyk.icc");
/// The bundled SWOP profile: made with ArgyllCMS from the CGATS TR 003 characterisation
/// data (SWOP, grade 3 coated paper, web offset), total ink limited to 240 %.
pub const SWOP_PROFILE: &[u8] = include_bytes!("../../../../profiles/printplay-swop.icc");

/// A printing condition the CMYK PDFs can be made for: the profile that separates their
/// colours and that their output intent names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Condition {
    /// Offset on coated paper in Europe (ISO 12647-2), 300 % total ink.
    Fogra39,
    /// SWOP (US web offset, grade 3 coated paper), 240 % total ink: what DriveThruCards asks.
    Swop,
}

impl Condition {
    pub fn profile(self) -> &'static [u8] {
        match self {
            Condition::Fogra39 => PROFILE,
            Condition::Swop => SWOP_PROFILE,
        }
    }

    /// The condition's name in the ICC characterisation registry (OutputConditionIdentifier).
    pub fn identifier(self) -> &'static str {
        match self {
            Condition::Fogra39 => "FOGRA39",
            Condition::Swop => "CGATS TR 003",
        }
    }

    /// How the output intent describes the printing condition (OutputCondition).
    pub fn description(self) -> &'static str {
        match self {
            Condition::Fogra39 => "FOGRA39 (ISO 12647-2:2004/Amd 1, coated paper)",
            Condition::Swop => "CGATS TR 003 (SWOP, grade 3 coated paper)",
        }
    }

    /// The most ink the profile puts on paper, in percent of one plate.
    pub fn ink_limit(self) -> u32 {
        match self {
            Condition::Fogra39 => 300,
            Condition::Swop => 240,
        }
    }
}

/// Greys at or below this (0 to 1) print as 100 % black: `#222222`.
const BLACK_TEXT: f32 = 34.0 / 255.0;
/// Steps of the black-ink ramp that greys are matched against.
const K_STEPS: usize = 1024;

type RgbToCmyk = Transform<[u16; 3], [u16; 4]>;

/// Separates sRGB colours into the profile's CMYK.
struct Separation {
    /// The condition's CMYK profile.
    profile: &'static [u8],
    /// Little CMS transforms with a cache are not shared between threads unguarded.
    transform: Mutex<RgbToCmyk>,
    /// The sRGB grey (0 to 1) each step of black ink alone prints as, darkening.
    grey_of_k: Vec<f32>,
}

fn separation(condition: Condition) -> Result<&'static Separation, String> {
    static FOGRA39: OnceLock<Result<Separation, String>> = OnceLock::new();
    static SWOP: OnceLock<Result<Separation, String>> = OnceLock::new();
    let cell = match condition {
        Condition::Fogra39 => &FOGRA39,
        Condition::Swop => &SWOP,
    };
    cell.get_or_init(|| Separation::new(condition.profile()))
        .as_ref()
        .map_err(Clone::clone)
}

impl Separation {
    fn new(profile: &'static [u8]) -> Result<Separation, String> {
        let srgb = Profile::new_srgb();
        let cmyk = Profile::new_icc(profile).map_err(|e| format!("CMYK profile: {e}"))?;
        let transform = Transform::new_flags(
            &srgb,
            PixelFormat::RGB_16,
            &cmyk,
            PixelFormat::CMYK_16,
            Intent::RelativeColorimetric,
            Flags::BLACKPOINT_COMPENSATION,
        )
        .map_err(|e| format!("CMYK transform: {e}"))?;
        let back: Transform<[u16; 4], [u16; 3]> = Transform::new_flags(
            &cmyk,
            PixelFormat::CMYK_16,
            &srgb,
            PixelFormat::RGB_16,
            Intent::RelativeColorimetric,
            Flags::BLACKPOINT_COMPENSATION,
        )
        .map_err(|e| format!("CMYK proof transform: {e}"))?;
        let ramp: Vec<[u16; 4]> = (0..=K_STEPS)
            .map(|i| [0, 0, 0, (i * 65535 / K_STEPS) as u16])
            .collect();
        let mut proof = vec![[0u16; 3]; ramp.len()];
        back.transform_pixels(&ramp, &mut proof);
        let grey_of_k = proof.iter().map(|p| f32::from(p[1]) / 65535.0).collect();
        Ok(Separation {
            profile,
            transform: Mutex::new(transform),
            grey_of_k,
        })
    }

    /// Black ink (0 to 1) alone that prints a grey as light as `v` (0 black to 1 white).
    fn k_for_grey(&self, v: f32) -> f32 {
        if v <= BLACK_TEXT {
            return 1.0;
        }
        // The ramp darkens with k: the first step at or below `v` is the ink needed.
        match self.grey_of_k.iter().position(|&g| g <= v) {
            Some(i) => i as f32 / K_STEPS as f32,
            None => 1.0,
        }
    }

    /// CMYK (0 to 1) of an sRGB colour (0 to 1).
    fn cmyk(&self, [r, g, b]: [f32; 3]) -> [f32; 4] {
        let (lo, hi) = (r.min(g).min(b), r.max(g).max(b));
        if hi - lo < 1.0 / 512.0 {
            return [0.0, 0.0, 0.0, self.k_for_grey((r + g + b) / 3.0)];
        }
        let to16 = |v: f32| (v.clamp(0.0, 1.0) * 65535.0).round() as u16;
        let mut out = [[0u16; 4]];
        self.separate(&[[to16(r), to16(g), to16(b)]], &mut out);
        out[0].map(|v| f32::from(v) / 65535.0)
    }

    fn separate(&self, rgb: &[[u16; 3]], cmyk: &mut [[u16; 4]]) {
        self.transform
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
            .transform_pixels(rgb, cmyk);
    }

    /// Separates RGB pixels through their own ICC profile `icc` when Little CMS reads it as
    /// an RGB profile, else as sRGB (what every other output draws them as).
    fn separate_from(&self, icc: Option<&[u8]>, rgb: &[[u16; 3]]) -> Result<Vec<[u16; 4]>, String> {
        let mut cmyk = vec![[0u16; 4]; rgb.len()];
        match icc.and_then(|icc| images::own_transform(icc, self.profile)) {
            Some(own) => own.transform_pixels(rgb, &mut cmyk),
            None => self.separate(rgb, &mut cmyk),
        }
        Ok(cmyk)
    }
}

/// Rounds an ink value for the content stream (four decimals are finer than any press).
fn ink(v: f32) -> Object {
    Object::Real((v * 10_000.0).round() / 10_000.0)
}

fn number(o: &Object) -> Result<f32, String> {
    match o {
        Object::Integer(i) => Ok(*i as f32),
        Object::Real(r) => Ok(*r),
        _ => Err(format!("a colour operand is not a number: {o:?}")),
    }
}

fn numbers(ops: &[Object]) -> Result<Vec<f32>, String> {
    ops.iter().map(number).collect()
}

/// Converts a PDF written by krilla to CMYK with the bundled profile as output intent.
pub fn convert_pdf(rgb: &[u8]) -> Result<Vec<u8>, String> {
    convert_pdf_for(rgb, Condition::Fogra39)
}

/// Converts a PDF written by krilla to CMYK for the printing `condition`: its profile
/// separates the colours and is the output intent.
pub fn convert_pdf_for(rgb: &[u8], condition: Condition) -> Result<Vec<u8>, String> {
    convert_pdf_naming(rgb, condition, &|page| format!("page {page}"))
}

/// [`convert_pdf_for`], an image that cannot be converted named by `page_name` of each page
/// (counted from 1) that shows it: the card a shop PDF's page holds.
pub fn convert_pdf_naming(
    rgb: &[u8],
    condition: Condition,
    page_name: &dyn Fn(usize) -> String,
) -> Result<Vec<u8>, String> {
    let sep = separation(condition)?;
    let mut doc = Document::load_mem(rgb).map_err(|e| format!("PDF could not be read: {e}"))?;
    for (id, space) in images::images(&doc)? {
        let Some(Object::Stream(image)) = doc.objects.get_mut(&id) else {
            continue;
        };
        if let Err(e) = images::convert(image, &space, sep) {
            let names: Vec<String> = pages_showing(&doc, id).into_iter().map(page_name).collect();
            return Err(format!("{}: {e}", names.join(", ")));
        }
    }
    // Each content stream with what holds its resources: its page, or itself (a form).
    let mut holders: BTreeMap<ObjectId, ObjectId> = BTreeMap::new();
    for (_, page) in doc.get_pages() {
        for content in doc.get_page_contents(page) {
            holders.insert(content, page);
        }
    }
    for (&id, object) in &doc.objects {
        if let Object::Stream(s) = object
            && (is(&s.dict, b"Subtype", b"Form") || s.dict.get(b"PatternType").is_ok())
        {
            holders.insert(id, id);
        }
    }
    convert_shadings(&mut doc, sep)?;
    let mut overprinting: BTreeSet<ObjectId> = BTreeSet::new();
    let ids: Vec<ObjectId> = doc.objects.keys().copied().collect();
    for id in ids {
        let object = doc.objects.get_mut(&id).expect("listed above");
        if let Some(&holder) = holders.get(&id) {
            let Object::Stream(stream) = object else {
                return Err(format!("content {id:?} is not a stream"));
            };
            if convert_content(stream, sep)? {
                overprinting.insert(holder);
            }
        }
        convert_object(object)?;
    }
    add_overprint_states(&mut doc, &overprinting)?;
    add_output_intent(&mut doc, condition)?;
    declare_pdfx4(&mut doc, source_date())?;
    // The ICC profiles of CMYK art, named no more, are left out.
    doc.prune_objects();
    let mut out = Vec::new();
    doc.save_to(&mut out)
        .map_err(|e| format!("PDF could not be written: {e}"))?;
    Ok(out)
}

/// The graphics states black text is drawn in (overprint on) and everything else is
/// (overprint off), named in the resources of every page or form that draws black text.
const OVERPRINT_ON: &[u8] = b"PrintplayOverprint";
const OVERPRINT_OFF: &[u8] = b"PrintplayKnockout";

/// Adds the two overprint graphics states to the resources of `holders` (pages or forms).
fn add_overprint_states(doc: &mut Document, holders: &BTreeSet<ObjectId>) -> Result<(), String> {
    if holders.is_empty() {
        return Ok(());
    }
    // OPM 1: a zero ink of the black (C, M and Y) leaves the plate below as it is.
    let on = doc.add_object(dictionary! {
        "Type" => "ExtGState", "OP" => true, "op" => true, "OPM" => 1,
    });
    let off = doc.add_object(dictionary! {
        "Type" => "ExtGState", "OP" => false, "op" => false,
    });
    for &holder in holders {
        let resources = match doc.get_object(holder).map_err(|e| e.to_string())? {
            Object::Dictionary(d) => d.get(b"Resources").ok().cloned(),
            Object::Stream(s) => s.dict.get(b"Resources").ok().cloned(),
            _ => None,
        };
        // Resources held by reference are changed where they are; inline ones in place.
        let resources_id = match resources {
            Some(Object::Reference(r)) => r,
            Some(Object::Dictionary(d)) => {
                let id = doc.add_object(d);
                holder_dict(doc, holder)?.set("Resources", id);
                id
            }
            _ => {
                let id = doc.add_object(Dictionary::new());
                holder_dict(doc, holder)?.set("Resources", id);
                id
            }
        };
        let states = doc
            .get_dictionary(resources_id)
            .map_err(|e| e.to_string())?
            .get(b"ExtGState")
            .ok()
            .cloned();
        let states_id = match states {
            Some(Object::Reference(r)) => r,
            Some(Object::Dictionary(d)) => doc.add_object(d),
            _ => doc.add_object(Dictionary::new()),
        };
        doc.get_dictionary_mut(resources_id)
            .map_err(|e| e.to_string())?
            .set("ExtGState", states_id);
        let states = doc
            .get_dictionary_mut(states_id)
            .map_err(|e| e.to_string())?;
        states.set(OVERPRINT_ON, on);
        states.set(OVERPRINT_OFF, off);
    }
    Ok(())
}

fn holder_dict(doc: &mut Document, holder: ObjectId) -> Result<&mut Dictionary, String> {
    match doc.get_object_mut(holder).map_err(|e| e.to_string())? {
        Object::Dictionary(d) => Ok(d),
        Object::Stream(s) => Ok(&mut s.dict),
        _ => Err(format!("{holder:?} holds no resources")),
    }
}

fn is(dict: &Dictionary, key: &[u8], name: &[u8]) -> bool {
    matches!(dict.get(key), Ok(Object::Name(n)) if n == name)
}

/// Rewrites a content stream's colour operators; true when it draws black text, which now
/// overprints.
fn convert_content(stream: &mut Stream, sep: &Separation) -> Result<bool, String> {
    let bytes = stream
        .decompressed_content()
        .unwrap_or_else(|_| stream.content.clone());
    let content = Content::decode(&bytes).map_err(|e| format!("content stream: {e}"))?;
    let operations = overprint_black_text(convert_operations(content.operations, sep)?);
    let overprints = operations.iter().any(|op| {
        op.operator == "gs" && op.operands.first() == Some(&Object::Name(OVERPRINT_ON.to_vec()))
    });
    let encoded = Content { operations }
        .encode()
        .map_err(|e| format!("content stream: {e}"))?;
    stream.dict.remove(b"Filter");
    stream.dict.remove(b"DecodeParms");
    stream.set_plain_content(encoded);
    stream
        .compress()
        .map_err(|e| format!("content stream: {e}"))?;
    Ok(overprints)
}

/// Text shown in 100 % black alone overprints, as prepress expects: the colours under it
/// print whole, so a plate slightly out of register shows no white edge round the letters.
/// Sets the overprint graphics state before each text-showing operator whose fill is
/// black (and back before anything else is painted), following `q`/`Q`.
fn overprint_black_text(ops: Vec<Operation>) -> Vec<Operation> {
    #[derive(Clone, Copy)]
    struct State {
        black_fill: bool,
        overprint: bool,
    }
    let mut state = State {
        black_fill: false,
        overprint: false,
    };
    let mut stack = Vec::new();
    let mut out = Vec::with_capacity(ops.len());
    let gs = |name: &[u8]| Operation::new("gs", vec![Object::Name(name.to_vec())]);
    for op in ops {
        let shows_text = matches!(op.operator.as_str(), "Tj" | "TJ" | "'" | "\"");
        let paints = shows_text
            || matches!(
                op.operator.as_str(),
                "f" | "F" | "f*" | "B" | "B*" | "b" | "b*" | "S" | "s" | "Do" | "sh" | "BI"
            );
        if paints {
            let want = shows_text && state.black_fill;
            if want != state.overprint {
                out.push(gs(if want { OVERPRINT_ON } else { OVERPRINT_OFF }));
                state.overprint = want;
            }
        }
        match op.operator.as_str() {
            "q" => stack.push(state),
            "Q" => state = stack.pop().unwrap_or(state),
            "k" => state.black_fill = is_black(&op.operands),
            "sc" | "scn" | "cs" => state.black_fill = is_black(&op.operands),
            _ => {}
        }
        out.push(op);
    }
    out
}

/// Whether colour operands are 100 % black ink alone (C, M, Y zero).
fn is_black(operands: &[Object]) -> bool {
    match numbers(operands).as_deref() {
        Ok(&[c, m, y, k]) => c == 0.0 && m == 0.0 && y == 0.0 && k >= 1.0,
        _ => false,
    }
}

/// The current colour space of fill and stroke, as far as conversion cares.
#[derive(Clone, Copy, PartialEq)]
enum Space {
    Rgb,
    Gray,
    Other,
}

fn convert_operations(ops: Vec<Operation>, sep: &Separation) -> Result<Vec<Operation>, String> {
    let mut spaces = [Space::Gray, Space::Gray];
    let mut stack = Vec::new();
    let mut out = Vec::with_capacity(ops.len());
    for op in ops {
        let stroke = op.operator.chars().all(|c| c.is_ascii_uppercase());
        let side = usize::from(stroke);
        let set_cmyk = if stroke { "K" } else { "k" };
        let converted = match op.operator.as_str() {
            "q" => {
                stack.push(spaces);
                op
            }
            "Q" => {
                spaces = stack.pop().unwrap_or([Space::Gray, Space::Gray]);
                op
            }
            "rg" | "RG" => cmyk_op(set_cmyk, rgb_ink(&op.operands, sep)?),
            "g" | "G" => cmyk_op(set_cmyk, grey_ink(&op.operands, sep)?),
            "cs" | "CS" => {
                let (space, replaced) = colour_space(&op)?;
                spaces[side] = space;
                replaced
            }
            "sc" | "scn" | "SC" | "SCN" => match spaces[side] {
                Space::Rgb => cmyk_op(&op.operator, rgb_ink(&op.operands, sep)?),
                Space::Gray => cmyk_op(&op.operator, grey_ink(&op.operands, sep)?),
                Space::Other => op,
            },
            "BI" | "ID" | "EI" => return Err("inline images are not converted to CMYK".into()),
            _ => op,
        };
        out.push(converted);
    }
    Ok(out)
}

fn cmyk_op(operator: &str, ink: [f32; 4]) -> Operation {
    Operation::new(operator, ink.iter().map(|&v| self::ink(v)).collect())
}

fn rgb_ink(operands: &[Object], sep: &Separation) -> Result<[f32; 4], String> {
    match numbers(operands)?.as_slice() {
        &[r, g, b] => Ok(sep.cmyk([r, g, b])),
        other => Err(format!("an RGB colour has {} components", other.len())),
    }
}

fn grey_ink(operands: &[Object], sep: &Separation) -> Result<[f32; 4], String> {
    match numbers(operands)?.as_slice() {
        &[v] => Ok([0.0, 0.0, 0.0, sep.k_for_grey(v)]),
        other => Err(format!("a grey has {} components", other.len())),
    }
}

/// A `cs`/`CS` operator: device RGB and grey become DeviceCMYK; patterns stay (their own
/// streams are converted); named spaces are refused (krilla writes none here).
fn colour_space(op: &Operation) -> Result<(Space, Operation), String> {
    let name = match op.operands.first() {
        Some(Object::Name(n)) => n.as_slice(),
        _ => return Err(format!("`{}` without a colour space name", op.operator)),
    };
    let cmyk = || Operation::new(&op.operator, vec![Object::Name(b"DeviceCMYK".to_vec())]);
    match name {
        b"DeviceRGB" => Ok((Space::Rgb, cmyk())),
        b"DeviceGray" => Ok((Space::Gray, cmyk())),
        b"DeviceCMYK" | b"Pattern" => Ok((Space::Other, op.clone())),
        other => Err(format!(
            "colour space `{}` is not converted to CMYK",
            String::from_utf8_lossy(other)
        )),
    }
}

/// Transparency groups and shadings of an object in CMYK.
fn convert_object(object: &mut Object) -> Result<(), String> {
    match object {
        Object::Dictionary(d) => convert_dict(d),
        Object::Stream(s) => convert_dict(&mut s.dict),
        _ => Ok(()),
    }
}

fn convert_dict(dict: &mut Dictionary) -> Result<(), String> {
    if dict.get(b"ShadingType").is_ok() && is(dict, b"ColorSpace", b"DeviceRGB") {
        return Err("gradients are not converted to CMYK".into());
    }
    if let Ok(Object::Dictionary(group)) = dict.get_mut(b"Group")
        && (is(group, b"CS", b"DeviceRGB") || is(group, b"CS", b"DeviceGray"))
    {
        group.set("CS", Object::Name(b"DeviceCMYK".to_vec()));
    }
    if is(dict, b"S", b"Transparency")
        && (is(dict, b"CS", b"DeviceRGB") || is(dict, b"CS", b"DeviceGray"))
    {
        dict.set("CS", Object::Name(b"DeviceCMYK".to_vec()));
    }
    for (_, value) in dict.iter_mut() {
        if let Object::Dictionary(inner) = value {
            convert_dict(inner)?;
        }
    }
    Ok(())
}

/// Gradients (krilla's axial and radial shadings in DeviceRGB) in CMYK: the colours of their
/// exponential functions, stitched or not, separated as any other colour, the shading's
/// space made DeviceCMYK. Between two stops the ink is interpolated instead of the RGB.
fn convert_shadings(doc: &mut Document, sep: &Separation) -> Result<(), String> {
    let mut functions = Vec::new();
    let ids: Vec<ObjectId> = doc.objects.keys().copied().collect();
    for id in &ids {
        match doc.objects.get_mut(id) {
            Some(Object::Dictionary(d)) => shadings_in(d, sep, &mut functions)?,
            Some(Object::Stream(s)) => shadings_in(&mut s.dict, sep, &mut functions)?,
            _ => {}
        }
    }
    let mut done = BTreeSet::new();
    while let Some(id) = functions.pop() {
        if !done.insert(id) {
            continue;
        }
        match doc.objects.get_mut(&id) {
            Some(Object::Dictionary(d)) => function_in_cmyk(d, sep, &mut functions)?,
            _ => return Err("gradients drawn with a sampled function are not converted".into()),
        }
    }
    Ok(())
}

/// Converts the RGB shadings in `dict` and the dictionaries it holds; the functions they name
/// by reference are added to `functions`.
fn shadings_in(
    dict: &mut Dictionary,
    sep: &Separation,
    functions: &mut Vec<ObjectId>,
) -> Result<(), String> {
    if dict.get(b"ShadingType").is_ok() && is(dict, b"ColorSpace", b"DeviceRGB") {
        if dict.get(b"Background").is_ok() {
            return Err("gradients with a background colour are not converted to CMYK".into());
        }
        match dict.get_mut(b"Function") {
            Ok(Object::Reference(id)) => functions.push(*id),
            Ok(Object::Dictionary(f)) => function_in_cmyk(f, sep, functions)?,
            _ => return Err("gradients of several functions are not converted to CMYK".into()),
        }
        dict.set("ColorSpace", Object::Name(b"DeviceCMYK".to_vec()));
    }
    for (_, value) in dict.iter_mut() {
        if let Object::Dictionary(inner) = value {
            shadings_in(inner, sep, functions)?;
        }
    }
    Ok(())
}

/// An exponential function's RGB colours as CMYK; a stitching function's parts in turn.
fn function_in_cmyk(
    f: &mut Dictionary,
    sep: &Separation,
    functions: &mut Vec<ObjectId>,
) -> Result<(), String> {
    match f.get(b"FunctionType").and_then(Object::as_i64) {
        Ok(2) => {
            for key in [&b"C0"[..], b"C1"] {
                let rgb = match f.get(key) {
                    Ok(Object::Array(a)) => numbers(a)?,
                    _ => return Err("a gradient colour without its value".into()),
                };
                let ink = match rgb.as_slice() {
                    &[r, g, b] => sep.cmyk([r, g, b]),
                    // Already ink: the function is shared by two gradients.
                    [_, _, _, _] => continue,
                    other => return Err(format!("a gradient colour of {} values", other.len())),
                };
                f.set(key, ink.iter().map(|&v| self::ink(v)).collect::<Vec<_>>());
            }
            f.remove(b"Range");
            Ok(())
        }
        Ok(3) => {
            // Its range, if given, names three outputs: the parts now give four.
            f.remove(b"Range");
            let Ok(Object::Array(parts)) = f.get_mut(b"Functions") else {
                return Err("a stitched gradient without its parts".into());
            };
            for part in parts {
                match part {
                    Object::Reference(id) => functions.push(*id),
                    Object::Dictionary(d) => function_in_cmyk(d, sep, functions)?,
                    _ => return Err("a stitched gradient of unknown parts".into()),
                }
            }
            Ok(())
        }
        _ => Err("gradients drawn with a sampled function are not converted to CMYK".into()),
    }
}

/// The pages (counted from 1) whose content reaches object `id`, through their resources
/// and the forms these draw.
fn pages_showing(doc: &Document, id: ObjectId) -> Vec<usize> {
    fn reaches(doc: &Document, o: &Object, id: ObjectId, seen: &mut BTreeSet<ObjectId>) -> bool {
        match o {
            Object::Reference(r) => {
                *r == id
                    || (seen.insert(*r)
                        && doc.get_object(*r).is_ok_and(|o| reaches(doc, o, id, seen)))
            }
            Object::Array(a) => a.iter().any(|o| reaches(doc, o, id, seen)),
            Object::Dictionary(d) => d
                .iter()
                .any(|(k, v)| k != b"Parent" && reaches(doc, v, id, seen)),
            Object::Stream(s) => s
                .dict
                .iter()
                .any(|(k, v)| k != b"Parent" && reaches(doc, v, id, seen)),
            _ => false,
        }
    }
    doc.get_pages()
        .into_iter()
        .filter(|(_, page)| {
            doc.get_object(*page)
                .is_ok_and(|o| reaches(doc, o, id, &mut BTreeSet::new()))
        })
        .map(|(n, _)| n as usize)
        .collect()
}

/// The date CMYK PDFs carry when `SOURCE_DATE_EPOCH` is not set: 1980-01-01 00:00:00 UTC,
/// the earliest date ZIP and many reproducible builds write. PDF/X requires a creation
/// date; a fixed one keeps the same input giving the same bytes on any day.
pub const FIXED_DATE: i64 = 315_532_800;

/// The build's date for reproducible files: `SOURCE_DATE_EPOCH` (seconds since 1970) when
/// set to a date of years 1970 to 9999, else [`FIXED_DATE`].
fn source_date() -> i64 {
    std::env::var("SOURCE_DATE_EPOCH")
        .ok()
        .and_then(|v| v.trim().parse().ok())
        .filter(|t| (0..253_402_300_800).contains(t))
        .unwrap_or(FIXED_DATE)
}

/// A time as (year, month, day, hour, minute, second), UTC.
fn civil(epoch: i64) -> (i64, i64, i64, i64, i64, i64) {
    let (days, secs) = (epoch.div_euclid(86_400), epoch.rem_euclid(86_400));
    // Howard Hinnant's days-to-civil.
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    (year, month, day, secs / 3600, secs % 3600 / 60, secs % 60)
}

/// Declares the document PDF/X-4 as far as it is (see the README, *Print-shop files*):
/// PDF 1.6, `GTS_PDFXVersion` and `Trapped` in the Info dictionary and the XMP metadata,
/// and `CreationDate` and `ModDate` (the build's `date`) in both.
fn declare_pdfx4(doc: &mut Document, date: i64) -> Result<(), String> {
    doc.version = "1.6".to_string();
    let (y, mo, d, h, mi, s) = civil(date);
    let pdf_date = format!("D:{y:04}{mo:02}{d:02}{h:02}{mi:02}{s:02}Z");
    let iso = format!("{y:04}-{mo:02}-{d:02}T{h:02}:{mi:02}:{s:02}Z");
    let info_id = match doc.trailer.get(b"Info") {
        Ok(Object::Reference(r)) => *r,
        _ => {
            let id = doc.add_object(Dictionary::new());
            doc.trailer.set("Info", id);
            id
        }
    };
    let info = doc.get_dictionary_mut(info_id).map_err(|e| e.to_string())?;
    info.set("GTS_PDFXVersion", Object::string_literal("PDF/X-4"));
    info.set("Trapped", Object::Name(b"False".to_vec()));
    info.set("CreationDate", Object::string_literal(pdf_date.as_str()));
    info.set("ModDate", Object::string_literal(pdf_date.as_str()));
    let metadata = doc
        .catalog()
        .ok()
        .and_then(|c| c.get(b"Metadata").ok())
        .and_then(|m| m.as_reference().ok());
    let Some(metadata) = metadata else {
        return Err("PDF has no XMP metadata".into());
    };
    let Object::Stream(stream) = doc.get_object_mut(metadata).map_err(|e| e.to_string())? else {
        return Err("the XMP metadata is not a stream".into());
    };
    let bytes = stream
        .decompressed_content()
        .unwrap_or_else(|_| stream.content.clone());
    let xmp = String::from_utf8(bytes).map_err(|_| "the XMP metadata is not UTF-8")?;
    let mut added = String::from(
        r#"<rdf:Description rdf:about="" xmlns:pdfxid="http://www.npes.org/pdfx/ns/id/" xmlns:pdf="http://ns.adobe.com/pdf/1.3/" xmlns:xmp="http://ns.adobe.com/xap/1.0/"><pdfxid:GTS_PDFXVersion>PDF/X-4</pdfxid:GTS_PDFXVersion><pdf:Trapped>False</pdf:Trapped>"#,
    );
    added.push_str(&format!(
        "<xmp:CreateDate>{iso}</xmp:CreateDate><xmp:ModifyDate>{iso}</xmp:ModifyDate>"
    ));
    added.push_str("</rdf:Description></rdf:RDF>");
    if !xmp.contains("</rdf:RDF>") {
        return Err("the XMP metadata has no RDF".into());
    }
    let xmp = xmp
        .replace(
            "<pdf:PDFVersion>1.7</pdf:PDFVersion>",
            "<pdf:PDFVersion>1.6</pdf:PDFVersion>",
        )
        .replacen("</rdf:RDF>", &added, 1);
    stream.dict.remove(b"Filter");
    stream.dict.remove(b"DecodeParms");
    stream.set_plain_content(xmp.into_bytes());
    Ok(())
}

/// Names the condition's profile as the document's output intent (GTS_PDFX), with the
/// condition's registered name.
fn add_output_intent(doc: &mut Document, condition: Condition) -> Result<(), String> {
    let mut profile = Stream::new(dictionary! { "N" => 4 }, condition.profile().to_vec());
    profile.compress().map_err(|e| format!("profile: {e}"))?;
    let profile_id = doc.add_object(profile);
    let info = format!(
        "printplay CMYK: {} data, {} % total ink",
        condition.identifier(),
        condition.ink_limit()
    );
    let intent = dictionary! {
        "Type" => "OutputIntent",
        "S" => "GTS_PDFX",
        "OutputCondition" => Object::string_literal(condition.description()),
        "OutputConditionIdentifier" => Object::string_literal(condition.identifier()),
        "RegistryName" => Object::string_literal("http://www.color.org"),
        "Info" => Object::string_literal(info),
        "DestOutputProfile" => profile_id,
    };
    let catalog = doc
        .catalog_mut()
        .map_err(|e| format!("PDF has no catalog: {e}"))?;
    catalog.set("OutputIntents", vec![Object::Dictionary(intent)]);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_are_civil_utc() {
        assert_eq!(civil(0), (1970, 1, 1, 0, 0, 0));
        assert_eq!(civil(FIXED_DATE), (1980, 1, 1, 0, 0, 0));
        assert_eq!(civil(253_402_300_799), (9999, 12, 31, 23, 59, 59));
        // 2024-02-29 12:34:56 UTC, a leap day.
        assert_eq!(civil(1_709_210_096), (2024, 2, 29, 12, 34, 56));
    }

    #[test]
    fn the_swop_profile_limits_ink_to_240_percent() {
        let sep = separation(Condition::Swop).unwrap();
        for rgb in [[0.1, 0.0, 0.2], [0.05, 0.05, 0.05], [0.3, 0.1, 0.0]] {
            let ink = sep.cmyk(rgb);
            assert!(ink.iter().sum::<f32>() <= 2.41, "{rgb:?} is {ink:?}");
        }
        let dark = separation(Condition::Fogra39)
            .unwrap()
            .cmyk([0.1, 0.0, 0.2]);
        assert!(
            dark.iter().sum::<f32>() > 2.41,
            "FOGRA39 allows more: {dark:?}"
        );
    }

    #[test]
    fn only_text_in_black_alone_overprints() {
        let name = |n: &[u8]| Object::Name(n.to_vec());
        let k = |c: f32, k: f32| Operation::new("k", vec![c.into(), 0.into(), 0.into(), k.into()]);
        let ops = vec![
            k(0.0, 1.0),
            Operation::new("re", vec![0.into(), 0.into(), 5.into(), 5.into()]),
            Operation::new("f", vec![]),
            Operation::new("BT", vec![]),
            Operation::new("Tj", vec![Object::string_literal("black")]),
            k(0.5, 1.0),
            Operation::new("Tj", vec![Object::string_literal("rich black")]),
            Operation::new("ET", vec![]),
        ];
        let out = overprint_black_text(ops);
        let states: Vec<(usize, &Object)> = out
            .iter()
            .enumerate()
            .filter(|(_, o)| o.operator == "gs")
            .map(|(i, o)| (i, &o.operands[0]))
            .collect();
        // The black rectangle knocks out (no state set), the black text overprints, the
        // rich black text does not.
        assert_eq!(
            states,
            vec![(4, &name(OVERPRINT_ON)), (7, &name(OVERPRINT_OFF))]
        );
        assert_eq!(out[5].operator, "Tj");
        assert_eq!(out[8].operator, "Tj");
    }

    #[test]
    fn black_and_dark_grey_text_is_black_ink_alone() {
        let sep = separation(Condition::Fogra39).unwrap();
        assert_eq!(sep.cmyk([0.0, 0.0, 0.0]), [0.0, 0.0, 0.0, 1.0]);
        let text = 0x1a as f32 / 255.0;
        assert_eq!(sep.cmyk([text, text, text]), [0.0, 0.0, 0.0, 1.0]);
        assert_eq!(sep.cmyk([1.0, 1.0, 1.0]), [0.0, 0.0, 0.0, 0.0]);
        let mid = sep.cmyk([0.5, 0.5, 0.5]);
        assert_eq!(&mid[..3], &[0.0, 0.0, 0.0]);
        assert!((0.4..0.9).contains(&mid[3]), "mid grey is {mid:?}");
    }

    #[test]
    fn colours_are_separated_through_the_profile() {
        let sep = separation(Condition::Fogra39).unwrap();
        let red = sep.cmyk([1.0, 0.0, 0.0]);
        assert!(
            red[1] > 0.8 && red[2] > 0.8 && red[0] < 0.2,
            "red is {red:?}"
        );
        let blue = sep.cmyk([0.0, 0.0, 1.0]);
        assert!(blue[0] > 0.7 && blue[2] < 0.2, "blue is {blue:?}");
        // The profile limits the total ink to 300 %.
        let dark = sep.cmyk([0.1, 0.0, 0.2]);
        assert!(dark.iter().sum::<f32>() <= 3.01, "dark is {dark:?}");
    }

    #[test]
    fn operators_become_cmyk() {
        let sep = separation(Condition::Fogra39).unwrap();
        let ops = vec![
            Operation::new("rg", vec![1.into(), 0.into(), 0.into()]),
            Operation::new("G", vec![0.into()]),
            Operation::new("CS", vec![Object::Name(b"DeviceRGB".to_vec())]),
            Operation::new("SC", vec![0.into(), 0.into(), 0.into()]),
        ];
        let out = convert_operations(ops, sep).unwrap();
        let names: Vec<&str> = out.iter().map(|o| o.operator.as_str()).collect();
        assert_eq!(names, ["k", "K", "CS", "SC"]);
        assert!(
            out.iter()
                .all(|o| o.operator == "CS" || o.operands.len() == 4)
        );
        assert_eq!(out[1].operands.last(), Some(&Object::Real(1.0)));
        let named = vec![Operation::new("cs", vec![Object::Name(b"Cs1".to_vec())])];
        assert!(convert_operations(named, sep).is_err());
    }
}
