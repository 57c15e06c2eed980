// One run per output directory. See directory_lock.h.
#include "base/directory_lock.h"

#include "base/parameter_error.h"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>

namespace granular
{
  DirectoryLock::DirectoryLock(const std::string &dir)
  {
    fd_ = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd_ < 0)
      throw std::runtime_error("cannot open the output directory " + dir + ": " +
                               std::strerror(errno));
    if (::flock(fd_, LOCK_EX | LOCK_NB) != 0)
      {
        const int error = errno;
        ::close(fd_);
        fd_ = -1;
        if (error == EWOULDBLOCK)
          throw ParameterError("Output/Output directory",
                               dir + " is the output directory of another run that is still "
                                     "running; wait for it to end, or give another "
                                     "--output-directory");
        throw std::runtime_error("cannot lock the output directory " + dir + ": " +
                                 std::strerror(error));
      }
  }

  DirectoryLock::~DirectoryLock()
  {
    if (fd_ >= 0)
      ::close(fd_); // releases the lock
  }
} // namespace granular
