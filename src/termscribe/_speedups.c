/* termscribe._speedups: optional C versions of hot string passes.
 *
 * Each function of the module (defined here, in _speedups_lines.c or in
 * _speedups_cells.c, with what they share in _speedups.h) returns exactly
 * what a pure-Python expression in the package returns (named below); the
 * package uses that expression when this module is not built, and a
 * property test holds the two equal.
 *
 * remove_inert(run, inert) ==
 *     _lines._shortcuts._sequences._REMOVED.sub("", run):
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
 * text_lines_end(text, start, max_params, tagged) ==
 * (m.end() if (m := (_grammar.TAGGED_LINES if tagged else _grammar.TEXT_LINES)
 *                    .match(text, start)) else -1):
 *   where the run of whole lines of text from ``start`` ends, ``max_params``
 *   being MAX_PARAM_CHARS. Each line is printable characters with complete
 *   SGR sequences (ESC [, at most ``max_params`` parameter characters, m)
 *   among them, then CRs, then LF. The quantifiers of the regex are all
 *   possessive and the parts of a line do not overlap, so a line either
 *   matches as this single pass reads it or ends the run there. After a
 *   line end, the parser tries this on everything that follows: an
 *   application log is one such run, which the regex engine takes a
 *   character class test at a time. With ``tagged``, complete SOS, PM and
 *   APC strings (ESC X, ESC ^ or ESC _, anything but BEL, CAN, SUB, ESC and
 *   C1, then BEL or ST) may be among the SGR sequences too: build logs tag
 *   every line with one.
 *
 * text_end(text, start, max_params) == _grammar.TEXT.match(text, start).end():
 *   where the printable text with SGR sequences among it (ESC [, at most
 *   ``max_params`` parameter characters, m) that starts at ``start`` ends,
 *   ``max_params`` being MAX_PARAM_CHARS: what the parser prints at once in
 *   GROUND (``start`` if nothing is there; the end of text if ``start`` is
 *   past it).
 *
 * overwritten_lines_end(text, start) ==
 * (m.end() if (m := _grammar.OVERWRITTEN_LINES.match(text, start)) else -1):
 *   where the run of whole lines from ``start`` ends whose text is printable
 *   characters and CRs, anywhere in the line; each ended by LF. A progress
 *   bar redrawn after CRs, line after line, is one such run.
 *
 * overlaid_lines(text, lf_returns) ==
 * _lines._shortcuts._overwrites.overlaid_lines_by_python(text, lf_returns):
 *   the lines of ``text`` (each ended by LF; what follows the last LF is
 *   not one), each as what stays visible of its texts separated by CRs
 *   printed in turn from the first column (``overlay``); None if an LF
 *   comes with no CR right before it and ``lf_returns`` is false. One pass
 *   over each line, from its end, making a string only of what stays.
 *
 * line_feeds(text, start, end) == text.count("\n", start, end):
 *   the line feeds in text[start:end] (start and end clamped as slices do,
 *   without negative indices). For a run of plain lines, committed as
 *   slices of it: each block's line count. In a string of one byte per
 *   character, memchr finds each.
 *
 * style_layout(styles) == _layouts.style_layout_by_python(styles):
 *   the layout (see _committed) of a line whose cells have the palette
 *   codes ``styles``, one a cell: "\x00" for no cells or all in code 0;
 *   else the number of runs of equal codes k, the k codes, and the lengths
 *   of the first k - 1 runs, each as a code point. Every committed line of
 *   styled output is laid out through here.
 *
 * parts_layout(texts, codes) == _layouts.parts_layout_by_python(texts, codes):
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
 * marked_cell_run_end(text, table, selectors, others, spaces) ==
 * _unicode._cell_run(True).match(text).end(): how far the code points of
 * ``text`` are SINGLE or WIDE (C0 controls and SGR sequences apart), each
 * maybe followed by one or two marks joined to it (combining marks, and
 * the variation ``selectors`` and ``others`` joiners after a join base:
 * not ASCII and not one of ``spaces``, or a digit, # or *). The sets are
 * strs, from the definitions the regex is made of.
 *
 * plain_overwrites_end(text, start) ==
 * (m.end() if (m := _grammar._PLAIN_OVERWRITES.match(text, start)) else -1):
 *   where the run of CRs, each followed by printable characters (one or
 *   more), that starts at ``start`` ends: a progress bar redrawn in place.
 *
 * overwrites_end(text, start, max_params) ==
 * (m.end() if (m := _grammar.OVERWRITES.match(text, start)) else -1), with
 * _syntax.MAX_PARAM_CHARS as max_params: where the run of CRs (or CHAs to
 * the first column), each followed by text with SGR and EL sequences in
 * it, that starts at ``start`` ends: a styled progress bar redrawn.
 *
 * without_sgr(text) == _grammar.SGR_SPLIT.sub("", text):
 *   text without its SGR sequences, as sgr_split finds them: what an
 *   unstyled transcript prints of styled text.
 *
 * sgr_split(text) == _grammar.SGR_SPLIT.split(text):
 *   text cut at each SGR sequence (ESC [, parameter characters 0-9 ; :,
 *   then m): the text before the first, then for each its parameters and
 *   the text after it. Every line of styled text is cut so.
 */
#include <string.h>

#include "_speedups.h"

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

static PyObject *
remove_inert(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    if (argument_count("remove_inert", nargs, 2) < 0) {
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
    Py_ssize_t n;
    int kind;
    const char *data;
    if (text_arguments("sequence_run_end", nargs, 4, args, &n, &kind, &data) < 0) {
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

static PyMethodDef methods[] = {
    {"remove_inert", (PyCFunction)(void (*)(void))remove_inert, METH_FASTCALL,
     "remove_inert(run, inert, /)\n--\n\n"
     "The same as _lines._shortcuts._sequences._REMOVED.sub(\"\", run):\n"
     "ST, strings aborted in a sequence run and inert C1 controls before\n"
     "printable text removed."},
    {"sequence_run_end", (PyCFunction)(void (*)(void))sequence_run_end, METH_FASTCALL,
     "sequence_run_end(text, start, max_params, max_intermediates, /)\n--\n\n"
     "Where _parser._SEQUENCE_RUN's match at start ends, or -1 without one."},
    {"text_lines_end", (PyCFunction)(void (*)(void))termscribe_text_lines_end, METH_FASTCALL,
     "text_lines_end(text, start, max_params, tagged, /)\n--\n\n"
     "Where _grammar.TEXT_LINES's (or, tagged, TAGGED_LINES's) match at start\n"
     "ends, or -1 without one."},
    {"line_feeds", (PyCFunction)(void (*)(void))termscribe_line_feeds, METH_FASTCALL,
     "line_feeds(text, start, end, /)\n--\n\n"
     "The same as text.count(\"\\n\", start, end), for start and end not negative."},
    {"style_layout", (PyCFunction)(void (*)(void))termscribe_style_layout, METH_FASTCALL,
     "style_layout(styles, /)\n--\n\n"
     "The same as _layouts.style_layout_by_python(styles): the layout of a\n"
     "line whose cells have the palette codes styles."},
    {"parts_layout", (PyCFunction)(void (*)(void))termscribe_parts_layout, METH_FASTCALL,
     "parts_layout(texts, codes, /)\n--\n\n"
     "The same as _layouts.parts_layout_by_python(texts, codes): the layout\n"
     "of a line printed as texts, each in the palette code beside it."},
    {"single_run_end", (PyCFunction)(void (*)(void))termscribe_single_run_end, METH_FASTCALL,
     "single_run_end(text, table, /)\n--\n\n"
     "The same as _unicode._single_run().match(text).end(): how far text is\n"
     "code points of one cell, stored as they are."},
    {"class_run_end", (PyCFunction)(void (*)(void))termscribe_class_run_end, METH_FASTCALL,
     "class_run_end(text, table, classes, /)\n--\n\n"
     "How far the code points of text have a class in classes, in the class\n"
     "table."},
    {"marked_cell_run_end", (PyCFunction)(void (*)(void))termscribe_marked_cell_run_end, METH_FASTCALL,
     "marked_cell_run_end(text, table, selectors, others, spaces, /)\n--\n\n"
     "How far _unicode._cell_run(True) matches text: cells, with one or two\n"
     "marks joined to a code point."},
    {"text_end", (PyCFunction)(void (*)(void))termscribe_text_end, METH_FASTCALL,
     "text_end(text, start, max_params, /)\n--\n\n"
     "Where _grammar.TEXT's match at start ends."},
    {"overwritten_lines_end", (PyCFunction)(void (*)(void))termscribe_overwritten_lines_end, METH_FASTCALL,
     "overwritten_lines_end(text, start, /)\n--\n\n"
     "Where _grammar.OVERWRITTEN_LINES's match at start ends, or -1 without one."},
    {"overlaid_lines", (PyCFunction)(void (*)(void))termscribe_overlaid_lines, METH_FASTCALL,
     "overlaid_lines(text, lf_returns, /)\n--\n\n"
     "What stays visible of each line of text redrawn after CRs, or None."},
    {"plain_overwrites_end", (PyCFunction)(void (*)(void))termscribe_plain_overwrites_end, METH_FASTCALL,
     "plain_overwrites_end(text, start, /)\n--\n\n"
     "Where _grammar._PLAIN_OVERWRITES's match at start ends, or -1 without one."},
    {"overwrites_end", (PyCFunction)(void (*)(void))termscribe_overwrites_end, METH_FASTCALL,
     "overwrites_end(text, start, max_params, /)\n--\n\n"
     "Where _grammar.OVERWRITES's match at start ends, or -1 without one."},
    {"without_sgr", (PyCFunction)(void (*)(void))termscribe_without_sgr, METH_FASTCALL,
     "without_sgr(text, /)\n--\n\n"
     "The same as _grammar.SGR_SPLIT.sub(\"\", text): text without its SGR sequences."},
    {"sgr_split", (PyCFunction)(void (*)(void))termscribe_sgr_split, METH_FASTCALL,
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
