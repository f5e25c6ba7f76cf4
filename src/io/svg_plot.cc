#include "io/svg_plot.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <limits>
#include <sstream>
#include <stdexcept>
#include <tuple>
#include <utility>

#include "core/atomic_file.h"

namespace jointdyn::io {
namespace {

constexpr double kWidth = 800.0, kHeight = 560.0;                         // canvas [px]
constexpr double kTickFont = 13.0, kLabelFont = 15.0, kTitleFont = 17.0;  // [px]
constexpr double kCharWidth = 0.6;  // average glyph advance / font size (DejaVu Sans)
constexpr double kTickLength = 5.0, kMinorTickLength = 3.0;  // [px]
constexpr double kLineWidth = 1.8, kMarkerSize = 4.0;        // [px]
constexpr double kPadFraction = 0.04;  // data margin inside the frame, of the axis span
constexpr double kMinPixelStep = 0.3;  // polyline points closer than this are merged [px]
constexpr int kMaxTicksX = 8, kMaxTicksY = 7;
constexpr char kFont[] = "DejaVu Sans, Helvetica, Arial, sans-serif";
constexpr char kInk[] = "#222222";

// Okabe & Ito (2008) colour-universal palette, ordered for contrast on white; yellow last.
constexpr std::array<const char*, 8> kPalette = {"#0072B2", "#D55E00", "#009E73", "#E69F00",
                                                 "#CC79A7", "#56B4E9", "#000000", "#F0E442"};
// Once the palette is exhausted, the next rounds of series are dashed, then dotted.
constexpr std::array<const char*, 3> kDashes = {"", "7 4", "2 3"};
enum class Marker { kCircle, kSquare, kDiamond, kTriangleUp, kTriangleDown };
constexpr int kMarkerCount = 5;

struct Point {
  double x, y;
};

struct Box {
  double left, top, right, bottom;
  bool Contains(Point p) const {
    return p.x >= left && p.x <= right && p.y >= top && p.y <= bottom;
  }
};

// Pixel coordinate with two decimals at most, trailing zeros dropped.
std::string Px(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f", v);
  std::string s = buf;
  s.erase(s.find_last_not_of('0') + 1);
  if (s.back() == '.') s.pop_back();
  return s == "-0" ? "0" : s;
}

int CodePoints(std::string_view s) {
  return static_cast<int>(
      std::count_if(s.begin(), s.end(), [](char c) { return (c & 0xC0) != 0x80; }));
}

double TextWidth(std::string_view s, double font_size) {
  return CodePoints(s) * kCharWidth * font_size;
}

// Exponent (multiple of 3) of the SI prefix that shows `magnitude` with 1..3 integer digits.
int EngineeringExponent(double magnitude) {
  if (!(magnitude > 0.0)) return 0;
  const int digits = static_cast<int>(std::floor(std::log10(magnitude) + 1e-9));
  return 3 * static_cast<int>(std::floor(digits / 3.0));
}

// Decimals that resolve `step` once scaled by 10^-exponent.
int Decimals(double step, int exponent) {
  const double scaled = step * std::pow(10.0, -exponent);
  return std::clamp(static_cast<int>(std::ceil(-std::log10(scaled) - 1e-9)), 0, 15);
}

// Linear-axis labels with one common power of ten (a multiple of 3): the candidate exponent
// giving the narrowest labels (a scaled axis counts one character more: its unit changes),
// then the fewest decimals ("200".."1000" rather than "0.2".."1" x 10^3). Returns the
// labels and the exponent.
std::pair<std::vector<std::string>, int> LinearLabels(const std::vector<double>& ticks) {
  const double step = ticks[1] - ticks[0];
  double magnitude = 0.0;
  for (const double t : ticks) magnitude = std::max(magnitude, std::abs(t));
  const int base = EngineeringExponent(magnitude);
  std::vector<std::string> best;
  int best_exponent = 0;
  std::pair<int, int> best_key{std::numeric_limits<int>::max(), 0};
  for (const int exponent : {base, base - 3, base + 3}) {
    const int decimals = Decimals(step, exponent);
    std::vector<std::string> labels;
    int width = exponent == 0 ? 0 : 1;
    for (const double t : ticks) {
      labels.push_back(FormatTick(t, exponent, decimals));
      width = std::max(width, CodePoints(labels.back()) + (exponent == 0 ? 0 : 1));
    }
    if (std::pair{width, decimals} < best_key) {
      best_key = {width, decimals};
      best = std::move(labels);
      best_exponent = exponent;
    }
  }
  return {best, best_exponent};
}

// "⁻¹²" for -12.
std::string Superscript(int n) {
  static constexpr std::array<const char*, 10> kDigits = {"⁰", "¹", "²", "³", "⁴",
                                                          "⁵", "⁶", "⁷", "⁸", "⁹"};
  std::string out = n < 0 ? "⁻" : "";
  for (const char c : std::to_string(std::abs(n))) out += kDigits[c - '0'];
  return out;
}

struct Range {
  double lo = std::numeric_limits<double>::infinity();
  double hi = -std::numeric_limits<double>::infinity();
  bool empty() const { return lo > hi; }
  void Add(double v) {
    lo = std::min(lo, v);
    hi = std::max(hi, v);
  }
};

// One axis: its extent in plotted coordinates (log10 of the value on a log axis), ticks
// as data values, and the pixels of its ends.
struct Axis {
  bool log = false;
  double lo = 0.0, hi = 1.0;
  std::vector<double> major, minor;
  std::vector<std::string> labels;
  int exponent = 0;  // linear: the labels show value / 10^exponent
  double pixel_lo = 0.0, pixel_hi = 1.0;

  double Coordinate(double v) const { return log ? std::log10(v) : v; }
  double Pixel(double v) const {
    return pixel_lo + (Coordinate(v) - lo) / (hi - lo) * (pixel_hi - pixel_lo);
  }
};

bool Usable(double v, bool log) { return std::isfinite(v) && (!log || v > 0.0); }

// `data` is the range of the plotted coordinates of the usable points (may be empty).
Axis MakeAxis(Range data, bool log, int max_ticks) {
  Axis axis;
  axis.log = log;
  if (data.empty()) {
    data = {0.0, 1.0};  // an empty frame: 0..1, or 1..10 on a log axis
  } else if (data.hi - data.lo <= 1e-12 * std::max(std::abs(data.lo), std::abs(data.hi))) {
    const double half = log ? 0.5 : (data.lo == 0.0 ? 1.0 : 0.1 * std::abs(data.lo));
    data = {data.lo - half, data.hi + half};
  } else {
    const double pad = kPadFraction * (data.hi - data.lo);
    data = {data.lo - pad, data.hi + pad};
  }
  axis.lo = data.lo;
  axis.hi = data.hi;
  if (!log) {
    axis.major = NiceTicks(axis.lo, axis.hi, max_ticks);
    std::tie(axis.labels, axis.exponent) = LinearLabels(axis.major);
    return axis;
  }
  // Show at least two decades: widen to the enclosing decades when fewer are inside.
  if (std::floor(axis.hi + 1e-9) - std::ceil(axis.lo - 1e-9) < 1.0) {
    axis.lo = std::floor(axis.lo + 1e-9);
    axis.hi = std::ceil(axis.hi - 1e-9);
  }
  const std::vector<double> decades =
      DecadeTicks(std::pow(10.0, axis.lo), std::pow(10.0, axis.hi), max_ticks);
  const bool every_decade = decades.size() < 2 || std::abs(decades[1] / decades[0] - 10.0) < 1e-6;
  if (every_decade) {
    // Multiples of each decade: labelled 1 (and 2, 5 when fewer than 3 decades show), the
    // rest as minor ticks when the decades are wide enough to tell them apart.
    const bool few = decades.size() < 3;
    for (int k = static_cast<int>(std::floor(axis.lo)); k <= static_cast<int>(std::ceil(axis.hi));
         ++k) {
      for (int m = 1; m <= 9; ++m) {
        const double v = m * std::pow(10.0, k);
        const double c = std::log10(v);
        if (c < axis.lo - 1e-9 || c > axis.hi + 1e-9) continue;
        if (m == 1 || (few && (m == 2 || m == 5))) {
          axis.major.push_back(v);
        } else if (axis.hi - axis.lo <= 6.0) {
          axis.minor.push_back(v);
        }
      }
    }
  } else {  // every n-th decade labelled, the others as minor ticks
    axis.major = decades;
    for (int k = static_cast<int>(std::ceil(axis.lo - 1e-9));
         k <= static_cast<int>(std::floor(axis.hi + 1e-9)); ++k) {
      const double decade = std::pow(10.0, k);
      if (std::none_of(decades.begin(), decades.end(),
                       [&](double t) { return std::abs(t / decade - 1.0) < 1e-6; })) {
        axis.minor.push_back(decade);
      }
    }
  }
  for (const double t : axis.major) axis.labels.push_back(FormatPowerTick(t));
  return axis;
}

std::string SeriesName(const PlotSpec& spec, std::size_t i) {
  std::string name = "plot series #" + std::to_string(i);
  if (!spec.series[i].label.empty()) name += " '" + spec.series[i].label + "'";
  return name;
}

// Checks every series and returns the data ranges in plotted coordinates.
std::pair<Range, Range> DataRanges(const PlotSpec& spec) {
  Range x_range, y_range;
  for (std::size_t i = 0; i < spec.series.size(); ++i) {
    const PlotSeries& s = spec.series[i];
    if (s.x.size() != s.y.size()) {
      throw std::invalid_argument(SeriesName(spec, i) + ": x has " + std::to_string(s.x.size()) +
                                  " values but y has " + std::to_string(s.y.size()));
    }
    bool any_finite = false, any_usable = false;
    for (std::size_t j = 0; j < s.x.size(); ++j) {
      any_finite = any_finite || (std::isfinite(s.x[j]) && std::isfinite(s.y[j]));
      if (Usable(s.x[j], spec.log_x) && Usable(s.y[j], spec.log_y)) {
        any_usable = true;
        x_range.Add(spec.log_x ? std::log10(s.x[j]) : s.x[j]);
        y_range.Add(spec.log_y ? std::log10(s.y[j]) : s.y[j]);
      }
    }
    if (any_finite && !any_usable) {
      const char* axes = spec.log_x && spec.log_y ? "x and y axes"
                         : spec.log_x             ? "x axis"
                                                  : "y axis";
      throw std::invalid_argument(SeriesName(spec, i) +
                                  ": no point has positive values on the log " + axes);
    }
  }
  return {x_range, y_range};
}

// A series in pixels: runs of consecutive usable points (a skipped point breaks the line).
std::vector<std::vector<Point>> PixelRuns(const PlotSeries& s, const Axis& x, const Axis& y) {
  std::vector<std::vector<Point>> runs(1);
  for (std::size_t j = 0; j < s.x.size(); ++j) {
    if (Usable(s.x[j], x.log) && Usable(s.y[j], y.log)) {
      runs.back().push_back({x.Pixel(s.x[j]), y.Pixel(s.y[j])});
    } else if (!runs.back().empty()) {
      runs.emplace_back();
    }
  }
  if (runs.back().empty()) runs.pop_back();
  return runs;
}

struct Style {
  const char* color;
  const char* dash;
  Marker marker;
};

Style StyleOf(std::size_t i) {
  return {kPalette[i % kPalette.size()], kDashes[(i / kPalette.size()) % kDashes.size()],
          static_cast<Marker>(i % kMarkerCount)};
}

// A <rect> covering `box`, with further attributes `extra` (" name=\"value\"...").
void WriteRect(std::ostream& out, const Box& box, std::string_view extra) {
  out << "<rect x=\"" << Px(box.left) << "\" y=\"" << Px(box.top) << "\" width=\""
      << Px(box.right - box.left) << "\" height=\"" << Px(box.bottom - box.top) << '"' << extra
      << "/>\n";
}

// Opens a <g> that strokes the lines of a series (closed by the caller).
void OpenLineGroup(std::ostream& out, const Style& style) {
  out << "<g fill=\"none\" stroke=\"" << style.color << "\" stroke-width=\"" << Px(kLineWidth)
      << "\" stroke-linejoin=\"round\" stroke-linecap=\"round\"";
  if (*style.dash) out << " stroke-dasharray=\"" << style.dash << '"';
  out << ">\n";
}

// Opens a <g> that fills the markers of a series (closed by the caller).
void OpenMarkerGroup(std::ostream& out, const Style& style) {
  out << "<g fill=\"" << style.color << "\" stroke=\"#ffffff\" stroke-width=\"0.8\">\n";
}

// One marker centred at `p`; the fill and stroke come from the enclosing group.
void WriteMarker(std::ostream& out, Marker marker, Point p) {
  const double r = kMarkerSize;
  switch (marker) {
    case Marker::kCircle:
      out << "<circle cx=\"" << Px(p.x) << "\" cy=\"" << Px(p.y) << "\" r=\"" << Px(r) << "\"/>";
      break;
    case Marker::kSquare: {
      const double h = 0.85 * r;
      WriteRect(out, {p.x - h, p.y - h, p.x + h, p.y + h}, "");
      return;
    }
    case Marker::kDiamond:
    case Marker::kTriangleUp:
    case Marker::kTriangleDown: {
      const double d = 1.15 * r;
      std::array<Point, 4> v;
      std::size_t n = 3;
      if (marker == Marker::kDiamond) {
        v = {{{0, -d}, {d, 0}, {0, d}, {-d, 0}}};
        n = 4;
      } else {
        const double sign = marker == Marker::kTriangleUp ? 1.0 : -1.0;
        v = {{{0, -sign * d}, {0.9 * d, sign * 0.6 * d}, {-0.9 * d, sign * 0.6 * d}, {}}};
      }
      out << "<path d=\"M";
      for (std::size_t k = 0; k < n; ++k) {
        out << (k ? " " : "") << Px(p.x + v[k].x) << ' ' << Px(p.y + v[k].y);
      }
      out << "Z\"/>";
      break;
    }
  }
  out << '\n';
}

void WriteText(std::ostream& out, Point at, std::string_view anchor, double font_size,
               std::string_view text, std::string_view extra = "") {
  out << "<text x=\"" << Px(at.x) << "\" y=\"" << Px(at.y) << "\" text-anchor=\"" << anchor
      << "\" font-size=\"" << Px(font_size) << '"' << extra << '>' << EscapeXml(text)
      << "</text>\n";
}

void WriteLine(std::ostream& out, Point a, Point b) {
  out << "<line x1=\"" << Px(a.x) << "\" y1=\"" << Px(a.y) << "\" x2=\"" << Px(b.x) << "\" y2=\""
      << Px(b.y) << "\"/>\n";
}

// How much of the drawn data lies under `box`: the points, and for series drawn with a
// line, points sampled every few pixels along it.
int DataUnder(const Box& box, const PlotSpec& spec,
              const std::vector<std::vector<std::vector<Point>>>& all_runs) {
  int count = 0;
  for (std::size_t i = 0; i < all_runs.size(); ++i) {
    for (const auto& run : all_runs[i]) {
      for (std::size_t j = 0; j < run.size(); ++j) {
        count += box.Contains(run[j]);
        if (j == 0 || !spec.series[i].line) continue;
        const Point a = run[j - 1], b = run[j];
        const int pieces = std::min(200, static_cast<int>(std::hypot(b.x - a.x, b.y - a.y) / 4));
        for (int k = 1; k < pieces; ++k) {
          const double t = static_cast<double>(k) / pieces;
          count += box.Contains({a.x + t * (b.x - a.x), a.y + t * (b.y - a.y)});
        }
      }
    }
  }
  return count;
}

}  // namespace

std::vector<double> NiceTicks(double lo, double hi, int max_count) {
  if (!(std::isfinite(lo) && std::isfinite(hi) && lo < hi) || max_count < 5) {
    throw std::invalid_argument("NiceTicks: needs finite lo < hi and max_count >= 5");
  }
  // Start a decade below the smallest step that could fit and take the first that does.
  double decade = std::pow(10.0, std::floor(std::log10((hi - lo) / max_count)) - 1.0);
  for (;; decade *= 10.0) {
    for (const double m : {1.0, 2.0, 5.0}) {
      const double step = m * decade;
      const double first = std::ceil(lo / step - 1e-9), last = std::floor(hi / step + 1e-9);
      if (last - first + 1.0 > max_count) continue;
      std::vector<double> ticks;
      for (double i = first; i <= last; i += 1.0) ticks.push_back(i * step);
      return ticks;
    }
  }
}

std::vector<double> DecadeTicks(double lo, double hi, int max_count) {
  if (!(lo > 0.0 && lo < hi && std::isfinite(hi)) || max_count < 1) {
    throw std::invalid_argument("DecadeTicks: needs 0 < lo < hi finite and max_count >= 1");
  }
  const int k_lo = static_cast<int>(std::ceil(std::log10(lo) - 1e-9));
  const int k_hi = static_cast<int>(std::floor(std::log10(hi) + 1e-9));
  std::vector<double> ticks;
  for (int n = 1; k_lo <= k_hi; ++n) {
    const int first = n * static_cast<int>(std::ceil(static_cast<double>(k_lo) / n));
    if ((k_hi - first) / n + 1 > max_count) continue;
    for (int k = first; k <= k_hi; k += n) ticks.push_back(std::pow(10.0, k));
    break;
  }
  return ticks;
}

std::string FormatTick(double value, int exponent, int decimals) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, value / std::pow(10.0, exponent));
  std::string digits = buf;
  if (digits.find_first_not_of("-0.") == std::string::npos) return "0";  // also -0 and residues
  if (digits.front() == '-') digits.replace(0, 1, "−");
  return digits;
}

std::string FormatPowerTick(double value) {
  const int k = static_cast<int>(std::floor(std::log10(value) + 1e-9));
  const int m = static_cast<int>(std::lround(value / std::pow(10.0, k)));
  if (k >= -3 && k <= 3) return FormatTick(value, 0, std::max(0, -k));
  return (m == 1 ? "" : std::to_string(m) + "×") + "10" + Superscript(k);
}

std::string ScaledAxisLabel(const std::string& label, int exponent) {
  if (exponent == 0) return label;
  static constexpr std::array<const char*, 17> kPrefixes = {
      "y", "z", "a", "f", "p", "n", "µ", "m", "", "k", "M", "G", "T", "P", "E", "Z", "Y"};
  static const std::vector<std::string> kSymbols = {"m",  "N", "Pa",  "J", "W",
                                                    "Hz", "s", "rad", "g"};
  const std::string factor = "×10" + Superscript(exponent);
  const size_t open = label.rfind('['), close = label.rfind(']');
  if (open == std::string::npos || close == std::string::npos || close < open)
    return label + " [" + factor + "]";
  const std::string unit = label.substr(open + 1, close - open - 1);
  const size_t end = unit.find_first_of(" /^*·");
  const std::string symbol = unit.substr(0, end);
  // A power of the symbol ("m^2") would take the prefix's power too: a factor instead.
  const bool prefixable = exponent % 3 == 0 && std::abs(exponent) <= 24 &&
                          (end == std::string::npos || unit[end] != '^') &&
                          std::find(kSymbols.begin(), kSymbols.end(), symbol) != kSymbols.end();
  std::string scaled;
  if (prefixable)
    scaled = kPrefixes[(exponent + 24) / 3] + unit;
  else
    scaled = unit.empty() || unit == "-" ? factor : factor + " " + unit;
  return label.substr(0, open + 1) + scaled + label.substr(close);
}

std::string EscapeXml(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (const char c : text) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&apos;";
        break;
      default:  // XML 1.0 allows no control characters other than tab and line breaks
        if (static_cast<unsigned char>(c) >= 0x20 || c == '\t' || c == '\n' || c == '\r') {
          out += c;
        }
    }
  }
  return out;
}

namespace {

using SeriesRuns = std::vector<std::vector<Point>>;

// Grid: light lines at the major ticks, lighter ones at the log minor ticks.
void WriteGrid(std::ostream& out, const Box& plot, const Axis& x, const Axis& y) {
  const auto grid = [&](const std::vector<double>& xs, const std::vector<double>& ys,
                        const char* color) {
    if (xs.empty() && ys.empty()) return;
    out << "<g stroke=\"" << color << "\" stroke-width=\"1\">\n";
    for (const double v : xs) WriteLine(out, {x.Pixel(v), plot.top}, {x.Pixel(v), plot.bottom});
    for (const double v : ys) WriteLine(out, {plot.left, y.Pixel(v)}, {plot.right, y.Pixel(v)});
    out << "</g>\n";
  };
  grid(x.minor, y.minor, "#f2f2f2");
  grid(x.major, y.major, "#dddddd");
}

// Frame (over the data), ticks, tick labels and axis labels.
void WriteAxes(std::ostream& out, const PlotSpec& spec, const Box& plot, const Axis& x,
               const Axis& y) {
  WriteRect(out, plot, std::string(" fill=\"none\" stroke=\"") + kInk + "\" stroke-width=\"1.2\"");
  out << "<g stroke=\"" << kInk << "\" stroke-width=\"1\">\n";
  for (const double v : x.major) {
    WriteLine(out, {x.Pixel(v), plot.bottom}, {x.Pixel(v), plot.bottom + kTickLength});
  }
  for (const double v : x.minor) {
    WriteLine(out, {x.Pixel(v), plot.bottom}, {x.Pixel(v), plot.bottom + kMinorTickLength});
  }
  for (const double v : y.major) {
    WriteLine(out, {plot.left - kTickLength, y.Pixel(v)}, {plot.left, y.Pixel(v)});
  }
  for (const double v : y.minor) {
    WriteLine(out, {plot.left - kMinorTickLength, y.Pixel(v)}, {plot.left, y.Pixel(v)});
  }
  out << "</g>\n";
  for (std::size_t k = 0; k < x.major.size(); ++k) {
    WriteText(out, {x.Pixel(x.major[k]), plot.bottom + kTickLength + 4.0 + 0.8 * kTickFont},
              "middle", kTickFont, x.labels[k]);
  }
  for (std::size_t k = 0; k < y.major.size(); ++k) {
    WriteText(out, {plot.left - kTickLength - 4.0, y.Pixel(y.major[k]) + 0.35 * kTickFont}, "end",
              kTickFont, y.labels[k]);
  }

  if (!spec.x_label.empty()) {
    WriteText(out, {(plot.left + plot.right) / 2, kHeight - 18.0}, "middle", kLabelFont,
              ScaledAxisLabel(spec.x_label, x.exponent));
  }
  if (!spec.y_label.empty()) {
    const Point at{18.0 + 0.8 * kLabelFont, (plot.top + plot.bottom) / 2};
    out << "<text transform=\"translate(" << Px(at.x) << ' ' << Px(at.y)
        << ") rotate(-90)\" text-anchor=\"middle\" font-size=\"" << Px(kLabelFont) << "\">"
        << EscapeXml(ScaledAxisLabel(spec.y_label, y.exponent)) << "</text>\n";
  }
}

// The series, clipped to the plot area: all lines first, then the markers on top.
void WriteData(std::ostream& out, const PlotSpec& spec, const std::vector<SeriesRuns>& runs) {
  out << "<g clip-path=\"url(#plot-area)\">\n";
  for (std::size_t i = 0; i < spec.series.size(); ++i) {
    if (!spec.series[i].line) continue;
    const Style style = StyleOf(i);
    OpenLineGroup(out, style);
    for (const auto& run : runs[i]) {
      if (run.size() == 1 && !spec.series[i].markers) {  // a lone point: a dot
        out << "<circle cx=\"" << Px(run[0].x) << "\" cy=\"" << Px(run[0].y) << "\" r=\""
            << Px(kLineWidth) << "\" fill=\"" << style.color << "\" stroke=\"none\"/>\n";
        continue;
      }
      out << "<polyline points=\"";
      Point last = run.front();
      out << Px(last.x) << ',' << Px(last.y);
      for (std::size_t j = 1; j < run.size(); ++j) {
        const Point p = run[j];
        if (j + 1 < run.size() && std::hypot(p.x - last.x, p.y - last.y) < kMinPixelStep) {
          continue;
        }
        out << ' ' << Px(p.x) << ',' << Px(p.y);
        last = p;
      }
      out << "\"/>\n";
    }
    out << "</g>\n";
  }
  for (std::size_t i = 0; i < spec.series.size(); ++i) {
    if (!spec.series[i].markers) continue;
    const Style style = StyleOf(i);
    OpenMarkerGroup(out, style);
    for (const auto& run : runs[i]) {
      for (const Point p : run) WriteMarker(out, style.marker, p);
    }
    out << "</g>\n";
  }
  out << "</g>\n";
}

// The legend of the labelled series, in the corner of the plot area that hides the least
// data.
void WriteLegend(std::ostream& out, const PlotSpec& spec, const Box& plot,
                 const std::vector<SeriesRuns>& runs) {
  std::vector<std::size_t> entries;
  double text_width = 0.0;
  for (std::size_t i = 0; i < spec.series.size(); ++i) {
    if (spec.series[i].label.empty()) continue;
    entries.push_back(i);
    text_width = std::max(text_width, TextWidth(spec.series[i].label, kTickFont));
  }
  if (entries.empty()) return;
  constexpr double kInset = 10.0, kRow = 20.0, kSample = 28.0;
  const double w = 10.0 + kSample + 8.0 + text_width + 10.0;
  const double h = 8.0 + kRow * entries.size();
  const double left = plot.left + kInset, right = plot.right - kInset - w;
  const double top = plot.top + kInset, bottom = plot.bottom - kInset - h;
  Box box{};
  int least = std::numeric_limits<int>::max();
  for (const Point corner :
       {Point{right, top}, Point{left, top}, Point{right, bottom}, Point{left, bottom}}) {
    const Box candidate{corner.x, corner.y, corner.x + w, corner.y + h};
    const int under = DataUnder(
        {candidate.left - 4, candidate.top - 4, candidate.right + 4, candidate.bottom + 4}, spec,
        runs);
    if (under < least) {
      least = under;
      box = candidate;
    }
  }
  WriteRect(
      out, box,
      " fill=\"#ffffff\" fill-opacity=\"0.9\" stroke=\"#bbbbbb\" stroke-width=\"1\" rx=\"3\"");
  for (std::size_t r = 0; r < entries.size(); ++r) {
    const PlotSeries& s = spec.series[entries[r]];
    const Style style = StyleOf(entries[r]);
    const double row_y = box.top + 4.0 + kRow * (r + 0.5);
    const Point a{box.left + 10.0, row_y}, b{box.left + 10.0 + kSample, row_y};
    if (s.line) {
      OpenLineGroup(out, style);
      WriteLine(out, a, b);
      out << "</g>\n";
    }
    if (s.markers) {
      OpenMarkerGroup(out, style);
      WriteMarker(out, style.marker, {(a.x + b.x) / 2, row_y});
      out << "</g>\n";
    }
    WriteText(out, {b.x + 8.0, row_y + 0.35 * kTickFont}, "start", kTickFont, s.label);
  }
}

}  // namespace

std::string RenderSvgPlot(const PlotSpec& spec) {
  const auto [x_data, y_data] = DataRanges(spec);
  Axis x = MakeAxis(x_data, spec.log_x, kMaxTicksX);
  Axis y = MakeAxis(y_data, spec.log_y, kMaxTicksY);

  // Layout: the left margin fits the rotated y label and the widest y tick label.
  double y_tick_width = 0.0;
  for (const auto& label : y.labels) {
    y_tick_width = std::max(y_tick_width, TextWidth(label, kTickFont));
  }
  const Box plot{18.0 + kLabelFont + 10.0 + y_tick_width + kTickLength + 6.0,
                 spec.title.empty() ? 24.0 : 56.0, kWidth - 28.0, kHeight - 64.0};
  x.pixel_lo = plot.left;
  x.pixel_hi = plot.right;
  y.pixel_lo = plot.bottom;
  y.pixel_hi = plot.top;
  std::vector<SeriesRuns> runs;
  for (const auto& s : spec.series) runs.push_back(PixelRuns(s, x, y));

  std::ostringstream out;
  out << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << Px(kWidth) << "\" height=\""
      << Px(kHeight) << "\" viewBox=\"0 0 " << Px(kWidth) << ' ' << Px(kHeight)
      << "\" font-family=\"" << kFont << "\" fill=\"" << kInk << "\">\n";
  out << "<defs><clipPath id=\"plot-area\">";
  WriteRect(out, plot, "");
  out << "</clipPath></defs>\n";
  WriteRect(out, {0.0, 0.0, kWidth, kHeight}, " fill=\"#ffffff\"");
  if (!spec.title.empty()) {
    WriteText(out, {(plot.left + plot.right) / 2, 34.0}, "middle", kTitleFont, spec.title,
              " font-weight=\"bold\"");
  }
  WriteGrid(out, plot, x, y);
  WriteData(out, spec, runs);
  WriteAxes(out, spec, plot, x, y);
  WriteLegend(out, spec, plot, runs);
  if (x_data.empty()) {
    WriteText(out, {(plot.left + plot.right) / 2, (plot.top + plot.bottom) / 2 + 0.35 * kLabelFont},
              "middle", kLabelFont, spec.series.empty() ? "no data series" : "no plottable data",
              " fill=\"#888888\" font-style=\"italic\"");
  }
  out << "</svg>\n";
  return out.str();
}

void WriteSvgPlot(const PlotSpec& spec, const std::filesystem::path& path) {
  WriteFileAtomically(path, RenderSvgPlot(spec));
}

}  // namespace jointdyn::io
