/*
 * templatedir - where rundown-render finds its templates when --templates
 * is not given: next to its own executable, never at a path compiled in,
 * so a moved or installed tree keeps working.
 *
 * Installed, the program is PREFIX/bin/rundown-render and the templates
 * PREFIX/share/rundown/templates; the build tree has the same shape (the
 * build links BUILD/share/rundown/templates to the source's templates/, see
 * render/CMakeLists.txt), so one rule serves both: ../share/rundown/templates
 * from the folder of /proc/self/exe.
 */
#include "render.h"

#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#ifndef PATH_MAX
#define PATH_MAX 4096
#endif

const char *rd_render_default_templates(void)
{
    static char dir[PATH_MAX + 32];
    if (dir[0])
        return dir;
    char exe[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    char *slash = n > 0 ? memchr(exe, '/', (size_t)n) : NULL;
    if (!slash) {
        /* No /proc: the templates of the current folder, as a last resort. */
        snprintf(dir, sizeof dir, "templates");
        return dir;
    }
    exe[n] = '\0';
    *strrchr(exe, '/') = '\0';
    snprintf(dir, sizeof dir, "%s/../share/rundown/templates", exe);
    return dir;
}
