#include <zlib.h>

// deflateInit2/inflateInit2 are macros (they pass the library version and the stream size): Swift cannot call
// them, so these wrappers do.
static inline int czlib_deflate_init_gzip(z_streamp stream, int level) {
    return deflateInit2(stream, level, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY);
}

static inline int czlib_inflate_init_gzip(z_streamp stream) {
    return inflateInit2(stream, 15 + 16);
}
