# einsum's float32/float64 matrix products through the plain CBLAS interface (cblas.h,
# cblas_sgemm/cblas_dgemm with int sizes), from the BLAS that EINOPS_BLAS_VENDOR names: FindBLAS'
# BLA_VENDOR (OpenBLAS, FLAME for BLIS, Generic for the reference BLAS, Intel10_64lp, ...). Without
# a BLAS einsum still works, on its portable loops. Sets EINOPS_WITH_BLAS (OFF when none is
# found) and EINOPS_CBLAS_INCLUDE_DIR for the benchmarks.
option(EINOPS_WITH_BLAS "Use a BLAS (CBLAS) for einsum's float products" ON)
set(EINOPS_BLAS_VENDOR "OpenBLAS" CACHE STRING "The BLAS for einsum (FindBLAS' BLA_VENDOR: OpenBLAS, FLAME, Generic, ...)")
if(NOT EINOPS_WITH_BLAS)
  return()
endif()

set(_einops_saved_bla_vendor "${BLA_VENDOR}")
set(BLA_VENDOR "${EINOPS_BLAS_VENDOR}")
find_package(BLAS)
set(BLA_VENDOR "${_einops_saved_bla_vendor}")
unset(_einops_saved_bla_vendor)
# Debian keeps each BLAS' cblas.h in a folder named after its library's folder (openblas-pthread,
# blis-openmp, ...), behind the alternatives' links: the library FindBLAS chose says which.
set(_einops_cblas_hints "")
foreach(_einops_blas_library IN LISTS BLAS_LIBRARIES)
  get_filename_component(_einops_blas_library "${_einops_blas_library}" REALPATH)
  get_filename_component(_einops_blas_dir "${_einops_blas_library}" DIRECTORY)
  get_filename_component(_einops_blas_folder "${_einops_blas_dir}" NAME)
  list(APPEND _einops_cblas_hints "${_einops_blas_folder}")
endforeach()
find_path(EINOPS_CBLAS_INCLUDE_DIR cblas.h PATH_SUFFIXES ${_einops_cblas_hints})
unset(_einops_cblas_hints)
if(BLAS_FOUND AND EINOPS_CBLAS_INCLUDE_DIR)
  target_link_libraries(einops PRIVATE BLAS::BLAS)
  target_include_directories(einops SYSTEM PRIVATE ${EINOPS_CBLAS_INCLUDE_DIR})
  set_source_files_properties(src/einsum/gemm_blas.cpp PROPERTIES COMPILE_DEFINITIONS EINOPS_HAVE_CBLAS)
else()
  message(WARNING "No ${EINOPS_BLAS_VENDOR} BLAS with cblas.h found (EINOPS_BLAS_VENDOR): einsum uses its portable loops")
  set(EINOPS_WITH_BLAS OFF)
endif()
