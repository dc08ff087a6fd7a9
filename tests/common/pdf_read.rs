//! A PDF page read back in millimetres from its top-left corner: its boxes, the straight
//! lines it strokes with no clip in force (crop marks, cut and fold lines, rulers) and the
//! rectangles it clips to (each card's bleed).

use lopdf::{Document, Object, ObjectId};
use printplay::render::sheets::layout::Rect;

/// Points per millimetre.
pub const PT: f64 = 72.0 / 25.4;

pub fn page_ids(doc: &Document) -> Vec<ObjectId> {
    doc.get_pages().into_values().collect()
}

pub fn num(o: &Object) -> f64 {
    match o {
        Object::Integer(i) => *i as f64,
        Object::Real(r) => f64::from(*r),
        _ => panic!("not a number: {o:?}"),
    }
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= 0.05
}

fn same_rect(a: Rect, b: Rect) -> bool {
    close(a.x, b.x) && close(a.y, b.y) && close(a.w, b.w) && close(a.h, b.h)
}
/// A page box in millimetres from the top-left corner.
pub fn page_box(doc: &Document, page: ObjectId, name: &[u8]) -> Rect {
    let dict = doc.get_dictionary(page).unwrap();
    let arr = dict.get(name).unwrap().as_array().unwrap();
    let v: Vec<f64> = arr.iter().map(num).collect();
    let media: Vec<f64> = dict
        .get(b"MediaBox")
        .unwrap()
        .as_array()
        .unwrap()
        .iter()
        .map(num)
        .collect();
    let h = media[3];
    let (x1, y1, x2, y2) = (
        v[0].min(v[2]),
        v[1].min(v[3]),
        v[0].max(v[2]),
        v[1].max(v[3]),
    );
    Rect {
        x: x1 / PT,
        y: (h - y2) / PT,
        w: (x2 - x1) / PT,
        h: (y2 - y1) / PT,
    }
}

/// A straight line from one point to another, in millimetres.
pub type Segment = ((f64, f64), (f64, f64));

/// What a page's content stream draws, in millimetres from the top-left corner.
#[derive(Default)]
pub struct Drawn {
    /// Straight segments stroked with no clip in force: the sheet's own lines (crop marks,
    /// cut lines, ruler), not a card's art.
    pub guides: Vec<Segment>,
    /// Rectangles set as clips: each card's bleed, and any clip a face draws with.
    pub clips: Vec<Rect>,
}

/// Reads a page's content stream: its unclipped strokes and its rectangular clips.
pub fn drawn(doc: &Document, page: ObjectId) -> Drawn {
    let content = lopdf::content::Content::decode(&doc.get_page_content(page)).unwrap();
    let media = page_box(doc, page, b"MediaBox");
    let h_pt = media.h * PT;
    type M = [f64; 6];
    let mul = |a: M, b: M| -> M {
        [
            a[0] * b[0] + a[1] * b[2],
            a[0] * b[1] + a[1] * b[3],
            a[2] * b[0] + a[3] * b[2],
            a[2] * b[1] + a[3] * b[3],
            a[4] * b[0] + a[5] * b[2] + b[4],
            a[4] * b[1] + a[5] * b[3] + b[5],
        ]
    };
    let apply = |m: M, x: f64, y: f64| (m[0] * x + m[2] * y + m[4], m[1] * x + m[3] * y + m[5]);
    let to_mm = |(x, y): (f64, f64)| (x / PT, (h_pt - y) / PT);
    // Graphics state: transform and whether a clip is in force.
    let mut stack: Vec<(M, bool)> = Vec::new();
    let mut ctm: M = [1.0, 0.0, 0.0, 1.0, 0.0, 0.0];
    let mut clipped = false;
    let mut path: Vec<Segment> = Vec::new();
    let mut rects: Vec<Rect> = Vec::new();
    let mut points: Vec<(f64, f64)> = Vec::new();
    let mut cur = (0.0, 0.0);
    let mut out = Drawn::default();
    for op in content.operations {
        let n: Vec<f64> = op
            .operands
            .iter()
            .filter_map(|o| match o {
                Object::Integer(_) | Object::Real(_) => Some(num(o)),
                _ => None,
            })
            .collect();
        match op.operator.as_str() {
            "q" => stack.push((ctm, clipped)),
            "Q" => (ctm, clipped) = stack.pop().unwrap_or((ctm, clipped)),
            "cm" => ctm = mul([n[0], n[1], n[2], n[3], n[4], n[5]], ctm),
            "m" => {
                cur = apply(ctm, n[0], n[1]);
                points.push(to_mm(cur));
            }
            "l" => {
                let p = apply(ctm, n[0], n[1]);
                path.push((to_mm(cur), to_mm(p)));
                points.push(to_mm(p));
                cur = p;
            }
            "re" => {
                let (a, b) = (
                    to_mm(apply(ctm, n[0], n[1])),
                    to_mm(apply(ctm, n[0] + n[2], n[1] + n[3])),
                );
                rects.push(Rect {
                    x: a.0.min(b.0),
                    y: a.1.min(b.1),
                    w: (a.0 - b.0).abs(),
                    h: (a.1 - b.1).abs(),
                });
            }
            "W" | "W*" => {
                let rect = axis_rect(&points);
                // krilla clips everything to the page first: that clip is no card's.
                let whole_page = rect.is_some_and(|r| same_rect(r, media));
                out.clips.append(&mut rects);
                out.clips.extend(rect.filter(|_| !whole_page));
                clipped |= !whole_page;
            }
            "S" | "s" if !clipped => {
                out.guides.append(&mut path);
                points.clear();
            }
            "S" | "s" | "n" | "f" | "f*" | "F" | "B" | "B*" | "b" | "b*" => {
                path.clear();
                rects.clear();
                points.clear();
            }
            _ => {}
        }
    }
    out
}

/// The rectangle a closed path of four corners draws, if it is one with sides along the axes.
fn axis_rect(points: &[(f64, f64)]) -> Option<Rect> {
    if !(4..=5).contains(&points.len()) {
        return None;
    }
    let mut xs: Vec<f64> = points.iter().map(|p| p.0).collect();
    let mut ys: Vec<f64> = points.iter().map(|p| p.1).collect();
    for v in [&mut xs, &mut ys] {
        v.sort_by(f64::total_cmp);
        v.dedup_by(|a, b| (*a - *b).abs() < 1e-3);
    }
    (xs.len() == 2 && ys.len() == 2).then(|| Rect {
        x: xs[0],
        y: ys[0],
        w: xs[1] - xs[0],
        h: ys[1] - ys[0],
    })
}
