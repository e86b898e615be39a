//! The evaluation curve of an analysed game, as text for the terminal and
//! as a small hand-written SVG picture.

use super::analyse::Mark;

/// Rows of the text chart (odd, so that 0 has a row of its own).
const ROWS: usize = 11;
/// Widest text chart; longer games share columns.
const MAX_COLUMNS: usize = 100;

/// `values` (one per position, Black's view, within ±`clamp`) as a text
/// chart: one column per position (or per group of positions in long
/// games), `+2000` at the top, `-2000` at the bottom, the 0 line drawn.
pub fn text(values: &[i32], clamp: i32) -> String {
    if values.is_empty() {
        return String::new();
    }
    let per_column = values.len().div_ceil(MAX_COLUMNS);
    let columns: Vec<i32> = values
        .chunks(per_column)
        .map(|c| c.iter().map(|&v| v as i64).sum::<i64>() / c.len() as i64)
        .map(|v| v as i32)
        .collect();
    let step = 2.0 * clamp as f64 / (ROWS - 1) as f64;
    let row_of =
        |v: i32| (((clamp - v.clamp(-clamp, clamp)) as f64 / step).round() as usize).min(ROWS - 1);
    let zero = ROWS / 2;
    let mut out = String::new();
    for row in 0..ROWS {
        let label = match row {
            0 => format!("{:+}", clamp),
            r if r == zero => "0".to_string(),
            r if r == ROWS - 1 => format!("{:+}", -clamp),
            _ => String::new(),
        };
        let mut line = format!("{label:>6} |");
        for &v in &columns {
            line.push(if row_of(v) == row {
                '*'
            } else if row == zero {
                '-'
            } else {
                ' '
            });
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out.push_str(&format!("{:>6} +{}\n", "", "-".repeat(columns.len())));
    let mut ticks = " ".repeat(columns.len() + 8);
    for c in (0..columns.len()).step_by(10) {
        let label = (c * per_column).to_string();
        let at = 8 + c;
        if at + label.len() <= ticks.len() {
            ticks.replace_range(at..at + label.len(), &label);
        }
    }
    out.push_str(ticks.trim_end());
    out.push('\n');
    out
}

const WIDTH: f64 = 720.0;
const HEIGHT: f64 = 260.0;
const LEFT: f64 = 56.0;
const RIGHT: f64 = 12.0;
const TOP: f64 = 28.0;
const BOTTOM: f64 = 30.0;

fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// `values` (one per position, Black's view, within ±`clamp`) as an SVG
/// line chart; `marks[i]` (move i+1, ending at position i+1) draws a dot.
pub fn svg(values: &[i32], clamp: i32, marks: &[Option<Mark>], title: &str) -> String {
    let plot_w = WIDTH - LEFT - RIGHT;
    let plot_h = HEIGHT - TOP - BOTTOM;
    let last = values.len().saturating_sub(1).max(1) as f64;
    let x = |i: usize| LEFT + plot_w * i as f64 / last;
    let y = |v: i32| TOP + plot_h * (clamp - v.clamp(-clamp, clamp)) as f64 / (2 * clamp) as f64;
    let mut out = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{WIDTH}\" height=\"{HEIGHT}\" viewBox=\"0 0 {WIDTH} {HEIGHT}\" font-family=\"sans-serif\" font-size=\"11\">\n"
    );
    out.push_str(&format!(
        "<rect width=\"{WIDTH}\" height=\"{HEIGHT}\" fill=\"white\"/>\n"
    ));
    out.push_str(&format!(
        "<text x=\"{LEFT}\" y=\"18\" font-size=\"13\">{} (evaluation, Black's view, cp)</text>\n",
        escape(title)
    ));
    // Grid: ±clamp, ±clamp/2, 0.
    for k in [-2, -1, 0, 1, 2] {
        let v = clamp * k / 2;
        let yy = y(v);
        let style = if k == 0 {
            "stroke=\"#444\""
        } else {
            "stroke=\"#ddd\""
        };
        out.push_str(&format!(
            "<line x1=\"{LEFT}\" y1=\"{yy:.1}\" x2=\"{:.1}\" y2=\"{yy:.1}\" {style}/>\n",
            WIDTH - RIGHT
        ));
        out.push_str(&format!(
            "<text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"end\">{v:+}</text>\n",
            LEFT - 4.0,
            yy + 4.0
        ));
    }
    let n = values.len().saturating_sub(1);
    let tick = [10, 20, 50, 100]
        .into_iter()
        .find(|t| n / t <= 12)
        .unwrap_or(200);
    for i in (0..=n).step_by(tick) {
        out.push_str(&format!(
            "<text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\">{i}</text>\n",
            x(i),
            HEIGHT - 10.0
        ));
    }
    let points: Vec<String> = values
        .iter()
        .enumerate()
        .map(|(i, &v)| format!("{:.1},{:.1}", x(i), y(v)))
        .collect();
    out.push_str(&format!(
        "<polyline fill=\"none\" stroke=\"#1f5fbf\" stroke-width=\"1.6\" points=\"{}\"/>\n",
        points.join(" ")
    ));
    for (i, mark) in marks.iter().enumerate() {
        let Some(mark) = mark else { continue };
        let Some(&v) = values.get(i + 1) else {
            continue;
        };
        let color = match mark {
            Mark::Blunder => "#d62728",
            Mark::Dubious => "#ff9f1c",
        };
        out.push_str(&format!(
            "<circle cx=\"{:.1}\" cy=\"{:.1}\" r=\"3.5\" fill=\"{color}\"><title>{}{}</title></circle>\n",
            x(i + 1),
            y(v),
            i + 1,
            mark.symbol()
        ));
    }
    out.push_str("</svg>\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_chart_has_a_row_per_level_and_a_column_per_position() {
        let values = [0, 400, 800, 2000, -2000, 0];
        let chart = text(&values, 2000);
        let lines: Vec<&str> = chart.lines().collect();
        assert_eq!(lines.len(), ROWS + 2);
        assert!(lines[0].starts_with(" +2000 |"));
        assert_eq!(&lines[0][8..], "   *");
        assert_eq!(&lines[5][8..], "*----*");
        assert!(lines[10].starts_with(" -2000 |    *"));
    }

    #[test]
    fn svg_is_one_picture_with_a_line_and_dots() {
        let svg = svg(
            &[0, 100, -500, 300],
            2000,
            &[None, Some(Mark::Blunder), None],
            "a & b",
        );
        assert!(svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"));
        assert_eq!(svg.matches("<polyline").count(), 1);
        assert_eq!(svg.matches("<circle").count(), 1);
        assert!(svg.contains("a &amp; b"));
    }
}
