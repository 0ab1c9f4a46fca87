# cmake -DIN=file -DOUT=file.cpp -DNAME=function -P embed_text.cmake: writes OUT, a C++
# file defining `const char* stcsim::NAME()` that returns IN's text (data files the
# binary needs wherever it runs from, e.g. rtl/reports/area_cells.csv).
file(READ ${IN} text)
file(WRITE ${OUT} "namespace stcsim {\nconst char* ${NAME}() {\n  return R\"stcsim_text(${text})stcsim_text\";\n}\n}  // namespace stcsim\n")
