# The version every program shows, from one place: the project version (CMakeLists.txt) and the git revision
# of the source tree at configure time ("unknown" outside git, e.g. a source tarball). Writes
# <build>/generated/include/lanemap/version.hpp; lanemap_core exports that folder to everything that links it.
set(LANEMAP_GIT_REVISION "unknown")
find_package(Git QUIET)
if(GIT_FOUND)
  execute_process(COMMAND ${GIT_EXECUTABLE} describe --always --dirty --tags
                  WORKING_DIRECTORY ${PROJECT_SOURCE_DIR}
                  OUTPUT_VARIABLE lanemap_describe OUTPUT_STRIP_TRAILING_WHITESPACE
                  RESULT_VARIABLE lanemap_describe_rc ERROR_QUIET)
  if(lanemap_describe_rc EQUAL 0 AND NOT lanemap_describe STREQUAL "")
    set(LANEMAP_GIT_REVISION "${lanemap_describe}")
  endif()
endif()
# Re-run configure when HEAD moves, so the revision is not stale after a commit.
if(GIT_FOUND AND EXISTS ${PROJECT_SOURCE_DIR}/.git)
  execute_process(COMMAND ${GIT_EXECUTABLE} rev-parse --git-path HEAD WORKING_DIRECTORY ${PROJECT_SOURCE_DIR}
                  OUTPUT_VARIABLE lanemap_head OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
  execute_process(COMMAND ${GIT_EXECUTABLE} rev-parse --git-path index WORKING_DIRECTORY ${PROJECT_SOURCE_DIR}
                  OUTPUT_VARIABLE lanemap_index OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
  foreach(f IN ITEMS "${lanemap_head}" "${lanemap_index}")
    if(NOT f STREQUAL "")
      if(NOT IS_ABSOLUTE "${f}")
        set(f "${PROJECT_SOURCE_DIR}/${f}")
      endif()
      if(EXISTS "${f}")
        set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS "${f}")
      endif()
    endif()
  endforeach()
endif()
set(LANEMAP_VERSION_INCLUDE_DIR ${PROJECT_BINARY_DIR}/generated/include)
configure_file(${CMAKE_CURRENT_LIST_DIR}/version.hpp.in ${LANEMAP_VERSION_INCLUDE_DIR}/lanemap/version.hpp @ONLY)
message(STATUS "lanemap ${PROJECT_VERSION} (${LANEMAP_GIT_REVISION})")
