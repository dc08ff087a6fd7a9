//! The file formats a build writes from laid-out pages and drawn faces: [`pdf`] (krilla, with
//! the CMYK conversion of [`cmyk`] for print shops), [`png`] (resvg), the print-shop files of
//! [`shop`], the Tabletop Simulator object of [`tts`], and the gallery page of [`index`];
//! [`kept`] holds what one `watch` round's PDFs read and drew for the next round's.

pub mod cmyk;
pub mod index;
pub mod kept;
pub mod pdf;
pub mod png;
pub mod proof;
pub mod shop;
pub mod tts;
