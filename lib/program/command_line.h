#pragma once
/**
 * @file command_line.h
 * The command line contract of docs/methods.md §8.1:
 *   granular-interface [options] PARAMETER_FILE.prm
 *     --output-directory DIR, --set "Sub/section/Entry=value" (repeatable),
 *     --restart, --overwrite, --allow-long-run, --threads N, --record-attempts N[,EVERY[,FROM]],
 *     --print-parameters[=used|json],
 *     --list-laws[=markdown], --print-columns, --defaults, --help, --version
 */
#include "sweep/program_parameters.h"

#include <string>
#include <vector>

namespace granular
{
  /// What --print-parameters prints.
  enum class ParameterListing
  {
    all,  ///< --print-parameters: every entry with its default and documentation
    used, ///< --print-parameters=used: the entries the run uses (used_parameter_file())
    json  ///< --print-parameters=json: every entry (default, pattern, documentation) as JSON
  };

  /// What the user asked for on the command line.
  struct CommandLineOptions
  {
    std::string              parameter_file;   ///< empty: none given
    std::string              output_directory; ///< empty: keep the file's entry
    std::vector<std::string> set_entries;      ///< "Sub/section/Entry=value"
    bool                     restart          = false; ///< continue from checkpoint.bin
    bool                     print_parameters = false;
    bool                     help             = false;
    bool                     version          = false; ///< --version
    ParameterListing         parameter_listing = ParameterListing::all;
    bool                     list_laws        = false; ///< --list-laws
    bool                     law_table        = false; ///< --list-laws=markdown
    bool                     print_columns    = false; ///< --print-columns
    /// --defaults: run with the documented defaults on purpose (without a parameter file, or
    /// with one that sets no entry)
    bool defaults = false;
    /// --overwrite: replace the results of an earlier run in the output directory
    bool overwrite = false;
    /// --allow-long-run: run more than LoadingParameters::long_run_steps steps of Delta t
    bool allow_long_run = false;
    /// --check: validate the parameter file (every point of a sweep) and exit
    bool check = false;
    /// --threads N: the threads of the rubber block's assembly (MultithreadInfo's limit,
    /// set by the program); the result does not depend on it
    unsigned int threads = 1;
    /// --record-attempts N[,EVERY[,FROM]]: from t/T0 = FROM on, write the state before the
    /// first N failed Newton attempts (and every EVERY-th attempt) to attempts/ for
    /// replay-attempt
    unsigned int record_failed_attempts = 0, record_attempt_interval = 0;
    double       record_attempts_from = 0.;
  };

  /// Parses argv. Throws std::invalid_argument with a usage hint for unknown
  /// options, missing option values, or more than one parameter file.
  CommandLineOptions parse_command_line(int argc, const char *const *argv);

  /// The --help text.
  std::string usage_text();

  /// The --version text: "granular-interface VERSION (source revision REVISION)\n", the
  /// version of CHANGES.md and the git commit of the build (base/source_revision.h).
  std::string version_text();

  /// The complete documented default parameter file (what --print-parameters prints).
  std::string default_parameter_file();

  /**
   * The entries the run of @p options uses, with their documentation (what
   * --print-parameters=used prints): the parameter file and every --set of @p options are
   * read (without them: the defaults, which is params/default.prm), and every subsection is
   * listed except those of the contact laws other than the selected
   * Contact/Particle-surface/Normal law. Throws ParameterError as read_parameter_input().
   */
  std::string used_parameter_file(const CommandLineOptions &options);

  /// Every entry of the program with its default, pattern and documentation as JSON
  /// (deal.II's JSON output; what --print-parameters=json prints and
  /// scripts/parameters-page.sh turns into docs/parameters.md).
  std::string parameter_listing_json();

  /// What --print-parameters[=...] prints for @p options.
  std::string parameter_listing(const CommandLineOptions &options);

  /**
   * Reads @p options.parameter_file (if given) into @p prm, whose entries the caller has
   * declared, then applies every --set in order. Throws ParameterError naming the file or
   * the --set (deal.II's message names the entry and the line), and for a path that is not a
   * regular readable file (a directory named x.prm) or a file that sets no entry (an empty
   * file would silently start the full default run) unless @p options.defaults.
   * @p defaults_run says what the program would do with all defaults, for that message
   * (empty: granular-interface's default run).
   */
  void read_parameter_input(const CommandLineOptions &options, dealii::ParameterHandler &prm,
                            const std::string &defaults_run = "");

  /**
   * Warnings about parameter file @p path that are no errors: an entry set twice (deal.II
   * takes the last value silently), a UTF-8 byte-order mark (skipped). One message per
   * warning, naming the file and the line; empty for a missing or unreadable file.
   */
  std::vector<std::string> parameter_file_warnings(const std::string &path);

  /**
   * What --check prints for valid @p parameters (read_parameters() has checked them, and
   * every point of a sweep): the file, and either the sweep's number of points with their
   * names and output directory, or the single run's cell, mesh, pressure, duration in
   * T0, steps of Delta t and output directory (for --restart: the checkpoint it continues
   * from). The output directory is checked as the run would check it, touching nothing.
   * @throws ParameterError as the run would refuse it: a fresh run into a directory with
   *         an earlier run's results (without --overwrite) or a sweep's; a sweep into a
   *         single run's directory, or resumed with other parameters; --restart without a
   *         usable checkpoint (missing, damaged, another version, other physics).
   */
  std::string check_report(const CommandLineOptions      &options,
                           const ProgramParameters        &parameters,
                           const dealii::ParameterHandler &prm);

  /**
   * The tables of the columns of summary.csv, of history.csv, of the columns a viscoelastic
   * run adds to history.csv, of particles.csv and of sweep.csv (what --print-columns prints),
   * each between the lines "<!-- columns: FILE -->" and "<!-- /columns -->", made from
   * summary_columns(), coupling::history_columns(), coupling::particle_columns() and
   * sweep::sweep_point_columns(): docs/outputs.md holds them
   * (scripts/outputs-page.sh).
   */
  std::string output_column_tables();

  /// One line per registered contact law: its identifier, catalogue entry, title and source
  /// (what --list-laws prints).
  std::string contact_law_list();

  /**
   * The parameters of a run from the text of its parameters.prm (@p parameters, e.g. of a
   * recorded attempt, coupling/attempt_record.h) with the --set entries @p sets applied
   * in order, validated.
   * @throws ParameterError naming the --set or the entry, as read_parameters().
   */
  ProgramParameters read_parameters_text(const std::string              &parameters,
                                         const std::vector<std::string> &sets);

  /**
   * The Markdown page docs/contact-law-table.md (what --list-laws=markdown prints): one row
   * per registered contact law, made from its LawInfo alone: catalogue entry, identifier,
   * family, title, formula, its parameters with their defaults, the contact data it needs
   * (and so whether the 2D cell can use it) and its source.
   */
  std::string contact_law_table();

  /// Declares all parameters in @p prm, reads the parameter file (if any), applies
  /// every --set and --output-directory, parses and validates. Nothing else is done,
  /// so bad input is rejected before any work starts.
  /// Throws ParameterError naming the entry (and the line, where deal.II reports it)
  /// for an unreadable file, unknown entries, malformed values and physically
  /// inconsistent values.
  ProgramParameters read_parameters(const CommandLineOptions &options,
                                dealii::ParameterHandler &prm);
} // namespace granular
