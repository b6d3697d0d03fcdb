# Must-fail-to-compile tests for the adapters: adapter_cases.cmake's cases in a translation unit
# that includes both adapters and provides an Eigen tensor `e` (rank 4), an Eigen matrix `m`,
# an xt::xtensor `xt4` (rank 4) and an xt::xarray `xa`. Included by CMakeLists.txt when both
# packages are found; the tests run as cases.cmake's do (expect_compile.cmake).
include(${CMAKE_CURRENT_LIST_DIR}/adapter_cases.cmake)

set(adapter_language_flags ${compile_fail_language_flags})
foreach(target Eigen3::Eigen xtensor)
  get_target_property(dirs ${target} INTERFACE_INCLUDE_DIRECTORIES)
  foreach(dir ${dirs})
    # -isystem /usr/include would break libstdc++'s #include_next <math.h>; it is searched anyway.
    if(NOT dir STREQUAL "/usr/include")
      list(APPEND adapter_language_flags -isystem ${dir})
    endif()
  endforeach()
endforeach()
set(adapter_flags ${adapter_language_flags} -fsyntax-only)
add_case_prelude(adapter_prelude "${adapter_language_flags}" "#include <einops/eigen.hpp>" "#include <einops/xtensor.hpp>")

add_compile_fail_cases(PRELUDE adapter_prelude FLAGS ${adapter_flags}
  PARAMETERS "const Eigen::Tensor<float, 4>& e, const Eigen::MatrixXf& m, const xt::xtensor<float, 4>& xt4, const xt::xarray<float>& xa"
  NAMES e m xt4 xa TWINS adapter_twins CASES EINOPS_ADAPTER_COMPILE_FAIL_CASES)
