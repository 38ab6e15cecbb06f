//===- tpuprof/report/views/TextTable.h - Aligned text columns --*- C++ -*-===//
//
// The one layout of every text table the views print (table, summary,
// diff): each column as wide as its widest cell, its title included; text
// left-aligned and numbers right-aligned; columns two spaces apart; no line
// with trailing blanks.
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

  /// Every line starts with `indent` blanks.
  explicit TextTable(unsigned indent = 0) : indent(indent) {}

  /// Adds a column; its title is the first line's cell.
  void addColumn(std::string title, Align align);
  /// A line of cells, one per column (missing ones are blank).
  void addRow(std::vector<std::string> cells);
  /// A line printed as it is where it was added, e.g. "(3 more rows)"; it
  /// does not widen any column.
  void addNote(std::string text);
  /// A line of dashes as wide as the table.
  void addRule();

  size_t numColumns() const { return columns.size(); }
  /// The widest line's length (titles and rows), without the indent.
  size_t width() const;

  void print(llvm::raw_ostream &os) const;

private:
  struct Column {
    Align align;
    size_t width;
  };
  struct Line {
    enum Kind { Cells, Note, Rule } kind;
    std::vector<std::string> cells; ///< Cells; a Note's text is cells[0].
  };
  unsigned indent;
  std::vector<Column> columns;
  std::vector<std::string> titles;
  std::vector<Line> lines;
};

} // namespace report
} // namespace tpuprof

#endif // TPUPROF_REPORT_VIEWS_TEXTTABLE_H
