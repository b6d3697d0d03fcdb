// Element types the built-in kernels know (the reductions are in reduction.hpp).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <type_traits>

#include "einops/float16.hpp"

namespace einops {

enum class DType : std::uint8_t {
  boolean,
  int8,
  int16,
  int32,
  int64,
  uint8,
  uint16,
  uint32,
  uint64,
  float32,
  float64,
  float16,   // IEEE binary16 (einops::float16)
  bfloat16,  // einops::bfloat16
};

template <class T>
struct dtype_of;  // undefined for unsupported element types
// One line per element type, read as a table.
// clang-format off
template <> struct dtype_of<bool> { static constexpr DType value = DType::boolean; };
template <> struct dtype_of<std::int8_t> { static constexpr DType value = DType::int8; };
template <> struct dtype_of<std::int16_t> { static constexpr DType value = DType::int16; };
template <> struct dtype_of<std::int32_t> { static constexpr DType value = DType::int32; };
template <> struct dtype_of<std::int64_t> { static constexpr DType value = DType::int64; };
template <> struct dtype_of<std::uint8_t> { static constexpr DType value = DType::uint8; };
template <> struct dtype_of<std::uint16_t> { static constexpr DType value = DType::uint16; };
template <> struct dtype_of<std::uint32_t> { static constexpr DType value = DType::uint32; };
template <> struct dtype_of<std::uint64_t> { static constexpr DType value = DType::uint64; };
template <> struct dtype_of<float> { static constexpr DType value = DType::float32; };
template <> struct dtype_of<double> { static constexpr DType value = DType::float64; };
template <> struct dtype_of<float16> { static constexpr DType value = DType::float16; };
template <> struct dtype_of<bfloat16> { static constexpr DType value = DType::bfloat16; };
// clang-format on

template <class T>
inline constexpr DType dtype_v = dtype_of<std::remove_cv_t<T>>::value;

/// True for the element types the built-in tensor and kernels support.
template <class T>
concept Element = requires { dtype_of<std::remove_cv_t<T>>::value; };

constexpr std::size_t dtype_size(DType type) {
  switch (type) {
    case DType::boolean:
    case DType::int8:
    case DType::uint8: return 1;
    case DType::int16:
    case DType::uint16:
    case DType::float16:
    case DType::bfloat16: return 2;
    case DType::int32:
    case DType::uint32:
    case DType::float32: return 4;
    case DType::int64:
    case DType::uint64:
    case DType::float64: return 8;
  }
  return 0;
}

constexpr bool is_floating(DType type) {
  return type == DType::float32 || type == DType::float64 || type == DType::float16 || type == DType::bfloat16;
}
constexpr bool is_unsigned(DType type) {
  return type == DType::uint8 || type == DType::uint16 || type == DType::uint32 || type == DType::uint64;
}

constexpr std::string_view dtype_name(DType type) {
  switch (type) {
    case DType::boolean: return "bool";
    case DType::int8: return "int8";
    case DType::int16: return "int16";
    case DType::int32: return "int32";
    case DType::int64: return "int64";
    case DType::uint8: return "uint8";
    case DType::uint16: return "uint16";
    case DType::uint32: return "uint32";
    case DType::uint64: return "uint64";
    case DType::float32: return "float32";
    case DType::float64: return "float64";
    case DType::float16: return "float16";
    case DType::bfloat16: return "bfloat16";
  }
  return "?";
}

template <DType D>
struct element_of;
template <>
struct element_of<DType::boolean> {
  using type = bool;
};
template <>
struct element_of<DType::int8> {
  using type = std::int8_t;
};
template <>
struct element_of<DType::int16> {
  using type = std::int16_t;
};
template <>
struct element_of<DType::int32> {
  using type = std::int32_t;
};
template <>
struct element_of<DType::int64> {
  using type = std::int64_t;
};
template <>
struct element_of<DType::uint8> {
  using type = std::uint8_t;
};
template <>
struct element_of<DType::uint16> {
  using type = std::uint16_t;
};
template <>
struct element_of<DType::uint32> {
  using type = std::uint32_t;
};
template <>
struct element_of<DType::uint64> {
  using type = std::uint64_t;
};
template <>
struct element_of<DType::float32> {
  using type = float;
};
template <>
struct element_of<DType::float64> {
  using type = double;
};
template <>
struct element_of<DType::float16> {
  using type = float16;
};
template <>
struct element_of<DType::bfloat16> {
  using type = bfloat16;
};

/// Calls `f(T{})` with the C++ element type of `type`: one switch, used wherever a run-time
/// dtype picks a template instantiation.
template <class F>
decltype(auto) visit_dtype(DType type, F&& f) {
  switch (type) {
    case DType::boolean: return f(bool{});
    case DType::int8: return f(std::int8_t{});
    case DType::int16: return f(std::int16_t{});
    case DType::int32: return f(std::int32_t{});
    case DType::int64: return f(std::int64_t{});
    case DType::uint8: return f(std::uint8_t{});
    case DType::uint16: return f(std::uint16_t{});
    case DType::uint32: return f(std::uint32_t{});
    case DType::uint64: return f(std::uint64_t{});
    case DType::float32: return f(float{});
    case DType::float64: return f(double{});
    case DType::float16: return f(float16{});
    case DType::bfloat16: return f(bfloat16{});
  }
  return f(double{});
}

}  // namespace einops
