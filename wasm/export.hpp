// BC_EXPORT: a function the page calls by name (cwrap), kept by emscripten's linker; a plain C
// function elsewhere (a native build of the same file).
#pragma once

#ifdef __EMSCRIPTEN__
#include <emscripten/emscripten.h>
#define BC_EXPORT extern "C" EMSCRIPTEN_KEEPALIVE
#else
#define BC_EXPORT extern "C"
#endif
