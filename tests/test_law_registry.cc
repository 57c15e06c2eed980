// The registry of the contact-law library (lib/contact/laws/registry.cc): every registered
// law is complete wherever the program presents it. Nothing here counts the laws: each check
// runs over registered_laws(), so adding a law (one registration line) adds its checks.
#include "contact/laws/contact_law.h"
#include "impact/impact_parameters.h"
#include "base/parameter_entries.h"
#include "program/command_line.h"
#include "sweep/program_parameters.h"

#include <deal.II/base/parameter_handler.h>

#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>

namespace
{
  namespace laws = granular::contact::laws;

  /// Expects every entry of @p law's all_parameters() declared in the subsection that @p prm
  /// is in, reading back as its default (@p skip: entries the caller does not declare;
  /// @p changed: entries whose default the caller changes).
  void expect_law_entries(dealii::ParameterHandler &prm, const laws::LawInfo &law,
                          const std::set<std::string> &skip    = {},
                          const std::set<std::string> &changed = {})
  {
    for (const laws::LawParameter &p : law.all_parameters())
      {
        if (skip.count(p.name) > 0)
          continue;
        SCOPED_TRACE(law.id + "/" + p.name);
        std::string text;
        ASSERT_NO_THROW(text = prm.get(p.name));
        if (changed.count(p.name) > 0)
          continue;
        if (p.flag)
          EXPECT_EQ(text, p.default_value == 1. ? "true" : "false");
        else
          EXPECT_EQ(std::stod(text), p.default_value);
      }
  }
} // namespace

TEST(LawRegistry, EveryLawHasAUniqueIdentifierEntryAndDescription)
{
  ASSERT_FALSE(laws::registered_laws().empty());
  std::set<std::string> ids, entries;
  for (const laws::LawInfo &law : laws::registered_laws())
    {
      SCOPED_TRACE(law.id);
      EXPECT_TRUE(std::regex_match(law.id, std::regex("[a-z][a-z0-9_]*")));
      EXPECT_TRUE(ids.insert(law.id).second) << "identifier registered twice";
      EXPECT_TRUE(entries.insert(law.entry).second) << "catalogue entry used twice";
      EXPECT_TRUE(std::regex_match(law.entry, std::regex("[A-H][0-9]+b?")));
      EXPECT_NO_THROW(laws::family(law));
      EXPECT_FALSE(law.title.empty());
      EXPECT_FALSE(law.formula.empty());
      EXPECT_FALSE(law.source.empty());
      EXPECT_TRUE(static_cast<bool>(law.create));
      EXPECT_EQ(laws::find_law(law.id), &law);
      // parameter names unique, defaults inside their ranges
      std::set<std::string> names;
      for (const laws::LawParameter &p : law.all_parameters())
        {
          SCOPED_TRACE(p.name);
          EXPECT_TRUE(names.insert(p.name).second) << "parameter declared twice";
          EXPECT_FALSE(p.doc.empty());
          if (p.flag)
            {
              EXPECT_TRUE(p.default_value == 0. || p.default_value == 1.);
              continue;
            }
          EXPECT_TRUE(p.lower_open ? p.default_value > p.lower : p.default_value >= p.lower);
          EXPECT_LE(p.default_value, p.upper);
        }
    }
}

// Each law owns a parameter subsection named by its identifier, with all its entries and
// their defaults: in the micromechanical cell (Contact/Particle-surface/<identifier>) and in
// contact-impact (Contact laws/<identifier>).
TEST(LawRegistry, EveryLawHasItsParameterSubsection)
{
  dealii::ParameterHandler cell;
  granular::ProgramParameters::declare_parameters(cell);
  dealii::ParameterHandler impact;
  granular::ParameterEntries::declare<granular::impact::ImpactParameters>(impact);
  for (const laws::LawInfo &law : laws::registered_laws())
    {
      SCOPED_TRACE(law.id);
      cell.enter_subsection("Contact");
      cell.enter_subsection("Particle-surface");
      cell.enter_subsection(law.id);
      // the default law's c_N is Contact/Particle-surface/Damping coefficient; the cell's
      // guard of the approach velocity has its own default (100 mm/s)
      expect_law_entries(cell, law, {"Damping coefficient"}, {"Minimum approach velocity"});
      cell.leave_subsection();
      cell.leave_subsection();
      cell.leave_subsection();

      impact.enter_subsection("Contact laws");
      impact.enter_subsection(law.id);
      expect_law_entries(impact, law);
      impact.leave_subsection();
      impact.leave_subsection();
    }
}

// The committed law table docs/contact-law-table.md has one row per registered law (whether
// it is current, is the CTest Docs.ContactLawTableIsCurrent), and --list-laws=markdown writes
// that row from the law's LawInfo.
TEST(LawRegistry, EveryLawHasOneRowInTheLawTable)
{
  std::ifstream      in(std::string(GRANULAR_SOURCE_DIR) + "/docs/contact-law-table.md");
  std::ostringstream text;
  text << in.rdbuf();
  ASSERT_FALSE(text.str().empty()) << "docs/contact-law-table.md is missing";
  const std::string table = granular::contact_law_table();
  std::map<std::string, int> rows, generated_rows;
  std::istringstream         lines(text.str()), generated(table);
  std::string                line;
  const std::regex           row("\\| [A-H][0-9]+b? \\| `([a-z0-9_]+)` \\|.*");
  std::smatch                m;
  while (std::getline(lines, line))
    if (std::regex_match(line, m, row))
      ++rows[m[1]];
  while (std::getline(generated, line))
    if (std::regex_match(line, m, row))
      ++generated_rows[m[1]];
  std::map<std::string, int> expected;
  for (const laws::LawInfo &law : laws::registered_laws())
    expected[law.id] = 1;
  EXPECT_EQ(rows, expected);
  EXPECT_EQ(generated_rows, expected);
  for (const laws::LawInfo &law : laws::registered_laws())
    {
      SCOPED_TRACE(law.id);
      const std::string start = "| " + law.entry + " | `" + law.id + "` | " + laws::family(law);
      EXPECT_NE(table.find(start), std::string::npos);
    }
}
