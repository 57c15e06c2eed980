// docs/contact-law-catalogue.md §5 G: elastoplastic and history-dependent laws (G1 thornton, G2
// yigit, G3 ma_liu, G4 wang_liu_liu_elastoplastic_dashpot) and MaLiuModel. See elastoplastic.h.
#include "contact/laws/elastoplastic.h"

#include <boost/math/constants/constants.hpp>
#include <boost/math/tools/roots.hpp>

#include <algorithm>
#include <atomic>
#include <iostream>
#include <cmath>
#include <cstdint>
#include <limits>
#include <memory>
#include <stdexcept>
#include <string>

namespace granular::contact::laws
{
  namespace
  {
    constexpr double pi = boost::math::constants::pi<double>();

    /// x^1.5 for x >= 0, 0 otherwise.
    double
    pow15(const double x)
    {
      return x > 0. ? x * std::sqrt(x) : 0.;
    }

    /// x^2.5 for x >= 0, 0 otherwise.
    double
    pow25(const double x)
    {
      return x > 0. ? x * x * std::sqrt(x) : 0.;
    }

    void
    require_positive(const double v, const char *what)
    {
      if (!(std::isfinite(v) && v > 0.))
        throw std::invalid_argument(std::string("elastoplastic contact law: ") + what +
                                    " must be positive and finite");
    }
  } // namespace

  // ---------------------------------------------------------------------------------------
  // MaLiuModel
  MaLiuModel::MaLiuModel(const double E_star, const double R_eff, const double sigma_y,
                         const double xi, const double psi)
    : E(E_star)
    , R(R_eff)
    , sy(sigma_y)
    , xi_(xi)
    , psi_(psi)
  {
    require_positive(E, "the effective modulus E*");
    require_positive(R, "the effective radius R_eff");
    require_positive(sy, "the yield strength sigma_y");
    require_positive(psi_, "the hardness ratio psi");
    if (!(std::isfinite(xi_) && xi_ > std::sqrt(2.)))
      throw std::invalid_argument("MaLiuModel: xi must be finite and > sqrt(2) (delta_p = "
                                  "xi^2 delta_y/2 must exceed delta_y)");
    py  = 1.61 * sy;
    dy  = pi * pi * R * py * py / (4. * E * E);
    dp  = xi_ * xi_ * dy / 2.;
    L   = std::log(xi_ * xi_ / 2.);
    k1_ = 2. * pi * R * psi_ * sy;
    c1_ = pi * R * (py * (1. + L) - 2. * psi_ * sy) / L;
    c2_ = pi * R * (2. * psi_ * sy - py) / L;
    Fy  = pi * pi * pi * R * R * py * py * py / (6. * E * E);
    c3_ = Fy - c1_ * dy;
    Fp  = dp * (c1_ + c2_ * L) + c3_;
    KH  = 4. / 3. * E * std::sqrt(R);
  }

  MaLiuModel::Phase
  MaLiuModel::phase(const double delta_max) const
  {
    if (delta_max < dy)
      return Phase::elastic;
    return delta_max < dp ? Phase::elastoplastic : Phase::plastic;
  }

  double
  MaLiuModel::hertz_force(const double d) const
  {
    return KH * pow15(d);
  }

  double
  MaLiuModel::loading_force(const double d) const
  {
    if (!(d > 0.))
      return 0.;
    if (d < dy)
      return KH * pow15(d);
    if (d < dp)
      return d * (c1_ + c2_ * std::log(d / dy)) + c3_;
    return Fp + k1_ * (d - dp);
  }

  double
  MaLiuModel::unloading_radius(const double delta_max) const
  {
    switch (phase(delta_max))
      {
        case Phase::elastic:
          return R;
        case Phase::elastoplastic:
          // correction 1: F_e = Hertz force at delta_max
          return R * hertz_force(delta_max) / loading_force(delta_max);
        case Phase::plastic:
          return R * hertz_force(dp) / Fp;
      }
    return R;
  }

  double
  MaLiuModel::residual_indentation(const double delta_max) const
  {
    if (phase(delta_max) == Phase::elastic)
      return 0.;
    const double K_e = 4. / 3. * E * std::sqrt(unloading_radius(delta_max));
    return delta_max - std::cbrt(std::pow(loading_force(delta_max) / K_e, 2.));
  }

  double
  MaLiuModel::unloading_force(const double d, const double delta_max) const
  {
    if (!(d > 0.))
      return 0.;
    if (phase(delta_max) == Phase::elastic)
      return hertz_force(d);
    const double K_e = 4. / 3. * E * std::sqrt(unloading_radius(delta_max));
    return K_e * pow15(d - residual_indentation(delta_max));
  }

  double
  MaLiuModel::loading_work(const double delta_max) const
  {
    if (!(delta_max > 0.))
      return 0.;
    const double m = std::min(delta_max, dy);
    double       U = 0.4 * KH * pow25(m); // (8/15) E* sqrt(R) m^2.5
    if (delta_max <= dy)
      return U;
    const double e = std::min(delta_max, dp);
    U += (c1_ / 2. - c2_ / 4.) * (e * e - dy * dy) + c2_ / 2. * e * e * std::log(e / dy) +
         c3_ * (e - dy); // correction 2: the c3 term
    if (delta_max <= dp)
      return U;
    const double x = delta_max - dp;
    return U + Fp * x + k1_ / 2. * x * x;
  }

  double
  MaLiuModel::unloading_work(const double delta_max) const
  {
    if (phase(delta_max) == Phase::elastic)
      return loading_work(delta_max);
    return 0.4 * loading_force(delta_max) * (delta_max - residual_indentation(delta_max));
  }

  double
  MaLiuModel::unloading_work_to(const double d, const double delta_max) const
  {
    if (!(d > 0.))
      return 0.;
    if (phase(delta_max) == Phase::elastic)
      return 0.4 * KH * pow25(d);
    const double K_e = 4. / 3. * E * std::sqrt(unloading_radius(delta_max));
    const double d_r = residual_indentation(delta_max);
    return 0.4 * K_e * (pow25(d - d_r) - pow25(-d_r));
  }

  double
  MaLiuModel::coefficient_of_restitution(const double delta_max) const
  {
    if (phase(delta_max) == Phase::elastic)
      return 1.;
    return std::sqrt(unloading_work(delta_max) / loading_work(delta_max));
  }

  double
  MaLiuModel::max_indentation_for_energy(const double U) const
  {
    if (!(U > 0.))
      return 0.;
    if (U <= loading_work(dy))
      return std::pow(U / (0.4 * KH), 0.4);
    const double U_p = loading_work(dp);
    if (U > U_p)
      {
        // F_p x + k1 x^2/2 = U - U_p, x = delta_max - delta_p (cancellation-free root)
        const double dU = U - U_p;
        return dp + 2. * dU / (Fp + std::sqrt(Fp * Fp + 2. * k1_ * dU));
      }
    std::uintmax_t max_iter = 100;
    const auto     bracket  = boost::math::tools::toms748_solve(
      [&](const double d) { return loading_work(d) - U; }, dy, dp, loading_work(dy) - U,
      U_p - U, boost::math::tools::eps_tolerance<double>(std::numeric_limits<double>::digits - 2),
      max_iter);
    return 0.5 * (bracket.first + bracket.second);
  }

  double
  MaLiuModel::linearized_stiffness() const
  {
    return (Fp - Fy) / (dp - dy);
  }

  bool
  MaLiuModel::loading_below_hertz() const
  {
    return psi_ <= 0.805 * (1. + L / 2.);
  }

  // ---------------------------------------------------------------------------------------
  namespace
  {
    /**
     * Common frame of the rate-independent elastoplastic laws G1–G3: the spring force follows
     * the loading curve while d >= delta_max (the history's max_indentation, updated by
     * updated_history() before the force is evaluated) and the unloading curve from
     * delta_max below it; reloading after a partial unloading retraces the unloading curve up
     * to delta_max (the sources do not specify reloading). Below the residual indentation the
     * force is 0 but the contact stays active, with its history, until d <= 0
     * (docs/contact-law-catalogue.md §6).
     * No damping part: dissipation comes only from the loading/unloading path difference.
     * History: max_indentation (delta_max), max_force (F_max), residual_indentation
     * (delta_r / delta_P / delta_f, set by updated_history()).
     */
    class HistoryElastoplasticLaw : public ContactLaw
    {
    public:
      using ContactLaw::ContactLaw;

      /// Loading curve (N) at d > 0.
      virtual double
      loading(double d) const = 0;
      /// Integral of loading() from 0 to d (N mm).
      virtual double
      loading_work(double d) const = 0;
      /// Unloading curve from dm at 0 < d <= dm (N).
      virtual double
      unloading(double d, double dm) const = 0;
      /// Integral of unloading(., dm) from 0 to d <= dm (N mm).
      virtual double
      unloading_work_to(double d, double dm) const = 0;
      /// Residual indentation of the unloading curve from dm (mm).
      virtual double
      residual(double dm) const = 0;

      bool
      has_unloading_branch() const override
      {
        return true;
      }

      double
      spring_force(const double d, const NormalContactHistory &h) const override
      {
        return d >= h.max_indentation ? loading(d) : unloading(d, h.max_indentation);
      }

      /// Closed-form integral of spring_force(., h) from 0 to d: the unloading curve up to
      /// min(d, delta_max), then the loading curve.
      double
      stored_energy(const double d, const NormalContactHistory &h) const override
      {
        if (!(d > 0.))
          return 0.;
        const double dm = h.max_indentation;
        if (d <= dm)
          return unloading_work_to(d, dm);
        if (!(dm > 0.))
          return loading_work(d);
        return unloading_work_to(dm, dm) + loading_work(d) - loading_work(dm);
      }

      /// Base update, plus residual_indentation = the residual of the current delta_max.
      NormalContactHistory
      updated_history(const double d, const double d_dot, const double dt,
                      const NormalContactHistory &old) const override
      {
        NormalContactHistory h = ContactLaw::updated_history(d, d_dot, dt, old);
        if (h.active)
          h.residual_indentation = residual(h.max_indentation);
        return h;
      }
    };

    // -------------------------------------------------------------------------------------
    /**
     * G1 `thornton`: elastic–perfectly plastic spheres (Thornton; S002 eqs.(5.67)–(5.71), its
     * ref [188]; mentioned S000 ref [83], S003 ref [25]; docs/contact-law-catalogue.md G1).
     *   loading, d <= delta_y:   F = K_L d^1.5,  K_L = (4/3) E* sqrt(R)
     *   loading, d >  delta_y:   F = P_y + pi sigma_y R (d - delta_y)
     *   unloading from delta_m > delta_y (P* = F(delta_m)):
     *     F = K_H (d - delta_P)^1.5 for d > delta_P, 0 below,  K_H = (4/3) E* sqrt(R_P),
     *     R_P = (4 E* / (3 P*)) ((2 P* + P_y)/(2 pi sigma_y))^1.5,
     *     delta_P = delta_m - (P* / K_H)^(2/3)  (not stated in the source: continuity at the
     *     turning point, docs/contact-law-catalogue.md G1);
     *   unloading from delta_m <= delta_y: the Hertz curve (reversible).
     * sigma_y = 3 P_y/(2 pi a_y^2) with P_y = K_L delta_y^1.5 and a_y^2 = R delta_y (Hertz):
     * sigma_y is the limiting (maximum Hertz) contact pressure at yield, NOT the uniaxial yield
     * stress; ContactData::yield_strength is read as this pressure. Hence
     * delta_y = pi^2 R sigma_y^2/(4 E*^2). The loading slope is continuous at delta_y
     * (pi sigma_y R), R_P = R at P* = P_y and R_P grows with P*, so delta_P >= 0.
     * Units: E*, sigma_y in MPa, R in mm, F in N. Parameters: none (flags only; no damping).
     * History: delta_m = max_indentation, P* = max_force, delta_P = residual_indentation.
     * Flags: clamp false, damping in decompression true (no damping part: both inert).
     */
    class Thornton : public HistoryElastoplasticLaw
    {
    public:
      Thornton(const double E_star, const double R_eff, const double sigma_y, const bool clamp,
               const bool damped)
        : HistoryElastoplasticLaw("thornton", clamp, damped)
        , E(E_star)
        , R(R_eff)
        , sy(sigma_y)
        , KL(4. / 3. * E_star * std::sqrt(R_eff))
        , dy(pi * pi * R_eff * sigma_y * sigma_y / (4. * E_star * E_star))
        , Py(KL * pow15(dy))
      {
        require_positive(E, "the effective modulus E*");
        require_positive(R, "the effective radius R_eff");
        require_positive(sy, "the yield strength sigma_y");
      }

      double
      loading(const double d) const override
      {
        return d <= dy ? KL * pow15(d) : Py + pi * sy * R * (d - dy);
      }
      double
      loading_work(const double d) const override
      {
        if (d <= dy)
          return 0.4 * KL * pow25(d);
        const double x = d - dy;
        return 0.4 * KL * pow25(dy) + Py * x + 0.5 * pi * sy * R * x * x;
      }

      /// K_H (N/mm^1.5) and delta_P (mm) of the unloading curve from dm > delta_y.
      void
      unloading_curve(const double dm, double &K_H, double &delta_P) const
      {
        const double P   = loading(dm);
        const double R_P = 4. * E / (3. * P) * pow15((2. * P + Py) / (2. * pi * sy));
        K_H              = 4. / 3. * E * std::sqrt(R_P);
        delta_P          = dm - std::cbrt(std::pow(P / K_H, 2.));
      }

      double
      unloading(const double d, const double dm) const override
      {
        if (dm <= dy)
          return KL * pow15(d);
        double K_H, delta_P;
        unloading_curve(dm, K_H, delta_P);
        return K_H * pow15(d - delta_P);
      }
      double
      unloading_work_to(const double d, const double dm) const override
      {
        if (dm <= dy)
          return 0.4 * KL * pow25(d);
        double K_H, delta_P;
        unloading_curve(dm, K_H, delta_P);
        return 0.4 * K_H * (pow25(d - delta_P) - pow25(-delta_P));
      }
      double
      residual(const double dm) const override
      {
        if (dm <= dy)
          return 0.;
        double K_H, delta_P;
        unloading_curve(dm, K_H, delta_P);
        return delta_P;
      }

    private:
      double E, R, sy, KL, dy, Py;
    };

    // -------------------------------------------------------------------------------------
    /**
     * G2 `yigit`: visco-elastoplastic compact body on a composite (Yigit et al.; S002
     * eqs.(5.75)–(5.79), its ref [189], linearized form ref [190];
     * docs/contact-law-catalogue.md G2). Only the elastoplastic force of the catalogue is modelled
     * (the catalogue gives no damping term). Non-linear form (default):
     *   d <= delta_y (elastic):               F = K d^1.5
     *   delta_y <= d <= delta_m (loading):    F = K delta_y^1.5 + K_y (d - delta_y),
     *                                         K_y = 1.5 K sqrt(delta_y) (slope continuity)
     *   unloading from delta_m > delta_y:     F = K (d^1.5 - delta_m^1.5 + delta_y^1.5)
     *                                             + K_y (delta_m - delta_y)
     *     (continuous with the loading curve at delta_m); it reaches 0 at
     *     delta_f = (delta_m^1.5 - F_m/K)^(2/3) >= 0, F_m = F(delta_m); below delta_f the force
     *     is 0 (permanent indentation; the printed formula would give tension there);
     *   unloading from delta_m <= delta_y: the loading curve (elastic).
     * Linearized form ("Linearized" = true; S002 eqs.(5.77)–(5.79)):
     *   loading F = K_y d; unloading F = (K_y/gamma) (d - delta_f) for d > delta_f, 0 below,
     *   delta_f = delta_m (1 - (K_y/(K sqrt(delta_m)))^(2/3)), gamma = 1 - delta_f/delta_m.
     *   docs/contact-law-catalogue.md §7 / G2 flag: S002 prints the slope K_y/gamma^2, which is not
     *   continuous with the loading line at delta_m; we use K_y/gamma, the slope of the line
     *   through (delta_m, K_y delta_m) and (delta_f, 0). gamma is capped at 1 (delta_f >= 0): for
     *   delta_m <= (K_y/K)^2 = 2.25 delta_y the printed delta_f would be negative, and the
     *   unloading follows the loading line (reversible). K_y = 1.5 K sqrt(delta_y) as above.
     * Units: K in N/mm^1.5 (ContactData::stiffness), delta_y in mm, F in N.
     * History: delta_m = max_indentation, F_m = max_force, delta_f = residual_indentation.
     * Flags: clamp false, damping in decompression true (no damping part: both inert).
     */
    class Yigit : public HistoryElastoplasticLaw
    {
    public:
      Yigit(const double K_, const double delta_y, const bool linearized_, const bool clamp,
            const bool damped)
        : HistoryElastoplasticLaw("yigit", clamp, damped)
        , K(K_)
        , dy(delta_y)
        , Ky(1.5 * K_ * std::sqrt(delta_y))
        , linearized(linearized_)
      {
        require_positive(K, "the stiffness K");
        require_positive(dy, "the yield indentation delta_y");
      }

      double
      loading(const double d) const override
      {
        if (linearized)
          return Ky * d;
        return d <= dy ? K * pow15(d) : K * pow15(dy) + Ky * (d - dy);
      }
      double
      loading_work(const double d) const override
      {
        if (linearized)
          return 0.5 * Ky * d * d;
        if (d <= dy)
          return 0.4 * K * pow25(d);
        const double x = d - dy;
        return 0.4 * K * pow25(dy) + K * pow15(dy) * x + 0.5 * Ky * x * x;
      }
      /// Linearized form: gamma (<= 1) of the unloading line from dm.
      double
      gamma(const double dm) const
      {
        return std::min(1., std::cbrt(std::pow(Ky / (K * std::sqrt(dm)), 2.)));
      }
      double
      unloading(const double d, const double dm) const override
      {
        if (linearized)
          {
            const double g = gamma(dm);
            return Ky / g * std::max(0., d - dm * (1. - g));
          }
        if (dm <= dy)
          return K * pow15(d);
        return std::max(0., loading(dm) - K * (pow15(dm) - pow15(d)));
      }
      double
      unloading_work_to(const double d, const double dm) const override
      {
        if (linearized)
          {
            const double g = gamma(dm), x = std::max(0., d - dm * (1. - g));
            return 0.5 * Ky / g * x * x;
          }
        if (dm <= dy)
          return 0.4 * K * pow25(d);
        const double d_f = residual(dm);
        if (d <= d_f)
          return 0.;
        return (loading(dm) - K * pow15(dm)) * (d - d_f) + 0.4 * K * (pow25(d) - pow25(d_f));
      }
      double
      residual(const double dm) const override
      {
        if (linearized)
          return dm > 0. ? dm * (1. - gamma(dm)) : 0.;
        if (dm <= dy)
          return 0.;
        return std::cbrt(std::pow(std::max(0., pow15(dm) - loading(dm) / K), 2.));
      }

    private:
      double K, dy, Ky;
      bool   linearized;
    };

    // -------------------------------------------------------------------------------------
    /**
     * G3 `ma_liu`: the Ma–Liu four-phase elastoplastic law (S003 §2, eqs.(1)–(8), its ref
     * [32]; docs/contact-law-catalogue.md G3), the force–indentation curves of MaLiuModel (see its
     * docstring for every formula, corrections 1–2 and the consistency condition on psi):
     *   d >= delta_max: F = loading_force(d)         (Hertz / elastoplastic / plastic, eq.(1))
     *   d <  delta_max: F = unloading_force(d, delta_max)  (eq.(3): Hertz in the elastic
     *                   phase, else (4/3) E* sqrt(R_e) (d - delta_r)^1.5, 0 for d <= delta_r).
     * The contact carries no force below delta_r but stays active (history kept) until d <= 0.
     * Reloading after a partial unloading is not specified by the source: it retraces the
     * unloading curve up to delta_max, then continues on the loading curve (elastic reloading).
     * Units: E* MPa, R_eff mm, sigma_y MPa (uniaxial yield strength of the softer body;
     * p_y = 1.61 sigma_y), xi and psi dimensionless, F in N.
     * History: delta_max = max_indentation, F_max = max_force, delta_r = residual_indentation.
     * Flags: clamp false, damping in decompression true (no damping part: both inert).
     */
    class MaLiu : public HistoryElastoplasticLaw
    {
    public:
      MaLiu(const MaLiuModel &m, const bool clamp, const bool damped)
        : HistoryElastoplasticLaw("ma_liu", clamp, damped)
        , model(m)
      {}

      double
      loading(const double d) const override
      {
        return model.loading_force(d);
      }
      double
      loading_work(const double d) const override
      {
        return model.loading_work(d);
      }
      double
      unloading(const double d, const double dm) const override
      {
        warn_outside_validity(dm);
        return model.unloading_force(d, dm);
      }
      double
      unloading_work_to(const double d, const double dm) const override
      {
        return model.unloading_work_to(d, dm);
      }
      double
      residual(const double dm) const override
      {
        return model.residual_indentation(dm);
      }

      /// With a fresh history: MaLiuModel::max_indentation_for_energy (the loading curve);
      /// otherwise the base inversion of stored_energy().
      double
      indentation_for_energy(const double energy, const NormalContactHistory &h) const override
      {
        if (!(h.max_indentation > 0.))
          return model.max_indentation_for_energy(energy);
        return ContactLaw::indentation_for_energy(energy, h);
      }

    private:
      MaLiuModel model;
      /// the last delta_max checked, and whether the warning was given
      mutable std::atomic<double> checked_dm{-1.};
      mutable std::atomic<bool>   warned{false};

      /// Once per law object (per run, per impact case): a warning on stderr when an
      /// unloading starts from a @p dm where the coefficient of restitution exceeds 1, so
      /// that the law creates energy (with psi above the consistency bound, just past
      /// delta_y; MaLiuModel's docstring).
      void warn_outside_validity(const double dm) const
      {
        if (warned || dm == checked_dm)
          return;
        checked_dm = dm;
        const double cor = model.coefficient_of_restitution(dm);
        if (cor > 1. && !warned.exchange(true))
          std::cerr << "warning: contact law ma_liu: an impact reached the maximum indentation "
                    << dm << " mm (" << dm / model.delta_y()
                    << " delta_y), where its coefficient of restitution is " << cor
                    << " > 1: the law creates energy there, outside its range of validity "
                       "(docs/contact-law-catalogue.md G3; psi below "
                       "0.805 (1 + ln(xi^2 / 2) / 2) avoids it). Shown once."
                    << std::endl;
      }
    };

    // -------------------------------------------------------------------------------------
    /**
     * G4 `wang_liu_liu_elastoplastic_dashpot` (S003 §3, eqs.(9)–(18);
     *   docs/contact-law-catalogue.md G4): F = K_p d (1 + 1.5 (1 - c_r)/c_r d'/delta_dot_minus)
     *     = K_p d + chi d d',  chi = 3 K_p (1 - c_r)/(2 c_r delta_dot_minus)  (eq.(17)),
     * K_p = (F(delta_p) - F(delta_y))/(delta_p - delta_y) (N/mm) from the Ma–Liu loading curve
     * (MaLiuModel::linearized_stiffness; needs E* MPa, R_eff mm, sigma_y MPa, xi, psi).
     * c_r: the parameter "Coefficient of restitution"; its default 0 means "the Ma–Liu CoR of
     * the same impact" (docs/contact-law-catalogue.md G4): computed from the contact's approach
     * velocity delta_dot_minus (guarded, below) and the effective mass m_eff (t; then required) as
     * delta_max = MaLiuModel::max_indentation_for_energy(0.5 m_eff delta_dot_minus^2),
     * c_r = min(1, MaLiuModel::coefficient_of_restitution(delta_max)) (the cap at 1 is ours:
     * see MaLiuModel's consistency condition; c_r = 1 means no damping, e.g. an elastic-phase
     * impact). Note docs/contact-law-catalogue.md §8 S3/S4 reproduce the paper with m = the mass of
     * one moving body, which the caller then passes as m_eff (docs/contact-law-catalogue.md G3
     * correction 3). delta_dot_minus = max(approach velocity at onset, "Minimum approach velocity")
     * (mm/s; docs/contact-law-catalogue.md §6 guard).
     * Units: d mm, d' mm/s, F N. History: delta_dot_minus only (no residual deformation).
     * Flags: clamp false, damping in decompression true (S003 applies the law through the
     * whole impact).
     */
    class WangLiuLiu : public ContactLaw
    {
    public:
      WangLiuLiu(const MaLiuModel &m, const double c_r_, const double m_eff_, const double v_min,
                 const bool clamp, const bool damped)
        : ContactLaw("wang_liu_liu_elastoplastic_dashpot", clamp, damped)
        , model(m)
        , K_p(m.linearized_stiffness())
        , c_r(c_r_)
        , m_eff(m_eff_)
      {
        minimum_approach_velocity = v_min;
        if (!(c_r > 0.))
          require_positive(m_eff, "the effective mass m_eff (needed for the Ma–Liu CoR)");
      }

      /// c_r in use for the contact with history h.
      double
      restitution(const NormalContactHistory &h) const
      {
        if (c_r > 0.)
          return c_r;
        const double v = approach_velocity(h);
        return std::min(1., model.coefficient_of_restitution(
                              model.max_indentation_for_energy(0.5 * m_eff * v * v)));
      }

      double
      spring_force(const double d, const NormalContactHistory &) const override
      {
        return K_p * d;
      }
      double
      damping_force(const double d, const double d_dot,
                    const NormalContactHistory &h) const override
      {
        const double c = restitution(h);
        return K_p * d * 1.5 * (1. - c) / c * d_dot / approach_velocity(h);
      }
      double
      stored_energy(const double d, const NormalContactHistory &) const override
      {
        return d > 0. ? 0.5 * K_p * d * d : 0.;
      }
      double
      indentation_for_force(const double f, const NormalContactHistory &) const override
      {
        return f > 0. ? f / K_p : 0.;
      }
      double
      indentation_for_energy(const double e, const NormalContactHistory &) const override
      {
        return e > 0. ? std::sqrt(2. * e / K_p) : 0.;
      }

    private:
      MaLiuModel model;
      double     K_p, c_r, m_eff;
    };

    // -------------------------------------------------------------------------------------
    LawParameter
    xi_parameter()
    {
      LawParameter p;
      p.name          = "Plastic limit ratio";
      p.default_value = 13.;
      p.lower         = std::sqrt(2.);
      p.lower_open    = true;
      p.doc = "Ma-Liu xi (dimensionless): the fully plastic phase starts at delta_p = "
              "xi^2 delta_y/2, where the contact pressure becomes nearly uniform (S003 §2 "
              "eq.(1); 13-20 for equal materials; default 13 as S003 §4-5).";
      return p;
    }

    LawParameter
    psi_parameter()
    {
      LawParameter p;
      p.name          = "Hardness ratio";
      p.default_value = 3.;
      p.lower         = 0.;
      p.lower_open    = true;
      p.doc = "Ma-Liu psi (dimensionless): Brinell hardness / yield strength, plastic slope "
              "k1 = 2 pi R psi sigma_y (S003 §2; 2.6-3.0; default 3.0 as S003 §4). With "
              "psi > 0.805 (1 + ln(xi^2/2)/2) (2.59 for xi = 13) the loading curve rises "
              "slightly above Hertz just past delta_y and the model's CoR exceeds 1 there "
              "(MaLiuModel).";
      return p;
    }

    MaLiuModel
    ma_liu_model(const LawValues &v, const ContactData &data)
    {
      return MaLiuModel(data.effective_modulus, data.effective_radius, data.yield_strength,
                        v.at("Plastic limit ratio"), v.at("Hardness ratio"));
    }
  } // namespace

  // ---------------------------------------------------------------------------------------
  namespace catalogue
  {
    LawInfo
    thornton()
    {
      LawInfo i;
      i.id      = "thornton";
      i.entry   = "G1";
      i.title   = "Thornton (elastic-perfectly plastic spheres)";
      i.formula = "loading: F = K_L d^1.5 (d <= delta_y), P_y + pi sigma_y R (d - delta_y); "
                  "unloading: F = K_H (d - delta_P)^1.5, K_H = (4/3) E* sqrt(R_P), "
                  "R_P = (4 E* / (3 P*)) ((2 P* + P_y)/(2 pi sigma_y))^1.5";
      i.source  = "S002 eqs.(5.67)-(5.71) ref [188]; S000 ref [83]; S003 ref [25]; "
                  "docs/contact-law-catalogue.md G1 (delta_P from continuity at the turning point)";
      i.needs   = {Needs::effective_modulus, Needs::effective_radius, Needs::yield_strength};
      i.create  = [](const LawValues &v, const ContactData &data)
        -> std::shared_ptr<const ContactLaw> {
        return std::make_shared<const Thornton>(data.effective_modulus, data.effective_radius,
                                                data.yield_strength, v.at(clamp_flag) == 1.,
                                                v.at(damping_flag) == 1.);
      };
      return i;
    }

    LawInfo
    yigit()
    {
      LawInfo i;
      i.id      = "yigit";
      i.entry   = "G2";
      i.title   = "Yigit et al. (elastoplastic, compact body on composite)";
      i.formula = "loading: F = K d^1.5 (d <= delta_y), K delta_y^1.5 + K_y (d - delta_y); "
                  "unloading: F = K (d^1.5 - delta_m^1.5 + delta_y^1.5) + K_y (delta_m - "
                  "delta_y); K_y = 1.5 K sqrt(delta_y)";
      i.source  = "S002 eqs.(5.75)-(5.79) refs [189],[190]; docs/contact-law-catalogue.md G2 "
                  "(linearized unloading slope K_y/gamma, §7)";
      LawParameter y;
      y.name          = "Yield indentation";
      y.default_value = 1e-3;
      y.lower         = 0.;
      y.lower_open    = true;
      y.doc = "delta_y in mm: end of the elastic (Hertz) loading. The source gives no value; "
              "default 1e-3 mm, the order of the Hertz yield indentation of mm-size metal "
              "spheres (docs/contact-law-catalogue.md §8 S3: 1.6e-3 mm, S4: 5.5e-4 mm).";
      LawParameter lin;
      lin.name          = "Linearized";
      lin.default_value = 0.;
      lin.flag          = true;
      lin.doc = "true: the linearized variant (S002 eqs.(5.77)-(5.79)): loading K_y d, "
                "unloading (K_y/gamma)(d - delta_f) with the slope K_y/gamma that is continuous "
                "at delta_m (S002 prints K_y/gamma^2, inconsistent: "
                "docs/contact-law-catalogue.md §7).";
      i.parameters = {y, lin};
      i.needs      = {Needs::stiffness};
      i.create     = [](const LawValues &v, const ContactData &data)
        -> std::shared_ptr<const ContactLaw> {
        return std::make_shared<const Yigit>(data.stiffness, v.at("Yield indentation"),
                                             v.at("Linearized") == 1., v.at(clamp_flag) == 1.,
                                             v.at(damping_flag) == 1.);
      };
      return i;
    }

    LawInfo
    ma_liu()
    {
      LawInfo i;
      i.id      = "ma_liu";
      i.entry   = "G3";
      i.title   = "Ma-Liu (four-phase elastoplastic)";
      i.formula = "loading: Hertz (d < delta_y), d (c1 + c2 ln(d/delta_y)) + c3 (d < delta_p), "
                  "F_p + k1 (d - delta_p); unloading: (4/3) E* sqrt(R_e) (d - delta_r)^1.5";
      i.source  = "S003 §2 eqs.(1)-(8) ref [32]; docs/contact-law-catalogue.md G3 (corrections "
                  "1-2)";
      i.parameters = {xi_parameter(), psi_parameter()};
      i.needs = {Needs::effective_modulus, Needs::effective_radius, Needs::yield_strength};
      i.create = [](const LawValues &v, const ContactData &data)
        -> std::shared_ptr<const ContactLaw> {
        return std::make_shared<const MaLiu>(ma_liu_model(v, data), v.at(clamp_flag) == 1.,
                                             v.at(damping_flag) == 1.);
      };
      return i;
    }

    LawInfo
    wang_liu_liu_elastoplastic_dashpot()
    {
      LawInfo i;
      i.id      = "wang_liu_liu_elastoplastic_dashpot";
      i.entry   = "G4";
      i.title   = "Wang-Liu-Liu elastoplastic dashpot";
      i.formula = "F = K_p d (1 + 1.5 (1 - c_r)/c_r d'/delta_dot_minus), "
                  "K_p = (F(delta_p) - F(delta_y))/(delta_p - delta_y) (Ma-Liu)";
      i.source  = "S003 §3 eqs.(9)-(18); docs/contact-law-catalogue.md G4";
      LawParameter c;
      c.name          = "Coefficient of restitution";
      c.default_value = 0.;
      c.lower         = 0.;
      c.upper         = 1.;
      c.doc = "c_r (dimensionless). 0 (default): the Ma-Liu CoR of the same impact, computed "
              "at contact onset from the approach velocity and the effective mass (then "
              "required), capped at 1 (docs/contact-law-catalogue.md G4). S003 §5.2 uses 0.65 for "
              "its granular chain.";
      LawParameter g;
      g.name          = "Minimum approach velocity";
      g.default_value = 1.;
      g.lower         = 0.;
      g.lower_open    = true;
      g.doc = "mm/s: lower bound of delta_dot_minus in the damping factor "
              "(docs/contact-law-catalogue.md §6: guard delta_dot_minus -> 0 for contacts that "
              "start at rest). Default 1 mm/s.";
      i.parameters = {c, xi_parameter(), psi_parameter(), g};
      i.needs = {Needs::effective_modulus, Needs::effective_radius, Needs::yield_strength};
      i.create = [](const LawValues &v, const ContactData &data)
        -> std::shared_ptr<const ContactLaw> {
        const double c_r = v.at("Coefficient of restitution");
        if (!(c_r > 0.) && !(std::isfinite(data.effective_mass) && data.effective_mass > 0.))
          throw std::invalid_argument(
            "contact law wang_liu_liu_elastoplastic_dashpot with \"Coefficient of "
            "restitution\" = 0 (the Ma-Liu CoR of the impact) needs " +
            describe(Needs::effective_mass) + ", which this contact does not define or is not "
            "positive");
        return std::make_shared<const WangLiuLiu>(ma_liu_model(v, data), c_r,
                                                  data.effective_mass,
                                                  v.at("Minimum approach velocity"),
                                                  v.at(clamp_flag) == 1.,
                                                  v.at(damping_flag) == 1.);
      };
      return i;
    }
  } // namespace catalogue
} // namespace granular::contact::laws
