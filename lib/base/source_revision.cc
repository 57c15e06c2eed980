// The record of the source revision in parameters.prm. See source_revision.h; the revision
// itself is defined in the build's generated source_revision_value.cc.
#include "base/source_revision.h"

namespace granular
{
  namespace
  {
    const std::string revision_comment_start = "# granular-interface source revision: ";
  }

  std::string source_revision_comment()
  {
    return revision_comment_start + source_revision() + "\n";
  }
} // namespace granular
