#include "base/parameter_error.h"

#include <cmath>
#include <sstream>

namespace granular
{
  void require_positive(const std::string &entry, double value,
                        const std::string &what)
  {
    if (!(std::isfinite(value) && value > 0.))
      {
        std::ostringstream s;
        s << what << " must be positive, got " << value;
        throw ParameterError(entry, s.str());
      }
  }
} // namespace granular
