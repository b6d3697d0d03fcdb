// einops/dlpack.hpp with a producer and a consumer written here: memory shared both ways, the
// producer's deleter called exactly once whichever side lets go first, strides and byte offsets,
// every element type, and the errors. The sanitized build runs this file: its leak checker and
// AddressSanitizer catch a deleter called twice, never, or memory used after it.
#include <gtest/gtest.h>

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <einops/dlpack.hpp>
#include <einops/einops.hpp>

namespace {

using einops::AnyTensor;
using einops::DType;
using einops::EinopsError;
using einops::Shape;

/// A producer's tensor: owns its buffer, shape and strides, and counts its deleter's calls in
/// `deletions`, which outlives it.
struct Produced {
  std::vector<unsigned char> buffer;
  Shape shape;
  Shape strides;
  DLManagedTensor managed{};
  int* deletions = nullptr;
};

/// A row-major float32 tensor of `shape` holding 0, 1, 2, ... (`strides` empty: null strides).
DLManagedTensor* produce(const Shape& shape, int* deletions, const Shape& strides = {},
                         DLDataType type = {kDLFloat, 32, 1}, DLDevice device = {kDLCPU, 0}) {
  auto produced = std::make_unique<Produced>();
  const std::int64_t count = einops::detail::element_count(shape);
  produced->buffer.resize(static_cast<std::size_t>(count) * type.bits / 8 + 16);
  if (type.code == kDLFloat && type.bits == 32)
    for (std::int64_t i = 0; i < count; ++i)
      reinterpret_cast<float*>(produced->buffer.data())[i] = static_cast<float>(i);
  produced->shape = shape;
  produced->strides = strides;
  produced->deletions = deletions;
  DLTensor& t = produced->managed.dl_tensor;
  t.data = produced->buffer.data();
  t.device = device;
  t.ndim = static_cast<int>(shape.size());
  t.dtype = type;
  t.shape = produced->shape.data();
  t.strides = strides.empty() ? nullptr : produced->strides.data();
  t.byte_offset = 0;
  produced->managed.manager_ctx = produced.get();
  produced->managed.deleter = [](DLManagedTensor* self) {
    auto* owner = static_cast<Produced*>(self->manager_ctx);
    ++*owner->deletions;
    delete owner;
  };
  return &produced.release()->managed;
}

std::vector<float> values_of(const AnyTensor& x) { return x.as<float>().to_vector(); }

TEST(DLPackIn, SharesTheProducersMemoryAndDeletesOnceWithTheLastHandle) {
  int deletions = 0;
  DLManagedTensor* managed = produce({2, 3}, &deletions);
  void* memory = managed->dl_tensor.data;
  AnyTensor x = einops::from_dlpack(managed);
  EXPECT_EQ(x.data(), memory);
  EXPECT_EQ(x.dtype(), DType::float32);
  EXPECT_EQ(Shape(x.shape().begin(), x.shape().end()), (Shape{2, 3}));
  EXPECT_EQ(Shape(x.strides().begin(), x.strides().end()), (Shape{3, 1}));  // null strides: row-major
  AnyTensor copy = x;
  // A result with no element moved is a view: it keeps the producer's memory alive too.
  AnyTensor flat = einops::rearrange(x, "a b -> (a b)");
  EXPECT_EQ(flat.data(), memory);
  x = AnyTensor();
  copy = AnyTensor();
  EXPECT_EQ(deletions, 0);
  EXPECT_EQ(values_of(flat), (std::vector<float>{0, 1, 2, 3, 4, 5}));
  flat = AnyTensor();
  EXPECT_EQ(deletions, 1);
}

TEST(DLPackIn, ReadsStridesAndTheByteOffset) {
  int deletions = 0;
  // The transpose of a 2 x 3 row-major buffer, starting one element in.
  DLManagedTensor* managed = produce({3, 2}, &deletions, Shape{1, 3});
  managed->dl_tensor.byte_offset = sizeof(float);
  {
    const AnyTensor x = einops::from_dlpack(managed);
    EXPECT_EQ(x.data(), static_cast<unsigned char*>(managed->dl_tensor.data) + sizeof(float));
    // Buffer 0..5 (and more, zero): element (i, j) is buffer[1 + i + 3 j].
    EXPECT_EQ(values_of(einops::contiguous(x)), (std::vector<float>{1, 4, 2, 5, 3, 0}));
  }
  EXPECT_EQ(deletions, 1);
}

TEST(DLPackOut, KeepsTheStorageAliveUntilTheConsumerDeletes) {
  DLManagedTensor* managed = nullptr;
  {
    const einops::Tensor<float> x = einops::Tensor<float>::arange({2, 3});
    managed = einops::to_dlpack(x);
    EXPECT_EQ(managed->dl_tensor.data, x.data());
  }  // the library's side goes first
  const DLTensor& t = managed->dl_tensor;
  EXPECT_EQ(t.device.device_type, kDLCPU);
  EXPECT_EQ(t.ndim, 2);
  EXPECT_EQ(t.dtype.code, kDLFloat);
  EXPECT_EQ(t.dtype.bits, 32);
  EXPECT_EQ(t.dtype.lanes, 1);
  EXPECT_EQ(t.shape[0], 2);
  EXPECT_EQ(t.shape[1], 3);
  EXPECT_EQ(t.strides[0], 3);
  EXPECT_EQ(t.strides[1], 1);
  EXPECT_EQ(static_cast<const float*>(t.data)[5], 5.0f);
  managed->deleter(managed);  // the leak checker holds the storage to this
}

TEST(DLPackOut, TheConsumerMayDeleteFirst) {
  const einops::Tensor<float> x = einops::Tensor<float>::arange({4});
  DLManagedTensor* managed = einops::to_dlpack(x);
  managed->deleter(managed);
  EXPECT_EQ(x.to_vector(), (std::vector<float>{0, 1, 2, 3}));  // x's storage is still x's
}

TEST(DLPackRoundTrip, OutAndBackIsTheSameMemory) {
  const einops::Tensor<std::int32_t> x = einops::Tensor<std::int32_t>::arange({3, 4});
  AnyTensor back = einops::from_dlpack(einops::to_dlpack(x));
  EXPECT_EQ(back.data(), x.data());
  EXPECT_EQ(back.as<std::int32_t>().to_vector(), x.to_vector());
  // The export's deleter runs when `back` goes; x keeps its storage either way.
  back = AnyTensor();
  EXPECT_EQ(x.to_vector()[11], 11);

  int deletions = 0;
  DLManagedTensor* produced = produce({2, 2}, &deletions);
  DLManagedTensor* again = einops::to_dlpack(einops::from_dlpack(produced));
  EXPECT_EQ(deletions, 0);  // the export holds the import, which holds the producer's tensor
  again->deleter(again);
  EXPECT_EQ(deletions, 1);
}

TEST(DLPackTypes, EveryElementTypeCrossesWithItsDLPackCode) {
  struct Expected {
    DType dtype;
    std::uint8_t code;
    std::uint8_t bits;
  };
  const Expected all[] = {
      {DType::boolean, 6, 8},           {DType::int8, kDLInt, 8},       {DType::int16, kDLInt, 16},
      {DType::int32, kDLInt, 32},       {DType::int64, kDLInt, 64},     {DType::uint8, kDLUInt, 8},
      {DType::uint16, kDLUInt, 16},     {DType::uint32, kDLUInt, 32},   {DType::uint64, kDLUInt, 64},
      {DType::float32, kDLFloat, 32},   {DType::float64, kDLFloat, 64}, {DType::float16, kDLFloat, 16},
      {DType::bfloat16, kDLBfloat, 16},
  };
  for (const Expected& e : all) {
    const AnyTensor x(e.dtype, Shape{2, 3});
    DLManagedTensor* managed = einops::to_dlpack(x);
    EXPECT_EQ(managed->dl_tensor.dtype.code, e.code) << einops::dtype_name(e.dtype);
    EXPECT_EQ(managed->dl_tensor.dtype.bits, e.bits) << einops::dtype_name(e.dtype);
    const AnyTensor back = einops::from_dlpack(managed);
    EXPECT_EQ(back.dtype(), e.dtype);
    EXPECT_EQ(back.data(), x.data());
  }
}

TEST(DLPackTypes, Float16ReducesThroughDLPack) {
  int deletions = 0;
  DLManagedTensor* managed = produce({2, 4}, &deletions, {}, DLDataType{kDLFloat, 16, 1});
  auto* halves = static_cast<einops::float16*>(managed->dl_tensor.data);
  for (int i = 0; i < 8; ++i) halves[i] = einops::float16(0.5f * static_cast<float>(i));
  {
    const AnyTensor x = einops::from_dlpack(managed);
    ASSERT_EQ(x.dtype(), DType::float16);
    const AnyTensor sums = einops::reduce(x, "a b -> a", "sum");
    ASSERT_EQ(sums.dtype(), DType::float16);
    const std::vector<einops::float16> got = sums.as<einops::float16>().to_vector();
    EXPECT_EQ(static_cast<float>(got[0]), 0.5f * (0 + 1 + 2 + 3));
    EXPECT_EQ(static_cast<float>(got[1]), 0.5f * (4 + 5 + 6 + 7));
  }
  EXPECT_EQ(deletions, 1);
}

/// from_dlpack refuses `managed` with a message containing `needle` and leaves it to the caller.
void expect_refused(DLManagedTensor* managed, const std::string& needle) {
  try {
    (void)einops::from_dlpack(managed);
    ADD_FAILURE() << "no EinopsError";
  } catch (const EinopsError& e) {
    EXPECT_NE(std::string(e.what()).find(needle), std::string::npos) << e.what();
  }
  managed->deleter(managed);  // still the caller's: deleted once, here
}

TEST(DLPackErrors, OtherDevicesAndTypesAreNamedAndLeftToTheCaller) {
  int deletions = 0;
  expect_refused(produce({2}, &deletions, {}, {kDLFloat, 32, 1}, {kDLCUDA, 1}), "CUDA:1");
  expect_refused(produce({2}, &deletions, {}, {kDLComplex, 64, 1}), "code 5, 64 bits");
  expect_refused(produce({2}, &deletions, {}, {kDLFloat, 32, 4}), "4 lanes");
  expect_refused(produce({2}, &deletions, {}, {kDLInt, 4, 1}), "4 bits");
  EXPECT_EQ(deletions, 4);
  EXPECT_THROW((void)einops::from_dlpack(nullptr), EinopsError);
}

TEST(DLPackIn, HostVisibleMemoryIsRead) {
  for (const DLDeviceType type : {kDLCUDAHost, kDLROCMHost}) {
    int deletions = 0;
    {
      const AnyTensor x = einops::from_dlpack(produce({2, 3}, &deletions, {}, {kDLFloat, 32, 1}, {type, 0}));
      EXPECT_EQ(values_of(einops::rearrange(x, "a b -> b a")), (std::vector<float>{0, 3, 1, 4, 2, 5}));
    }
    EXPECT_EQ(deletions, 1);
  }
}

TEST(DLPackErrors, DeviceMemoryIsRefusedEvenWhenManaged) {
  int deletions = 0;
  expect_refused(produce({2}, &deletions, {}, {kDLFloat, 32, 1}, {kDLCUDAManaged, 0}), "CUDA managed:0");
  expect_refused(produce({2}, &deletions, {}, {kDLFloat, 32, 1}, {kDLROCM, 2}), "ROCm:2");
  EXPECT_EQ(deletions, 2);
}

/// `managed` with its data moved by `byte_offset` bytes (the buffer has room for 16 more).
DLManagedTensor* offset_by(DLManagedTensor* managed, std::uint64_t byte_offset) {
  managed->dl_tensor.byte_offset = byte_offset;
  return managed;
}

TEST(DLPackErrors, MisalignedFirstElementIsRefused) {
  int deletions = 0;
  expect_refused(offset_by(produce({2}, &deletions), 2), "not aligned to 4 bytes, the alignment of float32");
  expect_refused(offset_by(produce({2}, &deletions, {}, {kDLFloat, 64, 1}), 4), "not aligned to 8 bytes");
  expect_refused(offset_by(produce({2}, &deletions, {}, {kDLInt, 16, 1}), 1), "byte_offset 1");
  EXPECT_EQ(deletions, 3);
  // An offset of whole elements is aligned; one-byte elements are always.
  for (const auto& [type, offset] :
       {std::pair{DLDataType{kDLFloat, 64, 1}, 8u}, std::pair{DLDataType{kDLUInt, 8, 1}, 3u}}) {
    const AnyTensor x = einops::from_dlpack(offset_by(produce({1}, &deletions, {}, type), offset));
    EXPECT_EQ(reinterpret_cast<std::uintptr_t>(x.data()) % (type.bits / 8), 0u);
  }
  EXPECT_EQ(deletions, 5);
}

}  // namespace
