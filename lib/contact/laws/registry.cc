// The registry of the contact-law library: one line per law, in catalogue order (A1 … H4).
// Adding a law: its class and its LawInfo function `catalogue::<identifier>()` in a family
// file (or a new file in lib/contact/laws/), and one GRANULAR_LAW(<identifier>) line here,
// which also declares that function (no header needs it). The rest follows from the LawInfo:
// its parameter subsection, --list-laws, the generated table docs/contact-law-table.md
// (scripts/contact-law-table.sh; a test fails until it is regenerated) and, with a
// LawInfo::damping_factor, its place among the Hunt–Crossley factor laws. The tests derive
// the number of laws from this list. See contact_law.h.
#include "contact/laws/contact_law.h"

// clang-format off
#define GRANULAR_CONTACT_LAWS(GRANULAR_LAW)                                                  \
  /* A. purely elastic (elastic.cc) */                                                       \
  GRANULAR_LAW(hooke)                                                                        \
  GRANULAR_LAW(hertz)                                                                        \
  GRANULAR_LAW(goldsmith_plastic_unloading)                                                  \
  /* B. linear dashpots, Kelvin-Voigt type (linear_dashpot.cc) */                            \
  GRANULAR_LAW(kelvin_voigt)                                                                 \
  GRANULAR_LAW(anagnostopoulos)                                                              \
  GRANULAR_LAW(goyal)                                                                        \
  GRANULAR_LAW(kelvin_voigt_force_free_separation)                                           \
  GRANULAR_LAW(hertz_linear_damping_optimal)                                                 \
  /* C. empirical damping (empirical_damping.cc) */                                          \
  GRANULAR_LAW(ristow_lee_herrmann)                                                          \
  GRANULAR_LAW(schafer)                                                                      \
  GRANULAR_LAW(falcon)                                                                       \
  GRANULAR_LAW(bordbar_hyppanen)                                                             \
  GRANULAR_LAW(alizadeh)                                                                     \
  /* D, E. Hunt-Crossley family (hunt_crossley_family.cc) */                                 \
  GRANULAR_LAW(hunt_crossley)                                                                \
  GRANULAR_LAW(marhefka_orin)                                                                \
  GRANULAR_LAW(herbert_mcwhannell)                                                           \
  GRANULAR_LAW(lee_wang)                                                                     \
  GRANULAR_LAW(lankarani_nikravesh)                                                          \
  GRANULAR_LAW(gonthier_approx)                                                              \
  GRANULAR_LAW(zhiying_qishao)                                                               \
  GRANULAR_LAW(wang_yield_zq)                                                                \
  GRANULAR_LAW(flores)                                                                       \
  GRANULAR_LAW(gharib_hurmuzlu)                                                              \
  GRANULAR_LAW(hu_guo)                                                                       \
  GRANULAR_LAW(zhang_et_al_2020)                                                             \
  GRANULAR_LAW(safaeifar_farshidianfar)                                                      \
  GRANULAR_LAW(hc_exact)                                                                     \
  GRANULAR_LAW(khatiwada)                                                                    \
  GRANULAR_LAW(luo_nahon)                                                                    \
  GRANULAR_LAW(yu_piecewise)                                                                 \
  /* F. material viscosity (material_viscosity.cc; F7: temizer_decompression_undamped.cc) */ \
  GRANULAR_LAW(kuwabara_kono)                                                                \
  GRANULAR_LAW(brilliantov_1996)                                                             \
  GRANULAR_LAW(zheng_et_al)                                                                  \
  GRANULAR_LAW(brilliantov_generalized)                                                      \
  GRANULAR_LAW(tsuji)                                                                        \
  GRANULAR_LAW(jankowski)                                                                    \
  GRANULAR_LAW(temizer_decompression_undamped)                                               \
  /* G. elastoplastic and history-dependent (elastoplastic.cc) */                            \
  GRANULAR_LAW(thornton)                                                                     \
  GRANULAR_LAW(yigit)                                                                        \
  GRANULAR_LAW(ma_liu)                                                                       \
  GRANULAR_LAW(wang_liu_liu_elastoplastic_dashpot)                                           \
  /* H. other approaches (other_approaches.cc) */                                            \
  GRANULAR_LAW(choi)                                                                         \
  GRANULAR_LAW(roy_carretero)                                                                \
  GRANULAR_LAW(xiong)                                                                        \
  GRANULAR_LAW(jian)
// clang-format on

namespace granular::contact::laws
{
  namespace catalogue
  {
#define GRANULAR_DECLARE_LAW(id) LawInfo id();
    GRANULAR_CONTACT_LAWS(GRANULAR_DECLARE_LAW)
#undef GRANULAR_DECLARE_LAW
  } // namespace catalogue

  const std::vector<LawInfo> &
  registered_laws()
  {
#define GRANULAR_MAKE_LAW(id) catalogue::id(),
    static const std::vector<LawInfo> laws{GRANULAR_CONTACT_LAWS(GRANULAR_MAKE_LAW)};
#undef GRANULAR_MAKE_LAW
    return laws;
  }
} // namespace granular::contact::laws
