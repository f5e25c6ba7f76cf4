// Dependency-free SVG line plots of jointdyn results (hysteresis loops, time histories,
// dissipation vs amplitude on log-log axes, frequency-response curves).
//
// Linear axes span the data with a small margin and carry 1-2-5 ticks; log axes carry
// decade ticks (with unlabelled 2..9 minor ticks when few decades are shown). Tick labels
// use SI prefixes ("1.5µ", "−300k", "10m"); the minus sign is U+2212. Series get the
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
// Writes a standalone SVG (about 800x560 px). Throws std::runtime_error naming the path
// when the file cannot be written; throws std::invalid_argument (naming the series) when
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

// The one number formatter of tick labels: value / 10^exponent with `decimals` decimals and
// the SI prefix of `exponent` (a multiple of 3 in [-24, 24]; "e<exponent>" outside).
// Uses U+2212 for the minus sign; zero (of either sign, or rounded to zero) is "0".
std::string FormatTick(double value, int exponent, int decimals);

// Escapes & < > " ' for XML text and attribute values; drops the control characters XML 1.0
// forbids (all below U+0020 except tab, LF and CR).
std::string EscapeXml(std::string_view text);

}  // namespace jointdyn::io
