/* termscribe._speedups: optional C versions of hot string passes.
 *
 * Each function here returns exactly what a pure-Python expression in the
 * package returns (named below); the package uses that expression when this
 * module is not built, and a property test holds the two equal.
 *
 * remove_inert(run, inert) == _lines_sequences._REMOVED.sub("", run):
 *   in a sequence run, what does nothing in the lines and strip models is
 *   removed: ST (U+009C); a string started by DCS, SOS, OSC, PM or APC
 *   (U+0090, U+0098, U+009D-U+009F) with the printable characters after it;
 *   and a run of inert C1 controls when a printable character follows it.
 *   Which C1 controls are inert is ``inert``, a mask of 32 bits (bit i for
 *   U+0080 + i: _controls.INERT_C1_MASK), so that _controls' table is the
 *   one place that says it. Printable means anything but C0, DEL and C1.
 *   A flood of C1 controls has one of these every few characters, which
 *   the regex engine takes a match at a time.
 *
 * sequence_run_end(text, start, max_params, max_intermediates) ==
 * (m.end() if (m := _parser._SEQUENCE_RUN.match(text, start)) else -1):
 *   where the run of two or more sequence-run items from ``start`` ends (see
 *   _parser._sequence_item), ``max_params`` and ``max_intermediates`` being
 *   MAX_PARAM_CHARS and MAX_INTERMEDIATES. Each item is one of: a CSI
 *   sequence (ESC [ or U+009B, a private marker, parameter characters,
 *   intermediates, a final), a C1 control that is executed, ST, or a string
 *   started by a C1 control with printable characters after it and a C1
 *   control other than ST next; then the printable characters after it.
 *   The character sets of the parts do not overlap, so the regex never
 *   backtracks into an item, and this scan does not need to either.
 *
 * text_lines_end(text, start, max_params) ==
 * (m.end() if (m := _grammar.TEXT_LINES.match(text, start)) else -1):
 *   where the run of whole lines of text from ``start`` ends, ``max_params``
 *   being MAX_PARAM_CHARS. Each line is printable characters with complete
 *   SGR sequences (ESC [, at most ``max_params`` parameter characters, m)
 *   among them, then CRs, then LF. The quantifiers of the regex are all
 *   possessive and the parts of a line do not overlap, so a line either
 *   matches as this single pass reads it or ends the run there. After a
 *   line end, the parser tries this on everything that follows: an
 *   application log is one such run, which the regex engine takes a
 *   character class test at a time.
 *
 * line_feeds(text, start, end) == text.count("\n", start, end):
 *   the line feeds in text[start:end] (start and end clamped as slices do,
 *   without negative indices). For a run of plain lines, committed as
 *   slices of it: each block's line count. In a string of one byte per
 *   character, memchr finds each.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

static int
is_printable(Py_UCS4 c)
{
    return c > 0x9f || (c >= 0x20 && c < 0x7f);
}

/* Whether C1 control c is inert: its bit in mask (see remove_inert). */
static int
is_inert(Py_UCS4 c, unsigned long mask)
{
    return c >= 0x80 && c <= 0x9f && ((mask >> (c - 0x80)) & 1);
}

static int
starts_string(Py_UCS4 c)
{
    return c == 0x90 || c == 0x98 || c == 0x9d || c == 0x9e || c == 0x9f;
}

/* The characters of ``text``, a str argument of function ``name``: their
 * number, their width in bytes and where they are. Returns -1 with an
 * exception set if ``text`` is not a str. */
static int
characters(const char *name, PyObject *text, Py_ssize_t *n, int *kind, const char **data)
{
    if (!PyUnicode_Check(text)) {
        PyErr_Format(PyExc_TypeError, "%s() argument 1 must be str, not %.100s", name,
                     Py_TYPE(text)->tp_name);
        return -1;
    }
#if PY_VERSION_HEX < 0x030C0000
    if (PyUnicode_READY(text) < 0) {
        return -1;
    }
#endif
    *n = PyUnicode_GET_LENGTH(text);
    *kind = PyUnicode_KIND(text);
    *data = PyUnicode_DATA(text);
    return 0;
}

static PyObject *
remove_inert(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 2) {
        PyErr_Format(PyExc_TypeError, "remove_inert() takes 2 arguments (%zd given)", nargs);
        return NULL;
    }
    PyObject *arg = args[0];
    Py_ssize_t n;
    int kind;
    const char *data;
    if (characters("remove_inert", arg, &n, &kind, &data) < 0) {
        return NULL;
    }
    unsigned long mask = PyLong_AsUnsignedLong(args[1]);
    if (mask == (unsigned long)-1 && PyErr_Occurred()) {
        return NULL;
    }
    if (mask > 0xffffffffUL) {
        PyErr_SetString(PyExc_ValueError, "remove_inert() mask must fit in 32 bits");
        return NULL;
    }
    char *out = NULL;  /* allocated at the first removal */
    Py_ssize_t kept = 0;  /* characters written to out */
    Py_ssize_t copied = 0;  /* characters of arg accounted for */
    Py_ssize_t i = 0;
    while (i < n) {
        Py_UCS4 c = PyUnicode_READ(kind, data, i);
        if (c < 0x80 || c > 0x9f) {
            i++;
            continue;
        }
        Py_ssize_t end;  /* of what is removed from i, or i if nothing is */
        if (c == 0x9c) {
            end = i + 1;
        }
        else if (starts_string(c)) {
            end = i + 1;
            while (end < n && is_printable(PyUnicode_READ(kind, data, end))) {
                end++;
            }
        }
        else if (is_inert(c, mask)) {
            end = i + 1;
            while (end < n && is_inert(PyUnicode_READ(kind, data, end), mask)) {
                end++;
            }
            if (end == n || !is_printable(PyUnicode_READ(kind, data, end))) {
                i = end;  /* kept: no printable character follows */
                continue;
            }
        }
        else {
            i++;  /* a C1 control that acts, or CSI */
            continue;
        }
        if (out == NULL) {
            out = PyMem_Malloc(n * kind);
            if (out == NULL) {
                return PyErr_NoMemory();
            }
        }
        memcpy(out + kept * kind, data + copied * kind, (i - copied) * kind);
        kept += i - copied;
        copied = i = end;
    }
    if (out == NULL) {
        return Py_NewRef(arg);
    }
    memcpy(out + kept * kind, data + copied * kind, (n - copied) * kind);
    kept += n - copied;
    PyObject *result = PyUnicode_FromKindAndData(kind, out, kept);
    PyMem_Free(out);
    return result;
}

/* The end of the sequence-run item at i (before the text after it), or -1. */
static Py_ssize_t
item_end(int kind, const void *data, Py_ssize_t n, Py_ssize_t i, Py_ssize_t max_params,
         Py_ssize_t max_intermediates)
{
    Py_UCS4 c = PyUnicode_READ(kind, data, i);
    Py_ssize_t j = i + 1;
    if (c == 0x1b || c == 0x9b) {
        if (c == 0x1b) {
            if (j >= n || PyUnicode_READ(kind, data, j) != '[') {
                return -1;
            }
            j++;
        }
        if (j < n) {
            c = PyUnicode_READ(kind, data, j);
            if (c >= '<' && c <= '?') {
                j++;  /* private marker */
            }
        }
        Py_ssize_t limit = j + max_params;
        while (j < n && j < limit) {
            c = PyUnicode_READ(kind, data, j);
            if (!((c >= '0' && c <= '9') || c == ':' || c == ';')) {
                break;
            }
            j++;
        }
        limit = j + max_intermediates;
        while (j < n && j < limit) {
            c = PyUnicode_READ(kind, data, j);
            if (c < 0x20 || c > 0x2f) {
                break;
            }
            j++;
        }
        if (j < n) {
            c = PyUnicode_READ(kind, data, j);
            if (c >= 0x40 && c <= 0x7e) {
                return j + 1;
            }
        }
        return -1;
    }
    if (c == 0x9c || (c >= 0x80 && c <= 0x9a && c != 0x90 && c != 0x98)) {
        return j;  /* ST, or a C1 control executed */
    }
    if (starts_string(c)) {
        while (j < n && is_printable(PyUnicode_READ(kind, data, j))) {
            j++;
        }
        if (j < n) {
            c = PyUnicode_READ(kind, data, j);
            if (c >= 0x80 && c <= 0x9f && c != 0x9c) {
                return j;  /* aborted by a C1 control */
            }
        }
    }
    return -1;
}

static PyObject *
sequence_run_end(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 4) {
        PyErr_Format(PyExc_TypeError, "sequence_run_end() takes 4 arguments (%zd given)",
                     nargs);
        return NULL;
    }
    Py_ssize_t n;
    int kind;
    const char *data;
    if (characters("sequence_run_end", args[0], &n, &kind, &data) < 0) {
        return NULL;
    }
    Py_ssize_t start = PyLong_AsSsize_t(args[1]);
    Py_ssize_t max_params = PyLong_AsSsize_t(args[2]);
    Py_ssize_t max_intermediates = PyLong_AsSsize_t(args[3]);
    if (PyErr_Occurred()) {
        return NULL;
    }
    if (start < 0 || max_params < 0 || max_intermediates < 0) {
        PyErr_SetString(PyExc_ValueError, "sequence_run_end() arguments must not be negative");
        return NULL;
    }
    Py_ssize_t pos = start;
    Py_ssize_t items = 0;
    while (pos < n) {
        Py_ssize_t end = item_end(kind, data, n, pos, max_params, max_intermediates);
        if (end < 0) {
            break;
        }
        while (end < n && is_printable(PyUnicode_READ(kind, data, end))) {
            end++;
        }
        pos = end;
        items++;
    }
    return PyLong_FromSsize_t(items >= 2 ? pos : -1);
}

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

/* The end of the run of whole lines of text from i, or -1 (see
 * text_lines_end). Inlined for each string kind, so that the loop over
 * printable characters reads them at a constant width. */
static inline Py_ssize_t
lines_end(int kind, const void *data, Py_ssize_t n, Py_ssize_t i, Py_ssize_t max_params)
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
            /* An SGR sequence, or the line is not one of the run. */
            Py_ssize_t j = i + 1;
            if (j >= n || PyUnicode_READ(kind, data, j) != '[') {
                return end;
            }
            j++;
            Py_ssize_t limit = j + max_params;
            while (j < n && j < limit) {
                c = PyUnicode_READ(kind, data, j);
                if (!((c >= '0' && c <= '9') || c == ':' || c == ';')) {
                    break;
                }
                j++;
            }
            if (j >= n || PyUnicode_READ(kind, data, j) != 'm') {
                return end;
            }
            i = j + 1;
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

static PyObject *
text_lines_end(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 3) {
        PyErr_Format(PyExc_TypeError, "text_lines_end() takes 3 arguments (%zd given)", nargs);
        return NULL;
    }
    Py_ssize_t n;
    int kind;
    const char *data;
    if (characters("text_lines_end", args[0], &n, &kind, &data) < 0) {
        return NULL;
    }
    Py_ssize_t start = PyLong_AsSsize_t(args[1]);
    Py_ssize_t max_params = PyLong_AsSsize_t(args[2]);
    if (PyErr_Occurred()) {
        return NULL;
    }
    if (start < 0 || max_params < 0) {
        PyErr_SetString(PyExc_ValueError, "text_lines_end() arguments must not be negative");
        return NULL;
    }
    Py_ssize_t end;
    switch (kind) {
    case PyUnicode_1BYTE_KIND:
        end = lines_end(PyUnicode_1BYTE_KIND, data, n, start, max_params);
        break;
    case PyUnicode_2BYTE_KIND:
        end = lines_end(PyUnicode_2BYTE_KIND, data, n, start, max_params);
        break;
    default:
        end = lines_end(PyUnicode_4BYTE_KIND, data, n, start, max_params);
        break;
    }
    return PyLong_FromSsize_t(end);
}

static PyObject *
line_feeds(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 3) {
        PyErr_Format(PyExc_TypeError, "line_feeds() takes 3 arguments (%zd given)", nargs);
        return NULL;
    }
    Py_ssize_t n;
    int kind;
    const char *data;
    if (characters("line_feeds", args[0], &n, &kind, &data) < 0) {
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

static PyMethodDef methods[] = {
    {"remove_inert", (PyCFunction)(void (*)(void))remove_inert, METH_FASTCALL,
     "remove_inert(run, inert, /)\n--\n\n"
     "The same as _lines_sequences._REMOVED.sub(\"\", run): ST, strings\n"
     "aborted in a sequence run and inert C1 controls before printable\n"
     "text removed."},
    {"sequence_run_end", (PyCFunction)(void (*)(void))sequence_run_end, METH_FASTCALL,
     "sequence_run_end(text, start, max_params, max_intermediates, /)\n--\n\n"
     "Where _parser._SEQUENCE_RUN's match at start ends, or -1 without one."},
    {"text_lines_end", (PyCFunction)(void (*)(void))text_lines_end, METH_FASTCALL,
     "text_lines_end(text, start, max_params, /)\n--\n\n"
     "Where _grammar.TEXT_LINES's match at start ends, or -1 without one."},
    {"line_feeds", (PyCFunction)(void (*)(void))line_feeds, METH_FASTCALL,
     "line_feeds(text, start, end, /)\n--\n\n"
     "The same as text.count(\"\\n\", start, end), for start and end not negative."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "termscribe._speedups",
    .m_doc = "Optional C versions of hot string passes (see _accel).",
    .m_size = 0,
    .m_methods = methods,
};

PyMODINIT_FUNC
PyInit__speedups(void)
{
    return PyModule_Create(&module);
}
