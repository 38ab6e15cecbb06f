//===- tpuprof/report/views/TextTable.h - Aligned text columns --*- C++ -*-===//
//
// The one layout of every text table the views print (table, summary,
// diff): each column as wide as its widest cell, its title included; text
// left-aligned and numbers right-aligned; columns two spaces apart; no line
// with trailing blanks. On a terminal, cells may carry a colour. Titles,
// cells and notes are escaped (Terminal.h printable()): control characters
// in names from a dump show as escapes and never reach the terminal.
//
//===----------------------------------------------------------------------===//

#ifndef TPUPROF_REPORT_VIEWS_TEXTTABLE_H
#define TPUPROF_REPORT_VIEWS_TEXTTABLE_H

#include "llvm/Support/raw_ostream.h"

#include <string>
#include <vector>

namespace tpuprof {
namespace report {

class TextTable {
public:
  enum class Align { Left, Right };
  /// How a cell is drawn when colours are on (print()).
  enum class Style : uint8_t { Plain, Bold, Dim, Red, Yellow };

  /// Every line starts with `indent` blanks.
  explicit TextTable(unsigned indent = 0) : indent(indent) {}

  /// Adds a column; its title is the first line's cell.
  void addColumn(std::string title, Align align);
  /// A line of cells, one per column (missing ones are blank); `styles`
  /// per cell (missing ones: `rowStyle`).
  void addRow(std::vector<std::string> cells, Style rowStyle = Style::Plain,
              std::vector<Style> styles = {});
  /// A line printed as it is where it was added, e.g. "(3 more rows)"; it
  /// does not widen any column.
  void addNote(std::string text);
  /// A line of dashes as wide as the table.
  void addRule();
  /// Cells of column `c` longer than `width` are cut to it, ending in
  /// "...".
  void setMaxWidth(size_t c, size_t width);

  size_t numColumns() const { return columns.size(); }
  /// The widest line's length (titles and rows), without the indent.
  size_t width() const;
  /// Column `c`'s width.
  size_t columnWidth(size_t c) const;

  /// `colour`: ANSI escapes for titles (bold), styles and notes (dim).
  void print(llvm::raw_ostream &os, bool colour = false) const;

private:
  struct Column {
    Align align;
    size_t width;    ///< Of the widest cell.
    size_t maxWidth; ///< SIZE_MAX: no limit.
  };
  struct Line {
    enum Kind { Cells, Note, Rule } kind;
    std::vector<std::string> cells; ///< Cells; a Note's text is cells[0].
    std::vector<Style> styles;
  };
  unsigned indent;
  std::vector<Column> columns;
  std::vector<std::string> titles;
  std::vector<Line> lines;
};

} // namespace report
} // namespace tpuprof

#endif // TPUPROF_REPORT_VIEWS_TEXTTABLE_H
