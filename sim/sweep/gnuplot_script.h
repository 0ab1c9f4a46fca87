// Helpers for the gnuplot scripts `stcsim report` writes next to its PNGs (kept, so a
// user can restyle a plot and rerun `gnuplot FILE.gp`). gnuplot comes from Debian's
// gnuplot-nox; its pngcairo terminal needs no display.
#pragma once
#include <string>
#include <vector>

namespace stcsim::sweep {

// gnuplot on PATH (or $STCSIM_GNUPLOT), or "" when there is none.
std::string find_gnuplot();
// Runs `gnuplot script` inside the script's folder; returns "" or gnuplot's complaint.
// `png` (the name the script's gp_output() sets, relative to that folder) is drawn under a
// temporary name and renamed over the old one only when gnuplot succeeds, so a failed or
// killed plot leaves the previous PNG whole and no partial file.
std::string run_gnuplot(const std::string& gnuplot, const std::string& script_path,
                        const std::string& png);
// `set output` for `png`: the file itself when a user runs the script from its folder,
// the temporary name run_gnuplot() passes in (gnuplot -e) when stcsim runs it.
std::string gp_output(const std::string& png);

// A gnuplot string literal: single quotes, '' for a quote.
std::string gp_str(const std::string& s);
// Text for inside a double-quoted gnuplot string (where \n is a line break).
std::string gp_dq(const std::string& s);
// A file name made of the safe characters of `s` ("l2.capacity_kib" -> "l2_capacity_kib").
std::string safe_name(const std::string& s);
// Terminal, output and the house style every plot shares.
std::string gp_preamble(const std::string& png, int width, int height);
// Distinct colours that stay readable for colour-blind readers (Okabe-Ito, then more).
std::string series_color(std::size_t i);
// The same colour with transparency, for clouds of points behind lines.
std::string faded_color(std::size_t i);
// "NaN" or the shortest text of v, for data files.
std::string gp_number(double v);

}  // namespace stcsim::sweep
