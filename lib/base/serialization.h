#pragma once
/**
 * @file serialization.h
 * Boost.Serialization for checkpoint/restart: the binary archives and the support for the
 * standard containers used by the serialize() members of the state classes. Include only
 * from .cc files that write or read a checkpoint (it is heavy).
 *
 * Binary archives are exact (a restarted run reproduces an uninterrupted one bit for bit)
 * but not portable: a checkpoint is read by the build and machine type that wrote it.
 */
#include <boost/archive/binary_iarchive.hpp>
#include <boost/archive/binary_oarchive.hpp>
#include <boost/serialization/array.hpp>
#include <boost/serialization/string.hpp>
#include <boost/serialization/utility.hpp>
#include <boost/serialization/vector.hpp>
