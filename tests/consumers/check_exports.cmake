# cmake -P script: checks a shared libeinops in LIBRARY_DIR. Arguments: LIBRARY_DIR, NM, HEADERS
# (include/einops), VERSION (MAJOR.MINOR.PATCH).
#  - it is versioned: libeinops.so -> libeinops.so.<SOVERSION> -> libeinops.so.<VERSION>;
#  - its dynamic symbol table holds the public API only: no kernel symbols (einsum's internals,
#    Highway's per-target namespaces, anonymous namespaces, Highway itself), and of namespace
#    einops::detail only the functions that public headers name (their inline code and templates
#    call them, so they must be exported);
#  - EinopsError's type information is exported, so that callers catch it by type.
# Standard-library template instantiations are skipped: libstdc++ gives them default visibility.
cmake_minimum_required(VERSION 3.25)
string(REGEX MATCH "^[0-9]+\\.[0-9]+" major_minor "${VERSION}")
string(REGEX MATCH "^[0-9]+" major "${VERSION}")
if(major EQUAL 0)
  set(soversion ${major_minor})
else()
  set(soversion ${major})
endif()
foreach(name libeinops.so libeinops.so.${soversion} libeinops.so.${VERSION})
  if(NOT EXISTS ${LIBRARY_DIR}/${name})
    message(FATAL_ERROR "${LIBRARY_DIR}/${name} is missing: the shared library is not versioned")
  endif()
endforeach()

execute_process(COMMAND ${NM} -D --defined-only -C ${LIBRARY_DIR}/libeinops.so.${VERSION}
                RESULT_VARIABLE result OUTPUT_VARIABLE symbols ERROR_VARIABLE err)
if(NOT result EQUAL 0)
  message(FATAL_ERROR "${NM} failed: ${err}")
endif()
string(REPLACE ";" "," symbols "${symbols}")
string(REPLACE "\n" ";" symbols "${symbols}")

file(GLOB_RECURSE headers ${HEADERS}/*.hpp)
set(header_text "")
foreach(header ${headers})
  file(READ ${header} text)
  string(APPEND header_text "${text}")
endforeach()

set(problems "")
set(exported_api 0)
set(kernel_pattern "einops::detail::einsum::|einops::detail::N_[A-Z0-9_]+::|hwy::|\\(anonymous namespace\\)")
foreach(line ${symbols})
  # Instantiations of the standard library's templates (std::, __gnu_cxx::) keep default
  # visibility whatever the library's flags (libstdc++ declares its namespaces visible), even when
  # their arguments are internal types: not ours to hide.
  if(line MATCHES "^[0-9a-f]+ [A-Za-z] (std::|__gnu_cxx::)")
    continue()
  endif()
  if(line MATCHES "${kernel_pattern}")
    list(APPEND problems "kernel symbol: ${line}")
  elseif(line MATCHES "einops::detail::([A-Za-z_][A-Za-z_0-9]*)")
    set(name ${CMAKE_MATCH_1})
    if(NOT header_text MATCHES "[^A-Za-z_0-9]${name}[^A-Za-z_0-9]")
      list(APPEND problems "named by no public header: ${line}")
    endif()
  endif()
  if(line MATCHES " einops::")
    math(EXPR exported_api "${exported_api} + 1")
  endif()
endforeach()
if(NOT ";${symbols};" MATCHES "typeinfo for einops::EinopsError")
  list(APPEND problems "typeinfo for einops::EinopsError is not exported")
endif()
if(exported_api LESS 20)
  list(APPEND problems "only ${exported_api} einops:: symbols are exported")
endif()
if(problems)
  list(JOIN problems "\n  " problems)
  message(FATAL_ERROR "libeinops.so.${VERSION} exports what it should not:\n  ${problems}")
endif()
message(STATUS "libeinops.so.${VERSION}: ${exported_api} einops:: symbols exported, all of the public API")
