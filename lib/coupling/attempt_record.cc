// Recorded Newton attempts of the rubber solve. See attempt_record.h.
#include "coupling/attempt_record.h"

#include "base/csv_fields.h"
#include "base/serialization.h"
#include "coupling/checkpoint.h"

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace boost::serialization
{
  template <class Archive>
  void serialize(Archive &ar, granular::fem::StepStatistics &s, const unsigned int)
  {
    ar &s.newton_iterations &s.residual_norms &s.contact_points_in_contact
      &s.contact_points_slipping;
  }

  template <class Archive>
  void serialize(Archive &ar, granular::coupling::RubberSolveAttempt &a, const unsigned int)
  {
    ar &a.t0 &a.h &a.level &a.iteration_limit &a.converged &a.stats &a.assemblies
      &a.factorizations &a.failure;
  }
} // namespace boost::serialization

namespace granular::coupling
{
  namespace fs = std::filesystem;

  namespace
  {
    const std::string record_magic = "granular-interface attempt record";
    const std::string csv_header =
      "file,t0,h,level,iteration_limit,converged,newton_iterations,residual_norms,"
      "assemblies,factorizations,failure\n";
  } // namespace

  void write_attempt_record(const std::string &path, const AttemptRecord &record)
  {
    std::ostringstream payload(std::ios::binary);
    {
      boost::archive::binary_oarchive ar(payload);
      ar &record.parameters &record.attempt &record.state;
    }
    write_state_file(path, record_magic, payload.str(), scheme_state_format);
  }

  AttemptRecord read_attempt_record(const std::string &path)
  {
    std::error_code ec;
    if (!fs::is_regular_file(path, ec))
      throw std::runtime_error("cannot read the attempt record " + path + ": " +
                               (fs::exists(path, ec) ? "it is not a regular file" :
                                                       "it does not exist"));
    std::ifstream in(path, std::ios::binary);
    try
      {
        std::istringstream payload(read_state_file(in, record_magic, false, scheme_state_format),
                                   std::ios::binary);
        boost::archive::binary_iarchive ar(payload);
        AttemptRecord                   record;
        ar &record.parameters &record.attempt &record.state;
        return record;
      }
    catch (const std::exception &e)
      {
        throw std::runtime_error("cannot read the attempt record " + path + ": " + e.what());
      }
  }

  bool same_attempt(const RubberSolveAttempt &a, const RubberSolveAttempt &b)
  {
    return a.t0 == b.t0 && a.h == b.h && a.iteration_limit == b.iteration_limit &&
           a.converged == b.converged &&
           a.stats.newton_iterations == b.stats.newton_iterations &&
           a.stats.residual_norms == b.stats.residual_norms &&
           a.stats.contact_points_in_contact == b.stats.contact_points_in_contact &&
           a.stats.contact_points_slipping == b.stats.contact_points_slipping &&
           a.assemblies == b.assemblies && a.factorizations == b.factorizations &&
           a.failure == b.failure;
  }

  std::string attempt_text(const RubberSolveAttempt &a)
  {
    std::ostringstream s;
    s.precision(6);
    s << "  step t0 = " << a.t0 << " s, h = " << a.h << " s, cut-back level " << a.level
      << ", iteration limit "
      << (a.iteration_limit == 0 ? std::string("Solver/Maximum Newton iterations") :
                                   std::to_string(a.iteration_limit))
      << "\n  " << (a.converged ? "converged in " + std::to_string(a.stats.newton_iterations) +
                                    " iterations" :
                                  "failed: " + a.failure)
      << "; " << a.assemblies << " assemblies, " << a.factorizations << " factorizations\n"
      << "  |r|/F at the iterates:";
    s.precision(3);
    s << std::scientific;
    for (const double r : a.stats.residual_norms)
      s << ' ' << r;
    s << '\n';
    return s.str();
  }

  AttemptRecorder::AttemptRecorder(const std::string &directory, std::string parameters_text,
                                   const unsigned int failed, const unsigned int every,
                                   const double from, const bool restart)
    : dir(directory + "/attempts")
    , parameters(std::move(parameters_text))
    , failed_limit(failed)
    , interval(every)
    , t_from(from)
  {
    if (!restart)
      fs::remove_all(dir);
    fs::create_directories(dir);
    // a restart continues the numbering and the limit of failed attempts
    std::ifstream csv(dir + "/attempts.csv");
    std::string   line;
    if (std::getline(csv, line))
      while (std::getline(csv, line))
        {
          ++n_files;
          if (nth_csv_field(line, 5).value_or("") == "0")
            ++n_failed;
        }
  }

  bool AttemptRecorder::keeps_state(const double t0) const
  {
    return t0 >= t_from &&
           (n_failed < failed_limit || (interval > 0 && (n_attempts + 1) % interval == 0));
  }

  void AttemptRecorder::observe(const RubberSolveAttempt &a, const std::string &state)
  {
    if (a.t0 < t_from)
      return;
    const unsigned long index  = n_attempts++;
    const bool          sample = interval > 0 && (index + 1) % interval == 0;
    const bool          failed = !a.converged && n_failed < failed_limit;
    if (state.empty() || !(sample || failed))
      return;
    char name[32];
    std::snprintf(name, sizeof(name), "attempt-%06lu.bin", n_files);
    write_attempt_record(dir + "/" + name, AttemptRecord{parameters, a, state});
    const std::string csv = dir + "/attempts.csv";
    const bool        new_csv = !fs::exists(csv);
    std::ofstream     out(csv, std::ios::app);
    if (new_csv)
      out << csv_header;
    std::ostringstream norms;
    norms.precision(3);
    norms << std::scientific;
    for (std::size_t i = 0; i < a.stats.residual_norms.size(); ++i)
      norms << (i ? " " : "") << a.stats.residual_norms[i];
    char numbers[128];
    std::snprintf(numbers, sizeof(numbers), "%.17g,%.17g,%u,%u,%d,%u,", a.t0, a.h, a.level,
                  a.iteration_limit, a.converged ? 1 : 0, a.stats.newton_iterations);
    out << name << ',' << numbers << norms.str() << ',' << a.assemblies << ','
        << a.factorizations << ',' << csv_field(a.failure) << '\n';
    if (!out)
      throw std::runtime_error("cannot write " + csv);
    ++n_files;
    ++n_written;
    if (!a.converged)
      ++n_failed;
  }
} // namespace granular::coupling

namespace granular::coupling
{
  namespace
  {
    /// The model of @p P at the state of @p record, and its loading program.
    struct ReplayModel
    {
      ReplayModel(const AttemptRecord &record, const RunParameters &P)
        : loading(LoadingProgram::from_parameters(P.loading, P.block.length))
        , model(make_coupled_model(P, loading, nullptr))
      {
        model.scheme->load_state(record.state);
      }
      LoadingProgram loading;
      CoupledModel   model;
    };

    /// Counts every attempt of a replay with cut-backs.
    class Counter : public AttemptObserver
    {
    public:
      bool keeps_state(double) const override { return false; }
      void observe(const RubberSolveAttempt &a, const std::string &) override
      {
        ++r.attempts;
        r.assemblies += a.assemblies;
        r.factorizations += a.factorizations;
        if (a.converged)
          r.newton_iterations += a.stats.newton_iterations;
      }
      CutBackReplay r;
    };
  } // namespace

  RubberSolveAttempt replay_attempt(const AttemptRecord &record, const RunParameters &P)
  {
    ReplayModel              m(record, P);
    const RubberSolveAttempt &a = record.attempt;
    // the recorded limit, or that of P's adaptive steps if they differ
    const unsigned int limit = P.solver.adaptive_time_step ?
                                 m.model.scheme->iteration_limit(a.h) :
                                 a.iteration_limit;
    return m.model.scheme->try_rubber_solve(a.t0, a.h, limit, a.level);
  }

  CutBackReplay replay_with_cutbacks(const AttemptRecord &record, const RunParameters &P)
  {
    ReplayModel m(record, P);
    Counter     counter;
    m.model.scheme->set_attempt_observer(&counter);
    const unsigned int before = m.model.scheme->cutbacks();
    try
      {
        m.model.scheme->advance_rubber(record.attempt.t0, record.attempt.h,
                                       record.attempt.level);
        counter.r.solved = true;
      }
    catch (const std::runtime_error &e)
      {
        counter.r.failure = e.what();
      }
    counter.r.cutbacks = m.model.scheme->cutbacks() - before;
    m.model.scheme->set_attempt_observer(nullptr);
    return counter.r;
  }
} // namespace granular::coupling
