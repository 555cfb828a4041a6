// DMatrixObject::version: boosters compare it to see that a matrix's meta information changed
// since they cached it, so every setter must bump it and readers must not.
#include <cmath>

#include <gtest/gtest.h>

#include "dmatrix_object.h"
#include "handle_table.h"
#include "treering/c_api.h"

namespace treering::capi {
namespace {

TEST(DMatrixVersion, EverySetterBumpsItAndReadersDoNot) {
  const float mat[6] = {1, 2, 3, 4, 5, 6};
  DMatrixHandle h = nullptr;
  ASSERT_EQ(XGDMatrixCreateFromMat(mat, 3, 2, NAN, &h), 0);
  auto object = GetHandle<DMatrixObject>(h, "h");
  std::uint64_t last = object->version;
  auto bumped = [&] {
    const std::uint64_t now = object->version;
    const bool changed = now > last;
    last = now;
    return changed;
  };
  const float three[3] = {1, 0, 1};
  const unsigned sizes[2] = {1, 2};
  const char* names[2] = {"a", "b"};
  ASSERT_EQ(XGDMatrixSetFloatInfo(h, "label", three, 3), 0);
  EXPECT_TRUE(bumped());
  ASSERT_EQ(XGDMatrixSetUIntInfo(h, "weight", sizes, 0), 0);
  EXPECT_TRUE(bumped());
  ASSERT_EQ(XGDMatrixSetGroup(h, sizes, 2), 0);
  EXPECT_TRUE(bumped());
  ASSERT_EQ(XGDMatrixSetDenseInfo(h, "base_margin", three, 3, 1), 0);
  EXPECT_TRUE(bumped());
  ASSERT_EQ(XGDMatrixSetStrFeatureInfo(h, "feature_name", names, 2), 0);
  EXPECT_TRUE(bumped());
  bst_ulong n = 0;
  const float* out = nullptr;
  ASSERT_EQ(XGDMatrixGetFloatInfo(h, "label", &n, &out), 0);
  ASSERT_EQ(XGDMatrixNumRow(h, &n), 0);
  EXPECT_FALSE(bumped());
  // A refused change leaves the matrix, and its version, as they were.
  EXPECT_EQ(XGDMatrixSetFloatInfo(h, "label", three, 2), -1);
  EXPECT_FALSE(bumped());
  ASSERT_EQ(XGDMatrixFree(h), 0);
}

}  // namespace
}  // namespace treering::capi
