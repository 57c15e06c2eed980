#pragma once
/**
 * @file temizer_decompression_undamped.h
 * docs/contact-law-catalogue.md F7 `temizer_decompression_undamped` (Temizer 2013 eq. (10);
 * docs/methods.md §5.1): the micromechanical test's default particle–surface law, with its own
 * arithmetic (not the generic form of its family), which the reference history of the CTest
 * ContactLawsInTheCell.DefaultLawRepeatsTheReferenceHistoryBitForBit fixes bit for bit.
 */
#include "contact/laws/contact_law.h"

namespace granular::contact
{
  /**
   * DampedHertzDecompressionOff: damped Hertz law with the damping switched off in
   * decompression (docs/methods.md §5.1; Temizer 2013 eq. (10); docs/contact-law-catalogue.md F7
   * `temizer_decompression_undamped`):
   *   F = max(0, k_N sqrt(d) (d + c_N d'))   if d' >= 0 (compression),
   *   F = k_N d^(3/2)                        if d' <  0 (decompression: no damping),
   *   F = 0                                  if d <= 0.
   * With d' >= 0 the max(0, .) never clips; F > 0 for every d > 0, so the contact is not lost
   * before d returns to 0 (the purpose of the switch). History: none.
   * Units: k_N in N/mm^(5/2) per mm thickness, c_N in s.
   */
  class DampedHertzDecompressionOff : public laws::ContactLaw
  {
  public:
    /// Catalogue identifier (the default of ParticleSurfaceContactParameters::normal_law;
    /// legacy_default_law_name selects it too).
    static constexpr const char *law_name = "temizer_decompression_undamped";

    /// @throws std::invalid_argument if k_N is not positive and finite or c_N is negative or
    ///         not finite.
    DampedHertzDecompressionOff(double normal_stiffness, double damping);

    double
    force(double d, double d_dot, const NormalContactHistory &h) const override;
    /// true: the damping is switched off for d' < 0.
    bool
    switches_with_rate() const override
    {
      return true;
    }
    /// compression: max(0, k_N sqrt(d) (d + c_N d')) for any d'; decompression: k_N d^(3/2).
    double
    force_on_branch(double d, double d_dot, RateBranch branch,
                    const NormalContactHistory &h) const override;
    /// k_N d^(3/2).
    double
    elastic_force(double d, const NormalContactHistory &h) const override;
    /// (2/5) k_N d^(5/2).
    double
    stored_energy(double d, const NormalContactHistory &h) const override;
    /// Compression: k_N (3/2 sqrt(d) + c_N d' / (2 sqrt(d))); decompression: 3/2 k_N sqrt(d).
    /// (The damping term's derivative is singular at d -> 0+ with d' > 0; callers that need a
    /// bounded value evaluate it at a positive reference indentation.)
    double
    stiffness(double d, double d_dot, const NormalContactHistory &h) const override;
    /// Compression: k_N c_N sqrt(d); decompression: 0.
    double
    damping_coefficient(double d, double d_dot, const NormalContactHistory &h) const override;
    /// 3/2 k_N sqrt(d).
    double
    elastic_stiffness(double d, const NormalContactHistory &h) const override;
    /// Compression: k_N (3/2 sqrt(d) + c_N d' / (2 sqrt(d))) and k_N c_N sqrt(d) where the
    /// force is positive (0 where max(0, .) clips it); decompression: 3/2 k_N sqrt(d) and 0.
    ForceDerivatives
    force_derivatives_on_branch(double d, double d_dot, RateBranch branch,
                                const NormalContactHistory &h) const override;
    /// (f / k_N)^(2/3).
    double
    indentation_for_force(double f, const NormalContactHistory &h) const override;
    /// (5 E / (2 k_N))^(2/5).
    double
    indentation_for_energy(double energy, const NormalContactHistory &h) const override;

    /// k_N d^(3/2) (laws::ContactLaw's rate-independent part).
    double
    spring_force(double d, const NormalContactHistory &h) const override;
    /// k_N c_N sqrt(d) d' (laws::ContactLaw's damping part; off in decompression).
    double
    damping_force(double d, double d_dot, const NormalContactHistory &h) const override;

    double
    normal_stiffness() const
    {
      return k_N;
    }
    double
    damping() const
    {
      return c_N;
    }

  private:
    double k_N; ///< N/mm^(5/2) per mm thickness
    double c_N; ///< s
  };


  namespace laws::catalogue
  {
    /// F7 (registry entry).
    LawInfo
    temizer_decompression_undamped();
  } // namespace laws::catalogue
} // namespace granular::contact
