# cmake -DIN=file -DOUT=file -DCONTAINS=text -P RemoveLine.cmake
# Copies IN to OUT with the one line that contains CONTAINS replaced by a comment
# (so line numbers stay). Fails unless exactly one line contains it: a planted
# removal that no longer matches the code must break the build, not test nothing.
file(READ "${IN}" text)
string(FIND "${text}" "${CONTAINS}" first)
string(FIND "${text}" "${CONTAINS}" last REVERSE)
if(first EQUAL -1)
  message(FATAL_ERROR "RemoveLine: no line of ${IN} contains '${CONTAINS}'")
endif()
if(NOT first EQUAL last)
  message(FATAL_ERROR "RemoveLine: more than one line of ${IN} contains '${CONTAINS}'")
endif()
string(SUBSTRING "${text}" 0 ${first} before)
string(FIND "${before}" "\n" lineStart REVERSE)
math(EXPR lineStart "${lineStart} + 1")
string(SUBSTRING "${text}" ${first} -1 rest)
string(FIND "${rest}" "\n" lineLength)
math(EXPR lineEnd "${first} + ${lineLength}")
string(SUBSTRING "${text}" 0 ${lineStart} head)
string(SUBSTRING "${text}" ${lineEnd} -1 tail)
file(WRITE "${OUT}" "${head}// planted removal (RemoveLine.cmake): the line with '${CONTAINS}'${tail}")
