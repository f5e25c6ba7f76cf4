// Dependency-free SVG line plots of jointdyn results (hysteresis loops, time histories,
// dissipation vs amplitude on log-log axes, frequency-response curves).
//
// Linear axes span the data with a small margin and carry 1-2-5 ticks; log axes carry
// decade ticks (with unlabelled 2..9 minor ticks when few decades are shown). Tick labels
// are plain numbers: a linear axis's common power of ten goes into its label as an SI
// prefix of the unit ("tip.uz [mm]", ticks "−6".."6") or as a factor ("e(t) [×10⁻³]"), so
// a tick never reads like a unit ("10m" beside "[m]"); log axes show powers of ten ("10⁻⁶",
// "2×10⁻⁶"; plain from 0.001 to 1000); the minus sign is U+2212. Series get the
// Okabe-Ito colour-blind-safe palette (8 colours, then dashed lines) and distinct marker
// shapes; the legend goes into the corner of the plot area that hides the least data.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace jointdyn::io {

struct PlotSeries {
  std::string label;         // legend entry; empty = no legend entry
  std::vector<double> x, y;  // same length; non-finite points break the line
  bool markers = false;      // draw point markers instead of / in addition to a line
  bool line = true;
};

struct PlotSpec {
  std::string title;
  std::string x_label, y_label;  // include units, e.g. "slip s [m]"
  bool log_x = false, log_y = false;
  std::vector<PlotSeries> series;
};

// Points with a non-positive value on a log axis are skipped like non-finite ones.
// Writes a standalone SVG (about 800x560 px). Throws IoError naming the path and the
// reason when the file cannot be written; throws std::invalid_argument (naming the series) when
// x and y lengths differ or a log axis gets non-positive data only.
void WriteSvgPlot(const PlotSpec& spec, const std::filesystem::path& path);

// The SVG text WriteSvgPlot writes (same exceptions except the file error).
std::string RenderSvgPlot(const PlotSpec& spec);

// --- Building blocks, exposed for tests ---

// The multiples of the smallest step in {1, 2, 5} x 10^k that give at most `max_count`
// ticks in [lo, hi] (both ends included). Requires finite lo < hi and max_count >= 5,
// which guarantees at least 2 ticks (successive steps differ by at most 2.5); the ticks
// cover the range up to one step at either end.
std::vector<double> NiceTicks(double lo, double hi, int max_count);

// The decades 10^k in [lo, hi] (0 < lo < hi), every n-th decade (k a multiple of n) with
// the smallest n giving at most `max_count` ticks. May be empty when the range holds no
// decade.
std::vector<double> DecadeTicks(double lo, double hi, int max_count);

// The one number formatter of linear tick labels: value / 10^exponent with `decimals`
// decimals. Uses U+2212 for the minus sign; zero (of either sign, or rounded to zero) is "0".
std::string FormatTick(double value, int exponent, int decimals);

// A log axis's tick label of value = m 10^k (m = 1..9): plain for -3 <= k <= 3 ("0.002",
// "500"), else "10⁻⁶" (m = 1) or "2×10⁻⁶".
std::string FormatPowerTick(double value);

// `label` for an axis whose ticks show value / 10^exponent: the unit in the label's last
// [..] gets the SI prefix of `exponent` when it starts with a unit symbol that takes one
// (m, N, Pa, J, W, Hz, s, rad, g: "[m]" -> "[mm]", "[J/m^2]" -> "[mJ/m^2]"); otherwise the
// factor is written into the brackets ("[-]" -> "[×10⁻³]", "[kg]" -> "[×10³ kg]") or
// appended (" [×10⁻³]"). Unchanged for exponent 0.
std::string ScaledAxisLabel(const std::string& label, int exponent);

// Escapes & < > " ' for XML text and attribute values; drops the control characters XML 1.0
// forbids (all below U+0020 except tab, LF and CR).
std::string EscapeXml(std::string_view text);

}  // namespace jointdyn::io
