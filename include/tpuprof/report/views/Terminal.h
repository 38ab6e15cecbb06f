//===- tpuprof/report/views/Terminal.h - What reaches a terminal -*- C++
//-*-===//
//
// What every text view (table, summary, diff, stacks, listings) and every
// tool that prints one (tpuprof-report, tpuprof-run, tpuprof-annotate)
// share about their output: how wide the terminal is, whether to colour,
// and that text from a dump (op names, shapes, locations, event names) is
// escaped before it is printed, so that no control character in it can
// move the cursor, colour the terminal or split a line.
//
//===----------------------------------------------------------------------===//

#ifndef TPUPROF_REPORT_VIEWS_TERMINAL_H
#define TPUPROF_REPORT_VIEWS_TERMINAL_H

#include "llvm/ADT/StringRef.h"

#include <string>

namespace tpuprof {
namespace report {

/// The width to fit a table printed on `fd` into: 0 when `fd` is not a
/// terminal; else COLUMNS when it is set to a positive number, else what
/// the terminal says (TIOCGWINSZ), else 0 (no limit).
unsigned terminalColumns(int fd);

/// Whether a view printed on stdout may use ANSI colours: LLVM's --color
/// when given, else not when NO_COLOR is set and not empty, else whether
/// stdout is a terminal.
bool useColour();

/// `text` safe to print: every control character (C0, DEL and the C1
/// code points) and every byte that is not part of valid UTF-8 is written
/// as a C escape ("\n", "\t", "\r", "\x1b", "\u009b" for a C1 code
/// point); all else, UTF-8 included, is kept as it is.
std::string printable(llvm::StringRef text);

} // namespace report
} // namespace tpuprof

#endif // TPUPROF_REPORT_VIEWS_TERMINAL_H
