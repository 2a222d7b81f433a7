"""Who may hold each hidden card, and how likely: exact counting of the deals consistent with the record.

The hidden information is where the cards are that this seat has not seen. Every consistent
arrangement is equally likely (the deal is uniform, and every public event either moved a card face up
or cut arrangements out), so probabilities are counts of arrangements:

- each hidden card may be held by the holders not known to lack it (`allowed`, a bit mask);
- each holder holds exactly `slots` hidden cards (its hand count minus its known cards; the stock its size);
- `need[h][s]`: holder h holds at least this many hidden cards of set s (it asked for s);
- `cap[h][s]`: at most this many (a player holding a whole set would have laid it down).

`solve` counts exactly when the table is small (a dynamic programme over the constrained sets, the
unconstrained cards pooled in one multinomial); when that would be slow (five or more hidden hands, as in
Literature) it samples consistent deals by a Markov chain of card swaps started from a feasible deal
found by a flow. `must_hold` answers exactly, by a flow, whether a card can be anywhere else.
"""
from __future__ import annotations

import random
from collections import deque
from collections.abc import Set as AbstractSet
from itertools import product
from math import comb, factorial

from .knowledge import UNKNOWN, Knowledge

MAX_WORK = 30_000        # beyond this many steps of the count's forward pass, sampling takes over
MAX_ASSIGNMENTS = 400    # ... or beyond this many ways to spread one set's hidden cards
SAMPLES = 160
SWAPS_PER_SAMPLE = 12
FACT = [factorial(i) for i in range(128)]
FIELD = 8                # bits per holder in a state key; the top bit of each field guards against borrow


class Inconsistent(Exception):
    """No deal fits the facts (a fact was missed, e.g. a bot made in mid-game): relax and retry."""


class Deal:
    def __init__(self, know: Knowledge, relax: bool = False):
        self.know = know
        n = know.n
        holders = [p for p in range(n) if p != know.me and know.counts[p] > 0]
        if know.has_stock and know.stock > 0:
            holders.append(n)  # the stock, as holder "player n"
        self.holders = holders
        self.pos = {p: h for h, p in enumerate(holders)}
        self.m = m = len(holders)
        loc = know.loc
        hidden = [c for c, where in enumerate(loc) if where == UNKNOWN]  # laid-down cards are OUT
        self.hidden = hidden
        self.index = {c: i for i, c in enumerate(hidden)}
        known_at = [[0] * len(know.set_ids) for _ in range(m)]
        for c, where in enumerate(loc):
            if where >= 0 and where in self.pos:
                known_at[self.pos[where]][know.card_set[c]] += 1
        self.slots = []
        for h, p in enumerate(holders):
            size = know.stock if p == n else know.counts[p]
            self.slots.append(size - sum(known_at[h]))
        if sum(self.slots) != len(hidden) or min(self.slots, default=0) < 0:
            raise Inconsistent("hand counts do not match the cards unaccounted for")
        full = (1 << m) - 1
        self.allowed = []
        for c in hidden:
            mask = 0
            if not relax:
                for h, p in enumerate(holders):
                    if not know.cannot[c] >> p & 1 and self.slots[h] > 0:
                        mask |= 1 << h
            else:
                mask = sum(1 << h for h in range(m) if self.slots[h] > 0)
            if not mask:
                raise Inconsistent("a card nobody can hold")
            self.allowed.append(mask)
        self.full = full
        nsets = len(know.set_ids)
        self.need = [[0] * nsets for _ in range(m)]
        self.cap = [[99] * nsets for _ in range(m)]
        for h, p in enumerate(holders):
            if p == n:
                continue
            for s in range(nsets):
                if know.down[s]:
                    continue
                if not relax:
                    self.need[h][s] = max(0, know.floor[p][s] - known_at[h][s])
                if know.lay_down:
                    self.cap[h][s] = know.set_size[s] - 1 - known_at[h][s]
        self.known_at = known_at
        self.by_set: dict[int, list[int]] = {}
        for i, c in enumerate(hidden):
            self.by_set.setdefault(know.card_set[c], []).append(i)
        # results of solve(): probabilities per hidden card and holder, and per set and holder
        self.card_p: list[list[float]] = []
        self.sure: dict[int, int] = {}           # hidden card -> the holder it is certainly with
        self.any_p: dict[int, list[float]] = {}   # set -> P(holder has at least one hidden card of it)
        self.all_p: dict[int, list[float]] = {}   # set -> P(holder has every hidden card of it)
        self.joint: dict[int, dict[tuple[int, ...], float]] = {}  # watched set -> {hidden count per holder: P}
        self.watch: AbstractSet[int] = set()
        self.exact = False

    # ------------------------------------------------------------------------------------------
    def solve(self, rng: random.Random, watch: AbstractSet[int] = frozenset()) -> "Deal":
        """Work out the probabilities; `watch`: sets whose joint spread (`joint`) is wanted."""
        self.watch = watch
        if not self.hidden:
            self.exact = True
            return self
        try:
            self._count()
            self.exact = True
        except _TooBig:
            self._sample(rng)
        return self

    # ------------------------------------------------------------------------------------------
    # Exact counting
    # ------------------------------------------------------------------------------------------
    def _count(self) -> None:
        m = self.m
        guard = sum(1 << (FIELD * h + FIELD - 1) for h in range(m))
        start = sum((self.slots[h] + (1 << (FIELD - 1))) << (FIELD * h) for h in range(m))
        constrained: list[tuple[int, list[int], _Spread]] = []
        free_sets: list[tuple[int, list[int]]] = []
        for s, cards in self.by_set.items():
            d = len(cards)
            if (s not in self.watch and all(self.allowed[i] == self.full for i in cards)
                    and all(self.need[h][s] == 0 and self.cap[h][s] >= d for h in range(m))):
                free_sets.append((s, cards))
                continue
            constrained.append((s, cards, self._spread(s, cards)))
        n_free = sum(len(cards) for _, cards in free_sets)

        constrained.sort(key=lambda entry: len(entry[2]))
        # A bound on the work: states cannot outnumber the ways to leave room in the hands.
        room = sorted(self.slots)
        cap_states = 1
        for x in room[:-1]:
            cap_states *= x + 1
        bound, states = 0, 1
        for _, _, table in constrained:
            bound += states * len(table)
            states = min(cap_states, states * len(table))
        if bound > 4 * MAX_WORK:
            raise _TooBig()
        forwards = [{start: 1}]
        work = 0
        nxt: dict[int, int]
        for _, _, table in constrained:
            f, nxt = forwards[-1], {}
            work += len(f) * len(table)
            if work > MAX_WORK:
                raise _TooBig()
            get = nxt.get
            for key, ways in f.items():
                for vkey, w, _ in table:
                    k2 = key - vkey
                    if k2 & guard == guard:
                        nxt[k2] = get(k2, 0) + ways * w
            if not nxt:
                raise Inconsistent("no deal fits")
            forwards.append(nxt)

        half = 1 << (FIELD - 1)
        mask = (1 << FIELD) - 1

        def rest(key: int) -> list[int]:
            return [((key >> (FIELD * h)) & mask) - half for h in range(m)]

        # the free cards fill whatever room is left: a multinomial
        end = {}
        fk = FACT[n_free]
        for key in forwards[-1]:
            r = rest(key)
            ways = fk
            for x in r:
                ways //= FACT[x]
            end[key] = ways
        total = sum(forwards[-1][k] * end[k] for k in end)
        if total == 0:
            raise Inconsistent("no deal fits")
        self.total = total
        card_num = [[0] * m for _ in self.hidden]
        any_num: dict[int, list[float]] = {}  # arrangements by holder (a free set: already a probability)
        all_num: dict[int, list[float]] = {}

        back = end
        for j in range(len(constrained) - 1, -1, -1):
            s, cards, table = constrained[j]
            f = forwards[j]
            b_prev = {}
            through = [0] * len(table)   # arrangements with this set spread as table[t]
            for key, ways in f.items():
                acc = 0
                for t, (vkey, w, _) in enumerate(table):
                    b = back.get(key - vkey)
                    if b:
                        acc += w * b
                        through[t] += ways * b
                if acc:
                    b_prev[key] = acc
            back = b_prev
            d = len(cards)
            an: list[float] = [0] * m
            al: list[float] = [0] * m
            joint: dict[tuple[int, ...], float] | None = {} if s in self.watch else None
            for t, (vkey, w, per_card) in enumerate(table):
                x = through[t]
                if not x:
                    continue
                if joint is not None:
                    joint[tuple((vkey >> (FIELD * h)) & mask for h in range(m))] = w * x / total
                for h in range(m):
                    v = (vkey >> (FIELD * h)) & mask
                    if v:
                        an[h] += w * x
                        if v == d:
                            al[h] += w * x
                for ci, i in enumerate(cards):
                    row = card_num[i]
                    for h in range(m):
                        row[h] += per_card[ci * m + h] * x
            any_num[s], all_num[s] = an, al
            if joint is not None:
                self.joint[s] = joint

        free_p: list[float] = []
        if free_sets:
            weight = [(rest(k), forwards[-1][k] * end[k]) for k in end]
            e_room = [0] * m
            for r, w in weight:
                for h in range(m):
                    e_room[h] += w * r[h]
            free_p = [x / (n_free * total) for x in e_room]
            free_sure = [h for h in range(m) if e_room[h] == n_free * total]
            sizes = {len(cards) for _, cards in free_sets}
            none_num = {d: [0] * m for d in sizes}
            all_free = {d: [0] * m for d in sizes}
            for r, w in weight:
                for d in sizes:
                    row, row_all = none_num[d], all_free[d]
                    for h in range(m):
                        row[h] += w * comb(n_free - r[h], d)
                        row_all[h] += w * comb(r[h], d)
            for s, cards in free_sets:
                denom = comb(n_free, len(cards)) * total
                any_num[s] = [1 - x / denom for x in none_num[len(cards)]]
                all_num[s] = [x / denom for x in all_free[len(cards)]]

        self.card_p = [[x / total for x in row] for row in card_num]
        self.sure = {i: row.index(total) for i, row in enumerate(card_num) if total in row}
        for _s, cards in free_sets:
            for i in cards:
                self.card_p[i] = free_p
                if free_sure:
                    self.sure[i] = free_sure[0]
        self.any_p = {s: [x / total for x in row] for s, row in any_num.items() if s not in dict(free_sets)}
        self.all_p = {s: [x / total for x in row] for s, row in all_num.items() if s not in dict(free_sets)}
        for s, _ in free_sets:
            self.any_p[s], self.all_p[s] = any_num[s], all_num[s]

    def _spread(self, s: int, cards: list[int]) -> _Spread:
        """Every way the set's hidden cards can lie: (count vector key, ways, ways per card and holder)."""
        m = self.m
        key = (m, tuple(self.allowed[i] for i in cards), tuple(self.need[h][s] for h in range(m)),
               tuple(min(self.cap[h][s], len(cards)) for h in range(m)))
        table = _SPREADS.get(key)
        if table is None:
            if len(_SPREADS) > 20_000:
                _SPREADS.clear()
            table = _SPREADS[key] = _spread(*key)
        if isinstance(table, str):
            if table == "big":
                raise _TooBig()
            raise Inconsistent("no way to spread a set")
        return table

    # ------------------------------------------------------------------------------------------
    # Sampling (large tables)
    # ------------------------------------------------------------------------------------------
    def _sample(self, rng: random.Random) -> None:
        m, know = self.m, self.know
        holder = self.feasible(rng=rng)
        if holder is None:
            raise Inconsistent("no deal fits")
        n = len(self.hidden)
        sets = [know.card_set[c] for c in self.hidden]
        cnt = [[0] * len(know.set_ids) for _ in range(m)]
        for i, h in enumerate(holder):
            cnt[h][sets[i]] += 1
        allowed, need, cap = self.allowed, self.need, self.cap
        card_hits = [[0] * m for _ in range(n)]
        set_list = list(self.by_set)
        any_hits = {s: [0] * m for s in set_list}
        all_hits = {s: [0] * m for s in set_list}
        sizes = {s: len(cards) for s, cards in self.by_set.items()}
        watched = [s for s in set_list if s in self.watch]
        joints: dict[int, dict[tuple[int, ...], int]] = {s: {} for s in watched}
        rand = rng.random
        burn = 40 * n
        steps = burn + SAMPLES * SWAPS_PER_SAMPLE
        for step in range(steps):
            # Swap two cards between two hands, or (one step in four) turn three cards round three
            # hands: swaps alone cannot always get past a set that must stay in some hand.
            i, j = int(rand() * n), int(rand() * n)
            hi, hj = holder[i], holder[j]
            if step & 3 == 3:
                k = int(rand() * n)
                hk = holder[k]
                if (hi != hj and hj != hk and hi != hk and allowed[i] >> hj & 1 and allowed[j] >> hk & 1
                        and allowed[k] >> hi & 1):
                    moves = ((i, hi, hj), (j, hj, hk), (k, hk, hi))
                    if _fits(moves, sets, cnt, need, cap):
                        for x, a, b in moves:
                            holder[x] = b
                            cnt[a][sets[x]] -= 1
                            cnt[b][sets[x]] += 1
            elif hi != hj and allowed[i] >> hj & 1 and allowed[j] >> hi & 1:
                si, sj = sets[i], sets[j]
                if si == sj or (cnt[hi][si] > need[hi][si] and cnt[hj][sj] > need[hj][sj]
                                and cnt[hj][si] < cap[hj][si] and cnt[hi][sj] < cap[hi][sj]):
                    holder[i], holder[j] = hj, hi
                    cnt[hi][si] -= 1
                    cnt[hj][si] += 1
                    cnt[hj][sj] -= 1
                    cnt[hi][sj] += 1
            if step >= burn and (step - burn) % SWAPS_PER_SAMPLE == 0:
                for i2 in range(n):
                    card_hits[i2][holder[i2]] += 1
                for s in watched:
                    vec = tuple(cnt[h][s] for h in range(m))
                    joints[s][vec] = joints[s].get(vec, 0) + 1
                for s in set_list:
                    row_any, row_all, size = any_hits[s], all_hits[s], sizes[s]
                    for h in range(m):
                        x = cnt[h][s]
                        if x:
                            row_any[h] += 1
                            if x == size:
                                row_all[h] += 1
        samples = SAMPLES
        self.card_p = [[x / samples for x in row] for row in card_hits]
        self.any_p = {s: [x / samples for x in row] for s, row in any_hits.items()}
        self.all_p = {s: [x / samples for x in row] for s, row in all_hits.items()}
        self.joint = {s: {vec: x / samples for vec, x in joint.items()} for s, joint in joints.items()}
        self.sure = {i: self.allowed[i].bit_length() - 1 for i in range(n) if self.allowed[i] & (self.allowed[i] - 1) == 0}

    # ------------------------------------------------------------------------------------------
    # Feasibility by a flow: cards -> (holder, set) -> holder, with the needs as lower bounds
    # ------------------------------------------------------------------------------------------
    def feasible(self, forbid: tuple[int, int] | None = None, rng: random.Random | None = None) -> list[int] | None:
        """A deal that fits every fact (holder per hidden card), or None. `forbid` = (card, holder) keeps
        that card away from that holder: None then proves the card is there."""
        know, m = self.know, self.m
        n = len(self.hidden)
        order = list(range(n))
        if rng is not None:
            rng.shuffle(order)
        flow = _Flow()
        src, sink = flow.node(), flow.node()
        card_node = [flow.node() for _ in range(n)]
        holder_node = [flow.node() for _ in range(m)]
        pair_node: dict[tuple[int, int], int] = {}
        card_edge: list[list[tuple[int, int]]] = [[] for _ in range(n)]
        for i in order:
            s = know.card_set[self.hidden[i]]
            flow.add(src, card_node[i], 1)
            for h in range(m):
                if not self.allowed[i] >> h & 1 or forbid == (i, h):
                    continue
                pair = pair_node.get((h, s))
                if pair is None:
                    pair = pair_node[(h, s)] = flow.node()
                card_edge[i].append((h, flow.add(card_node[i], pair, 1)))
        for (h, s), pair in pair_node.items():
            flow.add_bounded(pair, holder_node[h], self.need[h][s], min(self.cap[h][s], n))
        for (h, s) in ((h, s) for h in range(m) for s in range(len(know.set_ids)) if self.need[h][s]):
            if (h, s) not in pair_node:
                return None
        for h in range(m):
            flow.add_bounded(holder_node[h], sink, self.slots[h], self.slots[h])
        flow.add(sink, src, n)
        if not flow.feasible():
            return None
        holder = [0] * n
        for i in range(n):
            for h, e in card_edge[i]:
                if flow.cap[e] == 0:
                    holder[i] = h
        return holder

    def must_hold(self, i: int) -> int | None:
        """The holder hidden card i is certainly with, proved by the flow, or None."""
        if i in self.sure:
            return self.sure[i]
        mask = self.allowed[i]
        if mask & (mask - 1) == 0:
            return mask.bit_length() - 1
        if self.card_p:
            best = max(range(self.m), key=lambda h: self.card_p[i][h])
        else:
            best = mask.bit_length() - 1
        if self.exact:
            return None
        if self.feasible(forbid=(i, best)) is None:
            self.sure[i] = best
            return best
        return None


class _TooBig(Exception):
    pass


# The ways a set's hidden cards can lie: (count vector key, ways, ways per card and holder).
_Spread = list[tuple[int, int, list[int]]]
# The same spread recurs move after move: worked out once, by (holders, allowed holders per card, needs,
# caps); "big" or "none" where there is no table.
_SPREADS: dict[tuple[int, tuple[int, ...], tuple[int, ...], tuple[int, ...]], _Spread | str] = {}


def _spread(m: int, allowed: tuple[int, ...], need: tuple[int, ...], cap: tuple[int, ...]) -> _Spread | str:
    options = [[h for h in range(m) if mask >> h & 1] for mask in allowed]
    size = 1
    for o in options:
        size *= len(o)
    if size > MAX_ASSIGNMENTS:
        return "big"
    ways: dict[int, int] = {}            # by count vector key: the assignments
    per_card: dict[int, list[int]] = {}  # ... and how many put each card with each holder
    d = len(allowed)
    for combo in product(*options):
        counts = [0] * m
        for h in combo:
            counts[h] += 1
        if any(counts[h] < need[h] or counts[h] > cap[h] for h in range(m)):
            continue
        key = sum(counts[h] << (FIELD * h) for h in range(m))
        per = per_card.get(key)
        if per is None:
            per = per_card[key] = [0] * (d * m)
            ways[key] = 0
        ways[key] += 1
        for ci, h in enumerate(combo):
            per[ci * m + h] += 1
    if not per_card:
        return "none"
    return [(key, ways[key], per) for key, per in per_card.items()]


def _fits(moves: tuple[tuple[int, int, int], ...], sets: list[int], cnt: list[list[int]], need: list[list[int]],
          cap: list[list[int]]) -> bool:
    """Whether moving each (card, from, to) keeps every hand within its needs and caps."""
    delta: dict[tuple[int, int], int] = {}
    for x, a, b in moves:
        s = sets[x]
        delta[(a, s)] = delta.get((a, s), 0) - 1
        delta[(b, s)] = delta.get((b, s), 0) + 1
    return all(need[h][s] <= cnt[h][s] + d <= cap[h][s] for (h, s), d in delta.items())


class _Flow:
    """A small max-flow (BFS augmenting paths) with lower bounds by the usual reduction."""

    def __init__(self) -> None:
        self.head: list[list[int]] = []
        self.to: list[int] = []
        self.cap: list[int] = []
        self.excess: list[int] = []

    def node(self) -> int:
        self.head.append([])
        self.excess.append(0)
        return len(self.head) - 1

    def add(self, u: int, v: int, c: int) -> int:
        self.head[u].append(len(self.to))
        self.to.append(v)
        self.cap.append(c)
        self.head[v].append(len(self.to))
        self.to.append(u)
        self.cap.append(0)
        return len(self.to) - 2

    def add_bounded(self, u: int, v: int, low: int, high: int) -> None:
        if high < low:
            self.excess[u] -= 10 ** 6  # cannot be met
            return
        if high > low:
            self.add(u, v, high - low)
        self.excess[v] += low
        self.excess[u] -= low

    def feasible(self) -> bool:
        s, t = self.node(), self.node()
        want = 0
        for v, x in enumerate(self.excess):
            if x > 0:
                self.add(s, v, x)
                want += x
            elif x < 0:
                self.add(v, t, -x)
        return self._max_flow(s, t) == want

    def _max_flow(self, s: int, t: int) -> int:
        total = 0
        head, to, cap = self.head, self.to, self.cap
        while True:
            parent = [-1] * len(head)
            parent[s] = -2
            queue = deque([s])
            while queue and parent[t] == -1:
                u = queue.popleft()
                for e in head[u]:
                    v = to[e]
                    if cap[e] > 0 and parent[v] == -1:
                        parent[v] = e
                        queue.append(v)
            if parent[t] == -1:
                return total
            push, v = 1 << 30, t
            while v != s:
                e = parent[v]
                push = min(push, cap[e])
                v = to[e ^ 1]
            v = t
            while v != s:
                e = parent[v]
                cap[e] -= push
                cap[e ^ 1] += push
                v = to[e ^ 1]
            total += push
