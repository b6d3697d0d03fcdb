# The adapter targets: einops::torch, einops::opencv, einops::eigen, einops::xtensor and
# einops::dlpack, each an INTERFACE target linking einops::einops and carrying its framework's
# include directories, flags and libraries (the adapters themselves are header-only).
#
# EINOPS_WITH_<NAME> (TORCH, OPENCV, EIGEN, XTENSOR, DLPACK) chooses one:
#   ON     the framework is required and its target is built (and installed, as a component);
#   OFF    nothing of the framework is looked up;
#   unset  ON when einops is the top-level project and the framework is found, else OFF without
#          a lookup: inside another project einops looks up only the adapters asked for.
# The same options build the adapters' tests, examples and conformance runs.

# einops_adapter_package(<NAME> <package> <find_package arguments>...): looks <package> up as
# EINOPS_WITH_<NAME> asks and defines that option. A macro: the package's imported targets and
# variables stay in this directory's scope.
macro(einops_adapter_package name package)
  string(TOLOWER "${name}" _einops_doc)
  set(_einops_doc "The einops::${_einops_doc} adapter target and its tests (default: found, top-level only)")
  if(DEFINED EINOPS_WITH_${name})
    if(EINOPS_WITH_${name})
      find_package(${package} ${ARGN} REQUIRED)
    endif()
  elseif(PROJECT_IS_TOP_LEVEL)
    find_package(${package} ${ARGN} QUIET)
    option(EINOPS_WITH_${name} "${_einops_doc}" ${${package}_FOUND})
  else()
    option(EINOPS_WITH_${name} "${_einops_doc}" OFF)
  endif()
  unset(_einops_doc)
endmacro()

# einops_adapter_target(<name> <EXPORT_NAME>): the INTERFACE target einops_<name>, its alias
# einops::<name>, and its install rules (export set einops_<name>Targets, one file per component
# so that find_package(einops COMPONENTS <name>) loads only the frameworks asked for).
function(einops_adapter_target name)
  add_library(einops_${name} INTERFACE)
  add_library(einops::${name} ALIAS einops_${name})
  set_target_properties(einops_${name} PROPERTIES EXPORT_NAME ${name})
  target_link_libraries(einops_${name} INTERFACE einops::einops)
  set_property(GLOBAL APPEND PROPERTY EINOPS_ADAPTER_COMPONENTS ${name})
  if(EINOPS_INSTALL)
    install(TARGETS einops_${name} EXPORT einops_${name}Targets)
    install(EXPORT einops_${name}Targets NAMESPACE einops:: DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/einops)
  endif()
endfunction()

# LibTorch: TORCH_LIBRARIES as imported targets (torch, torch_library that keeps libtorch linked
# for its operator registrations, c10), which carry its include directories as system headers;
# TORCH_CXX_FLAGS (the libstdc++ ABI flag) stated here as well, for every user of einops::torch.
einops_adapter_package(TORCH Torch)
if(EINOPS_WITH_TORCH)
  einops_adapter_target(torch)
  separate_arguments(einops_torch_flags UNIX_COMMAND "${TORCH_CXX_FLAGS}")
  target_compile_options(einops_torch INTERFACE ${einops_torch_flags})
  target_link_libraries(einops_torch INTERFACE torch torch_library c10)
endif()

# OpenCV: einops/opencv.hpp needs the core module only.
einops_adapter_package(OPENCV OpenCV COMPONENTS core)
if(EINOPS_WITH_OPENCV)
  einops_adapter_target(opencv)
  target_link_libraries(einops_opencv INTERFACE opencv_core)
endif()

# Eigen's Tensor module (header-only).
einops_adapter_package(EIGEN Eigen3 3.3 NO_MODULE)
if(EINOPS_WITH_EIGEN)
  einops_adapter_target(eigen)
  target_link_libraries(einops_eigen INTERFACE Eigen3::Eigen)
endif()

# xtensor (header-only; xtl comes with it).
einops_adapter_package(XTENSOR xtensor)
if(EINOPS_WITH_XTENSOR)
  einops_adapter_target(xtensor)
  target_link_libraries(einops_xtensor INTERFACE xtensor)
endif()

# DLPack's header (libdlpack-dev's CMake package). A translation unit that includes LibTorch first
# may use LibTorch's own copy of the header instead (einops/dlpack.hpp says how).
einops_adapter_package(DLPACK dlpack CONFIG)
if(EINOPS_WITH_DLPACK)
  einops_adapter_target(dlpack)
  target_link_libraries(einops_dlpack INTERFACE dlpack::dlpack)
endif()
