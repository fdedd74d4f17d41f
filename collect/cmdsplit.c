/*
 * cmdsplit - sh's word splitting, without a shell (cmdsplit.h).
 */
#include "cmdsplit.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

static bool is_blank(char c) { return c == ' ' || c == '\t' || c == '\n'; }

static rd_status needs_shell(struct rd_diag *d, char c)
{
    return rd_diag_set(d, RD_ERR_USAGE, NULL, 0, 0,
                       "'%c' means something only to a shell: add -S sh, or quote it", c);
}

rd_status rd_command_split(const char *text, char ***argv, size_t *argc, struct rd_diag *d)
{
    size_t len = strlen(text);
    /* A word takes at least one character and one separator, so len/2 + 1
     * words and len + 1 bytes of text (quotes only shrink it) are enough. */
    size_t maxwords = len / 2 + 2;
    char **words = malloc(maxwords * sizeof *words + len + 1);
    if (!words)
        return RD_ERR_NOMEM;
    char *out = (char *)(words + maxwords);
    size_t n = 0;
    bool in_word = false;
    rd_status st = RD_OK;
    const char *p = text;
    while (*p && !st) {
        char c = *p;
        if (is_blank(c)) {
            if (in_word) {
                *out++ = '\0';
                in_word = false;
            }
            p++;
            continue;
        }
        if (c == '\\' && p[1] == '\n') {
            p += 2; /* a line continuation: nothing at all */
            continue;
        }
        if (!in_word) {
            words[n++] = out;
            in_word = true;
        }
        if (c == '\'') {
            const char *end = strchr(p + 1, '\'');
            if (!end) {
                st = rd_diag_set(d, RD_ERR_USAGE, NULL, 0, 0, "unclosed ' in the command");
                break;
            }
            memcpy(out, p + 1, (size_t)(end - p - 1));
            out += end - p - 1;
            p = end + 1;
        } else if (c == '"') {
            for (p++; *p && *p != '"'; p++) {
                if (*p == '$' || *p == '`') {
                    st = needs_shell(d, *p);
                    break;
                }
                if (*p == '\\' && p[1] && strchr("$`\"\\\n", p[1])) {
                    if (p[1] != '\n')
                        *out++ = p[1];
                    p++;
                    continue;
                }
                *out++ = *p;
            }
            if (!st && *p != '"')
                st = rd_diag_set(d, RD_ERR_USAGE, NULL, 0, 0, "unclosed \" in the command");
            else
                p++;
        } else if (c == '\\') {
            if (!p[1]) {
                st = rd_diag_set(d, RD_ERR_USAGE, NULL, 0, 0,
                                 "the command ends in a backslash");
                break;
            }
            *out++ = p[1];
            p += 2;
        } else if (strchr("|&;<>()$`", c)) {
            st = needs_shell(d, c);
        } else {
            *out++ = *p++;
        }
    }
    if (!st && in_word)
        *out = '\0';
    if (!st && n == 0)
        st = rd_diag_set(d, RD_ERR_USAGE, NULL, 0, 0, "the command is empty");
    if (st) {
        free(words);
        return st;
    }
    words[n] = NULL;
    *argv = words;
    *argc = n;
    return RD_OK;
}
