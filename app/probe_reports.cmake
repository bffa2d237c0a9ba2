# The recorded probe reports (FOLDER/*.json) as a Qt resource file's text, prefix /lanemap/probe. A report that
# cannot be read (a dangling symlink, a folder named *.json) is left out with a warning naming it, instead of
# failing the build later in rcc with an unclear error.
function(lanemap_probe_qrc folder out_var)
  if(CMAKE_SCRIPT_MODE_FILE)
    file(GLOB reports ${folder}/*.json) # the test runs this with cmake -P, where CONFIGURE_DEPENDS is refused
  else()
    file(GLOB reports CONFIGURE_DEPENDS ${folder}/*.json)
  endif()
  set(qrc "<RCC>\n  <qresource prefix=\"/lanemap/probe\">\n")
  foreach(report ${reports})
    get_filename_component(report_name ${report} NAME)
    if(NOT EXISTS ${report} OR IS_DIRECTORY ${report})
      message(WARNING "resources/probe/${report_name} is not a readable file (a dangling symlink?): left out of the app")
      continue()
    endif()
    string(APPEND qrc "    <file alias=\"${report_name}\">${report}</file>\n")
  endforeach()
  string(APPEND qrc "  </qresource>\n</RCC>\n")
  set(${out_var} "${qrc}" PARENT_SCOPE)
endfunction()
