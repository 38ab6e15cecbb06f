//===- report/views/TextTable.cpp - Aligned text columns ------------------===//

#include "tpuprof/report/views/TextTable.h"

#include "llvm/ADT/StringRef.h"

#include <algorithm>

using namespace llvm;
using namespace tpuprof::report;

void TextTable::addColumn(std::string title, Align align) {
  columns.push_back({align, title.size()});
  titles.push_back(std::move(title));
}

void TextTable::addRow(std::vector<std::string> cells) {
  cells.resize(std::max(cells.size(), columns.size()));
  for (size_t c = 0; c != columns.size(); ++c)
    columns[c].width = std::max(columns[c].width, cells[c].size());
  lines.push_back({Line::Cells, std::move(cells)});
}

void TextTable::addNote(std::string text) {
  lines.push_back({Line::Note, {std::move(text)}});
}

void TextTable::addRule() { lines.push_back({Line::Rule, {}}); }

size_t TextTable::width() const {
  size_t w = 0;
  for (size_t c = 0; c != columns.size(); ++c)
    w += columns[c].width + (c ? 2 : 0);
  return w;
}

void TextTable::print(raw_ostream &os) const {
  std::string out;
  auto printCells = [&](const std::vector<std::string> &cells) {
    out.assign(indent, ' ');
    for (size_t c = 0; c != columns.size(); ++c) {
      if (c)
        out += "  ";
      const std::string &cell = cells[c];
      size_t pad = columns[c].width - std::min(columns[c].width, cell.size());
      if (columns[c].align == Align::Right)
        out.append(pad, ' ');
      out += cell;
      if (columns[c].align == Align::Left)
        out.append(pad, ' ');
    }
    os << StringRef(out).rtrim(' ') << '\n';
  };
  printCells(titles);
  for (const Line &l : lines) {
    switch (l.kind) {
    case Line::Cells:
      printCells(l.cells);
      break;
    case Line::Note:
      os << l.cells[0] << '\n';
      break;
    case Line::Rule:
      os << std::string(indent, ' ') << std::string(width(), '-') << '\n';
      break;
    }
  }
}
