// The source revision the program is built from, and its record in a run's parameters.prm.
#pragma once

#include <string>

namespace granular
{
  /**
   * The git commit this build was made from (40 hex digits), followed by "-modified" when
   * the tracked code (lib/, app/, CMakeLists.txt, cmake/) differed from it at build time;
   * "unknown" for a build outside a git checkout. Generated at every build by
   * cmake/source-revision.cmake; printed by --version and recorded in every parameters.prm
   * (source_revision_comment()), so that a result names the code that computed it
   * (docs/outputs.md#the-files-of-a-run).
   */
  const char *source_revision();

  /// The comment line "# granular-interface source revision: REVISION\n" that a run's
  /// parameters.prm holds after the mesh file's comment (if any) and before its entries.
  std::string source_revision_comment();
} // namespace granular
