/* termscribe._speedups: lines of text and SGR sequences (what each returns:
 * see _speedups.c). */
#include "_speedups.h"

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
            i = printable_run_end(kind, data, n, i);
            if (i >= n) {
                return end;
            }
            c = PyUnicode_READ(kind, data, i);
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
    Py_ssize_t sizes[2];  /* start, max_params */
    if (text_arguments("text_lines_end", nargs, 4, args, &n, &kind, &data) < 0 ||
        size_arguments("text_lines_end", args + 1, 2, sizes) < 0) {
        return NULL;
    }
    int tagged = PyObject_IsTrue(args[3]);
    if (tagged < 0) {
        return NULL;
    }
    Py_ssize_t end;
    BY_KIND(end, kind, lines_end, data, n, sizes[0], sizes[1], tagged);
    return PyLong_FromSsize_t(end);
}

/* Where the printable text (with SGR sequences among it) from i ends (see
 * text_end). */
static inline Py_ssize_t
printable_end(int kind, const void *data, Py_ssize_t n, Py_ssize_t i, Py_ssize_t max_params)
{
    for (;;) {
        i = printable_run_end(kind, data, n, i);
        if (i >= n) {
            return i;
        }
        Py_ssize_t m = sgr_params_end(kind, data, n, i, max_params);
        if (m < 0) {
            return i;
        }
        i = m + 1;
    }
}

PyObject *
termscribe_text_end(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    Py_ssize_t n;
    int kind;
    const char *data;
    Py_ssize_t sizes[2];  /* start, max_params */
    if (text_arguments("text_end", nargs, 3, args, &n, &kind, &data) < 0 ||
        size_arguments("text_end", args + 1, 2, sizes) < 0) {
        return NULL;
    }
    Py_ssize_t start = sizes[0], max_params = sizes[1];
    if (start > n) {
        return PyLong_FromSsize_t(n);  /* as the regex: pos is clamped to the end */
    }
    Py_ssize_t end;
    BY_KIND(end, kind, printable_end, data, n, start, max_params);
    return PyLong_FromSsize_t(end);
}


PyObject *
termscribe_line_feeds(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    Py_ssize_t n;
    int kind;
    const char *data;
    Py_ssize_t sizes[2];  /* start, end */
    if (text_arguments("line_feeds", nargs, 3, args, &n, &kind, &data) < 0 ||
        size_arguments("line_feeds", args + 1, 2, sizes) < 0) {
        return NULL;
    }
    Py_ssize_t start = sizes[0], end = sizes[1];
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
