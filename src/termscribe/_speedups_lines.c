/* termscribe._speedups: lines of text and SGR sequences (what each returns:
 * see _speedups.c). */
#include "_speedups.h"

/* The end of the run of whole lines of text from i, or -1 (see
 * text_lines_end). Inlined for each string kind, so that the loop over
 * printable characters reads them at a constant width. */
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


/* Where the CSI sequence whose body starts at i ends (after its final), or
 * -1: an optional private marker, at most max_params parameter characters,
 * at most max_intermediates intermediates, a final. With ``not_sgr``, an
 * SGR (no private marker or intermediates, final m) is not one: it belongs
 * to the text of a batch. */
static inline Py_ALWAYS_INLINE Py_ssize_t
csi_body_end(int kind, const void *data, Py_ssize_t n, Py_ssize_t i, Py_ssize_t max_params,
             Py_ssize_t max_intermediates, int not_sgr)
{
    int private = 0;
    if (i < n) {
        Py_UCS4 c = PyUnicode_READ(kind, data, i);
        if (c >= 0x3c && c <= 0x3f) {
            private = 1;
            i++;
        }
    }
    i = params_end(kind, data, n, i, max_params);
    Py_ssize_t intermediates = 0;
    while (i < n && intermediates < max_intermediates) {
        Py_UCS4 c = PyUnicode_READ(kind, data, i);
        if (c < 0x20 || c > 0x2f) {
            break;
        }
        i++;
        intermediates++;
    }
    if (i >= n) {
        return -1;
    }
    Py_UCS4 final = PyUnicode_READ(kind, data, i);
    if (final < 0x40 || final > 0x7e) {
        return -1;
    }
    if (not_sgr && final == 'm' && !private && !intermediates) {
        return -1;
    }
    return i + 1;
}

/* Where the string whose payload starts at i ends (after its BEL or ST), or
 * -1: payload characters for which ``allowed`` holds, at most ``max_chars``
 * of them, then BEL or ESC \. */
static inline Py_ALWAYS_INLINE Py_ssize_t
string_end(int kind, const void *data, Py_ssize_t n, Py_ssize_t i, Py_ssize_t max_chars, int osc)
{
    Py_ssize_t limit = max_chars < n - i ? i + max_chars : n;
    while (i < limit) {
        Py_UCS4 c = PyUnicode_READ(kind, data, i);
        if (c >= 0x80 && c <= 0x9f) {
            return -1;
        }
        if (osc ? c < 0x20 : (c == 0x07 || c == 0x18 || c == 0x1a || c == 0x1b)) {
            break;
        }
        i++;
    }
    if (i >= n) {
        return -1;
    }
    Py_UCS4 c = PyUnicode_READ(kind, data, i);
    if (c == 0x07) {
        return i + 1;
    }
    if (c == 0x1b && i + 1 < n && PyUnicode_READ(kind, data, i + 1) == '\\') {
        return i + 2;
    }
    return -1;
}

/* Where the item of a batch at i ends (see _grammar.BATCH_ITEM), or -1. */
static inline Py_ALWAYS_INLINE Py_ssize_t
batch_item_end(int kind, const void *data, Py_ssize_t n, Py_ssize_t i, Py_ssize_t max_params,
               Py_ssize_t max_intermediates, Py_ssize_t max_string)
{
    Py_UCS4 c = PyUnicode_READ(kind, data, i);
    if (c == 0x1b) {
        if (i + 1 >= n) {
            return -1;
        }
        Py_UCS4 d = PyUnicode_READ(kind, data, i + 1);
        if (d == '[') {
            return csi_body_end(kind, data, n, i + 2, max_params, max_intermediates, 1);
        }
        if (d == ']') {
            return string_end(kind, data, n, i + 2, max_string, 1);
        }
        if (d == 'X' || d == '^' || d == '_') {
            return string_end(kind, data, n, i + 2, PY_SSIZE_T_MAX, 0);
        }
        if (d >= 0x20 && d <= 0x2f) {  /* one intermediate, then any final */
            if (i + 2 < n) {
                Py_UCS4 f = PyUnicode_READ(kind, data, i + 2);
                if (f >= 0x30 && f <= 0x7e) {
                    return i + 3;
                }
            }
            return -1;
        }
        if ((d >= 0x30 && d <= 0x3f) || (d >= 0x60 && d <= 0x7e)) {
            return i + 2;
        }
        return -1;
    }
    if (c == 0x9b) {
        return csi_body_end(kind, data, n, i + 1, max_params, max_intermediates, 0);
    }
    if (c < 0x20) {
        return c == 0x18 || c == 0x1a ? -1 : i + 1;
    }
    if (c >= 0x80 && c <= 0x9f) {
        return c == 0x90 || c == 0x98 || c >= 0x9c ? -1 : i + 1;
    }
    return -1;
}

/* batch_parts of text from start, whose characters are data (n of them, of
 * kind). */
static inline Py_ALWAYS_INLINE PyObject *
scan_batch(int kind, const void *data, Py_ssize_t n, PyObject *text, Py_ssize_t start,
           Py_ssize_t max_params, Py_ssize_t max_intermediates, Py_ssize_t max_string)
{
    PyObject *parts = PyList_New(0);
    if (parts == NULL) {
        return NULL;
    }
    Py_ssize_t text_start = start;
    Py_ssize_t i = start;
    for (;;) {
        i = printable_end(kind, data, n, i, max_params);
        if (i >= n) {
            break;
        }
        Py_ssize_t end =
            batch_item_end(kind, data, n, i, max_params, max_intermediates, max_string);
        if (end < 0) {
            break;
        }
        if (append_slice(parts, text, text_start, i) < 0 || append_slice(parts, text, i, end) < 0) {
            Py_DECREF(parts);
            return NULL;
        }
        i = text_start = end;
    }
    if (i == start) {
        Py_DECREF(parts);
        return Py_BuildValue("(n[])", start);
    }
    if (append_slice(parts, text, text_start, i) < 0) {
        Py_DECREF(parts);
        return NULL;
    }
    PyObject *result = Py_BuildValue("(nN)", i, parts);
    return result;
}

PyObject *
termscribe_batch_parts(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    Py_ssize_t n;
    int kind;
    const char *data;
    Py_ssize_t sizes[4];  /* start, max_params, max_intermediates, max_string */
    if (text_arguments("batch_parts", nargs, 5, args, &n, &kind, &data) < 0 ||
        size_arguments("batch_parts", args + 1, 4, sizes) < 0) {
        return NULL;
    }
    Py_ssize_t start = sizes[0] < n ? sizes[0] : n;
    PyObject *result;
    BY_KIND(result, kind, scan_batch, data, n, args[0], start, sizes[1], sizes[2], sizes[3]);
    return result;
}
