/* termscribe._speedups: progress bars redrawn after CRs, plain, styled and
 * line after line (what each returns: see _speedups.c). */
#include "_speedups.h"

/* The end of the run of whole lines of printable text and CRs from i, or
 * -1 (see overwritten_lines_end). */
static inline Py_ssize_t
overwritten_end(int kind, const void *data, Py_ssize_t n, Py_ssize_t i)
{
    Py_ssize_t end = -1;  /* after the last whole line */
    for (;;) {
        i = printable_run_end(kind, data, n, i);
        if (i >= n) {
            return end;
        }
        Py_UCS4 c = PyUnicode_READ(kind, data, i);
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
    Py_ssize_t start;
    if (text_arguments("overwritten_lines_end", nargs, 2, args, &n, &kind, &data) < 0 ||
        size_arguments("overwritten_lines_end", args + 1, 1, &start) < 0) {
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
termscribe_plain_overwrites_end(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    Py_ssize_t n;
    int kind;
    const char *data;
    Py_ssize_t start;
    if (text_arguments("plain_overwrites_end", nargs, 2, args, &n, &kind, &data) < 0 ||
        size_arguments("plain_overwrites_end", args + 1, 1, &start) < 0) {
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
    Py_ssize_t sizes[2];  /* start, max_params */
    if (text_arguments("overwrites_end", nargs, 3, args, &n, &kind, &data) < 0 ||
        size_arguments("overwrites_end", args + 1, 2, sizes) < 0) {
        return NULL;
    }
    Py_ssize_t end;
    BY_KIND(end, kind, overwrites_run_end, data, n, sizes[0], sizes[1]);
    return PyLong_FromSsize_t(end);
}
