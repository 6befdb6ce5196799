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
 * style_layout(styles) == _committed.style_layout_by_python(styles):
 *   the layout (see _committed) of a line whose cells have the palette
 *   codes ``styles``, one a cell: "\x00" for no cells or all in code 0;
 *   else the number of runs of equal codes k, the k codes, and the lengths
 *   of the first k - 1 runs, each as a code point. Every committed line of
 *   styled output is laid out through here.
 *
 * parts_layout(texts, codes) == _committed._parts_layout_by_python(texts, codes):
 *   the same layout for a line printed as the strs ``texts``, each in the
 *   palette code of the same place in ``codes`` (a sequence of one-character
 *   strs as long), without making the string of codes one a cell.
 *
 * single_run_end(text, table) == _unicode._single_run().match(text).end():
 *   how far ``text`` is printable ASCII and BMP code points of class SINGLE
 *   (one cell, stored as is): ``table`` is _unicode's class table, a str of
 *   one ASCII digit a code point ("0" for SINGLE), so that its one
 *   definition says which. Output scanned for wide characters goes through
 *   here on every print.
 *
 * class_run_end(text, table, classes) ==
 * re.compile(_unicode._table_class(classes) + "*+").match(text).end():
 *   how far the code points of ``text`` have a class in ``classes`` (a str
 *   of the digits of the classes) in the class table ``table`` (as above,
 *   one a code point, astral ones included).
 *
 * plain_overwrites_end(text, start) ==
 * (m.end() if (m := _grammar._PLAIN_OVERWRITES.match(text, start)) else -1):
 *   where the run of CRs, each followed by printable characters (one or
 *   more), that starts at ``start`` ends: a progress bar redrawn in place.
 *
 * sgr_split(text) == _grammar.SGR_SPLIT.split(text):
 *   text cut at each SGR sequence (ESC [, parameter characters 0-9 ; :,
 *   then m): the text before the first, then for each its parameters and
 *   the text after it. Every line of styled text is cut so.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
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

static PyObject *
style_layout(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 1) {
        PyErr_Format(PyExc_TypeError, "style_layout() takes 1 argument (%zd given)", nargs);
        return NULL;
    }
    Py_ssize_t n;
    int kind;
    const char *data;
    if (characters("style_layout", args[0], &n, &kind, &data) < 0) {
        return NULL;
    }
    /* First pass: the number of runs, and the largest code point the
     * layout holds. */
    Py_ssize_t runs = 0;
    Py_UCS4 maxchar = 0;
    Py_UCS4 last = 0;
    Py_ssize_t start = 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        Py_UCS4 c = PyUnicode_READ(kind, data, i);
        if (i == 0 || c != last) {
            if (i > 0 && (Py_UCS4)(i - start) > maxchar) {
                maxchar = (Py_UCS4)(i - start);
            }
            runs++;
            start = i;
            last = c;
            if (c > maxchar) {
                maxchar = c;
            }
        }
    }
    if (runs == 0 || (runs == 1 && last == 0)) {
        return PyUnicode_FromOrdinal(0);
    }
    if ((size_t)runs > 0x10FFFF || maxchar > 0x10FFFF) {
        PyErr_SetString(PyExc_ValueError, "style_layout(): a run count or length is not a code point");
        return NULL;
    }
    if ((Py_UCS4)runs > maxchar) {
        maxchar = (Py_UCS4)runs;
    }
    PyObject *out = PyUnicode_New(2 * runs, maxchar);
    if (out == NULL) {
        return NULL;
    }
    int out_kind = PyUnicode_KIND(out);
    void *out_data = PyUnicode_DATA(out);
    PyUnicode_WRITE(out_kind, out_data, 0, (Py_UCS4)runs);
    /* Second pass: each run's code after the count, and the length of each
     * but the last after the codes. */
    Py_ssize_t run = 0;
    start = 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        Py_UCS4 c = PyUnicode_READ(kind, data, i);
        if (i == 0 || c != last) {
            if (i > 0) {
                PyUnicode_WRITE(out_kind, out_data, 1 + runs + run - 1, (Py_UCS4)(i - start));
            }
            PyUnicode_WRITE(out_kind, out_data, 1 + run, c);
            run++;
            start = i;
            last = c;
        }
    }
    return out;
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

static PyObject *
sgr_split(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 1) {
        PyErr_Format(PyExc_TypeError, "sgr_split() takes 1 argument (%zd given)", nargs);
        return NULL;
    }
    Py_ssize_t n;
    int kind;
    const char *data;
    if (characters("sgr_split", args[0], &n, &kind, &data) < 0) {
        return NULL;
    }
    PyObject *text = args[0];
    PyObject *out = PyList_New(0);
    if (out == NULL) {
        return NULL;
    }
    Py_ssize_t last = 0; /* where the current text part starts */
    Py_ssize_t i = 0;
    while (i + 2 < n) {
        if (PyUnicode_READ(kind, data, i) != 0x1b || PyUnicode_READ(kind, data, i + 1) != '[') {
            i++;
            continue;
        }
        Py_ssize_t j = i + 2;
        Py_UCS4 c = 0;
        while (j < n) {
            c = PyUnicode_READ(kind, data, j);
            if (!((c >= '0' && c <= '9') || c == ';' || c == ':')) {
                break;
            }
            j++;
        }
        if (j < n && c == 'm') {
            if (append_slice(out, text, last, i) < 0 || append_slice(out, text, i + 2, j) < 0) {
                Py_DECREF(out);
                return NULL;
            }
            last = i = j + 1;
        }
        else {
            i++;
        }
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

static PyObject *
parts_layout(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 2) {
        PyErr_Format(PyExc_TypeError, "parts_layout() takes 2 arguments (%zd given)", nargs);
        return NULL;
    }
    PyObject *texts = PySequence_Fast(args[0], "parts_layout() argument 1 must be a sequence");
    if (texts == NULL) {
        return NULL;
    }
    PyObject *codes = PySequence_Fast(args[1], "parts_layout() argument 2 must be a sequence");
    if (codes == NULL) {
        Py_DECREF(texts);
        return NULL;
    }
    PyObject *out = NULL;
    Py_ssize_t count = PySequence_Fast_GET_SIZE(texts);
    Py_UCS4 *run_codes = NULL;
    Py_ssize_t *sizes = NULL;
    if (PySequence_Fast_GET_SIZE(codes) != count) {
        PyErr_SetString(PyExc_ValueError, "parts_layout(): as many codes as texts are needed");
        goto done;
    }
    run_codes = PyMem_New(Py_UCS4, count + 1);
    sizes = PyMem_New(Py_ssize_t, count + 1);
    if (run_codes == NULL || sizes == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    Py_ssize_t runs = 0;
    Py_UCS4 maxchar = 0;
    for (Py_ssize_t i = 0; i < count; i++) {
        PyObject *text = PySequence_Fast_GET_ITEM(texts, i);
        PyObject *code = PySequence_Fast_GET_ITEM(codes, i);
        if (!PyUnicode_Check(text) || !PyUnicode_Check(code) || PyUnicode_GET_LENGTH(code) != 1) {
            PyErr_SetString(PyExc_TypeError,
                            "parts_layout() takes strs and one-character strs");
            goto done;
        }
        Py_ssize_t size = PyUnicode_GET_LENGTH(text);
        if (size == 0) {
            continue;
        }
        Py_UCS4 c = PyUnicode_READ_CHAR(code, 0);
        if (runs > 0 && run_codes[runs - 1] == c) {
            sizes[runs - 1] += size;
        }
        else {
            run_codes[runs] = c;
            sizes[runs] = size;
            runs++;
            if (c > maxchar) {
                maxchar = c;
            }
        }
    }
    if (runs == 0 || (runs == 1 && run_codes[0] == 0)) {
        out = PyUnicode_FromOrdinal(0);
        goto done;
    }
    if ((Py_UCS4)runs > maxchar) {
        maxchar = (Py_UCS4)runs;
    }
    for (Py_ssize_t r = 0; r + 1 < runs; r++) {
        if (sizes[r] > 0x10FFFF) {
            PyErr_SetString(PyExc_ValueError, "parts_layout(): a run is longer than a code point");
            goto done;
        }
        if ((Py_UCS4)sizes[r] > maxchar) {
            maxchar = (Py_UCS4)sizes[r];
        }
    }
    if (runs > 0x10FFFF) {
        PyErr_SetString(PyExc_ValueError, "parts_layout(): more runs than a code point counts");
        goto done;
    }
    out = PyUnicode_New(2 * runs, maxchar);
    if (out == NULL) {
        goto done;
    }
    int kind = PyUnicode_KIND(out);
    void *data = PyUnicode_DATA(out);
    PyUnicode_WRITE(kind, data, 0, (Py_UCS4)runs);
    for (Py_ssize_t r = 0; r < runs; r++) {
        PyUnicode_WRITE(kind, data, 1 + r, run_codes[r]);
        if (r + 1 < runs) {
            PyUnicode_WRITE(kind, data, 1 + runs + r, (Py_UCS4)sizes[r]);
        }
    }
done:
    PyMem_Free(run_codes);
    PyMem_Free(sizes);
    Py_DECREF(texts);
    Py_DECREF(codes);
    return out;
}

static PyObject *
single_run_end(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 2) {
        PyErr_Format(PyExc_TypeError, "single_run_end() takes 2 arguments (%zd given)", nargs);
        return NULL;
    }
    Py_ssize_t n;
    int kind;
    const char *data;
    if (characters("single_run_end", args[0], &n, &kind, &data) < 0) {
        return NULL;
    }
    Py_ssize_t table_size;
    int table_kind;
    const char *table;
    if (characters("single_run_end", args[1], &table_size, &table_kind, &table) < 0) {
        return NULL;
    }
    if (table_kind != PyUnicode_1BYTE_KIND || table_size < 0x10000) {
        PyErr_SetString(PyExc_ValueError,
                        "single_run_end(): the table is one Latin-1 character a code point");
        return NULL;
    }
    Py_ssize_t i = 0;
    if (kind == PyUnicode_1BYTE_KIND) {
        const Py_UCS1 *chars = (const Py_UCS1 *)data;
        while (i < n && ((chars[i] >= 0x20 && chars[i] < 0x7f) ||
                         (chars[i] >= 0xa0 && table[chars[i]] == '0'))) {
            i++;
        }
    }
    else if (kind == PyUnicode_2BYTE_KIND) {
        const Py_UCS2 *chars = (const Py_UCS2 *)data;
        while (i < n && ((chars[i] >= 0x20 && chars[i] < 0x7f) ||
                         (chars[i] >= 0xa0 && table[chars[i]] == '0'))) {
            i++;
        }
    }
    else {
        const Py_UCS4 *chars = (const Py_UCS4 *)data;
        while (i < n && ((chars[i] >= 0x20 && chars[i] < 0x7f) ||
                         (chars[i] >= 0xa0 && chars[i] < 0x10000 && table[chars[i]] == '0'))) {
            i++;
        }
    }
    return PyLong_FromSsize_t(i);
}

static PyObject *
class_run_end(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 3) {
        PyErr_Format(PyExc_TypeError, "class_run_end() takes 3 arguments (%zd given)", nargs);
        return NULL;
    }
    Py_ssize_t n;
    int kind;
    const char *data;
    if (characters("class_run_end", args[0], &n, &kind, &data) < 0) {
        return NULL;
    }
    Py_ssize_t table_size;
    int table_kind;
    const char *table;
    if (characters("class_run_end", args[1], &table_size, &table_kind, &table) < 0) {
        return NULL;
    }
    if (table_kind != PyUnicode_1BYTE_KIND || table_size != 0x110000) {
        PyErr_SetString(PyExc_ValueError,
                        "class_run_end(): the table is one Latin-1 character a code point");
        return NULL;
    }
    Py_ssize_t classes_size;
    int classes_kind;
    const char *classes;
    if (characters("class_run_end", args[2], &classes_size, &classes_kind, &classes) < 0) {
        return NULL;
    }
    unsigned char wanted[256] = {0};
    for (Py_ssize_t c = 0; c < classes_size; c++) {
        Py_UCS4 digit = PyUnicode_READ(classes_kind, classes, c);
        if (digit > 0xff) {
            PyErr_SetString(PyExc_ValueError, "class_run_end(): classes are Latin-1 characters");
            return NULL;
        }
        wanted[digit] = 1;
    }
    Py_ssize_t i = 0;
    while (i < n && wanted[(unsigned char)table[PyUnicode_READ(kind, data, i)]]) {
        i++;
    }
    return PyLong_FromSsize_t(i);
}

static PyObject *
plain_overwrites_end(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 2) {
        PyErr_Format(PyExc_TypeError, "plain_overwrites_end() takes 2 arguments (%zd given)",
                     nargs);
        return NULL;
    }
    Py_ssize_t n;
    int kind;
    const char *data;
    if (characters("plain_overwrites_end", args[0], &n, &kind, &data) < 0) {
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

static PyMethodDef methods[] = {
    {"remove_inert", (PyCFunction)(void (*)(void))remove_inert, METH_FASTCALL,
     "remove_inert(run, inert, /)\n--\n\n"
     "The same as _lines_sequences._REMOVED.sub(\"\", run): ST, strings\n"
     "aborted in a sequence run and inert C1 controls before printable\n"
     "text removed."},
    {"sequence_run_end", (PyCFunction)(void (*)(void))sequence_run_end, METH_FASTCALL,
     "sequence_run_end(text, start, max_params, max_intermediates, /)\n--\n\n"
     "Where _parser._SEQUENCE_RUN's match at start ends, or -1 without one."},
    {"style_layout", (PyCFunction)(void (*)(void))style_layout, METH_FASTCALL,
     "style_layout(styles, /)\n--\n\n"
     "The same as _committed.style_layout_by_python(styles): the layout of a\n"
     "line whose cells have the palette codes styles."},
    {"parts_layout", (PyCFunction)(void (*)(void))parts_layout, METH_FASTCALL,
     "parts_layout(texts, codes, /)\n--\n\n"
     "The same as _committed._parts_layout_by_python(texts, codes): the layout\n"
     "of a line printed as texts, each in the palette code beside it."},
    {"single_run_end", (PyCFunction)(void (*)(void))single_run_end, METH_FASTCALL,
     "single_run_end(text, table, /)\n--\n\n"
     "The same as _unicode._single_run().match(text).end(): how far text is\n"
     "code points of one cell, stored as they are."},
    {"class_run_end", (PyCFunction)(void (*)(void))class_run_end, METH_FASTCALL,
     "class_run_end(text, table, classes, /)\n--\n\n"
     "How far the code points of text have a class in classes, in the class\n"
     "table."},
    {"plain_overwrites_end", (PyCFunction)(void (*)(void))plain_overwrites_end, METH_FASTCALL,
     "plain_overwrites_end(text, start, /)\n--\n\n"
     "Where _grammar._PLAIN_OVERWRITES's match at start ends, or -1 without one."},
    {"sgr_split", (PyCFunction)(void (*)(void))sgr_split, METH_FASTCALL,
     "sgr_split(text, /)\n--\n\n"
     "The same as _grammar.SGR_SPLIT.split(text): text, parameters, text, ...\n"
     "around each SGR sequence."},
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
