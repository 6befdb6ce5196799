/* termscribe._speedups: lines of text, progress bars redrawn after CRs (plain
 * and styled) and SGR sequences (what each returns: see _speedups.c). */
#include <stdint.h>
#include <string.h>

#include "_speedups.h"

/* Where the printable ASCII characters from i end, or a little before (a
 * multiple of 8 characters from i): eight at a time, each word tested at
 * once for a byte below 0x20 or above 0x7e. */
static inline Py_ssize_t
ascii_printable_end(const unsigned char *data, Py_ssize_t n, Py_ssize_t i)
{
    const uint64_t ones = 0x0101010101010101ULL;
    const uint64_t highs = 0x8080808080808080ULL;
    while (n - i >= 8) {
        uint64_t x;
        memcpy(&x, data + i, 8);
        uint64_t below = (x - ones * 0x20) & ~x & highs;
        uint64_t above = ((x + ones) | x) & highs;  /* 0x7f and up */
        if (below | above) {
            break;
        }
        i += 8;
    }
    return i;
}

/* Where the parameters of an SGR sequence starting at i end (at its m), or
 * -1 if none starts there: ESC [, at most max_params parameter characters
 * (0-9 ; :), then m. */
static inline Py_ALWAYS_INLINE Py_ssize_t
sgr_params_end(int kind, const void *data, Py_ssize_t n, Py_ssize_t i, Py_ssize_t max_params)
{
    if (i + 2 >= n || PyUnicode_READ(kind, data, i) != 0x1b ||
        PyUnicode_READ(kind, data, i + 1) != '[') {
        return -1;
    }
    Py_ssize_t j = i + 2;
    Py_ssize_t limit = max_params < n - j ? j + max_params : n;
    while (j < limit) {
        Py_UCS4 c = PyUnicode_READ(kind, data, j);
        if (!((c >= '0' && c <= '9') || c == ';' || c == ':')) {
            break;
        }
        j++;
    }
    return j < n && PyUnicode_READ(kind, data, j) == 'm' ? j : -1;
}

/* The end of the run of whole lines of text from i, or -1 (see
 * text_lines_end). Inlined for each string kind, so that the loop over
 * printable characters reads them at a constant width. */
static inline Py_ssize_t
lines_end(int kind, const void *data, Py_ssize_t n, Py_ssize_t i, Py_ssize_t max_params,
          int tagged)
{
    Py_ssize_t end = -1;  /* after the last whole line */
    for (;;) {
        Py_UCS4 c = 0;
        for (;;) {
            if (kind == PyUnicode_1BYTE_KIND) {
                i = ascii_printable_end((const unsigned char *)data, n, i);
            }
            while (i < n && is_printable(c = PyUnicode_READ(kind, data, i))) {
                i++;
            }
            if (i >= n) {
                return end;
            }
            if (c != 0x1b) {
                break;
            }
            /* An SGR sequence, or (tagged) a SOS, PM or APC string, or the
             * line is not one of the run. */
            Py_ssize_t j = i + 1;
            if (j >= n) {
                return end;
            }
            c = PyUnicode_READ(kind, data, j);
            if (tagged && (c == 'X' || c == '^' || c == '_')) {
                /* Its body: anything but BEL, CAN, SUB, ESC and C1; then BEL
                 * or ST (ESC \). */
                for (j++; j < n; j++) {
                    c = PyUnicode_READ(kind, data, j);
                    if (c == 0x07 || c == 0x18 || c == 0x1a || c == 0x1b ||
                        (c >= 0x80 && c <= 0x9f)) {
                        break;
                    }
                }
                if (j < n && c == 0x07) {
                    i = j + 1;
                }
                else if (j + 1 < n && c == 0x1b && PyUnicode_READ(kind, data, j + 1) == '\\') {
                    i = j + 2;
                }
                else {
                    return end;
                }
                continue;
            }
            Py_ssize_t m = sgr_params_end(kind, data, n, i, max_params);
            if (m < 0) {
                return end;
            }
            i = m + 1;
        }
        while (c == '\r' && ++i < n) {
            c = PyUnicode_READ(kind, data, i);
        }
        if (i >= n || c != '\n') {
            return end;
        }
        end = ++i;
    }
}

PyObject *
termscribe_text_lines_end(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    Py_ssize_t n;
    int kind;
    const char *data;
    if (text_arguments("text_lines_end", nargs, 4, args, &n, &kind, &data) < 0) {
        return NULL;
    }
    Py_ssize_t start = PyLong_AsSsize_t(args[1]);
    Py_ssize_t max_params = PyLong_AsSsize_t(args[2]);
    if (PyErr_Occurred()) {
        return NULL;
    }
    int tagged = PyObject_IsTrue(args[3]);
    if (tagged < 0) {
        return NULL;
    }
    if (start < 0 || max_params < 0) {
        PyErr_SetString(PyExc_ValueError, "text_lines_end() arguments must not be negative");
        return NULL;
    }
    Py_ssize_t end;
    BY_KIND(end, kind, lines_end, data, n, start, max_params, tagged);
    return PyLong_FromSsize_t(end);
}

/* The end of the run of whole lines of printable text and CRs from i, or
 * -1 (see overwritten_lines_end). */
static inline Py_ssize_t
overwritten_end(int kind, const void *data, Py_ssize_t n, Py_ssize_t i)
{
    Py_ssize_t end = -1;  /* after the last whole line */
    for (;;) {
        Py_UCS4 c = 0;
        if (kind == PyUnicode_1BYTE_KIND) {
            i = ascii_printable_end((const unsigned char *)data, n, i);
        }
        while (i < n && is_printable(c = PyUnicode_READ(kind, data, i))) {
            i++;
        }
        if (i >= n) {
            return end;
        }
        if (c == '\r') {
            i++;
            continue;
        }
        if (c != '\n') {
            return end;
        }
        end = ++i;
    }
}

PyObject *
termscribe_overwritten_lines_end(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    Py_ssize_t n;
    int kind;
    const char *data;
    if (text_arguments("overwritten_lines_end", nargs, 2, args, &n, &kind, &data) < 0) {
        return NULL;
    }
    Py_ssize_t start = PyLong_AsSsize_t(args[1]);
    if (start == -1 && PyErr_Occurred()) {
        return NULL;
    }
    if (start < 0) {
        PyErr_SetString(PyExc_ValueError, "overwritten_lines_end() start must not be negative");
        return NULL;
    }
    Py_ssize_t end;
    BY_KIND(end, kind, overwritten_end, data, n, start);
    return PyLong_FromSsize_t(end);
}

/* What stays visible of the line text[start:end] (no LF in it), its texts
 * separated by CRs printed in turn from the first column: the last text,
 * then the part of each earlier one that reaches past all after it (see
 * overlaid_lines). A new reference, or NULL with an exception set. */
static PyObject *
overlaid_line(PyObject *text, int kind, const void *data, Py_ssize_t start, Py_ssize_t end)
{
    while (end > start && PyUnicode_READ(kind, data, end - 1) == '\r') {
        end--;
    }
    Py_ssize_t stop = end - 1;
    while (stop >= start && PyUnicode_READ(kind, data, stop) != '\r') {
        stop--;
    }
    Py_ssize_t covered = end - (stop + 1);
    PyObject *visible = PyUnicode_Substring(text, stop + 1, end);
    /* Each earlier text, from the last: (begin, stop), with a CR at stop. */
    while (visible != NULL && stop >= start) {
        Py_ssize_t begin = stop - 1;
        while (begin >= start && PyUnicode_READ(kind, data, begin) != '\r') {
            begin--;
        }
        Py_ssize_t length = stop - (begin + 1);
        if (length > covered) {
            PyObject *tail = PyUnicode_Substring(text, begin + 1 + covered, stop);
            PyObject *joined = tail == NULL ? NULL : PyUnicode_Concat(visible, tail);
            Py_XDECREF(tail);
            Py_SETREF(visible, joined);
            covered = length;
        }
        stop = begin;
    }
    return visible;
}

PyObject *
termscribe_overlaid_lines(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    Py_ssize_t n;
    int kind;
    const char *data;
    if (text_arguments("overlaid_lines", nargs, 2, args, &n, &kind, &data) < 0) {
        return NULL;
    }
    int lf_returns = PyObject_IsTrue(args[1]);
    if (lf_returns < 0) {
        return NULL;
    }
    PyObject *lines = PyList_New(0);
    Py_ssize_t start = 0;
    while (lines != NULL) {
        Py_ssize_t i = start;
        if (kind == PyUnicode_1BYTE_KIND) {
            const char *found = memchr(data + start, '\n', n - start);
            i = found == NULL ? n : found - data;
        }
        else {
            while (i < n && PyUnicode_READ(kind, data, i) != '\n') {
                i++;
            }
        }
        if (i >= n) {
            break;  /* what follows the last LF is no line */
        }
        if (!lf_returns && (i == 0 || PyUnicode_READ(kind, data, i - 1) != '\r')) {
            Py_DECREF(lines);
            Py_RETURN_NONE;  /* a bare LF */
        }
        PyObject *line = overlaid_line(args[0], kind, data, start, i);
        if (line == NULL || PyList_Append(lines, line) < 0) {
            Py_XDECREF(line);
            Py_CLEAR(lines);
            break;
        }
        Py_DECREF(line);
        start = i + 1;
    }
    return lines;
}

PyObject *
termscribe_line_feeds(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    Py_ssize_t n;
    int kind;
    const char *data;
    if (text_arguments("line_feeds", nargs, 3, args, &n, &kind, &data) < 0) {
        return NULL;
    }
    Py_ssize_t start = PyLong_AsSsize_t(args[1]);
    Py_ssize_t end = PyLong_AsSsize_t(args[2]);
    if (PyErr_Occurred()) {
        return NULL;
    }
    if (start < 0 || end < 0) {
        PyErr_SetString(PyExc_ValueError, "line_feeds() arguments must not be negative");
        return NULL;
    }
    if (end > n) {
        end = n;
    }
    if (start > end) {
        start = end;
    }
    Py_ssize_t count = 0;
    if (kind == PyUnicode_1BYTE_KIND) {
        const char *p = data + start;
        const char *stop = data + end;
        while (p < stop && (p = memchr(p, '\n', stop - p)) != NULL) {
            count++;
            p++;
        }
    }
    else {
        for (Py_ssize_t i = start; i < end; i++) {
            count += PyUnicode_READ(kind, data, i) == '\n';
        }
    }
    return PyLong_FromSsize_t(count);
}

PyObject *
termscribe_plain_overwrites_end(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    Py_ssize_t n;
    int kind;
    const char *data;
    if (text_arguments("plain_overwrites_end", nargs, 2, args, &n, &kind, &data) < 0) {
        return NULL;
    }
    Py_ssize_t start = PyLong_AsSsize_t(args[1]);
    if (start == -1 && PyErr_Occurred()) {
        return NULL;
    }
    if (start < 0) {
        PyErr_SetString(PyExc_ValueError, "plain_overwrites_end() start must not be negative");
        return NULL;
    }
    Py_ssize_t end = -1;
    Py_ssize_t i = start;
    while (i < n && PyUnicode_READ(kind, data, i) == '\r') {
        Py_ssize_t j = i + 1;
        while (j < n && is_printable(PyUnicode_READ(kind, data, j))) {
            j++;
        }
        if (j == i + 1) {
            break;  /* a CR with no text after it ends the run before it */
        }
        end = i = j;
    }
    return PyLong_FromSsize_t(end);
}

/* Where an EL sequence (ESC [ K, with 0 or 2 before the K) starting at i
 * ends, or -1 if none starts there. */
static inline Py_ALWAYS_INLINE Py_ssize_t
erase_end(int kind, const void *data, Py_ssize_t n, Py_ssize_t i)
{
    if (i + 2 >= n || PyUnicode_READ(kind, data, i) != 0x1b ||
        PyUnicode_READ(kind, data, i + 1) != '[') {
        return -1;
    }
    Py_UCS4 c = PyUnicode_READ(kind, data, i + 2);
    if (c == 'K') {
        return i + 3;
    }
    if ((c == '0' || c == '2') && i + 3 < n && PyUnicode_READ(kind, data, i + 3) == 'K') {
        return i + 4;
    }
    return -1;
}

/* Where the unit of an overwrite run starting at i ends, or -1 if none
 * starts there: CR or CHA to the first column (ESC [ G, ESC [ 1 G), maybe
 * an EL sequence, text (printable characters and SGR sequences) that
 * prints something, maybe an EL sequence. */
static inline Py_ssize_t
overwrite_unit_end(int kind, const void *data, Py_ssize_t n, Py_ssize_t i, Py_ssize_t max_params)
{
    if (i >= n) {
        return -1;
    }
    Py_UCS4 c = PyUnicode_READ(kind, data, i);
    if (c == '\r') {
        i++;
    }
    else if (c == 0x1b && i + 2 < n && PyUnicode_READ(kind, data, i + 1) == '[') {
        c = PyUnicode_READ(kind, data, i + 2);
        if (c == 'G') {
            i += 3;
        }
        else if (c == '1' && i + 3 < n && PyUnicode_READ(kind, data, i + 3) == 'G') {
            i += 4;
        }
        else {
            return -1;
        }
    }
    else {
        return -1;
    }
    Py_ssize_t j = erase_end(kind, data, n, i);
    if (j >= 0) {
        i = j;
    }
    /* Something is printed: after any SGR sequences, a printable character. */
    j = i;
    Py_ssize_t m;
    while ((m = sgr_params_end(kind, data, n, j, max_params)) >= 0) {
        j = m + 1;
    }
    if (j >= n || !is_printable(PyUnicode_READ(kind, data, j))) {
        return -1;
    }
    for (;;) {
        if (kind == PyUnicode_1BYTE_KIND) {
            j = ascii_printable_end((const unsigned char *)data, n, j);
        }
        while (j < n && is_printable(PyUnicode_READ(kind, data, j))) {
            j++;
        }
        m = sgr_params_end(kind, data, n, j, max_params);
        if (m < 0) {
            break;
        }
        j = m + 1;
    }
    m = erase_end(kind, data, n, j);
    return m >= 0 ? m : j;
}

static inline Py_ssize_t
overwrites_run_end(int kind, const void *data, Py_ssize_t n, Py_ssize_t i, Py_ssize_t max_params)
{
    Py_ssize_t end = -1;
    Py_ssize_t j;
    while ((j = overwrite_unit_end(kind, data, n, i, max_params)) >= 0) {
        end = i = j;
    }
    return end;
}

PyObject *
termscribe_overwrites_end(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    Py_ssize_t n;
    int kind;
    const char *data;
    if (text_arguments("overwrites_end", nargs, 3, args, &n, &kind, &data) < 0) {
        return NULL;
    }
    Py_ssize_t start = PyLong_AsSsize_t(args[1]);
    Py_ssize_t max_params = PyLong_AsSsize_t(args[2]);
    if (PyErr_Occurred()) {
        return NULL;
    }
    if (start < 0 || max_params < 0) {
        PyErr_SetString(PyExc_ValueError, "overwrites_end() arguments must not be negative");
        return NULL;
    }
    Py_ssize_t end;
    BY_KIND(end, kind, overwrites_run_end, data, n, start, max_params);
    return PyLong_FromSsize_t(end);
}

/* Append text[start:end] to list; -1 with an exception set on failure. */
static int
append_slice(PyObject *list, PyObject *text, Py_ssize_t start, Py_ssize_t end)
{
    PyObject *piece = PyUnicode_Substring(text, start, end);
    if (piece == NULL) {
        return -1;
    }
    int failed = PyList_Append(list, piece);
    Py_DECREF(piece);
    return failed;
}

/* sgr_split of text, whose characters are data (n of them, of kind):
 * inlined for each kind, so that the search for ESC reads them at a
 * constant width. */
static inline PyObject *
split_at_sgr(int kind, const void *data, Py_ssize_t n, PyObject *text)
{
    PyObject *out = PyList_New(0);
    if (out == NULL) {
        return NULL;
    }
    Py_ssize_t last = 0; /* where the current text part starts */
    Py_ssize_t i = 0;
    while (i + 2 < n) {
        Py_ssize_t m;
        if (PyUnicode_READ(kind, data, i) != 0x1b ||
            (m = sgr_params_end(kind, data, n, i, PY_SSIZE_T_MAX)) < 0) {
            i++;
            continue;
        }
        if (append_slice(out, text, last, i) < 0 || append_slice(out, text, i + 2, m) < 0) {
            Py_DECREF(out);
            return NULL;
        }
        last = i = m + 1;
    }
    if (last == 0) {
        /* No SGR: the list holds the text itself, as split() gives it. */
        if (PyList_Append(out, text) < 0) {
            Py_DECREF(out);
            return NULL;
        }
        return out;
    }
    if (append_slice(out, text, last, n) < 0) {
        Py_DECREF(out);
        return NULL;
    }
    return out;
}

PyObject *
termscribe_sgr_split(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    Py_ssize_t n;
    int kind;
    const char *data;
    if (text_arguments("sgr_split", nargs, 1, args, &n, &kind, &data) < 0) {
        return NULL;
    }
    PyObject *out;
    BY_KIND(out, kind, split_at_sgr, data, n, args[0]);
    return out;
}

/* text without its SGR sequences, as a string of its kind: one pass that
 * copies what lies between them. Inlined for each kind. */
static inline PyObject *
copy_without_sgr(int kind, const void *data, Py_ssize_t n, PyObject *text)
{
    Py_ssize_t first = -1;
    for (Py_ssize_t i = 0; i + 2 < n; i++) {
        if (PyUnicode_READ(kind, data, i) == 0x1b) {
            first = i;
            break;
        }
    }
    if (first < 0) {
        return Py_NewRef(text);
    }
    char *out = PyMem_Malloc(n * kind);
    if (out == NULL) {
        return PyErr_NoMemory();
    }
    Py_ssize_t kept = 0;
    Py_ssize_t copied = 0; /* text[copied:i] is still to copy */
    Py_ssize_t i = first;
    while (i + 2 < n) {
        Py_ssize_t m;
        if (PyUnicode_READ(kind, data, i) != 0x1b ||
            (m = sgr_params_end(kind, data, n, i, PY_SSIZE_T_MAX)) < 0) {
            i++;
            continue;
        }
        memcpy(out + kept * kind, (const char *)data + copied * kind, (i - copied) * kind);
        kept += i - copied;
        copied = i = m + 1;
    }
    memcpy(out + kept * kind, (const char *)data + copied * kind, (n - copied) * kind);
    kept += n - copied;
    PyObject *result = PyUnicode_FromKindAndData(kind, out, kept);
    PyMem_Free(out);
    return result;
}

PyObject *
termscribe_without_sgr(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    Py_ssize_t n;
    int kind;
    const char *data;
    if (text_arguments("without_sgr", nargs, 1, args, &n, &kind, &data) < 0) {
        return NULL;
    }
    PyObject *out;
    BY_KIND(out, kind, copy_without_sgr, data, n, args[0]);
    return out;
}
