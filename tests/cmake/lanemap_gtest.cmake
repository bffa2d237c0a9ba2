# How ctest runs a GoogleTest binary (docs/performance.md#build-and-test-time).
#
#   lanemap_add_gtests(TARGET [SHARDS n] [COST seconds] [LONG Suite.Test=seconds...] [UNSANITIZED Suite.Test...]
#                      [ENVIRONMENT VAR=value...])
#
# LANEMAP_TEST_SHARDS OFF (a hand-made build): one ctest test per GoogleTest test (gtest_discover_tests), so
# `ctest -R Name` picks single tests. ON (./dev.sh test, CI): n ctest tests per binary, each running every
# n-th GoogleTest test in one process (GoogleTest's GTEST_TOTAL_SHARDS / GTEST_SHARD_INDEX). Every test still
# runs; what goes is a process start per test, which costs ~0.3 s under ASan (the catalog is built again in each),
# ~540 CPU-s over the sanitizer pass's ~1,800 tests. COST (the binary's test time, seconds, unsanitized) lets
# ctest -j start the long shards first on a fresh clone, before it has its own timings. Each LONG test (a
# GoogleTest name or pattern, with its time) is its own ctest test, started first; the shards leave it out.
# A LONG name that no longer matches costs nothing: the shards then run that test as any other.
# UNSANITIZED names LONG tests that the sanitizer pass (LANEMAP_SANITIZER_PASS) leaves out: catalog-wide tests whose
# code the pass's other tests already run under ASan+UBSan (docs/performance.md#build-and-test-time says which,
# measured); every other build runs them.
option(LANEMAP_TEST_SHARDS "Register each GoogleTest binary as a few ctest shards, not one ctest test per test" OFF)

function(lanemap_add_gtests target)
  cmake_parse_arguments(PARSE_ARGV 1 arg "" "SHARDS;COST" "LONG;UNSANITIZED;ENVIRONMENT")
  if(NOT arg_SHARDS)
    set(arg_SHARDS 1)
  endif()
  if(NOT arg_COST)
    set(arg_COST 1)
  endif()
  # Either way the binary's name is a label: `ctest --test-dir build -L lanemap-core-tests -j2` runs its tests.
  if(NOT LANEMAP_TEST_SHARDS)
    if(arg_ENVIRONMENT)
      gtest_discover_tests(${target} DISCOVERY_TIMEOUT 60 PROPERTIES LABELS ${target} ENVIRONMENT "${arg_ENVIRONMENT}")
    else()
      gtest_discover_tests(${target} DISCOVERY_TIMEOUT 60 PROPERTIES LABELS ${target})
    endif()
    return()
  endif()
  set(long_names "")
  foreach(long IN LISTS arg_LONG)
    string(REPLACE "=" ";" long "${long}")
    list(GET long 0 long_name)
    list(GET long 1 long_cost)
    list(APPEND long_names ${long_name})
    if(LANEMAP_SANITIZER_PASS AND long_name IN_LIST arg_UNSANITIZED)
      continue()
    endif()
    add_test(NAME ${target}.${long_name} COMMAND ${target} --gtest_filter=${long_name})
    set_tests_properties(${target}.${long_name} PROPERTIES COST ${long_cost} LABELS ${target})
    if(arg_ENVIRONMENT)
      set_tests_properties(${target}.${long_name} PROPERTIES ENVIRONMENT "${arg_ENVIRONMENT}")
    endif()
  endforeach()
  set(shard_filter "")
  if(long_names)
    list(JOIN long_names ":" shard_filter)
    set(shard_filter --gtest_filter=-${shard_filter})
  endif()
  math(EXPR last "${arg_SHARDS} - 1")
  math(EXPR cost "(${arg_COST} + ${arg_SHARDS} - 1) / ${arg_SHARDS}")
  foreach(index RANGE ${last})
    math(EXPR number "${index} + 1")
    set(name ${target}.shard${number}of${arg_SHARDS})
    add_test(NAME ${name} COMMAND ${target} ${shard_filter})
    set(environment GTEST_TOTAL_SHARDS=${arg_SHARDS} GTEST_SHARD_INDEX=${index} ${arg_ENVIRONMENT})
    set_tests_properties(${name} PROPERTIES ENVIRONMENT "${environment}" COST ${cost} LABELS ${target})
  endforeach()
endfunction()
