# Install rules and the Debian package (./dev.sh package; docs/packaging.md): both programs, the desktop entry,
# the scalable icon, AppStream metainfo, man pages, bash and zsh completion and the recorded probe reports.
# `Depends:` is computed by dpkg-shlibdeps from what the programs link (Qt 6 from Debian); the CUDA runtime is
# linked statically, so the package needs no CUDA install.
include(GNUInstallDirs)

set(LANEMAP_HOMEPAGE "https://github.com/lanemap/lanemap" CACHE STRING
    "Project home page (package Homepage:, AppStream url, copyright Source:)")
set(LANEMAP_SCREENSHOT_BASE "https://raw.githubusercontent.com/lanemap/lanemap/main/docs" CACHE STRING
    "Where the README screenshots are published (AppStream screenshots)")
set(LANEMAP_MAINTAINER "The lanemap authors <lanemap@users.noreply.github.com>" CACHE STRING
    "Package Maintainer: field")
set(LANEMAP_APPSTREAM_ID "io.github.lanemap.lanemap")
set(LANEMAP_RELEASE_DATE "2026-11-24")

set(LANEMAP_PKG_DIR ${PROJECT_BINARY_DIR}/packaging)
configure_file(${PROJECT_SOURCE_DIR}/packaging/lanemap.metainfo.xml.in
               ${LANEMAP_PKG_DIR}/${LANEMAP_APPSTREAM_ID}.metainfo.xml @ONLY)
configure_file(${PROJECT_SOURCE_DIR}/packaging/copyright ${LANEMAP_PKG_DIR}/copyright @ONLY)
# /usr/share/doc/lanemap/changelog.gz must be in Debian's changelog format; it points at CHANGELOG.md.
configure_file(${PROJECT_SOURCE_DIR}/packaging/changelog.in ${LANEMAP_PKG_DIR}/changelog @ONLY)

# Man pages and the changelog are installed gzip-compressed (-n: no name or time stamp, reproducible), as
# Debian policy asks.
find_program(LANEMAP_GZIP gzip)
set(LANEMAP_COMPRESSED "")
foreach(page lanemap.1 lanemap-cli.1)
  configure_file(${PROJECT_SOURCE_DIR}/packaging/man/${page} ${LANEMAP_PKG_DIR}/${page} @ONLY)
endforeach()
if(LANEMAP_GZIP)
  foreach(item lanemap.1 lanemap-cli.1)
    add_custom_command(OUTPUT ${LANEMAP_PKG_DIR}/${item}.gz
      COMMAND ${LANEMAP_GZIP} -9 -n -c ${LANEMAP_PKG_DIR}/${item} > ${LANEMAP_PKG_DIR}/${item}.gz
      DEPENDS ${LANEMAP_PKG_DIR}/${item} VERBATIM)
    list(APPEND LANEMAP_COMPRESSED ${LANEMAP_PKG_DIR}/${item}.gz)
  endforeach()
  add_custom_command(OUTPUT ${LANEMAP_PKG_DIR}/changelog.gz
    COMMAND ${LANEMAP_GZIP} -9 -n -c ${LANEMAP_PKG_DIR}/changelog > ${LANEMAP_PKG_DIR}/changelog.gz
    DEPENDS ${LANEMAP_PKG_DIR}/changelog VERBATIM)
  list(APPEND LANEMAP_COMPRESSED ${LANEMAP_PKG_DIR}/changelog.gz)
  add_custom_target(lanemap_package_docs ALL DEPENDS ${LANEMAP_COMPRESSED})
  install(FILES ${LANEMAP_PKG_DIR}/lanemap-cli.1.gz DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
  install(FILES ${LANEMAP_PKG_DIR}/changelog.gz DESTINATION ${CMAKE_INSTALL_DOCDIR})
  if(LANEMAP_HAVE_QT)
    install(FILES ${LANEMAP_PKG_DIR}/lanemap.1.gz DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
  endif()
endif()

install(TARGETS lanemap-cli RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
if(TARGET lanemap_probe_kernels)
  # The CUDA probe, loaded by lanemap-cli and lanemap only when they probe (gpu/CMakeLists.txt).
  install(TARGETS lanemap_probe_kernels LIBRARY DESTINATION ${LANEMAP_PROBE_MODULE_INSTALL_DIR})
endif()
if(LANEMAP_HAVE_QT)
  install(TARGETS lanemap RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
  install(FILES ${PROJECT_SOURCE_DIR}/resources/lanemap.desktop DESTINATION ${CMAKE_INSTALL_DATADIR}/applications)
  install(FILES ${PROJECT_SOURCE_DIR}/resources/lanemap.svg
          DESTINATION ${CMAKE_INSTALL_DATADIR}/icons/hicolor/scalable/apps)
  install(FILES ${LANEMAP_PKG_DIR}/${LANEMAP_APPSTREAM_ID}.metainfo.xml DESTINATION ${CMAKE_INSTALL_DATADIR}/metainfo)
endif()
install(FILES ${PROJECT_SOURCE_DIR}/packaging/completion/lanemap-cli.bash
        DESTINATION ${CMAKE_INSTALL_DATADIR}/bash-completion/completions RENAME lanemap-cli)
install(FILES ${PROJECT_SOURCE_DIR}/packaging/completion/_lanemap-cli
        DESTINATION ${CMAKE_INSTALL_DATADIR}/zsh/vendor-completions)
file(GLOB LANEMAP_PROBE_REPORTS_INSTALL ${PROJECT_SOURCE_DIR}/resources/probe/*.json)
install(FILES ${LANEMAP_PROBE_REPORTS_INSTALL} DESTINATION ${CMAKE_INSTALL_DATADIR}/lanemap/probe)
install(FILES ${LANEMAP_PKG_DIR}/copyright ${PROJECT_SOURCE_DIR}/CHANGELOG.md DESTINATION ${CMAKE_INSTALL_DOCDIR})

set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME lanemap)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_CONTACT "${LANEMAP_MAINTAINER}")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_STRIP_FILES ON)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT) # lanemap_<version>_<arch>.deb
set(CPACK_DEBIAN_PACKAGE_MAINTAINER "${LANEMAP_MAINTAINER}")
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_PACKAGE_HOMEPAGE "${LANEMAP_HOMEPAGE}")
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
if(LANEMAP_HAVE_QT)
  # The one dependency dpkg-shlibdeps cannot see: the app's SVG icon is drawn by Qt's SVG icon-engine plugin
  # (loaded at run time, not linked), which Debian ships in libqt6svg6. CPack adds the computed list to it.
  set(CPACK_DEBIAN_PACKAGE_DEPENDS "libqt6svg6")
endif()
set(CPACK_DEBIAN_PACKAGE_CONTROL_STRICT_PERMISSION ON)
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "tensor-core fragment layouts: which lane and register hold each element")
set(CPACK_PACKAGE_DESCRIPTION
    "lanemap shows, for every NVIDIA tensor-core matrix instruction (PTX mma,
mma.sp, wgmma and wgmma.sp), which lane, register and bits hold which element
of the A, B, C and D matrices and of the sparse metadata. The desktop app
(lanemap) browses, hovers and exports the layouts; lanemap-cli lists, prints
and exports them (JSON, text, SVG, a static web site) and confirms them on a
GPU with a hardware probe.")
include(CPack)
