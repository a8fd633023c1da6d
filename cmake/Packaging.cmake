# SPDX-License-Identifier: Apache-2.0
# CPack: a release tarball (TGZ, the whole install, relocatable) and Debian
# packages split the Debian way (DEB):
#   libfeaturecache<major>   the versioned library (component runtime), Depends
#                            computed by dpkg-shlibdeps, a shlibs file, ldconfig
#   libfeaturecache-dev      header, C++ header, .so link, .pc, CMake package
#                            (component development), Depends on the exact runtime
#   featurecache             the command-line tool and its man page (component
#                            tools), Depends on the exact runtime and SQLite
# Each package carries /usr/share/doc/<package>/{copyright, changelog.Debian.gz,
# changelog.gz}, installed only by component installs (the Debian packages), never
# by a plain install or the tarball.
# Debian packages want the multiarch layout: configure them with
# -DCMAKE_INSTALL_PREFIX=/usr (GNUInstallDirs then picks lib/<triplet>), as
# scripts/package.sh does.

set(FC_PACKAGE_CONTACT "FeatureCache developers <maintainers@featurecache.invalid>" CACHE STRING
    "Maintainer of the packages, 'Name <address>' (a packager sets their own)")
set(FC_DEB_REVISION 1 CACHE STRING "The Debian revision of the packages")
set(FC_DEB_RUNTIME "libfeaturecache${PROJECT_VERSION_MAJOR}")  # named after the SONAME
set(FC_DEB_DEV "libfeaturecache-dev")
set(FC_DEB_TOOLS "featurecache")
set(FC_DEB_VERSION "${PROJECT_VERSION}-${FC_DEB_REVISION}")

# The release date from CHANGELOG.md's heading for this version: it dates the
# Debian changelog, and every file in the packages (SOURCE_DATE_EPOCH), so two
# package builds of one commit are identical.
file(STRINGS "${CMAKE_SOURCE_DIR}/CHANGELOG.md" _fc_heading ENCODING UTF-8
     REGEX "^## ${PROJECT_VERSION} — [0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]$")
if(NOT _fc_heading)
  message(FATAL_ERROR "CHANGELOG.md has no '## ${PROJECT_VERSION} — YYYY-MM-DD' heading for this version")
endif()
string(REGEX MATCH "[0-9-]+$" FC_RELEASE_DATE "${_fc_heading}")
execute_process(COMMAND date -u -d "${FC_RELEASE_DATE}" -R OUTPUT_VARIABLE FC_RELEASE_DATE_RFC2822
                OUTPUT_STRIP_TRAILING_WHITESPACE COMMAND_ERROR_IS_FATAL ANY)
execute_process(COMMAND date -u -d "${FC_RELEASE_DATE}" +%s OUTPUT_VARIABLE FC_RELEASE_EPOCH
                OUTPUT_STRIP_TRAILING_WHITESPACE COMMAND_ERROR_IS_FATAL ANY)

# /usr/share/doc/<package>/ for each package: copyright (DEP-5), the Debian
# changelog and the upstream one, compressed as Debian wants them (gzip -9n:
# no name or time stamp in the header).
set(_fc_debian "${CMAKE_BINARY_DIR}/debian")
configure_file(cmake/debian/copyright.in "${_fc_debian}/copyright" @ONLY)
configure_file(cmake/debian/changelog.in "${_fc_debian}/changelog.Debian" @ONLY)
configure_file(CHANGELOG.md "${_fc_debian}/changelog" COPYONLY)
foreach(file changelog.Debian changelog)
  execute_process(COMMAND gzip -9nf "${_fc_debian}/${file}" COMMAND_ERROR_IS_FATAL ANY)
endforeach()
set(_fc_packages ${FC_DEB_RUNTIME} ${FC_DEB_DEV})
if(FC_BUILD_TOOLS)
  list(APPEND _fc_packages ${FC_DEB_TOOLS})
endif()
foreach(package IN ITEMS ${_fc_packages})
  if(package STREQUAL FC_DEB_RUNTIME)
    set(_fc_component runtime)
  elseif(package STREQUAL FC_DEB_DEV)
    set(_fc_component development)
  else()
    set(_fc_component tools)
  endif()
  install(FILES "${_fc_debian}/copyright" "${_fc_debian}/changelog.Debian.gz" "${_fc_debian}/changelog.gz"
          DESTINATION "${CMAKE_INSTALL_DATAROOTDIR}/doc/${package}" COMPONENT ${_fc_component}-debian
          EXCLUDE_FROM_ALL)
endforeach()

set(CPACK_PACKAGE_NAME featurecache)
set(CPACK_PACKAGE_VENDOR "The FeatureCache developers")
set(CPACK_PACKAGE_CONTACT "${FC_PACKAGE_CONTACT}")
set(CPACK_PACKAGE_VERSION "${PROJECT_VERSION}")
# No CPACK_PACKAGE_DESCRIPTION_SUMMARY: each Debian description's first line is
# its synopsis (CPack would put the summary in front of it).
set(CPACK_RESOURCE_FILE_LICENSE "${CMAKE_SOURCE_DIR}/LICENSE")
set(CPACK_PACKAGE_CHECKSUM SHA256)
set(CPACK_OUTPUT_FILE_PREFIX "${CMAKE_BINARY_DIR}/packages")
# cpack runs this file in its own process: the time stamps of what it packs.
file(WRITE "${CMAKE_BINARY_DIR}/CPackProjectConfig.cmake"
     "set(ENV{SOURCE_DATE_EPOCH} ${FC_RELEASE_EPOCH})\n")
set(CPACK_PROJECT_CONFIG_FILE "${CMAKE_BINARY_DIR}/CPackProjectConfig.cmake")
set(CPACK_GENERATOR TGZ DEB)

# The tarball: the whole install (no component split), relocatable; the Debian
# doc files are EXCLUDE_FROM_ALL and so not in it.
set(CPACK_ARCHIVE_COMPONENT_INSTALL OFF)
set(CPACK_PACKAGE_FILE_NAME "featurecache-${PROJECT_VERSION}-linux-${CMAKE_SYSTEM_PROCESSOR}")

# The Debian packages: one per component group.
set(CPACK_DEB_COMPONENT_INSTALL ON)
set(CPACK_COMPONENTS_ALL runtime runtime-debian development development-debian)
if(FC_BUILD_TOOLS)
  list(APPEND CPACK_COMPONENTS_ALL tools tools-debian)
endif()
set(CPACK_COMPONENTS_GROUPING ONE_PER_GROUP)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_RELEASE "${FC_DEB_REVISION}")
set(CPACK_DEBIAN_PACKAGE_SOURCE featurecache)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_PACKAGE_CONTROL_STRICT_PERMISSION ON)
set(CPACK_DEBIAN_COMPRESSION_TYPE xz)

set(CPACK_DEBIAN_RUNTIME_PACKAGE_NAME "${FC_DEB_RUNTIME}")
set(CPACK_DEBIAN_RUNTIME_PACKAGE_SECTION libs)
set(CPACK_DEBIAN_RUNTIME_DESCRIPTION
    "feature-service client with a fast local cache - library
FeatureCache reads features from ArcGIS REST feature services, OGC API -
Features collections and WFS 1.0/1.1/2.0 feature types into a fast local
columnar cache, with request modes, paging and a loadable pattern.
.
This package contains the shared library (C ABI).")
# Depends from what the library links (libc6, libcurl4, libxml2, ...), computed.
set(CPACK_DEBIAN_RUNTIME_PACKAGE_SHLIBDEPS ON)
# A shlibs file, so packages linking the library depend on this version or
# later (CPack 3.25 reads this one global switch; only the runtime package has
# a shared object), and libc's ldconfig trigger.
set(CPACK_DEBIAN_PACKAGE_GENERATE_SHLIBS ON)
set(CPACK_DEBIAN_PACKAGE_GENERATE_SHLIBS_POLICY ">=")
# (CPack also writes postinst and postrm scripts that call ldconfig: redundant
# with the trigger, harmless, and lintian's only warning about them.)
file(WRITE "${_fc_debian}/triggers" "activate-noawait ldconfig\n")
set(CPACK_DEBIAN_RUNTIME_PACKAGE_CONTROL_EXTRA "${_fc_debian}/triggers")

set(CPACK_DEBIAN_DEVELOPMENT_PACKAGE_NAME "${FC_DEB_DEV}")
set(CPACK_DEBIAN_DEVELOPMENT_PACKAGE_SECTION libdevel)
set(CPACK_DEBIAN_DEVELOPMENT_PACKAGE_DEPENDS "${FC_DEB_RUNTIME} (= ${FC_DEB_VERSION})")
set(CPACK_DEBIAN_DEVELOPMENT_DESCRIPTION
    "feature-service client with a fast local cache - development files
FeatureCache reads features from ArcGIS REST feature services, OGC API -
Features collections and WFS 1.0/1.1/2.0 feature types into a fast local
columnar cache, with request modes, paging and a loadable pattern.
.
This package contains the C header, the C++17 header, the pkg-config file and
the CMake package.")

set(CPACK_DEBIAN_TOOLS_PACKAGE_NAME "${FC_DEB_TOOLS}")
set(CPACK_DEBIAN_TOOLS_PACKAGE_SECTION utils)
# Written by hand: dpkg-shlibdeps cannot find the library of the package
# built beside it. What the program links: the library, SQLite, libc.
set(CPACK_DEBIAN_TOOLS_PACKAGE_DEPENDS
    "${FC_DEB_RUNTIME} (= ${FC_DEB_VERSION}), libsqlite3-0 (>= 3.7.15), libc6 (>= 2.34)")
set(CPACK_DEBIAN_TOOLS_DESCRIPTION
    "feature-service client with a fast local cache - command-line tool
featurecache reads the features of ArcGIS REST feature services, OGC API -
Features collections, WFS feature types and GeoJSON documents served whole,
and writes them as GeoJSON, GeoJSON sequences, CSV or GeoPackage.
.
This package contains the featurecache program and its manual page.")

include(CPack)
cpack_add_component_group(runtime)
cpack_add_component_group(development)
cpack_add_component(runtime GROUP runtime)
cpack_add_component(runtime-debian GROUP runtime)
cpack_add_component(development GROUP development DEPENDS runtime)
cpack_add_component(development-debian GROUP development)
if(FC_BUILD_TOOLS)
  cpack_add_component_group(tools)
  cpack_add_component(tools GROUP tools DEPENDS runtime)
  cpack_add_component(tools-debian GROUP tools)
endif()
