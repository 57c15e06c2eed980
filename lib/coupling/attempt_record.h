#pragma once
/**
 * @file attempt_record.h
 * Recorded Newton attempts of the rubber solve, to study hard steps outside a run
 * (docs/performance.md#replaying-hard-steps). A run with Output/Record failed attempts or
 * Output/Record attempt interval writes, for each recorded attempt, the state it started
 * from (CouplingScheme::saved_state()), the run's parameters and what the attempt did
 * to OUTPUT/attempts/attempt-NNNNNN.bin, listed in OUTPUT/attempts/attempts.csv; the
 * program replay-attempt solves it again with the recorded or any other solver setting.
 *
 * A record has the header of a checkpoint (coupling/checkpoint.h: its own first line, the
 * format of the scheme's state, scheme_state_format, the program version, the payload's
 * size and CRC-32); it is read by every build of the same scheme_state_format.
 *
 * Units: s, N per mm thickness; residual norms relative to the reference force p L0.
 */
#include "coupling/coupling_scheme.h"

#include <string>

namespace granular::coupling
{
  /// One recorded attempt: the parameters of its run, what it did and where it started.
  struct AttemptRecord
  {
    std::string        parameters; ///< the run's parameters.prm (text)
    RubberSolveAttempt attempt;    ///< start, length, limit, outcome, norms, cost
    std::string        state;      ///< CouplingScheme::saved_state() before the attempt
  };

  /// Writes @p record to @p path atomically. Throws std::runtime_error if it cannot.
  void write_attempt_record(const std::string &path, const AttemptRecord &record);

  /// Reads a record write_attempt_record() wrote. Throws std::runtime_error naming @p path
  /// and what is wrong (missing, not a record, another checkpoint format, damaged).
  AttemptRecord read_attempt_record(const std::string &path);

  /// Whether @p a and @p b did the same bit for bit: outcome, iterations, every residual
  /// norm, assemblies, factorizations and failure message.
  bool same_attempt(const RubberSolveAttempt &a, const RubberSolveAttempt &b);

  /// Lines describing @p a for a terminal: start, length, level, limit, outcome, cost and
  /// the residual norms.
  std::string attempt_text(const RubberSolveAttempt &a);

  /**
   * The observer of a run's attempts that writes the chosen ones (see the file comment):
   * of the attempts that start at @p t_from (s) or later, the first @p failed_limit that
   * fail, and every @p interval-th attempt (0: none).
   * The files are numbered in the order they are written; after a restart the numbering
   * continues from the rows of attempts.csv, and the sample restarts its count.
   */
  class AttemptRecorder : public AttemptObserver
  {
  public:
    /// @p directory: the run's output directory (attempts/ is made in it; with
    /// @p restart the files of the run before are kept, else removed). @p parameters:
    /// the text of the run's parameters.prm. Throws std::runtime_error if attempts/
    /// cannot be made.
    AttemptRecorder(const std::string &directory, std::string parameters,
                    unsigned int failed_limit, unsigned int interval, double t_from,
                    bool restart);

    bool keeps_state(double t0) const override;
    void observe(const RubberSolveAttempt &attempt, const std::string &state) override;

    /// Attempts written so far (by this process).
    unsigned long written() const { return n_written; }

  private:
    std::string   dir, parameters;
    unsigned int  failed_limit, interval;
    double        t_from;
    unsigned long n_attempts = 0, n_failed = 0, n_files = 0, n_written = 0;
  };
} // namespace granular::coupling

namespace granular::coupling
{
  /// What a replay with cut-backs did (replay_with_cutbacks()).
  struct CutBackReplay
  {
    bool          solved = false;   ///< the interval was solved (with or without cut-backs)
    unsigned int  cutbacks = 0;     ///< halvings
    unsigned int  newton_iterations = 0; ///< of the attempts that converged
    unsigned long attempts = 0, assemblies = 0, factorizations = 0; ///< all attempts
    std::string   failure;          ///< why it was not solved ("" if solved)
  };

  /**
   * Solves the attempt of @p record again with the parameters @p P (the recorded ones, or
   * others: a solver setting to judge), from the recorded state: a scheme and block are
   * built from @p P (make_coupled_model()), the state is loaded, and one attempt of the
   * same start, length and iteration limit (iteration_limit() of @p P for a changed
   * adaptive setting) is made. With the recorded parameters it repeats the recorded
   * attempt bit for bit (same_attempt()).
   * @throws std::runtime_error if the state does not fit the block of @p P (another mesh
   *         or rubber model) or a model cannot be built.
   */
  RubberSolveAttempt replay_attempt(const AttemptRecord &record, const RunParameters &P);

  /// Like replay_attempt(), but the interval of the record is solved as a run would solve
  /// it: halved on a failure, down to the limit of @p P's Solver/Maximum cut-backs.
  CutBackReplay replay_with_cutbacks(const AttemptRecord &record, const RunParameters &P);
} // namespace granular::coupling
