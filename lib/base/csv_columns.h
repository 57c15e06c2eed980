#pragma once
/**
 * @file csv_columns.h
 * A CSV output file defined once: a table of columns, each with its name, unit, meaning and
 * how its value is written from the file's row type, from which the header, every row and the
 * documentation table (docs/outputs.md) are all made, as ASPECT's statistics table does.
 */
#include <functional>
#include <ostream>
#include <string>
#include <vector>

namespace granular
{
  /// One column of a CSV file whose rows are made from a @p Row.
  template <class Row>
  struct CsvColumn
  {
    std::string name;    ///< the header's name, also the name of the member it writes
    std::string unit;    ///< for the documentation ("-" for a number without unit)
    std::string meaning; ///< for the documentation (markdown)
    /// writes the value of @p row (nothing for an empty field)
    std::function<void(std::ostream &, const Row &)> write;
  };

  /// The column @p name of the member @p member of @p Row, written with the stream's format.
  template <class Row, class T>
  CsvColumn<Row> member_column(std::string name, std::string unit, std::string meaning,
                               T Row::*member)
  {
    return {std::move(name), std::move(unit), std::move(meaning),
            [member](std::ostream &o, const Row &r) { o << r.*member; }};
  }

  /// The header line (names joined by commas, no line end).
  template <class Row>
  std::string csv_header(const std::vector<CsvColumn<Row>> &columns)
  {
    std::string header;
    for (const CsvColumn<Row> &c : columns)
      header += (header.empty() ? "" : ",") + c.name;
    return header;
  }

  /// Writes the row of @p row (fields joined by commas, no line end) to @p o.
  template <class Row>
  void write_csv_row(std::ostream &o, const std::vector<CsvColumn<Row>> &columns, const Row &row)
  {
    for (std::size_t i = 0; i < columns.size(); ++i)
      {
        if (i > 0)
          o << ',';
        columns[i].write(o, row);
      }
  }

  /// The markdown table "| column | unit | meaning |" of @p columns, consecutive columns of
  /// the same unit and meaning in one line.
  template <class Row>
  std::string markdown_column_table(const std::vector<CsvColumn<Row>> &columns)
  {
    std::string table = "| column | unit | meaning |\n|---|---|---|\n";
    for (std::size_t i = 0; i < columns.size();)
      {
        std::size_t j     = i;
        std::string names = "`" + columns[i].name + "`";
        while (j + 1 < columns.size() && columns[j + 1].unit == columns[i].unit &&
               columns[j + 1].meaning == columns[i].meaning)
          names += ", `" + columns[++j].name + "`";
        table += "| " + names + " | " + columns[i].unit + " | " + columns[i].meaning + " |\n";
        i = j + 1;
      }
    return table;
  }
} // namespace granular
