cmake_minimum_required(VERSION 3.20) # IN_LIST in script mode
# The GUI's folders by feature and the only arrows allowed between them (run as a test with
# -DGUI_DIR=<app/gui>). window/ assembles the features, so it may include any of them and none may
# include it: an arrow back up would tie a feature to the main window and its whole include fan.
set(allowed_window   "runs;sizing;traces;resilience;settings")
set(allowed_runs     "")
set(allowed_sizing   "")
set(allowed_traces   "sizing")     # predicted vs measured reads the saved sizing configs
set(allowed_resilience "sizing")   # the resilience planner starts from a saved sizing config
set(allowed_settings "runs")       # Preferences edits the default launcher with the run dialogs' widget

file(GLOB features RELATIVE ${GUI_DIR} ${GUI_DIR}/*)
set(failures "")
foreach(feature ${features})
  if(NOT IS_DIRECTORY ${GUI_DIR}/${feature})
    continue()
  endif()
  list(APPEND folders ${feature})
  if(NOT DEFINED allowed_${feature})
    string(APPEND failures "app/gui/${feature}/ is a folder this test does not know: state its arrows here\n")
    continue()
  endif()
  file(GLOB_RECURSE sources ${GUI_DIR}/${feature}/*.h ${GUI_DIR}/${feature}/*.cpp)
  foreach(source ${sources})
    file(STRINGS ${source} includes REGEX "^#include \"gui/")
    foreach(line ${includes})
      string(REGEX REPLACE "^#include \"gui/([a-z]+)/.*" "\\1" target "${line}")
      if(NOT target STREQUAL feature AND NOT target IN_LIST allowed_${feature})
        file(RELATIVE_PATH rel ${GUI_DIR} ${source})
        string(APPEND failures "app/gui/${rel}: ${line} (${feature}/ may include only its own folder and: ${allowed_${feature}})\n")
      endif()
    endforeach()
  endforeach()
endforeach()
# A header left at the top of app/gui would be outside every feature.
file(GLOB loose RELATIVE ${GUI_DIR} ${GUI_DIR}/*.h)
foreach(header ${loose})
  string(APPEND failures "app/gui/${header}: a header outside the feature folders\n")
endforeach()
if(failures)
  message(FATAL_ERROR "GUI arrows not allowed:\n${failures}")
endif()
message(STATUS "GUI folders: ${folders}; every arrow is an allowed one")
