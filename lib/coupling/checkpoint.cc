// Checkpoint/restart of a single run and the stop signals. See checkpoint.h.
#include "coupling/checkpoint.h"

#include "base/stop_signals.h"

#include "base/atomic_file.h"
#include "base/parameter_error.h"
#include "base/physics_entries.h"
#include "base/serialization.h"

#include <deal.II/base/parameter_handler.h>

#include <boost/crc.hpp>

#include <csignal>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iterator>
#include <map>
#include <sstream>

namespace granular::coupling
{
  namespace
  {
    const std::string      checkpoint_magic  = "granular-interface checkpoint";
    /// The program version a checkpoint is written by and must be read by (CMake's
    /// PROJECT_VERSION).
    const std::string program_version = GRANULAR_VERSION;

    /// CRC-32 (Boost.CRC) of @p payload, as 8 hexadecimal digits.
    std::string crc32_of(const std::string &payload)
    {
      boost::crc_32_type crc;
      crc.process_bytes(payload.data(), payload.size());
      std::ostringstream s;
      s << std::hex << std::setw(8) << std::setfill('0') << crc.checksum();
      return s.str();
    }
  } // namespace

  namespace
  {
    /// Throws ParameterError naming the entries that differ between a checkpoint and now.
    void check_same_physics(const ParameterEntryList &saved, const ParameterEntryList &now,
                            const std::string &checkpoint)
    {
      const PhysicsDifferences d = physics_differences(saved, now, "in the checkpoint");
      if (!d.empty())
        throw ParameterError(d.first, "--restart needs the parameters " + checkpoint +
                                        " was written with (only subsection Output may "
                                        "differ); nothing was changed. Differences:" +
                                        d.text);
    }
  } // namespace

  CheckpointFile::CheckpointFile(std::string path, const dealii::ParameterHandler &prm)
    : path_(std::move(path))
    , entries_(physics_entries(prm))
  {}

  // checkpoint.bin: four text lines (the magic string; "format N"; "program VERSION";
  // "payload BYTES crc32 HEX") and then the payload, a Boost binary archive of the physics
  // entries and the run's state.
  void CheckpointFile::write(const Writer &state) const
  {
    std::ostringstream payload;
    {
      boost::archive::binary_oarchive ar(payload);
      auto                            entries = entries_;
      ar &entries;
      state(ar);
    }
    write_state_file(path_, checkpoint_magic, payload.str(), checkpoint_format);
  }

  void write_state_file(const std::string &path, const std::string &magic,
                        const std::string &payload, const unsigned int format)
  {
    std::ostringstream file;
    file << magic << "\nformat " << format << "\nprogram " << program_version
         << "\npayload " << payload.size() << " crc32 " << crc32_of(payload) << "\n"
         << payload;
    write_file_atomically(path, file.str());
  }

  std::string read_state_file(std::istream &in, const std::string &expected_magic,
                              const bool same_program, const unsigned int expected_format)
  {
    std::string magic, format, program, payload_line;
    std::getline(in, magic);
    if (magic != expected_magic)
      {
        const std::string kind = expected_magic.substr(expected_magic.find(' ') + 1);
        throw std::runtime_error("it is not " +
                                 std::string(kind.find_first_of("aeiou") == 0 ? "an " : "a ") +
                                 kind + " of this program's format " +
                                 std::to_string(expected_format) +
                                 " (an earlier build's, or another file)");
      }
    std::getline(in, format);
    if (format != "format " + std::to_string(expected_format))
      throw std::runtime_error("its " + format + " is not this program's format " +
                               std::to_string(expected_format));
    std::getline(in, program);
    if (same_program && program != "program " + program_version)
      throw std::runtime_error("it was written by " + program.substr(0, 80) +
                               ", this is program " + program_version +
                               ": restart it with the program that wrote it, or start the "
                               "run again with --overwrite");
    std::getline(in, payload_line);
    std::istringstream header(payload_line);
    std::string        word_payload, word_crc, crc;
    std::size_t        size = 0;
    if (!(header >> word_payload >> size >> word_crc >> crc) || word_payload != "payload" ||
        word_crc != "crc32")
      throw std::runtime_error("its header is damaged");
    const std::string payload{std::istreambuf_iterator<char>(in),
                              std::istreambuf_iterator<char>()};
    if (payload.size() != size)
      throw std::runtime_error("it is truncated or damaged: its payload has " +
                               std::to_string(payload.size()) + " bytes, its header says " +
                               std::to_string(size));
    if (crc32_of(payload) != crc)
      throw std::runtime_error("it is damaged: the CRC-32 of its payload is " +
                               crc32_of(payload) + ", its header says " + crc);
    return payload;
  }

  namespace
  {
    std::string checked_payload(std::istream &in)
    {
      return read_state_file(in, checkpoint_magic, true, checkpoint_format);
    }
  } // namespace

  void CheckpointFile::read(const Reader &state) const
  {
    std::error_code ec;
    if (std::filesystem::exists(path_, ec) && !std::filesystem::is_regular_file(path_, ec))
      throw std::runtime_error("--restart: " + path_ +
                               " is not a regular file (a FIFO, a device or a directory), "
                               "so it is no checkpoint; nothing was read");
    std::ifstream in(path_, std::ios::binary);
    if (!in)
      throw std::runtime_error("--restart: cannot open " + path_ +
                               " (is its directory the output directory of a run that wrote "
                               "a checkpoint? Output/Checkpoint interval)");
    try
      {
        std::istringstream              payload(checked_payload(in));
        boost::archive::binary_iarchive ar(payload);
        std::vector<std::pair<std::string, std::string>> entries_saved;
        ar &entries_saved;
        check_same_physics(entries_saved, entries_, path_);
        state(ar);
      }
    catch (const ParameterError &)
      {
        throw;
      }
    catch (const std::exception &e)
      {
        throw std::runtime_error("--restart: cannot use " + path_ + ": " + e.what());
      }
  }

  std::string CheckpointFile::unusable_reason() const
  {
    try
      {
        std::error_code ec;
        if (std::filesystem::exists(path_, ec) && !std::filesystem::is_regular_file(path_, ec))
          return path_ + " is not a regular file";
        std::ifstream in(path_, std::ios::binary);
        if (!in)
          return "cannot open " + path_;
        std::istringstream              payload(checked_payload(in));
        boost::archive::binary_iarchive ar(payload);
        std::vector<std::pair<std::string, std::string>> entries_saved;
        ar &entries_saved;
        const PhysicsDifferences d =
          physics_differences(entries_saved, entries_, "in the checkpoint");
        return d.empty() ? "" : "it was written with other parameters:" + d.text;
      }
    catch (const std::exception &e)
      {
        return e.what();
      }
    catch (...)
      {
        return "it cannot be read";
      }
  }
} // namespace granular::coupling

namespace granular
{
  void request_checkpoint_and_stop() { request_stop(-1); }
} // namespace granular
