// DLPack in and out: tensors of any framework that speaks DLPack (LibTorch, and numpy, CuPy or
// JAX host arrays through their C APIs) as einops::AnyTensor, and back, without a copy.
//
//   #include <einops/dlpack.hpp>
//   einops::AnyTensor x = einops::from_dlpack(at::toDLPack(t));     // t's memory
//   einops::AnyTensor y = einops::reduce(x, "b c h w -> b c", "mean");
//   at::Tensor z = at::fromDLPack(einops::to_dlpack(y));             // y's storage
//
// Ownership. from_dlpack takes the DLManagedTensor: its deleter runs exactly once, when the last
// tensor sharing its memory (AnyTensor, Tensor, results that are views) goes. When from_dlpack
// throws because it cannot read the tensor, it has not taken it: the caller still owns it.
// to_dlpack's DLManagedTensor keeps the tensor's storage alive until the consumer calls its
// deleter; a tensor that aliases caller memory (made from a TensorView) has no storage, and the
// caller keeps that memory alive as long.
//
// Accepted: memory the CPU can read (kDLCPU, and the host-visible kDLCUDAHost and kDLROCMHost, pinned
// host memory) with any strides (null strides: row-major) and every einops element type (bool,
// int8..int64, uint8..uint64, float16, bfloat16, float32, float64). The first element,
// `data + byte_offset`, must be aligned to the element's size, as the kernels read whole elements.
// A tensor on another device (CUDA managed memory included), of a type einops lacks, or
// misaligned, throws EinopsError naming it.
//
// Needs <dlpack/dlpack.h> (Debian: libdlpack-dev), or a copy of that header included before this
// one: LibTorch's ATen/dlpack.h shares its include guard and its ABI, so a translation unit that
// includes LibTorch first uses LibTorch's and needs no other.
#pragma once

#ifndef DLPACK_DLPACK_H_
#include <dlpack/dlpack.h>
#endif

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>

#include "einops/dtype.hpp"
#include "einops/error.hpp"
#include "einops/tensor.hpp"

namespace einops {
namespace detail::dlpack {

/// DLPack's type code of bool (kDLBool, from DLPack 0.8 on; older headers lack the name).
inline constexpr std::uint8_t kBoolCode = 6;
inline constexpr std::uint8_t kBitsPerByte = 8;

inline std::string device_name(const DLDevice& device) {
  std::string name;
  switch (static_cast<int>(device.device_type)) {
    case kDLCPU: name = "CPU"; break;
    case kDLCUDA: name = "CUDA"; break;
    case kDLCUDAHost: name = "CUDA host (pinned)"; break;
    case kDLOpenCL: name = "OpenCL"; break;
    case kDLVulkan: name = "Vulkan"; break;
    case kDLMetal: name = "Metal"; break;
    case kDLVPI: name = "VPI"; break;
    case kDLROCM: name = "ROCm"; break;
    case kDLROCMHost: name = "ROCm host"; break;
    case kDLExtDev: name = "ExtDev"; break;
    case kDLCUDAManaged: name = "CUDA managed"; break;
    default: name = "device type " + std::to_string(static_cast<int>(device.device_type)); break;
  }
  return name + ":" + std::to_string(device.device_id);
}

/// Memory the CPU reads directly: host memory, pinned or not.
inline bool host_readable(const DLDevice& device) {
  const int type = static_cast<int>(device.device_type);
  return type == kDLCPU || type == kDLCUDAHost || type == kDLROCMHost;
}

inline DLDataType to_dl_type(DType dtype) {
  const auto bits = static_cast<std::uint8_t>(dtype_size(dtype) * kBitsPerByte);
  std::uint8_t code = kDLInt;
  if (dtype == DType::boolean) code = kBoolCode;
  else if (dtype == DType::bfloat16) code = kDLBfloat;
  else if (is_floating(dtype)) code = kDLFloat;
  else if (is_unsigned(dtype)) code = kDLUInt;
  return DLDataType{code, bits, 1};
}

/// The einops element type of a DLPack type, or EinopsError naming it.
inline DType from_dl_type(const DLDataType& type) {
  if (type.lanes == 1) {
    for (DType candidate :
         {DType::boolean, DType::int8, DType::int16, DType::int32, DType::int64, DType::uint8, DType::uint16,
          DType::uint32, DType::uint64, DType::float32, DType::float64, DType::float16, DType::bfloat16}) {
      const DLDataType known = to_dl_type(candidate);
      if (known.code == type.code && known.bits == type.bits) return candidate;
    }
  }
  throw EinopsError(
      "einops::from_dlpack: einops has no element type for DLPack's code " + std::to_string(type.code) + ", " +
      std::to_string(type.bits) + " bits, " + std::to_string(type.lanes) +
      " lanes (it has bool, int8..int64, uint8..uint64, float16, bfloat16, float32 and float64, one lane)");
}

/// What to_dlpack hands out: the tensor (its storage kept alive), its shape and strides.
struct Export {
  AnyTensor tensor;
  Shape shape;
  Shape strides;
  DLManagedTensor managed{};
};

}  // namespace detail::dlpack

/// The tensor of `managed` as an AnyTensor sharing its memory; see this header's comment for
/// who owns what.
inline AnyTensor from_dlpack(DLManagedTensor* managed) {
  if (managed == nullptr) throw EinopsError("einops::from_dlpack: the DLManagedTensor is null");
  const DLTensor& in = managed->dl_tensor;
  if (!detail::dlpack::host_readable(in.device))
    throw EinopsError("einops::from_dlpack: the tensor is on " + detail::dlpack::device_name(in.device) +
                      "; einops reads CPU and host (pinned) memory only: copy it to the CPU first (LibTorch: t.cpu())");
  const DType dtype = detail::dlpack::from_dl_type(in.dtype);
  if (in.ndim < 0 || (in.ndim > 0 && in.shape == nullptr))
    throw EinopsError("einops::from_dlpack: the tensor has " + std::to_string(in.ndim) + " dimensions" +
                      (in.ndim > 0 ? " and no shape" : ""));
  const auto rank = static_cast<std::size_t>(in.ndim);
  Shape shape(in.shape, in.shape + rank);
  detail::checked_element_count(shape);  // negative lengths, overflow
  Shape strides = in.strides != nullptr ? Shape(in.strides, in.strides + rank) : detail::row_major_strides(shape);
  detail::check_view_extent(shape, strides, dtype_size(dtype));
  if (in.data == nullptr && detail::element_count(shape) > 0)
    throw EinopsError("einops::from_dlpack: a tensor of shape " + detail::format_shape(shape) + " without data");
  void* data = in.data == nullptr ? nullptr : static_cast<char*>(in.data) + in.byte_offset;
  if (reinterpret_cast<std::uintptr_t>(data) % dtype_size(dtype) != 0)
    throw EinopsError("einops::from_dlpack: the first element (data + byte_offset " + std::to_string(in.byte_offset) +
                      ") is not aligned to " + std::to_string(dtype_size(dtype)) + " bytes, the alignment of " +
                      std::string(dtype_name(dtype)) + " that einops' kernels assume");
  // From here on the tensor is ours: the shared owner calls the producer's deleter once.
  std::shared_ptr<void> owner(static_cast<void*>(managed), [](void* pointer) {
    auto* tensor = static_cast<DLManagedTensor*>(pointer);
    if (tensor->deleter != nullptr) tensor->deleter(tensor);
  });
  return AnyTensor(dtype, Storage(std::move(owner)), data, std::move(shape), std::move(strides));
}

/// `x` as a DLManagedTensor on the CPU sharing x's memory: the consumer calls its deleter once.
inline DLManagedTensor* to_dlpack(const AnyTensor& x) {
  auto context = std::make_unique<detail::dlpack::Export>();
  context->tensor = x;
  context->shape.assign(x.shape().begin(), x.shape().end());
  context->strides.assign(x.strides().begin(), x.strides().end());
  DLTensor& out = context->managed.dl_tensor;
  out.data = x.data();
  out.device = DLDevice{kDLCPU, 0};
  out.ndim = static_cast<int>(x.rank());
  out.dtype = detail::dlpack::to_dl_type(x.dtype());
  out.shape = context->shape.data();
  out.strides = context->strides.data();
  out.byte_offset = 0;
  context->managed.manager_ctx = context.get();
  context->managed.deleter = [](DLManagedTensor* self) {
    delete static_cast<detail::dlpack::Export*>(self->manager_ctx);
  };
  return &context.release()->managed;
}

}  // namespace einops
