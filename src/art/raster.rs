//! Shapes painted into a picture on the CPU, with soft edges (each pixel covered by how much of
//! it the shape takes, from its distance to the shape's outline).

use super::Shape;
use super::text::blend;
use image::{Rgb, RgbImage};

/// The pixels of a box around points, widened by `pad`, clipped to the picture.
fn bounds(img: &RgbImage, points: &[[f32; 2]], pad: f32) -> Option<(i64, i64, i64, i64)> {
    let (mut x0, mut y0, mut x1, mut y1) = (f32::MAX, f32::MAX, f32::MIN, f32::MIN);
    for p in points {
        x0 = x0.min(p[0]);
        y0 = y0.min(p[1]);
        x1 = x1.max(p[0]);
        y1 = y1.max(p[1]);
    }
    let clip = |v: f32, hi: u32| (v.floor() as i64).clamp(0, i64::from(hi) - 1);
    let b = (
        clip(x0 - pad, img.width()),
        clip(y0 - pad, img.height()),
        clip(x1 + pad, img.width()),
        clip(y1 + pad, img.height()),
    );
    (x1 + pad >= 0.0 && y1 + pad >= 0.0 && x0 - pad < img.width() as f32 && y0 - pad < img.height() as f32).then_some(b)
}

/// Distance from p to the segment a–b.
fn to_segment(p: [f32; 2], a: [f32; 2], b: [f32; 2]) -> f32 {
    let (dx, dy) = (b[0] - a[0], b[1] - a[1]);
    let len = dx * dx + dy * dy;
    let t = if len == 0.0 {
        0.0
    } else {
        (((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / len).clamp(0.0, 1.0)
    };
    ((a[0] + t * dx - p[0]).powi(2) + (a[1] + t * dy - p[1]).powi(2)).sqrt()
}

/// Signed distance to a convex polygon's outline: negative inside (either winding).
fn polygon_distance(p: [f32; 2], points: &[[f32; 2]]) -> f32 {
    let n = points.len();
    let mut nearest = f32::MAX;
    let (mut pos, mut neg) = (false, false);
    for i in 0..n {
        let (a, b) = (points[i], points[(i + 1) % n]);
        nearest = nearest.min(to_segment(p, a, b));
        let cross = (b[0] - a[0]) * (p[1] - a[1]) - (b[1] - a[1]) * (p[0] - a[0]);
        if cross > 0.0 {
            pos = true;
        } else if cross < 0.0 {
            neg = true;
        }
    }
    if pos && neg { nearest } else { -nearest }
}

/// Paints `shape` (in pixel units, y down) into `img`.
pub fn paint(img: &mut RgbImage, shape: &Shape) {
    match shape {
        Shape::Polygon { points, color } if points.len() >= 3 => {
            let Some((x0, y0, x1, y1)) = bounds(img, points, 1.0) else {
                return;
            };
            for y in y0..=y1 {
                for x in x0..=x1 {
                    let d = polygon_distance([x as f32 + 0.5, y as f32 + 0.5], points);
                    blend(img, x, y, *color, 0.5 - d);
                }
            }
        }
        Shape::Polygon { .. } => {}
        Shape::Stroke { points, width, color } => {
            let half = (width / 2.0).max(0.5);
            let Some((x0, y0, x1, y1)) = bounds(img, points, half + 1.0) else {
                return;
            };
            for y in y0..=y1 {
                for x in x0..=x1 {
                    let p = [x as f32 + 0.5, y as f32 + 0.5];
                    let d = points
                        .windows(2)
                        .map(|w| to_segment(p, w[0], w[1]))
                        .fold(f32::MAX, f32::min);
                    blend(img, x, y, *color, half + 0.5 - d);
                }
            }
        }
        Shape::Disc { center, radius, color } => {
            let Some((x0, y0, x1, y1)) = bounds(img, &[*center], radius + 1.0) else {
                return;
            };
            for y in y0..=y1 {
                for x in x0..=x1 {
                    let d = ((x as f32 + 0.5 - center[0]).powi(2) + (y as f32 + 0.5 - center[1]).powi(2)).sqrt();
                    blend(img, x, y, *color, radius + 0.5 - d);
                }
            }
        }
    }
}

/// The colour of a pixel as `Rgb`.
pub fn rgb([r, g, b]: [u8; 3]) -> Rgb<u8> {
    Rgb([r, g, b])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shapes_cover_their_inside_and_leave_the_outside() {
        let mut img = RgbImage::from_pixel(40, 40, Rgb([0, 0, 0]));
        paint(
            &mut img,
            &Shape::Polygon {
                points: vec![[5.0, 5.0], [15.5, 5.0], [15.5, 15.0], [5.0, 15.0]],
                color: [200, 0, 0],
            },
        );
        paint(
            &mut img,
            &Shape::Disc {
                center: [30.0, 30.0],
                radius: 5.0,
                color: [0, 200, 0],
            },
        );
        paint(
            &mut img,
            &Shape::Stroke {
                points: vec![[2.0, 35.0], [20.0, 35.0]],
                width: 3.0,
                color: [0, 0, 200],
            },
        );
        assert_eq!(img.get_pixel(10, 10).0, [200, 0, 0]);
        assert_eq!(img.get_pixel(30, 30).0, [0, 200, 0]);
        assert_eq!(img.get_pixel(10, 34).0, [0, 0, 200]);
        assert_eq!(img.get_pixel(20, 20).0, [0, 0, 0]);
        assert_eq!(img.get_pixel(10, 30).0, [0, 0, 0]);
        // A soft edge: the polygon's border pixel is partly covered.
        let edge = img.get_pixel(15, 10).0[0];
        assert!(edge > 0 && edge < 200, "{edge}");
    }
}
