// Sweeps over MPI ranks: rank 0's coordinator and the other ranks' workers. See sweep_runner.h.
#include "sweep/sweep_runner.h"

#include "base/csv_fields.h"
#include "base/directory_lock.h"
#include "base/parameter_error.h"
#include "coupling/checkpoint.h"
#include "coupling/run_output.h"
#include "sweep/sweep_point_run.h"

#include <deal.II/base/parameter_handler.h>

#include <chrono>
#include <filesystem>
#include <iostream>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <thread>

namespace granular
{
  namespace
  {
    namespace fs = std::filesystem;
    using sweep::completed_point_row;
    using sweep::exact;
    using sweep::kbar_of_row;
    using sweep::PointResult;
    using sweep::run_point;
    using sweep::SweepTable;

    constexpr int tag_ready  = 101; ///< worker -> master: first request
    constexpr int tag_result = 102; ///< worker -> master: result of a point
    constexpr int tag_work   = 103; ///< master -> worker: point index, -1: stop
    /// master -> worker, exactly once per sweep: the signal that stops the sweep, sent as
    /// soon as rank 0 learns of it (its own signal, or a worker's), or 0 at its end
    constexpr int tag_stop   = 104;
    constexpr char field_separator = '\x1f';

    std::string serialise(const unsigned int index, const PointResult &r)
    {
      std::ostringstream o;
      o << index << field_separator << r.status << field_separator << r.signal
        << field_separator << exact(r.kbar)
        << field_separator << csv_field(r.error) << field_separator << r.summary_row;
      return o.str();
    }

    std::pair<unsigned int, PointResult> deserialise(const std::string &message)
    {
      std::vector<std::string> parts;
      std::string              part;
      std::istringstream       in(message);
      while (std::getline(in, part, field_separator))
        parts.push_back(part);
      if (parts.size() < 5)
        throw std::runtime_error("sweep: malformed result message '" + message + "'");
      PointResult r;
      r.status      = parts[1];
      r.signal      = std::stoi(parts[2]);
      r.kbar        = std::stod(parts[3]);
      r.error       = parts[4];
      r.summary_row = parts.size() > 5 ? parts[5] : "";
      // the error was already CSV-quoted for transport: undo that
      if (r.error.size() >= 2 && r.error.front() == '"')
        {
          std::string e;
          for (std::size_t i = 1; i + 1 < r.error.size(); ++i)
            {
              e += r.error[i];
              if (r.error[i] == '"')
                ++i;
            }
          r.error = e;
        }
      return {static_cast<unsigned int>(std::stoul(parts[0])), r};
    }

    /// Waits for @p request without keeping a core busy: Open MPI's blocking calls poll at
    /// 100 % CPU, so a rank that has run out of points (or rank 0 waiting for the last
    /// results) would take the core that another rank's point needs. Polls every 20 ms.
    void wait_idly(MPI_Request &request)
    {
      int done = 0;
      while (MPI_Test(&request, &done, MPI_STATUS_IGNORE) == MPI_SUCCESS && !done)
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }

    /**
     * Rank 0 of a sweep (sweep_runner.h, docs/methods.md §8.3): it keeps sweep.csv, hands
     * the pending points out to the other ranks and computes points itself; between its time
     * steps (and afterwards) it answers the other ranks: a result is recorded, the next
     * point handed out.
     */
    class SweepCoordinator
    {
    public:
      SweepCoordinator(const ProgramParameters &parameters, dealii::ParameterHandler &prm,
                       MPI_Comm comm, const int size, const std::vector<SweepPoint> &points,
                       SweepTable &table)
        : parameters_(parameters), prm_(prm), comm_(comm), size_(size), points_(points),
          table_(table), active_(size - 1),
          // a progress line with the running points' t/T0 at least every minute (and at the
          // file's progress interval if longer)
          progress_every_(std::max(60., parameters.output.progress_interval))
      {}

      /// Runs the points (this rank's and the others'); @return this rank's view of the
      /// exit status (0 all points ok, 1 a point failed, 128 + signal if a signal stopped
      /// the sweep). Every worker has been sent its stop message (tag_stop) afterwards.
      int run_points()
      {
        load_completed();
        table_.write();
        hand_out_first_points();
        poll();
        run_own_points();
        wait_for_workers();
        if (size_ > 1 && !stops_sent_)
          send_stops(0); // the sweep ended without a signal
        if (sweep::stop_signal() != 0)
          return 128 + sweep::stop_signal();
        return table_.all_ok() ? 0 : 1;
      }

      /// Waits until every worker has taken its stop message.
      void wait_for_stop_messages()
      {
        for (MPI_Request &request : stop_requests_)
          wait_idly(request);
      }

      /// The closing line for the exit status @p status that all ranks agreed on.
      void report_end(const int status) const
      {
        const std::string dir = parameters_.output.output_directory;
        if (status < 128)
          {
            std::cout << "granular-interface: sweep " << (status == 0 ? "complete" : "FAILED")
                      << ", " << dir << "/sweep.csv" << std::endl;
            return;
          }
        // say what the stopped sweep did; its points are whole (a stopped point has no
        // summary.csv and is run again on resume)
        std::cout << "granular-interface: sweep stopped by signal " << status - 128 << ": "
                  << table_.count("ok") << " of " << points_.size() << " points complete, "
                  << table_.count("failed") << " failed, " << table_.count("stopped")
                  << " stopped in progress, " << table_.count("pending")
                  << " not started; run the same command again to resume (" << dir
                  << "/sweep.csv)" << std::endl;
      }

    private:
      const ProgramParameters   &parameters_;
      dealii::ParameterHandler  &prm_;
      MPI_Comm                   comm_;
      const int                  size_;
      const std::vector<SweepPoint> &points_;
      SweepTable                &table_;
      std::vector<unsigned int>  pending_; ///< the points without a summary.csv
      std::size_t                next_ = 0; ///< the next pending point to hand out or run
      int                        active_;   ///< workers still to be told to stop
      const double               progress_every_; ///< s between progress lines
      bool                       stops_sent_ = false; ///< tag_stop sent to every worker
      std::vector<int>           stop_values_;   ///< the buffers of those messages
      std::vector<MPI_Request>   stop_requests_; ///< their requests

      /// Tells every worker that the sweep stops (@p signal > 0: its point in progress
      /// stops after the current time step) or ended (0); once per sweep.
      void send_stops(const int signal)
      {
        stops_sent_ = true;
        stop_values_.assign(size_ - 1, signal);
        stop_requests_.assign(size_ - 1, MPI_REQUEST_NULL);
        for (int r = 1; r < size_; ++r)
          MPI_Isend(&stop_values_[r - 1], 1, MPI_INT, r, tag_stop, comm_,
                    &stop_requests_[r - 1]);
      }

      /// A signal that reached this rank, or that a worker reported, stops every rank.
      void propagate_stop()
      {
        if (size_ > 1 && !stops_sent_ && sweep::stop_signal() != 0)
          send_stops(sweep::stop_signal());
      }

      /// The points completed by an earlier run (their summary.csv) go into the table; the
      /// others are pending.
      void load_completed()
      {
        const std::string dir = parameters_.output.output_directory;
        for (const SweepPoint &p : points_)
          {
            const std::string row = completed_point_row(dir + "/" + p.name);
            if (row.empty())
              pending_.push_back(p.index);
            else
              {
                PointResult r;
                r.status      = "ok";
                r.summary_row = row;
                r.kbar        = kbar_of_row(row);
                table_.set(p.index, r);
              }
          }
        std::cout << "granular-interface: sweep of " << points_.size() << " points ("
                  << points_.size() - pending_.size() << " already complete) on " << size_
                  << (size_ == 1 ? " rank" : " ranks") << ", results in " << dir
                  << "/sweep.csv" << std::endl;
      }

      /// Answers the message of @p st: records a result, then hands out the next point or
      /// tells the worker to stop.
      void handle(const MPI_Status &st)
      {
        int count = 0;
        MPI_Get_count(&st, MPI_CHAR, &count);
        std::string message(static_cast<std::size_t>(count), '\0');
        MPI_Recv(message.data(), count, MPI_CHAR, st.MPI_SOURCE, st.MPI_TAG, comm_,
                 MPI_STATUS_IGNORE);
        if (st.MPI_TAG == tag_result)
          {
            const auto [index, r] = deserialise(message);
            // a signal that reached only that rank stops the whole sweep
            if (r.signal != 0 && sweep::stop_signal() == 0)
              sweep::set_stop_signal(r.signal);
            table_.set(index, r);
            table_.write();
            if (r.status != "pending") // "pending": handed out after its rank's signal
              table_.report(index, st.MPI_SOURCE);
          }
        propagate_stop();
        int work = -1;
        if (next_ < pending_.size() && sweep::stop_signal() == 0)
          {
            work = static_cast<int>(pending_[next_++]);
            table_.start(static_cast<unsigned int>(work));
          }
        else
          --active_;
        MPI_Send(&work, 1, MPI_INT, st.MPI_SOURCE, tag_work, comm_);
      }

      /// Between rank 0's time steps: a progress line when due, and the waiting messages.
      void poll()
      {
        table_.report_progress(progress_every_);
        if (size_ == 1)
          return;
        propagate_stop();
        int        flag = 0;
        MPI_Status st;
        while (MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, comm_, &flag, &st) == MPI_SUCCESS && flag)
          handle(st);
      }

      /// Every other rank's first point, before rank 0 starts its own: each rank asks once
      /// it has read the parameter file (tag_ready), which takes it a moment longer under
      /// a loaded mpirun; a sweep of short points would otherwise be computed by rank 0
      /// alone. Waits idly, a few milliseconds in practice.
      void hand_out_first_points()
      {
        int asked = 0;
        while (asked < size_ - 1 && sweep::stop_signal() == 0)
          {
            int        flag = 0;
            MPI_Status st;
            MPI_Iprobe(MPI_ANY_SOURCE, tag_ready, comm_, &flag, &st);
            if (flag)
              {
                handle(st);
                ++asked;
              }
            else
              std::this_thread::sleep_for(std::chrono::milliseconds(5));
          }
      }

      /// Rank 0's own points, until none is pending or a signal stops the sweep.
      void run_own_points()
      {
        while (next_ < pending_.size() && sweep::stop_signal() == 0)
          {
            const unsigned int i = pending_[next_++];
            table_.start(i);
            table_.set(i, run_point(parameters_, prm_, points_[i], [this]() { poll(); }));
            table_.write();
            table_.report(i, 0);
            poll();
          }
      }

      /// The other ranks' last points: idle waiting (wait_idly), with progress lines.
      void wait_for_workers()
      {
        while (active_ > 0)
          {
            int        flag = 0;
            MPI_Status st;
            MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, comm_, &flag, &st);
            if (flag)
              handle(st);
            else
              {
                propagate_stop();
                table_.report_progress(progress_every_);
                std::this_thread::sleep_for(std::chrono::milliseconds(20));
              }
          }
      }

    };

    /// The exit status of the sweep, the same on every rank: the largest of the ranks'
    /// @p own statuses (128 + signal if any rank saw a signal, else rank 0's 0 or 1).
    int agreed_status(const int own, MPI_Comm comm, const int size)
    {
      if (size == 1)
        return own;
      int         status = own;
      MPI_Request request;
      MPI_Iallreduce(&own, &status, 1, MPI_INT, MPI_MAX, comm, &request);
      wait_idly(request); // until every rank has finished its last point
      return status;
    }

    /// Rank 0: SweepCoordinator, then the exit status agreed with the other ranks.
    /// @throws what SweepCoordinator throws (sweep.csv not writable); with more than one
    ///         rank it calls MPI_Abort instead.
    int run_sweep_coordinator(const ProgramParameters &parameters, dealii::ParameterHandler &prm,
                              MPI_Comm comm, const int size,
                              const std::vector<SweepPoint> &points)
    {
      try
        {
          const std::string dir = parameters.output.output_directory;
          fs::create_directories(dir);
          SweepTable       table(dir + "/sweep.csv", points, size);
          SweepCoordinator coordinator(parameters, prm, comm, size, points, table);
          const int        status = agreed_status(coordinator.run_points(), comm, size);
          coordinator.report_end(status);
          table.print_table();
          coordinator.wait_for_stop_messages();
          return status;
        }
      catch (const std::exception &e)
        {
          if (size > 1)
            {
              std::cerr << "granular-interface: sweep error on rank 0: " << e.what()
                        << std::endl;
              MPI_Abort(comm, 1);
            }
          throw;
        }
    }

    /// A rank other than 0: asks for points and runs them until told to stop; @return the
    /// exit status agreed with the other ranks (agreed_status()).
    int run_sweep_worker(const ProgramParameters &parameters, dealii::ParameterHandler &prm,
                         MPI_Comm comm, const std::vector<SweepPoint> &points)
    {
      // rank 0's stop message (tag_stop): a signal stops this rank's point after its
      // current time step, as if the signal had reached this rank
      bool       stop_received = false;
      const auto take_stop     = [&](const int signal) {
        stop_received = true;
        if (signal != 0 && sweep::stop_signal() == 0)
          sweep::set_stop_signal(signal);
      };
      const auto poll_stop = [&]() {
        int flag = 0;
        MPI_Iprobe(0, tag_stop, comm, &flag, MPI_STATUS_IGNORE);
        if (!flag || stop_received)
          return;
        int signal = 0;
        MPI_Recv(&signal, 1, MPI_INT, 0, tag_stop, comm, MPI_STATUS_IGNORE);
        take_stop(signal);
      };

      MPI_Send(nullptr, 0, MPI_CHAR, 0, tag_ready, comm);
      while (true)
        {
          int         work = -1;
          MPI_Request request;
          MPI_Irecv(&work, 1, MPI_INT, 0, tag_work, comm, &request);
          wait_idly(request); // rank 0 answers between its own time steps
          if (work < 0)
            break;
          poll_stop();
          PointResult r;
          if (sweep::stop_signal() != 0)
            r.signal = sweep::stop_signal(); // not started: it stays pending
          else
            r = run_point(parameters, prm, points.at(work), poll_stop);
          const std::string message = serialise(work, r);
          MPI_Send(message.data(), static_cast<int>(message.size()), MPI_CHAR, 0, tag_result,
                   comm);
        }
      if (!stop_received)
        {
          int         signal = 0;
          MPI_Request request;
          MPI_Irecv(&signal, 1, MPI_INT, 0, tag_stop, comm, &request);
          wait_idly(request); // until rank 0 has finished its own last point
          take_stop(signal);
        }
      const int status =
        agreed_status(sweep::stop_signal() != 0 ? 128 + sweep::stop_signal() : 0, comm, 2);
      // a signal that arrived while the ranks agreed stops this rank too
      return (status < 128 && sweep::stop_signal() != 0) ? 128 + sweep::stop_signal() : status;
    }

    /// Rank 0 creates the sweep's output directory and locks it (DirectoryLock), then
    /// removes the temporary files of a killed sweep's atomic writes; the other ranks learn
    /// the outcome. @return the lock (rank 0), nullptr on the other ranks.
    /// @throws ParameterError on every rank if another run holds the directory (rank 0's
    ///         message names it); std::runtime_error if it cannot be created or opened.
    std::unique_ptr<DirectoryLock> lock_sweep_directory(const ProgramParameters &parameters,
                                                        MPI_Comm comm, const int rank,
                                                        const int size)
    {
      const std::string              dir = parameters.output.output_directory;
      std::unique_ptr<DirectoryLock> lock;
      std::exception_ptr             error;
      int                            outcome = 0; // 0 locked, 1 another error, 2 refused
      if (rank == 0)
        try
          {
            fs::create_directories(dir);
            lock = std::make_unique<DirectoryLock>(dir);
            coupling::remove_stale_temporary_files(dir);
          }
        catch (const ParameterError &)
          {
            error   = std::current_exception();
            outcome = 2;
          }
        catch (const std::exception &)
          {
            error   = std::current_exception();
            outcome = 1;
          }
      if (size > 1)
        MPI_Bcast(&outcome, 1, MPI_INT, 0, comm);
      if (error)
        std::rethrow_exception(error);
      if (outcome == 2) // reported by rank 0
        throw ParameterError("Output/Output directory",
                             dir + " is the output directory of another run that is still "
                                   "running");
      if (outcome == 1)
        throw std::runtime_error("rank 0 could not lock the output directory " + dir);
      return lock;
    }
  } // namespace

  int run_sweep(const ProgramParameters &parameters, dealii::ParameterHandler &prm,
                MPI_Comm comm)
  {
    int initialized = 0, finalized = 0;
    MPI_Initialized(&initialized);
    MPI_Finalized(&finalized);
    int rank = 0, size = 1;
    if (initialized && !finalized)
      {
        MPI_Comm_rank(comm, &rank);
        MPI_Comm_size(comm, &size);
      }

    const std::vector<SweepPoint> points = sweep_points(parameters);
    // one run per output directory, sweeps too: rank 0 holds the directory's lock while the
    // sweep runs, so that a second sweep (or a single run) started there, even at the same
    // moment, is refused on all of its ranks before it writes anything
    const std::unique_ptr<DirectoryLock> lock = lock_sweep_directory(parameters, comm, rank, size);
    // every rank checks the directory (the same files, the same answer) so that a refusal
    // is an exit status 2 on all of them, before anything is written
    check_sweep_directory(parameters, prm, points);
    const sweep::SweepSignalHandlers signal_handlers;
    if (rank == 0)
      return run_sweep_coordinator(parameters, prm, comm, size, points);
    return run_sweep_worker(parameters, prm, comm, points);
  }
} // namespace granular
