#include "dem/particle_output.h"

#include "base/atomic_file.h"

#include <iomanip>
#include <sstream>

namespace granular::dem
{
  std::string write_particle_vtu(const std::string &directory, unsigned int index,
                                 const std::vector<ParticleOutlines> &particles)
  {
    std::ostringstream name;
    name << "particle-" << std::setw(5) << std::setfill('0') << index << ".vtu";
    std::size_t n_points = 0, n_cells = 0;
    for (const ParticleOutlines &p : particles)
      for (const auto &o : p.outlines)
        n_points += o.size(), ++n_cells;

    std::ostringstream v;
    v << std::setprecision(12);
    v << "<?xml version=\"1.0\"?>\n"
      << "<VTKFile type=\"UnstructuredGrid\" version=\"0.1\" byte_order=\"LittleEndian\">\n"
      << "<UnstructuredGrid>\n"
      << "<Piece NumberOfPoints=\"" << n_points << "\" NumberOfCells=\"" << n_cells
      << "\">\n<Points>\n<DataArray type=\"Float64\" NumberOfComponents=\"3\" format=\"ascii\">\n";
    for (const ParticleOutlines &p : particles)
      for (const auto &o : p.outlines)
        for (const auto &x : o)
          v << x[0] << ' ' << x[1] << " 0\n";
    v << "</DataArray>\n</Points>\n<Cells>\n"
      << "<DataArray type=\"Int64\" Name=\"connectivity\" format=\"ascii\">\n";
    std::size_t offset = 0;
    for (const ParticleOutlines &p : particles)
      for (const auto &o : p.outlines)
        {
          for (std::size_t i = 0; i < o.size(); ++i)
            v << offset + i << ' ';
          v << '\n';
          offset += o.size();
        }
    v << "</DataArray>\n<DataArray type=\"Int64\" Name=\"offsets\" format=\"ascii\">\n";
    offset = 0;
    for (const ParticleOutlines &p : particles)
      for (const auto &o : p.outlines)
        v << (offset += o.size()) << ' ';
    v << "\n</DataArray>\n<DataArray type=\"UInt8\" Name=\"types\" format=\"ascii\">\n";
    for (std::size_t c = 0; c < n_cells; ++c)
      v << "7 "; // VTK_POLYGON
    v << "\n</DataArray>\n</Cells>\n<CellData>\n"
      << "<DataArray type=\"Int32\" Name=\"particle\" format=\"ascii\">\n";
    for (std::size_t i = 0; i < particles.size(); ++i)
      for (std::size_t c = 0; c < particles[i].outlines.size(); ++c)
        v << i << ' ';
    v << "\n</DataArray>\n<DataArray type=\"Int32\" Name=\"image\" format=\"ascii\">\n";
    for (const ParticleOutlines &p : particles)
      for (std::size_t c = 0; c < p.outlines.size(); ++c)
        v << (c == 0 ? 0 : 1) << ' ';
    v << "\n</DataArray>\n<DataArray type=\"Float64\" Name=\"rotation\" format=\"ascii\">\n";
    for (const ParticleOutlines &p : particles)
      for (std::size_t c = 0; c < p.outlines.size(); ++c)
        v << p.rotation << ' ';
    v << "\n</DataArray>\n</CellData>\n</Piece>\n</UnstructuredGrid>\n</VTKFile>\n";
    write_file_atomically(directory + "/" + name.str(), v.str());
    return name.str();
  }

  std::string write_particle_vtu(const std::string &directory, unsigned int index,
                                 const std::vector<std::vector<dealii::Tensor<1, 2>>> &outlines,
                                 double rotation)
  {
    return write_particle_vtu(directory, index, {ParticleOutlines{outlines, rotation}});
  }
} // namespace granular::dem
