#include "dem/particle_output.h"

#include "base/atomic_file.h"

#include <iomanip>
#include <sstream>

namespace granular::dem
{
  std::string write_particle_vtu(const std::string &directory, unsigned int index,
                                 const std::vector<std::vector<dealii::Tensor<1, 2>>> &outlines,
                                 double rotation)
  {
    std::ostringstream name;
    name << "particle-" << std::setw(5) << std::setfill('0') << index << ".vtu";
    std::size_t n_points = 0;
    for (const auto &o : outlines)
      n_points += o.size();

    std::ostringstream v;
    v << std::setprecision(12);
    v << "<?xml version=\"1.0\"?>\n"
      << "<VTKFile type=\"UnstructuredGrid\" version=\"0.1\" byte_order=\"LittleEndian\">\n"
      << "<UnstructuredGrid>\n"
      << "<Piece NumberOfPoints=\"" << n_points << "\" NumberOfCells=\"" << outlines.size()
      << "\">\n<Points>\n<DataArray type=\"Float64\" NumberOfComponents=\"3\" format=\"ascii\">\n";
    for (const auto &o : outlines)
      for (const auto &p : o)
        v << p[0] << ' ' << p[1] << " 0\n";
    v << "</DataArray>\n</Points>\n<Cells>\n"
      << "<DataArray type=\"Int64\" Name=\"connectivity\" format=\"ascii\">\n";
    std::size_t offset = 0;
    for (const auto &o : outlines)
      {
        for (std::size_t i = 0; i < o.size(); ++i)
          v << offset + i << ' ';
        v << '\n';
        offset += o.size();
      }
    v << "</DataArray>\n<DataArray type=\"Int64\" Name=\"offsets\" format=\"ascii\">\n";
    offset = 0;
    for (const auto &o : outlines)
      v << (offset += o.size()) << ' ';
    v << "\n</DataArray>\n<DataArray type=\"UInt8\" Name=\"types\" format=\"ascii\">\n";
    for (std::size_t c = 0; c < outlines.size(); ++c)
      v << "7 "; // VTK_POLYGON
    v << "\n</DataArray>\n</Cells>\n<CellData>\n"
      << "<DataArray type=\"Int32\" Name=\"image\" format=\"ascii\">\n";
    for (std::size_t c = 0; c < outlines.size(); ++c)
      v << (c == 0 ? 0 : 1) << ' ';
    v << "\n</DataArray>\n<DataArray type=\"Float64\" Name=\"rotation\" format=\"ascii\">\n";
    for (std::size_t c = 0; c < outlines.size(); ++c)
      v << rotation << ' ';
    v << "\n</DataArray>\n</CellData>\n</Piece>\n</UnstructuredGrid>\n</VTKFile>\n";
    write_file_atomically(directory + "/" + name.str(), v.str());
    return name.str();
  }
} // namespace granular::dem
