//===- report/views/TextTable.cpp - Aligned text columns ------------------===//

#include "tpuprof/report/views/TextTable.h"
#include "tpuprof/report/views/Terminal.h"

#include "llvm/ADT/StringRef.h"

#include <algorithm>

using namespace llvm;
using namespace tpuprof::report;

void TextTable::addColumn(std::string title, Align align) {
  title = printable(title);
  columns.push_back({align, title.size(), SIZE_MAX});
  titles.push_back(std::move(title));
}

void TextTable::addRow(std::vector<std::string> cells, Style rowStyle,
                       std::vector<Style> styles) {
  cells.resize(std::max(cells.size(), columns.size()));
  styles.resize(cells.size(), rowStyle);
  // Names, shapes and locations come from the dumps: nothing in them may
  // reach a terminal as a control character.
  for (std::string &cell : cells)
    cell = printable(cell);
  for (size_t c = 0; c != columns.size(); ++c)
    columns[c].width = std::max(columns[c].width, cells[c].size());
  lines.push_back({Line::Cells, std::move(cells), std::move(styles)});
}

void TextTable::addNote(std::string text) {
  lines.push_back({Line::Note, {printable(text)}, {}});
}

void TextTable::addRule() { lines.push_back({Line::Rule, {}, {}}); }

void TextTable::setMaxWidth(size_t c, size_t width) {
  columns[c].maxWidth = std::max<size_t>(width, 4);
}

size_t TextTable::columnWidth(size_t c) const {
  return std::min(columns[c].width, columns[c].maxWidth);
}

size_t TextTable::width() const {
  size_t w = 0;
  for (size_t c = 0; c != columns.size(); ++c)
    w += columnWidth(c) + (c ? 2 : 0);
  return w;
}

void TextTable::print(raw_ostream &os, bool colour) const {
  auto escape = [](Style s) -> StringRef {
    switch (s) {
    case Style::Plain:
      return "";
    case Style::Bold:
      return "\x1b[1m";
    case Style::Dim:
      return "\x1b[2m";
    case Style::Red:
      return "\x1b[31m";
    case Style::Yellow:
      return "\x1b[33m";
    }
    return "";
  };
  std::string out;
  auto printCells = [&](const std::vector<std::string> &cells,
                        const std::vector<Style> &styles) {
    out.assign(indent, ' ');
    size_t plainEnd = 0; // Where the line ends without trailing blanks.
    for (size_t c = 0; c != columns.size(); ++c) {
      if (c)
        out += "  ";
      size_t w = columnWidth(c);
      std::string cell = cells[c];
      if (cell.size() > w)
        cell = cell.substr(0, w - 3) + "...";
      size_t pad = w - cell.size();
      if (columns[c].align == Align::Right)
        out.append(pad, ' ');
      StringRef on = colour && !cell.empty() ? escape(styles[c]) : "";
      out += on;
      out += cell;
      if (!on.empty())
        out += "\x1b[0m";
      if (!cell.empty())
        plainEnd = out.size();
      if (columns[c].align == Align::Left)
        out.append(pad, ' ');
    }
    out.resize(plainEnd ? plainEnd : std::min<size_t>(out.size(), indent));
    os << StringRef(out).rtrim(' ') << '\n';
  };
  printCells(titles, std::vector<Style>(columns.size(), Style::Bold));
  for (const Line &l : lines) {
    switch (l.kind) {
    case Line::Cells:
      printCells(l.cells, l.styles);
      break;
    case Line::Note:
      if (colour)
        os << escape(Style::Dim) << l.cells[0] << "\x1b[0m\n";
      else
        os << l.cells[0] << '\n';
      break;
    case Line::Rule:
      os << std::string(indent, ' ') << std::string(width(), '-') << '\n';
      break;
    }
  }
}
