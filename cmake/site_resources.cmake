# The static site's script and style sheet (resources/site/*.js, *.css) are compiled into lanemap_core, so
# `lanemap-cli export --format html` writes self-contained pages from the binary alone. Embedded at build
# time (cmake/embed_site.cmake): editing a .js or .css rebuilds without a re-configure.
file(GLOB LANEMAP_SITE_RESOURCES CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/resources/site/*.js
     ${PROJECT_SOURCE_DIR}/resources/site/*.css)
list(SORT LANEMAP_SITE_RESOURCES)
set(LANEMAP_SITE_INC ${PROJECT_BINARY_DIR}/generated/site/site_resources.inc)
add_custom_command(OUTPUT ${LANEMAP_SITE_INC}
  COMMAND ${CMAKE_COMMAND} -DOUTPUT=${LANEMAP_SITE_INC} "-DINPUTS=${LANEMAP_SITE_RESOURCES}"
          -P ${CMAKE_CURRENT_LIST_DIR}/embed_site.cmake
  DEPENDS ${LANEMAP_SITE_RESOURCES} ${CMAKE_CURRENT_LIST_DIR}/embed_site.cmake
  COMMENT "Embedding the static site's script and style sheet"
  VERBATIM)
# The rule lives in this directory, lanemap_core in core/: a custom target carries it across.
add_custom_target(lanemap_site_resources DEPENDS ${LANEMAP_SITE_INC})
add_dependencies(lanemap_core lanemap_site_resources)
target_include_directories(lanemap_core PRIVATE ${PROJECT_BINARY_DIR}/generated/site)
