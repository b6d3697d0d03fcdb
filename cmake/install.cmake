# install() with an exported config, so that an installed copy is found by
# find_package(einops CONFIG REQUIRED) and linked as einops::einops.
include(GNUInstallDirs)
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
