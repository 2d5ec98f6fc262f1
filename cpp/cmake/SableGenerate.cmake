# sable_generate(TARGET SCHEMA [NAMESPACE ns] [OUTPUT_DIR dir] [SABLE path])
#
# Generates Sable's C++ codecs for an SBE schema at build time and makes them available as an
# INTERFACE library TARGET (link it to get the include directory). One line in a project:
#
#   include(SableGenerate)
#   sable_generate(car_codecs SCHEMA ${CMAKE_SOURCE_DIR}/car.xml)
#   target_link_libraries(app PRIVATE car_codecs)   # then #include "baseline.hpp"
#
# SABLE defaults to the cache variable SABLE_EXECUTABLE, else `sable` on PATH. NAMESPACE (dotted,
# e.g. my.codecs) replaces the schema's package as the C++ namespace and names the header
# (my_codecs.hpp). The generated header is regenerated when the schema or sable changes.
function(sable_generate target)
  cmake_parse_arguments(SG "" "SCHEMA;NAMESPACE;OUTPUT_DIR;SABLE" "" ${ARGN})
  if(NOT SG_SCHEMA)
    message(FATAL_ERROR "sable_generate(${target}): SCHEMA is required")
  endif()
  if(NOT SG_SABLE)
    if(SABLE_EXECUTABLE)
      set(SG_SABLE "${SABLE_EXECUTABLE}")
    else()
      find_program(SG_SABLE sable REQUIRED)
    endif()
  endif()
  if(NOT SG_OUTPUT_DIR)
    set(SG_OUTPUT_DIR "${CMAKE_CURRENT_BINARY_DIR}/sable_generated/${target}")
  endif()
  get_filename_component(schema "${SG_SCHEMA}" ABSOLUTE)
  set(args generate --lang cpp -o "${SG_OUTPUT_DIR}")
  if(SG_NAMESPACE)
    list(APPEND args --package "${SG_NAMESPACE}")
    string(REPLACE "." "_" header "${SG_NAMESPACE}")
    string(REPLACE "::" "_" header "${header}")
    set(header "${header}.hpp")
  else()
    # Without a namespace the header's name comes from the schema's package: stamp a file instead.
    set(header ".stamp")
  endif()
  set(outputs "${SG_OUTPUT_DIR}/sable/sbe.hpp")
  if(header STREQUAL ".stamp")
    list(APPEND outputs "${SG_OUTPUT_DIR}/.stamp")
    add_custom_command(
      OUTPUT ${outputs}
      COMMAND "${SG_SABLE}" ${args} "${schema}"
      COMMAND "${CMAKE_COMMAND}" -E touch "${SG_OUTPUT_DIR}/.stamp"
      DEPENDS "${schema}" "${SG_SABLE}"
      COMMENT "sable: C++ codecs for ${SG_SCHEMA}"
      VERBATIM)
  else()
    list(APPEND outputs "${SG_OUTPUT_DIR}/${header}")
    add_custom_command(
      OUTPUT ${outputs}
      COMMAND "${SG_SABLE}" ${args} "${schema}"
      DEPENDS "${schema}" "${SG_SABLE}"
      COMMENT "sable: C++ codecs for ${SG_SCHEMA}"
      VERBATIM)
  endif()
  add_custom_target(${target}_gen DEPENDS ${outputs})
  add_library(${target} INTERFACE)
  add_dependencies(${target} ${target}_gen)
  target_include_directories(${target} INTERFACE "${SG_OUTPUT_DIR}")
  target_compile_features(${target} INTERFACE cxx_std_17)
endfunction()
