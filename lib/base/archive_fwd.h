#pragma once
/**
 * @file archive_fwd.h
 * Forward declarations of the Boost binary archives of checkpoint/restart, for headers
 * whose classes save and load their state; the .cc files include base/serialization.h.
 */
namespace boost::archive
{
  class binary_oarchive;
  class binary_iarchive;
} // namespace boost::archive
