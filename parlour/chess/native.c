/*
 * parlour.chess.native: the chess search in C.
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
 * The hot part of the chess engine's search -- parlour.chess.engine.Searcher's
 * _root, _root_exact, _pv and everything they call (_search, _search_later,
 * _probe, _ordered, _before_moves, the null move, _quiesce and its evasions,
 * _delta, _blend with pawn_structure, the draw tests) -- written again in C over
 * a copy of parlour.chess.board.ChessBoard (the 10x12 mailbox, its legal move
 * generator, make and unmake, the attack test) and ChessState's test of
 * insufficient material. It is the same algorithm in the same order: the moves
 * are generated in the order of ChessBoard.generate, sorted as Python sorts its
 * (key, (from, to, flag)) tuples, and the nodes are counted where the Python
 * counts them, so at a fixed depth the two visit the same nodes and return the
 * same move, score, node count and principal variation. Each part below names
 * the Python it mirrors. Where the C does the same thing a quicker way (the
 * squares of each side's pieces kept as sets, whether a move gives check found
 * from the move, the moves sorted by one packed number) its comment says so.
 *
 * The iterative deepening, the time management, MultiPV and the result stay in
 * Python (Searcher.search, run by engine.NativeSearcher): it loads the position
 * here (begin) and asks for one iteration's root search at a time.
 *
 * No number of the evaluation is written here: the engine hands its tables over
 * (engine.native_tables: the Zobrist keys, piece-square tables, phases, ordering
 * values, castling cells, pawn-structure terms and margins).
 *
 * Moves are the board's internal tuples (from cell, to cell, flag), packed as
 * from << 16 | to << 8 | flag so that comparing two packed moves compares the
 * tuples. The transposition table is keyed by the full 64-bit Zobrist hash, as
 * the Python dict is, in an open-addressing table that grows and never evicts
 * (it is cleared at the start of a search when it holds more than hash_entries
 * positions, as the Python does) until it holds table_ceiling positions; past
 * that a new position takes the place of the one in its first slot, where the
 * Python stores no new one (engine.TABLE_CEILING says why). The pawn-structure
 * table is only a cache.
 *
 * The search releases the GIL while it runs; it takes it back now and then to
 * ask the stop event (check_limits says when).
 */

#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* -- the search's constants (parlour/chess/engine.py; checked against the tables) -- */

#define MATE 100000
#define MATE_BOUND (MATE - 1000)
#define INFINITY_SCORE (MATE + 1)
enum { EXACT = 0, LOWER = 1, UPPER = 2 };
#define MAX_PLY 100
#define MAX_MOVES 256

/* -- the board (parlour/chess/board.py) ------------------------------------------- */

enum { EMPTY = 0, PAWN = 1, KNIGHT = 2, BISHOP = 3, ROOK = 4, QUEEN = 5, KING = 6 };
enum { WHITE = 8, BLACK = 16, OFF = 32 };
enum { NORMAL = 0, DOUBLE_STEP = 1, EN_PASSANT = 2, CASTLE = 3, PROMOTE = 10 };
enum { WHITE_KINGSIDE = 1, WHITE_QUEENSIDE = 2, BLACK_KINGSIDE = 4, BLACK_QUEENSIDE = 8 };
enum { A1 = 21, B1 = 22, C1 = 23, D1 = 24, E1 = 25, F1 = 26, G1 = 27, H1 = 28 };
enum { A8 = 91, B8 = 92, C8 = 93, D8 = 94, E8 = 95, F8 = 96, G8 = 97, H8 = 98 };

static const int ROOK_DIRS[4] = {10, -10, 1, -1};
static const int BISHOP_DIRS[4] = {11, 9, -9, -11};
static const int QUEEN_DIRS[8] = {10, -10, 1, -1, 11, 9, -9, -11};
static const int KNIGHT_DIRS[8] = {21, 19, 12, 8, -8, -12, -19, -21};
static const int PROMOTION_ORDER[4] = {QUEEN, ROOK, BISHOP, KNIGHT};

static int CELL[64];
static int RANK_OF[120]; /* -1 on the border */
static int FILE_OF[120];
static int SQUARE_OF[120]; /* 0-63, a1 = 0, h8 = 63; -1 on the border */
#define SQUARE_BIT(cell) ((uint64_t)1 << SQUARE_OF[cell])
/* By the difference of two cells plus 77: the queen's step that leads from the first
 * towards the second along a line, or 0. On the 10x12 board a difference can also
 * join two cells on no line, so a walk along the step confirms it: it meets the
 * border first. */
static int LINE[155];
/* By square (0-63): the squares along each of QUEEN_DIRS to the border (RAYS), and
 * those a knight or a king there reaches. Against a side's set of squares they say
 * at once that no piece of that side stands where it could attack, which spares
 * the walk or the look at each square (the sets are Position.men). */
static uint64_t RAYS[64][8];
static uint64_t KNIGHT_SQUARES[64];
static uint64_t KING_SQUARES[64];

typedef uint32_t Move; /* from << 16 | to << 8 | flag; 0 is no move */
#define MOVE(fr, to, flag) ((Move)(fr) << 16 | (Move)(to) << 8 | (Move)(flag))
#define MOVE_FROM(m) ((int)((m) >> 16))
#define MOVE_TO(m) ((int)((m) >> 8 & 255))
#define MOVE_FLAG(m) ((int)((m) & 255))

/* -- the tables handed over by engine.native_tables -------------------------------- */

#define KPK_BYTES (2 * 24 * 64 * 64 / 8)

typedef struct {
    uint64_t zobrist[32][120];
    uint64_t zobrist_castling[16];
    uint64_t zobrist_ep[120];
    uint64_t zobrist_black;
    int pst_mg[32][120];
    int pst_eg[32][120];
    int piece_phase[32];
    int order_value[32];
    int castling_kept[120];
    int castling_rook_from[120]; /* by the king's destination; 0 elsewhere */
    int castling_rook_to[120];
    int passed_mg[8];
    int passed_eg[8];
    int doubled_mg, doubled_eg, isolated_mg, isolated_eg;
    int tempo;
    int futility_margin;
    int late_move_count[4];
    int ending_worth[8];
    /* engine.py's ENDING_PHASE, SCALE_... and MOP_UP_..., handed over as "ending" */
    int ending_phase, scale_cannot_win, scale_minor_ahead, scale_opposite_bishops;
    int mop_up_edge, mop_up_corner, mop_up_kings, kpk_won;
    /* endgame.py's database of king and pawn against king, handed over as "kpk" */
    unsigned char kpk[KPK_BYTES];
} Tables;

static Tables T;
static int tables_loaded = 0;

static void
init_board(void)
{
    for (int c = 0; c < 120; c++)
        RANK_OF[c] = FILE_OF[c] = SQUARE_OF[c] = -1;
    for (int sq = 0; sq < 64; sq++) {
        CELL[sq] = 21 + (sq & 7) + 10 * (sq >> 3);
        SQUARE_OF[CELL[sq]] = sq;
        RANK_OF[CELL[sq]] = sq >> 3;
        FILE_OF[CELL[sq]] = sq & 7;
    }
    for (int i = 0; i < 8; i++) {
        for (int k = 1; k <= 7; k++)
            LINE[77 + k * QUEEN_DIRS[i]] = QUEEN_DIRS[i];
    }
    for (int sq = 0; sq < 64; sq++) {
        int cell = CELL[sq];
        for (int i = 0; i < 8; i++) {
            for (int t = cell + QUEEN_DIRS[i]; SQUARE_OF[t] >= 0; t += QUEEN_DIRS[i])
                RAYS[sq][i] |= (uint64_t)1 << SQUARE_OF[t];
            if (SQUARE_OF[cell + QUEEN_DIRS[i]] >= 0)
                KING_SQUARES[sq] |= (uint64_t)1 << SQUARE_OF[cell + QUEEN_DIRS[i]];
            if (SQUARE_OF[cell + KNIGHT_DIRS[i]] >= 0)
                KNIGHT_SQUARES[sq] |= (uint64_t)1 << SQUARE_OF[cell + KNIGHT_DIRS[i]];
        }
    }
}

/* -- the position: ChessBoard's fields and its stack ------------------------------ */

/* board.py's stack entries: (move, captured piece, castling, ep, halfmove, hash).
 * The game's own moves before the search are loaded with their hashes only: the
 * search never takes them back, it only reads their hashes (repetitions). */
typedef struct {
    Move move;
    int captured;
    int castling;
    int ep;
    int halfmove;
    uint64_t hash;
    uint64_t men[2]; /* Position.men before the move (make sets it; unmake reads it) */
} Undo;

typedef struct {
    int b[120];
    int color;
    int kings[2]; /* by colour >> 4: White 0, Black 1 */
    /* The squares each side's pieces stand on (by colour >> 4, a bit a square, a1
     * the lowest), kept up by make and unmake: the move generator walks them in
     * the board's order instead of looking at all 64 squares. Not in board.py. */
    uint64_t men[2];
    int castling;
    int ep;
    int halfmove;
    uint64_t hash;
    Undo *stack;
    int stack_len;
    int stack_cap;
} Position;

/* ChessBoard.attacked */
static int
attacked(const Position *p, int cell, int by)
{
    const int *b = p->b;
    if (by == WHITE) {
        if (b[cell - 9] == (WHITE | PAWN) || b[cell - 11] == (WHITE | PAWN))
            return 1;
    } else if (b[cell + 9] == (BLACK | PAWN) || b[cell + 11] == (BLACK | PAWN)) {
        return 1;
    }
    /* A set may hold more than the board (en passant's test lifts a pawn off the
     * board alone): it only ever spares a look where no piece of the side can be. */
    uint64_t theirs = p->men[by >> 4];
    int sq = SQUARE_OF[cell];
    int knight = by | KNIGHT, king = by | KING;
    if (KNIGHT_SQUARES[sq] & theirs)
        for (int i = 0; i < 8; i++)
            if (b[cell + KNIGHT_DIRS[i]] == knight)
                return 1;
    if (KING_SQUARES[sq] & theirs)
        for (int i = 0; i < 8; i++)
            if (b[cell + QUEEN_DIRS[i]] == king)
                return 1;
    int rook = by | ROOK, queen = by | QUEEN, bishop = by | BISHOP;
    for (int i = 0; i < 8; i++) { /* QUEEN_DIRS: the rook's four, then the bishop's */
        if (!(RAYS[sq][i] & theirs))
            continue;
        int d = QUEEN_DIRS[i], t = cell + d;
        while (b[t] == EMPTY)
            t += d;
        if (b[t] == queen || b[t] == (i < 4 ? rook : bishop))
            return 1;
    }
    return 0;
}

/* ChessBoard.in_check */
static inline int
in_check(const Position *p)
{
    return attacked(p, p->kings[p->color >> 4], p->color ^ 24);
}

/* Whether a queen's step goes along a file or a rank (a rook's line). */
static inline int
is_straight(int step)
{
    return step == 1 || step == -1 || step == 10 || step == -10;
}

/* ChessBoard.in_check, just after the move m was made, found faster. The side to
 * move was not in check before m (its opponent had just moved legally), so only the
 * piece m moved or a line m opened through the cell it left can give check; en
 * passant (a second cell emptied) and castling (a second piece moved) ask in full. */
static int
in_check_after(const Position *p, Move m)
{
    int flag = MOVE_FLAG(m);
    if (flag == EN_PASSANT || flag == CASTLE)
        return in_check(p);
    const int *b = p->b;
    int king = p->kings[p->color >> 4];
    int fr = MOVE_FROM(m), to = MOVE_TO(m);
    int piece = b[to], kind = piece & 7, mover = piece & (WHITE | BLACK);
    int near = king - to + 77;
    if (kind == PAWN) {
        if (mover == WHITE ? near == 77 + 9 || near == 77 + 11 : near == 77 - 9 || near == 77 - 11)
            return 1;
    } else if (kind == KNIGHT) {
        if (KNIGHT_SQUARES[SQUARE_OF[to]] & SQUARE_BIT(king))
            return 1;
    } else if (kind != KING) {
        int d = LINE[near];
        if (d && (kind == QUEEN || (kind == ROOK) == is_straight(d))) {
            int t = to + d;
            while (b[t] == EMPTY)
                t += d;
            if (t == king)
                return 1;
        }
    }
    /* The line from the king through the cell m left, to its first piece. */
    int d = LINE[fr - king + 77];
    if (!d)
        return 0;
    int t = king + d;
    while (b[t] == EMPTY)
        t += d;
    int q = b[t];
    return q == (mover | QUEEN) || q == (mover | (is_straight(d) ? ROOK : BISHOP));
}

/* ChessBoard._ep_is_legal */
static int
ep_is_legal(Position *p, int fr, int to)
{
    int *b = p->b;
    int pawn = b[fr], color = pawn & 24;
    int victim_cell = color == WHITE ? to - 10 : to + 10;
    int victim = b[victim_cell];
    b[fr] = EMPTY;
    b[victim_cell] = EMPTY;
    b[to] = pawn;
    int safe = !attacked(p, p->kings[color >> 4], color ^ 24);
    b[fr] = pawn;
    b[victim_cell] = victim;
    b[to] = EMPTY;
    return safe;
}

/* ChessBoard.legal_ep_cell */
static int
legal_ep_cell(Position *p, int passed, int pawn_cell)
{
    int mover = p->b[pawn_cell] & (WHITE | BLACK);
    int enemy_pawn = (mover ^ (WHITE | BLACK)) | PAWN;
    int cells[2] = {pawn_cell - 1, pawn_cell + 1};
    for (int i = 0; i < 2; i++)
        if (p->b[cells[i]] == enemy_pawn && ep_is_legal(p, cells[i], passed))
            return passed;
    return 0;
}

/* -- move generation (ChessBoard.generate and its helpers), in its order ----------- */

/* ChessBoard._pawn_moves (inlined: a call for every pawn of every position cost
 * more than the work for most of them) */
static inline __attribute__((always_inline)) int
pawn_moves(Position *p, int fr, int pin, int enemy, int captures_only, Move *out, int n)
{
    const int *b = p->b;
    int forward, start_rank, last_rank;
    if (enemy == BLACK) {
        forward = 10, start_rank = 1, last_rank = 7;
    } else {
        forward = -10, start_rank = 6, last_rank = 0;
    }
    int t = fr + forward;
    if ((!pin || pin == forward || pin == -forward) && b[t] == EMPTY) {
        if (RANK_OF[t] == last_rank) {
            for (int k = 0; k < 4; k++)
                out[n++] = MOVE(fr, t, PROMOTE + PROMOTION_ORDER[k]);
        } else if (!captures_only) {
            out[n++] = MOVE(fr, t, NORMAL);
            if (RANK_OF[fr] == start_rank && b[t + forward] == EMPTY)
                out[n++] = MOVE(fr, t + forward, DOUBLE_STEP);
        }
    }
    int sides[2] = {forward - 1, forward + 1};
    for (int i = 0; i < 2; i++) {
        int d = sides[i];
        if (pin && pin != d && pin != -d)
            continue;
        t = fr + d;
        if (b[t] & enemy) {
            if (RANK_OF[t] == last_rank) {
                for (int k = 0; k < 4; k++)
                    out[n++] = MOVE(fr, t, PROMOTE + PROMOTION_ORDER[k]);
            } else {
                out[n++] = MOVE(fr, t, NORMAL);
            }
        } else if (t == p->ep && ep_is_legal(p, fr, t)) {
            out[n++] = MOVE(fr, t, EN_PASSANT);
        }
    }
    return n;
}

/* ChessBoard.generate: every legal move of the side to move into out (at least
 * MAX_MOVES long); returns how many. With captures_only, only the captures, the
 * promotions and en passant, which is all quiescence looks at: the king's steps to
 * empty squares, each asking whether the square is attacked, are much of the cost
 * of generating every move, and most nodes are quiescence's. */
static inline int
generate_moves(Position *p, Move *out, int captures_only)
{
    int *b = p->b;
    int color = p->color, enemy = color ^ 24;
    int king_cell = p->kings[color >> 4];

    /* _checks_and_pins */
    int checks = 0;
    int block_from = 0, block_step = 0, block_to = 0; /* the cells answering a check */
    int pin_cells[8], pin_dirs[8], pin_count = 0;
    int e_rook = enemy | ROOK, e_bishop = enemy | BISHOP, e_queen = enemy | QUEEN;
    uint64_t theirs = p->men[enemy >> 4];
    int king_square = SQUARE_OF[king_cell];
    for (int i = 0; i < 8; i++) {
        if (!(RAYS[king_square][i] & theirs))
            continue; /* no enemy piece on the line: no check, no pin */
        int d = QUEEN_DIRS[i], t = king_cell + d;
        while (b[t] == EMPTY)
            t += d;
        int q = b[t];
        if (q == OFF)
            continue;
        int line_piece = i >= 4 ? e_bishop : e_rook;
        if (q & enemy) {
            if (q == e_queen || q == line_piece) {
                checks++;
                block_from = king_cell + d, block_step = d, block_to = t;
            }
        } else {
            int t2 = t + d;
            while (b[t2] == EMPTY)
                t2 += d;
            if (b[t2] == e_queen || b[t2] == line_piece) {
                pin_cells[pin_count] = t;
                pin_dirs[pin_count++] = d;
            }
        }
    }
    int e_knight = enemy | KNIGHT;
    for (int i = 0; i < 8; i++) {
        if (b[king_cell + KNIGHT_DIRS[i]] == e_knight) {
            checks++;
            block_from = block_to = king_cell + KNIGHT_DIRS[i], block_step = 1;
        }
    }
    int e_pawn = enemy | PAWN;
    int pawn_dirs[2] = {9, 11};
    for (int i = 0; i < 2; i++) {
        int d = enemy == BLACK ? pawn_dirs[i] : -pawn_dirs[i];
        if (b[king_cell + d] == e_pawn) {
            checks++;
            block_from = block_to = king_cell + d, block_step = 1;
        }
    }

    /* _king_steps */
    int n = 0;
    int king = b[king_cell];
    b[king_cell] = EMPTY;
    for (int i = 0; i < 8; i++) {
        int t = king_cell + QUEEN_DIRS[i], q = b[t];
        if (((q == EMPTY && !captures_only) || (q & enemy)) && !attacked(p, t, enemy))
            out[n++] = MOVE(king_cell, t, NORMAL);
    }
    b[king_cell] = king;
    if (checks > 1)
        return n;

    /* _castlings */
    if (checks == 0 && p->castling && !captures_only) {
        if (color == WHITE) {
            if ((p->castling & WHITE_KINGSIDE) && b[F1] == EMPTY && b[G1] == EMPTY
                && !attacked(p, F1, enemy) && !attacked(p, G1, enemy))
                out[n++] = MOVE(E1, G1, CASTLE);
            if ((p->castling & WHITE_QUEENSIDE) && b[D1] == EMPTY && b[C1] == EMPTY
                && b[B1] == EMPTY && !attacked(p, D1, enemy) && !attacked(p, C1, enemy))
                out[n++] = MOVE(E1, C1, CASTLE);
        } else {
            if ((p->castling & BLACK_KINGSIDE) && b[F8] == EMPTY && b[G8] == EMPTY
                && !attacked(p, F8, enemy) && !attacked(p, G8, enemy))
                out[n++] = MOVE(E8, G8, CASTLE);
            if ((p->castling & BLACK_QUEENSIDE) && b[D8] == EMPTY && b[C8] == EMPTY
                && b[B8] == EMPTY && !attacked(p, D8, enemy) && !attacked(p, C8, enemy))
                out[n++] = MOVE(E8, C8, CASTLE);
        }
    }

    for (uint64_t men = p->men[color >> 4]; men; men &= men - 1) {
        int fr = CELL[__builtin_ctzll(men)], piece = b[fr];
        int kind = piece & 7, pin = 0;
        for (int i = 0; i < pin_count; i++)
            if (pin_cells[i] == fr)
                pin = pin_dirs[i];
        if (kind == PAWN) {
            n = pawn_moves(p, fr, pin, enemy, captures_only, out, n);
        } else if (kind == KNIGHT) {
            if (pin)
                continue;
            for (int i = 0; i < 8; i++) {
                int t = fr + KNIGHT_DIRS[i], q = b[t];
                if ((q == EMPTY && !captures_only) || (q & enemy))
                    out[n++] = MOVE(fr, t, NORMAL);
            }
        } else if (kind != KING) {
            const int *dirs = kind == ROOK ? ROOK_DIRS : kind == BISHOP ? BISHOP_DIRS : QUEEN_DIRS;
            int count = kind == QUEEN ? 8 : 4;
            for (int i = 0; i < count; i++) {
                int d = dirs[i];
                if (pin && d != pin && d != -pin)
                    continue;
                int t = fr + d, q = b[t];
                while (q == EMPTY) {
                    if (!captures_only)
                        out[n++] = MOVE(fr, t, NORMAL);
                    t += d;
                    q = b[t];
                }
                if (q & enemy)
                    out[n++] = MOVE(fr, t, NORMAL);
            }
        }
    }
    if (checks == 1) {
        /* Besides the king, only moves that take the checker or block its line. */
        int kept = 0;
        for (int i = 0; i < n; i++) {
            Move m = out[i];
            int to = MOVE_TO(m), answers = 0;
            if (MOVE_FROM(m) == king_cell || MOVE_FLAG(m) == EN_PASSANT) {
                answers = 1;
            } else {
                for (int c = block_from;; c += block_step) {
                    if (c == to) {
                        answers = 1;
                        break;
                    }
                    if (c == block_to)
                        break;
                }
            }
            if (answers)
                out[kept++] = m;
        }
        n = kept;
    }
    return n;
}

static int
generate(Position *p, Move *out)
{
    return generate_moves(p, out, 0);
}

/* The moves quiescence looks at, in no set order: it sorts them by (key, move),
 * which orders them the same whatever order they came in. */
static int
generate_captures(Position *p, Move *out)
{
    return generate_moves(p, out, 1);
}

/* ChessBoard.make (the stack has room: the caller sees to it) */
static void
make_move(Position *p, Move m)
{
    int fr = MOVE_FROM(m), to = MOVE_TO(m), flag = MOVE_FLAG(m);
    int *b = p->b;
    int piece = b[fr], captured = b[to], color = p->color;
    int castling = p->castling, ep = p->ep;
    uint64_t h = p->hash;
    Undo *u = &p->stack[p->stack_len++];
    u->move = m, u->captured = captured, u->castling = castling, u->ep = ep;
    u->halfmove = p->halfmove, u->hash = h;
    u->men[0] = p->men[0], u->men[1] = p->men[1];
    h ^= T.zobrist[piece][fr] ^ T.zobrist[piece][to] ^ T.zobrist_black;
    if (captured) {
        h ^= T.zobrist[captured][to];
        p->halfmove = 0;
    } else if ((piece & 7) == PAWN) {
        p->halfmove = 0;
    } else {
        p->halfmove++;
    }
    b[to] = piece;
    b[fr] = EMPTY;
    p->men[color >> 4] ^= SQUARE_BIT(fr) | SQUARE_BIT(to);
    if (captured)
        p->men[(color ^ 24) >> 4] ^= SQUARE_BIT(to);
    if (ep) {
        h ^= T.zobrist_ep[ep];
        ep = 0;
    }
    if (flag) {
        if (flag == DOUBLE_STEP) {
            ep = legal_ep_cell(p, (fr + to) >> 1, to);
            if (ep)
                h ^= T.zobrist_ep[ep];
        } else if (flag == EN_PASSANT) {
            int victim_cell = color == WHITE ? to - 10 : to + 10;
            h ^= T.zobrist[b[victim_cell]][victim_cell];
            b[victim_cell] = EMPTY;
            p->men[(color ^ 24) >> 4] ^= SQUARE_BIT(victim_cell);
        } else if (flag == CASTLE) {
            int rook_from = T.castling_rook_from[to], rook_to = T.castling_rook_to[to];
            int rook = b[rook_from];
            b[rook_to] = rook;
            b[rook_from] = EMPTY;
            p->men[color >> 4] ^= SQUARE_BIT(rook_from) | SQUARE_BIT(rook_to);
            h ^= T.zobrist[rook][rook_from] ^ T.zobrist[rook][rook_to];
        } else {
            int promoted = (flag - PROMOTE) | color;
            b[to] = promoted;
            h ^= T.zobrist[piece][to] ^ T.zobrist[promoted][to];
        }
    }
    if ((piece & 7) == KING)
        p->kings[color >> 4] = to;
    if (castling) {
        int kept = castling & T.castling_kept[fr] & T.castling_kept[to];
        if (kept != castling) {
            h ^= T.zobrist_castling[castling] ^ T.zobrist_castling[kept];
            p->castling = kept;
        }
    }
    p->ep = ep;
    p->color = color ^ 24;
    p->hash = h;
}

/* ChessBoard.unmake */
static void
unmake_move(Position *p)
{
    const Undo *u = &p->stack[--p->stack_len];
    Move m = u->move;
    p->castling = u->castling, p->ep = u->ep, p->halfmove = u->halfmove, p->hash = u->hash;
    int fr = MOVE_FROM(m), to = MOVE_TO(m), flag = MOVE_FLAG(m);
    int *b = p->b;
    int color = p->color ^ 24;
    p->color = color;
    int piece = b[to];
    p->men[0] = u->men[0], p->men[1] = u->men[1];
    if (flag) {
        if (flag >= PROMOTE) {
            piece = PAWN | color;
        } else if (flag == EN_PASSANT) {
            b[color == WHITE ? to - 10 : to + 10] = PAWN | (color ^ 24);
        } else if (flag == CASTLE) {
            int rook_from = T.castling_rook_from[to], rook_to = T.castling_rook_to[to];
            b[rook_from] = b[rook_to];
            b[rook_to] = EMPTY;
        }
    }
    b[fr] = piece;
    b[to] = u->captured;
    if ((piece & 7) == KING)
        p->kings[color >> 4] = fr;
}

/* ChessState.has_insufficient_material */
static int
has_insufficient_material(const Position *p, int color)
{
    const int *b = p->b;
    int own = 0, own_knight = 0;
    for (int sq = 0; sq < 64; sq++) {
        int q = b[CELL[sq]];
        if ((q & color) && (q & 7) != KING) {
            int kind = q & 7;
            if (kind == PAWN || kind == ROOK || kind == QUEEN)
                return 0;
            own++;
            if (kind == KNIGHT)
                own_knight = 1;
        }
    }
    if (!own)
        return 1;
    if (own_knight) {
        if (own != 1)
            return 0;
        for (int sq = 0; sq < 64; sq++) {
            int q = b[CELL[sq]];
            if ((q & (color ^ 24)) && (q & 7) != KING && (q & 7) != QUEEN)
                return 0;
        }
        return 1;
    }
    int dark = 0, light = 0;
    for (int sq = 0; sq < 64; sq++) {
        int c = CELL[sq], kind = b[c] & 7;
        if (kind == PAWN || kind == KNIGHT)
            return 0;
        if (kind == BISHOP) {
            if ((FILE_OF[c] + RANK_OF[c]) % 2 == 0)
                dark = 1;
            else
                light = 1;
        }
    }
    return dark + light == 1;
}

/* ChessState.is_insufficient_material */
static int
is_insufficient_material(const Position *p)
{
    return has_insufficient_material(p, WHITE) && has_insufficient_material(p, BLACK);
}

/* -- the pawn structure (engine.py pawn_structure; a cache by pawn key) ------------ */

static void
pawn_structure(const int *board, int *mg_out, int *eg_out)
{
    int white_count[10] = {0}, black_count[10] = {0};
    int white_rear[10], black_rear[10];
    int white_f[16], white_r[16], black_f[16], black_r[16], nw = 0, nb = 0;
    for (int f = 0; f < 10; f++)
        white_rear[f] = 8, black_rear[f] = -1;
    for (int sq = 0; sq < 64; sq++) {
        int q = board[CELL[sq]];
        if ((q & 7) != PAWN)
            continue;
        int f = (sq & 7) + 1, r = sq >> 3;
        if (q & WHITE) {
            white_count[f]++;
            if (r < white_rear[f])
                white_rear[f] = r;
            if (nw < 16)
                white_f[nw] = f, white_r[nw++] = r;
        } else {
            black_count[f]++;
            if (r > black_rear[f])
                black_rear[f] = r;
            if (nb < 16)
                black_f[nb] = f, black_r[nb++] = r;
        }
    }
    int mg = 0, eg = 0;
    for (int i = 0; i < nw; i++) {
        int f = white_f[i], r = white_r[i];
        int most = black_rear[f - 1];
        if (black_rear[f] > most)
            most = black_rear[f];
        if (black_rear[f + 1] > most)
            most = black_rear[f + 1];
        if (most <= r)
            mg += T.passed_mg[r], eg += T.passed_eg[r];
        if (!white_count[f - 1] && !white_count[f + 1])
            mg += T.isolated_mg, eg += T.isolated_eg;
    }
    for (int i = 0; i < nb; i++) {
        int f = black_f[i], r = black_r[i];
        int least = white_rear[f - 1];
        if (white_rear[f] < least)
            least = white_rear[f];
        if (white_rear[f + 1] < least)
            least = white_rear[f + 1];
        if (least >= r)
            mg -= T.passed_mg[7 - r], eg -= T.passed_eg[7 - r];
        if (!black_count[f - 1] && !black_count[f + 1])
            mg -= T.isolated_mg, eg -= T.isolated_eg;
    }
    for (int f = 1; f < 9; f++) {
        if (white_count[f] > 1)
            mg += T.doubled_mg * (white_count[f] - 1), eg += T.doubled_eg * (white_count[f] - 1);
        if (black_count[f] > 1)
            mg -= T.doubled_mg * (black_count[f] - 1), eg -= T.doubled_eg * (black_count[f] - 1);
    }
    *mg_out = mg;
    *eg_out = eg;
}

#define PAWN_CACHE_BITS 16

typedef struct {
    uint64_t key;
    int mg, eg;
    int used;
} PawnEntry;

/* Python's floor division by a positive divisor. */
static inline int64_t
floor_divide(int64_t a, int64_t b)
{
    int64_t q = a / b;
    if ((a % b != 0) && (a < 0))
        q--;
    return q;
}

/* -- the transposition table: hash to (depth, score, bound, move) ------------------
 *
 * Open addressing with linear probing over a power-of-two array that doubles when
 * two thirds full, so it holds every position stored, as the dict does, until it
 * holds `ceiling` positions. An entry is overwritten by the same key, or, once the
 * table is full, by a new key whose first slot it is: a look-up walks on past a
 * used slot of another key, so every other key's walk is as before, and the new
 * key is found at once. */

typedef struct {
    uint64_t key;
    int32_t score;
    int16_t depth;
    uint8_t bound;
    uint8_t used;
    Move move;
} Entry;

typedef struct {
    Entry *entries;
    size_t capacity; /* a power of two */
    size_t count;
    size_t ceiling; /* the most positions it grows to hold */
} Table;

#define TABLE_START 4096

static int
table_reset(Table *table, size_t capacity)
{
    Entry *entries = calloc(capacity, sizeof(Entry));
    if (entries == NULL)
        return 0;
    free(table->entries);
    table->entries = entries;
    table->capacity = capacity;
    table->count = 0;
    return 1;
}

static inline size_t
table_slot(uint64_t key, size_t mask)
{
    return (size_t)(key ^ key >> 29) & mask;
}

static inline const Entry *
table_get(const Table *table, uint64_t key)
{
    size_t mask = table->capacity - 1;
    for (size_t i = table_slot(key, mask);; i = (i + 1) & mask) {
        const Entry *entry = &table->entries[i];
        if (!entry->used)
            return NULL;
        if (entry->key == key)
            return entry;
    }
}

/* Starts fetching the slot table_get will look at first for the key. */
static inline void
table_prefetch(const Table *table, uint64_t key)
{
    __builtin_prefetch(&table->entries[table_slot(key, table->capacity - 1)]);
}

static int
table_grow(Table *table)
{
    size_t capacity = table->capacity * 2, mask = capacity - 1;
    Entry *entries = calloc(capacity, sizeof(Entry));
    if (entries == NULL)
        return 0;
    for (size_t j = 0; j < table->capacity; j++) {
        const Entry *entry = &table->entries[j];
        if (!entry->used)
            continue;
        size_t i = table_slot(entry->key, mask);
        while (entries[i].used)
            i = (i + 1) & mask;
        entries[i] = *entry;
    }
    free(table->entries);
    table->entries = entries;
    table->capacity = capacity;
    return 1;
}

static int
table_put(Table *table, uint64_t key, int depth, int score, int bound, Move move)
{
    int full = table->count >= table->ceiling;
    if (!full && (table->count + 1) * 3 > table->capacity * 2 && !table_grow(table))
        return 0;
    size_t mask = table->capacity - 1;
    size_t i = table_slot(key, mask);
    /* Ends at an empty slot: the table grows before it is two thirds full, and
     * once full it takes no new slot. */
    while (table->entries[i].used && table->entries[i].key != key)
        i = (i + 1) & mask;
    if (!table->entries[i].used) {
        if (full)
            i = table_slot(key, mask);
        else
            table->count++;
    }
    Entry *entry = &table->entries[i];
    entry->key = key;
    entry->score = score;
    entry->depth = (int16_t)depth;
    entry->bound = (uint8_t)bound;
    entry->used = 1;
    entry->move = move;
    return 1;
}

/* -- the searcher: what lasts from search to search ------------------------------- */

/* A move with its ordering key, Python's (key, move) tuple, packed into one number
 * that orders as the tuple does: key * 2^24 + move (a packed move is below 2^24),
 * so that choosing the next move compares one number, not two. A key must lie
 * within +-KEY_LIMIT: the history, the only one that grows, is read as at most that
 * (a credit of a few hundred a cut-off, aged at each search's start, would need far
 * more nodes than a search of days to reach it; until then the order is Python's). */
typedef int64_t Scored;
#define KEY_LIMIT ((int64_t)1 << 38)
#define SCORED(key, move) ((int64_t)(key) * ((int64_t)1 << 24) + (int64_t)(move))
#define SCORED_MOVE(scored) ((Move)((scored) & 0xFFFFFF))

typedef struct {
    PyObject_HEAD
    Position pos;
    Table table;
    int64_t history[32][120]; /* Searcher.history: (piece, to cell) -> credit */
    Move counters[32][120]; /* Searcher.counters: (piece, to cell) -> refutation, 0 none */
    Move killers[MAX_PLY][2];
    PawnEntry *pawns;
    Move moves[MAX_PLY + 2][MAX_MOVES];
    Scored scored[MAX_PLY + 2][MAX_MOVES];

    int loaded;
    int busy; /* a search is under way (it runs without the GIL) */
    /* the search's limits and counts (Searcher._begin, _check_limits) */
    int64_t nodes;
    int seldepth;
    double deadline; /* INFINITY without a time limit */
    int64_t node_limit; /* 0: none */
    PyObject *stop;
    double next_stop_check;
    PyThreadState *thread;
    int stopped;
    int failed;
    int out_of_memory;
    int have_partial;
    int partial_score;
    Move partial_move;
} SearcherObject;

typedef SearcherObject S;

static double
now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* Asks the stop event (and lets Ctrl-C in): 1 when it is set, 0 when not, -1 on
 * an error. The GIL is taken back to ask. */
static int
ask_stop(S *s)
{
    int stop = 0;
    PyEval_RestoreThread(s->thread);
    if (s->stop != NULL) {
        PyObject *answer = PyObject_CallMethod(s->stop, "is_set", NULL);
        if (answer == NULL) {
            stop = -1;
        } else {
            stop = PyObject_IsTrue(answer);
            Py_DECREF(answer);
        }
    }
    if (stop >= 0 && PyErr_CheckSignals() < 0)
        stop = -1;
    s->thread = PyEval_SaveThread();
    return stop;
}

/* Searcher._check_limits: the clock, the node limit, the stop event. One
 * difference: the stop event is asked at most every STOP_EVERY seconds, not at
 * every look (asking needs the GIL; parlour.checkers.native explains why). A stop
 * set during an iteration is met at a node that depends on timing in both. */
#define STOP_EVERY 0.01

static int
check_limits(S *s)
{
    double time = now();
    if (time > s->deadline || (s->node_limit && s->nodes >= s->node_limit)) {
        s->stopped = 1;
        return 0;
    }
    if (time >= s->next_stop_check) {
        s->next_stop_check = time + STOP_EVERY;
        int stop = ask_stop(s);
        if (stop < 0)
            s->failed = 1;
        if (stop) {
            s->stopped = 1;
            return 0;
        }
    }
    return 1;
}

/* self.nodes += 1; if not self.nodes & 2047: self._check_limits() */
static inline int
tick(S *s)
{
    s->nodes++;
    if (!(s->nodes & 2047))
        return check_limits(s);
    return 1;
}

/* endgame.py pawn_wins: whether the side with the lone pawn wins, side to move */
static int
pawn_wins(const Position *p, int pawn_square, int strong)
{
    /* seen with the pawn's side moving up the board, the pawn on files a to d */
    int flip = strong == 0 ? 0 : 56;
    int pawn = pawn_square ^ flip;
    int strong_cell = p->kings[strong], weak_cell = p->kings[1 - strong];
    int strong_king = (RANK_OF[strong_cell] * 8 + FILE_OF[strong_cell]) ^ flip;
    int weak_king = (RANK_OF[weak_cell] * 8 + FILE_OF[weak_cell]) ^ flip;
    if ((pawn & 7) > 3) {
        pawn ^= 7;
        strong_king ^= 7;
        weak_king ^= 7;
    }
    int strong_to_move = (p->color == WHITE) == (strong == 0);
    int pawn_index = ((pawn >> 3) - 1) * 4 + (pawn & 7);
    int index = ((!strong_to_move * 24 + pawn_index) * 64 + strong_king) * 64 + weak_king;
    return T.kpk[index >> 3] >> (index & 7) & 1;
}

/* engine.py ending: the blended score corrected for the ending on the board */
static int64_t
ending(const Position *p, int64_t score)
{
    int pawns[2] = {0, 0}, worth[2] = {0, 0}, knights[2] = {0, 0}, bishops[2] = {0, 0};
    int shades[2] = {0, 0}, files[2] = {0, 0}, pawn_square = 0;
    for (int sq = 0; sq < 64; sq++) {
        int piece = p->b[CELL[sq]], kind = piece & 7;
        if (!piece || kind == KING)
            continue;
        int side = piece >> 4, file = sq & 7, rank = sq >> 3;
        if (kind == PAWN) {
            pawns[side]++;
            files[side] |= 1 << file;
            pawn_square = sq;
            continue;
        }
        worth[side] += T.ending_worth[kind];
        if (kind == KNIGHT)
            knights[side]++;
        else if (kind == BISHOP) {
            bishops[side]++;
            shades[side] |= 1 << ((file + rank) & 1);
        }
    }
    if (pawns[0] + pawns[1] == 1 && !worth[0] && !worth[1]) {
        /* a king and pawn against a king: the database says won or drawn */
        int side = pawns[0] ? 0 : 1;
        if (!pawn_wins(p, pawn_square, side))
            return 0;
        return side == 0 ? score + 24 * T.kpk_won : score - 24 * T.kpk_won;
    }
    if (!score)
        return 0;
    int strong = score > 0 ? 0 : 1, weak = 1 - strong, scale = 16;
    if (!pawns[strong]) {
        if (worth[strong] <= 3
            || (knights[strong] == 2 && worth[strong] == 6 && !worth[weak] && !pawns[weak]))
            scale = T.scale_cannot_win;
        else if (worth[strong] - worth[weak] <= 3)
            scale = T.scale_minor_ahead;
    } else if ((files[strong] == 1 || files[strong] == 128)
               && worth[strong] == 3 * bishops[strong] && bishops[strong] <= 1) {
        int file = files[strong] == 1 ? 0 : 7, rank = strong == 0 ? 7 : 0;
        int wrong = !bishops[strong] || shades[strong] != 1 << ((file + rank) & 1);
        int king = p->kings[weak];
        if (wrong && abs(FILE_OF[king] - file) <= 1 && abs(RANK_OF[king] - rank) <= 1)
            scale = T.scale_cannot_win;
    }
    if (scale == 16 && worth[0] == 3 && worth[1] == 3 && bishops[0] == 1 && bishops[1] == 1
        && shades[0] != shades[1])
        scale = T.scale_opposite_bishops;
    if (scale != 16)
        return score * scale / 16; /* truncated, as engine.py's floor from the stronger side */
    if (pawns[weak] || worth[weak] || worth[strong] < 5)
        return score; /* a bare king is chased only by pieces that can mate it */
    int wf = FILE_OF[p->kings[weak]], wr = RANK_OF[p->kings[weak]];
    int sf = FILE_OF[p->kings[strong]], sr = RANK_OF[p->kings[strong]];
    int bonus;
    if (knights[strong] == 1 && bishops[strong] == 1 && worth[strong] == 6 && !pawns[strong]) {
        /* king moves to a1 and h8 (a dark bishop), or to a8 and h1 */
        int dark = shades[strong] == 1, down = dark ? wr : 7 - wr;
        int a = wf > down ? wf : down, b = 7 - wf > 7 - down ? 7 - wf : 7 - down;
        bonus = T.mop_up_corner * (7 - (a < b ? a : b));
    } else {
        int from_file = 3 - wf > wf - 4 ? 3 - wf : wf - 4;
        int from_rank = 3 - wr > wr - 4 ? 3 - wr : wr - 4;
        bonus = T.mop_up_edge * (from_file + from_rank);
    }
    bonus += T.mop_up_kings * (14 - abs(wf - sf) - abs(wr - sr));
    return strong == 0 ? score + 24 * bonus : score - 24 * bonus;
}

/* engine.py _blend */
static int
blend(S *s, int mg, int eg, int phase, uint64_t pawns)
{
    PawnEntry *e = &s->pawns[(pawns ^ pawns >> 32) & ((1u << PAWN_CACHE_BITS) - 1)];
    if (!e->used || e->key != pawns) {
        pawn_structure(s->pos.b, &e->mg, &e->eg);
        e->key = pawns;
        e->used = 1;
    }
    if (phase > 24)
        phase = 24;
    int64_t score = (int64_t)(mg + e->mg) * phase + (int64_t)(eg + e->eg) * (24 - phase);
    if (phase <= T.ending_phase)
        score = ending(&s->pos, score);
    return (int)floor_divide(s->pos.color == WHITE ? score : -score, 24) + T.tempo;
}

/* Searcher._delta */
typedef struct {
    int mg, eg, phase;
    uint64_t pawns;
} Sums;

static inline Sums
delta(const S *s, Move m, Sums at)
{
    int fr = MOVE_FROM(m), to = MOVE_TO(m), flag = MOVE_FLAG(m);
    const int *b = s->pos.b;
    int piece = b[fr], captured = b[to];
    const int *pm = T.pst_mg[piece], *pe = T.pst_eg[piece];
    int dmg = pm[to] - pm[fr], deg = pe[to] - pe[fr], dph = 0;
    uint64_t dpk = 0;
    if ((piece & 7) == PAWN)
        dpk = T.zobrist[piece][fr] ^ T.zobrist[piece][to];
    if (captured) {
        dmg -= T.pst_mg[captured][to];
        deg -= T.pst_eg[captured][to];
        dph = -T.piece_phase[captured];
        if ((captured & 7) == PAWN)
            dpk ^= T.zobrist[captured][to];
    }
    if (flag) {
        if (flag >= PROMOTE) {
            int promoted = (flag - PROMOTE) | (piece & (WHITE | BLACK));
            dmg += T.pst_mg[promoted][to] - pm[to];
            deg += T.pst_eg[promoted][to] - pe[to];
            dph += T.piece_phase[promoted];
            dpk ^= T.zobrist[piece][to];
        } else if (flag == EN_PASSANT) {
            int victim_cell = (piece & WHITE) ? to - 10 : to + 10;
            int victim = b[victim_cell];
            dmg -= T.pst_mg[victim][victim_cell];
            deg -= T.pst_eg[victim][victim_cell];
            dpk ^= T.zobrist[victim][victim_cell];
        } else if (flag == CASTLE) {
            int rook_from = T.castling_rook_from[to], rook_to = T.castling_rook_to[to];
            int rook = b[rook_from];
            dmg += T.pst_mg[rook][rook_to] - T.pst_mg[rook][rook_from];
            deg += T.pst_eg[rook][rook_to] - T.pst_eg[rook][rook_from];
        }
    }
    Sums child = {at.mg + dmg, at.eg + deg, at.phase + dph, at.pawns ^ dpk};
    return child;
}

/* Searcher._is_repetition */
static int
is_repetition(const S *s)
{
    const Position *p = &s->pos;
    uint64_t h = p->hash;
    int first = p->stack_len - p->halfmove;
    if (first < 0)
        first = 0;
    for (int i = p->stack_len - 2; i >= first; i -= 2)
        if (p->stack[i].hash == h)
            return 1;
    return 0;
}

/* Searcher._is_draw */
static int
is_draw(const S *s, int phase)
{
    const Position *p = &s->pos;
    if (p->halfmove >= 4 && (p->halfmove >= 100 || is_repetition(s)))
        return 1;
    return phase <= 1 && is_insufficient_material(p);
}

/* Python's list.sort(reverse=True) over (key, move) tuples orders by key, then by
 * move, both descending (the moves differ, so there are no ties). The first few
 * moves are each taken as the greatest of the rest when they are tried, which costs
 * nothing for the moves never reached once one of the first refutes the position
 * (sorting them all first cost a tenth of the search's time); a position that gets
 * past them is likely to try them all, and the rest are sorted at once (taking the
 * greatest each time scanned the rest for every move). Either way the same order.
 * Called for i = 0, 1, 2, ... in turn: list[i] becomes the i-th move. */
#define PICKED_ONE_BY_ONE 2
static inline void
take_best(Scored *list, int i, int n)
{
    if (i < PICKED_ONE_BY_ONE) {
        int best = i;
        for (int j = i + 1; j < n; j++)
            if (list[j] > list[best])
                best = j;
        Scored item = list[best];
        list[best] = list[i];
        list[i] = item;
    } else if (i == PICKED_ONE_BY_ONE) {
        for (int j = i + 1; j < n; j++) {
            Scored item = list[j];
            int k = j;
            for (; k > i && list[k - 1] < item; k--)
                list[k] = list[k - 1];
            list[k] = item;
        }
    }
}

static int search(S *s, int depth, int alpha, int beta, int ply, Sums at, int checked);
static int quiesce(S *s, int alpha, int beta, int ply, Sums at, int checked);

/* Searcher._best_reply */
static int
best_reply(S *s, Scored *ordered, int n, int alpha, int beta, int best, int ply, Sums at)
{
    for (int i = 0; i < n; i++) {
        take_best(ordered, i, n);
        Move m = SCORED_MOVE(ordered[i]);
        Sums child = delta(s, m, at);
        make_move(&s->pos, m);
        int score = -quiesce(s, -beta, -alpha, ply + 1, child, in_check_after(&s->pos, m));
        unmake_move(&s->pos);
        if (s->stopped)
            return 0;
        if (score > best) {
            best = score;
            if (score > alpha) {
                alpha = score;
                if (alpha >= beta)
                    break;
            }
        }
    }
    return best;
}

/* Searcher._quiesce_evasions */
static int
quiesce_evasions(S *s, int alpha, int beta, int ply, Sums at)
{
    Move *moves = s->moves[ply];
    int n = generate(&s->pos, moves);
    if (!n)
        return -MATE + ply;
    const int *b = s->pos.b;
    Scored *ordered = s->scored[ply];
    for (int i = 0; i < n; i++) {
        Move m = moves[i];
        ordered[i] = SCORED((int64_t)T.order_value[b[MOVE_TO(m)]] * 16
                                - T.order_value[b[MOVE_FROM(m)]] / 16, m);
    }
    return best_reply(s, ordered, n, alpha, beta, -MATE + ply, ply, at);
}

/* Searcher._quiesce. ``checked``: whether the side to move is in check, where
 * the caller knows it already (it found out when the move was made), or -1. */
static int
quiesce(S *s, int alpha, int beta, int ply, Sums at, int checked)
{
    if (!tick(s))
        return 0;
    if (ply > s->seldepth)
        s->seldepth = ply;
    Position *p = &s->pos;
    if (ply >= MAX_PLY - 2)
        return blend(s, at.mg, at.eg, at.phase, at.pawns);
    if (checked < 0 ? in_check(p) : checked)
        return quiesce_evasions(s, alpha, beta, ply, at);
    int stand = blend(s, at.mg, at.eg, at.phase, at.pawns);
    if (stand >= beta)
        return stand;
    if (stand > alpha)
        alpha = stand;
    const int *b = p->b;
    int enemy = p->color ^ 24;
    Move *moves = s->moves[ply];
    Scored *captures = s->scored[ply];
    int n = generate_captures(p, moves), count = 0;
    for (int i = 0; i < n; i++) {
        Move m = moves[i];
        int fr = MOVE_FROM(m), to = MOVE_TO(m), flag = MOVE_FLAG(m);
        int victim = b[to];
        if (victim) {
            int gain = T.order_value[victim];
            if (flag >= PROMOTE) {
                if (flag != PROMOTE + QUEEN)
                    continue;
                gain += 800;
            }
            if (stand + gain + 200 < alpha)
                continue;
            if (T.order_value[b[fr]] > gain + 50 && attacked(p, to, enemy))
                continue;
            captures[count++] = SCORED((int64_t)gain * 16 - T.order_value[b[fr]] / 16, m);
        } else if (flag == PROMOTE + QUEEN) {
            captures[count++] = SCORED(800 * 16, m);
        } else if (flag == EN_PASSANT) {
            captures[count++] = SCORED(100 * 16 - 6, m);
        }
    }
    if (!count)
        return alpha;
    return best_reply(s, captures, count, alpha, beta, alpha, ply, at);
}

/* Searcher._null_search */
static int
null_search(S *s, int depth, int beta, int ply, Sums at)
{
    Position *p = &s->pos;
    int saved_ep = p->ep, saved_halfmove = p->halfmove;
    uint64_t saved_hash = p->hash;
    uint64_t h = p->hash ^ T.zobrist_black;
    if (p->ep)
        h ^= T.zobrist_ep[p->ep];
    Undo *u = &p->stack[p->stack_len++];
    u->move = 0, u->captured = 0, u->castling = p->castling, u->ep = p->ep;
    u->halfmove = p->halfmove, u->hash = p->hash;
    p->ep = 0;
    p->halfmove = 0;
    p->hash = h;
    p->color ^= 24;
    int reduction = depth >= 6 ? 3 : 2;
    /* After a pass the side to move cannot be in check (the side that passed was
     * not, or there would be no pass). */
    int score = -search(s, depth - 1 - reduction, -beta, -beta + 1, ply + 1, at, 0);
    p->color ^= 24;
    p->ep = saved_ep, p->halfmove = saved_halfmove, p->hash = saved_hash;
    p->stack_len--;
    return score;
}

/* Searcher._search */
static int
search(S *s, int depth, int alpha, int beta, int ply, Sums at, int checked)
{
    Position *p = &s->pos;
    if (is_draw(s, at.phase))
        return 0;
    if (checked < 0)
        checked = in_check(p);
    if (checked)
        depth++;
    if (depth <= 0)
        return quiesce(s, alpha, beta, ply, at, checked);
    if (!tick(s))
        return 0;
    if (ply >= MAX_PLY - 2)
        return blend(s, at.mg, at.eg, at.phase, at.pawns);

    int mate_alpha = alpha > -MATE + ply ? alpha : -MATE + ply;
    int mate_beta = beta < MATE - ply - 1 ? beta : MATE - ply - 1;
    if (mate_alpha >= mate_beta)
        return mate_alpha;

    /* _probe */
    uint64_t key = p->hash;
    Move tt_move = 0;
    const Entry *entry = table_get(&s->table, key);
    if (entry != NULL) {
        tt_move = entry->move;
        if (entry->depth >= depth && beta - alpha == 1) {
            int score = entry->score;
            if (score >= MATE_BOUND)
                score -= ply;
            else if (score <= -MATE_BOUND)
                score += ply;
            if (entry->bound == EXACT || (entry->bound == LOWER && score >= beta)
                || (entry->bound == UPPER && score <= alpha))
                return score;
        }
    }

    /* _before_moves and _null_move_cutoff */
    int quiet_limit = MAX_MOVES;
    if (beta - alpha == 1 && !checked) {
        if (depth <= 3 && abs(beta) < MATE_BOUND) {
            int stat = blend(s, at.mg, at.eg, at.phase, at.pawns);
            if (stat - T.futility_margin * depth >= beta)
                return stat;
            if (stat + T.futility_margin * depth <= alpha)
                quiet_limit = 1;
            else
                quiet_limit = T.late_move_count[depth];
        }
        if (depth >= 3 && at.phase >= 3) {
            if (blend(s, at.mg, at.eg, at.phase, at.pawns) >= beta) {
                int score = null_search(s, depth, beta, ply, at);
                if (s->stopped)
                    return 0;
                if (score >= beta)
                    return score >= MATE_BOUND ? beta : score;
            }
        }
    }

    Move *moves = s->moves[ply];
    int n = generate(p, moves);
    if (!n)
        return checked ? -MATE + ply : 0;

    /* The move that answered the last move best before (not after a pass). */
    int last_to = ply ? MOVE_TO(p->stack[p->stack_len - 1].move) : 0;
    Move *counter_slot = last_to ? &s->counters[p->b[last_to]][last_to] : NULL;
    Move counter = last_to ? *counter_slot : 0;
    Move quiets_tried[MAX_MOVES];
    int n_quiets = 0;

    /* _ordered */
    Move *killers = s->killers[ply];
    Scored *scored = s->scored[ply];
    const int *b = p->b;
    for (int i = 0; i < n; i++) {
        Move m = moves[i];
        int fr = MOVE_FROM(m), to = MOVE_TO(m), flag = MOVE_FLAG(m);
        int victim = b[to];
        int64_t k;
        if (m == tt_move)
            k = 10000000;
        else if (victim) {
            int attacker = T.order_value[b[fr]];
            int losing = attacker > T.order_value[victim] + 50 && attacked(p, to, p->color ^ 24);
            k = (losing ? 700000 : 1000000) + (int64_t)T.order_value[victim] * 16 - attacker / 16;
        }
        else if (flag >= PROMOTE)
            k = flag == PROMOTE + QUEEN ? 900000 : -1000;
        else if (m == killers[0])
            k = 800000;
        else if (m == killers[1])
            k = 790000;
        else if (m == counter)
            k = 780000;
        else {
            k = s->history[b[fr]][to];
            k = k > KEY_LIMIT ? KEY_LIMIT : k < -KEY_LIMIT ? -KEY_LIMIT : k;
        }
        scored[i] = SCORED(k, m);
    }

    int original_alpha = alpha;
    int best_score = -INFINITY_SCORE;
    Move best_move = 0;
    for (int searched = 0; searched < n; searched++) {
        take_best(scored, searched, n);
        Move m = SCORED_MOVE(scored[searched]);
        Sums child = delta(s, m, at);
        int quiet = scored[searched] < SCORED(790000, 0) && !p->b[MOVE_TO(m)];
        make_move(p, m);
        if (depth > 1) /* the child will look itself up: start fetching its slot */
            table_prefetch(&s->table, p->hash);
        /* Whether the move gives check: found once here, for the pruning, the
         * reduction and each search of the child, which would each ask again. */
        int gives = in_check_after(p, m);
        if (quiet && searched >= quiet_limit && !gives) {
            unmake_move(p);
            continue;
        }
        int score;
        if (searched == 0) {
            score = -search(s, depth - 1, -beta, -alpha, ply + 1, child, gives);
        } else {
            int reduction = 0;
            if (quiet && searched >= 3 && depth >= 3 && !checked)
                reduction = gives ? 0 : searched < 8 ? 1 : 2;
            /* _search_later */
            int d = depth - 1;
            score = -search(s, d - reduction, -alpha - 1, -alpha, ply + 1, child, gives);
            if (!s->stopped && score > alpha && reduction)
                score = -search(s, d, -alpha - 1, -alpha, ply + 1, child, gives);
            if (!s->stopped && alpha < score && score < beta)
                score = -search(s, d, -beta, -alpha, ply + 1, child, gives);
        }
        unmake_move(p);
        if (s->stopped)
            return 0;
        if (score > best_score) {
            best_score = score;
            best_move = m;
            if (score > alpha) {
                alpha = score;
                if (alpha >= beta) {
                    if (quiet) {
                        /* _remember_refutation */
                        if (killers[0] != m) {
                            killers[1] = killers[0];
                            killers[0] = m;
                        }
                        int64_t credit = (int64_t)depth * depth;
                        s->history[b[MOVE_FROM(m)]][MOVE_TO(m)] += credit;
                        for (int q = 0; q < n_quiets; q++) {
                            Move tried = quiets_tried[q];
                            s->history[b[MOVE_FROM(tried)]][MOVE_TO(tried)] -= credit;
                        }
                        if (last_to)
                            *counter_slot = m;
                    }
                    break;
                }
            }
        }
        if (quiet)
            quiets_tried[n_quiets++] = m;
    }

    /* _store */
    int stored = best_score;
    if (stored >= MATE_BOUND)
        stored += ply;
    else if (stored <= -MATE_BOUND)
        stored -= ply;
    int bound = best_score >= beta ? LOWER : best_score > original_alpha ? EXACT : UPPER;
    if (!table_put(&s->table, key, depth, stored, bound, best_move)) {
        s->out_of_memory = 1;
        s->failed = 1;
        s->stopped = 1;
        return 0;
    }
    return best_score;
}

/* Searcher._root: the score and move within (alpha, beta), or stopped */
static void
root_search(S *s, int depth, const Move *roots, int n, Sums at, int alpha, int beta,
            int *score_out, Move *move_out)
{
    Position *p = &s->pos;
    int floor = alpha;
    Move best = roots[0];
    for (int i = 0; i < n; i++) {
        Move m = roots[i];
        Sums child = delta(s, m, at);
        make_move(p, m);
        int score;
        if (i == 0) {
            score = -search(s, depth - 1, -beta, -alpha, 1, child, -1);
        } else {
            score = -search(s, depth - 1, -alpha - 1, -alpha, 1, child, -1);
            if (!s->stopped && score > alpha)
                score = -search(s, depth - 1, -beta, -alpha, 1, child, -1);
        }
        unmake_move(p);
        if (s->stopped)
            return;
        if (score > alpha) {
            alpha = score, best = m;
            s->have_partial = 1, s->partial_score = alpha, s->partial_move = best;
            if (alpha >= beta)
                break;
        }
    }
    if (alpha > floor && alpha < beta
        && !table_put(&s->table, p->hash, depth, alpha, EXACT, best)) {
        s->out_of_memory = 1;
        s->failed = 1;
        s->stopped = 1;
        return;
    }
    *score_out = alpha;
    *move_out = best;
}

/* Searcher._root_exact, before its filter (the Python keeps that): every root
 * move's score. */
static void
root_exact(S *s, int depth, const Move *roots, int n, Sums at, int margin, int *scores)
{
    Position *p = &s->pos;
    int best = -INFINITY_SCORE;
    for (int i = 0; i < n; i++) {
        Move m = roots[i];
        Sums child = delta(s, m, at);
        int floor = best > -INFINITY_SCORE ? best - margin - 1 : -INFINITY_SCORE;
        make_move(p, m);
        int score = -search(s, depth - 1, -INFINITY_SCORE, -floor, 1, child, -1);
        unmake_move(p);
        if (s->stopped)
            return;
        if (score > best)
            best = score;
        scores[i] = score;
    }
}

/* -- reading Python values -------------------------------------------------------- */

static int
read_long(PyObject *value, long long low, long long high, const char *what, long long *out)
{
    if (!PyLong_Check(value)) {
        PyErr_Format(PyExc_TypeError, "%s must be an int, not %.100s", what,
                     Py_TYPE(value)->tp_name);
        return -1;
    }
    int overflow = 0;
    long long v = PyLong_AsLongLongAndOverflow(value, &overflow);
    if (v == -1 && PyErr_Occurred())
        return -1;
    if (overflow || v < low || v > high) {
        PyErr_Format(PyExc_ValueError, "%s must be from %lld to %lld", what, low, high);
        return -1;
    }
    *out = v;
    return 0;
}

static int
read_hash(PyObject *value, const char *what, uint64_t *out)
{
    if (!PyLong_Check(value)) {
        PyErr_Format(PyExc_TypeError, "%s must be an int", what);
        return -1;
    }
    unsigned long long v = PyLong_AsUnsignedLongLong(value);
    if (v == (unsigned long long)-1 && PyErr_Occurred())
        return -1;
    *out = (uint64_t)v;
    return 0;
}

/* tables[name]: a sequence of exactly count ints into out (as int or uint64). */
static int
read_sequence(PyObject *tables, const char *name, Py_ssize_t count, int *ints, uint64_t *hashes)
{
    PyObject *value = PyMapping_GetItemString(tables, name);
    if (value == NULL)
        return -1;
    PyObject *fast = PySequence_Fast(value, "a table must be a sequence");
    Py_DECREF(value);
    if (fast == NULL)
        return -1;
    int result = 0;
    if (PySequence_Fast_GET_SIZE(fast) != count) {
        PyErr_Format(PyExc_ValueError, "table %s must hold %zd numbers", name, count);
        result = -1;
    }
    for (Py_ssize_t i = 0; result == 0 && i < count; i++) {
        PyObject *item = PySequence_Fast_GET_ITEM(fast, i);
        if (hashes != NULL) {
            result = read_hash(item, name, &hashes[i]);
        } else {
            long long v = 0;
            result = read_long(item, -1000000000LL, 1000000000LL, name, &v);
            ints[i] = (int)v;
        }
    }
    Py_DECREF(fast);
    return result;
}

static int
read_number(PyObject *tables, const char *name, int *out)
{
    return read_sequence(tables, name, 1, out, NULL);
}

static int
read_tables(PyObject *tables, Tables *t)
{
    int constants[4], ending[8];
    static int kpk[KPK_BYTES];
    if (read_sequence(tables, "zobrist", 32 * 120, NULL, &t->zobrist[0][0]) < 0
        || read_sequence(tables, "zobrist_castling", 16, NULL, t->zobrist_castling) < 0
        || read_sequence(tables, "zobrist_ep", 120, NULL, t->zobrist_ep) < 0
        || read_sequence(tables, "zobrist_black", 1, NULL, &t->zobrist_black) < 0
        || read_sequence(tables, "pst_mg", 32 * 120, &t->pst_mg[0][0], NULL) < 0
        || read_sequence(tables, "pst_eg", 32 * 120, &t->pst_eg[0][0], NULL) < 0
        || read_sequence(tables, "piece_phase", 32, t->piece_phase, NULL) < 0
        || read_sequence(tables, "order_value", 32, t->order_value, NULL) < 0
        || read_sequence(tables, "castling_kept", 120, t->castling_kept, NULL) < 0
        || read_sequence(tables, "castling_rook_from", 120, t->castling_rook_from, NULL) < 0
        || read_sequence(tables, "castling_rook_to", 120, t->castling_rook_to, NULL) < 0
        || read_sequence(tables, "passed_mg", 8, t->passed_mg, NULL) < 0
        || read_sequence(tables, "passed_eg", 8, t->passed_eg, NULL) < 0
        || read_number(tables, "doubled_mg", &t->doubled_mg) < 0
        || read_number(tables, "doubled_eg", &t->doubled_eg) < 0
        || read_number(tables, "isolated_mg", &t->isolated_mg) < 0
        || read_number(tables, "isolated_eg", &t->isolated_eg) < 0
        || read_number(tables, "tempo", &t->tempo) < 0
        || read_number(tables, "futility_margin", &t->futility_margin) < 0
        || read_sequence(tables, "late_move_count", 4, t->late_move_count, NULL) < 0
        || read_sequence(tables, "ending_worth", 8, t->ending_worth, NULL) < 0
        || read_sequence(tables, "ending", 8, ending, NULL) < 0
        || read_sequence(tables, "kpk", KPK_BYTES, kpk, NULL) < 0
        || read_sequence(tables, "constants", 4, constants, NULL) < 0)
        return -1;
    t->ending_phase = ending[0];
    t->scale_cannot_win = ending[1];
    t->scale_minor_ahead = ending[2];
    t->scale_opposite_bishops = ending[3];
    t->mop_up_edge = ending[4];
    t->mop_up_corner = ending[5];
    t->mop_up_kings = ending[6];
    t->kpk_won = ending[7];
    for (int i = 0; i < KPK_BYTES; i++)
        t->kpk[i] = (unsigned char)kpk[i];
    /* The search's constants are written above as well as in engine.py: they must
     * agree (MATE, MATE_BOUND, MAX_PLY, MAX_MOVES). */
    if (constants[0] != MATE || constants[1] != MATE_BOUND || constants[2] != MAX_PLY
        || constants[3] != MAX_MOVES) {
        PyErr_SetString(PyExc_ValueError,
                        "MATE, MATE_BOUND, MAX_PLY or MAX_MOVES differ from the C search's");
        return -1;
    }
    return 0;
}

/* A list of internal move tuples into packed moves; at most MAX_MOVES. */
static int
read_moves(PyObject *list, Move *out, int *count)
{
    PyObject *fast = PySequence_Fast(list, "the moves must be a sequence");
    if (fast == NULL)
        return -1;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(fast);
    if (n < 1 || n > MAX_MOVES) {
        Py_DECREF(fast);
        PyErr_SetString(PyExc_ValueError, "from 1 to 256 moves are searched");
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *item = PySequence_Fast_GET_ITEM(fast, i);
        long long fr, to, flag;
        if (!PyTuple_Check(item) || PyTuple_GET_SIZE(item) != 3
            || read_long(PyTuple_GET_ITEM(item, 0), 21, 98, "a move's from cell", &fr) < 0
            || read_long(PyTuple_GET_ITEM(item, 1), 21, 98, "a move's to cell", &to) < 0
            || read_long(PyTuple_GET_ITEM(item, 2), 0, PROMOTE + QUEEN, "a move's flag", &flag)
                   < 0) {
            if (!PyErr_Occurred())
                PyErr_SetString(PyExc_TypeError, "a move is a tuple (from, to, flag)");
            Py_DECREF(fast);
            return -1;
        }
        out[i] = MOVE(fr, to, flag);
    }
    *count = (int)n;
    Py_DECREF(fast);
    return 0;
}

static PyObject *
move_tuple(Move m)
{
    return Py_BuildValue("(iii)", MOVE_FROM(m), MOVE_TO(m), MOVE_FLAG(m));
}

static PyObject *
moves_list(const Move *moves, int n)
{
    PyObject *list = PyList_New(n);
    if (list == NULL)
        return NULL;
    for (int i = 0; i < n; i++) {
        PyObject *item = move_tuple(moves[i]);
        if (item == NULL) {
            Py_DECREF(list);
            return NULL;
        }
        PyList_SET_ITEM(list, i, item);
    }
    return list;
}

/* -- the Python type ---------------------------------------------------------------- */

static void
Searcher_dealloc(SearcherObject *self)
{
    free(self->table.entries);
    free(self->pawns);
    free(self->pos.stack);
    Py_XDECREF(self->stop);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static int
Searcher_init(SearcherObject *self, PyObject *args, PyObject *kwargs)
{
    static char *keywords[] = {"tables", NULL};
    PyObject *tables;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O:Searcher", keywords, &tables))
        return -1;
    if (self->busy) {
        PyErr_SetString(PyExc_RuntimeError, "the searcher is searching");
        return -1;
    }
    Tables *read = calloc(1, sizeof(Tables));
    if (read == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    if (read_tables(tables, read) < 0) {
        free(read);
        return -1;
    }
    PawnEntry *pawns = calloc((size_t)1 << PAWN_CACHE_BITS, sizeof(PawnEntry));
    if (pawns == NULL || !table_reset(&self->table, TABLE_START)) {
        free(pawns);
        free(read);
        PyErr_NoMemory();
        return -1;
    }
    self->table.ceiling = SIZE_MAX; /* begin sets the search's own */
    /* The tables are the engine's constants: the first searcher's are kept, and
     * every later one must hand over the same (a search may be reading them in
     * another thread, without the GIL). */
    if (!tables_loaded) {
        T = *read;
        tables_loaded = 1;
    } else if (memcmp(&T, read, sizeof(Tables)) != 0) {
        free(pawns);
        free(read);
        PyErr_SetString(PyExc_ValueError, "the tables differ from those of the first searcher");
        return -1;
    }
    free(read);
    free(self->pawns);
    self->pawns = pawns;
    memset(self->history, 0, sizeof self->history);
    memset(self->counters, 0, sizeof self->counters);
    memset(self->killers, 0, sizeof self->killers);
    self->loaded = 0;
    return 0;
}

static int
check_ready(SearcherObject *self, int loaded)
{
    if (self->table.entries == NULL) {
        PyErr_SetString(PyExc_RuntimeError, "the searcher was not initialised");
        return 0;
    }
    if (self->busy) {
        PyErr_SetString(PyExc_RuntimeError, "the searcher is already searching");
        return 0;
    }
    if (loaded && !self->loaded) {
        PyErr_SetString(PyExc_RuntimeError, "no position was loaded (begin)");
        return 0;
    }
    return 1;
}

/* Searcher.clear */
static PyObject *
Searcher_clear(SearcherObject *self, PyObject *Py_UNUSED(ignored))
{
    if (!check_ready(self, 0))
        return NULL;
    if (!table_reset(&self->table, TABLE_START))
        return PyErr_NoMemory();
    memset(self->history, 0, sizeof self->history);
    memset(self->counters, 0, sizeof self->counters);
    Py_RETURN_NONE;
}

/* Searcher._begin: the position (ChessBoard's fields, the hashes of its stack)
 * and the limits; the killers forgotten, the table cleared when it holds more than
 * hash_entries positions, the history aged; the table holds at most table_ceiling
 * positions in this search. */
static PyObject *
Searcher_begin(SearcherObject *self, PyObject *args, PyObject *kwargs)
{
    static char *keywords[] = {"board",   "color",        "kings",   "castling",
                               "ep",      "halfmove",     "hash",    "stack",
                               "seconds", "nodes",        "stop",    "hash_entries",
                               "table_ceiling", NULL};
    PyObject *board, *kings, *stack, *hash_object, *seconds_object, *stop;
    int color, castling, ep, halfmove;
    long long node_limit, hash_entries, table_ceiling;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "OiOiiiOOOLOLL:begin", keywords, &board,
                                     &color, &kings, &castling, &ep, &halfmove, &hash_object,
                                     &stack, &seconds_object, &node_limit, &stop, &hash_entries,
                                     &table_ceiling))
        return NULL;
    if (table_ceiling < 1) {
        PyErr_SetString(PyExc_ValueError, "table_ceiling must be 1 or more");
        return NULL;
    }
    if (!check_ready(self, 0))
        return NULL;
    Position *p = &self->pos;
    PyObject *fast = PySequence_Fast(board, "the board must be a sequence");
    if (fast == NULL)
        return NULL;
    if (PySequence_Fast_GET_SIZE(fast) != 120) {
        Py_DECREF(fast);
        PyErr_SetString(PyExc_ValueError, "the board has 120 cells");
        return NULL;
    }
    int cells[120];
    for (int c = 0; c < 120; c++) {
        long long v;
        if (read_long(PySequence_Fast_GET_ITEM(fast, c), 0, OFF, "a cell", &v) < 0) {
            Py_DECREF(fast);
            return NULL;
        }
        cells[c] = (int)v;
    }
    Py_DECREF(fast);
    long long king_cells[2];
    if (!PyList_Check(kings) || PyList_GET_SIZE(kings) != 2
        || read_long(PyList_GET_ITEM(kings, 0), 21, 98, "a king's cell", &king_cells[0]) < 0
        || read_long(PyList_GET_ITEM(kings, 1), 21, 98, "a king's cell", &king_cells[1]) < 0) {
        if (!PyErr_Occurred())
            PyErr_SetString(PyExc_TypeError, "kings must be a list of two cells");
        return NULL;
    }
    if ((color != WHITE && color != BLACK) || castling < 0 || castling > 15 || ep < 0
        || ep >= 120 || halfmove < 0) {
        PyErr_SetString(PyExc_ValueError, "color, castling, ep or halfmove out of range");
        return NULL;
    }
    uint64_t hash;
    if (read_hash(hash_object, "hash", &hash) < 0)
        return NULL;
    PyObject *hashes = PySequence_Fast(stack, "the stack's hashes must be a sequence");
    if (hashes == NULL)
        return NULL;
    Py_ssize_t length = PySequence_Fast_GET_SIZE(hashes);
    int capacity = (int)length + 2 * MAX_PLY + 64;
    Undo *entries = calloc((size_t)capacity, sizeof(Undo));
    if (entries == NULL) {
        Py_DECREF(hashes);
        return PyErr_NoMemory();
    }
    for (Py_ssize_t i = 0; i < length; i++) {
        if (read_hash(PySequence_Fast_GET_ITEM(hashes, i), "a stack hash", &entries[i].hash) < 0) {
            Py_DECREF(hashes);
            free(entries);
            return NULL;
        }
    }
    Py_DECREF(hashes);
    double seconds = INFINITY;
    if (seconds_object != Py_None) {
        seconds = PyFloat_AsDouble(seconds_object);
        if (seconds == -1.0 && PyErr_Occurred()) {
            free(entries);
            return NULL;
        }
    }

    memcpy(p->b, cells, sizeof cells);
    p->men[0] = p->men[1] = 0;
    for (int sq = 0; sq < 64; sq++) {
        int piece = p->b[CELL[sq]];
        if (piece & (WHITE | BLACK))
            p->men[(piece & BLACK) ? 1 : 0] |= (uint64_t)1 << sq;
    }
    p->color = color;
    p->kings[0] = (int)king_cells[0];
    p->kings[1] = (int)king_cells[1];
    p->castling = castling;
    p->ep = ep;
    p->halfmove = halfmove;
    p->hash = hash;
    free(p->stack);
    p->stack = entries;
    p->stack_len = (int)length;
    p->stack_cap = capacity;

    self->deadline = now() + seconds;
    self->node_limit = node_limit > 0 ? node_limit : 0;
    Py_XDECREF(self->stop);
    self->stop = NULL;
    if (stop != Py_None) {
        Py_INCREF(stop);
        self->stop = stop;
    }
    self->next_stop_check = 0.0;
    self->nodes = 0;
    self->seldepth = 0;
    memset(self->killers, 0, sizeof self->killers);
    if ((long long)self->table.count > hash_entries) {
        if (!table_reset(&self->table, TABLE_START))
            return PyErr_NoMemory();
    }
    self->table.ceiling = (size_t)table_ceiling;
    for (int piece = 0; piece < 32; piece++)
        for (int c = 0; c < 120; c++)
            self->history[piece][c] >>= 3;
    self->loaded = 1;
    Py_RETURN_NONE;
}

/* The common part of root and root_exact: the search without the GIL. */
static int
start_search(SearcherObject *self, int seldepth)
{
    self->busy = 1;
    self->stopped = 0;
    self->failed = 0;
    self->out_of_memory = 0;
    self->have_partial = 0;
    self->seldepth = seldepth;
    self->thread = PyEval_SaveThread();
    return 1;
}

/* After the search: 0 when it went through, 1 when stopped, -1 on an error (set). */
static int
end_search(SearcherObject *self)
{
    PyEval_RestoreThread(self->thread);
    self->busy = 0;
    if (self->out_of_memory) {
        PyErr_NoMemory();
        return -1;
    }
    if (self->failed) {
        if (!PyErr_Occurred())
            PyErr_SetString(PyExc_RuntimeError, "the search failed");
        return -1;
    }
    return self->stopped ? 1 : 0;
}

static int
read_root_args(SearcherObject *self, PyObject *roots, Move *moves, int *n, long long mg,
               long long eg, long long phase, PyObject *pawns_object, Sums *at)
{
    if (!check_ready(self, 1))
        return -1;
    if (read_moves(roots, moves, n) < 0)
        return -1;
    uint64_t pawns;
    if (read_hash(pawns_object, "pawns", &pawns) < 0)
        return -1;
    at->mg = (int)mg, at->eg = (int)eg, at->phase = (int)phase, at->pawns = pawns;
    return 0;
}

/* Searcher._root: (score, move), or None when the limits stopped it. */
static PyObject *
Searcher_root(SearcherObject *self, PyObject *args)
{
    int depth, seldepth, n, alpha, beta;
    long long mg, eg, phase;
    PyObject *roots, *pawns_object;
    if (!PyArg_ParseTuple(args, "iOLLLOiii:root", &depth, &roots, &mg, &eg, &phase, &pawns_object,
                          &seldepth, &alpha, &beta))
        return NULL;
    Move moves[MAX_MOVES];
    Sums at;
    if (read_root_args(self, roots, moves, &n, mg, eg, phase, pawns_object, &at) < 0)
        return NULL;
    int score = 0;
    Move best = 0;
    start_search(self, seldepth);
    root_search(self, depth, moves, n, at, alpha, beta, &score, &best);
    int ended = end_search(self);
    if (ended < 0)
        return NULL;
    if (ended)
        Py_RETURN_NONE;
    return Py_BuildValue("(iN)", score, move_tuple(best));
}

/* Searcher._root_exact before its filter: every root move's score, or None when
 * the limits stopped it. */
static PyObject *
Searcher_root_exact(SearcherObject *self, PyObject *args)
{
    int depth, seldepth, margin, n;
    long long mg, eg, phase;
    PyObject *roots, *pawns_object;
    if (!PyArg_ParseTuple(args, "iOLLLOii:root_exact", &depth, &roots, &mg, &eg, &phase,
                          &pawns_object, &margin, &seldepth))
        return NULL;
    Move moves[MAX_MOVES];
    int scores[MAX_MOVES];
    Sums at;
    if (read_root_args(self, roots, moves, &n, mg, eg, phase, pawns_object, &at) < 0)
        return NULL;
    start_search(self, seldepth);
    root_exact(self, depth, moves, n, at, margin, scores);
    int ended = end_search(self);
    if (ended < 0)
        return NULL;
    if (ended)
        Py_RETURN_NONE;
    PyObject *list = PyList_New(n);
    if (list == NULL)
        return NULL;
    for (int i = 0; i < n; i++) {
        PyObject *item = PyLong_FromLong(scores[i]);
        if (item == NULL) {
            Py_DECREF(list);
            return NULL;
        }
        PyList_SET_ITEM(list, i, item);
    }
    return list;
}

/* Searcher._pv: the first move, then the table's moves while they are legal
 * (without repeating a position), at most 30. */
static PyObject *
Searcher_pv(SearcherObject *self, PyObject *first_object)
{
    if (!check_ready(self, 1))
        return NULL;
    Move first;
    int n;
    PyObject *wrapped = PyTuple_Pack(1, first_object);
    if (wrapped == NULL)
        return NULL;
    int bad = read_moves(wrapped, &first, &n);
    Py_DECREF(wrapped);
    if (bad < 0)
        return NULL;
    Position *p = &self->pos;
    Move line[30], legal[MAX_MOVES];
    uint64_t seen[31];
    int made = 1, seen_count = 1;
    line[0] = first;
    make_move(p, first);
    seen[0] = p->hash;
    while (made < 30) {
        const Entry *entry = table_get(&self->table, p->hash);
        if (entry == NULL || entry->move == 0)
            break;
        int count = generate(p, legal), found = 0;
        for (int i = 0; i < count; i++)
            if (legal[i] == entry->move)
                found = 1;
        if (!found)
            break;
        Move m = entry->move;
        make_move(p, m);
        line[made++] = m;
        int repeated = 0;
        for (int i = 0; i < seen_count; i++)
            if (seen[i] == p->hash)
                repeated = 1;
        if (repeated)
            break;
        seen[seen_count++] = p->hash;
    }
    for (int i = 0; i < made; i++)
        unmake_move(p);
    return moves_list(line, made);
}

/* _root_lines' store: the root's entry (depth, score, EXACT, move). */
static PyObject *
Searcher_store_root(SearcherObject *self, PyObject *args)
{
    int depth, score;
    PyObject *move_object;
    if (!PyArg_ParseTuple(args, "iiO:store_root", &depth, &score, &move_object))
        return NULL;
    if (!check_ready(self, 1))
        return NULL;
    Move m;
    int n;
    PyObject *wrapped = PyTuple_Pack(1, move_object);
    if (wrapped == NULL)
        return NULL;
    int bad = read_moves(wrapped, &m, &n);
    Py_DECREF(wrapped);
    if (bad < 0)
        return NULL;
    if (!table_put(&self->table, self->pos.hash, depth, score, EXACT, m))
        return PyErr_NoMemory();
    Py_RETURN_NONE;
}

/* The loaded position's legal moves, in ChessBoard.generate's order. */
static PyObject *
Searcher_moves(SearcherObject *self, PyObject *Py_UNUSED(ignored))
{
    if (!check_ready(self, 1))
        return NULL;
    Move moves[MAX_MOVES];
    int n = generate(&self->pos, moves);
    return moves_list(moves, n);
}

static int64_t
perft(Position *p, int depth)
{
    if (depth == 0)
        return 1;
    Move moves[MAX_MOVES];
    int n = generate(p, moves);
    if (depth == 1)
        return n;
    int64_t total = 0;
    for (int i = 0; i < n; i++) {
        make_move(p, moves[i]);
        total += perft(p, depth - 1);
        unmake_move(p);
    }
    return total;
}

/* ChessBoard.perft(depth, bulk=True) of the loaded position. */
static PyObject *
Searcher_perft(SearcherObject *self, PyObject *arg)
{
    long long depth;
    if (read_long(arg, 0, 2 * MAX_PLY, "depth", &depth) < 0 || !check_ready(self, 1))
        return NULL;
    if (self->pos.stack_len + depth > self->pos.stack_cap) {
        PyErr_SetString(PyExc_ValueError, "too deep");
        return NULL;
    }
    return PyLong_FromLongLong(perft(&self->pos, (int)depth));
}

static PyObject *
Searcher_get_nodes(SearcherObject *self, void *Py_UNUSED(closure))
{
    return PyLong_FromLongLong(self->nodes);
}

static PyObject *
Searcher_get_seldepth(SearcherObject *self, void *Py_UNUSED(closure))
{
    return PyLong_FromLong(self->seldepth);
}

static PyObject *
Searcher_get_partial(SearcherObject *self, void *Py_UNUSED(closure))
{
    if (!self->have_partial)
        Py_RETURN_NONE;
    return Py_BuildValue("(iN)", self->partial_score, move_tuple(self->partial_move));
}

static PyObject *
Searcher_get_table_count(SearcherObject *self, void *Py_UNUSED(closure))
{
    return PyLong_FromSize_t(self->table.count);
}

static PyGetSetDef Searcher_getset[] = {
    {"nodes", (getter)Searcher_get_nodes, NULL, "Nodes searched since begin.", NULL},
    {"seldepth", (getter)Searcher_get_seldepth, NULL, "The deepest ply reached.", NULL},
    {"partial", (getter)Searcher_get_partial, NULL,
     "The last root search's best (score, move) so far, or None.", NULL},
    {"table_count", (getter)Searcher_get_table_count, NULL,
     "Positions in the transposition table.", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyMethodDef Searcher_methods[] = {
    {"begin", (PyCFunction)(void (*)(void))Searcher_begin, METH_VARARGS | METH_KEYWORDS,
     "begin(board, color, kings, castling, ep, halfmove, hash, stack, seconds, nodes, stop, "
     "hash_entries, table_ceiling)\n--\n\n"
     "Searcher._begin: load a position and the search's limits."},
    {"root", (PyCFunction)Searcher_root, METH_VARARGS,
     "root(depth, roots, mg, eg, phase, pawns, seldepth, alpha, beta)\n--\n\n"
     "Searcher._root: (score, move) within (alpha, beta), or None when stopped."},
    {"root_exact", (PyCFunction)Searcher_root_exact, METH_VARARGS,
     "root_exact(depth, roots, mg, eg, phase, pawns, margin, seldepth)\n--\n\n"
     "Every root move's score as Searcher._root_exact finds it, or None when stopped."},
    {"pv", (PyCFunction)Searcher_pv, METH_O, "Searcher._pv: the principal variation."},
    {"store_root", (PyCFunction)Searcher_store_root, METH_VARARGS,
     "store_root(depth, score, move)\n--\n\nThe root's table entry, exact."},
    {"clear", (PyCFunction)Searcher_clear, METH_NOARGS,
     "Forget the transposition table and the history (a new game)."},
    {"moves", (PyCFunction)Searcher_moves, METH_NOARGS,
     "The loaded position's legal moves in ChessBoard.generate's order."},
    {"perft", (PyCFunction)Searcher_perft, METH_O,
     "Leaf nodes of the loaded position's legal-move tree."},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject SearcherType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "parlour.chess.native.Searcher",
    .tp_doc = PyDoc_STR("Searcher(tables)\n--\n\n"
                        "The chess search with its transposition table and history, kept "
                        "from search to search: ``tables`` from engine.native_tables()."),
    .tp_basicsize = sizeof(SearcherObject),
    .tp_itemsize = 0,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Searcher_init,
    .tp_dealloc = (destructor)Searcher_dealloc,
    .tp_methods = Searcher_methods,
    .tp_getset = Searcher_getset,
};

static struct PyModuleDef native_module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "parlour.chess.native",
    .m_doc = "The chess search in C: parlour.chess.engine.Searcher's search over "
             "parlour.chess.board.ChessBoard, node for node.",
    .m_size = -1,
};

PyMODINIT_FUNC
PyInit_native(void)
{
    init_board();
    if (PyType_Ready(&SearcherType) < 0)
        return NULL;
    PyObject *module = PyModule_Create(&native_module);
    if (module == NULL)
        return NULL;
    Py_INCREF(&SearcherType);
    if (PyModule_AddObject(module, "Searcher", (PyObject *)&SearcherType) < 0) {
        Py_DECREF(&SearcherType);
        Py_DECREF(module);
        return NULL;
    }
    return module;
}
