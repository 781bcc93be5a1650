/*
 * parlour.backgammon.native: the backgammon network's inputs in C.
 *
 * Copyright (C) The Parlour developers
 *
 * This program is free software: you can redistribute it and/or modify it under
 * the terms of the GNU General Public License as published by the Free Software
 * Foundation, either version 3 of the License, or (at your option) any later
 * version. This program is distributed in the hope that it will be useful, but
 * WITHOUT ANY WARRANTY; without even the implied warranty of MERCHANTABILITY or
 * FITNESS FOR A PARTICULAR PURPOSE. See the GNU General Public License for more
 * details. You should have received a copy of the GNU General Public License
 * along with this program. If not, see <https://www.gnu.org/licenses/>.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * What this is
 * ------------
 * parlour.backgammon.network.encode -- the board's 198 inputs -- and
 * parlour.backgammon.features -- the hand-made ones -- written again in C, the
 * same arithmetic in the same order, so that every input is the same float64 to
 * the last bit (tests/backgammon/test_features.py compares them). The numpy
 * versions work on whole batches and are the fallback; this one walks each
 * position once, which for the thousands of positions a look two throws ahead
 * meets is several times quicker.
 *
 * Input: the checker counts of n positions, 50 bytes each (the player on roll's
 * 25 counts, then the other side's, each in its own numbering, index 24 the bar).
 * Output: a bytearray of n rows of INPUTS doubles.
 */

#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <stdint.h>
#include <string.h>

#define POINTS 25 /* 24 points and the bar */
#define PER_SIDE 99
#define BOARD_INPUTS (2 * PER_SIDE)
#define FEATURES_PER_SIDE 6
#define FEATURES (2 * FEATURES_PER_SIDE + 1)
#define INPUTS (BOARD_INPUTS + FEATURES)

/* features.py's _ESCAPES: for each pattern of blocked points among the 12 ahead
 * (bit j: the point 12 - j pips ahead), the throws (of 36) a checker could play in
 * full by itself. */
static double escapes_table[1 << 12];

static int blocked_at(int window, int pips)
{
    return pips >= 1 && pips <= 12 && (window >> (12 - pips) & 1);
}

static void build_escapes(void)
{
    for (int window = 0; window < (1 << 12); window++) {
        int escapes = 0;
        for (int first = 1; first <= 6; first++) {
            for (int second = 1; second <= 6; second++) {
                int whole;
                if (first != second) {
                    whole = !blocked_at(window, first + second) &&
                            (!blocked_at(window, first) || !blocked_at(window, second));
                } else {
                    whole = 1;
                    for (int k = 1; k <= 4; k++)
                        whole = whole && !blocked_at(window, k * first);
                }
                escapes += whole;
            }
        }
        escapes_table[window] = escapes;
    }
}

/* One side's six features (features.py: features_of_counts, in its order). own:
 * the side's counts; theirs: the other side's, each in its own numbering. */
static void side_features(const uint8_t *own, const uint8_t *theirs, double *out)
{
    int64_t held = 0, made = 0, blots = 0;
    for (int i = 0; i < POINTS; i++)
        if (own[i] > 0)
            held |= (int64_t)1 << i;
    for (int q = 1; q <= 24; q++) { /* the other's checkers on our point q */
        int c = theirs[24 - q];
        if (c >= 2)
            made |= (int64_t)1 << (q - 1);
        else if (c == 1)
            blots |= (int64_t)1 << (q - 1);
    }

    /* shots: blot_ahead(d) = blots << d, open_ahead(d) = open << d */
    int64_t movers = own[24] > 0 ? (int64_t)1 << 24 : held;
    int64_t open = ~made & (((int64_t)1 << 24) - 1);
    int non_doubles = 0, doubles = 0;
    for (int high = 2; high <= 6; high++) {
        for (int low = 1; low < high; low++) {
            int64_t one_die = (blots << high) | (blots << low);
            int64_t both = (blots << (high + low)) & ((open << high) | (open << low));
            non_doubles += (movers & (one_die | both)) != 0;
        }
    }
    for (int d = 1; d <= 6; d++) {
        int64_t one = open << d, two = open << (2 * d), three = open << (3 * d);
        int64_t reach = (blots << d) | ((blots << (2 * d)) & one) |
                        ((blots << (3 * d)) & one & two) |
                        ((blots << (4 * d)) & one & two & three);
        doubles += (movers & reach) != 0;
    }
    out[0] = (double)(2 * non_doubles + doubles) / 36;

    /* escapes from every point */
    double escapes[POINTS];
    for (int p = 1; p <= POINTS; p++)
        escapes[p - 1] = escapes_table[((made << 12) >> (p - 1)) & 0xFFF];
    int rearmost = -1;
    for (int i = POINTS - 1; i >= 0; i--)
        if (own[i] > 0) {
            rearmost = i;
            break;
        }
    out[1] = rearmost >= 0 ? escapes[rearmost] / 36 : 1.0;
    double fewest = escapes[14];
    for (int i = 15; i < 24; i++)
        if (escapes[i] < fewest)
            fewest = escapes[i];
    double contained = 1 - fewest / 36;
    out[2] = contained;
    out[3] = contained * contained;

    /* pips past the other side's rearmost checker, on our point 24 - its index */
    int their_rearmost = 24; /* as numpy's argmax finds it for an empty side */
    for (int i = POINTS - 1; i >= 0; i--)
        if (theirs[i] > 0) {
            their_rearmost = i;
            break;
        }
    int64_t behind = 0, past = 24 - their_rearmost;
    for (int i = 0; i < POINTS; i++)
        if (i + 1 > past)
            behind += own[i] * (i + 1 - past);
    out[4] = (double)behind / 100;

    int home_made = 0;
    for (int i = 0; i < 6; i++)
        home_made += theirs[i] >= 2;
    double entry = (double)home_made / 6;
    out[5] = entry * entry;
}

static void board_inputs(const uint8_t *counts, double *out)
{
    int total = 0, pips = 0;
    for (int i = 0; i < 24; i++) {
        int c = counts[i];
        out[4 * i] = c >= 1;
        out[4 * i + 1] = c >= 2;
        out[4 * i + 2] = c >= 3;
        out[4 * i + 3] = c > 3 ? (double)(c - 3) / 2 : 0.0;
        total += c;
        pips += c * (i + 1);
    }
    total += counts[24];
    pips += counts[24] * 25;
    out[96] = (double)counts[24] / 2;
    out[97] = (double)(15 - total) / 15;
    out[98] = (double)pips / 100;
}

static PyObject *native_inputs(PyObject *self, PyObject *arg)
{
    Py_buffer view;
    if (PyObject_GetBuffer(arg, &view, PyBUF_SIMPLE) < 0)
        return NULL;
    if (view.len % (2 * POINTS) != 0) {
        PyBuffer_Release(&view);
        PyErr_SetString(PyExc_ValueError, "the counts are not 50 bytes a position");
        return NULL;
    }
    const uint8_t *counts = view.buf;
    for (Py_ssize_t i = 0; i < view.len; i++)
        if (counts[i] > 15) {
            PyBuffer_Release(&view);
            PyErr_SetString(PyExc_ValueError, "a point holds more than 15 checkers");
            return NULL;
        }
    Py_ssize_t n = view.len / (2 * POINTS);
    PyObject *result = PyByteArray_FromStringAndSize(NULL, n * INPUTS * (Py_ssize_t)sizeof(double));
    if (result == NULL) {
        PyBuffer_Release(&view);
        return NULL;
    }
    double *rows = (double *)PyByteArray_AS_STRING(result);
    for (Py_ssize_t k = 0; k < n; k++) {
        const uint8_t *mover = counts + k * 2 * POINTS, *other = mover + POINTS;
        double *row = rows + k * INPUTS;
        board_inputs(mover, row);
        board_inputs(other, row + PER_SIDE);
        side_features(mover, other, row + BOARD_INPUTS);
        side_features(other, mover, row + BOARD_INPUTS + FEATURES_PER_SIDE);
        row[INPUTS - 1] = row[BOARD_INPUTS + 4] > 0;
    }
    PyBuffer_Release(&view);
    return result;
}

static PyMethodDef native_methods[] = {
    {"inputs", native_inputs, METH_O,
     "inputs(counts, /)\n--\n\nThe network's inputs of positions given as 50 counts "
     "each: a bytearray of float64 rows."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef native_module = {
    PyModuleDef_HEAD_INIT, "parlour.backgammon.native",
    "The backgammon network's inputs in C (native.c).", -1, native_methods,
};

PyMODINIT_FUNC PyInit_native(void)
{
    build_escapes();
    PyObject *module = PyModule_Create(&native_module);
    if (module == NULL)
        return NULL;
    if (PyModule_AddIntConstant(module, "INPUTS", INPUTS) < 0) {
        Py_DECREF(module);
        return NULL;
    }
    return module;
}
