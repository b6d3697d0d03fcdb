# install() with an exported config, so that an installed copy is found by
# find_package(einops CONFIG REQUIRED) and linked as einops::einops, and a pkg-config file
# (einops.pc) for builds that do not use CMake. Included when EINOPS_INSTALL is ON. The adapter
# targets install themselves (cmake/adapters.cmake), one export file per component; the
# command-line tool installs itself (tools/).
include(CMakePackageConfigHelpers)

install(TARGETS einops EXPORT einopsTargets
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
  INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(DIRECTORY include/einops DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(EXPORT einopsTargets NAMESPACE einops:: DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/einops)

configure_package_config_file(cmake/einopsConfig.cmake.in ${CMAKE_CURRENT_BINARY_DIR}/einopsConfig.cmake
  INSTALL_DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/einops)
write_basic_package_version_file(${CMAKE_CURRENT_BINARY_DIR}/einopsConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/einopsConfig.cmake ${CMAKE_CURRENT_BINARY_DIR}/einopsConfigVersion.cmake
  DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/einops)

# einops.pc, relocatable: its prefix is found from its own folder (${pcfiledir}), so that
# `cmake --install build --prefix P` works for any P. A static libeinops needs its own
# dependencies on the consumer's link line (Requires/Libs); a shared one only privately.
function(einops_pkg_config_path out dir)  # an install folder as seen from ${prefix}
  if(IS_ABSOLUTE "${dir}")
    set(${out} "${dir}" PARENT_SCOPE)
  else()
    set(${out} "\${prefix}/${dir}" PARENT_SCOPE)
  endif()
endfunction()
einops_pkg_config_path(EINOPS_PC_LIBDIR "${CMAKE_INSTALL_LIBDIR}")
einops_pkg_config_path(EINOPS_PC_INCLUDEDIR "${CMAKE_INSTALL_INCLUDEDIR}")
set(pc_dir "${CMAKE_INSTALL_LIBDIR}/pkgconfig")
if(IS_ABSOLUTE "${pc_dir}")
  set(EINOPS_PC_PREFIX "${CMAKE_INSTALL_PREFIX}")
else()
  string(REGEX REPLACE "[^/]+" ".." pc_to_prefix "${pc_dir}")
  set(EINOPS_PC_PREFIX "\${pcfiledir}/${pc_to_prefix}")
endif()
set(pc_libs "${CMAKE_THREAD_LIBS_INIT}")
if(EINOPS_WITH_BLAS)
  list(PREPEND pc_libs ${BLAS_LIBRARIES})
endif()
list(JOIN pc_libs " " pc_libs)
set(EINOPS_PC_CFLAGS "")
if(BUILD_SHARED_LIBS)
  set(EINOPS_PC_CFLAGS " -DEINOPS_SHARED")
  set(EINOPS_PC_DEPENDENCIES "Requires.private: libhwy\nLibs: -L\${libdir} -leinops\nLibs.private: ${pc_libs}")
else()
  set(EINOPS_PC_DEPENDENCIES "Requires: libhwy\nLibs: -L\${libdir} -leinops ${pc_libs}")
endif()
configure_file(cmake/einops.pc.in ${CMAKE_CURRENT_BINARY_DIR}/einops.pc @ONLY)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/einops.pc DESTINATION ${pc_dir})
install(FILES LICENSE DESTINATION ${CMAKE_INSTALL_DOCDIR})
