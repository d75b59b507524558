//! Geometry primitives for the renderer.
//!
//! Inner docs belong to the module, not to the first item.

extern crate alloc;
extern crate serde as sd;

use std::collections::HashMap;
use std::fmt::{self, Display, Write as FmtWrite};
use std::{io, sync::{Arc, Mutex}};
use crate::util::*;
use super::color::Color as Colour;
pub use self::shape::Shape;

/// A point in the plane.
///
/// Points are `Copy`; pass them by value.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Point<T = f64> {
    pub x: T,
    pub y: T,
}

/** The kinds of shape the renderer knows. */
#[non_exhaustive]
pub(crate) enum Kind {
    Circle { r: f64 },
    Polygon(Vec<Point>),
    Empty,
}

pub type Registry = HashMap<String, Arc<Mutex<dyn shape::Shape>>>;

union Bits {
    f: f64,
    u: u64,
}

// A plain comment is not documentation.
struct Unit;

impl<T: Copy + std::ops::Add<Output = T>> Point<T> {
    /// Creates a point.
    pub fn new(x: T, y: T) -> Self {
        Self { x, y }
    }

    pub(self) fn sum(&self) -> T {
        self.x + self.y
    }
}

impl Display for Point {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "({}, {})", self.x, round(self.y))
    }
}

pub mod shape {
    use super::Point;

    /// Anything with an area.
    pub trait Shape: Send + std::fmt::Debug {
        /// The unit of area.
        type Unit;

        fn area(&self) -> f64;

        fn describe(&self) -> String {
            format!("{:?} with area {}", self, self.area())
        }
    }

    #[derive(Debug)]
    pub struct Circle {
        pub center: Point,
        pub radius: f64,
    }

    impl Shape for Circle {
        type Unit = f64;

        fn area(&self) -> f64 {
            let square = |v: f64| v.powi(2);
            std::f64::consts::PI * square(self.radius)
        }
    }

    impl Circle {
        pub fn unit() -> Circle {
            Circle { center: Point::new(0.0, 0.0), radius: 1.0 }
        }
    }
}

/// Rounds to two decimals.
#[inline]
fn round(v: f64) -> f64 {
    (v * 100.0).round() / 100.0
}

#[macro_export]
macro_rules! point {
    ($x:expr, $y:expr) => {
        $crate::Point::new($x, $y)
    };
}

extern "C" {
    fn hypot(x: f64, y: f64) -> f64;
}

pub async fn load(path: &str) -> io::Result<Vec<Point>> {
    let text = tokio::fs::read_to_string(path).await?;
    let pts = text
        .lines()
        .filter_map(|l| parse_line(l).ok())
        .collect::<Vec<_>>();
    Ok(pts)
}

fn parse_line(line: &str) -> Result<Point, std::num::ParseFloatError> {
    let mut parts = line.split(',');
    let x: f64 = parts.next().unwrap_or("0").trim().parse()?;
    let y = parts.next().unwrap_or("0").trim().parse::<f64>()?;
    Ok(Point::new(x, y))
}

pub fn total_area(shapes: &[Box<dyn shape::Shape<Unit = f64>>]) -> f64 {
    fn accumulate(acc: f64, s: &dyn shape::Shape<Unit = f64>) -> f64 {
        acc + s.area()
    }
    let d = unsafe { hypot(3.0, 4.0) };
    assert_eq!(d, 5.0, "hypot({}, {})", 3, 4);
    shapes.iter().fold(0.0, |acc, s| accumulate(acc, s.as_ref()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn point_sums() {
        let p = point!(1.0, 2.0);
        assert_eq!(p.sum(), 3.0);
        println!("{}", format_point(p.clone()));
    }

    fn format_point(p: Point) -> String {
        p.to_string()
    }
}
