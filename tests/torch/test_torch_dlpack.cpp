// einops/dlpack.hpp with LibTorch on the other side (at::toDLPack, at::fromDLPack): both ways
// without a copy (the same data pointer), strided tensors, a float16 reduction, and either side
// letting go first. This translation unit includes LibTorch first, so einops/dlpack.hpp uses
// LibTorch's copy of the DLPack header (ATen/dlpack.h: the same include guard and ABI).
#include <ATen/ATen.h>
#include <ATen/DLConvertor.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include <einops/dlpack.hpp>
#include <einops/einops.hpp>

namespace {

using einops::AnyTensor;
using einops::DType;

at::Tensor arange(at::IntArrayRef shape, at::ScalarType type = at::kFloat) {
  std::int64_t n = 1;
  for (std::int64_t s : shape) n *= s;
  return at::arange(n, at::TensorOptions(at::kFloat)).reshape(shape).to(type);
}

TEST(TorchDLPack, TorchToEinopsToTorchIsZeroCopy) {
  const at::Tensor t = arange({2, 3, 4});
  const AnyTensor x = einops::from_dlpack(at::toDLPack(t));
  EXPECT_EQ(x.data(), t.data_ptr());
  EXPECT_EQ(x.dtype(), DType::float32);
  const at::Tensor back = at::fromDLPack(einops::to_dlpack(x));
  EXPECT_EQ(back.data_ptr(), t.data_ptr());
  EXPECT_TRUE(at::equal(back, t));
}

TEST(TorchDLPack, ResultsGoBackToTorchWithoutACopy) {
  const at::Tensor t = arange({2, 3, 4});
  const AnyTensor y = einops::rearrange(einops::from_dlpack(at::toDLPack(t)), "a b c -> c a b");
  const at::Tensor back = at::fromDLPack(einops::to_dlpack(y));
  EXPECT_EQ(back.data_ptr(), y.data());
  EXPECT_TRUE(at::equal(back, t.permute({2, 0, 1})));
}

TEST(TorchDLPack, StridedTorchTensorsAreReadInPlace) {
  const at::Tensor t = arange({4, 6}).transpose(0, 1).slice(0, 1, 5, 2);  // strides (2, 6), offset 1
  const AnyTensor x = einops::from_dlpack(at::toDLPack(t));
  EXPECT_EQ(x.data(), t.data_ptr());
  EXPECT_EQ(std::vector<std::int64_t>(x.strides().begin(), x.strides().end()), t.strides().vec());
  const at::Tensor back = at::fromDLPack(einops::to_dlpack(einops::rearrange(x, "a b -> b a")));
  EXPECT_TRUE(at::equal(back, t.transpose(0, 1)));
}

TEST(TorchDLPack, Float16ReductionThroughDLPack) {
  const at::Tensor t = arange({3, 8}, at::kHalf) * 0.25;
  const AnyTensor x = einops::from_dlpack(at::toDLPack(t));
  ASSERT_EQ(x.dtype(), DType::float16);
  const AnyTensor sums = einops::reduce(x, "a b -> a", "sum");
  ASSERT_EQ(sums.dtype(), DType::float16);
  const at::Tensor back = at::fromDLPack(einops::to_dlpack(sums));
  EXPECT_EQ(back.scalar_type(), at::kHalf);
  EXPECT_TRUE(at::equal(back, t.to(at::kFloat).sum(1).to(at::kHalf)));
}

TEST(TorchDLPack, EitherSideMayLetGoFirst) {
  AnyTensor x;
  {
    const at::Tensor t = arange({5});
    x = einops::from_dlpack(at::toDLPack(t));
  }  // torch's handle goes first: the DLPack tensor holds its storage
  EXPECT_EQ(x.as<float>().to_vector(), (std::vector<float>{0, 1, 2, 3, 4}));

  at::Tensor back;
  {
    const einops::Tensor<float> y = einops::Tensor<float>::arange({2, 2});
    back = at::fromDLPack(einops::to_dlpack(y));
  }  // einops' handle goes first: torch's tensor holds the storage
  EXPECT_TRUE(at::equal(back, arange({2, 2})));
}

TEST(TorchDLPack, RefusedTensorsStayWithTheCaller) {
  DLManagedTensor* managed = at::toDLPack(arange({2}));
  managed->dl_tensor.device = DLDevice{kDLCUDA, 0};  // as a CUDA tensor would come
  try {
    (void)einops::from_dlpack(managed);
    ADD_FAILURE() << "no EinopsError";
  } catch (const einops::EinopsError& e) {
    EXPECT_NE(std::string(e.what()).find("CUDA:0"), std::string::npos) << e.what();
  }
  managed->deleter(managed);  // refused: still ours to delete
}

}  // namespace
