// Rigid DEM particle on the flat surface (docs/methods.md §5). See particle.h.
#include "dem/particle.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>
#include <stdexcept>

namespace granular::dem
{
  namespace
  {
    bool
    finite(const Tensor<1, 2> &v)
    {
      return std::isfinite(v[0]) && std::isfinite(v[1]);
    }

    bool
    finite(const ParticleState &s)
    {
      return finite(s.centre) && finite(s.velocity) && std::isfinite(s.rotation) &&
             std::isfinite(s.angular_velocity);
    }
  } // namespace

  Particle::Particle(const geometry::SuperellipseShape     &shape,
                     const double                           mass,
                     const double                           moment_of_inertia,
                     const double                           gravity,
                     const ParticleSurfaceContactParameters &contact,
                     const ParticleState                   &initial,
                     const double                           cell_length,
                     const ParticleIntegrationSettings     &settings)
    : Particle(shape, mass, moment_of_inertia, gravity, contact,
               contact::create_normal_contact_law(contact, mass), initial, cell_length, settings)
  {}

  Particle::Particle(const geometry::SuperellipseShape               &shape,
                     const double                                     mass,
                     const double                                     moment_of_inertia,
                     const double                                     gravity,
                     const ParticleSurfaceContactParameters           &contact,
                     std::shared_ptr<const contact::NormalContactLaw> law_,
                     const ParticleState                              &initial,
                     const double                                     cell_length,
                     const ParticleIntegrationSettings                &settings_)
    : geometry_(shape)
    , m(mass)
    , I(moment_of_inertia)
    , g(gravity)
    , parameters(contact)
    , law(std::move(law_))
    , L0(cell_length)
    , settings(settings_)
    , bounding_radius(shape.half_width_bound())
  {
    if (!(std::isfinite(m) && m > 0.))
      throw std::invalid_argument("Particle: the mass must be positive and finite");
    if (!(std::isfinite(I) && I > 0.))
      throw std::invalid_argument("Particle: the moment of inertia must be positive and finite");
    if (!(std::isfinite(g) && g >= 0.))
      throw std::invalid_argument("Particle: the gravity g must be non-negative and finite");
    if (!(std::isfinite(L0) && L0 > 0.))
      throw std::invalid_argument("Particle: the cell length L0 must be positive and finite");
    if (!(std::isfinite(parameters.tangential_stiffness) && parameters.tangential_stiffness >= 0.))
      throw std::invalid_argument("Particle: the tangential stiffness k_T must be non-negative");
    if (!(std::isfinite(parameters.friction_coefficient) &&
          parameters.friction_coefficient >= 0.))
      throw std::invalid_argument("Particle: the friction coefficient k_PS must be non-negative");
    if (!law)
      throw std::invalid_argument("Particle: no normal contact law given");
    if (!(std::isfinite(settings.stability_fraction) && settings.stability_fraction > 0.))
      throw std::invalid_argument("Particle: the stability fraction must be positive");
    if (settings.max_substeps < 1)
      throw std::invalid_argument("Particle: max_substeps must be at least 1");
    if (!(std::isfinite(settings.energy_tolerance) && settings.energy_tolerance > 0.))
      throw std::invalid_argument("Particle: the energy tolerance must be positive");
    if (!finite(initial))
      throw std::invalid_argument("Particle: the initial state is not finite");

    data.state            = initial;
    data.unwrapped_centre = initial.centre;
    wrap();
    evaluate_contact(initial.velocity, initial.angular_velocity, 0.);
    kinetic_0 = kinetic_energy();
    contact_0 = contact_energy();
    height_0  = data.state.centre[1];
    data.energy_scale = kinetic_0 + contact_0;
  }

  ParticleState
  Particle::initial_state_resting(const geometry::SuperellipseShape &shape, const double theta0,
                                  const double x_centre, const double flat_side_radius)
  {
    if (!std::isfinite(theta0) || !std::isfinite(x_centre))
      throw std::invalid_argument("Particle::initial_state_resting: non-finite argument");
    const geometry::Superellipse geometry(shape);
    const Tensor<1, 2>           arm = geometry::rotate(
      theta0, flat_side_radius > 0. ?
                geometry.lowest_point(theta0, geometry.flat_side_rounding(flat_side_radius)) :
                geometry.lowest_point(theta0));
    ParticleState                s;
    s.centre[0] = x_centre;
    s.centre[1] = -arm[1];
    s.rotation  = theta0;
    return s;
  }

  void
  Particle::accept_step(const double dt, const Tensor<1, 2> &centre_increment,
                        const double rotation_increment, const Tensor<1, 2> &velocity,
                        const double angular_velocity,
                        const contact::ParticleSurfaceContactResult &contact,
                        const double external_work)
  {
    if (!(dt >= 0.) || !std::isfinite(dt) || !finite(centre_increment) ||
        !std::isfinite(rotation_increment) || !finite(velocity) ||
        !std::isfinite(angular_velocity) || !std::isfinite(external_work))
      throw std::invalid_argument("Particle::accept_step: dt < 0 or a non-finite argument");
    ParticleState &s = data.state;
    s.centre += centre_increment;
    data.unwrapped_centre += centre_increment;
    s.rotation += rotation_increment;
    s.velocity         = velocity;
    s.angular_velocity = angular_velocity;
    wrap();
    // the surface contact's work: of the step's force (discrete gradient) or trapezoidal
    data.surface_work +=
      contact.acts_over_step ?
        contact.force * centre_increment + contact.moment * rotation_increment :
        0.5 * ((data.contact.force + contact.force) * centre_increment +
               (data.contact.moment + contact.moment) * rotation_increment);
    data.contact = contact;
    data.friction_dissipation += contact.friction_dissipation;
    data.damping_dissipation += contact.damping_dissipation;
    data.external_work += external_work;
    data.gross_external_work += std::abs(external_work);
    data.energy_scale = std::max(data.energy_scale, kinetic_energy() + contact_energy());
    data.max_height_change = std::max(data.max_height_change, std::abs(s.centre[1] - height_0));
    data.time += dt;
    data.last_substeps = 1;
    data.total_substeps += 1;
  }

  double
  Particle::apply_impulse(const Tensor<1, 2> &impulse, const Tensor<1, 2> &arm)
  {
    if (!finite(impulse) || !finite(arm))
      throw std::invalid_argument("Particle::apply_impulse: a non-finite argument");
    const double before = kinetic_energy();
    ParticleState &s    = data.state;
    s.velocity += impulse / m;
    s.angular_velocity += (arm[0] * impulse[1] - arm[1] * impulse[0]) / I;
    const double work = kinetic_energy() - before;
    data.external_work += work;
    data.gross_external_work += std::abs(work);
    return work;
  }

  void
  Particle::wrap()
  {
    double &x = data.state.centre[0];
    if (x >= L0 || x < 0.)
      {
        x -= L0 * std::floor(x / L0);
        if (x >= L0) // round-off of the floor formula
          x = 0.;
      }
  }

  void
  Particle::evaluate_contact(const Tensor<1, 2> &velocity, const double angular_velocity,
                             const double dt)
  {
    const ParticleState &s = data.state;
    data.contact = contact::particle_surface_contact(
      geometry_, *law, parameters, {s.centre, velocity, s.rotation, angular_velocity},
      data.contact.history, dt);
    data.friction_dissipation += data.contact.friction_dissipation;
    // first half of the leapfrog work of the damping force (the second half is added after
    // the next drift, see advance())
    data.damping_dissipation += 0.5 * data.contact.damping_dissipation;
  }

  double
  Particle::critical_time_step(const double horizon, const Tensor<1, 2> &external_force,
                               const double external_moment) const
  {
    const contact::ParticleSurfaceContactResult &c = data.contact;
    const ParticleState                         &s = data.state;
    const double F_load = m * g + external_force.norm();
    const double gap    = -c.indentation;

    if (gap > 0.)
      {
        // can the surface be reached within the horizon? (bounds of the contact point motion)
        const double R     = bounding_radius;
        const double w     = std::abs(s.angular_velocity);
        const double u_max = s.velocity.norm() + w * R;
        const double a_max = F_load / m + std::abs(external_moment) * R / I + w * w * R;
        const double T     = std::max(0., horizon);
        if (gap > u_max * T + 0.5 * a_max * T * T)
          return std::numeric_limits<double>::infinity();
      }

    // inverse mass matrix of the contact point in (e1, e2), a = x_c - c
    const Tensor<1, 2> a    = c.contact_point - s.centre;
    const double       W_TT = 1. / m + a[1] * a[1] / I;
    const double       W_NN = 1. / m + a[0] * a[0] / I;
    const double       W_TN = -a[0] * a[1] / I;

    // reference indentation on the compression branch
    const contact::NormalContactHistory &h     = c.history.normal;
    const double                         u     = std::abs(c.contact_velocity[1]);
    const double impact_energy = 0.5 * u * u / W_NN + F_load * std::max(0., gap) +
                                 law->stored_energy(std::max(0., c.indentation), h);
    const double d_ref = std::max({c.indentation, law->indentation_for_energy(impact_energy, h),
                                   law->indentation_for_force(2. * F_load, h)});
    const double rate  = std::abs(c.indentation_rate);
    const double k_c   = std::max(0., law->stiffness(d_ref, rate, h));
    const double c_c   = std::max(0., law->damping_coefficient(d_ref, rate, h));
    const double k_T   = parameters.tangential_stiffness;

    // stick: largest eigenvalue of K^(1/2) W K^(1/2), K = diag(k_T, k_c);
    // slip: f_T = -+k_PS f_N couples the normal stiffness and damping into the normal rate
    // through W_TN: effective inverse mass W_NN + k_PS |W_TN|
    const double A = k_T * W_TT, D = k_c * W_NN, B = std::sqrt(k_T * k_c) * W_TN;
    const double W_slip = W_NN + parameters.friction_coefficient * std::abs(W_TN);
    const double omega2 = std::max(0.5 * (A + D) + std::sqrt(0.25 * (A - D) * (A - D) + B * B),
                                   k_c * W_slip);
    const double beta   = 0.5 * c_c * W_slip;
    const double denom  = std::sqrt(omega2 + beta * beta) + beta;
    return denom > 0. ? 2. / denom : std::numeric_limits<double>::infinity();
  }

  unsigned int
  Particle::advance(const double dt, const Tensor<1, 2> &external_force,
                    const double external_moment)
  {
    if (!(std::isfinite(dt) && dt >= 0.))
      throw std::invalid_argument("Particle::advance: dt must be non-negative and finite");
    if (!finite(external_force) || !std::isfinite(external_moment))
      throw std::invalid_argument("Particle::advance: the external force or moment is not "
                                  "finite");
    data.last_substeps = 0;
    if (dt == 0.)
      return 0;

    ParticleState     &s = data.state;
    Tensor<1, 2>       constant_force = external_force;
    constant_force[1] -= m * g;

    double       remaining = dt;
    unsigned int n         = 0;
    double       h         = 0.;
    while (remaining > 0.)
      {
        const double h_allowed =
          settings.stability_fraction *
          critical_time_step(remaining, external_force, external_moment);
        if (h_allowed >= remaining * (1. - 1e-12))
          h = remaining;
        else
          {
            const double parts = std::ceil(remaining / h_allowed);
            if (!(parts < 4.e9) || n + parts > settings.max_substeps)
              {
                std::ostringstream msg;
                msg << "Particle::advance: the stable sub-step " << h_allowed
                    << " s would need more than max_substeps = " << settings.max_substeps
                    << " sub-steps for dt = " << dt << " s (contact stiffness blow-up?)";
                throw std::runtime_error(msg.str());
              }
            h = remaining / parts;
          }
        if (n >= settings.max_substeps)
          {
            std::ostringstream msg;
            msg << "Particle::advance: more than max_substeps = " << settings.max_substeps
                << " sub-steps for dt = " << dt << " s";
            throw std::runtime_error(msg.str());
          }

        // kick (h/2) with the forces at t_n
        const Tensor<1, 2> arm_n    = data.contact.contact_point - s.centre;
        const double       damper_n = data.contact.normal_damping_force;
        const Tensor<1, 2> F_n = constant_force + data.contact.force;
        const double       M_n = external_moment + data.contact.moment;
        const Tensor<1, 2> v_half = s.velocity + (0.5 * h / m) * F_n;
        const double       w_half = s.angular_velocity + 0.5 * h / I * M_n;
        // drift (h)
        s.centre += h * v_half;
        data.unwrapped_centre += h * v_half;
        s.rotation += h * w_half;
        const double work = h * (external_force * v_half + external_moment * w_half);
        data.external_work += work;
        data.gross_external_work += std::abs(work);
        wrap();
        // damping dissipation of the force of t_n, second half: the force acts from
        // t_{n-1/2} to t_{n+1/2} (leapfrog), its work is f_d h (rate_{n-1/2} + rate_{n+1/2}) / 2
        if (damper_n != 0.)
          data.damping_dissipation += 0.5 * h * damper_n * -(v_half[1] + w_half * arm_n[0]);
        // contact at t_{n+1} with the drift velocity
        const Tensor<1, 2> contact_force_n  = data.contact.force;
        const double       contact_moment_n = data.contact.moment;
        evaluate_contact(v_half, w_half, h);
        data.surface_work += 0.5 * h *
                             ((contact_force_n + data.contact.force) * v_half +
                              (contact_moment_n + data.contact.moment) * w_half);
        // kick (h/2) with the forces at t_{n+1}
        const Tensor<1, 2> F_1 = constant_force + data.contact.force;
        const double       M_1 = external_moment + data.contact.moment;
        s.velocity         = v_half + (0.5 * h / m) * F_1;
        s.angular_velocity = w_half + 0.5 * h / I * M_1;

        ++n;
        remaining = (h == remaining) ? 0. : remaining - h;
        if (!finite(s))
          {
            std::ostringstream msg;
            msg << "Particle::advance: the particle state became non-finite at t = "
                << data.time + (dt - remaining) << " s (sub-step " << n << ", h = " << h
                << " s): the explicit update is unstable";
            throw std::runtime_error(msg.str());
          }
        data.energy_scale = std::max(data.energy_scale, kinetic_energy() + contact_energy());
        data.max_height_change =
          std::max(data.max_height_change, std::abs(s.centre[1] - height_0));
      }
    data.time += dt;
    data.last_substeps = n;
    data.total_substeps += n;

    if (settings.check_energy)
      {
        const double r     = energy_balance_error();
        const double scale = data.energy_scale + m * g * data.max_height_change +
                             data.friction_dissipation + data.damping_dissipation +
                             data.gross_external_work;
        const double tol   = settings.energy_tolerance * scale + 1e-12 * m * g * bounding_radius;
        if (!(r <= tol))
          {
            std::ostringstream msg;
            msg.precision(6);
            msg << "Particle::advance: spurious energy growth of the particle at t = "
                << data.time << " s: the energy balance error (E - E0) + D - W = " << r
                << " N mm/mm exceeds the tolerance " << tol
                << " N mm/mm (kinetic " << kinetic_energy() << ", contact " << contact_energy()
                << ", external work " << data.external_work << "); the explicit particle "
                << "update is unstable (last sub-step h = " << h << " s, " << n
                << " sub-steps): reduce the time step or the stability fraction";
            throw std::runtime_error(msg.str());
          }
      }
    return n;
  }

  // ---- accessors ----------------------------------------------------------------------------
  const ParticleState &
  Particle::state() const
  {
    return data.state;
  }

  Tensor<1, 2>
  Particle::unwrapped_centre() const
  {
    return data.unwrapped_centre;
  }

  double
  Particle::time() const
  {
    return data.time;
  }

  const contact::ParticleSurfaceContactResult &
  Particle::surface_contact() const
  {
    return data.contact;
  }

  double
  Particle::friction_dissipation() const
  {
    return data.friction_dissipation;
  }

  double
  Particle::damping_dissipation() const
  {
    return data.damping_dissipation;
  }

  double
  Particle::kinetic_energy() const
  {
    const ParticleState &s = data.state;
    return 0.5 * m * (s.velocity * s.velocity) + 0.5 * I * s.angular_velocity * s.angular_velocity;
  }

  double
  Particle::gravitational_energy() const
  {
    return m * g * data.state.centre[1];
  }

  double
  Particle::contact_energy() const
  {
    return data.contact.normal_energy + data.contact.tangential_energy;
  }

  double
  Particle::external_work() const
  {
    return data.external_work;
  }

  double
  Particle::surface_work() const
  {
    return data.surface_work;
  }

  double
  Particle::energy_balance_error() const
  {
    return (kinetic_energy() - kinetic_0) + (contact_energy() - contact_0) +
           m * g * (data.state.centre[1] - height_0) + data.friction_dissipation +
           data.damping_dissipation - data.external_work;
  }

  unsigned int
  Particle::last_substeps() const
  {
    return data.last_substeps;
  }

  unsigned long long
  Particle::total_substeps() const
  {
    return data.total_substeps;
  }

  const geometry::Superellipse &
  Particle::geometry() const
  {
    return geometry_;
  }

  double
  Particle::mass() const
  {
    return m;
  }

  double
  Particle::moment_of_inertia() const
  {
    return I;
  }

  double
  Particle::cell_length() const
  {
    return L0;
  }

  double
  Particle::gravity() const
  {
    return g;
  }

  const contact::NormalContactLaw &
  Particle::normal_law() const
  {
    return *law;
  }

  const ParticleSurfaceContactParameters &
  Particle::surface_contact_parameters() const
  {
    return parameters;
  }

  Tensor<1, 2>
  Particle::highest_point() const
  {
    // the superellipse is centrally symmetric: the highest point is opposite the lowest one
    return data.state.centre - (data.contact.contact_point - data.state.centre);
  }

  double
  Particle::top() const
  {
    return highest_point()[1];
  }

  std::vector<std::vector<Tensor<1, 2>>>
  Particle::outline(const unsigned int n_vertices, const double x_lo, double x_hi) const
  {
    if (!(x_hi > x_lo))
      x_hi = x_lo + L0;
    const ParticleState &s = data.state;
    std::vector<Tensor<1, 2>> polygon = geometry_.outline(n_vertices);
    double                    x_min = std::numeric_limits<double>::infinity();
    double                    x_max = -x_min;
    for (auto &p : polygon)
      {
        p     = geometry::particle_to_global(s.centre, s.rotation, p);
        x_min = std::min(x_min, p[0]);
        x_max = std::max(x_max, p[0]);
      }
    // the copy whose centre lies in [x_lo, x_lo + L0) first, then the other copies
    // c + k L0 e1 that overlap [x_lo, x_hi]: x_max + k L0 > x_lo and x_min + k L0 < x_hi
    const int k_first = static_cast<int>(std::ceil((x_lo - s.centre[0]) / L0));
    const int k_min = static_cast<int>(std::floor((x_lo - x_max) / L0)) + 1;
    const int k_max = static_cast<int>(std::ceil((x_hi - x_min) / L0)) - 1;
    auto shifted = [&](const int k) {
      std::vector<Tensor<1, 2>> image = polygon;
      for (auto &p : image)
        p[0] += k * L0;
      return image;
    };
    std::vector<std::vector<Tensor<1, 2>>> result{shifted(k_first)};
    for (int k = k_min; k <= k_max; ++k)
      if (k != k_first)
        result.push_back(shifted(k));
    return result;
  }

  Particle::Checkpoint
  Particle::checkpoint() const
  {
    return data;
  }

  void
  Particle::restore(const Checkpoint &c)
  {
    data = c;
  }
} // namespace granular::dem
