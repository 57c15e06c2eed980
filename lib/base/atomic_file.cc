#include "base/atomic_file.h"

#include <deal.II/base/data_out_base.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <unistd.h>

namespace granular
{
  void write_file_atomically(const std::string &path, const std::string &content)
  {
    const std::string tmp = path + ".tmp." + std::to_string(::getpid());
    std::error_code ec;
    {
      std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
      if (!out)
        throw std::runtime_error("cannot write " + tmp + " (" + std::strerror(errno) + ")");
      out << content;
      out.flush();
      if (!out)
        {
          const std::string reason = std::strerror(errno);
          out.close();
          std::filesystem::remove(tmp, ec); // no partial file is left behind
          throw std::runtime_error("cannot write " + path + " (" + reason +
                                   "); the earlier version of it is kept");
        }
    }
    std::filesystem::rename(tmp, path, ec);
    if (ec)
      {
        std::filesystem::remove(tmp, ec);
        throw std::runtime_error("cannot rename " + tmp + " to " + path);
      }
  }

  void cut_to_last_whole_line(const std::string &path)
  {
    std::error_code ec;
    const auto      size = std::filesystem::file_size(path, ec);
    if (ec || size == 0)
      return;
    std::ifstream   in(path, std::ios::binary);
    std::uintmax_t  end = size; // the length of the whole lines
    std::string     block;
    while (end > 0 && in)
      {
        const std::uintmax_t start = end > 4096 ? end - 4096 : 0;
        block.resize(end - start);
        in.seekg(static_cast<std::streamoff>(start));
        if (!in.read(block.data(), static_cast<std::streamsize>(block.size())))
          return;
        const auto newline = block.rfind('\n');
        if (newline != std::string::npos)
          {
            end = start + newline + 1;
            break;
          }
        end = start;
      }
    if (end < size)
      std::filesystem::resize_file(path, end, ec);
  }

  PvdCollection::PvdCollection(std::string path)
    : path_(std::move(path))
  {}

  void PvdCollection::add(double time, const std::string &file)
  {
    records_.emplace_back(time, file);
    assign(std::move(records_));
  }

  void PvdCollection::assign(std::vector<std::pair<double, std::string>> records)
  {
    records_ = std::move(records);
    std::ostringstream s;
    dealii::DataOutBase::write_pvd_record(s, records_);
    write_file_atomically(path_, s.str());
  }
} // namespace granular
