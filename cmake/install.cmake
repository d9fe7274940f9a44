# The installable package for third-party virtual platforms
# (docs/integration.md): the libraries a platform links to use an SE or the
# whole fabric, their headers under <prefix>/include/syncron (consumers
# include "models/..." as inside the project), a CMake package
# (find_package(syncron) -> syncron::se, syncron::fabric, syncron::platform,
# ...) and a pkg-config file. `cpack -G DEB` packs the same files.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(syncron_export_libs syncron_protocol syncron_common syncron_se_core syncron_protocol_tlm syncron_tlm
    syncron_memory syncron_interconnect syncron_se syncron_frontend)
foreach(lib IN LISTS syncron_export_libs)
  string(REGEX REPLACE "^syncron_" "" short ${lib})
  set_target_properties(${lib} PROPERTIES EXPORT_NAME ${short})
endforeach()
set_target_properties(syncron_frontend PROPERTIES EXPORT_NAME fabric)
# <syncron/syncron_mmio_regs.h> for platform code that shares the software's register map.
target_include_directories(syncron_frontend PUBLIC $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
# Everything a virtual platform needs to add SynCron: the fabric and below.
add_library(syncron_platform_package INTERFACE)
target_link_libraries(syncron_platform_package INTERFACE syncron_frontend)
set_target_properties(syncron_platform_package PROPERTIES EXPORT_NAME platform)

install(TARGETS ${syncron_export_libs} syncron_platform_package EXPORT syncronTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT syncron
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT syncron)
foreach(dir protocol common se tlm memory interconnect frontend)
  install(DIRECTORY models/${dir}/ DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/syncron/models/${dir}
          COMPONENT syncron FILES_MATCHING PATTERN "*.h")
endforeach()
# Software on the ISS: #include <syncron/syncron_mmio.h> (freestanding C).
install(FILES models/frontend/sw/syncron_mmio.h models/frontend/sw/syncron_mmio_regs.h
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/syncron COMPONENT syncron)
install(EXPORT syncronTargets NAMESPACE syncron:: DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/syncron
        COMPONENT syncron)
configure_package_config_file(cmake/syncronConfig.cmake.in ${PROJECT_BINARY_DIR}/syncronConfig.cmake
                              INSTALL_DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/syncron)
write_basic_package_version_file(${PROJECT_BINARY_DIR}/syncronConfigVersion.cmake COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/syncronConfig.cmake ${PROJECT_BINARY_DIR}/syncronConfigVersion.cmake
        DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/syncron COMPONENT syncron)
configure_file(cmake/syncron.pc.in ${PROJECT_BINARY_DIR}/syncron.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/syncron.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig COMPONENT syncron)

# cpack -G DEB (from the build directory): a Debian package of the above.
set(CPACK_PACKAGE_NAME libsyncron-dev)
set(CPACK_PACKAGE_VENDOR "SynCron model contributors")
set(CPACK_PACKAGE_CONTACT "SynCron model contributors")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "SynCron synchronization engines as a SystemC/TLM-2.0 library for virtual platforms")
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_GENERATOR DEB)
set(CPACK_DEBIAN_PACKAGE_DEPENDS "libsystemc-dev, nlohmann-json3-dev, libboost-dev")
set(CPACK_DEBIAN_PACKAGE_SECTION libdevel)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_COMPONENTS_ALL syncron)
set(CPACK_DEB_COMPONENT_INSTALL OFF)
include(CPack)
