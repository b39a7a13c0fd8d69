# `cmake --install BUILD [--prefix P]` lays ShardLab out as the installed programs look
# for it (docs/testing.md, "The package test"):
#   P/bin/shardlab, shardlab-run, shardlab-worker, shardlab-quiz, shardlab-replay
#       the app runs shardlab-run from its own folder (app/models/JobRunner.cpp), and
#       shardlab-run runs shardlab-worker from its own (engine/launcher/main.cpp);
#   P/share/shardlab/assets/   quiz/, observations/, lessons/, labs/, specs/, glossary.json: the app and
#       shardlab-quiz find them as <exe>/../share/shardlab/assets (quiz/bank/AssetLocator);
#   P/share/applications/shardlab.desktop, P/share/icons/hicolor/scalable/apps/shardlab.svg;
#   P/share/doc/shardlab/      README.md, docs/multi-host.md, copyright, changelog.gz.
# The app's translations are compiled into it (qt_add_translations, :/i18n): there are
# no separate .qm files to install.
# Included by the top-level CMakeLists.txt after every target exists.
include(GNUInstallDirs)

set(_shardlab_programs shardlab-run shardlab-worker shardlab-replay)
if(TARGET shardlab-quiz)
  list(APPEND _shardlab_programs shardlab-quiz)
endif()
if(TARGET shardlab)
  list(APPEND _shardlab_programs shardlab)
endif()
install(TARGETS ${_shardlab_programs} RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT shardlab)

# The whole assets folder (quiz/CMakeLists.txt installs quiz/, lessons/ and labs/ of it
# too; installing the same file twice is harmless).
install(DIRECTORY ${PROJECT_SOURCE_DIR}/assets/ DESTINATION ${CMAKE_INSTALL_DATADIR}/shardlab/assets
        COMPONENT shardlab)

if(TARGET shardlab)
  install(FILES ${PROJECT_SOURCE_DIR}/packaging/shardlab.desktop
          DESTINATION ${CMAKE_INSTALL_DATADIR}/applications COMPONENT shardlab)
  install(FILES ${PROJECT_SOURCE_DIR}/packaging/shardlab.svg
          DESTINATION ${CMAKE_INSTALL_DATADIR}/icons/hicolor/scalable/apps COMPONENT shardlab)
endif()

install(FILES ${PROJECT_SOURCE_DIR}/README.md ${PROJECT_SOURCE_DIR}/docs/multi-host.md
              ${PROJECT_SOURCE_DIR}/packaging/copyright
        DESTINATION ${CMAKE_INSTALL_DATADIR}/doc/shardlab COMPONENT shardlab)
