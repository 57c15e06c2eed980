// The material-point driver from the command line (viscoelasticity issue): a step in
// simple shear of the viscoelastic rubber, read back from the executable's CSV.
#include "material/material_point_io.h"
#include "test_helpers.h"

#include <gtest/gtest.h>

#include <sys/stat.h>

#include <sys/wait.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace
{
  std::vector<std::vector<double>> read_csv(const std::string &path, std::string &header)
  {
    std::ifstream                    in(path);
    std::vector<std::vector<double>> rows;
    std::getline(in, header);
    for (std::string line; std::getline(in, line);)
      {
        std::vector<double> row;
        std::istringstream  s(line);
        for (std::string cell; std::getline(s, cell, ',');)
          row.push_back(std::stod(cell));
        rows.push_back(row);
      }
    return rows;
  }
} // namespace

TEST(MaterialPoint, StepShearRelaxesFromGlassyToRubberyModulus)
{
  namespace fs          = std::filesystem;
  const std::string dir = granular::testing::scratch_directory("material-point");
  fs::create_directories(dir);
  // simple shear gamma = 1e-3 applied within 1e-7 s (<< tau0 = 1e-4 s), then held 20 tau0
  const double gamma = 1e-3, tau0 = 1e-4;
  {
    std::ofstream f(dir + "/F.csv");
    f << "t,F11,F12,F21,F22\n0,1,0,0,1\n1e-7," << 1. << ',' << gamma << ",0,1\n";
    for (int i = 1; i <= 400; ++i)
      f << 1e-7 + i * 0.05 * tau0 << ",1," << gamma << ",0,1\n";
  }
  const std::string command =
    std::string(MATERIAL_POINT_EXECUTABLE) + " --set \"Rubber/Maxwell branch/Viscoelastic=true\" " +
    GRANULAR_SOURCE_DIR + "/params/default.prm " + dir + "/F.csv -o " + dir +
    "/stress.csv > " + dir + "/log.txt 2>&1";
  ASSERT_EQ(std::system(command.c_str()), 0);
  std::string header;
  const auto  rows = read_csv(dir + "/stress.csv", header);
  ASSERT_EQ(rows.size(), 402u);
  ASSERT_EQ(header.substr(0, 36), "t,F11,F12,F21,F22,sigma_xx,sigma_yy,");
  const double mu0 = 0.5 * (0.661 * 1.8 + 0.231 * 2 + 0.0496 * 7); // Ogden set: 0.9995
  const double sigma_xy = 7; // column index
  // right after the step both branches respond: (mu_e + mu_v) mu0 gamma, mu_v = 5 mu_e
  EXPECT_NEAR(rows[1][sigma_xy] / (6. * mu0 * gamma), 1., 0.01) << rows[1][sigma_xy];
  // after 20 tau0 the Maxwell branch has relaxed: the elastic branch alone
  EXPECT_NEAR(rows.back()[sigma_xy] / (mu0 * gamma), 1., 0.001) << rows.back()[sigma_xy];
  // the viscous dissipation accumulated is positive
  EXPECT_GT(rows.back()[13], 0.);
  // a malformed history is rejected with the file and line named
  {
    std::ofstream f(dir + "/bad.csv");
    f << "t,F11,F12,F21,F22\n0,1,0,0,1\n1e-7,1,x,0,1\n";
  }
  const std::string bad = std::string(MATERIAL_POINT_EXECUTABLE) + " " + GRANULAR_SOURCE_DIR +
                          "/params/default.prm " + dir + "/bad.csv > " + dir +
                          "/bad.txt 2>&1";
  EXPECT_NE(std::system(bad.c_str()), 0);
  std::ifstream      log(dir + "/bad.txt");
  std::stringstream  text;
  text << log.rdbuf();
  EXPECT_NE(text.str().find("line 3"), std::string::npos) << text.str();
}

TEST(MaterialPoint, PayneProtocolModulusFallsWithAmplitudeOnlyWithPayneEffect)
{
  // Temizer 2013, Fig. 5 protocol (reduced to 20 amplitude steps): with d = 1e-2 s the
  // secant modulus sigma11/H11 falls with the amplitude; with d = 0 it is amplitude-
  // independent within 5 % in the small-strain range (H11 <= 0.02)
  namespace fs          = std::filesystem;
  const std::string dir = granular::testing::scratch_directory("payne");
  fs::create_directories(dir);
  const std::string command = std::string("/usr/bin/python3 ") + GRANULAR_SOURCE_DIR +
                              "/postprocess/payne_protocol.py --material-point " +
                              MATERIAL_POINT_EXECUTABLE + " --parameters " +
                              GRANULAR_SOURCE_DIR + "/params/payne.prm --steps 20 -o " +
                              dir + "/payne > " + dir + "/log.txt 2>&1";
  ASSERT_EQ(std::system(command.c_str()), 0);
  std::string header;
  const auto  rows = read_csv(dir + "/payne.csv", header);
  ASSERT_EQ(rows.size(), 20u);
  for (unsigned int k = 1; k < rows.size(); ++k)
    EXPECT_LT(rows[k][1], rows[k - 1][1]) << "Payne modulus must fall, step " << k;
  EXPECT_LT(rows.back()[1], 0.5 * rows.front()[1]);
  for (const auto &r : rows)
    if (r[0] <= 0.02)
      {
        EXPECT_NEAR(r[2] / rows.front()[2], 1., 0.05) << "H11 = " << r[0];
      }
  EXPECT_TRUE(fs::exists(dir + "/payne.png"));
  EXPECT_TRUE(fs::exists(dir + "/payne.pdf"));
}

// A deformation history with det F <= 0 in a row is rejected naming the
// file and its line (not an internal function name from the Maxwell update), exit status 2.
TEST(MaterialPoint, InvertedDeformationGradientIsRejectedNamingTheLine)
{
  const std::string dir = granular::testing::scratch_directory("material-point-detF");
  std::filesystem::create_directories(dir);
  {
    std::ofstream f(dir + "/inverted.csv");
    f << "t,F11,F12,F21,F22\n0,1,0,0,1\n1e-3,1.1,0,0,1\n2e-3,-1,0,0,1\n";
  }
  const std::string run = std::string(MATERIAL_POINT_EXECUTABLE) + " " + GRANULAR_SOURCE_DIR +
                          "/params/viscoelastic.prm " + dir + "/inverted.csv > " + dir +
                          "/out.txt 2>&1";
  const int status = std::system(run.c_str());
  EXPECT_EQ(WEXITSTATUS(status), 2);
  std::ifstream     log(dir + "/out.txt");
  std::stringstream text;
  text << log.rdbuf();
  EXPECT_NE(text.str().find("inverted.csv, line 4: det F"), std::string::npos) << text.str();
  EXPECT_EQ(text.str().find("MaxwellBranch::update"), std::string::npos) << text.str();
}

// A number of the deformation history is the whole cell; 1.1abc is not read
// as 1.1 (nor inf, nan, an empty cell as a number): the file and its line are named. Blanks
// and a Windows line end around a number are accepted.
TEST(MaterialPoint, NumberWithTrailingGarbageIsRejectedNamingTheLine)
{
  const std::string dir = granular::testing::scratch_directory("material-point-garbage");
  std::filesystem::create_directories(dir);
  const std::string file = dir + "/history.csv";
  auto              write = [&](const std::string &third_row) {
    std::ofstream f(file, std::ios::binary);
    f << "t,F11,F12,F21,F22\n0,1,0,0,1\n" << third_row << "\n";
  };
  for (const std::string cell : {"1.1abc", "1.1 1", "1e", "inf", "nan", "", "x"})
    {
      write("1e-3," + cell + ",0,0,1");
      try
        {
          granular::material::read_deformation_history(file);
          ADD_FAILURE() << "'" << cell << "' was read as a number";
        }
      catch (const std::invalid_argument &e)
        {
          const std::string what = e.what();
          EXPECT_NE(what.find("history.csv, line 3: not a finite number: '" + cell + "'"),
                    std::string::npos)
            << what;
        }
    }
  write("1e-3, 1.1 ,0,0,1\r");
  const auto points = granular::material::read_deformation_history(file);
  ASSERT_EQ(points.size(), 2u);
  EXPECT_DOUBLE_EQ(points[1].F[0][0], 1.1);
  EXPECT_DOUBLE_EQ(points[1].F[1][1], 1.);
}

// A deformation history that is not a regular file (a FIFO, /dev/zero) is refused at once:
// it was read without bound (memory grew by 250 MB/s and only SIGKILL ended it).
TEST(MaterialPoint, HistoryThatIsNotARegularFileIsRejected)
{
  const std::string dir = granular::testing::scratch_directory("material-point-fifo");
  std::filesystem::create_directories(dir);
  const std::string fifo = dir + "/history.csv";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  for (const std::string path : {fifo, std::string("/dev/zero")})
    {
      try
        {
          granular::material::read_deformation_history(path);
          ADD_FAILURE() << path << " was read";
        }
      catch (const std::invalid_argument &e)
        {
          EXPECT_NE(std::string(e.what()).find(path + " is not a regular file"),
                    std::string::npos)
            << e.what();
        }
    }
}
